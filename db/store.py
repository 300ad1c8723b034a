"""The interface of a game store, whatever database is behind it.

Everything the bot keeps about games goes through these methods; no SQL lives outside the backend that implements
them: `db.sqlite.SqliteGameStore` and `db.postgres.PostgresGameStore`, both built on the shared SQL of `db.sql`.

Concurrency is optimistic: every change to a game's state, seats or options names the `version` it was computed from
and raises `StaleVersion`, writing nothing, when another change landed first. Each call is one transaction: it is
written whole or not at all.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from enum import Enum
from typing import Any, Final, Literal, Protocol, runtime_checkable

from db.changes import OnVersion, VersionFeed, Watched
from db.models import (
    ActionRecord,
    FinishedGame,
    GameRecord,
    GameStatus,
    GameSummary,
    GuildSettings,
    Lease,
    PendingNotification,
    PersonData,
    Seat,
    SeatResult,
    TurnTimer,
    UserSettings,
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

    async def get_active_summary(self, channel_id: int) -> GameSummary | None:
        """The channel's game in its lobby or in play, or None, without decoding its config, state or seats: works
        for a game `get_active_game` reports as corrupt, so the bot can say so and cancel it."""
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

    async def get_actions(self, game_id: int, *, after_seq: int = 0, include_undone: bool = True) -> list[ActionRecord]:
        """The game's action log from `after_seq + 1` on, in order; undone actions carry `undone=True`
        (`include_undone=False` leaves them out)."""
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

    async def undo_last_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        seq: int,
        state: Mapping[str, Any],
        timer: TurnTimer | None = None,
    ) -> int:
        """Take back action `seq` (the last action not undone; else ValueError): mark it undone and store `state`,
        the state before it, in one transaction with the version check; returns the new version."""
        ...

    async def cancel_game(self, game_id: int, expected_version: int | None = None, *, reason: str = "cancelled") -> int:
        """Cancel a game in its lobby or in play (`expected_version=None`: whatever its version); frees the channel.
        `reason` (one of `CANCEL_REASONS`: "cancelled", "abandoned", "expired", "unreadable") becomes its
        `end_reason`. Works on a game whose config, state or seats cannot be decoded."""
        ...

    # Bookkeeping that is not part of the game (the version does not change)

    async def set_table_message(
        self, game_id: int, channel_id: int | None, message_id: int | None, *, shown_version: int | None = None
    ) -> None:
        """Remember which message shows the table (None, None: no message) and which version of the game it shows
        (`shown_version`, None: unknown, so the table counts as stale)."""
        ...

    async def set_turn_timer(self, game_id: int, timer: TurnTimer, *, expected_version: int | None = None) -> None:
        """Reschedule the reminder and deadline of a game in play; with `expected_version`, only if it has not moved."""
        ...

    # Several processes: what the others changed

    async def game_versions(self, game_ids: Collection[int]) -> dict[int, int]:
        """The current version of each of these games that exists, in one query."""
        ...

    def version_feed(self, watched: Watched, on_version: OnVersion) -> VersionFeed:
        """A feed (`db.changes`) that, once woken, tells `on_version(game_id, version)` of the changes any process
        commits to the games `watched()` names: NOTIFY on PostgreSQL, a poll of `game_versions` on SQLite."""
        ...

    # Several processes: leases and once-only work

    async def stale_tables(self, *, limit: int = 100) -> list[GameSummary]:
        """Games in play whose table message shows an older version than the game's (or none known), oldest change
        first: tables to post again, for instance after a restart."""
        ...

    async def claim_table_post(
        self, game_id: int, version: int, owner: str, lease_seconds: float, now: datetime
    ) -> bool:
        """Claim the posting of the table of the game at `version` for `owner` (a process) for `lease_seconds`.
        True for exactly one claimant per (game, version) while its lease lives; once it ran out (its process died),
        the next claim wins again."""
        ...

    async def release_claims_of(self, owner: str) -> int:
        """Drop every claim (table posts, timers, notifications not marked sent) held by `owner`: a process that restarts under the same stable
        name takes back at once what it held when it died, instead of waiting for the leases to run out. Returns
        how many claims were dropped."""
        ...

    async def release_table_post(self, game_id: int, version: int, owner: str) -> bool:
        """Give up `owner`'s claim on posting the table of the game at `version` (the post failed), so that the
        next attempt, by any process, may claim it at once. False if `owner` did not hold it."""
        ...

    async def claim_due(self, now: datetime, owner: str, lease_seconds: float, limit: int = 50) -> list[GameSummary]:
        """Atomically claim, for `owner` and `lease_seconds`, up to `limit` games in play whose reminder or deadline
        is due at `now` and which no live claim holds; most overdue first. Two claimers never get the same game; a
        claim whose lease ran out can be taken again. Release it with `release_claim` once handled."""
        ...

    async def release_claim(self, game_id: int, owner: str) -> bool:
        """Drop `owner`'s timer claim on the game; False if `owner` did not hold it."""
        ...

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
        """Claim the notification (game, `turn_key`, `kind`) for `owner`, across processes: True the first time,
        then False while the claim is held or once it is marked sent (`notification_sent`). A claim never marked sent
        is a lease: once `lease_seconds` pass (or `release_claims_of(owner)`), it may be claimed again, once (two
        claims in all), so a process that died while sending does not lose the notification, nor repeat it for
        ever. `sent`: claimed and marked sent at once (nothing left to send: a record that it was told)."""
        ...

    async def notification_sent(
        self, game_id: int, turn_key: int, kind: str, *, message: tuple[int, int] | None = None
    ) -> bool:
        """Mark a claimed notification handled (sent, or given up for good), with the direct message that carries its
        button (channel id, message id), if any; False if it was never claimed."""
        ...

    async def notification_messages(self, game_id: int, *, other_than: int | None = None) -> list[tuple[int, int]]:
        """The direct messages (channel id, message id) of the game's notifications whose button is still live, but
        those of the turn `other_than`."""
        ...

    async def forget_notification_messages(self, game_id: int, message_ids: Collection[int]) -> int:
        """Their buttons are gone: these messages are no longer listed by `notification_messages`. Returns how many."""
        ...

    async def unsent_notifications(self, limit: int = 50) -> list[PendingNotification]:
        """Notifications claimed, never marked sent, whose lease ran out and that may still be claimed again: what
        the repair pass sends (oldest first)."""
        ...

    # Members

    async def count_lobbies_hosted(self, guild_id: int, user_id: int) -> int:
        """How many lobbies the person hosts in the guild."""
        ...

    async def count_active_games_of(self, guild_id: int, user_id: int) -> int:
        """How many games in the guild the person is seated in, in a lobby or in play."""
        ...

    async def active_games_of(self, user_id: int, guild_id: int | None = None) -> list[GameSummary]:
        """The games (in one guild; None: everywhere) in a lobby or in play where the person is seated, most recently
        changed first."""
        ...

    async def expired_lobbies(self, updated_before: datetime) -> list[GameSummary]:
        """Lobbies unchanged since before `updated_before`, oldest first."""
        ...

    # Settings

    async def get_user_settings(self, user_id: int) -> UserSettings:
        """The person's settings; the defaults when they never set any."""
        ...

    async def set_user_settings(self, settings: UserSettings) -> None:
        """Store the person's settings (all of them, replacing what was there)."""
        ...

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings; the defaults when none were set."""
        ...

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        """Store the guild's settings (all of them, replacing what was there)."""
        ...

    # Statistics

    async def user_stats(self, user_id: int, *, guild_id: int | None = None) -> list[UserStats]:
        """The person's finished games per kind, everywhere or in one guild."""
        ...

    async def guild_stats(self, guild_id: int, *, kind: str | None = None) -> list[UserStats]:
        """Every person's finished games in the guild per kind, most wins first."""
        ...

    async def finished_results(self, guild_id: int, kind: str | None = None) -> list[FinishedGame]:
        """The guild's finished games (of one kind; None: all) in the order they ended, with their engine config and
        every seat's result: what ratings are computed from. Raises `CorruptGame` for a config that is not JSON."""
        ...

    # People: what the store keeps about a person, and forgetting them

    async def person_data(self, user_id: int) -> PersonData:
        """Everything the store keeps about the person: their settings, each game they sit at (their seat and
        result), their moves, the games they host and their notifications; nothing about anybody else."""
        ...

    async def games_of_person(self, user_id: int) -> list[GameSummary]:
        """Every game (any status) where the person sits or hosts, oldest first."""
        ...

    async def forget_player(
        self,
        game_id: int,
        expected_version: int,
        *,
        user_id: int,
        replacement: Seat | None,
        host_user_id: int | Keep = KEEP,
        config: Mapping[str, Any] | Keep = KEEP,
        state: Mapping[str, Any] | Keep = KEEP,
        timer: TurnTimer | None = None,
        cancel: bool = False,
    ) -> int:
        """The person leaves the game, whatever its status: their seat becomes `replacement` (a computer player in a
        game in play, a former player's seat in a game that ended; None: the seat goes, in a lobby), and their moves
        and result follow that seat; `host_user_id`, `config`, `state` and `timer` replace the game's when given
        (the engine's config and state with the person renamed, `engine.Game.rename_player`); `cancel` ends a lobby
        as cancelled. One transaction with the version check; returns the new version. A game that ended keeps its
        table current (no repair pass posts it again). Raises `SeatConflict` for a seat with moves or results that
        would just go."""
        ...

    async def erase_person(self, user_id: int) -> int:
        """Delete the person's settings and notification records; returns how many rows went."""
        ...

    # Leases: which bot processes use the database

    async def take_lease(self, name: str, owner: str, lease_seconds: float) -> bool:
        """Take (or renew, for the same `owner`) the lease `name` for `lease_seconds`: True when `owner` holds it now,
        False while another owner's lease lives."""
        ...

    async def drop_lease(self, name: str, owner: str) -> bool:
        """Give up `owner`'s lease `name`; False if `owner` did not hold it."""
        ...

    async def live_leases(self, prefix: str = "") -> list[Lease]:
        """The leases alive now whose name starts with `prefix` ("bot:": the bot processes using the database)."""
        ...

    # Servers the bot was removed from

    async def guild_left(self, guild_id: int, at: datetime) -> None:
        """The bot was removed from the guild at `at` (a second departure before a return keeps the first time)."""
        ...

    async def guild_returned(self, guild_id: int) -> bool:
        """The bot is in the guild again: it is no longer counted as left. False if it was not."""
        ...

    async def departed_guilds(self, left_before: datetime) -> list[int]:
        """The guilds the bot left before `left_before` and did not return to, longest gone first."""
        ...

    async def delete_game(self, game_id: int) -> bool:
        """Delete the game with its seats, log, results, claims and notifications; False if there was none."""
        ...

    async def forget_guild(self, guild_id: int) -> int:
        """Delete a guild's settings and its departure once its games are deleted (else ValueError); returns how
        many rows went."""
        ...
