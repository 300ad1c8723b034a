"""A turn on the board says what it does and never shows a dead button (issue 46), in Chromium at 390x844, touch:
Undo only where the server would do it; a chosen spot kept across a reload; Queendomino's build and burn distinct by
their accessible names and drawing, a building that cannot be afforded saying why, the burn confirmed beside the
building; a hint only where the table allows it, never revealing a hidden domino."""

from __future__ import annotations

import random

import aiohttp
import pytest

from db.models import GameStatus
from engine import domino
from tests.web.driver import Page, play_step
from tests.web.shots import both_sizes, laid_out, shoot
from tests.web.tables import GUIDE_DONE, PHONE, open_as
from tests.web.test_games import open_table
from tests.web.test_layout import IN_VIEW
from tests.web.test_lobby_board import person, posted, table, view_of

pytestmark = pytest.mark.e2e


async def settled_at(page: Page, version: int) -> None:
    """The page draws `version` (a step of the viewer's: nothing left to settle)."""
    await page.page.wait_for_function("(v) => +document.querySelector('main').dataset.version === v", arg=version)


async def test_undo_is_offered_exactly_where_the_server_would_do_it(local, open_page):
    page = await open_page(local.board.url)
    gid = await open_table(page, "kingdomino", 3, 2, level="easy")
    rng = random.Random(2)
    seen = {True: 0, False: 0}
    while (kind := await page.wait_turn()) != "over":
        rec = await local.service.games.get(gid)
        await settled_at(page, rec.version)
        user = next(s.user_id for s in rec.seats if not s.is_computer)
        allowed = await local.service.undo_refusal(rec, user) is None
        assert (await page.count("#undo") == 1) == allowed, f"Undo at a {kind} step, version {rec.version}"
        seen[allowed] += 1
        await play_step(page, rng)
    assert seen[True] >= 5 and seen[False] >= 5, seen


async def test_a_reload_keeps_the_chosen_spot(local, open_page):
    page = await open_page(local.board.url)
    await open_table(page, "kingdomino", 2, 1, level="easy")
    while await page.wait_turn("first_claim", "place") == "first_claim":
        version = await page.version()
        await page.tap(".dom.legal")
        await page.wait_version_after(version)
    cells = await page.page.evaluate("() => [...document.querySelectorAll('.cell-legal[id^=cell-]')].map((c) => c.id)")
    await page.tap(f"#{cells[-1]}")
    await page.page.wait_for_selector("#preview")
    if not await page.page.is_disabled("#rotate"):
        await page.tap("#rotate")
    chosen = await page.page.get_attribute("#preview", "aria-label")
    confirm = await page.page.inner_text("#confirm")
    await page.page.reload()
    await page.wait_turn("place")
    await page.page.wait_for_selector("#preview")
    assert await page.page.get_attribute("#preview", "aria-label") == chosen
    assert await page.page.inner_text("#confirm") == confirm
    view = await page.page.evaluate(IN_VIEW)
    assert view["confirm"], view
    version = await page.version()
    await page.tap("#confirm")
    await page.wait_version_after(version)
    assert not await page.toast()
    await page.wait_turn("claim")
    await page.page.reload()  # a spot of a version gone is not shown again
    await page.wait_turn("claim")
    assert await page.count("#preview") == 0


# -- Queendomino's steps -------------------------------------------------------------------------------------------------
def towns(view: dict, dom: str) -> int:
    return sum(1 for s in domino(dom).squares if s.terrain == "town")


def next_move(view: dict) -> dict:
    """A person who builds towns and spends their coins on the dearest building: soon some building is too dear."""
    a = view["actions"]
    if a.get("place"):
        p = max(a["place"], key=lambda p: (p["gain"], -p["row"], -p["col"], p["dir"]))
        return {"type": "place", "cell": [p["row"], p["col"]], "direction": p["dir"]}
    if a["kind"] in ("claim", "first_claim"):
        return {"type": "claim", "domino": max(sorted(a["claim"]), key=lambda d: towns(view, d))}
    if a["kind"] == "build" and a["build"]:
        costs = {b["slot"]: b["cost"] for b in view["builders"] if b}
        b = max(a["build"], key=lambda b: (costs[b["slot"]], -b["row"], -b["col"]))
        return {"type": "build", "slot": b["slot"], "cell": [b["row"], b["col"]]}
    return {"type": "skip"}


