"""Computer players. They use only the engine's public API: `decision()`, `legal_actions()`, `apply()`, `clone()`,
scores and the visible state, and `make_agent` shows them only `game.view()`, in which the hidden order of the
lines to come and of the building stack is replaced by a fixed one: they cannot cheat, whatever they read.

    agent = make_agent("hard", seed=7, time_budget=0.5)
    action = agent.choose(game)      # a legal action for game.decision()

Levels:
- `random`: uniform over the legal actions.
- `easy`: greedy on the immediate score, ties (and near-ties in Queendomino) broken at random (`noise=0.5`).
- `medium`: the `hard` search with a tiny fixed effort (`MEDIUM_BUDGET` in search.py: a few hundredths of a second
  of an idle machine, counted in work units) over fewer options; the greedy judgement it starts from (placements
  that keep the kingdom fillable, claims that weigh the next placement, the turn order and what rivals would get, a
  planned economy) is `greedy.GreedyMediumAgent`, which also ranks the options both searches simulate.
- `hard`: Monte Carlo search with greedy playouts (the rivals' claims in them a little noisy, so that they are not
  assumed to be exactly predictable; greedy placements remembered across a decision's playouts) and a fixed effort
  per decision: `time_budget` (default 1) is that effort in seconds of an idle machine (about 0.4-0.8 s of CPU here
  on average, at most about 1 s; 1.15 times that work in 2-player Kingdomino, whose turns cost less), counted in work
  units, never read from the clock; `iterations=N` fixes the number of playouts instead.
- `expert`: `hard` with three times its effort (`EXPERT_FACTOR`; `time_budget` 3 by default): about 2 s of CPU a
  move here on average.

Every agent is deterministic for a given seed and game state, whatever the machine's load (the clock only stops a
search at 30 times its budget, and not before 3 s: a safety stop normal use never reaches; see engine/ai/search.py), and safe
to run in a worker thread (each agent keeps its own state; share none between threads at once).
"""

from __future__ import annotations

import random
from typing import Protocol

from ..actions import Action
from ..game import Game

LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard", "expert")
"""Every computer level, weakest first: the one list the agents, the store (db.models.CPU_LEVELS), the lobby and the
catalogues (i18n.messages.LEVELS) read. `random` is for tests and fuzzing; people choose among `OFFERED_LEVELS`."""

OFFERED_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
"""The levels the lobby, `/game new` and the web board's menu offer (each has a name in the catalogues). `expert`
(hard with three times its work) is not offered: it has not shown itself stronger than hard (2 players head to head
52.7% of 55 games, 4-player ladder behind it; against the paper's MCE_FG_R 83 of 100 deals where hard won 74 of the
same, within the noise: engine/README.md). It stays a level, so a stored game with an expert seat plays on and the
benchmarks and the arena can seat it, and it is offered again the day a search earns the name."""


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


from .greedy import EasyAgent  # noqa: E402
from .search import EXPERT_FACTOR, ExpertAgent, HardAgent, MediumAgent  # noqa: E402

AGENTS: dict[str, type] = dict(zip(LEVELS, (RandomAgent, EasyAgent, MediumAgent, HardAgent, ExpertAgent), strict=True))


BUDGET_FACTORS: dict[str, float] = {"hard": 1.0, "expert": EXPERT_FACTOR}
"""The levels whose effort is a `time_budget`, as multiples of hard's: a caller that sets hard's budget (the bot's
`hard_budget`) gives each of these its share."""


class Blindfolded:
    """An agent that is shown only `game.view()`: what every player sees, the hidden order of the lines to come and
    of the building stack replaced by a fixed arrangement, so it cannot cheat whatever it reads. Its other
    attributes are the agent's (`last_playouts`, `stopped_by_clock`, ...)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name

    def choose(self, game: Game) -> Action:
        return self.agent.choose(game.view())

    def __getattr__(self, name: str) -> object:
        return getattr(self.agent, name)


def make_agent(name: str, seed: int = 0, **options: object) -> Agent:
    """A computer player by level name (`random`, `easy`, `medium`, `hard`); options go to its constructor
    (`hard`, `medium`: `time_budget` seconds per decision, `iterations`; `easy`: `noise`). It sees only `game.view()`
    (`random` only the legal actions)."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise ValueError(f"Unknown computer player {name!r}: choose one of {', '.join(AGENTS)}.") from None
    agent = cls(seed=seed, **options)
    # `random` reads nothing but legal_actions(), which the view keeps: it is spared the copy (a random game costs
    # twice as much with it).
    return agent if cls is RandomAgent else Blindfolded(agent)
