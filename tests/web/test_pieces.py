"""Pieces on the board's kingdoms do not hide each other: a knight sent to tax on a town square that later holds a
building stands below the building's label (it covered the name), every label's code stays inside its label, and
each kingdom's legend says what its codes stand for (the labels once showed a name's first six letters: "Big Ta")."""

from __future__ import annotations

import random

import aiohttp
import pytest

from engine import Build, Tax, cell_name
from engine.components import building
from render.kingdom import game_building_codes
from web import auth

pytestmark = pytest.mark.e2e

OVERLAPS = """() => {
  const inside = (a, b) => a.x >= b.x - 0.5 && a.y >= b.y - 0.5 && a.x + a.width <= b.x + b.width + 0.5 &&
    a.y + a.height <= b.y + b.height + 0.5;
  const meet = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const out = { buildings: 0, knights: 0, covered: [], spilled: [], kingdoms: {} };
  for (const section of document.querySelectorAll('section.kingdom')) {
    out.kingdoms[section.id] = {
      codes: [...section.querySelectorAll('svg g.building text')].map((t) => t.textContent),
      titles: [...section.querySelectorAll('svg g.building title')].map((t) => t.textContent),
      legend: [...section.querySelectorAll('p.legend span')].map((s) => s.textContent),
    };
  }
  for (const svg of document.querySelectorAll('svg')) {
    const labels = [...svg.querySelectorAll('g.building')].map((g) => [g.querySelector('rect').getBBox(),
      g.querySelector('text')]);
    const knights = [...svg.querySelectorAll('g.knight circle')].map((c) => c.getBBox());
    out.buildings += labels.length; out.knights += knights.length;
    for (const [box, text] of labels) {
      if (!inside(text.getBBox(), box)) out.spilled.push(text.textContent);
      for (const k of knights) if (meet(k, box)) out.covered.push(text.textContent);
    }
  }
  return out;
}"""


async def knight_on_a_building(local) -> tuple[int, int]:
    """A two-person Queendomino game, played (taxes and buildings first) until a knight stands on a building;
    returns the game and the person whose kingdom that is."""
    board, service = local.board, local.service
    service.seeds = random.Random(3)
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(base_url=board.url, cookie_jar=jar) as host:
        body = {"kind": "queendomino", "players": 2, "computers": 0, "level": "random"}
        async with host.post("/api/games", json=body) as r:
            gid = (await r.json())["id"]
        async with aiohttp.ClientSession(base_url=board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as guest:
            rec = await service.games.get(gid)
            async with guest.post(f"/api/games/{gid}/join", json={"version": rec.version}) as r:
                assert (await r.json())["ok"]
        rec = await service.games.get(gid)
        async with host.post(f"/api/games/{gid}/start", json={"version": rec.version}) as r:
            assert (await r.json())["ok"]
    rng = random.Random(5)
    while True:
        await service.idle()
        rec = await service.games.get(gid)
        game = rec.game
        for index, k in enumerate(game.kingdoms):
            if any(cell in k.buildings for cell in k.knights_placed):
                return gid, rec.seats[index].user_id
        assert not game.is_over, "no knight ever stood on a building: choose another seed"
        seat = rec.seat_of(game.decision().player)
        actions = game.legal_actions()
        eager = [a for a in actions if isinstance(a, Build | Tax)]
        await service.play(gid, seat.user_id, rng.choice(eager or actions), expected_version=rec.version)


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
async def test_a_knight_on_a_building_leaves_its_label_whole(local, browser, phone):
    from tests.web.conftest import DESKTOP, PHONE

    gid, person = await knight_on_a_building(local)
    context = await browser.new_context(**(PHONE if phone else DESKTOP), locale="en-US")
    await context.add_cookies(
        [{"name": auth.COOKIE, "value": auth.Session((person,)).cookie(local.board.secret), "url": local.board.url}]
    )
    page = await context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(f"{local.board.url}?game={gid}")
    await page.wait_for_function("() => document.querySelectorAll('svg g.knight').length > 0")
    seen = await page.evaluate(OVERLAPS)
    await context.close()
    assert seen["buildings"] >= 1 and seen["knights"] >= 1, seen
    assert seen["covered"] == [], f"knights cover these buildings' labels: {seen['covered']}"
    assert seen["spilled"] == [], f"these codes run out of their labels: {seen['spilled']}"
    assert not errors
    # Each label shows the building's code, as the Discord picture does; the legend and the title name it whole.
    game = (await local.service.games.get(gid)).game
    codes = game_building_codes("en")
    for index, k in enumerate(game.kingdoms):
        shown = seen["kingdoms"][f"kingdom-{index}"]
        built = [(cell_name(*cell), bid) for cell, (bid, _towers) in sorted(k.buildings.items())]
        assert shown["codes"] == [codes[bid] for _cell, bid in built], shown
        assert shown["titles"] == [f"{building(bid).name} ({cell})" for cell, bid in built], shown
        assert shown["legend"] == sorted({f"{codes[bid]} {building(bid).name}" for _cell, bid in built}), shown
