"""How strong and how fast the computer players are.

    .venv/bin/python benchmarks/bench_ai.py                 # quick (about a minute): move times and short matches
    .venv/bin/python benchmarks/bench_ai.py --calibrate     # CPU seconds per `hard` decision in every kind of mode
    .venv/bin/python benchmarks/bench_ai.py --full [--games N] [--jobs 2] [--only NAME ...] [--log FILE]
                                                            # the strength matches (hours at 1 s per move)
    .venv/bin/python benchmarks/bench_ai.py --ladder [--games N] [--jobs 2] [--log FILE]
                                                            # the ladder: every level, 4 at a table, rated
    .venv/bin/python benchmarks/bench_ai.py --full --only ab-mk2 --budget 0.2 --hardb claim_share=0.5
                                                            # A/B: hard with other options (hardB) vs plain hard

Strength matches (`--full`; NAME for `--only` in brackets; seats rotated from game to game):
  [easy-random]      Kingdomino 4 players: easy vs 3 random
  [medium-easy]      Kingdomino 4 players: medium vs 3 easy (target: medium wins >= 45%)
  [medium-easy-mk]   the same with Middle Kingdom and Harmony (target >= 45%)
  [medium-easy-q4]   Queendomino 4 players: medium vs 3 easy (target >= 45%)
  [medium-hard-4]    Kingdomino 4 players: medium vs 3 hard (target: medium wins <= 25%)
  [medium-hard-q4]   Queendomino 4 players: medium vs 3 hard (target <= 25%)
  [medium-hard-2]    Kingdomino 2 players: medium vs hard (target: medium wins <= 25%)
  [medium-hard-q2]   Queendomino 2 players: medium vs hard (target <= 25%)
  [hard-easy]        Kingdomino 4 players: hard vs 3 easy (target: hard wins >= 85%)
  [hard-medium-4]    Kingdomino 4 players: hard vs 3 medium (target >= 50%)
  [hard-medium-q4]   Queendomino 4 players: hard vs 3 medium (target >= 50%)
  [hard-medium-3]    Kingdomino 3 players: hard vs 2 medium (target >= 60%)
  [hard-medium-q3]   Queendomino 3 players: hard vs 2 medium (target >= 60%)
  [hard-medium-rw4]  Royal Wedding 4 players: hard vs 3 medium (chance 25%)
  [hard-medium-rw6]  Royal Wedding 6 players: hard vs 5 medium (chance 16.7%)
  [hard-medium-t6]   Royal Wedding teams of 2, 6 players: a hard team vs 2 medium teams (chance 33%)
  [hard-medium-2]    Kingdomino 2 players: hard vs medium (chance 50%)
  [hard-medium-q2]   Queendomino 2 players: hard vs medium (chance 50%)
A/B matches (only with `--only`): hardB (hard with the `--hardb` options) against plain hard: [ab-2], [ab-4]
Kingdomino, [ab-mk2], [ab-mk4] with Middle Kingdom and Harmony, [ab-q2], [ab-q4] Queendomino, [ab-rw4] Royal Wedding.
Each prints the share of games won by the first level (a shared win counts as a fraction) with its 95% Wilson
interval, average scores, and milliseconds per move (mean and maximum, CPU time; moves with a choice only).
`hard` uses `--budget` seconds per move (default 1, its default); its effort is counted in work units, so its moves
and the results do not depend on the machine's load, only the times do. Games run in `--jobs` processes (default
2). `--log FILE` appends one JSON line per game, so a long run can be summarised while it goes (`--summarize FILE`).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, GameConfig
from engine.ai import BUDGET_FACTORS, LEVELS, make_agent


@dataclass(frozen=True)
class Match:
    name: str
    game: str
    levels: tuple[str, ...]  # one per seat (per team with teams); seats are rotated from game to game
    teams: bool = False
    variants: frozenset[str] = field(default_factory=frozenset)
    target: str = ""
    seats: int = 0  # players at a table when fewer than `levels` (0: one per level): the rotation leaves some out


MATCHES = (
    Match("easy-random", "kingdomino", ("easy", "random", "random", "random"), target="easy wins >= 95%"),
    Match("medium-easy", "kingdomino", ("medium", "easy", "easy", "easy"), target="medium wins >= 45%"),
    Match(
        "medium-easy-mk",
        "kingdomino",
        ("medium", "easy", "easy", "easy"),
        variants=frozenset({"middle-kingdom", "harmony"}),
        target="medium wins >= 45%",
    ),
    Match("medium-easy-q4", "queendomino", ("medium", "easy", "easy", "easy"), target="medium wins >= 45%"),
    Match("medium-hard-4", "kingdomino", ("medium", "hard", "hard", "hard"), target="medium wins <= 25%"),
    Match("medium-hard-q4", "queendomino", ("medium", "hard", "hard", "hard"), target="medium wins <= 25%"),
    Match("medium-hard-2", "kingdomino", ("medium", "hard"), target="medium wins <= 25%"),
    Match("medium-hard-q2", "queendomino", ("medium", "hard"), target="medium wins <= 25%"),
    Match("hard-easy", "kingdomino", ("hard", "easy", "easy", "easy"), target="hard wins >= 85%"),
    Match("hard-medium-4", "kingdomino", ("hard", "medium", "medium", "medium"), target="hard wins >= 50%"),
    Match("hard-medium-q4", "queendomino", ("hard", "medium", "medium", "medium"), target="hard wins >= 50%"),
    Match("hard-medium-3", "kingdomino", ("hard", "medium", "medium"), target="hard wins >= 60%"),
    Match("hard-medium-q3", "queendomino", ("hard", "medium", "medium"), target="hard wins >= 60%"),
    Match("hard-medium-rw4", "royal-wedding", ("hard", "medium", "medium", "medium"), target="chance 25%"),
    Match("hard-medium-rw6", "royal-wedding", ("hard",) + ("medium",) * 5, target="chance 16.7%"),
    Match("hard-medium-t6", "royal-wedding", ("hard", "medium", "medium"), teams=True, target="chance 33%"),
    Match("hard-medium-2", "kingdomino", ("hard", "medium"), target="chance 50%"),
    Match("hard-medium-q2", "queendomino", ("hard", "medium"), target="chance 50%"),
)
# A/B tests of hard's options (`--hardb OPTION=VALUE`): hardB is hard with those options, the others plain hard.
AB_MATCHES = (
    Match("ab-2", "kingdomino", ("hardB", "hard"), target="chance 50%"),
    Match("ab-4", "kingdomino", ("hardB", "hard", "hard", "hard"), target="chance 25%"),
    Match(
        "ab-mk2",
        "kingdomino",
        ("hardB", "hard"),
        variants=frozenset({"middle-kingdom", "harmony"}),
        target="chance 50%",
    ),
    Match(
        "ab-mk4",
        "kingdomino",
        ("hardB", "hard", "hard", "hard"),
        variants=frozenset({"middle-kingdom", "harmony"}),
        target="chance 25%",
    ),
    Match("ab-q2", "queendomino", ("hardB", "hard"), target="chance 50%"),
    Match("ab-q4", "queendomino", ("hardB", "hard", "hard", "hard"), target="chance 25%"),
    Match("ab-rw4", "royal-wedding", ("hardB", "hard", "hard", "hard"), target="chance 25%"),
)
# The ladder: every level but one at each 4-player table (who sits out and the seats rotated: over 5 games each level
# plays every seat once and sits out once), rated by OpenSkill as the bot rates players.
LADDER = Match("ladder", "kingdomino", LEVELS, seats=4)


def ladder_rows(results: list[dict]) -> list[tuple]:
    """(level, ordinal, mu, sigma, share of its games won, mean score, mean and max CPU ms a move) per level, best
    first, from `play` results of the ladder match, rated with the bot's own OpenSkill ladder (db/ratings.py)."""
    from db.ratings import FinishedGame, SeatOutcome, compute_ratings

    games = [
        FinishedGame(
            LADDER.game,
            tuple(
                SeatOutcome(f"cpu:{level}", None, score, win > 0)
                for level, score, win in zip(r["levels"], r["scores"], r["wins"], strict=True)
            ),
        )
        for r in results
    ]
    rows = []
    for row in compute_ratings(games).get(LADDER.game, []):
        level = row.player.removeprefix("cpu:")
        seats = [(r["wins"][i], r["scores"][i]) for r in results for i, lv in enumerate(r["levels"]) if lv == level]
        times = [t for r in results for t in r["times"].get(level, [])] or [0.0]
        rows.append(
            (
                level,
                row.ordinal,
                row.mu,
                row.sigma,
                sum(w for w, _ in seats) / len(seats),
                sum(sc for _, sc in seats) / len(seats),
                1000 * sum(times) / len(times),
                1000 * max(times),
            )
        )
    return rows


