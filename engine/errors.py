"""The engine's exceptions. Each message says what is wrong and, where it can, what would be right.

Every error also carries a machine-readable `code` (a short string, stable across versions) and `params` (a dict
of plain JSON values: numbers, strings, lists of them) from which a translation layer can word the same sentence
in another language; `str(error)` stays the English sentence. The codes are listed in engine/README.md.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of the engine's errors: `str(error)` is an English sentence, `code` and `params` its data."""

    code = "engine_error"

    def __init__(self, message: str = "", code: str | None = None, params: dict | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict = dict(params or {})

    @property
    def text(self) -> str:
        return str(self)


class ConfigError(EngineError, ValueError):
    """An impossible game configuration."""

    code = "config"


class IllegalAction(EngineError):
    """An action that the rules do not allow now. The game state is unchanged."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The action came from a player who is not the one to act."""

    code = "not_your_turn"


class WrongPhase(IllegalAction):
    """The action is of the wrong kind for the decision at hand (e.g. a claim while placing)."""

    code = "wrong_phase"


class IllegalPlacement(IllegalAction):
    """The domino cannot go there."""

    code = "illegal_placement"


class NotEnoughCoins(IllegalAction):
    """The player cannot pay."""

    code = "not_enough_coins"


class GameOver(IllegalAction):
    """The game has ended: no more actions."""

    code = "game_over"
