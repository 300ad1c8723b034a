"""Terrain squares: colour, a pattern, the terrain's letter and the crowns, cached per size.

Colour is never the only cue: every terrain has its own pattern and, in the corner, its symbol (the same at a table
in any language: English initials meant nothing at a Czech table, and Czech initials would clash, les and louka).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

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
    """Side of the terrain's symbol on a `size`-pixel square: 16 pixels or more from 38-pixel squares up, so it
    reads at 12 pixels or more when a phone shows the table at 0.78 (the symbol, not the colour, names it)."""
    return max(min(round(size * 0.42), 16), round(size * 0.3))


def crown_size(size: int) -> int:
    """Size of each crown icon on a `size`-pixel square (up to three fit side by side)."""
    return max(8, round(size * 0.3))


def _symbol(draw: ImageDraw.ImageDraw, terrain: str, x: float, y: float, s: float, ink: RGB, paper: RGB) -> None:
    """The terrain's symbol in the box (x, y, x + s, y + s): the same in every language (wheat an ear, forest a fir,
    lake two waves, grassland a tuft, swamp reeds, mine a mountain, town a house)."""

    def P(u: float, v: float) -> tuple[float, float]:
        return (x + u * s, y + v * s)

    w = max(1, round(s * 0.13))
    if terrain == "wheat":
        draw.line([P(0.5, 1.0), P(0.5, 0.12)], fill=ink, width=w)
        for v in (0.22, 0.44, 0.66):
            draw.ellipse([P(0.16, v), P(0.46, v + 0.2)], fill=ink)
            draw.ellipse([P(0.54, v), P(0.84, v + 0.2)], fill=ink)
        draw.ellipse([P(0.38, 0.0), P(0.62, 0.26)], fill=ink)
    elif terrain == "forest":
        draw.polygon([P(0.5, 0.0), P(0.08, 0.74), P(0.92, 0.74)], fill=ink)
        draw.rectangle([P(0.4, 0.7), P(0.6, 1.0)], fill=ink)
    elif terrain == "lake":
        for v in (0.3, 0.72):
            draw.line([P(u / 8, v + (0.12 if i % 2 else -0.12)) for i, u in enumerate(range(9))], fill=ink, width=w,
                      joint="curve")  # fmt: skip
    elif terrain == "grassland":
        for apex, a, b in (((0.06, 0.18), 0.26, 0.46), ((0.5, 0.0), 0.4, 0.6), ((0.94, 0.18), 0.54, 0.74)):
            draw.polygon([P(*apex), P(a, 1.0), P(b, 1.0)], fill=ink)
    elif terrain == "swamp":
        draw.line([P(0.0, 0.94), P(1.0, 0.94)], fill=ink, width=w)
        for u, top in ((0.3, 0.0), (0.7, 0.22)):
            draw.line([P(u, 0.94), P(u, top + 0.1)], fill=ink, width=w)
            draw.rounded_rectangle([P(u - 0.12, top), P(u + 0.12, top + 0.42)], radius=s * 0.1, fill=ink)
    elif terrain == "mine":
        draw.polygon([P(0.0, 1.0), P(0.36, 0.08), P(0.58, 0.56), P(0.74, 0.34), P(1.0, 1.0)], fill=ink)
        draw.polygon([P(0.36, 0.08), P(0.27, 0.32), P(0.45, 0.32)], fill=paper)  # snow on the peak
    elif terrain == "town":
        draw.polygon([P(0.04, 0.46), P(0.5, 0.02), P(0.96, 0.46), P(0.86, 0.46), P(0.86, 1.0), P(0.14, 1.0),
                      P(0.14, 0.46)], fill=ink)  # fmt: skip
        draw.rectangle([P(0.4, 0.62), P(0.6, 1.0)], fill=paper)


@lru_cache(maxsize=64)
def symbol_plate(terrain: str, size: int) -> Image.Image:
    """The terrain's symbol on its soft plate, as drawn in the corner of a `size`-pixel square (RGBA)."""
    base = TERRAIN_COLOURS[terrain]
    ink = (20, 22, 28) if luminance(base) > 0.45 else (250, 250, 252)
    plate = mix(base, (0, 0, 0) if ink[0] > 128 else (255, 255, 255), 0.3)
    s = letter_size(size)
    pad = max(2, round(s * 0.15))
    side = s + 2 * pad
    im = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    draw.rounded_rectangle((0, 0, side * SS - 1, side * SS - 1), radius=max(2, size // 16) * SS, fill=(*plate, 255))
    _symbol(draw, terrain, pad * SS, pad * SS, s * SS, ink, plate)
    return im.resize((side, side), Image.Resampling.LANCZOS)


@lru_cache(maxsize=2048)
def terrain_tile(terrain: str, crowns: int, size: int, letter: bool = True) -> Image.Image:
    """A `size`-pixel square of `terrain` with its symbol (top left; `letter`) and `crowns` crown icons (bottom)."""
    im = _base(terrain, size).copy()
    if letter:
        plate = symbol_plate(terrain, size)
        at = max(1, round(size * 0.05))
        im.paste(plate, (at, at), plate)
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
    symbol_plate.cache_clear()


fonts.on_font_change(_clear)
