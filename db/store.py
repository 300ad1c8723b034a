"""The interface of a game store, whatever database is behind it.

Everything the bot keeps about games goes through these methods; no SQL lives outside the backend that implements
them (`db.sqlite.SqliteGameStore` today; a PostgreSQL one would implement the same protocol).

Concurrency is optimistic: every change to a game's state, seats or options names the `version` it was computed from
and raises `StaleVersion`, writing nothing, when another change landed first. Each call is one transaction: it is
written whole or not at all.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from enum import Enum
from typing import Any, Final, Literal, Protocol, runtime_checkable

from db.models import (
    ActionRecord,
    GameRecord,
    GameStatus,
    GameSummary,
    Seat,
    SeatResult,
    TurnTimer,
    UserStats,
)


class _Keep(Enum):
    KEEP = "keep"


KEEP: Final = _Keep.KEEP
"""Default of optional settings in `set_lobby_options`: leave the stored value as it is."""

Keep = Literal[_Keep.KEEP]


@runtime_checkable
class GameStore(Protocol):
    async def close(self) -> None:
        """Finish pending work and release the database."""
        ...

    # Reading

    async def get_game(self, game_id: int) -> GameRecord:
        """The game with its config, state and engine object. Raises `GameNotFound`, or `CorruptGame` when its JSON
        is damaged or the engine refuses the state."""
        ...

    async def get_active_game(self, channel_id: int) -> GameRecord | None:
        """The channel's game in its lobby or in play, or None. Raises `CorruptGame` like `get_game`."""
        ...

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        statuses: Collection[GameStatus] | None = None,
        limit: int | None = None,
    ) -> list[GameSummary]:
        """Games (in one guild or channel, with one of `statuses`; None: any), newest first. Corrupt games list too;
        `statuses=ACTIVE_STATUSES` gives the games in a lobby or in play."""
        ...

    async def due_games(self, now: datetime) -> list[GameSummary]:
        """Games in play whose reminder or deadline is at or before `now`, most overdue first: what a scheduler
        handles after a restart or when it wakes."""
        ...

    async def next_due_at(self) -> datetime | None:
        """The earliest reminder or deadline of any game in play, or None: how long a scheduler may sleep."""
        ...

    async def get_actions(self, game_id: int, *, after_seq: int = 0) -> list[ActionRecord]:
        """The game's action log from `after_seq + 1` on, in order."""
        ...

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
        """Open a lobby in the channel at version 1 (`seed`: random when None). Raises `ActiveGameExists` naming the
        channel's game in its lobby or in play, or `SeatConflict`."""
        ...

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
        """Change the options of a game in its lobby; what is not given stays."""
        ...

    async def join_game(self, game_id: int, expected_version: int, seat: Seat) -> GameRecord:
        """Add `seat` at the end of the table. Raises `SeatConflict` when the player is seated or the colour taken."""
        ...

    async def leave_game(self, game_id: int, expected_version: int, player_id: str) -> GameRecord:
        """Remove the player's seat; the seats after it move up. Raises `SeatConflict` when they are not seated."""
        ...

    async def set_seats(self, game_id: int, expected_version: int, seats: Sequence[Seat]) -> GameRecord:
        """Replace the whole table (order, colours) of a game in its lobby."""
        ...

    async def set_host(self, game_id: int, expected_version: int, host_user_id: int) -> GameRecord:
        """Make another person the host of a game in its lobby (the host left)."""
        ...

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
        """Move a game from its lobby into play with the engine's config and first state; returns the new version."""
        ...

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
        """Store the state after `action` and append `action` to the log, together; returns the new version.
        `timer` replaces the turn timer when given. With `results`, the move ends the game: it becomes finished
        with these results (one per seat) and no timer, in the same transaction."""
        ...

    async def finish_game(
        self, game_id: int, expected_version: int, *, state: Mapping[str, Any], results: Sequence[SeatResult]
    ) -> int:
        """End a game in play with its final state and results, without a further action; returns the new version."""
        ...

    async def cancel_game(self, game_id: int, expected_version: int | None = None) -> int:
        """Cancel a game in its lobby or in play (`expected_version=None`: whatever its version); frees the channel."""
        ...

    # Bookkeeping that is not part of the game (the version does not change)

    async def set_table_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        """Remember which message shows the table (None, None: no message)."""
        ...

    async def set_turn_timer(self, game_id: int, timer: TurnTimer, *, expected_version: int | None = None) -> None:
        """Reschedule the reminder and deadline of a game in play; with `expected_version`, only if it has not moved."""
        ...

    # Statistics

    async def user_stats(self, user_id: int, *, guild_id: int | None = None) -> list[UserStats]:
        """The person's finished games per kind, everywhere or in one guild."""
        ...

    async def guild_stats(self, guild_id: int, *, kind: str | None = None) -> list[UserStats]:
        """Every person's finished games in the guild per kind, most wins first."""
        ...
