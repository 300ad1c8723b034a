"""Motion that tells what happened (issue #45): a domino slides from its line into its kingdom, a king moves to its
claim, a building lands, the dragon burns its building, each once and under 400 ms; nothing moves for a reader who
asks for reduced motion; the page never shows a blank table between two versions (each version replaces the
last in one step); and a placement drawn at once is put back when the server refuses it."""

from __future__ import annotations

import random

import pytest

from tests.web.driver import Page, play_step
from tests.web.tables import PHONE
from tests.web.test_games import open_table

pytestmark = pytest.mark.e2e

WATCH = """() => {
  window.__motion = { animations: [], ghosts: 0, blanks: 0, versions: [], idle: [] };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    const run = animate.call(this, frames, options);
    window.__motion.animations.push(typeof options === 'number' ? options : options.duration);
    return run;
  };
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'childList' && r.removedNodes.length && !r.addedNodes.length) window.__motion.blanks++;
        if (r.type === 'attributes') {
          window.__motion.versions.push(document.querySelector('main').dataset.version);
          window.__motion.idle.push(document.getAnimations().length);
        }
      }
    }).observe(document.querySelector('main'), { childList: true, attributes: true, attributeFilter: ['data-version'] });
    new MutationObserver((records) => { for (const r of records) window.__motion.ghosts += r.addedNodes.length; })
      .observe(document.getElementById('fx'), { childList: true });
  });
}"""


async def played(local, browser, *, reduced: bool) -> dict:
    """A Kingdomino table against a computer, a few of the person's turns by taps, watched."""
    context = await browser.new_context(
        **PHONE, locale="en-US", reduced_motion="reduce" if reduced else "no-preference"
    )
    await context.add_init_script(script=f"({WATCH})()")
    page = Page(await context.new_page())
    await page.goto(local.board.url)
    await open_table(page, "kingdomino", 2, 1)
    rng = random.Random(4)
    steps = []
    while steps.count("place") < 3:
        kind = await page.wait_turn()
        assert kind != "over"
        steps.append(await play_step(page, rng))
    await page.wait_turn()
    await page.page.wait_for_function("() => document.getAnimations().length === 0")
    seen = await page.page.evaluate("() => window.__motion")
    await context.close()
    assert not page.errors, page.errors
    return seen


async def test_what_changed_plays_once_each_under_400_ms_and_nothing_blinks(local, browser):
    seen = await played(local, browser, reduced=False)
    assert seen["animations"], "nothing moved"
    assert max(seen["animations"]) < 400, seen["animations"]
    assert seen["ghosts"] >= 2, "a domino flew from its line into its kingdom, a king to its claim"
    assert seen["blanks"] == 0, "the table was taken down before the next version was up"
    assert len(seen["versions"]) >= 6


async def test_nothing_moves_under_reduced_motion(local, browser):
    seen = await played(local, browser, reduced=True)
    assert seen["animations"] == [] and seen["ghosts"] == 0, seen
    assert set(seen["idle"]) == {0}, "an animation ran as a version was drawn"
    assert seen["blanks"] == 0
    assert len(seen["versions"]) >= 6


async def test_a_move_drawn_at_once_is_put_back_when_the_server_refuses_it(local, browser):
    """The board draws a placement as soon as it is confirmed; when the server answers no (here: the table changed,
    as when someone else moved first), the table is put back as it was and the refusal is said."""
    from tests.web.tables import MODES, open_as, seeded_table

    gid, person = await seeded_table(local, MODES[0])
    context, page = await open_as(browser, local, gid, person, PHONE)
    refusal = "The table changed meanwhile: look again."
    await page.route("**/act", lambda route: route.fulfill(status=200, json={"ok": False, "error": refusal}))
    domino = await page.evaluate("() => document.querySelector('.dom.acting').dataset.domino")
    await page.evaluate(
        """(d) => { window.__shown = false; new MutationObserver(() => { if (document.querySelector(
          `.main-k g.placed-dom[data-domino="${d}"]`)) window.__shown = true; })
          .observe(document.querySelector('main'), { childList: true, subtree: true }); }""",
        domino,
    )
    await page.locator(".cell-legal[id^=cell-]").first.tap()
    await page.locator("#confirm").tap()
    await page.wait_for_selector("#toast:not([hidden])")
    assert await page.inner_text("#toast") == refusal
    assert await page.evaluate("() => window.__shown"), "the placement was drawn at once"
    assert await page.locator(f'.main-k g.placed-dom[data-domino="{domino}"]').count() == 0, "and put back"
    assert await page.get_attribute("main", "data-turn") == "place"
    assert await page.locator(".cell-legal[id^=cell-]").count() > 0
    await context.close()
