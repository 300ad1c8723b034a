"""What can go wrong when keeping games, each as its own exception with the facts a caller needs."""

from __future__ import annotations

from collections.abc import Iterable


class StoreError(Exception):
    """Base class of every error the game store raises on purpose."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot than this one."""

    def __init__(self, location: str, database_version: int, code_version: int) -> None:
        self.location = location
        self.database_version = database_version
        self.code_version = code_version
        super().__init__(
            f"the database {location} is at schema version {database_version}, but this version of the bot only "
            f"knows schema versions up to {code_version}: run a newer bot, or restore a backup made by this one"
        )


class GameNotFound(StoreError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"there is no game #{game_id}")


class ActiveGameExists(StoreError):
    """The channel already has a game in its lobby or in play; a channel holds one active game at a time."""

    def __init__(self, channel_id: int, existing_game_id: int, existing_status: str) -> None:
        self.channel_id = channel_id
        self.existing_game_id = existing_game_id
        self.existing_status = existing_status
        super().__init__(
            f"channel {channel_id} already has an active game: #{existing_game_id} ({existing_status}); "
            "finish or cancel it first"
        )


class StaleVersion(StoreError):
    """The game changed after the caller loaded it; nothing was written. Reload the game and try again."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"game #{game_id} changed since it was loaded (expected version {expected}, found {actual}); "
            "nothing was saved"
        )


class WrongStatus(StoreError):
    """The operation does not apply to a game in its current status (joining a game in play, moving in a lobby...)."""

    def __init__(self, game_id: int, status: str, allowed: Iterable[str]) -> None:
        self.game_id = game_id
        self.status = status
        self.allowed = tuple(allowed)
        super().__init__(f"game #{game_id} is {status}; this needs a game that is {' or '.join(self.allowed)}")


class SeatConflict(StoreError):
    """A seat change clashes with the table: the player is already seated or absent, or a colour is taken twice."""

    def __init__(self, game_id: int, reason: str) -> None:
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"game #{game_id}: {reason}")


class CorruptGame(StoreError):
    """One stored game cannot be read (bad JSON, a bad value in a column, or the engine refuses its state). Other
    games are unaffected, and the game can still be cancelled. `field` names what is damaged: "state", "config",
    "status", "kind", "end_reason", "seats.colour", "seats.cpu_level", "seats.player_id", "actions.action"..."""

    def __init__(self, game_id: int, reason: str, field: str | None = None) -> None:
        self.game_id = game_id
        self.reason = reason
        self.field = field
        super().__init__(f"game #{game_id} cannot be loaded: {reason}")


class StoreBusy(StoreError):
    """Another process held the database's write lock for longer than the store waits; nothing was written."""


class StoreUnavailable(StoreError):
    """The database cannot be reached or opened (wrong address, server down, wrong credentials). The message names the
    host and the database, never the password."""