def wanted(view: dict) -> bool:
    """A build step with a building to build, one too dear for the person, and one the dragon could burn."""
    a = view.get("actions") or {}
    whys = [b for b in view.get("builders", []) if b and b.get("why")]
    return a.get("kind") == "build" and bool(a.get("build")) and bool(whys) and bool(a.get("dragon"))


async def queendomino_build_step(local) -> tuple[int, int]:
    for seed in range(1, 12):
        local.service.seeds = random.Random(seed)
        http = await person(local)
        try:
            gid = (await posted(http, "/api/games", table("queendomino", 2, 1)))["id"]
            while True:
                await local.service.idle()
                view = await view_of(http, gid)
                if view["status"] != "playing" or wanted(view):
                    break
                body = {"version": view["version"], "action": next_move(view), "through": False}
                await posted(http, f"/api/games/{gid}/act", body)
        finally:
            await http.close()
        if wanted(view):
            rec = await local.service.games.get(gid)
            return gid, next(s.user_id for s in rec.seats if s.user_id)
    raise AssertionError("no seed reached a build step with a building too dear")


SLOTS = """() => [...document.querySelectorAll('.builders .slot:not(.empty)')].map((s) => ({
  id: s.id, cls: s.className, label: s.getAttribute('aria-label'), why: (s.querySelector('.why') || {}).textContent || null,
  tag: (s.querySelector('.act') || {}).textContent || null, dragon: !!s.querySelector('.act use[href="#dragon"]'),
  coin: !!s.querySelector('.act use[href="#coin"]'), border: getComputedStyle(s).borderTopStyle }))"""


