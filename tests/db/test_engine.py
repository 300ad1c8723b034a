"""The store with the real engine: a whole game saved move by move, replayed from its log, and its results."""

import random

import pytest

from db import CorruptGame, GameStatus, GameStore, Seat, decode_engine_state, results_from_game
from engine import Game, GameConfig, action_from_dict

PLAYERS = (11, 22, 33)


async def play_random_game(store: GameStore, *, seed: int, moves_limit: int | None = None) -> int:
    """A lobby of three people and a computer, started and played with random legal moves, each one loaded from and
    saved to the store as the bot does. Returns the game id."""
    lobby = await store.create_game(
        channel_id=500,
        guild_id=9,
        host_user_id=PLAYERS[0],
        kind="queendomino",
        config={"game": "queendomino", "variants": []},
        seats=[*(Seat.human(uid, f"p{uid}") for uid in PLAYERS), Seat.computer(1, "random", "Robot")],
        seed=seed,
    )
    config = GameConfig(game="queendomino", players=tuple(s.player_id for s in lobby.seats))
    await store.start_game(
        lobby.id, lobby.version, config=config.to_dict(), state=Game.new(config, lobby.seed).to_dict()
    )
    rng = random.Random(seed)
    moves = 0
    while moves_limit is None or moves < moves_limit:
        record = await store.get_game(lobby.id)
        game = record.game
        assert isinstance(game, Game)
        if game.is_over:
            break
        player = game.decision().player
        action = rng.choice(game.legal_actions())
        game.apply(action, by=player)
        seat = record.seat_of(player)
        await store.save_move(
            record.id,
            record.version,
            state=game.to_dict(),
            action=action.to_dict(),
            player_id=player,
            user_id=seat.user_id,
            results=results_from_game(game) if game.is_over else None,
        )
        moves += 1
    return lobby.id


@pytest.fixture
async def engine_store(open_store) -> GameStore:
    return await open_store(decode_state=decode_engine_state)


async def test_replaying_the_log_gives_the_stored_state(engine_store):
    game_id = await play_random_game(engine_store, seed=7)
    record = await engine_store.get_game(game_id)
    assert record.status is GameStatus.FINISHED and record.game.is_over

    log = await engine_store.get_actions(game_id)
    assert [a.seq for a in log] == list(range(1, len(log) + 1))
    replayed = Game.replay(
        GameConfig.from_dict(record.config), record.seed, [(a.player_id, action_from_dict(a.action)) for a in log]
    )
    assert record.state is None  # the store keeps the engine object, not the raw dict beside it
    assert replayed.to_dict() == record.game.to_dict()
    # the computer's moves are logged without a user
    assert {a.user_id for a in log if a.player_id == "cpu:1"} == {None}


async def test_replaying_part_of_a_game(engine_store):
    game_id = await play_random_game(engine_store, seed=3, moves_limit=25)
    record = await engine_store.get_game(game_id)
    log = await engine_store.get_actions(game_id)
    assert len(log) == 25 and record.status is GameStatus.PLAYING
    replayed = Game.replay(
        GameConfig.from_dict(record.config), record.seed, [(a.player_id, action_from_dict(a.action)) for a in log]
    )
    assert replayed.to_dict() == record.game.to_dict()


async def test_results_of_a_finished_game_feed_the_statistics(engine_store):
    game_id = await play_random_game(engine_store, seed=11)
    game = (await engine_store.get_game(game_id)).game
    result = game.result()
    for index, uid in enumerate(PLAYERS):
        (stats,) = await engine_store.user_stats(uid, guild_id=9)
        assert (stats.kind, stats.games_played) == ("queendomino", 1)
        assert stats.best_score == result.totals[index]
        assert stats.wins == (index in result.winner_kingdoms)
    assert len(await engine_store.guild_stats(9)) == len(PLAYERS)  # the computer is not ranked


def test_results_from_game_cover_every_player():
    config = GameConfig(game="kingdomino", players=("a", "b"))
    game = Game.new(config, 5)
    rng = random.Random(5)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()), by=game.decision().player)
    results = results_from_game(game)
    assert [r.player_id for r in results] == ["a", "b"]
    assert [r.score for r in results] == list(game.result().totals)
    assert {r.player_id for r in results if r.won} == set(game.result().winners)
    assert all(r.team is None and r.breakdown["total"] == r.score for r in results)


async def test_a_state_the_engine_refuses_is_a_corrupt_game(engine_store, backend):
    game_id = await play_random_game(engine_store, seed=1, moves_limit=3)
    other = await engine_store.create_game(channel_id=1, guild_id=9, host_user_id=1, kind="kingdomino", config={})
    without_kingdoms = "json_remove(state, '$.kingdoms')" if backend.name == "sqlite" else "state - 'kingdoms'"
    await backend.execute(f"UPDATE games SET state = {without_kingdoms} WHERE id = ?", game_id)
    with pytest.raises(CorruptGame, match="the engine refused its state") as caught:
        await engine_store.get_game(game_id)
    assert caught.value.game_id == game_id
    assert (await engine_store.get_game(other.id)).id == other.id
