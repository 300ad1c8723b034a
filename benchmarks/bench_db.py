"""How fast the game store saves and loads a realistic game: a 4-player Queendomino game in its last round.

    .venv/bin/python benchmarks/bench_db.py [--runs N]

Prints the median and 95th percentile of: saving a move (state + action log row, one transaction, on a file in WAL
mode, with the store's default synchronous=FULL, and for comparison NORMAL) and loading a game (row, seats, JSON and the engine's `Game.from_dict`). Targets: both medians under 5 ms.
Exits with status 1 when a median misses its target.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from db import Seat, SqliteGameStore
from engine import Game, GameConfig

TARGET_MS = 5.0
USERS = (101, 202, 303, 404)


def last_round_game(seed: int = 42) -> Game:
    """A random 4-player Queendomino game played until its last round has started."""
    config = GameConfig(game="queendomino", players=tuple(str(u) for u in USERS))
    game = Game.new(config, seed)
    rng = random.Random(seed)
    while not game.is_last_round:
        game.apply(rng.choice(game.legal_actions()), by=game.decision().player)
    return game


async def timed(runs: int, call: Callable[[], Awaitable[object]]) -> list[float]:
    for _ in range(min(20, runs)):  # warm the caches
        await call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(label: str, times: list[float]) -> float:
    median = statistics.median(times)
    p95 = statistics.quantiles(times, n=20)[-1]
    verdict = "ok" if median < TARGET_MS else f"SLOWER than the {TARGET_MS:g} ms target"
    print(f"  {label:<34} median {median:6.2f} ms   p95 {p95:6.2f} ms   ({len(times)} runs, {verdict})")
    return median


async def bench(path: Path, runs: int, synchronous: str) -> list[float]:
    game = last_round_game()
    action = game.legal_actions()[0]
    player = game.decision().player
    state, action_dict = game.to_dict(), action.to_dict()
    async with await SqliteGameStore.open(path, synchronous=synchronous) as store:
        lobby = await store.create_game(
            channel_id=1,
            guild_id=1,
            host_user_id=USERS[0],
            kind="queendomino",
            config={"game": "queendomino"},
            seats=[Seat.human(u, f"player {u}") for u in USERS],
            seed=42,
        )
        version = await store.start_game(lobby.id, lobby.version, config=game.config.to_dict(), state=state)
        for logged_player, logged in game.log:  # the log of the game so far, as the bot would have written it
            version = await store.save_move(
                lobby.id, version, state=state, action=logged.to_dict(), player_id=logged_player, user_id=None
            )

        async def save() -> None:
            nonlocal version
            version = await store.save_move(
                lobby.id, version, state=state, action=action_dict, player_id=player, user_id=int(player)
            )

        async def load() -> None:
            await store.get_game(lobby.id)

        print(f"synchronous={synchronous}:")
        return [
            report("save a move (state + log row)", await timed(runs, save)),
            report("load a game (with Game.from_dict)", await timed(runs, load)),
        ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    args = parser.parse_args()
    game = last_round_game()
    print(
        f"4-player Queendomino in round {game.round} (its last), {len(game.log)} actions played, "
        f"state {len(json.dumps(game.to_dict(), separators=(',', ':')))} bytes of JSON"
    )
    with tempfile.TemporaryDirectory() as tmp:
        medians = asyncio.run(bench(Path(tmp) / "bench.sqlite3", args.runs, "FULL"))  # the store's default
        asyncio.run(bench(Path(tmp) / "bench-normal.sqlite3", args.runs, "NORMAL"))  # for information: no fsync
    return 0 if all(m < TARGET_MS for m in medians) else 1


if __name__ == "__main__":
    sys.exit(main())
