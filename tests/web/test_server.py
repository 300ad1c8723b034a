"""The board's server over HTTP, without a browser: who may act, bounded and well-formed requests, the security
headers, live updates that catch up by version, health and metrics."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from engine.actions import Claim
from web import auth
from web.guard import READ_BURST, WRITE_BURST, RateLimiter

JSON = {"Content-Type": "application/json"}


@pytest.fixture
async def http(local):
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
        yield s


async def new_game(http, **spec) -> int:
    body = {"kind": "kingdomino", "players": 2, "computers": 1, "level": "random", **spec}
    async with http.post("/api/games", json=body) as r:
        assert r.status == 200, await r.text()
        return (await r.json())["id"]


async def state(http, gid: int) -> dict:
    async with http.get(f"/api/games/{gid}") as r:
        assert r.status == 200
        return await r.json()


async def my_turn(local, http, gid: int) -> dict:
    """The state once the computers are done and it is the person's turn."""
    await local.service.idle()
    view = await state(http, gid)
    assert view["turn"]["you"], view["status_line"]
    return view


async def test_the_page_and_its_security_headers(http):
    async with http.get("/") as r:
        assert r.status == 200
        page = await r.text()
        csp = r.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors" in csp
    assert 'src="static/board.js"' in page and "http" not in page.replace("http-equiv", "")  # nothing from elsewhere
    for name in ("board.js", "board.css"):
        async with http.get(f"/static/{name}") as r:
            assert r.status == 200 and r.headers["X-Content-Type-Options"] == "nosniff"
            assert "https://" not in await r.text()
    for bad in ("/static/app.py", "/static/..%2Fapp.py", "/static/%2e%2e/app.py"):
        async with http.get(bad) as r:
            assert r.status == 404


async def test_a_move_needs_a_seat_a_version_and_a_known_action(local, http):
    gid = await new_game(http)
    view = await my_turn(local, http, gid)
    claim = view["actions"]["claim"][0]
    url = f"/api/games/{gid}/act"
    cases = [
        ({"action": {"type": "claim", "domino": claim}}, 400, "version"),
        ({"version": view["version"], "action": {"type": "fly"}}, 400, "not one the game knows"),
        ({"version": view["version"], "action": "claim"}, 400, "not one the game knows"),
        ({"version": view["version"] - 1, "action": {"type": "claim", "domino": claim}}, 200, "table changed"),
        ({"version": view["version"], "action": {"type": "claim", "domino": "K99"}}, 200, ""),
    ]
    for body, status, words in cases:
        async with http.post(url, json=body) as r:
            answer = await r.json()
            assert r.status == status and answer["ok"] is False, (body, answer)
            assert words in answer["error"]
    assert (await state(http, gid))["version"] == view["version"], "refusals change nothing"
    # Someone without a seat (another browser, or a forged cookie) may watch but not act.
    forged = auth.Session(tuple(s.user_id for s in (await local.service.games.get(gid)).seats if s.user_id)).cookie(
        b"x" * 32
    )
    for cookies in ({}, {auth.COOKIE: forged}):
        async with aiohttp.ClientSession(base_url=local.board.url, cookies=cookies) as other:
            async with other.post(
                url, json={"version": view["version"], "action": {"type": "claim", "domino": claim}}
            ) as r:
                assert (await r.json())["error"] == "You have no seat at this table: you can watch."
            async with other.get(f"/api/games/{gid}") as r:
                watched = await r.json()
                assert "actions" not in watched and not watched["turn"]["you"]
    async with http.post(url, json={"version": view["version"], "action": {"type": "claim", "domino": claim}}) as r:
        assert (await r.json())["ok"] is True
    actions = await local.service.store.get_actions(gid)
    assert [a.action for a in actions if a.user_id] == [Claim(claim).to_dict()]


async def test_requests_are_bounded_and_same_origin(local, http):
    gid = await new_game(http)
    url = f"/api/games/{gid}/act"
    async with http.post(url, data="version=1", headers={"Content-Type": "application/x-www-form-urlencoded"}) as r:
        assert r.status == 415
    async with http.post(url, json={"version": 1}, headers={"Origin": "https://evil.example"}) as r:
        assert r.status == 403 and "another site" in (await r.json())["error"]
    async with http.post(url, data=json.dumps({"version": 1, "pad": "x" * 10_000}), headers=JSON) as r:
        assert r.status == 413
    async with http.post(url, data="[1, 2", headers=JSON) as r:
        assert r.status == 400 and "JSON" in (await r.json())["error"]
    async with http.post("/api/games", json={"kind": "chess", "players": 2}) as r:
        assert r.status == 400 and "kingdomino, queendomino, royal-wedding" in (await r.json())["error"]
    async with http.post("/api/games", json={"kind": "kingdomino", "players": 3, "variants": ["mighty-duel"]}) as r:
        assert r.status == 400 and "not possible" in (await r.json())["error"]
    async with http.post("/api/games", json={"kind": "kingdomino", "players": 9}) as r:
        assert r.status == 400 and "2-4" in (await r.json())["error"]


def test_rate_limits_per_client():
    now = [0.0]
    limiter = RateLimiter(clock=lambda: now[0])
    writes = [limiter.allow("a", write=True) for _ in range(int(WRITE_BURST) + 5)]
    assert writes.count(True) == WRITE_BURST and not writes[-1]
    assert limiter.allow("b", write=True), "another client has its own bucket"
    reads = [limiter.allow("c", write=False) for _ in range(int(READ_BURST) + 5)]
    assert reads.count(True) == READ_BURST
    now[0] += 1.0  # a second later: room again
    assert limiter.allow("a", write=True) and limiter.allow("c", write=False)


