"""Computer players. They use only the engine's public API: `decision()`, `legal_actions()`, `apply()`, `clone()`.

    agent = make_agent("easy", seed=7)
    action = agent.choose(game)      # a legal action for game.decision()

Every agent is deterministic for a given seed and game state.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..actions import Action
from ..game import Game


class Agent(Protocol):
    name: str

    def choose(self, game: Game) -> Action: ...


class RandomAgent:
    """Uniform over the legal actions (for tests and fuzzing)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


AGENTS: dict[str, type] = {"random": RandomAgent}


def make_agent(name: str, seed: int = 0, **options: object) -> Agent:
    """A computer player by level name (`random`, `easy`, `medium`, `hard`)."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise ValueError(f"Unknown computer player {name!r}: choose one of {', '.join(AGENTS)}.") from None
    return cls(seed=seed, **options)
