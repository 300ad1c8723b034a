"""The game store on SQLite (aiosqlite): the only module that speaks SQLite's SQL.

One connection per store, in WAL mode. An `asyncio.Lock` lets one transaction at a time use it, so coroutines of
one bot never see each other's half-done work; several processes (or stores) on one file are kept apart by SQLite's
own locking: writes start with ``BEGIN IMMEDIATE`` and wait up to `busy_timeout` for the write lock, and a change
that was computed from an older version is refused by the version check in its ``UPDATE``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from db.engine_state import StateDecoder, decode_engine_state
from db.errors import (
    ActiveGameExists,
    CorruptGame,
    GameNotFound,
    SeatConflict,
    StaleVersion,
    StoreBusy,
    StoreError,
    WrongStatus,
)
from db.migrate import LATEST_VERSION, migrate
from db.models import (
    ACTIVE_STATUSES,
    ActionRecord,
    GameRecord,
    GameStatus,
    GameSummary,
    Seat,
    SeatResult,
    TurnTimer,
    UserStats,
)
from db.store import KEEP, Keep

_SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")

StepHook = Callable[[str], None]
"""Called with a step name ("update_game", "insert_action", "commit"...) before each statement of a write
transaction. For tests: raising from it (or killing the process) simulates a failure between two statements."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)

_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_user_id, kind, status, version, seed, table_channel_id, table_message_id, "
    "reminder_hours, deadline_hours, next_reminder_at, deadline_at, created_at, updated_at, started_at, ended_at"
)
_SEAT_COLUMNS = "game_id, seat_order, player_id, user_id, display_name, colour, cpu_level"
_ACTIVE_SQL = "('lobby', 'playing')"
_IN_CHUNK = 500  # ids per "IN (...)" list, well under SQLite's parameter limit


def _utc_now() -> datetime:
    return datetime.now(UTC)


