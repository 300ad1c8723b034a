"""The board under attack (issue 44): limits per person behind one proxy, forwarded headers believed only from a
trusted proxy, a local board nobody can wedge, seats that survive a restart, tokens that do one thing, the Host
header, bodies that are checked before use, and the process's ceiling on live connections."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest

from db import open_store
from tests.web.conftest import board_settings, running_board
from web import auth, guard, lobby
from web.local import start_local

JSON = {"Content-Type": "application/json"}
WAIT = 30.0


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request) -> str | None:
    """The local board's store: the SQLite file, or a fresh PostgreSQL database."""
    return None if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest.fixture
async def proxied(tmp_path, store_url) -> AsyncIterator:
    """A local board behind a reverse proxy on this machine (127.0.0.1 is trusted): every request arrives from the
    proxy's address and says its client's in X-Forwarded-For."""
    settings = board_settings(tmp_path, web_trusted_proxies=("127.0.0.1",))
    async with running_board(settings, store_url, timer_period=0.5) as board_bot:
        yield board_bot


def person(url: str, client: str) -> aiohttp.ClientSession:
    """A person's browser behind the proxy: its own cookies; the proxy names its address."""
    return aiohttp.ClientSession(
        base_url=url, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"X-Forwarded-For": f"{client}, 127.0.0.1"}
    )


async def new_table(http, **spec) -> int:
    body = {"kind": "kingdomino", "players": 2, "computers": 1, "level": "random", **spec}
    async with http.post("/api/games", json=body) as r:
        assert r.status == 200, await r.text()
        return (await r.json())["id"]


async def first_event(http, gid: int, known: int = -1) -> dict:
    async with http.get(f"/api/games/{gid}/events", params={"v": str(known)}) as r:
        assert r.status == 200, await r.text()
        async for raw in r.content:
            line = raw.decode().strip()
            if line.startswith("data: "):
                return json.loads(line[6:])
    raise AssertionError("no event")


async def playable(board_bot, http, gid: int) -> dict:
    """The game's state once it is this browser's person's turn (the computers may still be to play: after a
    restart the timers resume them)."""
    async with asyncio.timeout(WAIT):
        while True:
            await board_bot.service.idle()
            async with http.get(f"/api/games/{gid}") as r:
                view = await r.json()
            if view.get("turn", {}).get("you"):
                return view
            await asyncio.sleep(0.05)


async def test_one_person_flooding_behind_the_proxy_never_refuses_another(proxied):
    """Two people behind one trusted proxy (one address for the board): one holds every stream they may and floods
    reads; the other's stream opens and her move is saved, and every one of her reads is answered."""
    url = proxied.board.url
    async with person(url, "203.0.113.5") as mallory, person(url, "203.0.113.9") as alice:
        theirs = await new_table(mallory)
        mine = await new_table(alice)
        held = []
        for _ in range(40):  # more than a person may hold: the ones past their own cap are refused
            response = await mallory.get(f"/api/games/{theirs}/events")
            if response.status != 200:
                assert response.status == 429
                response.release()
                break
            held.append(response)
        assert len(held) == 24, "a person holds at most 24 live boards"

        async def flood() -> list[int]:
            statuses = []
            for _ in range(300):
                async with mallory.get(f"/api/games/{theirs}") as r:
                    statuses.append(r.status)
            return statuses

        flooding = asyncio.create_task(flood())
        view = await playable(proxied, alice, mine)
        assert (await first_event(alice, mine))["version"] == view["version"]
        answers = []
        for _ in range(8):
            async with alice.get(f"/api/games/{mine}") as r:
                answers.append(r.status)
        claim = view["actions"]["claim"][0]
        async with alice.post(
            f"/api/games/{mine}/act", json={"version": view["version"], "action": {"type": "claim", "domino": claim}}
        ) as r:
            assert r.status == 200 and (await r.json())["ok"]
        statuses = await flooding
        assert answers == [200] * 8
        assert 429 in statuses, "the flooder met their own limit"
        for response in held:
            response.close()


