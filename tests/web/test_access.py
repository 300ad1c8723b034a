"""The board by keyboard and for screen readers: a turn without a pointer, every control named, moves announced."""

from __future__ import annotations

import pytest

from tests.web.test_games import open_table

pytestmark = pytest.mark.e2e

NAMELESS = """() => [...document.querySelectorAll('button, [role=button], select, a')]
  .filter((e) => !(e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || e.textContent.trim()))
  .map((e) => e.outerHTML.slice(0, 80))"""


async def tab_to(page, selector: str, limit: int = 400) -> str:
    """Press Tab until the focused element matches `selector`; returns its id."""
    for _ in range(limit):
        await page.page.keyboard.press("Tab")
        found = await page.page.evaluate(
            "(s) => document.activeElement.matches(s) && document.activeElement.id", selector
        )
        if found:
            return found
    raise AssertionError(f"Tab never reached {selector}")


async def test_turns_by_keyboard_with_names_and_announcements(local, open_page):
    page = await open_page(local.board.url, phone=False)
    await open_table(page, "kingdomino", 2, 1)
    played = []
    while len(played) < 8:
        kind = await page.wait_turn()
        assert kind != "over"
        version = await page.version()
        if kind == "place":
            await tab_to(page, ".cell-legal[id^=cell-]")
            await page.page.keyboard.press("Enter")
            await page.page.wait_for_function("() => document.activeElement.id === 'confirm'")  # focus moves on
            await page.page.keyboard.press("Enter")
        else:
            await tab_to(page, ".dom.legal")
            await page.page.keyboard.press(" ")
        await page.wait_version_after(version)
        assert not await page.toast()
        played.append(kind)
        assert await page.page.evaluate(NAMELESS) == []
    assert "place" in played
    # The moves, the computer's included, were announced in the live region, not only drawn.
    said = await page.page.inner_text("#announce")
    assert "Bot 1" in said and ("placed domino" in said or "chose domino" in said), said
    assert await page.page.get_attribute("#announce", "aria-live") == "polite"
