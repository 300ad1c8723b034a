"""What the post-game review (engine/ai/review.py) costs: CPU seconds to review a whole game, per mode.

    .venv/bin/python benchmarks/bench_review.py                          # the bot's settings, every player reviewed
    .venv/bin/python benchmarks/bench_review.py --budget 0.1 --playouts 16 --games 2 --only kingdomino-2

The games are played by `easy` computer players (a person's game has about as many choices); every player's
decisions are reviewed (a table of people: the most work a game can ask; computer seats are not reviewed). Prints,
per mode: decisions looked at, mistakes found, and CPU seconds per game (mean and max) and per decision. The review
is deterministic for a seed and fixed work, so only the times depend on the machine: run it niced on a quiet machine
and note the load (`uptime`) with the figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, GameConfig
from engine.ai import make_agent
from engine.ai.review import REVIEW_BUDGET, REVIEW_PLAYOUTS, review_game

MODES: dict[str, GameConfig] = {
    "kingdomino-2": GameConfig("kingdomino", ("p0", "p1")),
    "kingdomino-4": GameConfig("kingdomino", ("p0", "p1", "p2", "p3")),
    "queendomino-2": GameConfig("queendomino", ("p0", "p1")),
    "royal-wedding-4": GameConfig("royal-wedding", ("p0", "p1", "p2", "p3")),
}


def played(config: GameConfig, seed: int) -> Game:
    game = Game.new(config, seed)
    agents = {p: make_agent("easy", seed * 10 + i) for i, p in enumerate(config.players)}
    while not game.is_over:
        d = game.decision()
        game.apply(agents[d.player].choose(game), by=d.player)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=float, default=REVIEW_BUDGET, help="hard's effort a decision (seconds)")
    parser.add_argument("--playouts", type=int, default=REVIEW_PLAYOUTS, help="sampled futures per comparison")
    parser.add_argument("--games", type=int, default=1, help="games per mode")
    parser.add_argument("--only", nargs="*", choices=sorted(MODES), help="these modes only")
    args = parser.parse_args()
    print(f"budget {args.budget} s, {args.playouts} playouts; load {os.getloadavg()[0]:.1f}", flush=True)
    for name in args.only or MODES:
        times, decisions, mistakes = [], 0, 0
        for g in range(args.games):
            game = played(MODES[name], seed=100 + g)
            start = time.process_time()
            review = review_game(game, args.budget, args.playouts)
            times.append(time.process_time() - start)
            decisions += review.decisions
            mistakes += len(review.items)
        per = sum(times) / max(1, decisions)
        print(
            f"{name:16} {decisions / args.games:5.0f} decisions, {mistakes / args.games:4.0f} mistakes a game; "
            f"CPU {sum(times) / len(times):6.1f} s a game (max {max(times):.1f}), {per * 1000:.0f} ms a decision",
            flush=True,
        )


if __name__ == "__main__":
    main()
