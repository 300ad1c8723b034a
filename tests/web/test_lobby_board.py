"""The lobby on the board (issue 46), in Chromium: two browsers at one local table (the host adds a computer and
changes its level, the joiner sees whom they wait for and is never offered a seat twice, the host starts when the
table can); leaving and cancelling; seats moved in a team game; the game list showing every state (open n of m,
your table, waiting for the host, your turn, waiting for another, finished and who won), your turns first; a
new-table form that cannot choose a table the engine refuses."""

from __future__ import annotations

import asyncio
import random

import aiohttp
import pytest

from db.models import GameStatus
from tests.web.shots import both_sizes, laid_out, shoot
from tests.web.tables import move
from tests.web.test_games import open_table
from web import auth
from web.gamelist import legal_tables, table_key

pytestmark = pytest.mark.e2e

SEATS = "() => [...document.querySelectorAll('#seats li.seat:not(.free)')].map((li) => li.querySelector('.sname').textContent)"


async def lobby_line(page) -> str:
    return await page.page.inner_text("#lobby-line")


async def test_two_browsers_at_one_local_table(local, open_page, tmp_path):
    host = await open_page(local.board.url)
    gid = await open_table(host, "kingdomino", 3, 0)
    assert await host.wait_turn("lobby") == "lobby"
    # Alone at a table of 3: no seat offered to the seated host, no dead Start, and the reason said.
    assert await host.count("#take-seat") == 0 and await host.count("#start") == 0
    assert "takes 2-4 players, not 1" in await lobby_line(host)
    # The host seats a computer player, then makes it stronger.
    await host.page.select_option("#add-level", "medium")
    await host.tap("#add-computer")
    await host.page.wait_for_function("() => document.querySelectorAll('#seats li.seat:not(.free)').length === 2")
    assert await host.page.evaluate(SEATS) == ["Player 1", "Bot 1 (medium)"]
    await host.page.select_option("#level-cpu-1", "hard")
    await host.page.wait_for_function("() => document.body.textContent.includes('Bot 1 (hard)')")
    rec = await local.service.games.get(gid)
    assert [s.cpu_level for s in rec.seats] == [None, "hard"]
    assert await host.count("#start") == 1, "two seated: the table can start"
    # A second browser takes the last seat, and waits for the host; nobody is offered a seat twice.
    joiner = await open_page(f"{local.board.url}?game={gid}", phone=False)
    await joiner.wait_turn("lobby")
    assert await joiner.count("#start") == 0 and await joiner.count("#add-computer") == 0
    await joiner.tap("#take-seat")
    await joiner.page.wait_for_selector("#lobby-line")
    assert await lobby_line(joiner) == "Waiting for Player 1 to start the game."
    assert await joiner.count("#take-seat") == 0 and await joiner.count("#start") == 0
    assert await joiner.count("#leave") == 1 and await joiner.count("#cancel-table") == 0
    await host.page.wait_for_function("() => document.querySelectorAll('#seats li.seat:not(.free)').length === 3")
    assert await host.count("#take-seat") == 0 and await host.count("#add-computer") == 0, "the table is full"
    await laid_out(host.page)
    await laid_out(joiner.page)
    await both_sizes(host.page, tmp_path, "lobby-host")
    await both_sizes(joiner.page, tmp_path, "lobby-joiner")
    # The host takes the computer away again and starts: both browsers are at the game.
    await host.tap("#remove-cpu-1")
    await host.page.wait_for_function("() => document.querySelectorAll('#seats li.seat:not(.free)').length === 2")
    await host.tap("#start")
    for page in (host, joiner):
        await page.page.wait_for_function("() => !['lobby', ''].includes(document.querySelector('main').dataset.turn)")
    rec = await local.service.games.get(gid)
    assert rec.status == GameStatus.PLAYING and len(rec.seats) == 2 and not any(s.is_computer for s in rec.seats)


