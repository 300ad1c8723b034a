"""Engine benchmarks: the figures that matter for the bot, printed (not asserted).

    python benchmarks/bench_engine.py            # about 30 s of CPU
    python benchmarks/bench_engine.py --quick    # a few seconds, rougher figures

1. Legal placements of one domino in a half-full 7x7 kingdom (median µs; goal < 40 µs): the computer players and
   the turn panel ask this all the time.
2. Whole games per second with random legal play, for every mode.
3. The median time of one whole random 4-player game: Kingdomino (goal < 4 ms), Queendomino (goal < 10 ms).

Times are the process's CPU time (time.process_time), so that a machine shared with other work gives about the
figures of an idle one (the wall clock would count the time spent waiting for a core).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, GameConfig, Kingdom
from engine.ai import make_agent
from engine.components import kingdomino_dominoes


def _players(n: int) -> tuple[str, ...]:
    return tuple(f"p{i + 1}" for i in range(n))


def _teams(n: int) -> tuple[tuple[str, ...], ...]:
    p = _players(n)
    return tuple(zip(p[0::2], p[1::2], strict=True))


MODES: list[tuple[str, GameConfig]] = [
    ("Kingdomino, 2 players", GameConfig("kingdomino", _players(2))),
    ("Kingdomino, 3 players", GameConfig("kingdomino", _players(3))),
    ("Kingdomino, 4 players", GameConfig("kingdomino", _players(4))),
    ("Kingdomino, Mighty Duel", GameConfig("kingdomino", _players(2), {"mighty-duel"})),
    ("Queendomino, 2 players", GameConfig("queendomino", _players(2))),
    ("Queendomino, 3 players", GameConfig("queendomino", _players(3))),
    ("Queendomino, 4 players", GameConfig("queendomino", _players(4))),
    ("Royal Wedding, 4 players", GameConfig("royal-wedding", _players(4))),
    ("Royal Wedding, 6 players", GameConfig("royal-wedding", _players(6))),
    ("Royal Wedding, 7 players", GameConfig("royal-wedding", _players(7))),
    ("Royal Wedding, teams of 6", GameConfig("royal-wedding", _players(6), teams=_teams(6))),
    ("Royal Wedding, teams of 8", GameConfig("royal-wedding", _players(8), teams=_teams(8))),
]


def play(cfg: GameConfig, seed: int) -> Game:
    """One whole game, every seat a random legal player (as `python -m engine selfplay`)."""
    game = Game.new(cfg, seed)
    agents = {p: make_agent("random", seed=seed * 1000 + i) for i, p in enumerate(cfg.players)}
    while not game.is_over:
        d = game.decision()
        game.apply(agents[d.player].choose(game), by=d.player)
    return game


def half_full_7x7(seed: int = 3) -> Kingdom:
    """A Mighty Duel kingdom after 12 dominoes placed at random: 24 of its 48 squares."""
    game = Game.new(GameConfig("kingdomino", _players(2), {"mighty-duel"}), seed)
    rng = random.Random(seed)
    while len(game.kingdoms[0].placed) < 12:
        game.apply(rng.choice(game.legal_actions()))
    return game.kingdoms[0]


def bench_placements(repeat: int) -> None:
    k = half_full_7x7()
    print("1. Legal placements of one domino, half-full 7x7 kingdom")
    for row in k.text_rows():
        print(f"     {row}")
    per_domino = []
    counts = []
    for d in kingdomino_dominoes():
        times = []
        for _ in range(repeat):
            t = time.process_time()
            found = k.legal_placements(d)
            times.append(time.process_time() - t)
        per_domino.append(statistics.median(times) * 1e6)
        counts.append(len(found))
    print(
        f"   median {statistics.median(per_domino):.0f} µs per call over the 48 dominoes "
        f"(fastest {min(per_domino):.0f}, slowest {max(per_domino):.0f}; {min(counts)}-{max(counts)} placements each); "
        "goal < 40 µs"
    )


def bench_games(seconds: float) -> None:
    print(f"2. Whole random games per second (about {seconds:g} s per mode)")
    for name, cfg in MODES:
        games = 0
        started = time.process_time()
        while games < 3 or time.process_time() - started < seconds:
            play(cfg, seed=games)
            games += 1
        elapsed = time.process_time() - started
        print(f"   {name:28} {games / elapsed:7.1f} games/s   ({games} games, {1000 * elapsed / games:6.1f} ms each)")


def bench_four_players(games: int) -> None:
    print("3. One whole random 4-player game")
    for game, goal in (("kingdomino", 4), ("queendomino", 10)):
        cfg = GameConfig(game, _players(4))
        times = []
        for seed in range(games):
            t = time.process_time()
            play(cfg, seed)
            times.append(time.process_time() - t)
        ms = sorted(1000 * x for x in times)
        print(
            f"   {game:12} median {statistics.median(ms):.1f} ms over {games} games "
            f"(fastest {ms[0]:.1f}, 90th percentile {ms[int(0.9 * (len(ms) - 1))]:.1f}); goal < {goal} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds, rougher figures")
    args = parser.parse_args()
    bench_placements(repeat=5 if args.quick else 50)
    bench_games(seconds=0.3 if args.quick else 1.5)
    bench_four_players(games=10 if args.quick else 60)


if __name__ == "__main__":
    main()
