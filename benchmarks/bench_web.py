"""The web board's speed: tap to board redrawn, tap to the Discord table posted (p50/p99), and the first load.

Chromium (/usr/bin/chromium, through Playwright) at a phone's size plays Kingdomino on the board:
  - local (no Discord): a person against a computer player; each tap that makes a move (a claim, a placement's
    Confirm) is timed in the page, from the tap to the board drawn at the move's version;
  - beside Discord (the fake Discord of tests/fakediscord, the real bot in this process): two people, one playing on
    the board through a signed link; each claim tap is timed to the table posted in the channel.
The first load is the bytes of the page (with the art's symbols in it), its script, style and icon as a browser
receives them, gzipped (goal: at most 150 KB; issue #45), and unpacked. The taps are timed with the board's motion on
(a placed domino flies from its line, a claim's king moves: goal p99 under 100 ms from the tap to the board redrawn
with the move; the page draws a placement or a claim at once, then the server's version of it, also timed).
With --boards N: N live connections (Server-Sent Events, as open boards) watching --games G local games while a
person plays each game over HTTP: the move's answer time with and without the boards, and the time from a move's
answer to each board receiving it (p50/p99).

Run: python benchmarks/bench_web.py [--moves N] [--boards 200 --games 50]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.driver import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
TIMING = """() => {
  window.__taps = []; window.__drawn = []; window.__redrawn = [];
  document.addEventListener('click', () => window.__taps.push(performance.now()), true);
  new MutationObserver(() => window.__drawn.push([performance.now(), +document.querySelector('main').dataset.version]))
    .observe(document.querySelector('main'), {attributes: true, attributeFilter: ['data-version']});
  new MutationObserver(() => window.__redrawn.push(performance.now()))
    .observe(document.querySelector('main'), {childList: true, subtree: true});
}"""


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def summary(name: str, ms: list[float]) -> str:
    if not ms:
        return f"{name}: no samples"
    return f"{name}: n={len(ms)} p50={statistics.median(ms):.0f} ms p99={pct(ms, 99):.0f} ms max={max(ms):.0f} ms"


def board_action(actions: dict, pick=lambda options: options[0]) -> dict:
    """The move a person makes on the board from the turn view's `actions`: a placement, else a claim, else skip
    (`pick` chooses among the options: the first by default)."""
    if actions.get("place"):
        p = pick(actions["place"])
        return {"type": "place", "cell": [p["row"], p["col"]], "direction": p["dir"]}
    if actions.get("claim"):
        return {"type": "claim", "domino": pick(actions["claim"])}
    return {"type": "skip"}


async def first_load(url: str) -> tuple[int, int]:
    """(bytes sent, gzipped as a browser asks; bytes once unpacked) of the page and its files."""
    import gzip

    import aiohttp

    sent = unpacked = 0
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        for path in ("", "static/board.js", "static/board.css", "static/favicon.svg"):
            async with http.get(url + path, headers={"Accept-Encoding": "gzip, deflate, br"}) as r:
                body = await r.read()
                sent += len(body)
                unpacked += len(gzip.decompress(body) if r.headers.get("Content-Encoding") == "gzip" else body)
    return sent, unpacked


async def tap_move(page, selector: str, version: int) -> tuple[float, float]:
    """Tap, wait for the board to draw a later version; ms from the tap to the board redrawn with the move (the page
    draws a placement or a claim at once), and to the server's version of it drawn (measured in the page)."""
    await page.evaluate("() => { window.__taps = []; window.__drawn = []; window.__redrawn = []; }")
    await page.locator(selector).first.tap()
    await page.wait_for_function("(v) => +document.querySelector('main').dataset.version > v", arg=version)
    taps, drawn, redrawn = await page.evaluate("() => [window.__taps, window.__drawn, window.__redrawn]")
    return redrawn[0] - taps[0], next(t for t, v in drawn if v > version) - taps[0]


