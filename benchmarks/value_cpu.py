"""CPU a decision of `hard` with `value_depth` against without, on the same decisions, timed side by side.

    .venv/bin/python benchmarks/value_cpu.py [--depth 1] [--units 38,55,61] [--games 3] [--budget 0.1]

The decisions: every one with a choice in rounds 0-4 (those whose playouts the value cuts short) of 2-player
Kingdomino games with Middle Kingdom and Harmony played by medium (seeds 500-). Each is decided by both agents, which
one goes first alternating; for each `VALUE_UNITS` tried (engine/ai/search.py) it prints the ratio of their CPU time
and their playouts. The charge that gives a ratio of 1 keeps the CPU a move equal (see `VALUE_UNITS`).
"""

from __future__ import annotations

import argparse
import time

import engine.ai.search as search
from engine import Game, GameConfig
from engine.ai import make_agent


def decisions(games: int) -> list[Game]:
    config = GameConfig("kingdomino", ("p0", "p1"), frozenset({"middle-kingdom", "harmony"}))
    out = []
    for seed in range(games):
        game = Game.new(config, seed=500 + seed)
        agents = {p: make_agent("medium", i) for i, p in enumerate(config.players)}
        while not game.is_over:
            d = game.decision()
            assert d is not None
            if game.round <= 4 and len(game.legal_actions()) > 1:
                out.append(game.clone())
            game.apply(agents[d.player].choose(game), by=d.player)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=1, help="value_depth (default 1)")
    parser.add_argument("--units", default=str(search.VALUE_UNITS), help="VALUE_UNITS to try, comma-separated")
    parser.add_argument("--games", type=int, default=3, help="games whose decisions are timed (default 3)")
    parser.add_argument("--budget", type=float, default=0.1, help="hard's time_budget (default 0.1)")
    args = parser.parse_args()
    games = decisions(args.games)
    print(f"{len(games)} decisions (rounds 0-4 of 2-player games), budget {args.budget}")
    for units in (int(u) for u in args.units.split(",")):
        search.VALUE_UNITS = units
        cpu, playouts = [0.0, 0.0], [0, 0]
        for i, game in enumerate(games):
            for valued in (1, 0) if i % 2 else (0, 1):
                options = {"value_depth": args.depth} if valued else {}
                agent = make_agent("hard", i, time_budget=args.budget, **options)
                start = time.process_time()
                agent.choose(game)
                cpu[valued] += time.process_time() - start
                playouts[valued] += agent.last_playouts
        n = len(games)
        print(
            f"VALUE_UNITS {units}: CPU with / without value_depth={args.depth}: {cpu[1] / cpu[0]:.3f} "
            f"({1000 * cpu[1] / n:.0f} / {1000 * cpu[0] / n:.0f} ms a decision), "
            f"playouts {playouts[1] / n:.0f} / {playouts[0] / n:.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
