"""What the store keeps about a person and forgetting them; the leases of the processes using the database; the
servers the bot left. On SQLite and PostgreSQL (the `backend` fixture)."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from typing import Any

import pytest

from db import SeatResult, StaleVersion
from db.errors import SeatConflict, WrongStatus
from db.models import Seat, TurnTimer, UserSettings, is_former_player, new_former_player_id

from .conftest import Backend, fake_state, new_game, playing_game


async def rows(backend: Backend, sql: str, *params: Any) -> list[dict[str, Any]]:
    """Rows read behind the store's back, as dicts (``?`` placeholders)."""
    if backend.name == "sqlite":
        with sqlite3.connect(backend.location) as conn:
            conn.row_factory = sqlite3.Row
            return [dict(r) for r in conn.execute(sql, params).fetchall()]
    import asyncpg

    from db.postgres import numbered

    conn = await asyncpg.connect(backend.location)
    try:
        return [dict(r) for r in await conn.fetch(numbered(sql), *params)]
    finally:
        await conn.close()


async def finished_game(store, *, channel_id: int, players: tuple[int, ...]) -> int:
    """A finished game of `players`: one move each (the first forced: no user id), then results."""
    rec = await playing_game(store, channel_id=channel_id, players=players)
    version = rec.version
    for n, user in enumerate(players):
        version = await store.save_move(
            rec.id, version, state=fake_state(n + 1), action={"type": "claim", "n": n},
            player_id=str(user), user_id=None if n == 0 else user,
        )  # fmt: skip
    results = [SeatResult(str(u), 40 - i, i == 0, breakdown={"total": 40 - i}) for i, u in enumerate(players)]
    await store.finish_game(rec.id, version, state=fake_state(99), results=results)
    return rec.id


async def test_person_data_is_exactly_what_the_store_holds_of_that_person(store, backend):
    await store.set_user_settings(UserSettings(1, notify="dm", timezone="Europe/Prague", quiet_start=60, quiet_end=420))
    await store.set_user_settings(UserSettings(2, notify="both"))
    done = await finished_game(store, channel_id=1, players=(1, 2))
    playing = await playing_game(store, channel_id=2, players=(2, 1))
    lobby = await new_game(store, channel_id=3, players=(1, 3))
    other = await finished_game(store, channel_id=4, players=(2, 3))
    assert await store.claim_notification(playing.id, 5, 1, "turn", sent=True)
    assert await store.notification_sent(playing.id, 5, "turn", message=(77, 78))
    assert await store.claim_notification(playing.id, 6, 2, "turn", sent=True)

    data = await store.person_data(1)
    assert data.user_id == 1 and not data.is_empty
    assert data.settings == UserSettings(1, notify="dm", timezone="Europe/Prague", quiet_start=60, quiet_end=420)
    seats = await rows(backend, "SELECT game_id, player_id, display_name, colour FROM seats WHERE user_id = ?", 1)
    assert sorted((s.game_id, s.seat.player_id, s.seat.display_name, s.seat.colour) for s in data.seats) == sorted(
        (r["game_id"], r["player_id"], r["display_name"], r["colour"]) for r in seats
    )
    assert {s.game_id for s in data.seats} == {done, playing.id, lobby.id}
    [result] = [s.result for s in data.seats if s.result is not None]
    assert (result.score, result.won, result.breakdown) == (40, True, {"total": 40})
    moves = await rows(backend, "SELECT game_id, seq FROM actions WHERE user_id = ? OR player_id = ?", 1, "1")
    assert [(a.game_id, a.seq) for a in data.actions] == sorted((r["game_id"], r["seq"]) for r in moves)
    assert any(a.user_id is None for a in data.actions), "the claim made for them counts as theirs"
    assert data.hosted == tuple(
        sorted(r["id"] for r in await rows(backend, "SELECT id FROM games WHERE host_user_id = ?", 1))
    )
    assert [(n.game_id, n.turn_key, n.message) for n in data.notifications] == [(playing.id, 5, (77, 78))]
    # nobody else's: no other person's seat, move, setting or notification
    assert other not in {s.game_id for s in data.seats} | set(data.hosted) | {a.game_id for a in data.actions}
    assert all(a.player_id == "1" for a in data.actions)
    assert (await store.person_data(42)).is_empty


