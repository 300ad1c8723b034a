"""The post-game review: for each player, the decisions of a finished game that cost them most, the move `hard`
would have made instead, and how many points it was worth on average.

    review = review_game(game, budget=0.2, playouts=32)   # game: finished, its log complete
    for item in review.worst(player, 3):
        item.index, item.played, item.better, item.points   # log index, the two actions, points lost on average
    review_game(game, players={"p1"})                      # only these players' decisions (not the computers')
    Review.from_dict(json.loads(json.dumps(review.to_dict()))) == review   # kept with the game, as JSON

How: the game is replayed from its seed and log. At every decision with a choice, the `hard` computer player (`engine.ai.make_agent`: it sees only what the
player saw) (its budget in
work units, `budget` seconds of an idle machine) names its move; when it differs from the move played, both are
played out in the same `playouts` sampled futures (common random numbers: the hidden lines and buildings drawn
from what nobody had seen at that moment, then every player greedy, as in hard's playouts) and the difference of
the player's mean final score is what the decision cost (a negative or zero difference is no mistake and is not
kept). Nothing reads the clock or the hidden future: the same game, seed, budget and playouts give the same review on
any machine. At the default budget, with every player reviewed (benchmarks/bench_review.py, 2026-11-25, 2 shared
cores): 2-player Kingdomino about 5 s of CPU, 4-player 12 s, 2-player Queendomino 20 s, 4-player Royal Wedding
47 s: a job for the pictures' review lane (cogs/pictures.py), never for the bot's own process.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass

from ..actions import Action, action_from_dict
from ..config import GameConfig
from ..game import Game
from . import make_agent
from .model import Sim, apply_action

REVIEW_BUDGET = 0.2  # hard's effort per decision in the review, in seconds of an idle machine (work units)
REVIEW_PLAYOUTS = 32  # sampled futures in which the played move and hard's are compared
MIN_POINTS = 0.5  # a decision that cost less than this on average is not called a mistake


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One decision of a player: `index` in the game's log (the position is the game replayed up to it), the move
    `played`, the move `better` that hard would have made, and `points`: how many more points the player ended with
    on average with `better` (same sampled futures, everyone greedy afterwards)."""

    index: int
    player: str
    kind: str
    round: int
    played: Action
    better: Action
    points: float


@dataclass(frozen=True, slots=True)
class Review:
    items: tuple[ReviewItem, ...]  # every decision that cost at least MIN_POINTS, in the order of the game
    decisions: int  # decisions with a choice that were looked at

    def worst(self, player: str, count: int = 3) -> list[ReviewItem]:
        """The player's `count` costliest decisions, costliest first (ties: the earlier first)."""
        mine = [item for item in self.items if item.player == player]
        return sorted(mine, key=lambda item: (-item.points, item.index))[:count]

    def lost(self, player: str) -> float:
        """Points the player's reviewed mistakes cost in all, on average."""
        return sum(item.points for item in self.items if item.player == player)

    def to_dict(self) -> dict:
        """The review as JSON data (kept with the game: computed once)."""
        items = [
            {
                "index": i.index,
                "player": i.player,
                "kind": i.kind,
                "round": i.round,
                "played": i.played.to_dict(),
                "better": i.better.to_dict(),
                "points": i.points,
            }
            for i in self.items
        ]
        return {"items": items, "decisions": self.decisions}

    @classmethod
    def from_dict(cls, data: dict) -> Review:
        items = tuple(
            ReviewItem(
                int(d["index"]),
                str(d["player"]),
                str(d["kind"]),
                int(d["round"]),
                action_from_dict(d["played"]),
                action_from_dict(d["better"]),
                float(d["points"]),
            )
            for d in data["items"]
        )
        return cls(items, int(data["decisions"]))


def review_game(
    game: Game,
    budget: float = REVIEW_BUDGET,
    playouts: int = REVIEW_PLAYOUTS,
    seed: int = 0,
    players: Collection[str] | None = None,
) -> Review:
    """Review every decision with a choice of `game` (finished or not: its log so far), replayed from its seed;
    only the decisions of `players` when given (the people at the table: a computer's moves need no review)."""
    if budget <= 0 or playouts < 1:
        raise ValueError("The review needs a positive budget (seconds a decision) and at least one playout.")
    replay = Game.new(game.config, game.seed)
    items: list[ReviewItem] = []
    decisions = 0
    for index, (player, action) in enumerate(game.log):
        d = replay.decision()
        if d is None:
            raise ValueError(f"The log goes on after the end of the game (entry {index}).")
        if (players is None or player in players) and len(replay.legal_actions()) > 1:
            decisions += 1
            item = review_decision(replay, index, action, budget, playouts, seed)
            if item is not None:
                items.append(item)
        replay.apply(action, by=player)
    return Review(tuple(items), decisions)


def review_decision(
    game: Game, index: int, played: Action, budget: float, playouts: int, seed: int
) -> ReviewItem | None:
    """The review of the move `played` at `game`'s decision (log entry `index`): None when hard agrees or the
    difference is under MIN_POINTS."""
    d = game.decision()
    assert d is not None
    better = make_agent("hard", seed=seed, time_budget=budget).choose(game)
    if better == played:
        return None
    played_mean, better_mean = compare(game, (played, better), playouts, random.Random(f"review:{seed}:{index}"))
    points = better_mean - played_mean
    if points < MIN_POINTS:
        return None
    return ReviewItem(index, d.player, d.kind, game.round, played, better, round(points, 2))


def compare(game: Game, actions: tuple[Action, ...], playouts: int, rng: random.Random) -> list[float]:
    """The acting player's mean final score (with earlier deals' totals) after each of `actions`, played out in the
    same `playouts` sampled futures by the greedy policy. The playouts share a cache of the greedy placements (as
    hard's do, `Sim.best_placement`): the same kingdoms and dominoes come back in every future, and the placements
    found are the same (a fifth less work for a whole review at the tests' small budget)."""
    d = game.decision()
    assert d is not None
    base = Sim.from_game(game)
    base.cache = {}
    prior = sum(t[d.kingdom] for t in game.deal_totals)
    sums = [0.0] * len(actions)
    for _ in range(playouts):
        world = base.determinize(game, rng)
        for i, action in enumerate(actions):
            s = world.copy()
            apply_action(s, action)
            s.playout()
            sums[i] += s.totals()[d.kingdom] + prior
    return [total / playouts for total in sums]


def review_log(
    config: dict,
    seed: int,
    log: list,
    players: list[str],
    budget: float = REVIEW_BUDGET,
    playouts: int = REVIEW_PLAYOUTS,
) -> dict:
    """`review_game` of the game given as data (its config's dict, its seed, its log as (player, action dict)
    pairs), as `Review.to_dict()`: what a worker process is sent and gives back."""
    game = Game.replay(GameConfig.from_dict(config), seed, [(p, action_from_dict(a)) for p, a in log])
    return review_game(game, budget, playouts, players=set(players)).to_dict()