def test_the_address_is_the_peers_unless_a_trusted_proxy_names_the_client():
    trusted = guard.networks(["127.0.0.1", "10.0.0.0/8"])
    assert guard.client_address("127.0.0.1", "198.51.100.7", ()) == "127.0.0.1", "no trusted proxy: the peer"
    assert guard.client_address("203.0.113.1", "198.51.100.7", trusted) == "203.0.113.1", "an untrusted peer"
    assert guard.client_address("127.0.0.1", "198.51.100.7", trusted) == "198.51.100.7"
    # The nearest untrusted hop: a client's own X-Forwarded-For is further left and never believed.
    assert guard.client_address("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3", trusted) == "198.51.100.7"
    assert guard.forwarded_scheme("127.0.0.1", "https", trusted, False) is True
    assert guard.forwarded_scheme("203.0.113.1", "https", trusted, False) is False


@pytest.mark.parametrize("trust", [False, True])
async def test_forwarded_addresses_count_only_from_a_trusted_proxy(tmp_path, monkeypatch, trust):
    """Requests without cookies, each claiming another address: from an untrusted peer they are all one address and
    meet its ceiling; through the trusted proxy each is its own client's, and none is refused."""
    monkeypatch.setattr(guard, "ADDRESS_FACTOR", 1.0)  # an address's ceiling as small as a person's, to meet it here
    settings = board_settings(tmp_path, web_trusted_proxies=("127.0.0.1",) if trust else ())
    async with running_board(settings, None) as board_bot:
        statuses = []
        async with aiohttp.ClientSession(base_url=board_bot.board.url) as http:
            for n in range(int(guard.READ_BURST) + 30):
                async with http.get("/api/me", headers={"X-Forwarded-For": f"198.51.100.{n}"}) as r:
                    statuses.append(r.status)
        assert (429 in statuses) is not trust, statuses.count(429)


async def test_a_visitor_opening_lobbies_without_end_wedges_nobody(local, monkeypatch):
    """One browser asks for 200 tables: it gets 10 (the refusal says how to free one); another person still opens
    a table; the flooder cancels one of theirs and may open one again. On a full board a new table takes the place
    of the longest-idle lobby."""
    url = local.board.url
    now = [0.0]
    local.board.limits = guard.Limits(clock=lambda: now[0])  # the rates' clock, moved on by the test
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(base_url=url, cookie_jar=jar) as flooder:
        body = {"kind": "kingdomino", "players": 3, "computers": 0}  # lobbies, waiting for people
        made, refusals = [], []
        for _ in range(200):
            async with flooder.post("/api/games", json=body) as r:
                answer = await r.json()
                if r.status == 200:
                    made.append(answer["id"])
                else:
                    refusals.append((r.status, answer["error"]))
        assert len(made) == lobby.TABLES_PER_PERSON and len(refusals) == 190
        assert refusals[0][0] == 429 and "leave or cancel one of them" in refusals[0][1]
        assert any("Too many requests" in text for _, text in refusals), "and met their rate limit"
        async with aiohttp.ClientSession(base_url=url) as other:
            await new_table(other)
        now[0] += 60.0  # a minute later, the flooder is back
        async with flooder.get(f"/api/games/{made[0]}") as r:
            version = (await r.json())["version"]
        async with flooder.post(f"/api/games/{made[0]}/cancel", json={"version": version}) as r:
            assert (await r.json())["ok"], "the flooder cancels a table of theirs"
        async with flooder.post("/api/games", json=body) as r:
            assert r.status == 200, "and has room for one again"

    # A full board: the longest-idle lobby gives its place.
    monkeypatch.setattr(lobby, "MAX_LOCAL_GAMES", 11)  # the flooder's 10 and the other person's 1
    monkeypatch.setattr(lobby, "IDLE_LOBBY_MINUTES", 0)
    oldest = min(made[1:])
    async with aiohttp.ClientSession(base_url=url) as newcomer:
        gid = await new_table(newcomer)
    assert gid and (await local.service.games.get(oldest)).status == "cancelled"
    assert (await local.service.games.get(oldest)).end_reason == "expired"


