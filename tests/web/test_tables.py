"""Local tables in the browser: two windows at one table, refusals shown on the board, the reader's language."""

from __future__ import annotations

import asyncio

import pytest

from tests.web.driver import play_to_end
from tests.web.test_games import open_table

pytestmark = pytest.mark.e2e


async def test_two_windows_at_one_local_table(local, open_page):
    first = await open_page(local.board.url, phone=True)
    gid = await open_table(first, "kingdomino", 2, 0)
    assert await first.wait_turn("lobby") == "lobby"
    second = await open_page(f"{local.board.url}?game={gid}", phone=False)  # another browser: its own cookies
    await second.wait_turn("lobby")
    await second.tap("#take-seat")
    await first.page.wait_for_function("() => !document.getElementById('take-seat')")  # the table is full
    assert await second.count("#start") == 0, "only the host starts"
    await first.tap("#start")
    a, b = await asyncio.gather(play_to_end(first, seed=1), play_to_end(second, seed=2))
    assert a and b, "both windows played"
    rec = await local.service.games.get(gid)
    assert rec.game.is_over
    people = {s.user_id for s in rec.seats}
    movers = {a.user_id for a in await local.service.store.get_actions(gid) if a.user_id is not None}
    assert movers == people and len(people) == 2


async def test_refusals_are_shown_on_the_board(local, open_page):
    page = await open_page(local.board.url)
    gid = await open_table(page, "kingdomino", 3, 2)
    await page.wait_turn("first_claim", "claim")
    before = (await local.service.games.get(gid)).version
    assert await page.count("#undo") == 0, "Undo is offered only while the server would do it"
    said = await page.page.evaluate(  # asked anyway (another program): refused, saying why
        "async ([g, v]) => (await fetch(`api/games/${g}/undo`, {method: 'POST', headers: {'Content-Type': "
        "'application/json'}, body: JSON.stringify({version: v})})).json()",
        [gid, before],
    )
    assert said["ok"] is False and (
        "no move to take back" in said["error"] or "can no longer be taken back" in said["error"]
    )
    assert (await local.service.games.get(gid)).version == before, "a refusal changes nothing"
    # A seat at a full table: refused with the reason, nothing changes.
    watcher = await open_page(f"{local.board.url}?game={gid}")
    await watcher.wait_turn("wait", "first_claim")
    answer = await watcher.page.evaluate(
        "async (g) => (await fetch(`api/games/${g}/join`, {method: 'POST', headers: {'Content-Type': "
        "'application/json'}, body: JSON.stringify({version: 1})})).json()",
        gid,
    )
    assert answer["ok"] is False and "lobby is closed" in answer["error"]


async def test_the_board_speaks_the_readers_language(local, open_page):
    page = await open_page(local.board.url, lang="cs-CZ")
    await page.page.wait_for_selector("#create")
    assert await page.page.get_attribute("html", "lang") == "cs"
    assert await page.page.inner_text("#create") == "Otevřít stůl"
    form = await page.page.inner_text("form")
    assert "Varianty" in form and "Dynastie" in form and "Tři hráči s řadami po čtyřech" in form, form
    await page.page.select_option("#lang", "es")
    await page.page.wait_for_function("() => document.documentElement.lang === 'es'")
    gid = await open_table(page, "queendomino", 2, 1)
    await page.wait_turn("first_claim")
    assert gid and "Es tu turno" in await page.page.inner_text("#status-line")
