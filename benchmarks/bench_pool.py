"""How late the event loop runs while computer players think: in threads (today's `asyncio.to_thread`) and in the
worker processes of `engine.ai.pool.AIPool` (issue #12).

    .venv/bin/python benchmarks/bench_pool.py [--players 16] [--budget 1.0 | --iterations N] [--workers N]
                                              [--niceness 10] [--idle 3] [--only idle threads pool] [--no-check]

The lag is how much later than asked a 10 ms `asyncio.sleep` wakes up (what every click waits on top of its own
work); printed as p50, p99 and max over n sleeps, idle and while `--players` `hard` players (one per game, each a
different position) think at once with `--budget` seconds per move. Threads use the loop's default executor, as the
service does today; the pool has `--workers` processes (default: the number of cores), started before measuring.
Also printed: the wall time until every move is known and the slowest move, and (unless `--no-check`) how many
moves equal the same search run alone in this process afterwards: with `--budget`, a search that its safety clock
stops early (a busy machine) may differ; with `--iterations` every move must be equal.
Target: lag p99 < 20 ms in the pool.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, GameConfig
from engine.ai import make_agent
from engine.ai.pool import DEFAULT_NICENESS, AIPool

TICK = 0.010


def positions(n: int) -> list[Game]:
    """n Kingdomino games of 4 players, a few turns in (each with its own seed), at a player's decision."""
    games = []
    for seed in range(n):
        game = Game.new(GameConfig("kingdomino", ("p1", "p2", "p3", "p4")), seed)
        for i in range(9 + seed % 4):
            d = game.decision()
            game.apply(make_agent("medium", seed=i).choose(game), by=d.player)
        games.append(game)
    return games


async def sample_lag(stop: asyncio.Event, lags: list[float]) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(TICK)
        lags.append(loop.time() - start - TICK)


async def measure(work) -> tuple[list[float], float, float]:
    """Lag samples while `work()` runs, its wall time and its slowest move (seconds). `work()` returns each move's
    time; the moves themselves it puts where the caller wants them."""
    stop, lags = asyncio.Event(), []
    sampler = asyncio.create_task(sample_lag(stop, lags))
    await asyncio.sleep(0.2)  # the sampler is running before the work starts
    del lags[:]
    started = time.perf_counter()
    moves = await work()
    wall = time.perf_counter() - started
    stop.set()
    await sampler
    return lags, wall, max(moves, default=0.0)


async def timed(coro, moves: list, i: int) -> float:
    started = time.perf_counter()
    moves[i] = await coro
    return time.perf_counter() - started


def line(name: str, lags: list[float], wall: float | None = None, slowest: float | None = None) -> str:
    ms = sorted(x * 1000 for x in lags)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    text = f"{name:<28} lag p50 {statistics.median(ms):7.1f} ms  p99 {p99:7.1f} ms  max {ms[-1]:7.1f} ms  n={len(ms)}"
    if wall is not None:
        text += f"   all moves in {wall:5.1f} s, slowest {slowest:4.1f} s"
    return text


async def main(args: argparse.Namespace) -> None:
    games = positions(args.players)
    moves: dict[str, list] = {"threads": [None] * len(games), "pool": [None] * len(games)}
    seeds = [g.seed + len(g.log) for g in games]
    options = {"time_budget": args.budget}
    effort = f"{args.budget} s per move"
    if args.iterations:  # a fixed effort: no clock in the choice, so every way must give the same moves
        options, effort = {"iterations": args.iterations, "time_budget": 60.0}, f"{args.iterations} playouts per move"
    print(f"{args.players} hard players at {effort}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")

    if "idle" in args.only:

        async def idle() -> list[float]:
            await asyncio.sleep(args.idle)
            return []

        print(line("idle", (await measure(idle))[0]))

    if "threads" in args.only:

        async def in_threads() -> list[float]:
            agents = [make_agent("hard", seed=s, **options) for s in seeds]
            return await asyncio.gather(
                *(
                    timed(asyncio.to_thread(a.choose, g.clone()), moves["threads"], i)
                    for i, (a, g) in enumerate(zip(agents, games, strict=True))
                )
            )

        print(line("threads (asyncio.to_thread)", *await measure(in_threads)))

    if "pool" in args.only:
        pool = AIPool(args.workers, niceness=args.niceness)
        await pool.start()

        async def in_pool() -> list[float]:
            return await asyncio.gather(
                *(
                    timed(pool.choose_action(g, "hard", s, key=i % 4, **options), moves["pool"], i)
                    for i, (g, s) in enumerate(zip(games, seeds, strict=True))
                )
            )

        try:
            print(line(f"pool ({pool.workers} workers, nice +{args.niceness})", *await measure(in_pool)))
        finally:
            await pool.close()

    if args.check:
        # The same decisions again, one at a time in this process: a move that differs was cut short by the search's
        # safety clock (a busy machine), so it depended on the load and not only on the state and the seed.
        alone = [make_agent("hard", seed=s, **options).choose(g.clone()) for g, s in zip(games, seeds, strict=True)]
        same = {way: sum(m == a for m, a in zip(ms, alone, strict=True)) for way, ms in moves.items() if ms[0]}
        print(
            "moves equal to the same search alone: " + ", ".join(f"{way} {n}/{len(alone)}" for way, n in same.items())
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--iterations", type=int, default=None, help="playouts per move instead of a budget")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--niceness", type=int, default=DEFAULT_NICENESS)
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of idle measurement")
    parser.add_argument("--no-check", dest="check", action="store_false", help="skip the determinism check")
    parser.add_argument("--only", nargs="+", default=["idle", "threads", "pool"], choices=["idle", "threads", "pool"])
    asyncio.run(main(parser.parse_args()))