async def test_the_local_timers_end_lobbies_and_games_nobody_uses(local):
    """A lobby nobody started ends after a day; a game in play nobody touched for a week ends too."""
    from datetime import timedelta

    async with aiohttp.ClientSession(base_url=local.board.url) as http:
        waiting = await new_table(http, players=3, computers=0)
        playing = await new_table(http)
    service = local.service
    await service.idle()
    later = service.clock() + timedelta(days=8)
    service.clock = lambda: later
    assert await service.timers.expire_lobbies() == [waiting]
    assert await service.timers.expire_idle_games(days=7) == [playing]
    for gid in (waiting, playing):
        rec = await service.games.get(gid)
        assert rec.status == "cancelled" and rec.end_reason == "expired"


async def test_a_local_game_goes_on_after_a_restart_without_web_secret(tmp_path):
    settings = board_settings(tmp_path)
    assert settings.web_secret is None
    store = await open_store(settings.database_path, None)
    jar = aiohttp.CookieJar(unsafe=True)
    try:
        first = await start_local(settings, store, timer_period=0.5)
        try:
            async with aiohttp.ClientSession(base_url=first.board.url, cookie_jar=jar) as http:
                gid = await new_table(http)
        finally:
            await first.close()
        kept = (tmp_path / auth.SECRET_FILE).read_bytes()
        second = await start_local(settings, store, timer_period=0.5)
        try:
            assert second.board.secret == kept.strip()
            cookies = {c.key: c.value for c in jar}
            async with aiohttp.ClientSession(base_url=second.board.url, cookies=cookies) as http:
                view = await playable(second, http, gid)
                claim = view["actions"]["claim"][0]
                async with http.post(
                    f"/api/games/{gid}/act",
                    json={"version": view["version"], "action": {"type": "claim", "domino": claim}},
                ) as r:
                    assert (await r.json())["ok"], "the same browser still acts for its seat"
        finally:
            await second.close()
    finally:
        await store.close()


async def test_a_stream_token_opens_the_stream_and_nothing_else(local):
    """A stream token (in the URL, so in proxies' logs) stands for its person in that game's stream only: a move
    sent with it is not theirs."""
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        gid = await new_table(http)
        view = await playable(local, http, gid)
    rec = await local.service.games.get(gid)
    user = next(s.user_id for s in rec.seats if s.user_id is not None)
    token = auth.stream_token(local.board.secret, user, gid)
    claim = view["actions"]["claim"][0]
    body = {"version": view["version"], "action": {"type": "claim", "domino": claim}}
    async with aiohttp.ClientSession(base_url=local.board.url) as stranger:
        async with stranger.post(f"/api/games/{gid}/act", params={"s": token}, json=body) as r:
            answer = await r.json()
        assert answer["ok"] is False and "seat" in answer["error"]
        async with stranger.post(f"/api/games/{gid}/undo", params={"s": token}, json=body) as r:
            assert (await r.json())["ok"] is False
    assert (await local.service.games.get(gid)).version == rec.version, "nothing was played"


async def test_a_foreign_host_is_refused(local):
    async with aiohttp.ClientSession(base_url=local.board.url) as http:
        for host in ("evil.example", "evil.example:8080", "127.0.0.1.evil.example"):
            async with http.get("/api/me", headers={"Host": host}) as r:
                assert r.status == 421 and "own address" in (await r.json())["error"]
        async with http.post("/api/games", json={"kind": "kingdomino", "players": 2}, headers={"Host": "evil"}) as r:
            assert r.status == 421
        for host in ("localhost", "127.0.0.1", f"localhost:{local.board.url.rsplit(':', 1)[1].strip('/')}"):
            async with http.get("/api/me", headers={"Host": host}) as r:
                assert r.status == 200, host
    assert not await local.service.store.list_games(), "the foreign page opened no table"


