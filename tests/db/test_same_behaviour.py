"""SQLite and PostgreSQL behave alike: random sequences of store calls give the same answers, the same refusals and
the same games on both. Game ids are compared by creation order: PostgreSQL never reuses the id of a rolled back
insert, SQLite may."""

from __future__ import annotations

import dataclasses
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from db import GameStore, Seat, SeatResult, SqliteGameStore, TurnTimer
from db.postgres import PostgresGameStore
from tests.conftest import DatabaseFactory

from .conftest import FakeClock, fake_decode, fake_state

GAME = st.integers(0, 3)  # the nth game created (modulo how many there are), or a missing one when none is
USER = st.integers(1, 5)

OPERATIONS = st.one_of(
    st.tuples(st.just("create"), st.integers(1, 3), st.lists(USER, min_size=1, max_size=3, unique=True)),
    st.tuples(st.just("join"), GAME, USER, st.booleans()),
    st.tuples(st.just("leave"), GAME, USER),
    st.tuples(st.just("reverse_seats"), GAME),
    st.tuples(st.just("start"), GAME, st.integers(-30, 30)),
    st.tuples(st.just("start"), GAME, st.integers(-30, 30)),
    st.tuples(st.just("move"), GAME, st.booleans()),
    st.tuples(st.just("move"), GAME, st.just(False)),
    st.tuples(st.just("move"), GAME, st.just(False)),
    st.tuples(st.just("undo"), GAME, st.none() | st.integers(1, 4)),
    st.tuples(st.just("finish"), GAME),
    st.tuples(st.just("cancel"), GAME, st.sampled_from(["cancelled", "abandoned", "expired", "unreadable", "bad"])),
    st.tuples(st.just("table"), GAME, st.booleans()),
    st.tuples(st.just("claim_table"), GAME, st.sampled_from(["a", "b"])),
    st.tuples(st.just("claim_due"), st.sampled_from(["a", "b"]), st.integers(1, 3)),
    st.tuples(st.just("release"), GAME, st.sampled_from(["a", "b"])),
    st.tuples(st.just("notify"), GAME, st.integers(0, 2), st.sampled_from(["turn", "dm"]), st.booleans()),
    st.tuples(st.just("notify_sent"), GAME, st.integers(0, 2), st.sampled_from(["turn", "dm"])),
    st.tuples(st.just("forget_messages"), GAME, st.integers(0, 2)),
    st.tuples(st.just("tick"), st.integers(1, 40)),
)