async def test_a_person_leaves_a_finished_game_as_a_former_player_and_the_rest_stays(store, backend):
    game_id = await finished_game(store, channel_id=1, players=(1, 2, 3))
    await store.set_table_message(game_id, 1, 500, shown_version=(await store.get_game(game_id)).version)
    before = await store.get_game(game_id)
    former = new_former_player_id()
    assert is_former_player(former) and not is_former_player(1) and not is_former_player("cpu:1")
    replacement = Seat(str(former), "a former player", user_id=former, colour=before.seats[1].colour)
    version = await store.forget_player(
        game_id, before.version, user_id=2, replacement=replacement, state=fake_state(100)
    )
    after = await store.get_game(game_id)
    assert after.version == version == before.version + 1
    assert [(s.player_id, s.user_id, s.display_name) for s in after.seats] == [
        ("1", 1, "player1"), (str(former), former, "a former player"), ("3", 3, "player3"),
    ]  # fmt: skip
    assert after.game == fake_state(100)
    assert after.table_version == after.version, "the final table still counts as shown: no repair posts it again"
    assert game_id not in [g.id for g in await store.stale_tables()]
    results = await rows(backend, "SELECT player_id, score, won, breakdown FROM results ORDER BY score DESC")
    assert [(r["player_id"], r["score"], r["won"]) for r in results] == [
        ("1", 40, 1),
        (str(former), 39, 0),
        ("3", 38, 0),
    ]
    assert json.loads(results[1]["breakdown"]) == {"total": 39}
    moves = await rows(backend, "SELECT seq, player_id, user_id FROM actions ORDER BY seq")
    assert [(m["player_id"], m["user_id"]) for m in moves] == [("1", None), (str(former), former), ("3", 3)]
    assert not await rows(backend, "SELECT 1 FROM seats WHERE user_id = 2 OR player_id = '2'")
    assert (await store.person_data(2)).is_empty
    # statistics leave the former player out; everyone else's are as they were
    assert {s.user_id for s in await store.guild_stats(10)} == {1, 3}


async def test_a_person_in_play_gives_their_seat_to_a_computer(store, backend):
    rec = await playing_game(store, channel_id=1, players=(1, 2))
    version = await store.save_move(
        rec.id, rec.version, state=fake_state(1), action={"type": "claim"}, player_id="1", user_id=1
    )
    computer = Seat.computer(1, "medium", "a former player", rec.seats[0].colour)
    timer = TurnTimer(None, rec.created_at)
    new = await store.forget_player(
        rec.id, version, user_id=1, replacement=computer, host_user_id=-5, state=fake_state(2), timer=timer
    )
    after = await store.get_game(rec.id)
    assert (after.version, after.status, after.host_user_id, after.deadline_at) == (new, "playing", -5, rec.created_at)
    assert [(s.player_id, s.cpu_level, s.user_id) for s in after.seats] == [("cpu:1", "medium", None), ("2", None, 2)]
    assert [(a.player_id, a.user_id) for a in await store.get_actions(rec.id)] == [("cpu:1", None)]
    # computed from an older version: refused, nothing written
    with pytest.raises(StaleVersion):
        await store.forget_player(rec.id, version, user_id=2, replacement=None)
    assert (await store.get_game(rec.id)).seats == after.seats


async def test_a_person_leaves_a_lobby(store):
    lobby = await new_game(store, channel_id=1, players=(1, 2, 3))
    version = await store.forget_player(lobby.id, lobby.version, user_id=2, replacement=None)
    after = await store.get_game(lobby.id)
    assert [s.user_id for s in after.seats] == [1, 3] and [s.seat_order for s in after.seats] == [0, 1]
    version = await store.forget_player(lobby.id, version, user_id=1, replacement=None, host_user_id=3)
    assert (await store.get_game(lobby.id)).host_user_id == 3
    alone = await new_game(store, channel_id=2, players=(4,))
    await store.forget_player(alone.id, alone.version, user_id=4, replacement=None, host_user_id=-9, cancel=True)
    gone = await store.get_game(alone.id)
    assert (gone.status, gone.end_reason, gone.seats, gone.host_user_id) == ("cancelled", "cancelled", (), -9)
    with pytest.raises(WrongStatus):  # only a lobby is cancelled so
        playing = await playing_game(store, channel_id=3)
        await store.forget_player(playing.id, playing.version, user_id=1, replacement=None, cancel=True)


