"""Pieces on the board's kingdoms do not hide each other: a knight sent to tax on a town square that later holds a
building stands in the building's top band, beside its towers, never on its picture (it once covered the building's
label), every building's picture stays inside its square, each built square shows that building's own picture (the
shared art's, as the builders' board shows it) with its name as the square's title, and each kingdom's legend names
the pictures it shows (the labels once showed a name's first six letters: "Big Ta"; then a code, "BT", in English)."""

from __future__ import annotations

import random

import aiohttp
import pytest

from engine import Build, Tax, cell_name
from engine.components import building
from web import auth

pytestmark = pytest.mark.e2e

OVERLAPS = """() => {
  const inside = (a, b) => a.x >= b.x - 0.5 && a.y >= b.y - 0.5 && a.x + a.width <= b.x + b.width + 0.5 &&
    a.y + a.height <= b.y + b.height + 0.5;
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const out = { buildings: 0, knights: 0, covered: [], spilled: [], kingdoms: {} };
  for (const section of document.querySelectorAll('section.kingdom')) {
    out.kingdoms[section.id] = {
      pictures: [...section.querySelectorAll('svg g.building use.mark.building')].map((u) => u.getAttribute('href')),
      titles: [...section.querySelectorAll('svg g.building > title')].map((t) => t.textContent),
      legend: [...section.querySelectorAll('p.legend span')].map((s) => s.textContent),
      legendPictures: [...section.querySelectorAll('p.legend span use')].map((u) => u.getAttribute('href')),
    };
    const svg = section.querySelector('svg.ksvg');
    const cols = +getComputedStyle(section.querySelector('.kgrid')).getPropertyValue('--cols');
    const box = svg.getBoundingClientRect(), cell = box.width / cols;
    const pictures = [...svg.querySelectorAll('use.mark.building')];
    const knights = [...svg.querySelectorAll('use.mark.knight')].map((k) => k.getBoundingClientRect());
    out.buildings += pictures.length; out.knights += knights.length;
    for (const p of pictures) {
      const r = p.getBoundingClientRect();
      const col = Math.floor((r.left + r.width / 2 - box.left) / cell), row = Math.floor((r.top + r.height / 2 - box.top) / cell);
      const square = new DOMRect(box.left + col * cell, box.top + row * cell, cell, cell);
      if (!inside(r, square)) out.spilled.push(p.getAttribute('href'));
      for (const k of knights) if (meet(k, r)) out.covered.push(p.getAttribute('href'));
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
    await page.wait_for_function("() => document.querySelectorAll('svg use.mark.knight').length > 0")
    seen = await page.evaluate(OVERLAPS)
    await context.close()
    assert seen["buildings"] >= 1 and seen["knights"] >= 1, seen
    assert seen["covered"] == [], f"knights cover these buildings' pictures: {seen['covered']}"
    assert seen["spilled"] == [], f"these pictures run out of their squares: {seen['spilled']}"
    assert not errors
    # Each built square shows its building's own picture, named in the square's title and in the legend beside
    # the same picture.
    game = (await local.service.games.get(gid)).game
    for index, k in enumerate(game.kingdoms):
        shown = seen["kingdoms"][f"kingdom-{index}"]
        built = [(cell_name(*cell), bid) for cell, (bid, _towers) in sorted(k.buildings.items())]
        assert shown["pictures"] == [f"#building-{bid}" for _cell, bid in built], shown
        assert shown["titles"] == [f"{building(bid).name} ({cell})" for cell, bid in built], shown
        names = sorted({(building(bid).name, bid) for _cell, bid in built})
        assert shown["legend"] == [name for name, _bid in names], shown
        assert shown["legendPictures"] == [f"#building-{bid}" for _name, bid in names], shown
