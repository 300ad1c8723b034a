"""A newcomer's path (issue 46), in fresh browser contexts at a phone's size (390x844, touch): the first-game guide
shows the first turn's taps one after the other (choose a spot, confirm, take your next domino) with marks on the
real controls, each step saying what and why; a whole first game of Kingdomino played following it; then it is
never shown again (another turn, a reload, a new table), nor after it was skipped; in the reader's language."""

from __future__ import annotations

import random

import pytest

from tests.web.driver import Page, play_step
from tests.web.shots import both_sizes, laid_out, shoot
from tests.web.test_games import open_table
from tests.web.test_layout import IN_VIEW
from web.strings import page_strings

pytestmark = pytest.mark.e2e

STEP = "() => { const g = document.getElementById('guide'); return g ? g.dataset.step : null; }"
MARKED = "(sel) => [...document.querySelectorAll(sel)].map((n) => n.classList.contains('guide-mark'))"
IN_SIGHT = """() => { const n = document.querySelector('.guide-mark'); const r = n.getBoundingClientRect();
  const dock = document.getElementById('dock').getBoundingClientRect();
  return r.bottom > 0 && r.top < Math.min(innerHeight, dock.top) && r.height > 0; }"""


async def step_of(page: Page) -> str | None:
    return await page.page.evaluate(STEP)


async def tapped(page: Page, selector: str) -> None:
    """Tap `selector` and wait until the page drew what followed (a later version, or a refusal)."""
    version = await page.version()
    await page.tap(selector)
    await page.wait_version_after(version)
    assert not await page.toast(), await page.toast()


async def all_marked(page: Page, selector: str) -> None:
    marks = await page.page.evaluate(MARKED, selector)
    assert marks and all(marks), f"the guide marks every {selector}: {marks}"


async def test_a_newcomer_follows_the_guide_through_a_whole_first_game(local, open_page, tmp_path):
    page = await open_page(local.board.url)
    words = page_strings("en")
    await open_table(page, "kingdomino", 2, 1)
    # Before round 1: the king's first domino (twice: two kings each with 2 players).
    assert await page.wait_turn("first_claim") == "first_claim"
    assert await step_of(page) == "welcome"
    assert await page.page.inner_text("#guide .guide-text") == words["guide_welcome"]
    await all_marked(page, ".dom.legal")
    await shoot(page.page, tmp_path, "guide-welcome-phone")
    while await page.wait_turn("first_claim", "place") == "first_claim":
        await tapped(page, ".dom.legal.guide-mark")
    # Step 1 of 3: a spot, every legal square marked; the tip says what and why.
    assert await step_of(page) == "spot"
    text = await page.page.inner_text("#guide")
    assert "1 of 3" in text and "castle or a square of the same terrain" in text and "5x5" in text, text
    await all_marked(page, ".cell-legal[id^=cell-]")
    assert await page.count("#tip") == 0, "the guide's card says it: no second tip"
    await laid_out(page.page)
    await both_sizes(page.page, tmp_path, "guide-spot")
    await page.tap(".cell-legal.guide-mark")
    # Step 2 of 3: confirm (the preview and Confirm in view; Confirm marked).
    await page.page.wait_for_selector("#guide[data-step=confirm]")
    assert "2 of 3" in await page.page.inner_text("#guide")
    assert await page.page.evaluate("() => document.getElementById('confirm').classList.contains('guide-mark')")
    view = await page.page.evaluate(IN_VIEW)
    assert view["preview"] and view["confirm"], view
    await laid_out(page.page)
    await shoot(page.page, tmp_path, "guide-confirm-phone")
    await tapped(page, "#confirm")
    # Step 3 of 3: the next domino, the line brought into view.
    assert await page.wait_turn("claim") == "claim"
    await page.page.wait_for_selector("#guide[data-step=next]")
    assert "3 of 3" in await page.page.inner_text("#guide")
    await all_marked(page, ".dom.legal")
    assert await page.page.evaluate(IN_SIGHT), "the marked next line is in view"
    await shoot(page.page, tmp_path, "guide-next-phone")
    await tapped(page, ".dom.legal.guide-mark")
    stored = await page.page.evaluate("() => JSON.parse(localStorage.getItem('kd_guide'))")
    assert stored.get("first") is True, stored
    # The rest of the game: never the guide again.
    rng = random.Random(5)
    steps = 0
    while (kind := await page.wait_turn()) != "over":
        assert await step_of(page) is None, f"the guide came back at a {kind} step"
        await play_step(page, rng)
        steps += 1
    assert steps >= 8
    # A reload, a new table: still not.
    await page.page.reload()
    await page.wait_turn("over")
    assert await page.count("#guide") == 0
    await page.goto(local.board.url)
    await open_table(page, "kingdomino", 2, 1)
    await page.wait_turn("first_claim")
    assert await page.count("#guide") == 0 and await page.count("#tip") == 1


async def test_a_skipped_guide_is_never_shown_again(local, open_page):
    page = await open_page(local.board.url)
    await open_table(page, "kingdomino", 3, 2)
    await page.wait_turn("first_claim")
    await page.page.wait_for_selector("#guide")
    await page.tap("#guide-skip")
    await page.page.wait_for_function(
        "() => !document.getElementById('guide') && !document.querySelector('.guide-mark')"
    )
    await page.page.reload()
    await page.wait_turn("first_claim")
    assert await page.count("#guide") == 0
    await tapped(page, ".dom.legal")
    assert await page.wait_turn("place") == "place"
    assert await page.count("#guide") == 0 and await page.count(".guide-mark") == 0


@pytest.mark.parametrize("lang", ["cs", "es", "ro"])
async def test_the_guide_speaks_the_readers_language(local, open_page, lang):
    page = await open_page(local.board.url, lang={"cs": "cs-CZ", "es": "es-ES", "ro": "ro-RO"}[lang])
    words = page_strings(lang)
    await open_table(page, "kingdomino", 3, 2)
    await page.wait_turn("first_claim")
    assert await page.page.inner_text("#guide .guide-text") == words["guide_welcome"]
    assert await page.page.inner_text("#guide-skip") == words["guide_skip"]
    await tapped(page, ".dom.legal")
    await page.wait_turn("place")
    assert await page.page.inner_text("#guide .guide-text") == words["guide_spot"].replace("{size}", "5")


async def test_queendominos_tax_build_and_dragon_are_guided_when_they_first_come(local, open_page, tmp_path):
    """Each of Queendomino's optional steps gets the guide's card (marking its controls) the first time it comes,
    then never again; a whole game played."""
    page = await open_page(local.board.url)
    await open_table(page, "queendomino", 2, 1)
    marks = {"tax": "[id^=tax-]", "build": ".slot.build", "dragon": ".slot.burn"}
    guided: dict[str, int] = {}
    later: list[str] = []
    rng = random.Random(9)
    while (kind := await page.wait_turn()) != "over":
        step = await step_of(page)
        if kind in marks:
            if kind not in guided:
                assert step == kind, f"no guide at the first {kind} step"
                await all_marked(page, marks[kind])
                guided[kind] = await page.version()
                if kind == "tax":
                    await laid_out(page.page)
                    await shoot(page.page, tmp_path, "guide-tax-phone")
            elif step == kind:
                later.append(kind)
        await play_step(page, rng)
    assert "tax" in guided and ("build" in guided or "dragon" in guided), guided
    assert later == [], f"the guide came back at {later}"
    stored = await page.page.evaluate("() => JSON.parse(localStorage.getItem('kd_guide'))")
    assert all(stored.get(k) for k in guided), stored
