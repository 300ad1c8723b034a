from datetime import timedelta

import pytest

from db import GameStatus, Seat, SeatConflict, SeatResult, StaleVersion, TurnTimer, WrongStatus

from .conftest import fake_state, new_game, playing_game


async def test_start_game(store, clock):
    record = await new_game(store)
    clock.advance(minutes=5)
    timer = TurnTimer(clock.now + timedelta(hours=12), clock.now + timedelta(hours=48))
    version = await store.start_game(
        record.id, record.version, config={"game": "kingdomino", "players": ["1", "2"]}, state=fake_state(), timer=timer
    )
    game = await store.get_game(record.id)
    assert version == game.version == 2
    assert game.status is GameStatus.PLAYING
    assert game.config == {"game": "kingdomino", "players": ["1", "2"]}
    assert game.state is None and game.game == fake_state()
    assert game.started_at == clock.now and game.timer == timer


async def test_save_move_stores_state_and_appends_to_the_log(store, clock):
    record = await playing_game(store)
    version = record.version
    for turn in range(1, 4):
        clock.advance(seconds=1)
        version = await store.save_move(
            record.id, version, state=fake_state(turn), action={"n": turn}, player_id="1", user_id=1
        )
    game = await store.get_game(record.id)
    assert game.version == version == record.version + 3
    assert game.game == fake_state(3)
    assert game.updated_at == clock.now
    log = await store.get_actions(record.id)
    assert [(a.seq, a.action, a.player_id, a.user_id) for a in log] == [(i, {"n": i}, "1", 1) for i in (1, 2, 3)]
    assert log[-1].created_at == clock.now
    assert [a.seq for a in await store.get_actions(record.id, after_seq=2)] == [3]


async def test_computer_moves_have_no_user(store):
    record = await playing_game(store)
    await store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="cpu:1", user_id=None)
    (action,) = await store.get_actions(record.id)
    assert (action.player_id, action.user_id) == ("cpu:1", None)


async def test_stale_save_writes_nothing(store, backend):
    record = await playing_game(store)
    await store.save_move(record.id, record.version, state=fake_state(1), action={"n": 1}, player_id="1", user_id=1)
    before = await backend.dump()
    with pytest.raises(StaleVersion) as caught:
        await store.save_move(record.id, record.version, state=fake_state(9), action={"n": 9}, player_id="2", user_id=2)
    assert (caught.value.expected, caught.value.actual) == (record.version, record.version + 1)
    assert "nothing was saved" in str(caught.value)
    assert await backend.dump() == before


async def test_moves_need_a_game_in_play(store):
    record = await new_game(store)
    with pytest.raises(WrongStatus, match="lobby"):
        await store.save_move(record.id, record.version, state=fake_state(), action={}, player_id="1", user_id=1)


