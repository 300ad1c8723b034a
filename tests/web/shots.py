"""What the board's browser tests of issue 46 share: screenshots kept where `KD_SHOTS` says (else the test's own
folder), and the layout's rules measured on any screen (tests/web/test_layout.py's MEASURE): tap targets at least
44 px, text at least 11 px, no two marks of a square overlapping, no text on a kingdom's squares."""

from __future__ import annotations

import os
from pathlib import Path

from tests.web.test_layout import MEASURE

LABELLED = """() => Object.fromEntries([...document.querySelectorAll('input[type=checkbox][id]')].map((b) => {
  const label = b.closest('label'); const r = label ? label.getBoundingClientRect() : { width: 0, height: 0 };
  return [b.id, Math.min(r.width, r.height)]; }))"""
PHONE_SIZE = {"width": 390, "height": 844}
LAPTOP_SIZE = {"width": 1366, "height": 768}


def shots_dir(tmp_path: Path) -> Path:
    where = Path(os.environ["KD_SHOTS"]) if os.environ.get("KD_SHOTS") else tmp_path
    where.mkdir(parents=True, exist_ok=True)
    return where


async def shoot(page, tmp_path: Path, name: str, *, full: bool = False) -> Path:
    """The page as it is (its animations done), saved as `<name>.png`."""
    await page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)"
    )
    path = shots_dir(tmp_path) / f"{name}.png"
    await page.screenshot(path=str(path), full_page=full)
    return path


async def both_sizes(page, tmp_path: Path, name: str) -> None:
    """`<name>-phone.png` at 390x844 and `<name>-laptop.png` at 1366x768, then back to the phone's size."""
    await page.set_viewport_size(PHONE_SIZE)
    await shoot(page, tmp_path, f"{name}-phone")
    await page.set_viewport_size(LAPTOP_SIZE)
    await shoot(page, tmp_path, f"{name}-laptop")
    await page.set_viewport_size(PHONE_SIZE)


async def laid_out(page) -> dict:
    """The layout's rules on the screen as it is; an assertion names what breaks them."""
    seen = await page.evaluate(MEASURE)
    # A checkbox is tapped by its whole label (the form's labels are 44 px tall at least): the label is its target.
    labelled = await page.evaluate(LABELLED)
    small = [t for t in seen["targets"] if t[0] < 44 and labelled.get(t[1], 0) < 44]
    assert not small, f"tap targets under 44 px: {small[:5]}"
    tiny = [t for t in seen["texts"] if t[0] < 11]
    assert not tiny, f"text under 11 px: {tiny[:5]}"
    assert seen["overlaps"] == [], f"marks overlap: {seen['overlaps'][:5]}"
    assert seen["squareTexts"] == [], f"text on a kingdom's squares: {seen['squareTexts'][:5]}"
    return seen
