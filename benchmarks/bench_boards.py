"""What the open boards cost the bot's event loop, in CPU time (issue #29): a figure that a shared machine's load
does not blur, for comparing two versions of the board's code.

    .venv/bin/python benchmarks/bench_boards.py [--backend postgres|sqlite] [--boards 200] [--games 50] [--rounds 8]

In one process: the local board (web/local.py) over the store, `--games` Kingdomino games of one person and one
`easy` computer player, each person making `--rounds` moves over HTTP (a random legal one, seeded per game), one
move at a time: after each, the bot finishes the computer's answer and the test waits until every board watching
the game has received its newest version, so that every version is drawn (none skipped for a newer one, as under
load) and the figures count the same work in every run. Once with no board open, then (new games) with `--boards`
live connections (Server-Sent Events, read in chunks) spread over the games. Printed for each: the event loop's CPU
(thread time) per move, the boards' own work on it (the callbacks of their streams' tasks, as bench_load times
them) in all and per version drawn by one game's boards, the PostgreSQL server's CPU per move, and where the
boards' game states came from (handed over by the commit path, read from the store). A warm-up round of games
without boards runs first (imports, caches).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_load  # noqa: E402  (the boards' work timing, the PostgreSQL server's CPU)
import bench_web  # noqa: E402  (a person's move on the board)


async def run(backend: str, boards: int, games: int, rounds: int) -> None:
    import aiohttp

    from db import open_store
    from settings import Settings
    from web import guard
    from web.local import start_local

    server = url = None
    if backend == "postgres":
        from tests.conftest import DatabaseFactory, PostgresServer

        server = PostgresServer.start()
        url = await DatabaseFactory(server).create()
    folder = Path(tempfile.mkdtemp(prefix="kd-bench-boards-"))
    settings = Settings(
        token="", database_path=folder / "b.sqlite3", dev_guild_id=None, log_level=logging.WARNING, web_port=0
    )
    turns = bench_load.time_board_work(asyncio.get_running_loop())  # before the board is built
    store = await open_store(settings.database_path, url)
    local = await start_local(settings, store)
    local.service.seeds = random.Random(7)
    local.board.limits.allow = lambda *_, **__: True  # every board and player comes from one address here
    guard.STREAMS_PER_PERSON = guard.STREAMS_PER_ADDRESS = boards + 1
    local.board.streams.slots.ceiling = max(local.board.streams.slots.ceiling, boards + 1)
    newest: dict[int, int] = {}  # board -> the newest version it received
    received: set[tuple[int, int]] = set()  # (game, version) received by a board of the game
    watching: dict[int, list[int]] = {}  # game -> its boards

    async def watch(http, n: int, gid: int, ready: asyncio.Event) -> None:
        async with http.get(f"/api/games/{gid}/events", timeout=aiohttp.ClientTimeout(total=None)) as r:
            async for chunk in r.content.iter_any():
                for line in chunk.split(b"\n"):
                    if line.startswith(b"id: "):
                        newest[n] = int(line[4:])
                        received.add((gid, newest[n]))
                ready.set()

    async def drawn(gid: int) -> None:
        version = (await local.service.games.get(gid)).version
        while any(newest.get(n, -1) < version for n in watching.get(gid, ())):
            await asyncio.sleep(0.005)

    async def play(http, gid: int) -> int:
        rng, moved = random.Random(gid), 0
        for _ in range(rounds):
            await local.service.idle()
            async with http.get(f"/api/games/{gid}") as r:
                view = await r.json()
            if view["turn"] is None or not view["turn"]["you"]:
                break
            action = bench_web.board_action(view["actions"], rng.choice)
            async with http.post(f"/api/games/{gid}/act", json={"version": view["version"], "action": action}) as r:
                moved += bool((await r.json()).get("ok"))
            await local.service.idle()
            await drawn(gid)
        return moved

    def snapshots() -> dict[str, float]:
        metric = getattr(local.board.metrics, "board_reads", None)  # older code: no such counter
        return bench_load.counted_by(metric, "source") if metric is not None else {}

    try:
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(
            base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True), connector=connector
        ) as http:
            for label, open_boards in (("warm-up", 0), ("no boards", 0), (f"{boards} boards", boards)):
                ids = []
                for _ in range(games):
                    body = {"kind": "kingdomino", "players": 2, "computers": 1, "level": "easy"}
                    async with http.post("/api/games", json=body) as r:
                        ids.append((await r.json())["id"])
                await local.service.idle()
                readies = [asyncio.Event() for _ in range(open_boards)]
                tasks = [asyncio.create_task(watch(http, n, ids[n % games], readies[n])) for n in range(open_boards)]
                for n in range(open_boards):
                    watching.setdefault(ids[n % games], []).append(n)
                await asyncio.gather(*(ready.wait() for ready in readies))
                before_sources, turns[:] = snapshots(), []
                received.clear()
                cpu, pg = time.thread_time(), bench_load.server_cpu_seconds(server)
                moves = sum([await play(http, gid) for gid in ids])
                cpu, pg = time.thread_time() - cpu, bench_load.server_cpu_seconds(server) - pg
                work = sum(ms for _, ms, _ in turns) / 1000
                watched_games = sum(1 for gid in ids if watching.get(gid))
                sources = {k: v - before_sources.get(k, 0.0) for k, v in snapshots().items()}
                line = (
                    f"{label:>11}: {moves} moves, the event loop's CPU {cpu:.2f} s ({cpu / moves * 1000:.2f} ms a move)"
                )
                if server is not None:
                    line += f", PostgreSQL {pg:.2f} s ({pg / moves * 1000:.2f} ms a move)"
                if open_boards:
                    per_game = open_boards // max(1, watched_games)
                    per_version = work / max(1, len(received)) * 1000
                    line += (
                        f"\n             the boards' work {work:.2f} s of it ({per_version:.2f} ms for each of the "
                        f"{len(received)} game versions the boards received, {per_game} boards a game); game states: "
                        f"{sources or 'not counted'}"
                    )
                print(line, flush=True)
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                watching.clear()
    finally:
        await local.close()
        await store.close()
        if server is not None:
            server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--boards", type=int, default=200, help="live connections (default 200)")
    parser.add_argument("--games", type=int, default=50, help="games, each watched by boards/games boards")
    parser.add_argument("--rounds", type=int, default=8, help="moves of each game's person (default 8)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    print(
        f"bench_boards: {time.strftime('%Y-%m-%d %H:%M')} UTC, load average {os.getloadavg()[0]:.1f}; "
        f"{args.backend}, {args.games} games, {args.boards} boards, {args.rounds} moves a game"
    )
    asyncio.run(run(args.backend, args.boards, args.games, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