async def test_turn_timer_and_due_games(store, clock):
    now = clock.now
    a = await playing_game(store, channel_id=1)
    b = await playing_game(store, channel_id=2)
    c = await playing_game(store, channel_id=3)
    lobby = await new_game(store, channel_id=4)
    assert await store.next_due_at() is None
    await store.set_turn_timer(a.id, TurnTimer(now + timedelta(hours=1), now + timedelta(hours=5)))
    await store.save_move(
        b.id,
        b.version,
        state=fake_state(1),
        action={},
        player_id="1",
        user_id=1,
        timer=TurnTimer(None, now + timedelta(minutes=30)),
    )
    await store.set_turn_timer(c.id, TurnTimer(now + timedelta(hours=3), None))
    assert lobby.next_reminder_at is None
    assert await store.next_due_at() == now + timedelta(minutes=30)
    assert await store.due_games(now) == []
    assert [g.id for g in await store.due_games(now + timedelta(hours=1))] == [b.id, a.id]
    assert [g.id for g in await store.due_games(now + timedelta(hours=6))] == [b.id, a.id, c.id]
    # the timer does not change the version, so a move computed before it still lands
    assert (await store.get_game(a.id)).version == a.version
    await store.save_move(a.id, a.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    # a scheduler that read an old version does not clobber a newer timer
    with pytest.raises(StaleVersion):
        await store.set_turn_timer(a.id, TurnTimer(None, None), expected_version=a.version)
    assert (await store.get_game(a.id)).next_reminder_at == now + timedelta(hours=1)
    # finished and cancelled games are never due
    await store.cancel_game(a.id)
    await store.finish_game(b.id, b.version + 1, state=fake_state(2), results=[])
    assert [g.id for g in await store.due_games(now + timedelta(days=9))] == [c.id]
    with pytest.raises(WrongStatus):
        await store.set_turn_timer(a.id, TurnTimer(None, None))


async def test_table_message(store):
    record = await new_game(store)
    await store.set_table_message(record.id, 555, 777)
    game = await store.get_game(record.id)
    assert (game.table_channel_id, game.table_message_id, game.version) == (555, 777, record.version)
    await store.set_table_message(record.id, None, None)
    assert (await store.get_game(record.id)).table_message_id is None


async def test_cancel(store, clock):
    record = await playing_game(store)
    version = await store.cancel_game(record.id, record.version)
    game = await store.get_game(record.id)
    assert (game.status, game.version, game.ended_at) == (GameStatus.CANCELLED, version, clock.now)
    with pytest.raises(WrongStatus):
        await store.cancel_game(record.id)


async def test_final_move_finishes_the_game_with_results(store, clock):
    record = await playing_game(store, players=(1, 2))
    results = [
        SeatResult("1", 41, won=True, breakdown={"total": 41}),
        SeatResult("2", 30, won=False, breakdown={"total": 30}),
    ]
    await store.save_move(
        record.id,
        record.version,
        state=fake_state(9),
        action={"last": True},
        player_id="2",
        user_id=2,
        results=results,
        timer=TurnTimer(clock.now, clock.now),
    )
    game = await store.get_game(record.id)
    assert game.status is GameStatus.FINISHED and game.ended_at == clock.now
    assert game.timer == TurnTimer(None, None)
    assert len(await store.get_actions(record.id)) == 1
    assert await store.get_active_game(100) is None
    stats = await store.user_stats(1)
    assert [(s.kind, s.games_played, s.wins, s.average_score, s.best_score) for s in stats] == [
        ("kingdomino", 1, 1, 41.0, 41)
    ]


async def test_results_must_name_seated_players(store):
    record = await playing_game(store, players=(1, 2))
    with pytest.raises(SeatConflict, match="not seated"):
        await store.finish_game(record.id, record.version, state=fake_state(), results=[SeatResult("9", 1, True)])
    with pytest.raises(SeatConflict, match="twice"):
        await store.finish_game(
            record.id, record.version, state=fake_state(), results=[SeatResult("1", 1, True), SeatResult("1", 2, True)]
        )
    assert (await store.get_game(record.id)).status is GameStatus.PLAYING


async def finish(store, channel_id, guild_id, scores, kind="kingdomino", winners=None, teams=None):
    """Play a whole (fake) game among the users in `scores` and finish it."""
    players = tuple(scores)
    record = await store.create_game(
        channel_id=channel_id,
        guild_id=guild_id,
        host_user_id=players[0],
        kind=kind,
        config={},
        seats=[Seat.human(uid, f"p{uid}") for uid in players],
    )
    version = await store.start_game(record.id, record.version, config={}, state=fake_state())
    best = max(scores.values())
    winners = winners or [uid for uid, s in scores.items() if s == best]
    results = [
        SeatResult(str(uid), score, uid in winners, team=None if teams is None else teams[uid])
        for uid, score in scores.items()
    ]
    await store.finish_game(record.id, version, state=fake_state(1), results=results)


async def test_statistics_per_user_guild_and_kind(store):
    await finish(store, 1, 10, {1: 40, 2: 30})
    await finish(store, 1, 10, {1: 20, 2: 50})
    await finish(store, 2, 10, {1: 60, 3: 10}, kind="queendomino")
    await finish(store, 3, 20, {1: 35, 2: 36})
    await finish(store, 4, 20, {1: 10, 2: 10, 3: 5, 4: 5}, teams={1: 0, 2: 0, 3: 1, 4: 1}, winners=[1, 2])
    abandoned = await new_game(store, channel_id=5, guild_id=10, players=(1, 2))
    await store.cancel_game(abandoned.id)

    everywhere = {(s.kind): s for s in await store.user_stats(1)}
    assert everywhere["kingdomino"].games_played == 4
    assert everywhere["kingdomino"].wins == 2
    assert everywhere["kingdomino"].average_score == pytest.approx((40 + 20 + 35 + 10) / 4)
    assert everywhere["kingdomino"].best_score == 40
    assert (everywhere["queendomino"].games_played, everywhere["queendomino"].wins) == (1, 1)

    in_guild_10 = await store.user_stats(1, guild_id=10)
    assert [(s.kind, s.games_played, s.wins, s.guild_id) for s in in_guild_10] == [
        ("kingdomino", 2, 1, 10),
        ("queendomino", 1, 1, 10),
    ]
    assert await store.user_stats(99) == []

    board = await store.guild_stats(10, kind="kingdomino")
    assert [(s.user_id, s.games_played, s.wins, s.best_score) for s in board] == [(2, 2, 1, 50), (1, 2, 1, 40)]
    assert {(s.user_id, s.kind) for s in await store.guild_stats(10)} == {
        (1, "kingdomino"),
        (2, "kingdomino"),
        (1, "queendomino"),
        (3, "queendomino"),
    }


async def test_statistics_leave_out_computer_seats(store):
    record = await store.create_game(
        channel_id=1,
        guild_id=10,
        host_user_id=1,
        kind="kingdomino",
        config={},
        seats=[Seat.human(1, "Ann"), Seat.computer(1, "hard", "Robot")],
    )
    version = await store.start_game(record.id, record.version, config={}, state=fake_state())
    await store.finish_game(
        record.id, version, state=fake_state(), results=[SeatResult("1", 20, False), SeatResult("cpu:1", 30, True)]
    )
    assert [s.user_id for s in await store.guild_stats(10)] == [1]
