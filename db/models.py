"""The rows the game store hands out and takes in: plain, typed, immutable values.

Times are timezone-aware `datetime`s in UTC, kept to the millisecond. Player ids are the engine's: the Discord user
id as a string for a person, ``"cpu:N"`` for a computer seat.
"""

from __future__ import annotations

import math
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.ai import LEVELS

if TYPE_CHECKING:
    from engine import Game


class GameStatus(StrEnum):
    """Where a game is in its life. A channel has at most one game that is `LOBBY` or `PLAYING`."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


ACTIVE_STATUSES: frozenset[GameStatus] = frozenset({GameStatus.LOBBY, GameStatus.PLAYING})

CPU_LEVELS: Final = frozenset(LEVELS)
"""The levels a computer seat may have: engine.ai.LEVELS, the levels an agent plays."""

CANCEL_REASONS: Final = ("cancelled", "abandoned", "expired", "unreadable")
"""Why a game was cancelled: by a person, its channel was deleted, its lobby expired, it could not be read."""

END_REASONS: Final = ("finished", *CANCEL_REASONS)
"""`GameSummary.end_reason` of a game that ended: "finished", or one of `CANCEL_REASONS`."""

NOTIFY_CHOICES: Final = ("channel", "dm", "both")

COLOUR_PATTERN: Final = re.compile(r"#[0-9a-fA-F]{6}")
_LANGUAGE_PATTERN = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")


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
    table_version: int | None
    """The version of the state the table message shows (None: unknown, or no message)."""
    end_reason: str | None
    """Why the game ended (one of `END_REASONS`), None while it is active."""

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

    `config` is the lobby options while in the lobby and the engine's `GameConfig.to_dict()` once started; `game` is the
    engine object rebuilt from the stored state, ready to play on (None in the lobby). `state` is that stored state
    (the engine's `Game.to_dict()`) only when the store has no engine to build `game` with (its own tests); otherwise
    it is None, and `game.to_dict()` gives it. Save with `version` as the expected version.
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
    undone: bool = False


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


@dataclass(frozen=True, slots=True)
class FinishedSeat:
    """One seat of a finished game with its result (score None when the game ended without results)."""

    player_id: str
    user_id: int | None
    cpu_level: str | None
    display_name: str
    team: int | None
    score: int | None
    won: bool


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as ratings read it: its engine config (teams and all) and every seat's result."""

    game_id: int
    kind: str
    ended_at: datetime
    config: dict[str, Any]
    seats: tuple[FinishedSeat, ...]


def _check_language(language: str | None) -> None:
    if language is not None and not _LANGUAGE_PATTERN.fullmatch(language):
        raise ValueError(f"language must be a language tag like 'en' or 'pt-BR', or None, not {language!r}")


def _check_count(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number of at least 0, not {value!r}")


@dataclass(frozen=True, slots=True)
class UserSettings:
    """How a person wants to be told it is their turn. `quiet_start`/`quiet_end`: minutes after local midnight
    (0-1439) between which they are not pinged (both or neither; the span may wrap past midnight), in `timezone`
    (an IANA name such as "Europe/Paris"; None: UTC). Constructing bad values raises ValueError."""

    user_id: int
    notify: str = "channel"
    timezone: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None
    language: str | None = None

    def __post_init__(self) -> None:
        if self.notify not in NOTIFY_CHOICES:
            raise ValueError(f"notify must be one of {', '.join(NOTIFY_CHOICES)}, not {self.notify!r}")
        if self.timezone is not None:
            try:
                ZoneInfo(self.timezone)
            except (ZoneInfoNotFoundError, ValueError) as error:
                raise ValueError(
                    f"timezone must be an IANA time zone like 'Europe/Paris', not {self.timezone!r}"
                ) from (error)
        if (self.quiet_start is None) != (self.quiet_end is None):
            raise ValueError("quiet_start and quiet_end are set together or not at all")
        for name in ("quiet_start", "quiet_end"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1440):
                raise ValueError(f"{name} must be minutes after midnight, 0 to 1439, not {value!r}")
        _check_language(self.language)


@dataclass(frozen=True, slots=True)
class PendingNotification:
    """A notification claimed but never marked sent (its process died while sending): the repair pass sends it again,
    once."""

    game_id: int
    turn_key: int
    kind: str
    user_id: int


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's limits: lobbies one member may host at once, games one member may sit in at once (lobby or play),
    and how long a lobby may sit unchanged before it expires. Constructing bad values raises ValueError."""

    guild_id: int
    max_lobbies_per_member: int = 2
    max_games_per_member: int = 10
    lobby_expiry_hours: float = 24.0
    language: str | None = None

    def __post_init__(self) -> None:
        _check_count("max_lobbies_per_member", self.max_lobbies_per_member)
        _check_count("max_games_per_member", self.max_games_per_member)
        hours = self.lobby_expiry_hours
        if isinstance(hours, bool) or not isinstance(hours, int | float) or not math.isfinite(hours) or hours <= 0:
            raise ValueError(f"lobby_expiry_hours must be a number of hours above 0, not {hours!r}")
        _check_language(self.language)


FORMER_PLAYER_LIMIT: Final = -1
"""A former player (someone who asked to be forgotten) keeps their seat in the games that ended under a user id of
their own below zero (Discord's ids are above zero): the same one in all their games, so the ratings of everyone they
played come out as before, and linked to nobody."""


def new_former_player_id() -> int:
    """A new former player's user id: random, below zero, linked to nobody."""
    return -1 - secrets.randbits(52)


def is_former_player(user_id: int | str | None) -> bool:
    """Whether a user id (or a rating key, its text) is a former player's: theirs is below zero."""
    try:
        return user_id is not None and int(user_id) <= FORMER_PLAYER_LIMIT
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class Lease:
    """A named lease in the store: held by `owner` until `until` (taken at `taken_at`). "bot:<name>" is a bot process
    using the database; "backup" the process taking the scheduled backup of the period."""

    name: str
    owner: str
    until: datetime
    taken_at: datetime


@dataclass(frozen=True, slots=True)
class PersonSeat:
    """One game a person sits at (or sat at), as `GameStore.person_data` gives it: where and what the game is, their
    seat, and their result once it ended."""

    game_id: int
    guild_id: int | None
    channel_id: int
    kind: str
    status: GameStatus
    created_at: datetime
    ended_at: datetime | None
    seat: Seat
    result: SeatResult | None


@dataclass(frozen=True, slots=True)
class NotificationRecord:
    """A notification sent (or being sent) to a person: which game and turn, what kind, when, and the direct message
    that carries its button while it is live (channel id, message id)."""

    game_id: int
    turn_key: int
    kind: str
    claimed_at: datetime
    sent_at: datetime | None
    message: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class PersonData:
    """Everything the store keeps about one person (`GameStore.person_data`): their settings (None: never set), the
    games they sit at with their seat and result, their moves, the games they host, and their notifications."""

    user_id: int
    settings: UserSettings | None
    seats: tuple[PersonSeat, ...]
    actions: tuple[ActionRecord, ...]
    hosted: tuple[int, ...]
    notifications: tuple[NotificationRecord, ...]

    @property
    def is_empty(self) -> bool:
        return not (self.settings or self.seats or self.actions or self.hosted or self.notifications)