async def local_taps(browser, moves: int) -> tuple[list[tuple[float, float]], tuple[int, int]]:
    from db import open_store
    from settings import Settings
    from web.local import start_local

    folder = Path(tempfile.mkdtemp(prefix="kd-bench-web-"))
    settings = Settings(
        token="", database_path=folder / "b.sqlite3", dev_guild_id=None, log_level=logging.WARNING, web_port=0
    )
    store = await open_store(settings.database_path, None)
    local = await start_local(settings, store)
    samples: list[tuple[float, float]] = []
    try:
        size = await first_load(local.board.url)
        context = await browser.new_context(**PHONE)
        page = await context.new_page()
        await page.goto(local.board.url)
        await page.wait_for_selector("#create")
        await page.fill("#players", "2")
        await page.fill("#computers", "1")
        await page.select_option("#level", "easy")  # the menu's fastest (random is the API's, for tests)
        while len(samples) < moves:
            await page.locator("#create").tap()
            await page.wait_for_url("**/?game=*")
            await page.evaluate(TIMING)
            while len(samples) < moves:
                await page.wait_for_function(
                    "() => ['place','claim','first_claim','over'].includes(document.querySelector('main').dataset.turn)"
                )
                turn = await page.get_attribute("main", "data-turn")
                version = int(await page.get_attribute("main", "data-version"))
                if turn == "over":
                    await page.goto(local.board.url)
                    await page.wait_for_selector("#create")
                    break
                if turn == "place":
                    await page.locator(".cell-legal[id^=cell-]").first.tap()
                    await page.wait_for_selector("#confirm")
                    samples.append(await tap_move(page, "#confirm", version))
                else:
                    samples.append(await tap_move(page, ".dom.legal", version))
        await context.close()
    finally:
        await local.close()
        await store.close()
    return samples, size


async def discord_taps(browser, moves: int) -> list[float]:
    from bot import KingdominoBot
    from db import open_store
    from settings import Settings
    from tests.e2e.play import play_turn, start_game
    from tests.fakediscord import BotRunner, FakeDiscord
    from web import auth

    folder = Path(tempfile.mkdtemp(prefix="kd-bench-web-"))
    settings = Settings(
        token="fake-token", database_path=folder / "d.sqlite3", dev_guild_id=None, log_level=logging.WARNING, web_port=0
    )
    fake = FakeDiscord(token="fake-token")
    await fake.start()

    async def build(stack: contextlib.AsyncExitStack):
        store = await open_store(settings.database_path, None)
        stack.push_async_callback(store.close)
        return KingdominoBot(settings, store, guild_ready_timeout=0.01)

    runner = BotRunner(fake, build, token="fake-token", sync_commands=True)
    await runner.start()
    samples: list[float] = []
    import random

    rng = random.Random(1)
    try:
        bot = runner.bot
        while len(samples) < moves:
            await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
            rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
            context = await browser.new_context(**PHONE)
            page = await context.new_page()
            await page.goto(f"{bot.board.url}join/{auth.link_token(bot.board.secret, fake.alice.id, rec.id)}")
            people = {str(fake.bob.id): fake.bob}
            while len(samples) < moves:
                now = await bot.store.get_active_game(rec.channel_id)
                if now is None:
                    break
                d = now.game.decision()
                if d.player != str(fake.alice.id):
                    await play_turn(fake, people[d.player], "kingdomino", rng)
                    continue
                await page.wait_for_function(
                    "(v) => +document.querySelector('main').dataset.version >= v", arg=now.version
                )
                before = len(fake.messages_in("kingdomino"))
                if now.game.decision().kind == "place":
                    await page.locator(".cell-legal[id^=cell-]").first.tap()
                    await page.wait_for_selector("#confirm")
                    selector = "#confirm"
                else:
                    selector = ".dom.legal"
                started = time.perf_counter()
                await page.locator(selector).first.tap()
                await page.wait_for_function(
                    "(v) => +document.querySelector('main').dataset.version > v", arg=now.version
                )
                after = await bot.store.get_active_game(rec.channel_id)
                if after is not None and after.game.decision().player == str(fake.alice.id):
                    continue  # still her turn (her second king): the table stays, nothing is posted
                await fake.wait_until(lambda b=before: len(fake.messages_in("kingdomino")) > b, timeout=30)
                samples.append((time.perf_counter() - started) * 1000)
                await fake.settle()
            await context.close()
            now = await bot.store.get_active_game(rec.channel_id)
            if now is not None:
                await bot.service.store.cancel_game(now.id)
    finally:
        await runner.stop()
        await fake.stop()
    return samples


