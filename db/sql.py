"""What the SQLite and PostgreSQL stores share: every `GameStore` method, written once in SQL both databases speak.

A backend (`db.sqlite`, `db.postgres`) brings the connection and its transactions; SQL here uses ``?`` placeholders
(the PostgreSQL backend numbers them), epoch milliseconds for times, and JSON text for the config, state and
actions (jsonb columns in PostgreSQL, text in SQLite). Where the two databases differ in one clause, the backend
sets it as a class attribute (`_skip_locked`, `_wait_locked`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any

from db.changes import OnVersion, PollingFeed, VersionFeed, Watched
from db.engine_state import StateDecoder
from db.errors import (
    CorruptGame,
    GameNotFound,
    SeatConflict,
    StaleVersion,
    WrongStatus,
)
from db.migrate import LATEST_VERSION
from db.models import (
    END_REASONS,
    ActionRecord,
    GameRecord,
    GameStatus,
    GameSummary,
    Seat,
)

from .sql_lobby import LobbyAndPlay
from .sql_processes import Processes
from .sql_settings import SettingsAndStats
from .sqlbase import (
    _ACTIVE_SQL,
    _DUE,
    _DUE_AT,
    _GAME_COLUMNS,
    _IN_CHUNK,
    _SEAT_COLUMNS,
    KINDS,
    Row,
    Transaction,
    _at,
    _check_seats,
    _load_json_object,
    _marks,
    _seat_problem,
    _summary_fields,
    from_ms,
    seat_of_row,
    to_ms,
)


class SqlGameStore(LobbyAndPlay, Processes, SettingsAndStats):
    """The whole `GameStore` on top of a backend's transactions. See `db.store.GameStore` for what each method does."""

    _skip_locked = ""  # PostgreSQL: " FOR UPDATE SKIP LOCKED", so concurrent claimers pass over each other's rows
    _wait_locked = ""  # PostgreSQL: " FOR UPDATE", to wait for rows another transaction is writing
    _returning_version = " RETURNING version"  # PostgreSQL: also a NOTIFY of the new version (db.changes)

    def __init__(self, *, decode_state: StateDecoder | None, clock: Callable[[], datetime]) -> None:
        self._decode_state = decode_state
        self._clock = clock

    # What a backend provides

    def _write(self) -> AbstractAsyncContextManager[Transaction]:
        raise NotImplementedError

    def _read(self) -> AbstractAsyncContextManager[Transaction]:
        raise NotImplementedError

    def _is_constraint_error(self, error: BaseException) -> bool:
        raise NotImplementedError

    @property
    def schema_version(self) -> int:
        """The schema version this code writes (the database is at it once opened)."""
        return LATEST_VERSION

    def _now_ms(self) -> int:
        return to_ms(self._clock()) or 0

    # Reading

    async def get_game(self, game_id: int) -> GameRecord:
        async with self._read() as tx:
            return await self._load_record(tx, game_id)

    async def get_active_game(self, channel_id: int) -> GameRecord | None:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "find_active", f"SELECT id FROM games WHERE channel_id = ? AND status IN {_ACTIVE_SQL}", (channel_id,)
            )
            return await self._load_record(tx, rows[0]["id"]) if rows else None

    async def get_active_summary(self, channel_id: int) -> GameSummary | None:
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN {_ACTIVE_SQL}"
        async with self._read() as tx:
            found = await self._load_summaries(tx, sql, (channel_id,))
        return found[0] if found else None

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        statuses: Collection[GameStatus] | None = None,
        limit: int | None = None,
    ) -> list[GameSummary]:
        where: list[str] = []
        params: list[Any] = []
        if statuses is not None:
            where.append(f"status IN ({_marks(statuses)})")
            params += [str(s) for s in sorted(statuses)]
        for column, value in (("guild_id", guild_id), ("channel_id", channel_id)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        sql = f"SELECT {_GAME_COLUMNS} FROM games"
        if where:
            sql += f" WHERE {' AND '.join(where)}"
        sql += " ORDER BY created_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        async with self._read() as tx:
            return await self._load_summaries(tx, sql, params)

    async def due_games(self, now: datetime) -> list[GameSummary]:
        at = to_ms(now)
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE {_DUE} ORDER BY {_DUE_AT}, id"
        async with self._read() as tx:
            return await self._load_summaries(tx, sql, (at, at))

    async def next_due_at(self) -> datetime | None:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "next_due", "SELECT MIN(next_reminder_at), MIN(deadline_at) FROM games WHERE status = 'playing'"
            )
        times = [rows[0][0], rows[0][1]]
        times = [ms for ms in times if ms is not None]
        return from_ms(min(times)) if times else None

    async def game_versions(self, game_ids: Collection[int]) -> dict[int, int]:
        """The version of each of these games (those that exist), in one query: how a process learns that another
        one changed a game its boards watch (`db.changes`)."""
        ids = sorted(set(game_ids))
        versions: dict[int, int] = {}
        async with self._read() as tx:
            for start in range(0, len(ids), _IN_CHUNK):
                chunk = ids[start : start + _IN_CHUNK]
                sql = f"SELECT id, version FROM games WHERE id IN ({_marks(chunk)})"
                versions.update(
                    (int(r["id"]), int(r["version"])) for r in await tx.fetchall("read_versions", sql, chunk)
                )
        return versions

    def version_feed(self, watched: Watched, on_version: OnVersion) -> VersionFeed:
        """A feed of the versions of the games `watched()` names, written by any process (`db.changes`): here, a
        poll of `game_versions` while any is watched; PostgreSQL listens for notices instead."""
        return PollingFeed(self, watched, on_version)

    async def get_actions(self, game_id: int, *, after_seq: int = 0, include_undone: bool = True) -> list[ActionRecord]:
        sql = (
            "SELECT game_id, seq, player_id, user_id, action, created_at, undone FROM actions "
            "WHERE game_id = ? AND seq > ?"
        )
        if not include_undone:
            sql += " AND undone = 0"
        async with self._read() as tx:
            rows = await tx.fetchall("read_actions", sql + " ORDER BY seq", (game_id, after_seq))
            if not rows:
                await self._require_game(tx, game_id)
        records = []
        for row in rows:
            try:
                action = json.loads(row["action"])
            except (ValueError, TypeError) as error:
                raise CorruptGame(
                    game_id, f"action {row['seq']} of its log is not valid JSON ({error})", "actions.action"
                ) from error
            records.append(
                ActionRecord(
                    game_id=row["game_id"],
                    seq=row["seq"],
                    player_id=row["player_id"],
                    user_id=row["user_id"],
                    action=action,
                    created_at=_at(row["created_at"]),
                    undone=bool(row["undone"]),
                )
            )
        return records

    # Helpers inside a transaction

    async def _bump(
        self,
        tx: Transaction,
        game_id: int,
        expected_version: int | None,
        allowed: Iterable[GameStatus],
        changes: Mapping[str, Any] | None = None,
        *,
        now: int | None = None,
    ) -> int:
        """Apply `changes` to the game and raise its version by one, if it is still at `expected_version` (None:
        any) and in an `allowed` status; otherwise raise why not. Returns the new version."""
        allowed = frozenset(allowed)
        assignments = [f"{column} = ?" for column in (changes or {})]
        assignments += ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [*(changes or {}).values(), self._now_ms() if now is None else now, game_id]
        sql = f"UPDATE games SET {', '.join(assignments)} WHERE id = ? AND status IN ({_marks(allowed)})"
        params += [str(s) for s in sorted(allowed)]
        if expected_version is not None:
            sql += " AND version = ?"
            params.append(expected_version)
        rows = await tx.fetchall("update_game", sql + self._returning_version, params)
        if not rows:
            await self._explain_refusal(tx, game_id, expected_version, allowed)
        return int(rows[0]["version"])

    async def _explain_refusal(
        self, tx: Transaction, game_id: int, expected_version: int | None, allowed: Iterable[GameStatus]
    ) -> None:
        rows = await tx.fetchall("check_game", "SELECT version, status FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        version, status = rows[0]["version"], rows[0]["status"]
        if expected_version is not None and version != expected_version:
            raise StaleVersion(game_id, expected_version, version)
        raise WrongStatus(game_id, status, [str(s) for s in sorted(allowed)])

    async def _require_game(self, tx: Transaction, game_id: int) -> None:
        if not await tx.fetchall("check_game", "SELECT 1 FROM games WHERE id = ?", (game_id,)):
            raise GameNotFound(game_id)

    async def _write_seats(self, tx: Transaction, game_id: int, seats: Sequence[Seat]) -> None:
        _check_seats(game_id, seats)
        await tx.execute("delete_seats", "DELETE FROM seats WHERE game_id = ?", (game_id,))
        if seats:
            await tx.executemany(
                "insert_seats",
                f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, order, s.player_id, s.user_id, s.display_name, s.colour, s.cpu_level)
                    for order, s in enumerate(seats)
                ],
            )

    async def _insert_results(self, tx: Transaction, game_id: int, rows: list[tuple[Any, ...]]) -> None:
        if not rows:
            return
        try:
            async with tx.savepoint():
                await tx.executemany(
                    "insert_results",
                    "INSERT INTO results (game_id, player_id, score, won, team, breakdown) VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
        except Exception as error:
            if not self._is_constraint_error(error):
                raise
            seated = (await self._read_seats(tx, [game_id])).get(game_id, ())
            strangers = sorted({row[1] for row in rows} - {s.player_id for s in seated})
            if strangers:
                raise SeatConflict(game_id, f"results name players who are not seated: {strangers}") from None
            raise

    async def _read_seats(self, tx: Transaction, game_ids: Sequence[int]) -> dict[int, tuple[Seat, ...]]:
        seats: dict[int, list[Seat]] = {}
        for start in range(0, len(game_ids), _IN_CHUNK):
            chunk = game_ids[start : start + _IN_CHUNK]
            rows = await tx.fetchall(
                "read_seats",
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id IN ({_marks(chunk)}) ORDER BY game_id, seat_order",
                chunk,
            )
            for row in rows:
                seats.setdefault(row["game_id"], []).append(seat_of_row(row))
        return {game_id: tuple(game_seats) for game_id, game_seats in seats.items()}

    async def _load_summaries(self, tx: Transaction, sql: str, params: Sequence[Any]) -> list[GameSummary]:
        rows = await tx.fetchall("read_games", sql, params)
        seats = await self._read_seats(tx, [row["id"] for row in rows])
        return [GameSummary(**_summary_fields(row, seats.get(row["id"], ()))) for row in rows]

    async def _load_record(self, tx: Transaction, game_id: int) -> GameRecord:
        rows = await tx.fetchall(
            "read_game", f"SELECT {_GAME_COLUMNS}, config, state FROM games WHERE id = ?", (game_id,)
        )
        if not rows:
            raise GameNotFound(game_id)
        row = rows[0]
        seats = (await self._read_seats(tx, [game_id])).get(game_id, ())
        return self._decode_record(row, seats)

    def _decode_record(self, row: Row, seats: tuple[Seat, ...]) -> GameRecord:
        game_id = row["id"]
        summary = _summary_fields(row, seats)
        status = summary["status"]
        if row["kind"] not in KINDS:
            raise CorruptGame(game_id, f"its kind {row['kind']!r} is not one of {', '.join(sorted(KINDS))}", "kind")
        if row["end_reason"] is not None and row["end_reason"] not in END_REASONS:
            raise CorruptGame(game_id, f"its end reason {row['end_reason']!r} is unknown", "end_reason")
        for seat in seats:
            problem = _seat_problem(seat)
            if problem is not None:
                field, reason = problem
                raise CorruptGame(game_id, f"its seat {seat.seat_order} {reason}", f"seats.{field}")
        config = _load_json_object(game_id, "config", row["config"])
        state = None if row["state"] is None else _load_json_object(game_id, "state", row["state"])
        if state is None and status in (GameStatus.PLAYING, GameStatus.FINISHED):
            raise CorruptGame(game_id, f"it is {status} but has no state", "state")
        game = None
        if state is not None and self._decode_state is not None:
            try:
                game = self._decode_state(state)
            except Exception as error:  # whatever the engine raises, it is this game's problem only
                raise CorruptGame(
                    game_id, f"the engine refused its state ({type(error).__name__}: {error})", "state"
                ) from error
        # With the engine object the raw dict is dropped: a game waiting for a click or a computer player would keep
        # both alive, and every object alive is one more for each full garbage collection (benchmarks/bench_load.py)
        return GameRecord(**summary, config=config, state=None if game is not None else state, game=game)
