"""Why games end, what one member has going on, their settings and their guild's, undoing a move, and the finished
games ratings are computed from."""

import math
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from db import (
    CANCEL_REASONS,
    GameStatus,
    GuildSettings,
    Seat,
    SeatResult,
    StaleVersion,
    TurnTimer,
    UserSettings,
    WrongStatus,
)

from .conftest import fake_state, new_game, playing_game

# End reasons


@pytest.mark.parametrize("reason", CANCEL_REASONS)
async def test_cancel_records_why(reason, store):
    lobby = await new_game(store, channel_id=1)
    game = await playing_game(store, channel_id=2)
    await store.cancel_game(lobby.id, reason=reason)
    await store.cancel_game(game.id, game.version, reason=reason)
    for game_id in (lobby.id, game.id):
        ended = await store.get_game(game_id)
        assert (ended.status, ended.end_reason) == (GameStatus.CANCELLED, reason)
    assert {g.end_reason for g in await store.list_games()} == {reason}


async def test_an_unknown_reason_is_refused_and_nothing_changes(store, backend):
    game = await playing_game(store)
    before = await backend.dump()
    with pytest.raises(ValueError, match="reason must be one of"):
        await store.cancel_game(game.id, reason="bored")
    assert await backend.dump() == before


async def test_active_and_finished_games_have_their_end_reason(store):
    game = await playing_game(store)
    assert game.end_reason is None
    await store.finish_game(game.id, game.version, state=fake_state(9), results=[SeatResult("1", 3, True)])
    assert (await store.get_game(game.id)).end_reason == "finished"


async def test_cancelling_a_game_whose_config_and_seats_cannot_be_read(store, backend):
    game = await playing_game(store)
    if backend.name == "sqlite":
        await backend.execute("UPDATE games SET config = 'garbage', state = '{' WHERE id = ?", game.id)
    await backend.execute(
        "UPDATE seats SET colour = 'mauve', player_id = 'who' WHERE game_id = ? AND seat_order = 0", game.id
    )
    summary = await store.get_active_summary(100)
    assert (summary.id, summary.status, summary.version) == (game.id, GameStatus.PLAYING, game.version)
    assert await store.cancel_game(game.id, summary.version, reason="unreadable") == game.version + 1
    assert await store.get_active_summary(100) is None
    assert await store.get_active_game(100) is None


# One member's games


async def test_counts_and_listings_of_a_member(store, clock):
    hosted = await new_game(store, channel_id=1, players=(1, 2))
    clock.advance(minutes=1)
    await new_game(store, channel_id=2, players=(1,))
    clock.advance(minutes=1)
    playing = await playing_game(store, channel_id=3, players=(2, 1))
    clock.advance(minutes=1)
    elsewhere = await new_game(store, channel_id=4, guild_id=77, players=(1,))
    clock.advance(minutes=1)
    ended = await new_game(store, channel_id=5, players=(1,))
    await store.cancel_game(ended.id)
    clock.advance(minutes=1)
    await store.join_game(hosted.id, hosted.version, Seat.human(3, "Cid", "#000000"))  # the freshest activity

    assert await store.count_lobbies_hosted(10, 1) == 2
    assert await store.count_lobbies_hosted(10, 2) == 0  # 2 hosts the game in play, not a lobby
    assert await store.count_lobbies_hosted(77, 1) == 1
    assert await store.count_active_games_of(10, 1) == 3
    assert await store.count_active_games_of(10, 2) == 2
    assert await store.count_active_games_of(10, 3) == 1
    assert await store.count_active_games_of(10, 4) == 0
    mine = await store.active_games_of(1, 10)
    assert [g.id for g in mine] == [hosted.id, playing.id, mine[2].id]
    assert [g.id for g in await store.active_games_of(1)][:2] == [hosted.id, elsewhere.id]
    assert len(await store.active_games_of(1)) == 4


async def test_computer_seats_do_not_count_as_a_member(store):
    game = await new_game(store, players=(1,))
    await store.join_game(game.id, game.version, Seat.computer(1, "easy", "Robot"))
    assert await store.count_active_games_of(10, 1) == 1
    assert await store.active_games_of(0) == []