async def test_live_updates_catch_up_by_version(local, http):
    gid = await new_game(http)
    view = await my_turn(local, http, gid)

    async def first_event(known: int) -> dict:
        async with http.get(f"/api/games/{gid}/events", params={"v": str(known)}) as r:
            assert r.headers["Content-Type"] == "text/event-stream"
            async for raw in r.content:
                line = raw.decode().strip()
                if line.startswith("data: "):
                    return json.loads(line[6:])
        raise AssertionError("no event")

    assert (await first_event(-1))["version"] == view["version"]  # a new board gets the state at once
    # A board that already shows this version hears nothing until the game changes; then it gets the new state.
    waiting = asyncio.create_task(first_event(view["version"]))
    await wait_watched(local.board.hub, gid)
    claim = view["actions"]["claim"][0]
    async with http.post(
        f"/api/games/{gid}/act", json={"version": view["version"], "action": {"type": "claim", "domino": claim}}
    ) as r:
        assert (await r.json())["ok"]
    got = await asyncio.wait_for(waiting, 30)
    assert got["version"] > view["version"]
    assert any(d["domino"] == claim and d["player"] for d in got["current"])


async def wait_watched(hub, gid: int) -> None:
    """Until a board's live connection watches the game (the hub counts it)."""
    while hub.version_of(gid) < 0:
        await asyncio.sleep(0.01)


async def test_health_and_metrics(local, http):
    gid = await new_game(http)
    view = await my_turn(local, http, gid)
    async with http.post(
        f"/api/games/{gid}/act",
        json={"version": view["version"], "action": {"type": "claim", "domino": view["actions"]["claim"][0]}},
    ) as r:
        assert (await r.json())["ok"]
    async with http.get("/healthz") as r:
        assert r.status == 200 and (await r.json())["ok"] is True
    async with http.get("/metrics") as r:
        text = await r.text()
    for name in (
        'kd_games{status="playing"} 1.0',
        'kd_moves_total{source="board"} 1.0',
        "kd_click_to_table_seconds_count 1.0",
        "kd_board_connections",
        "kd_ai_queued",
        "kd_picture_workers",
        "kd_computer_chains",
        "kd_game_writes_total",
    ):
        assert name in text, name


async def test_discord_tables_are_not_made_on_the_board(fake, bot):
    async with (
        aiohttp.ClientSession(base_url=bot.board.url) as http,
        http.post("/api/games", json={"kind": "kingdomino", "players": 2}) as r,
    ):
        assert r.status == 403 and "/game new" in (await r.json())["error"]


async def test_the_first_load_stays_small(http):
    total = 0
    for path in ("/", "/static/board.js", "/static/board.css", "/static/favicon.svg"):
        async with http.get(path) as r:
            assert r.status == 200
            total += len(await r.read())
    assert total <= 300_000, f"the first load is {total:,} bytes (at most 300 KB)"


async def test_the_new_game_menu_offers_the_lobby_levels_and_the_api_still_takes_random(local, http):
    from engine.ai import OFFERED_LEVELS

    for lang in ("en", "cs", "es", "ro"):
        async with http.get("/api/me", headers={"Accept-Language": lang}) as r:
            assert r.status == 200
            me = await r.json()
        # The menu names the levels a person chooses among, each in the page's language; `random` is for tests.
        assert me["levels"] == list(OFFERED_LEVELS) and "random" not in me["levels"], me["levels"]
        assert all(me["strings"]["levels"][level] for level in me["levels"])
    gid = await new_game(http, level="random")
    assert (await state(http, gid))["seats"][1]["computer"] == "random"
    async with http.post(
        "/api/games", json={"kind": "kingdomino", "players": 2, "computers": 1, "level": "wizard"}
    ) as r:
        assert r.status == 400 and "random, easy, medium, hard, expert" in (await r.json())["error"]


async def test_a_local_person_is_forgotten_and_their_game_goes_on_with_a_computer(local, http):
    """POST /api/forget-me (PRIVACY.md): the browser's local people leave every stored game as on Discord (a
    computer player takes their seat in a game in play, their name becomes "a former player"), and its session
    ends; another browser's person is untouched."""
    gid = await new_game(http, players=3, computers=1)  # a seat left for another browser's person
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as other:
        lobby = await local.service.games.get(gid)
        async with other.post(f"/api/games/{gid}/join", json={"version": lobby.version}) as r:
            assert r.status == 200, await r.text()
        version = (await local.service.games.get(gid)).version
        async with http.post(f"/api/games/{gid}/start", json={"version": version}) as r:  # the host starts it
            assert r.status == 200, await r.text()
        await local.service.idle()
        before = await local.service.games.get(gid)
        assert before.status == "playing"
        mine = next(s for s in before.seats if s.user_id is not None and s.seat_order == 0)
        async with http.post("/api/forget-me", json={}) as r:
            answer = await r.json()
        assert r.status == 200 and answer["ok"] and answer["games"] == 1 and "1 stored game" in answer["text"]
        assert auth.COOKIE not in {c.key for c in http.cookie_jar}, "the session ended"
        await local.service.idle()
        after = await local.service.games.get(gid)
        seat = after.seats[0]
        assert (seat.cpu_level, seat.user_id, seat.display_name) == ("medium", None, "a former player")
        assert mine.user_id not in {s.user_id for s in after.seats}
        assert (await local.service.store.person_data(mine.user_id)).is_empty
        other_person = next(s for s in after.seats if s.user_id is not None)
        assert (await local.service.store.person_data(other_person.user_id)).seats, "the other browser's stays"