def print_ladder(results: list[dict]) -> None:
    print(
        f"\nThe ladder: {len(results)} games of Kingdomino, 4 players, {len(LADDER.levels)} levels (one sits out; "
        "seats rotated)"
    )
    print("  OpenSkill (Plackett-Luce, as db/ratings.py): ordinal = mu - 3 sigma; CPU ms a move with a choice")
    print(f"  {'level':8} {'ordinal':>7} {'mu':>6} {'sigma':>5} {'won':>6} {'score':>6} {'ms/move':>8} {'max ms':>7}")
    for level, ordinal, mu, sigma, won, score, mean_ms, max_ms in ladder_rows(results):
        print(f"  {level:8} {ordinal:7.1f} {mu:6.1f} {sigma:5.2f} {won:6.1%} {score:6.1f} {mean_ms:8.1f} {max_ms:7.0f}")
    sys.stdout.flush()


def config_for(match: Match, levels: tuple[str, ...]) -> tuple[GameConfig, dict[str, str]]:
    """The game's configuration and each player's level (with teams, both players of a team share it)."""
    if match.teams:
        n = 2 * len(levels)
        players = tuple(f"p{i}" for i in range(n))
        teams = tuple((players[i], players[i + len(levels)]) for i in range(len(levels)))
        level_of = {p: levels[i % len(levels)] for i, p in enumerate(players)}
        return GameConfig(match.game, players, match.variants, teams=teams), level_of
    players = tuple(f"p{i}" for i in range(len(levels)))
    return GameConfig(match.game, players, match.variants), dict(zip(players, levels, strict=True))


