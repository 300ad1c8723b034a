"""Where the store meets the engine: rebuilding a game from its stored state, and a finished game's results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from db.models import SeatResult
from engine import Game

StateDecoder = Callable[[dict[str, Any]], Any]
"""Turns a stored state into the object `GameRecord.game` holds; raises on a state it refuses."""


def decode_engine_state(state: dict[str, Any]) -> Game:
    """The engine's `Game` for a stored `Game.to_dict()`; raises whatever the engine raises on a bad state."""
    return Game.from_dict(state)


def results_from_game(game: Game) -> list[SeatResult]:
    """One `SeatResult` per player of a finished game, in kingdom order: their kingdom's final score (the sum of the
    deals with Dynasty), whether that kingdom won, and in a team game the kingdom's index as the team."""
    result = game.result()
    scores = game.scores()
    teams = game.config.teams is not None
    return [
        SeatResult(
            player_id=player_id,
            score=result.totals[index],
            won=index in result.winner_kingdoms,
            team=index if teams else None,
            breakdown=scores[index].to_dict(),
        )
        for index, kingdom in enumerate(game.kingdoms)
        for player_id in kingdom.players
    ]
