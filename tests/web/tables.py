"""Seeded tables of each mode for the board's layout tests (tests/web/test_layout.py) and its screenshots: a person
against random computer players, played over HTTP to a fixed point of the game, then seen in Chromium as that person
at a phone's size (390x844, touch) or a laptop's (1366x768)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import aiohttp

from web import auth

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}


@dataclass(frozen=True)
class Mode:
    name: str
    kind: str
    players: int
    teams: bool = False
    screens: float = 2.5  # the page's height at 390x844 when it is the person's move, at most, in screens
    fits_laptop: bool = True  # the whole table at 1366x768 without scrolling


MODES = (
    Mode("kingdomino-2", "kingdomino", 2, screens=1.5),
    Mode("kingdomino-4", "kingdomino", 4, screens=2.5),
    Mode("queendomino-4", "queendomino", 4, screens=2.5),
    Mode("royal-wedding-8", "royal-wedding", 8, teams=True, screens=4, fits_laptop=False),
)


async def seeded_table(local, mode: Mode, *, seed: int = 7, rounds: int = 3, step: str = "place") -> tuple[int, int]:
    """A game of `mode` with one person, played (the person's best placement, first free claim, no optional step)
    until round `rounds` at the person's `step`; returns (game id, the person's user id)."""
    local.service.seeds = random.Random(seed)
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        body = {"kind": mode.kind, "players": mode.players, "computers": mode.players - 1, "level": "random",
                "teams": mode.teams, "language": "en"}  # fmt: skip
        async with http.post("/api/games", json=body) as r:
            answer = await r.json()
            assert r.status == 200, answer
            gid = answer["id"]
        while True:
            await local.service.idle()
            async with http.get(f"/api/games/{gid}") as r:
                view = await r.json()
            assert view.get("turn") is not None, "the game ended before the point wanted"
            actions = view["actions"]
            if actions["kind"] == step and view["round"] >= rounds:
                break
            async with http.post(
                f"/api/games/{gid}/act", json={"version": view["version"], "action": move(actions)}
            ) as r:
                assert (await r.json())["ok"]
    rec = await local.service.games.get(gid)
    return gid, next(s.user_id for s in rec.seats if s.user_id)


def move(actions: dict) -> dict:
    if actions.get("place"):
        p = max(actions["place"], key=lambda p: (p["gain"], -p["row"], -p["col"], p["dir"]))
        return {"type": "place", "cell": [p["row"], p["col"]], "direction": p["dir"]}
    if actions["kind"] in ("claim", "first_claim"):
        return {"type": "claim", "domino": sorted(actions["claim"])[0]}
    return {"type": "skip"}


GUIDE_DONE = "localStorage.setItem('kd_guide', JSON.stringify({first: true, placed: true, tax: true, build: true, dragon: true}))"


async def open_as(browser, local, gid: int, person: int, device: dict, *, guide: bool = False, **options):
    """A browser context signed in as `person`, on the game's board, once it is drawn; returns (context, page).
    `guide`: a browser that never played (the first-game guide shows), else one whose guide is done."""
    context = await browser.new_context(**{"locale": "en-US", **device, **options})
    if not guide:  # a browser that played before: the first-game guide is done (tests/web/test_newcomer.py shows it)
        await context.add_init_script(GUIDE_DONE)
    await context.add_cookies(
        [{"name": auth.COOKIE, "value": auth.Session((person,)).cookie(local.board.secret), "url": local.board.url}]
    )
    page = await context.new_page()
    await page.goto(f"{local.board.url}?game={gid}")
    await page.wait_for_function("() => ['place','claim','first_claim','tax','build','dragon','wait','over']"
                                 ".includes(document.querySelector('main').dataset.turn)")  # fmt: skip
    return context, page