async def test_queendomino_build_and_burn_read_and_look_different(local, browser, tmp_path):
    gid, user = await queendomino_build_step(local)
    rec = await local.service.games.get(gid)
    game = rec.game
    me = game.decision().kingdom
    coins = game.kingdoms[me].coins
    context, raw = await open_as(browser, local, gid, user, PHONE)
    page = Page(raw)
    assert await page.turn() == "build"
    slots = await raw.evaluate(SLOTS)
    build = [s for s in slots if " build" in s["cls"]]
    burn = [s for s in slots if " burn" in s["cls"]]
    assert build and burn, slots
    for s in build:
        assert s["label"].startswith("Build ") and s["tag"] == "Build" and s["coin"] and not s["dragon"], s
        assert s["border"] == "solid"
    for s in burn:
        assert (
            " with the dragon" in s["label"] and s["label"].startswith("Burn ") and s["tag"] == "Burn with the dragon"
        )
        assert s["dragon"] and not s["coin"] and s["border"] == "dashed", s
    dear = [s for s in slots if s["why"]]
    assert dear, "a building too dear says why"
    for s in dear:
        slot = int(s["id"].split("-")[1])
        cost = game.cost_of(slot, me)
        assert cost > coins and s["why"] == f"You need {cost} coins, you have {coins}.", s
        assert s["why"] in s["label"], "its accessible name says why too"
    await laid_out(raw)
    await raw.evaluate("() => document.querySelector('.builders-panel').scrollIntoView({ block: 'center' })")
    await both_sizes(raw, tmp_path, "queendomino-build")
    # The burn: confirmed right beside the building tapped, in view.
    await page.tap(f"#{burn[0]['id']}")
    await raw.wait_for_selector("#burn-confirm")
    near = await raw.evaluate(
        """(id) => { const s = document.getElementById(id).getBoundingClientRect();
        const c = document.getElementById('burn-confirm').getBoundingClientRect();
        const dock = document.getElementById('dock').getBoundingClientRect();
        return { gap: c.top - s.bottom, inView: c.top >= 0 && c.bottom <= Math.min(innerHeight, dock.top) + 1 }; }""",
        burn[0]["id"],
    )
    assert 0 <= near["gap"] <= 60 and near["inView"], near
    assert "the dragon burns" in await raw.inner_text("#confirm")
    await laid_out(raw)
    await shoot(raw, tmp_path, "queendomino-burn-phone")
    await page.tap("#cancel")
    # The build: the building, then a free town square of the kingdom (marked, brought into view).
    await page.tap(f"#{build[0]['id']}")
    await raw.wait_for_selector(".cell-legal[id^=build-]")
    assert await raw.evaluate(
        "() => { const r = document.querySelector('.cell-legal[id^=build-]').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    version = await page.version()
    await page.tap(".cell-legal[id^=build-]")
    await page.wait_version_after(version)
    assert not await page.toast()
    after = (await local.service.games.get(gid)).game
    assert len(after.kingdoms[me].buildings) == len(game.kingdoms[me].buildings) + 1
    await context.close()


# -- a hint --------------------------------------------------------------------------------------------------------------
HINT = """async ([g, v]) => (await fetch(`api/games/${g}/hint`, {method: 'POST', headers: {'Content-Type':
  'application/json'}, body: JSON.stringify({version: v})})).json()"""


async def played_before(open_page, url: str) -> Page:
    """A browser whose first-game guide is done (the guide's card comes before the hint's button)."""
    page = await open_page(url)
    await page.page.context.add_init_script(GUIDE_DONE)
    await page.page.reload()
    return page


async def test_a_hint_against_computers_marks_a_legal_move_and_reveals_nothing(local, open_page, tmp_path):
    page = await played_before(open_page, local.board.url)
    gid = await open_table(page, "kingdomino", 2, 1, level="easy")
    rng = random.Random(4)
    shown = set()
    while len(shown) < 2:
        kind = await page.wait_turn()
        assert kind != "over"
        rec = await local.service.games.get(gid)
        await settled_at(page, rec.version)
        if kind in shown or kind not in ("place", "claim"):
            await play_step(page, rng)
            continue
        await page.tap("#hint")
        await page.page.wait_for_selector("#hint-line.ready", timeout=60_000)
        answer = await page.page.evaluate(HINT, [gid, rec.version])
        assert answer["status"] == "ready", answer
        action = answer["hint"]["action"]
        legal = [a.to_dict() for a in rec.game.legal_actions()]
        assert action in legal, (action, legal)
        visible = {d for d, _ in [*rec.game.current_line, *rec.game.next_line]}
        assert set(answer["hint"]) == {"kind", "action", "move", "line", "gain"}, "the move and its words, no more"
        if action["type"] == "place":
            assert str(domino(rec.game.decision().domino).number) in answer["hint"]["move"]
            assert await page.count("#hint-mark rect") == 2
        else:
            assert (
                action["domino"] in visible and await page.count(f".dom.hinted[data-domino='{action['domino']}']") == 1
            )
        words = (await page.page.inner_text("#hint-line")).strip()
        assert words.startswith("A good move, as the hard computer player sees it:") and "On average" in words
        await laid_out(page.page)
        await both_sizes(page.page, tmp_path, f"hint-{kind}")
        shown.add(kind)
        await play_step(page, rng)
        assert await page.count("#hint-line") == 0, "a hint goes with the position it was for"


async def test_a_hint_only_where_the_table_allows_it(local, open_page):
    async def two_people(hints: bool) -> tuple[int, aiohttp.ClientSession, aiohttp.ClientSession]:
        ann, bob = await person(local), await person(local)
        gid = (await posted(ann, "/api/games", {**table("kingdomino", 2, 0), "hints": hints}))["id"]
        await posted(bob, f"/api/games/{gid}/join", {"version": (await view_of(bob, gid))["version"]})
        await posted(ann, f"/api/games/{gid}/start", {"version": (await view_of(ann, gid))["version"]})
        return gid, ann, bob

    for hints in (False, True):
        gid, ann, bob = await two_people(hints)
        try:
            views = [await view_of(http, gid) for http in (ann, bob)]
            mover = next(i for i, v in enumerate(views) if v.get("actions"))
            http, view = (ann, bob)[mover], views[mover]
            assert view["hint"] is hints and view["hints"] is hints
            async with http.post(f"/api/games/{gid}/hint", json={"version": view["version"]}) as r:
                answer = await r.json()
            if hints:
                assert answer["ok"] and answer["status"] in ("pending", "ready"), answer
            else:
                assert answer["ok"] is False and answer["error"].startswith("Hints are off at this table"), answer
            other = (ann, bob)[1 - mover]
            async with other.post(f"/api/games/{gid}/hint", json={"version": view["version"]}) as r:
                answer = await r.json()
            assert answer["ok"] is False and "your own turn" in answer["error"], answer
        finally:
            await ann.close()
            await bob.close()
    rec = await local.service.games.get(gid)
    assert rec.status == GameStatus.PLAYING and rec.config.get("hints") is True
    # In the browser: the button at a local table against computers (once the guide's first turn is done).
    page = await played_before(open_page, local.board.url)
    gid = await open_table(page, "kingdomino", 2, 1, level="easy")
    await page.wait_turn("first_claim")
    assert await page.count("#hint") == 1, "a local table against computers has hints"
