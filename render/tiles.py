"""Terrain squares: colour, a pattern, the terrain's symbol and the crowns, cached per size.

Colour is never the only cue: every terrain has its own pattern and, in the corner, its symbol (the same at a table
in any language: English initials meant nothing at a Czech table, and Czech initials would clash, les and louka).
The ground and the symbol are the shared art's (render/art.py), which the web board draws too.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from . import art, fonts, icons
from .paint import paint
from .palette import RGB

SS = 3


@lru_cache(maxsize=512)
def _base(terrain: str, size: int) -> Image.Image:
    piece = art.piece(f"ground-{terrain}")
    px = size * SS
    im = Image.new("RGB", (px, px), piece.colour)
    paint(ImageDraw.Draw(im), piece.shapes[piece.ground :], 0, 0, px, piece.colour)
    return im.reduce(SS)


def letter_size(size: int) -> int:
    """Side of the terrain's symbol on a `size`-pixel square: 16 pixels or more from 38-pixel squares up, so it
    reads at 12 pixels or more when a phone shows the table at 0.78 (the symbol, not the colour, names it)."""
    return max(min(round(size * 0.42), 16), round(size * 0.3))


def crown_size(size: int) -> int:
    """Size of each crown icon on a `size`-pixel square (up to three fit side by side)."""
    return max(8, round(size * 0.3))


@lru_cache(maxsize=64)
def symbol_plate(terrain: str, size: int) -> Image.Image:
    """The terrain's symbol on its soft plate, as drawn in the corner of a `size`-pixel square (RGBA)."""
    _, plate = art.symbol_inks(terrain)
    s = letter_size(size)
    pad = max(2, round(s * 0.15))
    side = s + 2 * pad
    im = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    draw.rounded_rectangle((0, 0, side * SS - 1, side * SS - 1), radius=max(2, size // 16) * SS, fill=(*plate, 255))
    paint(draw, art.piece(f"symbol-{terrain}"), pad * SS, pad * SS, s * SS)
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
