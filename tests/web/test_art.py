"""One art, two renderers (issue #45): every piece of render/art.py drawn at the same size by Pillow (the pictures
the bot posts) and by Chromium from the SVG symbols the board's page defines (the page as served, its symbols
`<use>`d), compared by shape: the intersection over union of their masks is at least 0.9 for every piece, so the
two can never drift apart. A piece's mask is where it is drawn (alpha); a terrain's ground fills its whole square,
so its mask is where its pattern and bevel differ from its flat colour."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from render import art, icons

pytestmark = pytest.mark.e2e

SIZE = 128  # pixels: each piece, by both renderers
GAP = 8
COLUMNS = 8
TINT = (230, 97, 1)  # a seat's colour for the pieces that take one (kings, knights, castles)
LEAST_IOU = 0.9

PLACE = """([keys, size, gap, columns, tint]) => {
  const box = document.createElement('div');
  box.id = 'art-test';
  box.style.cssText = `position:fixed;left:0;top:0;width:${columns * (size + gap)}px;z-index:99;background:transparent`;
  keys.forEach((key, i) => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', size); svg.setAttribute('height', size); svg.setAttribute('color', tint);
    svg.style.cssText = `position:absolute;left:${(i % columns) * (size + gap)}px;top:${Math.floor(i / columns) * (size + gap)}px`;
    const use = document.createElementNS('http://www.w3.org/2000/svg', 'use');
    use.setAttribute('href', '#' + key); use.setAttribute('width', size); use.setAttribute('height', size);
    svg.append(use);
    box.append(svg);
  });
  document.body.append(box);
  document.querySelector('.top').style.display = 'none';
  document.querySelector('main').style.display = 'none';
  document.documentElement.style.background = 'transparent';
  document.body.style.background = 'transparent';
}"""


def mask(im: Image.Image, piece: art.Piece) -> Image.Image:
    """Where the piece is drawn: its alpha; for a terrain's ground, where it differs from its flat colour."""
    im = im.convert("RGBA")
    if piece.ground:
        # halfway between the flat colour and its faintest ink: a pattern's edge counts on both sides alike
        inks = art.pattern_inks(piece.key.removeprefix("ground-"))
        half = min(max(abs(a - b) for a, b in zip(ink, piece.colour, strict=True)) for ink in inks) / 2
        flat = Image.new("RGB", im.size, piece.colour)
        diff = ImageChops.difference(im.convert("RGB"), flat)
        most = ImageChops.lighter(ImageChops.lighter(diff.getchannel(0), diff.getchannel(1)), diff.getchannel(2))
        return most.point(lambda v: 255 if v > half else 0)
    return im.getchannel("A").point(lambda v: 255 if v > 127 else 0)


def iou(a: Image.Image, b: Image.Image) -> float:
    both = ImageChops.logical_and(a.convert("1"), b.convert("1"))
    either = ImageChops.logical_or(a.convert("1"), b.convert("1"))
    union = sum(1 for v in either.getdata() if v)
    return sum(1 for v in both.getdata() if v) / union if union else 1.0


async def chromium_pieces(browser, url: str, keys: list[str]) -> dict[str, Image.Image]:
    rows = (len(keys) + COLUMNS - 1) // COLUMNS
    width, height = COLUMNS * (SIZE + GAP), rows * (SIZE + GAP)
    context = await browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_selector("svg.sprite symbol#crown", state="attached")
    tint = "#{:02x}{:02x}{:02x}".format(*TINT)
    await page.evaluate(PLACE, [keys, SIZE, GAP, COLUMNS, tint])
    shot = Image.open(io.BytesIO(await page.screenshot(omit_background=True))).convert("RGBA")
    await context.close()
    out = {}
    for i, key in enumerate(keys):
        x, y = (i % COLUMNS) * (SIZE + GAP), (i // COLUMNS) * (SIZE + GAP)
        out[key] = shot.crop((x, y, x + SIZE, y + SIZE))
    return out


async def test_every_piece_has_the_same_shape_in_both_renderers(local, browser, tmp_path):
    pieces = art.pieces()
    keys = list(pieces)
    drawn = await chromium_pieces(browser, local.board.url, keys)
    scores = {}
    for key in keys:
        piece = pieces[key]
        pillow = icons.icon(key, SIZE, TINT if piece.tinted else None)
        scores[key] = iou(mask(pillow, piece), mask(drawn[key], piece))
        if os.environ.get("KD_SHOTS"):
            both = Image.new("RGBA", (2 * SIZE + GAP, SIZE), (35, 41, 52, 255))
            both.alpha_composite(pillow, (0, 0))
            both.alpha_composite(drawn[key], (SIZE + GAP, 0))
            both.save(Path(os.environ["KD_SHOTS"]) / f"art-{key}.png")
    print("\n".join(f"IoU {key}: {score:.3f}" for key, score in scores.items()))
    assert len(scores) == len(art.ICONS) + 2 * len(art.TERRAINS) + len(art.BUILDING_DRAWINGS)
    worst = {key: round(score, 3) for key, score in scores.items() if score < LEAST_IOU}
    assert not worst, f"these pieces differ between Pillow and the page's SVG: {worst}"


def test_the_mask_comparison_can_tell_pieces_apart():
    """The measure itself: two different pieces score well under the bar, one piece against itself scores 1."""
    pieces = art.pieces()
    king = mask(icons.icon("king", SIZE), pieces["king"])
    knight = mask(icons.icon("knight", SIZE), pieces["knight"])
    assert iou(king, king) == 1.0
    assert iou(king, knight) < 0.75, "two pieces of a like size (both on a round base) still differ"
    moved = Image.new("L", king.size, 0)
    moved.paste(king, (SIZE // 10, 0))
    assert iou(king, moved) < LEAST_IOU, "a piece drawn a tenth of its size off fails"
