"""The rules of Kingdomino, Queendomino and Royal Wedding: pure, synchronous, deterministic."""

from .actions import Action, BribeDragon, Build, Claim, Place, Skip, Tax, action_from_dict, parse_action
from .components import Domino, Square, building, building_types, domino
from .config import GAMES, VARIANTS, GameConfig, Setup
from .errors import (
    ConfigError,
    EngineError,
    GameOver,
    IllegalAction,
    IllegalPlacement,
    NotEnoughCoins,
    NotYourTurn,
    WrongPhase,
)
from .game import BUILD, CLAIM, DRAGON, FIRST_CLAIM, OVER, PLACE, TAX, Decision, Event, Game, King, Result
from .kingdom import DIRECTIONS, Kingdom, Placement, Territory, cell_name, parse_cell
from .scoring import ScoreBreakdown, score_kingdom

__all__ = [
    "BUILD",
    "CLAIM",
    "DIRECTIONS",
    "DRAGON",
    "FIRST_CLAIM",
    "GAMES",
    "OVER",
    "PLACE",
    "TAX",
    "VARIANTS",
    "Action",
    "BribeDragon",
    "Build",
    "Claim",
    "ConfigError",
    "Decision",
    "Domino",
    "EngineError",
    "Event",
    "Game",
    "GameConfig",
    "GameOver",
    "IllegalAction",
    "IllegalPlacement",
    "King",
    "Kingdom",
    "NotEnoughCoins",
    "NotYourTurn",
    "Place",
    "Placement",
    "Result",
    "ScoreBreakdown",
    "Setup",
    "Skip",
    "Square",
    "Tax",
    "Territory",
    "WrongPhase",
    "action_from_dict",
    "building",
    "building_types",
    "cell_name",
    "domino",
    "parse_action",
    "parse_cell",
    "score_kingdom",
]
