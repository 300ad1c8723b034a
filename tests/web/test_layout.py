"""The table at a glance (issue #45), measured in Chromium in a game of each mode (Kingdomino for 2 and 4,
Queendomino for 4, Royal Wedding for 8 in teams) at a phone's size (390x844, touch) and a laptop's (1366x768), when
it is the person's move: every tap target at least 44x44 CSS px, no text under 11 px, the page no taller than the
issue's bounds (1.5 screens for a 2-player Kingdomino, 2.5 for 4 players, 4 for Royal Wedding 8; the whole table of
2-4 players at 1366x768), no text on a kingdom's square, no two marks on a square overlapping, and, after a tap on a
square, the preview and Confirm in view with the page where it was. Phone screenshots of each mode are kept as
small goldens (tests/web/golden/table-<mode>-phone.png, compared with a tolerance); `KD_UPDATE_GOLDENS=1` writes
new ones (look at them before committing), `KD_SHOTS=<dir>` keeps this run's screenshots there."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

from tests.web.tables import LAPTOP, MODES, PHONE, Mode, open_as, seeded_table
from tests.web.test_golden import differs

pytestmark = pytest.mark.e2e

GOLDEN = Path(__file__).parent / "golden"
TOLERANCE = 0.03  # share of pixels allowed to differ (anti-aliasing, font hinting)
FIGURES = Path(os.environ["KD_FIGURES"]) if os.environ.get("KD_FIGURES") else None  # the measures, for the report

MEASURE = """() => {
  const shown = (r) => r.width > 0 && r.height > 0;
  const out = { targets: [], texts: [], height: document.documentElement.scrollHeight, squareTexts: [], overlaps: [] };
  const interactive = 'a[href], button, select, input, summary, [role=button], [tabindex]:not([tabindex="-1"])';
  for (const node of document.querySelectorAll(interactive)) {
    if (node.closest('.sprite') || node.id === 'main') continue;
    const r = node.getBoundingClientRect();
    if (!shown(r) || getComputedStyle(node).visibility === 'hidden') continue;
    out.targets.push([Math.round(Math.min(r.width, r.height) * 10) / 10, node.id || node.className.baseVal || node.className || node.tagName]);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.textContent.trim()) continue;
    const range = document.createRange(); range.selectNodeContents(t);
    const rects = [...range.getClientRects()].filter((r) => r.width > 1 && r.height > 1);
    if (!rects.length) continue;
    const parent = t.parentElement;
    let size = parseFloat(getComputedStyle(parent).fontSize);
    if (parent.closest('svg')) size *= parent.closest('svg').getScreenCTM().a;
    out.texts.push([Math.round(size * 10) / 10, t.textContent.trim().slice(0, 30)]);
    const k = parent.closest('section.kingdom');
    const svg = k && k.querySelector('.ksvg');
    if (parent.closest('.ksvg') || (svg && rects.some((r) => { const s = svg.getBoundingClientRect();
      return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom; }))) out.squareTexts.push(t.textContent.trim());
  }
  for (const svg of document.querySelectorAll('svg.ksvg, svg.domino')) {
    const marks = [...svg.querySelectorAll('.mark')].map((m) => [m.getBoundingClientRect(), m.getAttribute('href') + '@' + (m.dataset.cell || '')]);
    for (let i = 0; i < marks.length; i++) for (let j = i + 1; j < marks.length; j++) {
      const [a, an] = marks[i], [b, bn] = marks[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > 0.5) out.overlaps.push(`${an} / ${bn}`);
    }
  }
  out.marks = document.querySelectorAll('.ksvg .mark').length;
  out.cut = [...document.querySelectorAll('.who, .kname')].filter((n) => n.scrollWidth > n.clientWidth + 1)
    .map((n) => [n.clientWidth, n.textContent]);
  return out;
}"""

WHOLE_ON_FOCUS = """() => {
  const cut = [...document.querySelectorAll('.who, .kname')].filter((n) => n.scrollWidth > n.clientWidth + 1);
  return cut.map((n) => { n.closest('[tabindex]').focus(); const whole = n.scrollWidth <= n.clientWidth + 1;
    document.activeElement.blur(); return [n.textContent, whole]; });
}"""

IN_VIEW = """() => {
  const p = document.getElementById('preview'), c = document.getElementById('confirm');
  const top = document.querySelector('.top').getBoundingClientRect().bottom;
  const dock = document.getElementById('dock');
  const bottom = getComputedStyle(dock).position === 'sticky' ? dock.getBoundingClientRect().top : innerHeight;
  const r = p.getBoundingClientRect(), b = c.getBoundingClientRect();
  return { preview: r.top >= top - 1 && r.bottom <= bottom + 1 && r.left >= -1 && r.right <= innerWidth + 1,
           confirm: b.top >= 0 && b.bottom <= innerHeight && b.width > 0, scrollY, cell: r.height };
}"""


SHOWN = """() => Object.fromEntries([...document.querySelectorAll('section.kingdom')].map((s) => [s.id.slice(8),
  [[...s.querySelectorAll('.kcols span')].map((x) => x.textContent.charCodeAt(0) - 65),
   [...s.querySelectorAll('.krows span')].map((x) => +x.textContent - 1)]]))"""


def framed(shown: dict, game, placing: int | None) -> None:
    """Each kingdom is shown in the cells it spans and a ring around them, never past what it can still reach (the
    engine's frame: a 7x7 kingdom is never a 13x13 grid); the one placing, in the cells its domino can cover."""
    for index, (cols, rows) in shown.items():
        k = game.kingdoms[int(index)]
        top, left, bottom, right = k.frame()
        assert cols == list(range(cols[0], cols[-1] + 1)) and rows == list(range(rows[0], rows[-1] + 1))
        assert left <= cols[0] and cols[-1] <= right and top <= rows[0] and rows[-1] <= bottom, (index, cols, rows)
        ring = 2 if int(index) == placing else 1
        b_top, b_left, b_bottom, b_right = k.bounds()
        assert len(cols) <= b_right - b_left + 1 + 2 * ring and len(rows) <= b_bottom - b_top + 1 + 2 * ring
        assert len(cols) <= k.size + 2 and len(rows) <= k.size + 2, f"kingdom {index}: {len(cols)}x{len(rows)}"


def record(mode: Mode, device: str, what: str, value) -> None:
    if FIGURES is not None:
        FIGURES.mkdir(parents=True, exist_ok=True)
        with (FIGURES / "layout.txt").open("a") as out:
            out.write(f"{mode.name} {device} {what}: {value}\n")


def check(mode: Mode, device: str, seen: dict, viewport: dict) -> None:
    smallest = min(seen["targets"])
    record(mode, device, "height", seen["height"])
    record(mode, device, "smallest target", smallest)
    record(mode, device, "smallest text", min(seen["texts"]))
    assert smallest[0] >= 44, f"a tap target under 44 px: {sorted(seen['targets'])[:5]}"
    assert min(seen["texts"])[0] >= 11, f"text under 11 px: {sorted(seen['texts'])[:5]}"
    assert seen["squareTexts"] == [], f"text on a kingdom's squares: {seen['squareTexts']}"
    assert seen["overlaps"] == [], f"marks overlap: {seen['overlaps'][:8]}"
    assert seen["marks"] > 0
    # Names whole, cut with an ellipsis only past a width (never "P…"), and whole again on focus.
    assert all(width >= 48 for width, _name in seen["cut"]), f"names cut too short: {seen['cut']}"
    if device == "phone":
        limit = mode.screens * viewport["height"]
        assert seen["height"] <= limit, f"{seen['height']} px tall, more than {mode.screens} screens ({limit:.0f})"
    elif mode.fits_laptop:
        assert seen["height"] <= viewport["height"], f"{seen['height']} px tall: the table does not fit 1366x768"


@pytest.mark.parametrize("mode", MODES, ids=[m.name for m in MODES])
async def test_the_table_at_a_glance(local, browser, mode, tmp_path):
    gid, person = await seeded_table(local, mode)
    for device, options in (("laptop", LAPTOP), ("phone", PHONE)):
        context, page = await open_as(browser, local, gid, person, options)
        errors = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        assert await page.get_attribute("main", "data-turn") == "place"
        check(mode, device, await page.evaluate(MEASURE), options["viewport"])
        game = (await local.service.games.get(gid)).game
        framed(await page.evaluate(SHOWN), game, game.decision().kingdom)
        # A tap on the lowest marked square of the kingdom, the kingdom scrolled to the bottom of the screen: the
        # preview shows there and Confirm with it; the page moves at most by a square (no jump to the top).
        await page.evaluate("() => document.querySelector('.main-k .ksvg').scrollIntoView({ block: 'end' })")
        lowest = await page.evaluate(
            "() => { const c = [...document.querySelectorAll('.cell-legal[id^=cell-]')];"
            " c.sort((a, b) => b.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom); return c[0].id; }"
        )
        await page.locator(f"#{lowest}").scroll_into_view_if_needed()
        before = await page.evaluate("() => scrollY")
        if device == "phone":
            await page.locator(f"#{lowest}").tap()
        else:
            await page.locator(f"#{lowest}").click()
        await page.wait_for_selector("#preview")
        view = await page.evaluate(IN_VIEW)
        record(mode, device, "after a tap", {**view, "before": before})
        assert view["preview"] and view["confirm"], f"the preview or Confirm out of view after a tap: {view}"
        assert abs(view["scrollY"] - before) <= view["cell"], f"the page jumped from {before} to {view['scrollY']}"
        check(mode, device, await page.evaluate(MEASURE), options["viewport"])
        if device == "phone":
            assert all(whole for _name, whole in await page.evaluate(WHOLE_ON_FOCUS)), (
                "a name cut short stays cut on focus"
            )
            await golden(page, mode, tmp_path)
        await context.close()
        assert not errors, errors


async def golden(page, mode: Mode, tmp_path: Path) -> None:
    """The whole phone page (the viewport as tall as the page: the turn's bar in its place at the end) against its
    golden, taken with the preview of the tapped placement."""
    height = await page.evaluate("() => document.documentElement.scrollHeight")
    await page.set_viewport_size({"width": 390, "height": height})
    await page.evaluate("() => document.activeElement && document.activeElement.blur()")
    await page.wait_for_function("() => document.getAnimations().length === 0")
    picture = await page.screenshot()
    name = f"table-{mode.name}-phone.png"
    shots = Path(os.environ["KD_SHOTS"]) if os.environ.get("KD_SHOTS") else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    (shots / name).write_bytes(picture)
    path = GOLDEN / name
    if os.environ.get("KD_UPDATE_GOLDENS") == "1" or not path.exists():
        Image.open(io.BytesIO(picture)).convert("P", palette=Image.Palette.ADAPTIVE, colors=256).save(
            path, optimize=True
        )
        if os.environ.get("KD_UPDATE_GOLDENS") != "1":
            pytest.fail(f"no golden yet: wrote {path}; look at it, then commit it")
        return
    share = differs(picture, path)
    assert share <= TOLERANCE, f"{share:.1%} of the pixels differ from {path} (this run: {shots / name})"


NAMES = """() => [...document.querySelectorAll('section.kingdom .ksvg g.sq[role=img]')]
  .map((g) => [g.dataset.terrain, g.getAttribute('aria-label'), g.textContent.trim()])"""


async def test_a_square_is_known_by_its_drawing_and_named_in_the_readers_language(local, browser):
    """A Czech reader: every square of every kingdom is named with its terrain in Czech (its cell and crowns too),
    and shows no letter: its only text is its title (the tooltip), never drawn."""
    from web.strings import page_strings

    gid, person = await seeded_table(local, MODES[2])
    context, page = await open_as(browser, local, gid, person, PHONE, locale="cs-CZ")
    squares = await page.evaluate(NAMES)
    seen = await page.evaluate(MEASURE)
    await context.close()
    words = page_strings("cs")["terrains"]
    assert len(squares) >= 12
    for terrain, label, title in squares:
        assert words[terrain] in label, f"{label!r} does not name {terrain} in Czech ({words[terrain]})"
        assert title == label
    assert {t for t, _, _ in squares} >= {"wheat", "forest"}
    assert seen["squareTexts"] == []