class Run:
    """One backend playing the sequence; `ids` maps creation order to this database's ids."""

    def __init__(self, store: GameStore, clock: FakeClock) -> None:
        self.store = store
        self.clock = clock
        self.ids: list[int] = []

    def game(self, n: int) -> int:
        return self.ids[n % len(self.ids)] if self.ids else 10_000 + n

    def plain(self, value: Any) -> Any:
        """`value` with game ids replaced by creation order, for comparing across backends."""
        if isinstance(value, list | tuple):
            return [self.plain(v) for v in value]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
            fields.pop("game", None)
            if "id" in fields:
                fields["id"] = self.ids.index(fields["id"]) if fields["id"] in self.ids else "?"
            if "game_id" in fields:
                fields["game_id"] = self.ids.index(fields["game_id"]) if fields["game_id"] in self.ids else "?"
            return {k: self.plain(v) for k, v in fields.items()}
        return value

    async def apply(self, op: tuple[Any, ...]) -> Any:
        s, kind = self.store, op[0]
        try:
            if kind == "create":
                _, channel, users = op
                record = await s.create_game(
                    channel_id=channel,
                    guild_id=1,
                    host_user_id=users[0],
                    kind="kingdomino",
                    config={"c": channel},
                    seats=[Seat.human(u, f"p{u}", f"#00000{u}") for u in users],
                    seed=7,
                )
                self.ids.append(record.id)
                return self.plain(record)
            if kind == "tick":
                self.clock.advance(minutes=op[1])
                return None
            if kind == "claim_due":
                return self.plain(await s.claim_due(self.clock.now, op[1], 600, op[2]))
            game_id = self.game(op[1])
            version = (await s.get_game(game_id)).version if self.ids else 1
            if kind == "join":
                seat = Seat.human(op[2], "late", None if op[3] else "#000001")
                return self.plain(await s.join_game(game_id, version, seat))
            if kind == "leave":
                return self.plain(await s.leave_game(game_id, version, str(op[2])))
            if kind == "reverse_seats":
                seats = (await s.get_game(game_id)).seats
                return self.plain(await s.set_seats(game_id, version, seats[::-1]))
            if kind == "start":
                due = self.clock.now + timedelta(minutes=op[2])
                return await s.start_game(game_id, version, config={}, state=fake_state(), timer=TurnTimer(due, None))
            if kind == "move":
                stale = 1 if op[2] else 0
                return await s.save_move(
                    game_id, version - stale, state=fake_state(version), action={"v": version}, player_id="1", user_id=1
                )
            if kind == "undo":
                seq = op[2]
                if seq is None:  # the last action, when there is one
                    log = await s.get_actions(game_id, include_undone=False)
                    seq = log[-1].seq if log else 1
                return await s.undo_last_action(game_id, version, seq=seq, state=fake_state(seq))
            if kind == "finish":
                record = await s.get_game(game_id)
                results = [SeatResult(seat.player_id, 10 * n, n == 0) for n, seat in enumerate(record.seats)]
                return await s.finish_game(game_id, version, state=fake_state(99), results=results)
            if kind == "cancel":
                return await s.cancel_game(game_id, reason=op[2])
            if kind == "table":
                return await s.set_table_message(game_id, 1, 2, shown_version=version if op[2] else None)
            if kind == "claim_table":
                return await s.claim_table_post(game_id, version, op[2], 600, self.clock.now)
            if kind == "release":
                return await s.release_claim(game_id, op[2])
            if kind == "notify":
                return await s.claim_notification(game_id, op[2], 1, op[3], owner="a", lease_seconds=600, sent=op[4])
            if kind == "notify_sent":
                return await s.notification_sent(game_id, op[2], op[3], message=(7, 100 + op[2]))
            if kind == "forget_messages":
                return await s.forget_notification_messages(game_id, [100 + op[2]])
            raise AssertionError(kind)
        except Exception as error:  # the refusal itself is the answer to compare
            return type(error).__name__

    async def everything(self) -> Any:
        s = self.store
        games = [await s.get_game(game_id) for game_id in self.ids]
        return {
            "games": self.plain(games),
            "actions": [self.plain(await s.get_actions(game_id)) for game_id in self.ids],
            "stale": self.plain(await s.stale_tables()),
            "due": self.plain(await s.due_games(self.clock.now)),
            "unsent": self.plain(await s.unsent_notifications()),
            "messages": [await s.notification_messages(game_id, other_than=1) for game_id in self.ids],
            "mine": self.plain(await s.active_games_of(1, 1)),
            "counts": [await s.count_active_games_of(1, u) for u in range(1, 6)],
            "hosted": [await s.count_lobbies_hosted(1, u) for u in range(1, 6)],
            "results": self.plain(await s.finished_results(1)),
            "stats": self.plain(await s.guild_stats(1)),
        }


@settings(max_examples=25, suppress_health_check=list(HealthCheck))
@given(operations=st.lists(OPERATIONS, min_size=1, max_size=30))
async def test_both_backends_answer_every_call_alike(postgres_server, operations):
    databases = DatabaseFactory(postgres_server)
    with tempfile.TemporaryDirectory() as folder:
        sqlite_clock, pg_clock = FakeClock(), FakeClock()
        sqlite = await SqliteGameStore.open(
            Path(folder) / "games.sqlite3", decode_state=fake_decode, clock=sqlite_clock
        )
        postgres = await PostgresGameStore.open(
            await databases.create(migrated=True), decode_state=fake_decode, clock=pg_clock
        )
        try:
            runs = Run(sqlite, sqlite_clock), Run(postgres, pg_clock)
            opening = [("create", 1, [1, 2]), ("start", 0, 0), ("move", 0, False), ("create", 2, [2, 3])]
            for step, op in enumerate(opening + operations):
                answers = [await run.apply(op) for run in runs]
                assert answers[0] == answers[1], f"step {step} {op}"
            assert await runs[0].everything() == await runs[1].everything()
        finally:
            await sqlite.close()
            await postgres.close()
            await databases.drop_all()
