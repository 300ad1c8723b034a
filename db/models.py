"""The rows the game store hands out and takes in: plain, typed, immutable values.

Times are timezone-aware `datetime`s in UTC, kept to the millisecond. Player ids are the engine's: the Discord user
id as a string for a person, ``"cpu:N"`` for a computer seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine import Game


class GameStatus(StrEnum):
    """Where a game is in its life. A channel has at most one game that is `LOBBY` or `PLAYING`."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


ACTIVE_STATUSES: frozenset[GameStatus] = frozenset({GameStatus.LOBBY, GameStatus.PLAYING})


@dataclass(frozen=True, slots=True)
class Seat:
    """One place at the table: a person (`user_id` set) or a computer player (`cpu_level` set), never both.

    `seat_order` is the seat's position at the table, counted from 0. When seats are written the store takes the
    order from their position in the sequence it is given and ignores this field; seats it returns carry it.
    """

    player_id: str
    display_name: str
    user_id: int | None = None
    colour: str | None = None
    cpu_level: str | None = None
    seat_order: int = 0

    @classmethod
    def human(cls, user_id: int, display_name: str, colour: str | None = None) -> Seat:
        """A seat for a Discord user; the engine knows them as ``str(user_id)``."""
        return cls(player_id=str(user_id), display_name=display_name, user_id=user_id, colour=colour)

    @classmethod
    def computer(cls, number: int, level: str, display_name: str, colour: str | None = None) -> Seat:
        """A seat for computer player `number` (1, 2...) at `level`; the engine knows it as ``"cpu:N"``."""
        return cls(player_id=f"cpu:{number}", display_name=display_name, colour=colour, cpu_level=level)

    @property
    def is_computer(self) -> bool:
        return self.cpu_level is not None


@dataclass(frozen=True, slots=True)
class TurnTimer:
    """When the player to move is next reminded, and when their turn runs out. `None` means not scheduled."""

    next_reminder_at: datetime | None = None
    deadline_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game without its configuration and state: what listings return. Reading it never decodes JSON, so a
    corrupt game still lists; loading it in full (`GameStore.get_game`) is what reports the damage."""

    id: int
    guild_id: int | None
    channel_id: int
    host_user_id: int
    kind: str
    status: GameStatus
    version: int
    seed: int
    seats: tuple[Seat, ...]
    table_channel_id: int | None
    table_message_id: int | None
    reminder_hours: float | None
    deadline_hours: float | None
    next_reminder_at: datetime | None
    deadline_at: datetime | None
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    ended_at: datetime | None

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    @property
    def timer(self) -> TurnTimer:
        return TurnTimer(self.next_reminder_at, self.deadline_at)

    def seat_of(self, player_id: str) -> Seat | None:
        """The seat of the engine player `player_id`, or None."""
        return next((seat for seat in self.seats if seat.player_id == player_id), None)


@dataclass(frozen=True, slots=True)
class GameRecord(GameSummary):
    """A whole game as stored.

    `config` is the lobby options while in the lobby and the engine's `GameConfig.to_dict()` once started; `state` is
    the engine's `Game.to_dict()` (None in the lobby) and `game` the engine object rebuilt from it, ready to play on.
    Save with `version` as the expected version.
    """

    config: dict[str, Any]
    state: dict[str, Any] | None
    game: Game | None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One accepted action in a game's log; `seq` counts from 1 without gaps. `user_id` is None for a computer."""

    game_id: int
    seq: int
    player_id: str | None
    user_id: int | None
    action: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat ended a finished game. Team-mates share their kingdom's score; `team` is None without teams.
    `breakdown` is the engine's score breakdown (`ScoreBreakdown.to_dict()`), kept for later statistics."""

    player_id: str
    score: int
    won: bool
    team: int | None = None
    breakdown: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class UserStats:
    """A person's record in finished games of one kind, everywhere or in one guild (`guild_id`)."""

    user_id: int
    kind: str
    guild_id: int | None
    games_played: int
    wins: int
    average_score: float
    best_score: int