async def host_and_joiner(local, open_page, kind: str, players: int):
    """A host's table of `players` with one computer, and a second browser that took a seat at it (the host's page
    shows three seated): (the host's page, the joiner's, the game's id)."""
    host = await open_page(local.board.url)
    gid = await open_table(host, kind, players, 1)
    await host.wait_turn("lobby")
    joiner = await open_page(f"{local.board.url}?game={gid}")
    await joiner.wait_turn("lobby")
    await joiner.tap("#take-seat")
    await host.page.wait_for_function("() => document.querySelectorAll('#seats li.seat:not(.free)').length === 3")
    return host, joiner, gid


async def test_a_person_leaves_a_lobby_and_the_host_cancels_it(local, open_page):
    host, joiner, gid = await host_and_joiner(local, open_page, "queendomino", 4)
    await joiner.tap("#leave")
    await joiner.page.wait_for_selector("#take-seat")  # a watcher again, offered the seat
    await host.page.wait_for_function("() => document.querySelectorAll('#seats li.seat:not(.free)').length === 2")
    await host.tap("#cancel-table")
    for page in (host, joiner):
        await page.page.wait_for_selector("#closed")
        assert "This table is closed." in await page.page.inner_text("#closed")
    assert (await local.service.games.get(gid)).status == GameStatus.CANCELLED


async def test_the_host_moves_seats_in_a_team_game(local, open_page):
    host = await open_page(local.board.url)
    await host.page.wait_for_selector("#create")
    await host.page.select_option("#kind", "royal-wedding")
    await host.page.fill("#players", "6")
    await host.page.dispatch_event("#players", "input")
    await host.page.check("#teams")
    await host.page.fill("#computers", "4")
    await host.tap("#create")
    await host.page.wait_for_url("**/?game=*")
    gid = int(host.page.url.rsplit("=", 1)[1])
    await host.wait_turn("lobby")
    assert await host.page.inner_text("#seats") != "" and await host.count("#seats li.team") == 3
    before = [s.player_id for s in (await local.service.games.get(gid)).seats]
    await host.tap("#down-0")  # the host moves down: Bot 1 becomes their partner's... the first seat
    await host.page.wait_for_function("(name) => document.querySelector('#seats li.seat .sname').textContent === name",
                                      arg="Bot 1 (easy)")  # fmt: skip
    after = [s.player_id for s in (await local.service.games.get(gid)).seats]
    assert after == [before[1], before[0], *before[2:]]


# -- the game list ------------------------------------------------------------------------------------------------------
async def person(local) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True))


async def posted(http: aiohttp.ClientSession, path: str, body: dict) -> dict:
    """POST `body` as this person; past the board's rate (a test's moves come faster than a person's), again once
    the board takes it."""
    for _ in range(200):
        async with http.post(path, json=body) as r:
            answer = await r.json()
            if r.status != 429:
                assert r.status == 200 and answer.get("ok", True), answer
                return answer
        await asyncio.sleep(0.1)  # the rate's bucket refills
    raise AssertionError(f"the board kept refusing {path} as too fast")


async def view_of(http: aiohttp.ClientSession, gid: int) -> dict:
    async with http.get(f"/api/games/{gid}") as r:
        return await r.json()


async def play_until(local, http: aiohttp.ClientSession, gid: int, done) -> dict:
    """This person's moves (the best placement, the first free domino, no optional step) until `done(view)`."""
    while True:
        await local.service.idle()
        view = await view_of(http, gid)
        if done(view):
            return view
        assert view.get("actions"), f"the game waits for someone else: {view.get('status_line')}"
        await posted(http, f"/api/games/{gid}/act", {"version": view["version"], "action": move(view["actions"])})


def table(kind: str, players: int, computers: int) -> dict:
    return {"kind": kind, "players": players, "computers": computers, "level": "random", "language": "en"}


