"""What the store's SQL shares, on both databases: the columns, time in milliseconds, JSON, the transaction's
protocol the backends implement, and the checks and conversions every part of `db.sql`'s store uses."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from db.errors import (
    CorruptGame,
    SeatConflict,
)
from db.models import (
    COLOUR_PATTERN,
    CPU_LEVELS,
    GameStatus,
    Seat,
    SeatResult,
    TurnTimer,
)
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


def seat_of_row(row: Any) -> Seat:
    """A seat as read from a row of `seats` (its `_SEAT_COLUMNS`, or more)."""
    return Seat(
        player_id=row["player_id"],
        display_name=row["display_name"],
        user_id=row["user_id"],
        colour=row["colour"],
        cpu_level=row["cpu_level"],
        seat_order=row["seat_order"],
    )


def _check_owner(owner: str) -> None:
    if not owner:
        raise ValueError("owner must name the claiming process (a non-empty string)")


def lease_end(at_ms: int, lease_seconds: float) -> int:
    """When a lease of `lease_seconds` taken at `at_ms` ends (ms since the epoch); a ValueError unless the seconds are
    a finite number above 0 (a bool is not a number of seconds)."""
    number = isinstance(lease_seconds, int | float) and not isinstance(lease_seconds, bool)
    if not (number and math.isfinite(lease_seconds) and lease_seconds > 0):
        raise ValueError(f"lease_seconds must be a number of seconds above 0, not {lease_seconds!r}")
    return at_ms + math.ceil(lease_seconds * 1000)


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
