"""What the SQLite and PostgreSQL stores share: every `GameStore` method, written once in SQL both databases speak.

A backend (`db.sqlite`, `db.postgres`) brings the connection and its transactions; SQL here uses ``?`` placeholders
(the PostgreSQL backend numbers them), epoch milliseconds for times, and JSON text for the config, state and
actions (jsonb columns in PostgreSQL, text in SQLite). Where the two databases differ in one clause, the backend
sets it as a class attribute (`_skip_locked`, `_wait_locked`).
"""

from __future__ import annotations

import dataclasses
import json
import math
import secrets
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from db.changes import OnVersion, PollingFeed, VersionFeed, Watched
from db.engine_state import StateDecoder
from db.errors import (
    ActiveGameExists,
    CorruptGame,
    GameNotFound,
    SeatConflict,
    StaleVersion,
    WrongStatus,
)
from db.migrate import LATEST_VERSION
from db.models import (
    ACTIVE_STATUSES,
    CANCEL_REASONS,
    COLOUR_PATTERN,
    CPU_LEVELS,
    END_REASONS,
    ActionRecord,
    FinishedGame,
    FinishedSeat,
    GameRecord,
    GameStatus,
    GameSummary,
    GuildSettings,
    PendingNotification,
    Seat,
    SeatResult,
    TurnTimer,
    UserSettings,
    UserStats,
)
from db.store import KEEP, Keep
from engine.config import GAMES

StepHook = Callable[[str], None]
"""Called with a step name ("update_game", "insert_action", "commit"...) before each statement of a write
transaction. For tests: raising from it (or killing the process) simulates a failure between two statements."""

KINDS = frozenset(GAMES)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)

_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_user_id, kind, status, version, seed, table_channel_id, table_message_id, "
    "reminder_hours, deadline_hours, next_reminder_at, deadline_at, created_at, updated_at, started_at, ended_at, "
    "table_version, end_reason"
)
_SEAT_COLUMNS = "game_id, seat_order, player_id, user_id, display_name, colour, cpu_level"
_ACTIVE_SQL = "('lobby', 'playing')"
_IN_CHUNK = 500  # ids per "IN (...)" list, well under both databases' parameter limits
# the earlier of the reminder and the deadline, whichever are set
_DUE_AT = (
    "CASE WHEN next_reminder_at IS NULL THEN deadline_at "
    "WHEN deadline_at IS NULL OR next_reminder_at <= deadline_at THEN next_reminder_at ELSE deadline_at END"
)
NOTIFICATION_ATTEMPTS = 2  # a notification is claimed at most twice: once, and once more after a crash mid-send
_DUE = "status = 'playing' AND (next_reminder_at <= ? OR deadline_at <= ?)"


def utc_now() -> datetime:
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