async def test_the_game_list_shows_every_state_your_turns_first(local, open_page, tmp_path):
    local.service.seeds = random.Random(3)
    ann, bob = await person(local), await person(local)
    try:
        finished = (await posted(ann, "/api/games", table("kingdomino", 2, 1)))["id"]
        await play_until(local, ann, finished, lambda v: v["status"] == "finished")
        mine_open = (await posted(ann, "/api/games", table("kingdomino", 2, 0)))["id"]
        bobs_open = (await posted(bob, "/api/games", table("queendomino", 3, 0)))["id"]
        joined = (await posted(bob, "/api/games", table("kingdomino", 4, 1)))["id"]
        await posted(ann, f"/api/games/{joined}/join", {"version": (await view_of(ann, joined))["version"]})
        together = (await posted(bob, "/api/games", table("kingdomino", 2, 0)))["id"]
        await posted(ann, f"/api/games/{together}/join", {"version": (await view_of(ann, together))["version"]})
        await posted(bob, f"/api/games/{together}/start", {"version": (await view_of(bob, together))["version"]})
        await play_until(local, ann, together, lambda v: v.get("turn") and not v["turn"]["you"] and v["turn"]["kind"])
        playing = (await posted(ann, "/api/games", table("queendomino", 2, 1)))["id"]
        await play_until(local, ann, playing, lambda v: bool(v.get("actions")))
        cookie = ann.cookie_jar.filter_cookies(local.board.url)[auth.COOKIE].value
    finally:
        await ann.close()
        await bob.close()
    page = await open_page(local.board.url, phone=True)
    await page.page.context.add_cookies([{"name": auth.COOKIE, "value": cookie, "url": local.board.url}])
    await page.page.reload()
    await page.page.wait_for_selector("#games li[data-state]")
    rows = await page.page.evaluate(
        "() => [...document.querySelectorAll('#games li')].map((li) => [+li.dataset.game, li.dataset.state,"
        " li.querySelector('.gline').textContent])"
    )
    states = {gid: (state, line) for gid, state, line in rows}
    assert states[playing][0] == "your_turn" and states[playing][1].startswith("It's your turn: ")
    assert states[mine_open] == ("host", "Your table: 1 of 2 seats taken.")
    assert states[joined] == ("waiting_host", "Waiting for Player 1 to start the game.")
    assert states[together][0] == "waiting" and "Player 1" in states[together][1], states[together]
    assert states[bobs_open] == ("open", "Open table: 1 of 3 seats taken.")
    assert (states[finished][0] == "finished" and "wins" in states[finished][1]) or "win!" in states[finished][1]
    order = [state for _, state, _ in rows]
    assert order[0] == "your_turn" and order[-1] == "finished", order
    assert order == sorted(order, key=["your_turn", "host", "waiting_host", "waiting", "open", "finished"].index)
    await laid_out(page.page)
    await shoot(page.page, tmp_path, "game-list-phone", full=True)


# -- the new-table form ---------------------------------------------------------------------------------------------------
FORM = """() => ({ kind: document.getElementById('kind').value, players: +document.getElementById('players').value,
  variants: [...document.querySelectorAll('input[name=variant]:checked')].map((b) => b.value),
  teams: document.getElementById('teams').checked,
  boxes: [...document.querySelectorAll('input[name=variant], #teams')].map((b) => [b.value === 'on' ? 'teams' : b.value,
    b.checked, b.disabled]) })"""


def check_form(form: dict, legal: set[str]) -> None:
    """The form's table is one the engine accepts, and every box is enabled exactly when ticking or unticking it
    gives one."""
    kind, players, teams, variants = form["kind"], form["players"], form["teams"], set(form["variants"])
    assert table_key(kind, players, variants, teams) in legal, form
    for name, _checked, disabled in form["boxes"]:
        vs, tm = set(variants), teams
        if name == "teams":
            tm = not tm
        else:
            vs ^= {name}
        assert disabled == (table_key(kind, players, vs, tm) not in legal), (name, form)


