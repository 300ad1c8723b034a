"""The engine's exceptions. Each message says what is wrong and, where it can, what would be right."""


class EngineError(Exception):
    """Base class of the engine's errors."""


class ConfigError(EngineError, ValueError):
    """An impossible game configuration."""


class IllegalAction(EngineError):
    """An action that the rules do not allow now. The game state is unchanged."""


class NotYourTurn(IllegalAction):
    """The action came from a player who is not the one to act."""


class WrongPhase(IllegalAction):
    """The action is of the wrong kind for the decision at hand (e.g. a claim while placing)."""


class IllegalPlacement(IllegalAction):
    """The domino cannot go there."""


class NotEnoughCoins(IllegalAction):
    """The player cannot pay."""


class GameOver(IllegalAction):
    """The game has ended: no more actions."""