def dumps(value: Mapping[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class Row(Protocol):
    def __getitem__(self, key: str | int, /) -> Any: ...


class Transaction(Protocol):
    """The statements of one transaction, each announced to the step hook first."""

    def step(self, name: str) -> None: ...

    async def execute(self, step: str, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement that returns no rows; returns the number of rows it changed."""
        ...

    async def executemany(self, step: str, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetchall(self, step: str, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    def savepoint(self) -> AbstractAsyncContextManager[None]:
        """A nested transaction: what fails inside it is undone alone, and the transaction goes on."""
        ...


class SqlGameStore:
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
        _check_kind(kind)
        config_json = dumps(config)
        seed = secrets.randbits(62) if seed is None else seed
        now = self._now_ms()
        async with self._write() as tx:
            try:
                async with tx.savepoint():
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
            except Exception as error:
                if not self._is_constraint_error(error):
                    raise
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
            _check_kind(kind)
            changes["kind"] = kind
        if config is not KEEP:
            changes["config"] = dumps(config)
        if reminder_hours is not KEEP:
            changes["reminder_hours"] = reminder_hours
        if deadline_hours is not KEEP:
            changes["deadline_hours"] = deadline_hours
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY}, changes)
            return await self._load_record(tx, game_id)

    async def join_game(self, game_id: int, expected_version: int, seat: Seat) -> GameRecord:
        _check_seat_values(seat)
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
        for seat in seats:
            _check_seat_values(seat)
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
            "config": dumps(config),
            "state": dumps(state),
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
        changes: dict[str, Any] = {"state": dumps(state)}
        if results is not None:
            changes |= _finish_columns(now)
            result_rows = _result_rows(game_id, results)
        elif timer is not None:
            changes |= _timer_columns(timer)
        action_json = dumps(action)
        async with self._write() as tx:
            version = await self._bump(tx, game_id, expected_version, {GameStatus.PLAYING}, changes, now=now)
            # the game's row is locked by the update above, so no other writer takes the same number
            rows = await tx.fetchall(
                "next_seq", "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (game_id,)
            )
            await tx.execute(
                "insert_action",
                "INSERT INTO actions (game_id, seq, player_id, user_id, action, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, int(rows[0][0]), player_id, user_id, action_json, now),
            )
            if results is not None:
                await self._insert_results(tx, game_id, result_rows)
            return version

    async def undo_last_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        seq: int,
        state: Mapping[str, Any],
        timer: TurnTimer | None = None,
    ) -> int:
        changes: dict[str, Any] = {"state": dumps(state)}
        if timer is not None:
            changes |= _timer_columns(timer)
        async with self._write() as tx:
            version = await self._bump(tx, game_id, expected_version, {GameStatus.PLAYING}, changes)
            rows = await tx.fetchall(
                "last_action", "SELECT MAX(seq) FROM actions WHERE game_id = ? AND undone = 0", (game_id,)
            )
            last = rows[0][0]
            if last is None or last != seq:
                found = "it has none" if last is None else f"the last is action {last}"
                raise ValueError(f"game #{game_id}: action {seq} is not the last action not undone ({found})")
            await tx.execute(
                "undo_action", "UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ?", (game_id, seq)
            )
            return version

    async def finish_game(
        self, game_id: int, expected_version: int, *, state: Mapping[str, Any], results: Sequence[SeatResult]
    ) -> int:
        now = self._now_ms()
        changes = {"state": dumps(state)} | _finish_columns(now)
        result_rows = _result_rows(game_id, results)
        async with self._write() as tx:
            version = await self._bump(tx, game_id, expected_version, {GameStatus.PLAYING}, changes, now=now)
            await self._insert_results(tx, game_id, result_rows)
            return version

    async def cancel_game(self, game_id: int, expected_version: int | None = None, *, reason: str = "cancelled") -> int:
        if reason not in CANCEL_REASONS:
            raise ValueError(f"reason must be one of {', '.join(CANCEL_REASONS)}, not {reason!r}")
        now = self._now_ms()
        changes = _finish_columns(now) | {"status": GameStatus.CANCELLED.value, "end_reason": reason}
        async with self._write() as tx:
            return await self._bump(tx, game_id, expected_version, ACTIVE_STATUSES, changes, now=now)

    # Bookkeeping

    async def set_table_message(
        self, game_id: int, channel_id: int | None, message_id: int | None, *, shown_version: int | None = None
    ) -> None:
        async with self._write() as tx:
            changed = await tx.execute(
                "update_game",
                "UPDATE games SET table_channel_id = ?, table_message_id = ?, table_version = ? WHERE id = ?",
                (channel_id, message_id, shown_version, game_id),
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

    # Several processes

    async def stale_tables(self, *, limit: int = 100) -> list[GameSummary]:
        sql = (
            f"SELECT {_GAME_COLUMNS} FROM games WHERE (status = 'playing' "
            "AND (table_version IS NULL OR table_version < version)) "
            "OR (status = 'finished' AND table_version IS NOT NULL AND table_version < version) "
            "ORDER BY updated_at, id LIMIT ?"
        )
        async with self._read() as tx:
            return await self._load_summaries(tx, sql, (limit,))

    async def claim_table_post(
        self, game_id: int, version: int, owner: str, lease_seconds: float, now: datetime
    ) -> bool:
        _check_lease(owner, lease_seconds)
        at = to_ms(now) or 0
        until = at + math.ceil(lease_seconds * 1000)
        async with self._write() as tx:
            await self._require_game(tx, game_id)
            won = await tx.fetchall(
                "claim_table",
                "INSERT INTO table_claims (game_id, version, owner, lease_until) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, version) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until "
                "WHERE table_claims.lease_until <= ? RETURNING game_id",
                (game_id, version, owner, until, at),
            )
            if won:  # claims of older versions are settled: a newer table replaces theirs
                await tx.execute(
                    "forget_claims", "DELETE FROM table_claims WHERE game_id = ? AND version < ?", (game_id, version)
                )
            return bool(won)

    async def release_claims_of(self, owner: str) -> int:
        async with self._write() as tx:
            tables = await tx.fetchall(
                "release_owner_tables", "DELETE FROM table_claims WHERE owner = ? RETURNING game_id", (owner,)
            )
            timers = await tx.fetchall(
                "release_owner_timers",
                "UPDATE games SET timer_owner = NULL, timer_claim_until = NULL WHERE timer_owner = ? RETURNING id",
                (owner,),
            )
            notes = await tx.fetchall(
                "release_owner_notifications",
                "UPDATE notifications SET lease_until = 0 WHERE owner = ? AND sent_at IS NULL RETURNING game_id",
                (owner,),
            )
            return len(tables) + len(timers) + len(notes)

    async def release_table_post(self, game_id: int, version: int, owner: str) -> bool:
        async with self._write() as tx:
            rows = await tx.fetchall(
                "release_table",
                "DELETE FROM table_claims WHERE game_id = ? AND version = ? AND owner = ? RETURNING game_id",
                (game_id, version, owner),
            )
            return bool(rows)

    async def claim_due(self, now: datetime, owner: str, lease_seconds: float, limit: int = 50) -> list[GameSummary]:
        _check_lease(owner, lease_seconds)
        at = to_ms(now) or 0
        until = at + math.ceil(lease_seconds * 1000)
        free = "(timer_claim_until IS NULL OR timer_claim_until <= ?)"
        sql = (
            # the choice is made once, in a materialised CTE: as a subquery PostgreSQL may run it again for each row
            # it updates, and skip the rows it just claimed (so more than `limit` would be taken)
            f"WITH chosen AS MATERIALIZED (SELECT id FROM games WHERE {_DUE} AND {free} "
            f"ORDER BY {_DUE_AT}, id LIMIT ?{{lock}}) "
            "UPDATE games SET timer_owner = ?, timer_claim_until = ? WHERE id IN (SELECT id FROM chosen) "
            "RETURNING id"
        )
        params = (at, at, at, limit, owner, until)
        async with self._write() as tx:
            rows = await tx.fetchall("claim_due", sql.format(lock=self._skip_locked), params)
            if not rows and self._wait_locked:
                # Every due row was locked: by other claimers, or by a move or a table post being written. Wait for
                # them (SQLite's writers wait too), then take those still free. Holding no claimed row yet, this
                # wait cannot close a cycle with another claimer.
                rows = await tx.fetchall("claim_due_wait", sql.format(lock=self._wait_locked), params)
            ids = [row["id"] for row in rows]
            if not ids:
                return []
            found = f"SELECT {_GAME_COLUMNS} FROM games WHERE id IN ({_marks(ids)}) ORDER BY {_DUE_AT}, id"
            return await self._load_summaries(tx, found, ids)

    async def release_claim(self, game_id: int, owner: str) -> bool:
        async with self._write() as tx:
            released = await tx.execute(
                "release_claim",
                "UPDATE games SET timer_owner = NULL, timer_claim_until = NULL WHERE id = ? AND timer_owner = ?",
                (game_id, owner),
            )
            if not released:
                await self._require_game(tx, game_id)
            return bool(released)

    async def claim_notification(
        self,
        game_id: int,
        turn_key: int,
        user_id: int,
        kind: str,
        *,
        owner: str = "",
        lease_seconds: float = 300.0,
        sent: bool = False,
    ) -> bool:
        if not kind:
            raise ValueError("a notification kind is a non-empty string such as 'turn' or 'reminder'")
        if isinstance(lease_seconds, bool) or not isinstance(lease_seconds, int | float) or not lease_seconds > 0:
            raise ValueError(f"lease_seconds must be a number of seconds above 0, not {lease_seconds!r}")
        now = self._now_ms()
        until = now + math.ceil(lease_seconds * 1000)
        async with self._write() as tx:
            await self._require_game(tx, game_id)
            rows = await tx.fetchall(
                "claim_notification",
                "INSERT INTO notifications "
                "(game_id, turn_key, kind, user_id, claimed_at, owner, lease_until, sent_at, attempts) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT (game_id, turn_key, kind) DO UPDATE SET "
                "owner = excluded.owner, lease_until = excluded.lease_until, claimed_at = excluded.claimed_at, "
                "sent_at = excluded.sent_at, attempts = notifications.attempts + 1 WHERE notifications.sent_at IS NULL "
                f"AND notifications.lease_until <= ? AND notifications.attempts < {NOTIFICATION_ATTEMPTS} "
                "RETURNING game_id",
                (game_id, turn_key, kind, user_id, now, owner, None if sent else until, now if sent else None, now),
            )
            return bool(rows)

    async def notification_sent(
        self, game_id: int, turn_key: int, kind: str, *, message: tuple[int, int] | None = None
    ) -> bool:
        channel_id, message_id = message if message is not None else (None, None)
        async with self._write() as tx:
            rows = await tx.fetchall(
                "notification_sent",
                "UPDATE notifications SET sent_at = ?, lease_until = NULL, message_channel_id = ?, message_id = ? "
                "WHERE game_id = ? AND turn_key = ? AND kind = ? RETURNING game_id",
                (self._now_ms(), channel_id, message_id, game_id, turn_key, kind),
            )
            return bool(rows)

    async def notification_messages(self, game_id: int, *, other_than: int | None = None) -> list[tuple[int, int]]:
        sql = "SELECT message_channel_id, message_id FROM notifications WHERE game_id = ? AND message_id IS NOT NULL"
        params: list[Any] = [game_id]
        if other_than is not None:
            sql += " AND turn_key <> ?"
            params.append(other_than)
        async with self._read() as tx:
            rows = await tx.fetchall("notification_messages", sql + " ORDER BY turn_key, kind", params)
        return [(int(r["message_channel_id"]), int(r["message_id"])) for r in rows]

    async def forget_notification_messages(self, game_id: int, message_ids: Collection[int]) -> int:
        if not message_ids:
            return 0
        ids = list(message_ids)
        async with self._write() as tx:
            return await tx.execute(
                "forget_messages",
                "UPDATE notifications SET message_channel_id = NULL, message_id = NULL "
                f"WHERE game_id = ? AND message_id IN ({_marks(ids)})",
                [game_id, *ids],
            )

    async def unsent_notifications(self, limit: int = 50) -> list[PendingNotification]:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "unsent_notifications",
                "SELECT game_id, turn_key, kind, user_id FROM notifications WHERE sent_at IS NULL "
                f"AND lease_until <= ? AND attempts < {NOTIFICATION_ATTEMPTS} "
                "ORDER BY claimed_at, game_id, turn_key, kind LIMIT ?",
                (self._now_ms(), limit),
            )
        return [PendingNotification(r["game_id"], r["turn_key"], r["kind"], r["user_id"]) for r in rows]

    # Members

    async def count_lobbies_hosted(self, guild_id: int, user_id: int) -> int:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "count_lobbies",
                "SELECT COUNT(*) FROM games WHERE status = 'lobby' AND guild_id = ? AND host_user_id = ?",
                (guild_id, user_id),
            )
        return int(rows[0][0])

    async def count_active_games_of(self, guild_id: int, user_id: int) -> int:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "count_games",
                f"SELECT COUNT(*) FROM games WHERE status IN {_ACTIVE_SQL} AND guild_id = ? "
                "AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
                (guild_id, user_id),
            )
        return int(rows[0][0])

    async def active_games_of(self, user_id: int, guild_id: int | None = None) -> list[GameSummary]:
        sql = (
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN {_ACTIVE_SQL} "
            "AND id IN (SELECT game_id FROM seats WHERE user_id = ?)"
        )
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        async with self._read() as tx:
            return await self._load_summaries(tx, sql + " ORDER BY updated_at DESC, id DESC", params)

    async def expired_lobbies(self, updated_before: datetime) -> list[GameSummary]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'lobby' AND updated_at < ? ORDER BY updated_at, id"
        async with self._read() as tx:
            return await self._load_summaries(tx, sql, (to_ms(updated_before),))

    # Settings

    async def get_user_settings(self, user_id: int) -> UserSettings:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "read_user_settings",
                "SELECT notify, timezone, quiet_start, quiet_end, language FROM user_settings WHERE user_id = ?",
                (user_id,),
            )
        if not rows:
            return UserSettings(user_id)
        row = rows[0]
        return UserSettings(
            user_id,
            notify=row["notify"],
            timezone=row["timezone"],
            quiet_start=row["quiet_start"],
            quiet_end=row["quiet_end"],
            language=row["language"],
        )

    async def set_user_settings(self, settings: UserSettings) -> None:
        if not isinstance(settings, UserSettings):
            raise TypeError(f"set_user_settings takes a UserSettings, not {type(settings).__name__}")
        s = settings
        async with self._write() as tx:
            await tx.execute(
                "write_user_settings",
                "INSERT INTO user_settings (user_id, notify, timezone, quiet_start, quiet_end, language) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, "
                "timezone = excluded.timezone, quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, "
                "language = excluded.language",
                (s.user_id, s.notify, s.timezone, s.quiet_start, s.quiet_end, s.language),
            )

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "read_guild_settings",
                "SELECT max_lobbies_per_member, max_games_per_member, lobby_expiry_hours, language "
                "FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            )
        if not rows:
            return GuildSettings(guild_id)
        row = rows[0]
        return GuildSettings(
            guild_id,
            max_lobbies_per_member=row["max_lobbies_per_member"],
            max_games_per_member=row["max_games_per_member"],
            lobby_expiry_hours=float(row["lobby_expiry_hours"]),
            language=row["language"],
        )

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        if not isinstance(settings, GuildSettings):
            raise TypeError(f"set_guild_settings takes a GuildSettings, not {type(settings).__name__}")
        s = settings
        async with self._write() as tx:
            await tx.execute(
                "write_guild_settings",
                "INSERT INTO guild_settings (guild_id, max_lobbies_per_member, max_games_per_member, "
                "lobby_expiry_hours, language) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "max_lobbies_per_member = excluded.max_lobbies_per_member, "
                "max_games_per_member = excluded.max_games_per_member, "
                "lobby_expiry_hours = excluded.lobby_expiry_hours, language = excluded.language",
                (s.guild_id, s.max_lobbies_per_member, s.max_games_per_member, float(s.lobby_expiry_hours), s.language),
            )

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

    async def finished_results(self, guild_id: int, kind: str | None = None) -> list[FinishedGame]:
        where, params = "g.status = 'finished' AND g.guild_id = ?", [guild_id]
        if kind is not None:
            where += " AND g.kind = ?"
            params.append(kind)
        sql = (
            "SELECT g.id AS game_id, g.kind AS kind, g.ended_at AS ended_at, g.config AS config, "
            "s.player_id AS player_id, s.user_id AS user_id, s.cpu_level AS cpu_level, "
            "s.display_name AS display_name, r.team AS team, r.score AS score, r.won AS won "
            "FROM games AS g JOIN seats AS s ON s.game_id = g.id "
            "LEFT JOIN results AS r ON r.game_id = s.game_id AND r.player_id = s.player_id "
            f"WHERE {where} ORDER BY g.ended_at, g.id, s.seat_order"
        )
        async with self._read() as tx:
            rows = await tx.fetchall("finished_results", sql, params)
        games: dict[int, FinishedGame] = {}
        seats: dict[int, list[FinishedSeat]] = {}
        for row in rows:
            game_id = row["game_id"]
            if game_id not in games:
                config = _load_json_object(game_id, "config", row["config"])
                games[game_id] = FinishedGame(game_id, row["kind"], _at(row["ended_at"]), config, ())
            seats.setdefault(game_id, []).append(
                FinishedSeat(
                    player_id=row["player_id"],
                    user_id=row["user_id"],
                    cpu_level=row["cpu_level"],
                    display_name=row["display_name"],
                    team=row["team"],
                    score=row["score"],
                    won=bool(row["won"]),
                )
            )
        return [dataclasses.replace(game, seats=tuple(seats[game_id])) for game_id, game in games.items()]

    async def _stats(self, where: str, params: Sequence[Any], guild_id: int | None, *, order: str) -> list[UserStats]:
        sql = (
            "SELECT s.user_id AS user_id, g.kind AS kind, COUNT(*) AS games_played, SUM(r.won) AS wins, "
            "AVG(r.score) AS average_score, MAX(r.score) AS best_score "
            "FROM results AS r "
            "JOIN seats AS s ON s.game_id = r.game_id AND s.player_id = r.player_id "
            "JOIN games AS g ON g.id = r.game_id "
            # a former player (below zero: someone who asked to be forgotten) has no statistics
            f"WHERE g.status = 'finished' AND s.user_id IS NOT NULL AND s.user_id > 0 AND {where} "
            f"GROUP BY s.user_id, g.kind ORDER BY {order}"
        )
        async with self._read() as tx:
            rows = await tx.fetchall("stats", sql, params)
        return [
            UserStats(
                user_id=row["user_id"],
                kind=row["kind"],
                guild_id=guild_id,
                games_played=int(row["games_played"]),
                wins=int(row["wins"]),
                average_score=float(row["average_score"]),
                best_score=row["best_score"],
            )
            for row in rows
        ]

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


def _marks(values: Iterable[Any]) -> str:
    return ", ".join("?" for _ in values)


def _at(ms: int) -> datetime:
    moment = from_ms(ms)
    assert moment is not None
    return moment


def _summary_fields(row: Row, seats: tuple[Seat, ...]) -> dict[str, Any]:
    try:
        status = GameStatus(row["status"])
    except ValueError:
        raise CorruptGame(row["id"], f"its status {row['status']!r} is unknown", "status") from None
    return {
        "id": row["id"],
        "guild_id": row["guild_id"],
        "channel_id": row["channel_id"],
        "host_user_id": row["host_user_id"],
        "kind": row["kind"],
        "status": status,
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
        "table_version": row["table_version"],
        "end_reason": row["end_reason"],
    }


def _load_json_object(game_id: int, column: str, text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (ValueError, TypeError) as error:
        raise CorruptGame(game_id, f"its {column} is not valid JSON ({error})", column) from error
    if not isinstance(value, dict):
        raise CorruptGame(game_id, f"its {column} is JSON but not an object (found {type(value).__name__})", column)
    return value


def _timer_columns(timer: TurnTimer) -> dict[str, Any]:
    return {"next_reminder_at": to_ms(timer.next_reminder_at), "deadline_at": to_ms(timer.deadline_at)}


def _finish_columns(now: int) -> dict[str, Any]:
    return {
        "status": GameStatus.FINISHED.value,
        "end_reason": "finished",
        "ended_at": now,
        "next_reminder_at": None,
        "deadline_at": None,
    }


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(sorted(KINDS))}, not {kind!r}")


def _check_lease(owner: str, lease_seconds: float) -> None:
    if not owner:
        raise ValueError("owner must name the claiming process (a non-empty string)")
    if not (isinstance(lease_seconds, int | float) and math.isfinite(lease_seconds) and lease_seconds > 0):
        raise ValueError(f"lease_seconds must be a number of seconds above 0, not {lease_seconds!r}")


def _seat_problem(seat: Seat) -> tuple[str, str] | None:
    """What is wrong with one seat's values, as (field, reason), or None."""
    if seat.user_id is None and seat.cpu_level is None:
        return "user_id", "is neither a person (user_id) nor a computer (cpu_level)"
    if seat.user_id is not None and seat.cpu_level is not None:
        return "cpu_level", "is a person (user_id) and a computer (cpu_level) at once"
    if seat.cpu_level is not None and seat.cpu_level not in CPU_LEVELS:
        return "cpu_level", f"has computer level {seat.cpu_level!r}, not one of {', '.join(sorted(CPU_LEVELS))}"
    if seat.user_id is not None and seat.player_id != str(seat.user_id):
        return "player_id", f"has player id {seat.player_id!r} for user {seat.user_id}"
    if seat.cpu_level is not None and not (seat.player_id.startswith("cpu:") and seat.player_id[4:].isdigit()):
        return "player_id", f"has player id {seat.player_id!r} for a computer (expected 'cpu:N')"
    if seat.colour is not None and not COLOUR_PATTERN.fullmatch(seat.colour):
        return "colour", f"has colour {seat.colour!r}, not a colour like '#rrggbb'"
    return None


def _check_seat_values(seat: Seat) -> None:
    problem = _seat_problem(seat)
    if problem is not None:
        raise ValueError(f"seat {seat.player_id}: {problem[1]}")


def _check_seats(game_id: int, seats: Sequence[Seat]) -> None:
    players = [s.player_id for s in seats]
    if len(set(players)) != len(players):
        raise SeatConflict(game_id, f"a player is seated twice: {players}")
    colours = [s.colour for s in seats if s.colour is not None]
    if len(set(colours)) != len(colours):
        raise SeatConflict(game_id, f"a colour is taken twice: {colours}")
    for seat in seats:
        _check_seat_values(seat)


def _result_rows(game_id: int, results: Sequence[SeatResult]) -> list[tuple[Any, ...]]:
    players = [r.player_id for r in results]
    if len(set(players)) != len(players):
        raise SeatConflict(game_id, f"results name a player twice: {players}")
    return [
        (game_id, r.player_id, r.score, int(r.won), r.team, None if r.breakdown is None else dumps(r.breakdown))
        for r in results
    ]
