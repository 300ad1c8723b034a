"""How far from the best move, as its own playouts judge it, does `hard` choose, and does more effort choose better?

    .venv/bin/python benchmarks/search_regret.py [--players 2] [--games 2] [--passes 600] [--budgets 0.31,0.62,1.86]

The positions: every decision with a choice (first claims, placements, claims) of Kingdomino games with Middle
Kingdom and Harmony (the rules of the paper's agents, ../shared/ai-arena), hard at 0.3 in every seat (seeds 7000-).
For each, a reference: every candidate of hard's search (its (placement, claim) pairs at a placement) played in
`--passes` shared sampled futures (common random numbers, hard's own playouts), far more than a move's search. Then
hard at each budget (seconds of an idle machine, as `--hard-budget` in the arena) chooses, and its regret is the
reference value of the best candidate minus that of its choice (a placement: its best pair), in points of margin
(score minus the best rival's, plus the win bonus). It prints the mean regret by round and kind of decision, with
the CPU a decision took. A small regret means the search already finds what its playouts can tell; then more effort
buys little, and strength must come from the playouts' model of the game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, GameConfig
from engine.ai import make_agent
from engine.ai.greedy import open_decision
from engine.ai.model import Sim
from engine.ai.search import HardAgent, _Search


def candidates(agent: HardAgent, game: Game) -> tuple[int, Sim, list[tuple]]:
    """The searching kingdom, the model of the position and the candidates, as `HardAgent.choose` sets them up."""
    d, actions = open_decision(game)
    base = agent.playout_model(game, d.kingdom)
    return d.kingdom, base, agent.candidates(game, base, d.kind, d.kingdom, actions)


def reference(game: Game, passes: int) -> tuple[list[str], list[float]]:
    """Each candidate's action (as text) and mean value over `passes` shared sampled futures."""
    agent = HardAgent(seed=99)
    me, base, cands = candidates(agent, game)
    rng = random.Random(f"reference:{game.deal}:{len(game.log)}")
    search = _Search(game, base, cands, rng, me, float("inf"), agent.win_bonus)
    alive = list(range(len(cands)))
    for _ in range(passes):
        search.run_pass(alive)
        if search.exact:
            break
    return [repr(c[0]) for c in cands], [search.sums[i] / search.counts[i] for i in alive]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--passes", type=int, default=600)
    parser.add_argument("--budgets", default="0.31,0.62,1.86")
    args = parser.parse_args()
    budgets = [float(b) for b in args.budgets.split(",")]
    rows: dict[tuple[int, str], list[tuple[list[float], list[float]]]] = defaultdict(list)
    players = tuple(f"p{i}" for i in range(args.players))
    for g in range(args.games):
        game = Game.new(GameConfig("kingdomino", players, frozenset({"middle-kingdom", "harmony"})), seed=7000 + g)
        agents = {p: make_agent("hard", seed=100 * g + i, time_budget=0.3) for i, p in enumerate(players)}
        while not game.is_over:
            d = game.decision()
            assert d is not None
            if len(game.legal_actions()) > 1 and d.kind in ("first_claim", "place", "claim"):
                keys, ref = reference(game, args.passes)
                if len(keys) > 1:
                    regrets, cpus = [], []
                    for b in budgets:
                        agent = HardAgent(seed=12345, time_budget=b)
                        start = time.process_time()
                        action = agent.choose(game)
                        cpus.append(time.process_time() - start)
                        regrets.append(max(ref) - max(v for k, v in zip(keys, ref, strict=True) if k == repr(action)))
                    rows[(game.round, d.kind)].append((regrets, cpus))
            game.apply(agents[d.player].choose(game), by=d.player)
        print(f"game {g + 1}/{args.games} done", file=sys.stderr)
    print(f"Kingdomino + Middle Kingdom + Harmony, {args.players} players, {args.games} games, {args.passes} passes")
    print(f"{'round':>5} {'kind':12} {'n':>4} " + " ".join(f"{f'regret@{b}':>12}" for b in budgets) + "  CPU s each")
    total = [0.0] * len(budgets)
    count = 0
    for (rnd, kind), found in sorted(rows.items()):
        means = [sum(r[0][i] for r in found) / len(found) for i in range(len(budgets))]
        cpus = [sum(r[1][i] for r in found) / len(found) for i in range(len(budgets))]
        total = [t + m * len(found) for t, m in zip(total, means, strict=True)]
        count += len(found)
        line = " ".join(f"{m:12.3f}" for m in means)
        print(f"{rnd:5} {kind:12} {len(found):4} {line}  " + " ".join(f"{c:.2f}" for c in cpus))
    print(f"{'all':>5} {'':12} {count:4} " + " ".join(f"{t / max(1, count):12.3f}" for t in total))


if __name__ == "__main__":
    main()