def table_levels(match: Match, index: int) -> tuple[str, ...]:
    """The levels at game `index`'s table, seat by seat: `match.levels` rotated by the index, the first `seats`."""
    n = len(match.levels)
    shift = index % n
    return (match.levels[shift:] + match.levels[:shift])[: match.seats or n]


def play(match: Match, index: int, budget: float, hard_options: dict | None = None) -> dict:
    """One game of `match`; the seats are rotated by `index`. Returns per-seat results. `hard_options`: options of
    hard by level label (`hard`, and `hardB` for the A/B matches)."""
    config, level_of = config_for(match, table_levels(match, index))
    agents = {}
    for seat, player in enumerate(config.players):
        level = level_of[player]
        factor = BUDGET_FACTORS.get(level.removesuffix("B"))  # hard, hardB and expert: their share of `budget`
        options = {"time_budget": budget * factor, **(hard_options or {}).get(level, {})} if factor else {}
        agents[player] = make_agent(level.removesuffix("B"), seed=1000 * index + seat, **options)
    game = Game.new(config, seed=index)
    times: dict[str, list[float]] = {}
    clock_stops = 0
    while not game.is_over:
        decision = game.decision()
        assert decision is not None
        choices = len(game.legal_actions())
        agent = agents[decision.player]
        start = time.process_time()  # CPU time: each game runs in one process, so a busy machine inflates it little
        action = agent.choose(game)
        elapsed = time.process_time() - start
        clock_stops += bool(getattr(agent, "stopped_by_clock", False))
        if choices > 1:
            times.setdefault(level_of[decision.player], []).append(elapsed)
        game.apply(action, by=decision.player)
    result = game.result()
    scores = game.scores()
    out: dict = {"match": match.name, "index": index, "levels": [], "wins": [], "scores": [], "times": times}
    out["clock_stops"] = clock_stops
    for i, k in enumerate(game.kingdoms):
        out["levels"].append(level_of[k.players[0]])
        out["wins"].append(1 / len(result.winner_kingdoms) if i in result.winner_kingdoms else 0.0)
        out["scores"].append(scores[i].total)
    return out


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion p measured over n games."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(match: Match, results: list[dict], wall: float | None = None) -> None:
    games = len(results)
    stats: dict[str, dict] = {}
    stops = sum(r.get("clock_stops", 0) for r in results)
    for r in results:
        for level in set(r["levels"]):
            stats.setdefault(level, {"games": 0, "seats": 0, "wins": 0.0, "scores": 0, "times": []})["games"] += 1
        for i, level in enumerate(r["levels"]):
            s = stats[level]
            s["seats"] += 1
            s["wins"] += r["wins"][i]
            s["scores"] += r["scores"][i]
        for level, t in r["times"].items():
            stats[level]["times"].extend(t)
    title = f"{match.name}: {match.game}, {match.seats or len(match.levels)} {'teams' if match.teams else 'players'}"
    took = f" in {wall:.0f} s" if wall is not None else ""
    print(f"\n{title}: {games} games{took}" + (f"; target: {match.target}" if match.target else ""))
    print(
        f"  {'level':8} {'seats':>5} {'win rate':>9} {'95% interval':>14} {'avg score':>9} {'ms/move':>8} {'max ms':>7}"
    )
    for level in dict.fromkeys(match.levels):
        if level not in stats:
            continue
        s = stats[level]
        share = s["wins"] / s["games"]  # share of the games it played won by a player of this level
        low, high = wilson(share, s["games"])
        times = s["times"] or [0.0]
        print(
            f"  {level:8} {s['seats']:5d} {share:9.1%} {f'{low:.0%}-{high:.0%}':>14} {s['scores'] / s['seats']:9.1f} "
            f"{1000 * sum(times) / len(times):8.0f} {1000 * max(times):7.0f}"
        )
    if "hard" in stats:
        print(f"  hard's clock safety stop fired on {stops} moves")
    sys.stdout.flush()


