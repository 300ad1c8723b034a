"""Whole games on the board by taps, against computer players, on a phone and on a desktop: Kingdomino,
Queendomino and Royal Wedding, from the page that opens a table to the final scores."""

from __future__ import annotations

import pytest

from db.models import GameStatus
from tests.web.driver import play_to_end

pytestmark = pytest.mark.e2e

GAMES = {
    # game: (players, variants) - the shortest mode of each game, one person against the fastest computers
    "kingdomino": (2, []),
    "queendomino": (2, []),
    "royal-wedding": (5, []),
}


async def open_table(page, kind: str, players: int, computers: int, level: str = "easy") -> int:
    await page.page.wait_for_selector("#create")
    await page.page.select_option("#kind", kind)
    await page.page.fill("#players", str(players))
    await page.page.fill("#computers", str(computers))
    await page.page.select_option("#level", level)
    await page.tap("#create")
    await page.page.wait_for_url("**/?game=*")
    return int(page.page.url.rsplit("=", 1)[1])


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
@pytest.mark.parametrize("kind", list(GAMES))
async def test_whole_game_by_taps(local, open_page, kind, phone, tmp_path):
    players, _ = GAMES[kind]
    page = await open_page(local.board.url, phone=phone)
    gid = await open_table(page, kind, players, players - 1)
    steps = await play_to_end(page, seed=players)
    # The end: the final scores on the board, and the game finished in the store with every move logged.
    final = await page.page.inner_text("#final")
    assert "Kingdom" in final or "points" in final or final.strip()
    assert await page.page.locator(".scores tbody tr").count() == len(
        (await local.service.games.get(gid)).game.kingdoms
    )
    rec = await local.service.games.get(gid)
    assert rec.status == GameStatus.FINISHED and rec.game.is_over
    person = next(s for s in rec.seats if not s.is_computer)
    logged = await local.service.store.get_actions(gid)
    mine = [a for a in logged if a.user_id == person.user_id]
    assert {"place", "claim"} <= {a.action["type"] for a in mine}
    assert len(mine) >= steps.count("place")
    if kind != "kingdomino":
        assert {"tax", "build"} & {a.action["type"] for a in mine}, "the person used the Queendomino steps"
    await page.page.screenshot(path=str(tmp_path / f"{kind}-{'phone' if phone else 'desktop'}.png"), full_page=True)