async def test_a_seat_with_moves_cannot_just_go(store):
    rec = await playing_game(store, channel_id=1, players=(1, 2))
    version = await store.save_move(
        rec.id, rec.version, state=fake_state(1), action={"type": "claim"}, player_id="1", user_id=1
    )
    with pytest.raises(SeatConflict, match="has played"):
        await store.forget_player(rec.id, version, user_id=1, replacement=None)
    assert (await store.get_game(rec.id)).version == version


async def test_erase_person_takes_their_settings_and_notifications_only(store, backend):
    rec = await playing_game(store, channel_id=1, players=(1, 2))
    for user in (1, 2):
        await store.set_user_settings(UserSettings(user, notify="dm"))
        assert await store.claim_notification(rec.id, user, user, "turn", sent=True)
    assert await store.erase_person(1) == 2
    assert await store.get_user_settings(1) == UserSettings(1)  # the defaults: nothing stored
    assert await store.get_user_settings(2) == UserSettings(2, notify="dm")
    assert [r["user_id"] for r in await rows(backend, "SELECT user_id FROM notifications")] == [2]
    assert await store.erase_person(1) == 0


async def test_leases_say_which_processes_use_the_database(store, clock):
    assert await store.take_lease("bot:a", "a", 90)
    assert await store.take_lease("bot:a", "a", 90), "its owner renews it"
    assert not await store.take_lease("bot:a", "b", 90), "nobody else takes it while it lives"
    assert await store.take_lease("backup", "b", 3600)
    assert [(x.name, x.owner) for x in await store.live_leases("bot:")] == [("bot:a", "a")]
    assert [x.name for x in await store.live_leases()] == ["backup", "bot:a"]
    clock.advance(seconds=91)
    assert [x.name for x in await store.live_leases()] == ["backup"], "a lease not renewed runs out"
    assert await store.take_lease("bot:a", "b", 90), "and then another may take it"
    assert not await store.drop_lease("bot:a", "a")
    assert await store.drop_lease("bot:a", "b")
    assert await store.live_leases("bot:") == []
    with pytest.raises(ValueError):
        await store.take_lease("bot:a", "", 90)
    with pytest.raises(ValueError):
        await store.take_lease("bot:a", "a", 0)


async def test_a_server_left_keeps_its_games_until_they_are_deleted(store, backend, clock):
    done = await finished_game(store, channel_id=1, players=(1, 2))
    playing = await playing_game(store, channel_id=2, players=(1, 3))
    elsewhere = await playing_game(store, channel_id=3, guild_id=11, players=(1, 3))
    assert await store.claim_notification(playing.id, 1, 1, "turn")
    left_at = clock()
    await store.guild_left(10, left_at)
    await store.guild_left(10, left_at + timedelta(days=5))  # a second notice keeps the first time
    assert await store.departed_guilds(left_at) == []
    assert await store.departed_guilds(left_at + timedelta(seconds=1)) == [10]
    assert await store.guild_returned(10) and not await store.guild_returned(10)
    assert await store.departed_guilds(left_at + timedelta(days=60)) == []
    await store.guild_left(10, left_at)
    with pytest.raises(ValueError, match="delete them first"):
        await store.forget_guild(10)
    assert await store.delete_game(done) and await store.delete_game(playing.id)
    assert not await store.delete_game(done)
    await store.forget_guild(10)
    assert await store.departed_guilds(left_at + timedelta(days=60)) == []
    for table in ("games", "seats", "actions", "results", "notifications"):
        column = "id" if table == "games" else "game_id"
        assert [r[column] for r in await rows(backend, f"SELECT DISTINCT {column} FROM {table}")] in (
            [elsewhere.id],
            [],
        ), table
    assert (await store.get_game(elsewhere.id)).status == "playing"
