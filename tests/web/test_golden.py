"""What a phone and a desktop show, kept as small golden pictures: a seeded Queendomino table in the middle of the
person's turn (tax step), drawn by Chromium at 390x844 and 1366x900. A picture that differs on more than a few
percent of its pixels fails; `KD_UPDATE_GOLDENS=1` writes new ones (look at them before committing)."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import aiohttp
import pytest
from PIL import Image, ImageChops

pytestmark = pytest.mark.e2e

GOLDEN = Path(__file__).parent / "golden"
TOLERANCE = 0.03  # share of pixels allowed to differ (anti-aliasing, font hinting)


async def seeded_table(local) -> int:
    """A Queendomino game at a fixed point: the person has placed their domino and faces the tax step."""
    local.service.seeds = random.Random(7)
    async with aiohttp.ClientSession(base_url=local.board.url) as http:
        body = {"kind": "queendomino", "players": 2, "computers": 1, "level": "random", "language": "en"}
        async with http.post("/api/games", json=body) as r:
            gid = (await r.json())["id"]
            cookies = r.cookies
        http.cookie_jar.update_cookies(cookies)
        while True:
            await local.service.idle()
            async with http.get(f"/api/games/{gid}") as r:
                view = await r.json()
            actions = view["actions"]
            if actions["kind"] == "tax" and view["round"] >= 3:
                return gid
            if actions.get("place"):
                p = max(actions["place"], key=lambda p: (p["gain"], -p["row"], -p["col"]))
                action = {"type": "place", "cell": [p["row"], p["col"]], "direction": p["dir"]}
            elif actions["kind"] in ("claim", "first_claim"):
                action = {"type": "claim", "domino": sorted(actions["claim"])[0]}
            else:
                action = {"type": "skip"}
            async with http.post(f"/api/games/{gid}/act", json={"version": view["version"], "action": action}) as r:
                assert (await r.json())["ok"]


def differs(picture: bytes, golden: Path) -> float:
    new = Image.open(io.BytesIO(picture)).convert("RGB")
    old = Image.open(golden).convert("RGB")
    if new.size != old.size:
        return 1.0
    diff = ImageChops.difference(new, old).convert("L").point(lambda v: 255 if v > 40 else 0)
    return sum(diff.histogram()[255:]) / (new.size[0] * new.size[1])


@pytest.mark.parametrize(("name", "size"), [("phone", (390, 844)), ("desktop", (1366, 900))])
async def test_the_board_looks_as_it_did(local, browser, name, size, tmp_path):
    gid = await seeded_table(local)
    # The person's cookie: the same browser that opened the table (the golden shows the tax targets).
    rec = await local.service.games.get(gid)
    person = next(s.user_id for s in rec.seats if s.user_id)
    from web import auth

    context = await browser.new_context(
        viewport={"width": size[0], "height": size[1]}, device_scale_factor=1, locale="en-US"
    )
    from tests.web.tables import GUIDE_DONE

    await context.add_init_script(GUIDE_DONE)  # a browser that played before (tests/web/test_newcomer.py: the guide)
    await context.add_cookies(
        [{"name": auth.COOKIE, "value": auth.Session((person,)).cookie(local.board.secret), "url": local.board.url}]
    )
    page = await context.new_page()
    await page.goto(f"{local.board.url}?game={gid}")
    await page.wait_for_function("() => document.querySelector('main').dataset.turn === 'tax'")
    picture = await page.screenshot()
    await context.close()
    golden = GOLDEN / f"queendomino-tax-{name}.png"
    if os.environ.get("KD_UPDATE_GOLDENS") == "1" or not golden.exists():
        GOLDEN.mkdir(exist_ok=True)
        Image.open(io.BytesIO(picture)).convert("P", palette=Image.Palette.ADAPTIVE, colors=256).save(
            golden, optimize=True
        )
        if os.environ.get("KD_UPDATE_GOLDENS") != "1":
            pytest.fail(f"no golden yet: wrote {golden}; look at it, then commit it")
        return
    (tmp_path / golden.name).write_bytes(picture)
    share = differs(picture, golden)
    assert share <= TOLERANCE, f"{share:.1%} of the pixels differ from {golden} (this run: {tmp_path / golden.name})"