async def watched_moves(boards: int, games: int, rounds: int) -> None:
    """Moves over HTTP on `games` local games, first with no board open, then with `boards` live connections."""
    import aiohttp

    from db import open_store
    from settings import Settings
    from web.local import start_local

    folder = Path(tempfile.mkdtemp(prefix="kd-bench-web-"))
    settings = Settings(
        token="", database_path=folder / "w.sqlite3", dev_guild_id=None, log_level=logging.WARNING, web_port=0
    )
    store = await open_store(settings.database_path, None)
    local = await start_local(settings, store)
    # Every board and player of this run comes from one address: lift the per-address limits for it.
    from web import guard

    local.board.limits.allow = lambda *_, **__: True
    guard.STREAMS_PER_PERSON = guard.STREAMS_PER_ADDRESS = boards + 1
    local.board.streams.slots.ceiling = max(local.board.streams.slots.ceiling, boards + 1)
    heard: list[list[tuple[int, float]]] = [[] for _ in range(boards)]  # per board: (version, when)

    async def watch(http, n: int, gid: int, ready: asyncio.Event) -> None:
        async with http.get(f"/api/games/{gid}/events", timeout=aiohttp.ClientTimeout(total=None)) as r:
            ready.set()
            async for raw in r.content:
                if raw.startswith(b"id: "):
                    heard[n].append((int(raw[4:]), time.perf_counter()))

    async def play(http, gid: int, moves: list[tuple[int, int, float, float]]) -> None:
        for _ in range(rounds):
            await local.service.idle()
            async with http.get(f"/api/games/{gid}") as r:
                view = await r.json()
            if view["turn"] is None or not view["turn"]["you"]:
                return
            action = board_action(view["actions"])
            started = time.perf_counter()
            async with http.post(f"/api/games/{gid}/act", json={"version": view["version"], "action": action}) as r:
                answer = await r.json()
            if answer.get("ok"):
                moves.append((gid, answer["version"], started, time.perf_counter()))

    try:
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(
            base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True), connector=connector
        ) as http:
            ids = []
            for _ in range(games):
                body = {"kind": "kingdomino", "players": 2, "computers": 1, "level": "random"}
                async with http.post("/api/games", json=body) as r:
                    ids.append((await r.json())["id"])
            for watched in (False, True):
                moves: list[tuple[int, int, float, float]] = []
                tasks = []
                if watched:
                    readies = [asyncio.Event() for _ in range(boards)]
                    tasks = [asyncio.create_task(watch(http, n, ids[n % games], readies[n])) for n in range(boards)]
                    await asyncio.gather(*(r.wait() for r in readies))
                await asyncio.gather(*(play(http, gid, moves) for gid in ids))
                label = f"{boards} boards watching" if watched else "no board open"
                print(summary(f"{games} games, {label}: a move's answer", [(d - s) * 1000 for _, _, s, d in moves]))
                if watched:
                    await local.service.idle()
                    pushes = []
                    for n in range(boards):
                        gid = ids[n % games]
                        for g, version, started, _ in moves:
                            if g == gid:
                                when = next((t for v, t in heard[n] if v >= version), None)
                                if when is not None:
                                    pushes.append((when - started) * 1000)
                    print(summary(f"  a move to each of the {boards} boards watching its game", pushes))
                for task in tasks:
                    task.cancel()
    finally:
        await local.close()
        await store.close()


async def main_async(moves: int, boards: int, games: int) -> None:
    if boards:
        await watched_moves(boards, games, rounds=6)
        return
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            local, (sent, unpacked) = await local_taps(browser, moves)
            print(
                f"first load: {sent:,} bytes sent gzipped, {unpacked:,} unpacked (page with the art, script, style, icon; goal <= 150,000)"
            )
            print(summary("local board, tap to board redrawn, motion on (goal p99 < 100 ms)", [a for a, _ in local]))
            print(summary("local board, tap to the server's version drawn", [b for _, b in local]))
            discord = await discord_taps(browser, max(10, moves // 3))
            print(summary("beside Discord, tap to the table posted in the channel", discord))
        finally:
            await browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="taps timed on the local board (default 40)")
    parser.add_argument("--boards", type=int, default=0, help="live connections watching (the load run; 0: none)")
    parser.add_argument("--games", type=int, default=50, help="games they watch, with --boards (default 50)")
    args = parser.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        print(f"bench_web: {CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING)
    print(f"bench_web: {time.strftime('%Y-%m-%d %H:%M')} UTC, load average {os.getloadavg()[0]:.1f}")
    asyncio.run(main_async(args.moves, args.boards, args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