@pytest.mark.parametrize(
    "body",
    [
        "[" * 2000 + "]" * 2000,
        '{"version": ' + "[" * 1500 + "]" * 1500 + "}",
        '{"version": 1e999, "action": {"type": "skip"}}',
        '{"version": NaN}',
        '{"version": -Infinity}',
        '{"version": 1' + "0" * 40 + "}",
        '{"version": 1, "action": {"type": "place", "cell": [1e999, 2], "direction": "up"}}',
        '{"version": 1, "action": {"type": "place", "cell": [99999999999999999999, 2], "direction": "up"}}',
        '{"kind": "kingdomino", "players": 1e999}',
        '{"kind": "kingdomino", "players": true}',
    ],
)
async def test_every_bad_body_is_a_400_with_a_reason(local, body):
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        gid = await new_table(http)
        for path in (f"/api/games/{gid}/act", "/api/games", f"/api/games/{gid}/join", f"/api/games/{gid}/undo"):
            async with http.post(path, data=body, headers=JSON) as r:
                answer = await r.json()
                assert r.status in (200, 400), (path, r.status, answer)
                assert answer.get("ok") is False and answer["error"], (path, answer)


async def test_the_metrics_are_for_this_machine_and_read_once_a_second(tmp_path):
    settings = board_settings(tmp_path, web_trusted_proxies=("127.0.0.1",))
    async with running_board(settings, None) as board_bot:
        async with person(board_bot.board.url, "203.0.113.5") as remote, remote.get("/metrics") as r:
            assert r.status == 403
        now = [100.0]
        board_bot.board.clock = lambda: now[0]
        collected = []
        collect = board_bot.board.metrics.collect

        async def counted(service, hub):
            collected.append(now[0])
            return await collect(service, hub)

        board_bot.board.metrics.collect = counted
        async with aiohttp.ClientSession(base_url=board_bot.board.url) as here:
            for _ in range(5):
                async with here.get("/metrics") as r:
                    assert r.status == 200
            now[0] += 1.0
            async with here.get("/metrics") as r:
                assert r.status == 200
        assert collected == [100.0, 101.0], "read at most once a second"
        board_bot.board.metrics_access = "token:" + "s" * 20
        async with aiohttp.ClientSession(base_url=board_bot.board.url) as here:
            async with here.get("/metrics") as r:
                assert r.status == 403
            async with here.get("/metrics", headers={"Authorization": "Bearer " + "s" * 20}) as r:
                assert r.status == 200


async def test_a_stream_past_the_process_ceiling_is_refused_and_a_closed_one_frees_its_slot(local):
    slots = local.board.streams.slots
    slots.ceiling = 3
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        gid = await new_table(http)
        held = [await http.get(f"/api/games/{gid}/events") for _ in range(3)]
        assert [r.status for r in held] == [200] * 3 and slots.total == 3
        async with http.get(f"/api/games/{gid}/events") as r:
            assert r.status == 503 and r.headers["Retry-After"] and "every few seconds" in (await r.json())["error"]
        async with http.get(f"/api/games/{gid}") as r:
            assert r.status == 200, "the page still reads the game"
        held[0].close()
        async with asyncio.timeout(WAIT):
            while slots.total != 2:  # its handler is cancelled when the connection closes: no keep-alive wait
                await asyncio.sleep(0.01)
        for response in held[1:]:
            response.close()


def _low_file_limit() -> None:  # in the board's process, before it runs: a desktop's default, and no higher
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