async def test_the_form_cannot_choose_an_impossible_table(local, open_page):
    legal = set(legal_tables())
    page = await open_page(local.board.url)
    p = page.page
    await p.wait_for_selector("#create")
    # The cases of the issue, one by one.
    assert await p.is_disabled("#variant-three-player-four-dominoes") and await p.is_disabled("#teams")
    await p.check("#variant-mighty-duel")
    await p.fill("#players", "3")
    await p.dispatch_event("#players", "input")
    form = await p.evaluate(FORM)
    assert form["variants"] == [] and await p.is_disabled("#variant-mighty-duel"), "Mighty Duel is for 2 players"
    await p.check("#variant-three-player-four-dominoes")
    await p.select_option("#kind", "queendomino")
    assert await p.evaluate(FORM) == {**form, "kind": "queendomino"} or not (await p.evaluate(FORM))["variants"]
    await p.select_option("#kind", "royal-wedding")
    await p.fill("#players", "8")
    await p.dispatch_event("#players", "input")
    assert await p.is_checked("#teams") and await p.is_disabled("#teams"), "8 players play in teams"
    check_form(await p.evaluate(FORM), legal)
    # A random walk through the form: after every change the table is possible, and some are opened for real.
    rng = random.Random(46)
    opened = 0
    for step in range(80):
        choice = rng.random()
        if choice < 0.2:
            await p.select_option("#kind", rng.choice(["kingdomino", "queendomino", "royal-wedding"]))
        elif choice < 0.45:
            low, high = map(int, [await p.get_attribute("#players", "min"), await p.get_attribute("#players", "max")])
            await p.fill("#players", str(rng.randint(low, high)))
            await p.dispatch_event("#players", "input")
        else:
            boxes = [
                b for b in await p.query_selector_all("input[name=variant]:not([disabled]), #teams:not([disabled])")
            ]
            if boxes:
                await rng.choice(boxes).click()
        form = await p.evaluate(FORM)
        check_form(form, legal)
        if step % 16 == 15 and opened < 5:
            body = {"kind": form["kind"], "players": form["players"], "computers": 0, "variants": form["variants"],
                    "teams": form["teams"], "language": "en"}  # fmt: skip
            answer = await p.evaluate(
                "async (b) => (await fetch('api/games', {method: 'POST', headers: {'Content-Type': "
                "'application/json'}, body: JSON.stringify(b)})).json()",
                body,
            )
            assert "id" in answer, (form, answer)
            opened += 1
    assert opened == 5


async def test_a_person_leaves_a_game_in_play_and_a_computer_plays_on_then_the_host_cancels_it(local, open_page):
    """A local game in play has a life too (issue 44): a seated person leaves it for good from the board (asked
    first) and a computer player takes their seat, the game going on; the host cancels it for everyone."""
    host, joiner, gid = await host_and_joiner(local, open_page, "kingdomino", 3)
    await host.tap("#start")
    await joiner.page.wait_for_selector("#leave-game", state="attached")  # under the log, folded on a phone
    assert await joiner.count("#cancel-game") == 0, "only the host cancels"
    await joiner.page.evaluate("document.querySelector('.log-panel').open = true")  # a phone keeps it folded
    joiner.page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
    await joiner.tap("#leave-game")
    async with asyncio.timeout(60):
        while True:  # until the leave is saved
            rec = await local.service.games.get(gid)
            if not any(s.display_name == "Player 2" for s in rec.seats):
                break
            await asyncio.sleep(0.05)
    assert rec.status == GameStatus.PLAYING
    assert [s.is_computer for s in rec.seats] == [False, True, True]
    assert rec.seats[2].display_name == "Bot 2 (medium)" and rec.seats[2].cpu_level == "medium"  # where Player 2 sat
    await local.service.idle()
    assert (await local.service.games.get(gid)).version >= rec.version, "the game went on"
    await joiner.page.wait_for_function("() => !document.querySelector('#leave-game')")
    await host.page.wait_for_function(
        "() => document.body.textContent.includes('Bot 2 (medium)')"
    )  # the seat's new player
    await host.page.evaluate("document.querySelector('.log-panel').open = true")
    host.page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
    await host.tap("#cancel-game")
    await host.page.wait_for_selector("#closed")
    assert (await local.service.games.get(gid)).status == GameStatus.CANCELLED
