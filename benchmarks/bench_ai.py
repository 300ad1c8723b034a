"""How strong and how fast the computer players are: whole games between levels, seats rotated.

    .venv/bin/python benchmarks/bench_ai.py [--games N] [--budget S] [--jobs J] [--only NAME ...]

Matches (each `--games` games; NAME for `--only` in brackets):
  [easy-random]   Kingdomino, 4 players: easy vs 3 random (target: easy wins >= 95%)
  [medium-easy]   Kingdomino, 4 players: medium vs 3 easy (for reference)
  [hard-easy]     Kingdomino, 4 players: hard vs 3 easy (target: hard wins >= 70% at <= 1 s per move)
  [hard-easy-bonus] the same with the Middle Kingdom and Harmony bonuses (hard's average score)
  [hard-medium-2] [hard-medium-duel] [hard-medium-q2] [hard-medium-q3] [hard-medium-q4]
  [hard-medium-rw4] [hard-medium-rw6]
                  hard vs medium: Kingdomino 2 players, Mighty Duel, Queendomino 2, 3 and 4 players, Royal Wedding
                  4 players (7x7) and 6 players (5x5, lines of 8)
Prints, per match and level: the share of games won by a player of that level (a shared win counts as a fraction;
"per seat" divides by the seats of that level), the average score with and without the Middle Kingdom and Harmony
bonuses, and milliseconds per move (mean and maximum over the moves where the player had a choice). `hard` uses `--budget` seconds per move.
Games run in `--jobs` processes (default: the number of cores).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, GameConfig
from engine.ai import make_agent


@dataclass(frozen=True)
class Match:
    name: str
    game: str
    levels: tuple[str, ...]  # one per seat; seats are rotated from game to game
    variants: frozenset[str] = field(default_factory=frozenset)
    target: str = ""


MATCHES = (
    Match("easy-random", "kingdomino", ("easy", "random", "random", "random"), target="easy wins >= 95%"),
    Match("medium-easy", "kingdomino", ("medium", "easy", "easy", "easy")),
    Match("hard-easy", "kingdomino", ("hard", "easy", "easy", "easy"), target="hard wins >= 70%"),
    Match(
        "hard-easy-bonus",
        "kingdomino",
        ("hard", "easy", "easy", "easy"),
        frozenset({"middle-kingdom", "harmony"}),
    ),
    Match("hard-medium-2", "kingdomino", ("hard", "medium"), target="hard wins > 50%"),
    Match("hard-medium-duel", "kingdomino", ("hard", "medium"), frozenset({"mighty-duel"}), "hard wins > 50%"),
    Match("hard-medium-q2", "queendomino", ("hard", "medium"), target="hard wins > 50%"),
    Match("hard-medium-q3", "queendomino", ("hard", "medium", "medium"), target="hard wins > 33%"),
    Match("hard-medium-q4", "queendomino", ("hard", "medium", "medium", "medium"), target="hard wins > 25%"),
    Match("hard-medium-rw4", "royal-wedding", ("hard", "medium", "medium", "medium"), target="hard wins > 25%"),
    Match("hard-medium-rw6", "royal-wedding", ("hard",) + ("medium",) * 5, target="hard wins > 16.7%"),
)


def play(match: Match, index: int, budget: float) -> dict:
    """One game of `match`; the seats are rotated by `index`. Returns per-level results."""
    n = len(match.levels)
    shift = index % n
    levels = match.levels[shift:] + match.levels[:shift]
    players = tuple(f"p{i}" for i in range(n))
    config = GameConfig(match.game, players, match.variants)
    agents = {}
    for seat, (player, level) in enumerate(zip(players, levels, strict=True)):
        options = {"time_budget": budget} if level == "hard" else {}
        agents[player] = make_agent(level, seed=1000 * index + seat, **options)
    game = Game.new(config, seed=index)
    times: dict[str, list[float]] = {}
    while not game.is_over:
        decision = game.decision()
        assert decision is not None
        choices = len(game.legal_actions())
        agent = agents[decision.player]
        start = time.perf_counter()
        action = agent.choose(game)
        elapsed = time.perf_counter() - start
        if choices > 1:
            times.setdefault(levels[players.index(decision.player)], []).append(elapsed)
        game.apply(action, by=decision.player)
    result = game.result()
    scores = game.scores()
    out: dict = {"levels": levels, "wins": [], "scores": [], "bare": [], "times": times}
    for i, player in enumerate(players):
        out["wins"].append(1 / len(result.winners) if player in result.winners else 0.0)
        out["scores"].append(scores[i].total)
        out["bare"].append(scores[i].total - scores[i].middle_kingdom - scores[i].harmony)
    return out


def run(match: Match, games: int, budget: float, jobs: int) -> None:
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play, [match] * games, range(games), [budget] * games))
    else:
        results = [play(match, i, budget) for i in range(games)]
    wall = time.perf_counter() - start
    stats: dict[str, dict] = {}
    for r in results:
        for i, level in enumerate(r["levels"]):
            s = stats.setdefault(level, {"seats": 0, "wins": 0.0, "scores": 0, "bare": 0, "times": []})
            s["seats"] += 1
            s["wins"] += r["wins"][i]
            s["scores"] += r["scores"][i]
            s["bare"] += r["bare"][i]
        for level, t in r["times"].items():
            stats[level]["times"].extend(t)
    title = f"{match.name}: {match.game}, {len(match.levels)} players"
    if match.variants:
        title += f" ({', '.join(sorted(match.variants))})"
    print(f"\n{title}: {games} games in {wall:.0f} s" + (f"; target: {match.target}" if match.target else ""))
    print(f"  {'level':8} {'seats':>5} {'win rate':>9} {'avg score':>9} {'no bonus':>9} {'ms/move':>8} {'max ms':>7}")
    for level in dict.fromkeys(match.levels):
        s = stats[level]
        games_won = s["wins"] / games  # share of the games won by any player of this level
        per_seat = s["wins"] / s["seats"]
        times = s["times"] or [0.0]
        print(
            f"  {level:8} {s['seats']:5d} {games_won:9.1%} {s['scores'] / s['seats']:9.1f} "
            f"{s['bare'] / s['seats']:9.1f} {1000 * sum(times) / len(times):8.1f} {1000 * max(times):7.0f}"
            + (f"   (per seat {per_seat:.1%})" if s["seats"] != games else "")
        )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=12, help="games per match (default 12)")
    parser.add_argument("--budget", type=float, default=0.25, help="hard's seconds per move (default 0.25)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: cores)")
    parser.add_argument("--only", nargs="*", help="match names to run (default: all)")
    args = parser.parse_args()
    names = {m.name for m in MATCHES}
    for name in args.only or ():
        if name not in names:
            parser.error(f"unknown match {name!r}: choose among {', '.join(sorted(names))}")
    print(f"budget {args.budget} s per move for hard; {args.games} games per match; {args.jobs} processes")
    for match in MATCHES:
        if args.only and match.name not in args.only:
            continue
        run(match, args.games, args.budget, args.jobs)


if __name__ == "__main__":
    main()