def to_ms(moment: datetime | None) -> int | None:
    """A timezone-aware datetime as Unix epoch milliseconds (the column format)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        raise ValueError(f"naive datetime {moment!r}: pass a timezone-aware datetime (UTC)")
    return (moment - _EPOCH) // _MS


def from_ms(ms: int | None) -> datetime | None:
    return None if ms is None else _EPOCH + ms * _MS


def _dumps(value: Mapping[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class _Transaction:
    """The statements of one transaction, each announced to the step hook first."""

    def __init__(self, conn: aiosqlite.Connection, on_step: StepHook | None) -> None:
        self._conn = conn
        self._on_step = on_step

    def step(self, name: str) -> None:
        if self._on_step is not None:
            self._on_step(name)

    async def execute(self, step: str, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement that returns no rows; returns the number of rows it changed."""
        self.step(step)
        return (await self._conn.execute(sql, params)).rowcount

    async def executemany(self, step: str, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.step(step)
        await self._conn.executemany(sql, rows)

    async def fetchall(self, step: str, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        self.step(step)
        return list(await self._conn.execute_fetchall(sql, params))


class SqliteGameStore:
    """`GameStore` on a SQLite file. Open it with `await SqliteGameStore.open(path)` and close it with `close()`
    (or use ``async with``). See `db.store.GameStore` for what each method does."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        *,
        location: str,
        decode_state: StateDecoder | None,
        clock: Callable[[], datetime],
        on_step: StepHook | None,
    ) -> None:
        self._conn = conn
        self._location = location
        self._decode_state = decode_state
        self._clock = clock
        self._on_step = on_step
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        decode_state: StateDecoder | None = decode_engine_state,
        clock: Callable[[], datetime] = _utc_now,
        on_step: StepHook | None = None,
        synchronous: Literal["NORMAL", "FULL", "EXTRA"] = "FULL",
        busy_timeout: float = 10.0,
    ) -> SqliteGameStore:
        """Open (creating it and its directory if needed) and migrate the database at `path`.

        `decode_state` rebuilds the engine object of each loaded game (None: leave `GameRecord.game` None).
        `synchronous` is SQLite's: FULL (the default) makes every save durable, even against a power cut, at the
        price of an fsync per save; NORMAL survives a crash of the bot but may lose the last saves to a power cut.
        Raises `SchemaTooNew` for a database written by a newer bot, and `StoreError` when the file is not a usable
        SQLite database.
        """
        if synchronous not in _SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {_SYNCHRONOUS}, not {synchronous!r}")
        location = str(path)
        if location != ":memory:" and not location.startswith("file:"):
            Path(location).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(location, isolation_level=None, timeout=busy_timeout)
        try:
            conn.row_factory = sqlite3.Row
            try:
                await conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.DatabaseError as error:
                raise StoreError(f"{location} cannot be opened as a SQLite database: {error}") from error
            await conn.execute(f"PRAGMA synchronous = {synchronous}")
            await conn.execute("PRAGMA foreign_keys = ON")
            await migrate(conn, location=location, clock_ms=lambda: to_ms(clock()) or 0)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, location=location, decode_state=decode_state, clock=clock, on_step=on_step)

    async def close(self) -> None:
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._conn.execute("PRAGMA optimize")  # cheap upkeep of the query planner's statistics
            await self._conn.close()

    async def __aenter__(self) -> SqliteGameStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def schema_version(self) -> int:
        """The schema version this code writes (the database is at it once opened)."""
        return LATEST_VERSION

    # Transactions

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[_Transaction]:
        async with self._lock:
            try:  # BEGIN is inside: a task cancelled while it runs must not leave the connection in a transaction
                try:
                    await self._conn.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as error:
                    raise StoreBusy(f"{self._location} stayed locked by another writer: {error}") from error
                tx = _Transaction(self._conn, self._on_step)
                yield tx
                tx.step("commit")
                await self._conn.execute("COMMIT")
            except BaseException:
                await self._conn.rollback()  # a no-op outside a transaction
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_Transaction]:
        # A read transaction sees one snapshot even when another process commits between its statements.
        async with self._lock:
            try:
                await self._conn.execute("BEGIN")
                yield _Transaction(self._conn, None)
            finally:
                await self._conn.rollback()

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
        sql = (
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'playing' "
            "AND (next_reminder_at <= ? OR deadline_at <= ?) "
            "ORDER BY MIN(COALESCE(next_reminder_at, deadline_at), COALESCE(deadline_at, next_reminder_at)), id"
        )
        async with self._read() as tx:
            return await self._load_summaries(tx, sql, (at, at))

    async def next_due_at(self) -> datetime | None:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "next_due", "SELECT MIN(next_reminder_at), MIN(deadline_at) FROM games WHERE status = 'playing'"
            )
        times = [ms for ms in rows[0] if ms is not None]
        return from_ms(min(times)) if times else None

    async def get_actions(self, game_id: int, *, after_seq: int = 0) -> list[ActionRecord]:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "read_actions",
                "SELECT game_id, seq, player_id, user_id, action, created_at FROM actions "
                "WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after_seq),
            )
            if not rows:
                await self._require_game(tx, game_id)
        records = []
        for row in rows:
            try:
                action = json.loads(row["action"])
            except ValueError as error:
                raise CorruptGame(game_id, f"action {row['seq']} of its log is not valid JSON ({error})") from error
            records.append(
                ActionRecord(
                    game_id=row["game_id"],
                    seq=row["seq"],
                    player_id=row["player_id"],
                    user_id=row["user_id"],
                    action=action,
                    created_at=_at(row["created_at"]),
                )
            )
        return records

    # The lobby

    async def create_game(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        host_user_id: int,
        kind: str,
        config: Mapping[str, Any],
        seats: Sequence[Seat] = (),
        seed: int | None = None,
        reminder_hours: float | None = None,
        deadline_hours: float | None = None,
    ) -> GameRecord:
        config_json = _dumps(config)
        seed = secrets.randbits(62) if seed is None else seed
        now = self._now_ms()
        async with self._write() as tx:
            try:
                rows = await tx.fetchall(
                    "insert_game",
                    "INSERT INTO games (guild_id, channel_id, host_user_id, kind, status, version, seed, config, "
                    "reminder_hours, deadline_hours, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, 'lobby', 1, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        host_user_id,
                        kind,
                        seed,
                        config_json,
                        reminder_hours,
                        deadline_hours,
                        now,
                        now,
                    ),
                )
            except sqlite3.IntegrityError:
                existing = await tx.fetchall(
                    "find_active",
                    f"SELECT id, status FROM games WHERE channel_id = ? AND status IN {_ACTIVE_SQL}",
                    (channel_id,),
                )
                if existing:
                    raise ActiveGameExists(channel_id, existing[0]["id"], existing[0]["status"]) from None
                raise
            game_id = rows[0]["id"]
            await self._write_seats(tx, game_id, seats)
            return await self._load_record(tx, game_id)

    async def set_lobby_options(
        self,
        game_id: int,
        expected_version: int,
        *,
        kind: str | Keep = KEEP,
        config: Mapping[str, Any] | Keep = KEEP,
        reminder_hours: float | Keep | None = KEEP,
        deadline_hours: float | Keep | None = KEEP,
    ) -> GameRecord:
        changes: dict[str, Any] = {}
        if kind is not KEEP:
            changes["kind"] = kind
        if config is not KEEP:
            changes["config"] = _dumps(config)
        if reminder_hours is not KEEP:
            changes["reminder_hours"] = reminder_hours
        if deadline_hours is not KEEP:
            changes["deadline_hours"] = deadline_hours
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY}, changes)
            return await self._load_record(tx, game_id)

    async def join_game(self, game_id: int, expected_version: int, seat: Seat) -> GameRecord:
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY})
            seats = await self._read_seats(tx, [game_id])
            current = seats.get(game_id, ())
            if any(s.player_id == seat.player_id for s in current):
                raise SeatConflict(game_id, f"{seat.display_name} ({seat.player_id}) is already seated")
            await self._write_seats(tx, game_id, (*current, seat))
            return await self._load_record(tx, game_id)

    async def leave_game(self, game_id: int, expected_version: int, player_id: str) -> GameRecord:
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY})
            current = (await self._read_seats(tx, [game_id])).get(game_id, ())
            remaining = [s for s in current if s.player_id != player_id]
            if len(remaining) == len(current):
                raise SeatConflict(game_id, f"player {player_id} is not seated")
            await self._write_seats(tx, game_id, remaining)
            return await self._load_record(tx, game_id)

    async def set_seats(self, game_id: int, expected_version: int, seats: Sequence[Seat]) -> GameRecord:
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY})
            await self._write_seats(tx, game_id, seats)
            return await self._load_record(tx, game_id)

    async def set_host(self, game_id: int, expected_version: int, host_user_id: int) -> GameRecord:
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY}, {"host_user_id": host_user_id})
            return await self._load_record(tx, game_id)

    # Play

    async def start_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        config: Mapping[str, Any],
        state: Mapping[str, Any],
        timer: TurnTimer | None = None,
    ) -> int:
        now = self._now_ms()
        changes: dict[str, Any] = {
            "status": GameStatus.PLAYING.value,
            "config": _dumps(config),
            "state": _dumps(state),
            "started_at": now,
        }
        if timer is not None:
            changes |= _timer_columns(timer)
        async with self._write() as tx:
            return await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY}, changes)

    async def save_move(
        self,
        game_id: int,
        expected_version: int,
        *,
        state: Mapping[str, Any],
        action: Mapping[str, Any],
        player_id: str | None,
        user_id: int | None,
        timer: TurnTimer | None = None,
        results: Sequence[SeatResult] | None = None,
    ) -> int:
        now = self._now_ms()
        changes: dict[str, Any] = {"state": _dumps(state)}
        if results is not None:
            changes |= _finish_columns(now)
            result_rows = _result_rows(game_id, results)
        elif timer is not None:
            changes |= _timer_columns(timer)
        action_json = _dumps(action)
        async with self._write() as tx:
            version = await self._bump(tx, game_id, expected_version, {GameStatus.PLAYING}, changes, now=now)
            await tx.execute(
                "insert_action",
                "INSERT INTO actions (game_id, seq, player_id, user_id, action, created_at) "
                "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM actions WHERE game_id = ?",
                (game_id, player_id, user_id, action_json, now, game_id),
            )
            if results is not None:
                await self._insert_results(tx, game_id, result_rows)
            return version

    async def finish_game(
        self, game_id: int, expected_version: int, *, state: Mapping[str, Any], results: Sequence[SeatResult]
    ) -> int:
        now = self._now_ms()
        changes = {"state": _dumps(state)} | _finish_columns(now)
        result_rows = _result_rows(game_id, results)
        async with self._write() as tx:
            version = await self._bump(tx, game_id, expected_version, {GameStatus.PLAYING}, changes, now=now)
            await self._insert_results(tx, game_id, result_rows)
            return version

    async def cancel_game(self, game_id: int, expected_version: int | None = None) -> int:
        now = self._now_ms()
        changes = _finish_columns(now) | {"status": GameStatus.CANCELLED.value}
        async with self._write() as tx:
            return await self._bump(tx, game_id, expected_version, ACTIVE_STATUSES, changes, now=now)

    # Bookkeeping

    async def set_table_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        async with self._write() as tx:
            changed = await tx.execute(
                "update_game",
                "UPDATE games SET table_channel_id = ?, table_message_id = ? WHERE id = ?",
                (channel_id, message_id, game_id),
            )
            if not changed:
                raise GameNotFound(game_id)

    async def set_turn_timer(self, game_id: int, timer: TurnTimer, *, expected_version: int | None = None) -> None:
        columns = _timer_columns(timer)
        sql = "UPDATE games SET next_reminder_at = ?, deadline_at = ? WHERE id = ? AND status = 'playing'"
        params: list[Any] = [columns["next_reminder_at"], columns["deadline_at"], game_id]
        if expected_version is not None:
            sql += " AND version = ?"
            params.append(expected_version)
        async with self._write() as tx:
            if not await tx.execute("update_game", sql, params):
                await self._explain_refusal(tx, game_id, expected_version, {GameStatus.PLAYING})

    # Statistics

    async def user_stats(self, user_id: int, *, guild_id: int | None = None) -> list[UserStats]:
        where, params = "s.user_id = ?", [user_id]
        if guild_id is not None:
            where += " AND g.guild_id = ?"
            params.append(guild_id)
        return await self._stats(where, params, guild_id, order="g.kind")

    async def guild_stats(self, guild_id: int, *, kind: str | None = None) -> list[UserStats]:
        where, params = "g.guild_id = ?", [guild_id]
        if kind is not None:
            where += " AND g.kind = ?"
            params.append(kind)
        return await self._stats(where, params, guild_id, order="wins DESC, average_score DESC, s.user_id")

    async def _stats(self, where: str, params: Sequence[Any], guild_id: int | None, *, order: str) -> list[UserStats]:
        sql = (
            "SELECT s.user_id AS user_id, g.kind AS kind, COUNT(*) AS games_played, SUM(r.won) AS wins, "
            "AVG(r.score) AS average_score, MAX(r.score) AS best_score "
            "FROM results AS r "
            "JOIN seats AS s ON s.game_id = r.game_id AND s.player_id = r.player_id "
            "JOIN games AS g ON g.id = r.game_id "
            f"WHERE g.status = 'finished' AND s.user_id IS NOT NULL AND {where} "
            f"GROUP BY s.user_id, g.kind ORDER BY {order}"
        )
        async with self._read() as tx:
            rows = await tx.fetchall("stats", sql, params)
        return [
            UserStats(
                user_id=row["user_id"],
                kind=row["kind"],
                guild_id=guild_id,
                games_played=row["games_played"],
                wins=row["wins"],
                average_score=float(row["average_score"]),
                best_score=row["best_score"],
            )
            for row in rows
        ]

    # Helpers inside a transaction

    async def _bump(
        self,
        tx: _Transaction,
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
        rows = await tx.fetchall("update_game", sql + " RETURNING version", params)
        if not rows:
            await self._explain_refusal(tx, game_id, expected_version, allowed)
        return int(rows[0]["version"])

    async def _explain_refusal(
        self, tx: _Transaction, game_id: int, expected_version: int | None, allowed: Iterable[GameStatus]
    ) -> None:
        rows = await tx.fetchall("check_game", "SELECT version, status FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        version, status = rows[0]["version"], rows[0]["status"]
        if expected_version is not None and version != expected_version:
            raise StaleVersion(game_id, expected_version, version)
        raise WrongStatus(game_id, status, [str(s) for s in sorted(allowed)])

    async def _require_game(self, tx: _Transaction, game_id: int) -> None:
        if not await tx.fetchall("check_game", "SELECT 1 FROM games WHERE id = ?", (game_id,)):
            raise GameNotFound(game_id)

    async def _write_seats(self, tx: _Transaction, game_id: int, seats: Sequence[Seat]) -> None:
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

    async def _insert_results(self, tx: _Transaction, game_id: int, rows: list[tuple[Any, ...]]) -> None:
        try:
            await tx.executemany(
                "insert_results",
                "INSERT INTO results (game_id, player_id, score, won, team, breakdown) VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
        except sqlite3.IntegrityError as error:
            seated = (await self._read_seats(tx, [game_id])).get(game_id, ())
            strangers = sorted({row[1] for row in rows} - {s.player_id for s in seated})
            if strangers:
                raise SeatConflict(game_id, f"results name players who are not seated: {strangers}") from error
            raise

    async def _read_seats(self, tx: _Transaction, game_ids: Sequence[int]) -> dict[int, tuple[Seat, ...]]:
        seats: dict[int, list[Seat]] = {}
        for start in range(0, len(game_ids), _IN_CHUNK):
            chunk = game_ids[start : start + _IN_CHUNK]
            rows = await tx.fetchall(
                "read_seats",
                f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id IN ({_marks(chunk)}) ORDER BY game_id, seat_order",
                chunk,
            )
            for row in rows:
                seats.setdefault(row["game_id"], []).append(
                    Seat(
                        player_id=row["player_id"],
                        display_name=row["display_name"],
                        user_id=row["user_id"],
                        colour=row["colour"],
                        cpu_level=row["cpu_level"],
                        seat_order=row["seat_order"],
                    )
                )
        return {game_id: tuple(game_seats) for game_id, game_seats in seats.items()}

    async def _load_summaries(self, tx: _Transaction, sql: str, params: Sequence[Any]) -> list[GameSummary]:
        rows = await tx.fetchall("read_games", sql, params)
        seats = await self._read_seats(tx, [row["id"] for row in rows])
        return [GameSummary(**_summary_fields(row, seats.get(row["id"], ()))) for row in rows]

    async def _load_record(self, tx: _Transaction, game_id: int) -> GameRecord:
        rows = await tx.fetchall(
            "read_game", f"SELECT {_GAME_COLUMNS}, config, state FROM games WHERE id = ?", (game_id,)
        )
        if not rows:
            raise GameNotFound(game_id)
        row = rows[0]
        seats = (await self._read_seats(tx, [game_id])).get(game_id, ())
        return self._decode_record(row, seats)

    def _decode_record(self, row: sqlite3.Row, seats: tuple[Seat, ...]) -> GameRecord:
        game_id = row["id"]
        config = _load_json_object(game_id, "config", row["config"])
        state = None if row["state"] is None else _load_json_object(game_id, "state", row["state"])
        status = GameStatus(row["status"])
        if state is None and status in (GameStatus.PLAYING, GameStatus.FINISHED):
            raise CorruptGame(game_id, f"it is {status} but has no state")
        game = None
        if state is not None and self._decode_state is not None:
            try:
                game = self._decode_state(state)
            except Exception as error:  # whatever the engine raises, it is this game's problem only
                raise CorruptGame(game_id, f"the engine refused its state ({type(error).__name__}: {error})") from error
        return GameRecord(**_summary_fields(row, seats), config=config, state=state, game=game)


def _marks(values: Iterable[Any]) -> str:
    return ", ".join("?" for _ in values)


def _at(ms: int) -> datetime:
    moment = from_ms(ms)
    assert moment is not None
    return moment


def _summary_fields(row: sqlite3.Row, seats: tuple[Seat, ...]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "guild_id": row["guild_id"],
        "channel_id": row["channel_id"],
        "host_user_id": row["host_user_id"],
        "kind": row["kind"],
        "status": GameStatus(row["status"]),
        "version": row["version"],
        "seed": row["seed"],
        "seats": seats,
        "table_channel_id": row["table_channel_id"],
        "table_message_id": row["table_message_id"],
        "reminder_hours": row["reminder_hours"],
        "deadline_hours": row["deadline_hours"],
        "next_reminder_at": from_ms(row["next_reminder_at"]),
        "deadline_at": from_ms(row["deadline_at"]),
        "created_at": _at(row["created_at"]),
        "updated_at": _at(row["updated_at"]),
        "started_at": from_ms(row["started_at"]),
        "ended_at": from_ms(row["ended_at"]),
    }


def _load_json_object(game_id: int, column: str, text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (ValueError, TypeError) as error:
        raise CorruptGame(game_id, f"its {column} is not valid JSON ({error})") from error
    if not isinstance(value, dict):
        raise CorruptGame(game_id, f"its {column} is JSON but not an object (found {type(value).__name__})")
    return value


def _timer_columns(timer: TurnTimer) -> dict[str, Any]:
    return {"next_reminder_at": to_ms(timer.next_reminder_at), "deadline_at": to_ms(timer.deadline_at)}


def _finish_columns(now: int) -> dict[str, Any]:
    return {"status": GameStatus.FINISHED.value, "ended_at": now, "next_reminder_at": None, "deadline_at": None}


def _check_seats(game_id: int, seats: Sequence[Seat]) -> None:
    players = [s.player_id for s in seats]
    if len(set(players)) != len(players):
        raise SeatConflict(game_id, f"a player is seated twice: {players}")
    colours = [s.colour for s in seats if s.colour is not None]
    if len(set(colours)) != len(colours):
        raise SeatConflict(game_id, f"a colour is taken twice: {colours}")
    for seat in seats:
        if (seat.user_id is None) == (seat.cpu_level is None):
            raise ValueError(f"seat {seat.player_id}: a seat has a user_id (a person) or a cpu_level, not both")


def _result_rows(game_id: int, results: Sequence[SeatResult]) -> list[tuple[Any, ...]]:
    players = [r.player_id for r in results]
    if len(set(players)) != len(players):
        raise SeatConflict(game_id, f"results name a player twice: {players}")
    return [
        (game_id, r.player_id, r.score, int(r.won), r.team, None if r.breakdown is None else _dumps(r.breakdown))
        for r in results
    ]