def run(
    match: Match, games: int, budget: float, jobs: int, log: Path | None, first: int = 0, hard: dict | None = None
) -> list[dict]:
    start = time.perf_counter()
    results = []
    with ProcessPoolExecutor(jobs) as pool:
        for r in pool.map(play, [match] * games, range(first, first + games), [budget] * games, [hard] * games):
            results.append(r)
            if log is not None:
                with log.open("a") as f:
                    f.write(json.dumps(r) + "\n")
    summarize(match, results, time.perf_counter() - start)
    return results


def calibrate() -> None:
    """CPU seconds per `hard` decision (default budget) over whole games of every kind of mode, against medium."""
    print("CPU seconds per hard decision (default budget, whole games, vs medium; CPU time, so a busy machine")
    print("inflates it less than the wall clock, but still somewhat)")
    four, six, eight = (tuple(f"p{i}" for i in range(n)) for n in (4, 6, 8))
    modes = [
        ("Kingdomino 2", GameConfig("kingdomino", ("p0", "p1"))),
        ("Kingdomino 3", GameConfig("kingdomino", ("p0", "p1", "p2"))),
        ("Kingdomino 4", GameConfig("kingdomino", four)),
        ("Queendomino 2", GameConfig("queendomino", ("p0", "p1"))),
        ("Queendomino 3", GameConfig("queendomino", ("p0", "p1", "p2"))),
        ("Queendomino 4", GameConfig("queendomino", four)),
        ("Royal Wedding 4", GameConfig("royal-wedding", four)),
        ("Royal Wedding 6", GameConfig("royal-wedding", six)),
        ("Royal Wedding teams 6", GameConfig("royal-wedding", six, teams=(("p0", "p3"), ("p1", "p4"), ("p2", "p5")))),
        (
            "Royal Wedding teams 8",
            GameConfig("royal-wedding", eight, teams=tuple(zip(eight[::2], eight[1::2], strict=True))),
        ),
    ]
    for name, cfg in modes:
        game = Game.new(cfg, 5)
        hard = make_agent("hard", 1)
        others = {p: make_agent("medium", i) for i, p in enumerate(cfg.players)}
        cpu = []
        while not game.is_over:
            d = game.decision()
            if d.player == "p0":
                start = time.process_time()
                action = hard.choose(game)
                if hard.last_playouts:
                    cpu.append(time.process_time() - start)
            else:
                action = others[d.player].choose(game)
            game.apply(action)
        cpu.sort()
        print(
            f"  {name:22} {len(cpu):3d} decisions: mean {sum(cpu) / len(cpu):.2f} s, "
            f"median {cpu[len(cpu) // 2]:.2f} s, max {cpu[-1]:.2f} s"
        )
        sys.stdout.flush()