async def test_expired_lobbies(store, clock):
    old = await new_game(store, channel_id=1)
    clock.advance(hours=2)
    older_but_touched = await new_game(store, channel_id=2)
    clock.advance(hours=20)
    fresh = await new_game(store, channel_id=3)
    await playing_game(store, channel_id=4)
    clock.advance(minutes=1)
    await store.set_lobby_options(older_but_touched.id, older_but_touched.version, reminder_hours=1)
    cutoff = clock.now - timedelta(hours=1)
    assert [g.id for g in await store.expired_lobbies(cutoff)] == [old.id]
    assert [g.id for g in await store.expired_lobbies(clock.now + timedelta(seconds=1))] == [
        old.id,
        fresh.id,
        older_but_touched.id,
    ]
    await store.cancel_game(old.id, reason="expired")
    assert await store.expired_lobbies(cutoff) == []


# Settings


async def test_user_settings_default_and_round_trip(store):
    assert await store.get_user_settings(5) == UserSettings(5)
    assert (await store.get_user_settings(5)).notify == "channel"
    mine = UserSettings(5, notify="both", timezone="Europe/Paris", quiet_start=22 * 60, quiet_end=7 * 60, language="fr")
    await store.set_user_settings(mine)
    assert await store.get_user_settings(5) == mine
    await store.set_user_settings(UserSettings(5, notify="dm"))
    assert await store.get_user_settings(5) == UserSettings(5, notify="dm")
    assert await store.get_user_settings(6) == UserSettings(6)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"notify": "pigeon"}, "notify"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"quiet_start": 60}, "together"),
        ({"quiet_start": 1440, "quiet_end": 0}, "quiet_start"),
        ({"quiet_start": -1, "quiet_end": 0}, "quiet_start"),
        ({"quiet_start": 0, "quiet_end": True}, "quiet_end"),
        ({"language": "French"}, "language"),
    ],
)
def test_bad_user_settings_are_refused(values, message):
    with pytest.raises(ValueError, match=message):
        UserSettings(1, **values)


async def test_guild_settings_default_and_round_trip(store):
    assert await store.get_guild_settings(10) == GuildSettings(10, 2, 10, 24.0, None)
    mine = GuildSettings(10, max_lobbies_per_member=0, max_games_per_member=3, lobby_expiry_hours=0.5, language="de")
    await store.set_guild_settings(mine)
    assert await store.get_guild_settings(10) == mine
    assert await store.get_guild_settings(11) == GuildSettings(11)


@pytest.mark.parametrize(
    "values",
    [
        {"max_lobbies_per_member": -1},
        {"max_games_per_member": 2.5},
        {"max_games_per_member": True},
        {"lobby_expiry_hours": 0},
        {"lobby_expiry_hours": math.inf},
        {"lobby_expiry_hours": "24"},
        {"language": ""},
    ],
)
def test_bad_guild_settings_are_refused(values):
    with pytest.raises(ValueError):
        GuildSettings(1, **values)


async def test_settings_methods_take_settings_objects(store):
    with pytest.raises(TypeError):
        await store.set_user_settings({"user_id": 1})
    with pytest.raises(TypeError):
        await store.set_guild_settings(UserSettings(1))


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    notify=st.sampled_from(["channel", "dm", "both"]),
    quiet=st.none() | st.tuples(st.integers(0, 1439), st.integers(0, 1439)),
    language=st.sampled_from([None, "en", "pt-BR", "fr"]),
    user_id=st.integers(1, 2**63 - 1),
)
async def test_any_valid_user_settings_round_trip(store, notify, quiet, language, user_id):
    mine = UserSettings(
        user_id, notify=notify, quiet_start=quiet and quiet[0], quiet_end=quiet and quiet[1], language=language
    )
    await store.set_user_settings(mine)
    assert await store.get_user_settings(user_id) == mine


# Undo


