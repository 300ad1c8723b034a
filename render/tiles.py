"""Terrain squares: colour, a pattern, the terrain's letter and the crowns, cached per size.

Colour is never the only cue: every terrain has its own pattern and its letter in the corner.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.components import TERRAIN_LETTER

from . import fonts, icons
from .palette import RGB, TERRAIN_COLOURS, luminance, mix

SS = 3


def _shade(c: RGB, amount: float) -> RGB:
    """Darker (amount < 0) or lighter (amount > 0) version of `c`."""
    return mix(c, (255, 255, 255), amount) if amount > 0 else mix(c, (0, 0, 0), -amount)


def _pattern(draw: ImageDraw.ImageDraw, terrain: str, px: int, base: RGB) -> None:
    """Draw the terrain's pattern on a `px`-square canvas (unit coordinates scaled by px)."""
    w = max(1, round(px * 0.035))
    light = luminance(base) > 0.45
    ink = _shade(base, -0.22 if light else 0.16)
    ink2 = _shade(base, -0.12 if light else 0.1)

    def P(x: float, y: float) -> tuple[float, float]:
        return (x * px, y * px)

    # Every pattern leaves the middle of the square clear, so its colour shows there plainly.
    if terrain == "wheat":  # stalks with ears
        for x in (0.16, 0.33, 0.71, 0.88):
            draw.line([P(x, 0.9), P(x - 0.03, 0.42)], fill=ink, width=w)
            for k in range(3):
                y = 0.44 + k * 0.1
                draw.line([P(x - 0.03, y), P(x - 0.09, y - 0.07)], fill=ink, width=w)
                draw.line([P(x - 0.03, y), P(x + 0.03, y - 0.07)], fill=ink, width=w)
    elif terrain == "forest":  # little fir trees
        for x, y, s in (
            (0.24, 0.42, 0.18),
            (0.74, 0.34, 0.2),
            (0.5, 0.86, 0.16),
            (0.18, 0.82, 0.14),
            (0.84, 0.8, 0.15),
        ):
            draw.polygon([P(x, y - s), P(x - s * 0.7, y + s * 0.6), P(x + s * 0.7, y + s * 0.6)], fill=ink)
            draw.line([P(x, y + s * 0.6), P(x, y + s * 0.9)], fill=ink, width=w)
    elif terrain == "lake":  # waves
        for y in (0.32, 0.7, 0.88):
            pts = []
            for i in range(13):
                x = 0.08 + i * 0.07
                pts.append(P(x, y + (0.035 if i % 2 else -0.035)))
            draw.line(pts, fill=ink, width=w, joint="curve")
    elif terrain == "grassland":  # tufts
        for x, y in ((0.24, 0.45), (0.64, 0.36), (0.36, 0.72), (0.8, 0.64), (0.16, 0.9), (0.62, 0.9), (0.88, 0.9)):
            for dx in (-0.06, 0.0, 0.06):
                draw.line([P(x, y), P(x + dx, y - 0.1 + abs(dx) * 0.6)], fill=ink, width=w)
    elif terrain == "swamp":  # reeds over still water
        for y in (0.66, 0.84):
            draw.line([P(0.1, y), P(0.9, y)], fill=ink2, width=w)
        for x in (0.2, 0.34, 0.68, 0.82):
            draw.line([P(x, 0.76), P(x, 0.36)], fill=ink, width=w)
            draw.ellipse([P(x - 0.035, 0.3), P(x + 0.035, 0.46)], fill=ink)
    elif terrain == "mine":  # rocks and ore
        for x, y, s in ((0.2, 0.44, 0.06), (0.76, 0.38, 0.07), (0.3, 0.72, 0.05), (0.66, 0.7, 0.06), (0.86, 0.6, 0.04),
                        (0.14, 0.88, 0.05), (0.5, 0.84, 0.05), (0.82, 0.88, 0.06)):  # fmt: skip
            draw.polygon(
                [P(x - s, y), P(x - s * 0.3, y - s), P(x + s, y - s * 0.6), P(x + s * 0.8, y + s * 0.7)], fill=ink
            )
        for x, y in ((0.34, 0.36), (0.7, 0.86)):
            draw.ellipse([P(x - 0.03, y - 0.03), P(x + 0.03, y + 0.03)], fill=(226, 190, 90))
    elif terrain == "town":  # roofs and walls
        for x, y in ((0.24, 0.5), (0.77, 0.44), (0.5, 0.82)):
            draw.rectangle([P(x - 0.1, y), P(x + 0.1, y + 0.12)], fill=ink2)
            draw.polygon([P(x - 0.14, y + 0.01), P(x, y - 0.12), P(x + 0.14, y + 0.01)], fill=ink)


@lru_cache(maxsize=512)
def _base(terrain: str, size: int) -> Image.Image:
    base = TERRAIN_COLOURS[terrain]
    px = size * SS
    im = Image.new("RGB", (px, px), base)
    draw = ImageDraw.Draw(im)
    _pattern(draw, terrain, px, base)
    # A bevel: light top-left, dark bottom-right, so squares read as tiles.
    b = max(SS, round(px * 0.035))
    draw.polygon([(0, 0), (px, 0), (px - b, b), (b, b), (b, px - b), (0, px)], fill=_shade(base, 0.22))
    draw.polygon([(px, px), (0, px), (b, px - b), (px - b, px - b), (px - b, b), (px, 0)], fill=_shade(base, -0.25))
    return im.reduce(SS)


def letter_size(size: int) -> int:
    """Font size of the terrain letter on a `size`-pixel square (large: the letter, not the colour, names it)."""
    return max(9, round(size * 0.36))


def crown_size(size: int) -> int:
    """Size of each crown icon on a `size`-pixel square (up to three fit side by side)."""
    return max(8, round(size * 0.3))


@lru_cache(maxsize=2048)
def terrain_tile(terrain: str, crowns: int, size: int, letter: bool = True) -> Image.Image:
    """A `size`-pixel square of `terrain` with its letter (top left) and `crowns` crown icons (bottom)."""
    im = _base(terrain, size).copy()
    base = TERRAIN_COLOURS[terrain]
    if letter:
        f = fonts.font(letter_size(size), True)
        pad = max(2, round(size * 0.07))
        ink = (20, 22, 28) if luminance(base) > 0.45 else (250, 250, 252)
        draw = ImageDraw.Draw(im)
        # A soft plate under the letter keeps it legible over the pattern.
        text = TERRAIN_LETTER[terrain]
        box = draw.textbbox((pad, pad), text, font=f)
        plate = mix(base, (0, 0, 0) if ink[0] > 128 else (255, 255, 255), 0.3)
        draw.rounded_rectangle((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), radius=max(2, size // 16), fill=plate)
        draw.text((pad, pad), text, font=f, fill=ink)
    if crowns:
        c = crown_size(size)
        gap = max(1, round(c * 0.06))
        total = crowns * c + (crowns - 1) * gap
        x = (size - total) / 2
        y = size - c - max(2, round(size * 0.06))
        for _ in range(crowns):
            icons.paste(im, "crown", x, y, c)
            x += c + gap
    return im


@lru_cache(maxsize=64)
def empty_tile(size: int, fill: RGB, edge: RGB) -> Image.Image:
    im = Image.new("RGB", (size, size), fill)
    ImageDraw.Draw(im).rectangle((0, 0, size - 1, size - 1), outline=edge)
    return im


def _clear() -> None:
    terrain_tile.cache_clear()


fonts.on_font_change(_clear)