def quick() -> None:
    """A minute: each level's move time (CPU) in two modes, and short matches of the cheap levels."""
    print("Quick figures (`--full` for the strength matches, `--calibrate` for hard's CPU time per move)")
    for game_name, n in (("kingdomino", 4), ("queendomino", 4)):
        cfg = GameConfig(game_name, tuple(f"p{i}" for i in range(n)))
        for level in ("random", "easy", "medium", "hard"):
            game = Game.new(cfg, 11)
            agent = make_agent(level, 3)
            rng = random.Random(4)
            times = []
            while not game.is_over and game.round <= (2 if level == "hard" else 12):
                if len(game.legal_actions()) > 1 and game.decision().player == "p0":
                    start = time.process_time()
                    action = agent.choose(game)
                    times.append(time.process_time() - start)
                else:
                    action = rng.choice(game.legal_actions())
                game.apply(action)
            print(
                f"  {game_name:12} {n} players, {level:7}: {1000 * sum(times) / len(times):7.1f} CPU ms per move "
                f"(max {1000 * max(times):.0f}, {len(times)} moves)"
            )
            sys.stdout.flush()
    for name, games in (("easy-random", 16), ("medium-easy", 16)):
        match = next(m for m in MATCHES if m.name == name)
        start = time.perf_counter()
        summarize(match, [play(match, i, 1.0) for i in range(games)], time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="run the strength matches")
    parser.add_argument("--calibrate", action="store_true", help="hard's CPU seconds per decision")
    parser.add_argument(
        "--ladder", action="store_true", help="every level, 4 at a table (one sits out), rated (OpenSkill)"
    )
    parser.add_argument("--summarize", type=Path, help="summarise the games of a --log file")
    parser.add_argument("--games", type=int, default=200, help="games per match with --full (default 200)")
    parser.add_argument("--budget", type=float, default=1.0, help="hard's seconds per move (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--only", nargs="*", help="match names to run (default: all)")
    parser.add_argument("--log", type=Path, help="append one JSON line per game to this file")
    parser.add_argument("--first", type=int, default=0, help="index of the first game (seed and seats; default 0)")
    parser.add_argument(
        "--hard", nargs="*", default=[], metavar="OPTION=VALUE", help="options of hard (e.g. playout_noise=2)"
    )
    parser.add_argument(
        "--hardb", nargs="*", default=[], metavar="OPTION=VALUE", help="options of hardB in the A/B matches (ab-*)"
    )
    args = parser.parse_args()
    hard: dict[str, dict] = {"hard": {}, "hardB": {}}
    for label, items in (("hard", args.hard), ("hardB", args.hardb)):
        for item in items:
            key, _, value = item.partition("=")
            hard[label][key] = json.loads(value)
    hard["hardB"] = {**hard["hard"], **hard["hardB"]}
    names = {m.name: m for m in (*MATCHES, *AB_MATCHES, LADDER)}
    for name in args.only or ():
        if name not in names:
            parser.error(f"unknown match {name!r}: choose among {', '.join(sorted(names))}")
    if args.summarize:
        by_match: dict[str, list[dict]] = {}
        for line in args.summarize.read_text().splitlines():
            r = json.loads(line)
            by_match.setdefault(r["match"], []).append(r)
        for name, results in by_match.items():
            summarize(names[name], results)
            if name == LADDER.name:
                print_ladder(results)
        return
    if args.ladder:
        print_ladder(run(LADDER, args.games, args.budget, args.jobs, args.log, args.first, hard))
        return
    if args.calibrate:
        calibrate()
        return
    if not args.full:
        quick()
        return
    print(f"budget {args.budget} s per move for hard {hard}; {args.games} games per match; {args.jobs} processes")
    for match in (*MATCHES, *AB_MATCHES):
        if args.only and match.name not in args.only:
            continue
        if match in AB_MATCHES and not args.only:
            continue
        run(match, args.games, args.budget, args.jobs, args.log, args.first, hard)


if __name__ == "__main__":
    main()