async def test_undo_the_last_move_and_play_on(store, clock):
    game = await playing_game(store)
    v = await store.save_move(game.id, game.version, state=fake_state(1), action={"n": 1}, player_id="1", user_id=1)
    v = await store.save_move(game.id, v, state=fake_state(2), action={"n": 2}, player_id="2", user_id=2)
    timer = TurnTimer(clock.now + timedelta(hours=1), None)
    undone = await store.undo_last_action(game.id, v, seq=2, state=fake_state(1), timer=timer)
    assert undone == v + 1
    after = await store.get_game(game.id)
    assert (after.version, after.game, after.timer) == (v + 1, fake_state(1), timer)
    log = await store.get_actions(game.id)
    assert [(a.seq, a.undone) for a in log] == [(1, False), (2, True)]
    assert [a.seq for a in await store.get_actions(game.id, include_undone=False)] == [1]
    # the next move takes the next number; undoing goes on backwards over what is not undone
    v = await store.save_move(game.id, undone, state=fake_state(2), action={"n": 3}, player_id="2", user_id=2)
    assert [a.seq for a in await store.get_actions(game.id, include_undone=False)] == [1, 3]
    v = await store.undo_last_action(game.id, v, seq=3, state=fake_state(1))
    v = await store.undo_last_action(game.id, v, seq=1, state=fake_state(0))
    assert await store.get_actions(game.id, include_undone=False) == []
    with pytest.raises(ValueError, match="has none"):
        await store.undo_last_action(game.id, v, seq=1, state=fake_state(0))


async def test_undo_refusals_write_nothing(store, backend):
    game = await playing_game(store)
    v = await store.save_move(game.id, game.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    v = await store.save_move(game.id, v, state=fake_state(2), action={}, player_id="1", user_id=1)
    before = await backend.dump()
    with pytest.raises(ValueError, match="action 1 is not the last action not undone"):
        await store.undo_last_action(game.id, v, seq=1, state=fake_state(0))
    with pytest.raises(StaleVersion):
        await store.undo_last_action(game.id, v - 1, seq=2, state=fake_state(1))
    assert await backend.dump() == before
    await store.cancel_game(game.id)
    with pytest.raises(WrongStatus):
        await store.undo_last_action(game.id, v + 1, seq=2, state=fake_state(1))


async def test_two_undos_at_once_one_wins(open_store):
    first, second = await open_store(), await open_store()
    game = await playing_game(first)
    v = await first.save_move(game.id, game.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    import asyncio

    outcomes = await asyncio.gather(
        first.undo_last_action(game.id, v, seq=1, state=fake_state(0)),
        second.undo_last_action(game.id, v, seq=1, state=fake_state(0)),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["StaleVersion", "int"]


# Ratings input


async def test_finished_results_in_the_order_games_ended(store, clock):
    a = await playing_game(store, channel_id=1, players=(1, 2))
    b = await playing_game(store, channel_id=2, players=(3, 1))
    clock.advance(minutes=1)
    await store.finish_game(
        b.id, b.version, state=fake_state(9), results=[SeatResult("3", 40, True, 0), SeatResult("1", 30, False, 1)]
    )
    clock.advance(minutes=1)
    await store.save_move(
        a.id,
        a.version,
        state=fake_state(9),
        action={},
        player_id="1",
        user_id=1,
        results=[SeatResult("1", 25, True), SeatResult("2", 20, False)],
    )
    await playing_game(store, channel_id=3)  # not finished
    other_guild = await playing_game(store, channel_id=4, guild_id=99)
    await store.finish_game(other_guild.id, other_guild.version, state=fake_state(), results=[])

    results = await store.finished_results(10)
    assert [g.game_id for g in results] == [b.id, a.id]
    first = results[0]
    assert (first.kind, first.config, first.ended_at) == (
        "kingdomino",
        {"game": "kingdomino"},
        clock.now - timedelta(minutes=1),
    )
    assert [(s.player_id, s.user_id, s.display_name, s.team, s.score, s.won) for s in first.seats] == [
        ("3", 3, "player3", 0, 40, True),
        ("1", 1, "player1", 1, 30, False),
    ]
    assert [s.score for s in results[1].seats] == [25, 20]
    assert await store.finished_results(10, "queendomino") == []
    assert [g.game_id for g in await store.finished_results(10, "kingdomino")] == [b.id, a.id]
    assert [s.score for s in (await store.finished_results(99))[0].seats] == [None, None]
