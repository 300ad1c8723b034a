"""A hint ("Show me a good move"): the move the `hard` computer player would make at a game's decision, and what it
gains on average, worked out as the post-game review judges a decision (engine/ai/review.py).

    hint = suggest(game)                      # game: at a decision of the player who asks
    hint.action, hint.mean, hint.others       # hard's move; the player's mean final score with it, and with another
    hint.gain                                 # mean - others: what it gains on average over the other moves compared
    Hint.from_dict(hint.to_dict()) == hint    # what a worker process sends back, as JSON

What it may know: only what the player sees. Everything works on `game.view()`, in which the hidden order of the
lines to come and of the building stack is replaced by a fixed arrangement (two games that differ only in what is
hidden have equal views, so they get the same hint), and hard samples the unseen future from what nobody has seen,
as at the table. How: hard (`make_agent`, its own budget) names its move; that move and up to `rivals` other legal
moves (drawn at random, the same for the same position) are played out in the same `playouts` sampled futures
(common random numbers, every player greedy afterwards: `review.compare`); the player's mean final score after
hard's move, and the mean of the other moves' means, say what the move gains on average. Nothing reads the clock or
a global random: the same position, budget and playouts give the same hint on any machine. At the default effort it
is about a second of CPU (hard's budget) and as much again for the playouts: a job for the pictures' review lane
(cogs/pictures.py), never for the bot's own process.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from ..actions import Action, action_from_dict
from ..game import Game
from . import make_agent
from .review import compare

HINT_BUDGET = 1.0  # hard's effort, in seconds of an idle machine (as it plays at the table: `hard_budget`)
HINT_PLAYOUTS = 24  # sampled futures in which hard's move and the others are compared
HINT_RIVALS = 6  # other legal moves compared with hard's (all of them when there are fewer)


@dataclass(frozen=True, slots=True)
class Hint:
    """hard's move at the decision (`kind`, `player`), the player's mean final score with it (`mean`), the mean of
    those of the other moves compared (`others`; equal to `mean` when there was no other), and how many were."""

    player: str
    kind: str
    action: Action
    mean: float
    others: float
    compared: int

    @property
    def gain(self) -> float:
        return round(self.mean - self.others, 2)

    def to_dict(self) -> dict:
        return {
            "player": self.player,
            "kind": self.kind,
            "action": self.action.to_dict(),
            "mean": self.mean,
            "others": self.others,
            "compared": self.compared,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Hint:
        return cls(
            str(data["player"]),
            str(data["kind"]),
            action_from_dict(data["action"]),
            float(data["mean"]),
            float(data["others"]),
            int(data["compared"]),
        )


def suggest(game: Game, budget: float = HINT_BUDGET, playouts: int = HINT_PLAYOUTS, rivals: int = HINT_RIVALS) -> Hint:
    """The hint at `game`'s decision, from what its player can see (`game.view()`). Raises ValueError when the game
    is over or the effort is not positive."""
    if budget <= 0 or playouts < 1 or rivals < 0:
        raise ValueError("A hint needs a positive budget, at least one playout and no negative number of rivals.")
    view = game.view()
    d = view.decision()
    if d is None:
        raise ValueError("The game is over: there is no move to suggest.")
    seed = len(view.log)  # the view's seed is 0: the position alone chooses the randomness
    best = make_agent("hard", seed=seed, time_budget=budget).choose(view)
    others = [a for a in view.legal_actions() if a != best]
    rng = random.Random(f"hint:{seed}")
    sample = rng.sample(others, min(rivals, len(others)))
    means = compare(view, (best, *sample), playouts, rng)
    mean = round(means[0], 2)
    rest = round(sum(means[1:]) / len(sample), 2) if sample else mean
    return Hint(d.player, d.kind, best, mean, rest, len(sample))


def hint_data(state: dict, budget: float, playouts: int, rivals: int) -> bytes:
    """`suggest` of a game given as its state (`Game.to_dict()` of what the player sees: `game.view()`), as JSON
    bytes: what a worker process is sent and gives back."""
    return json.dumps(suggest(Game.from_dict(state), budget, playouts, rivals).to_dict(), sort_keys=True).encode()


__all__ = ["HINT_BUDGET", "HINT_PLAYOUTS", "HINT_RIVALS", "Hint", "hint_data", "suggest"]
