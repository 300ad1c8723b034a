"""Small drawn icons: crowns, kings, knights, towers, coins, the queen, the dragon, castles and buildings.

Each is the shared art's piece (render/art.py: shapes in a unit square, the same the web board draws) painted at
four times its size and scaled down (smooth edges), then cached: an icon is an RGBA image to paste with itself as
the mask.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from . import art
from .paint import paint
from .palette import RGB

SS = 4  # supersampling factor


ICONS = art.ICONS


@lru_cache(maxsize=1024)
def icon(kind: str, size: int, colour: RGB | None = None) -> Image.Image:
    """An RGBA icon `size` pixels square: a piece of the shared art (`art.pieces()`: "crown", "king",
    "building-bakery"...). `colour` tints kings, knights, castle flags and the like."""
    piece = art.piece(kind)
    size = max(4, int(size))
    px = size * SS
    image = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    tint = tuple(colour) if colour else piece.colour
    paint(ImageDraw.Draw(image), piece, 0, 0, px, tint, edge_min=SS)  # type: ignore[arg-type]
    return image.resize((size, size), Image.Resampling.LANCZOS)


def paste(target: Image.Image, kind: str, x: float, y: float, size: int, colour: RGB | None = None) -> None:
    """Paste an icon with its top-left corner at (x, y)."""
    im = icon(kind, size, colour)
    target.paste(im, (round(x), round(y)), im)