async def test_at_an_open_file_limit_of_1024_a_flood_of_streams_leaves_the_page_served(tmp_path):
    """The board in its own process at an open-file limit of 1,024 (soft and hard): 1,200 streams at once, from
    1,200 addresses behind the trusted proxy (none of them past its own cap). Past the process's ceiling each is
    refused politely; a new visitor's page and the game's state are still served, and the log stays small."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "DISCORD_TOKEN": "",
        "DATABASE_PATH": str(tmp_path / "board.sqlite3"),
        "WEB_PORT": "0",
        "WEB_TRUSTED_PROXIES": "127.0.0.1",
        "AI_WORKERS": "0",
        "PICTURE_WORKERS": "0",
        "LOG_LEVEL": "INFO",
    }
    log_path = tmp_path / "board.log"
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "bot.py", cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
            preexec_fn=_low_file_limit,
        )  # fmt: skip
    try:
        url = await _printed_url(log_path, process)
        async with aiohttp.ClientSession(base_url=url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as host:
            gid = await new_table(host, players=3, computers=0)  # a lobby: nothing moves while the flood comes
        connector = aiohttp.TCPConnector(limit=0, force_close=True)
        async with aiohttp.ClientSession(base_url=url, connector=connector) as flood:

            async def stream(n: int) -> tuple[int, aiohttp.ClientResponse | None]:
                headers = {"X-Forwarded-For": f"10.{n // 250}.{n % 250}.9"}
                try:
                    response = await flood.get(f"/api/games/{gid}/events", headers=headers)
                except aiohttp.ClientError:
                    return -1, None
                if response.status != 200:
                    response.release()
                    return response.status, None
                return 200, response

            results = await asyncio.gather(*(stream(n) for n in range(1200)))
            statuses = [status for status, _ in results]
            async with aiohttp.ClientSession(base_url=url) as visitor:
                async with visitor.get("/") as r:
                    assert r.status == 200 and "board.js" in await r.text()
                async with visitor.get(f"/api/games/{gid}") as r:
                    assert r.status == 200
            for _, response in results:
                if response is not None:
                    response.close()
        ceiling = (1024 - 256) // 2
        assert statuses.count(200) == ceiling, (statuses.count(200), ceiling)
        assert statuses.count(503) == 1200 - ceiling, {s: statuses.count(s) for s in set(statuses)}
    finally:
        process.send_signal(2)
        await asyncio.wait_for(process.wait(), WAIT)
    assert log_path.stat().st_size < 1_000_000


async def _printed_url(log_path, process) -> str:
    """The board's address, once the bot printed it (read as the log grows; woken by the process, not a clock)."""
    import re

    async with asyncio.timeout(60):
        while True:
            found = re.search(r"(http://127\.0\.0\.1:\d+/)", log_path.read_text(errors="replace"))
            if found:
                return found.group(1)
            if process.returncode is not None:
                raise AssertionError(log_path.read_text())
            await asyncio.sleep(0.05)


async def test_the_local_board_holds_its_lease_on_the_database_while_it_runs(tmp_path):
    """`python -m db restore` refuses to replace a database a bot uses: the local board (no token) is such a bot."""
    from db.backup import sqlite_bot_leases

    settings = board_settings(tmp_path)
    store = await open_store(settings.database_path, None)
    try:
        board_bot = await start_local(settings, store)
        try:
            async with asyncio.timeout(WAIT):
                while not sqlite_bot_leases(settings.database_path):  # its timers' first pass takes it
                    await asyncio.sleep(0.02)
        finally:
            await board_bot.close()
        assert sqlite_bot_leases(settings.database_path) == [], "dropped when it stopped"
    finally:
        await store.close()


def test_a_flood_of_one_error_is_a_line_a_minute_saying_how_many_were_held_back():
    now = [0.0]
    once = guard.OncePerInterval(60.0, clock=lambda: now[0])
    logger = logging.getLogger("web.test-flood")
    logger.propagate = False
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger.addHandler(Keep())
    logger.addFilter(once)
    for _ in range(90_000):  # what "Too many open files" made in 25 s
        logger.error("socket.accept() out of system resource: %s", "[Errno 24] Too many open files")
    logger.error("Game %s cannot be read", 7)  # another kind of record goes through at once
    now[0] += 61.0
    logger.error("socket.accept() out of system resource: %s", "[Errno 24] Too many open files")
    assert lines == [
        "socket.accept() out of system resource: [Errno 24] Too many open files",
        "Game 7 cannot be read",
        "socket.accept() out of system resource: [Errno 24] Too many open files (89999 more like this in the last 60 s)",
    ]
