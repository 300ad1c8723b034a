"""Shared drawing helpers: text that fits, panels, player colours and names, PNG encoding."""

from __future__ import annotations

import io
from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Game

from . import fonts
from .palette import PLAYER_COLOURS, RGB, TEXT

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive ends)

PNG_COMPRESS_LEVEL = 3


def encode(im: Image.Image) -> bytes:
    """The picture as PNG bytes, in 256 colours.

    These pictures hold a few hundred distinct colours at most (flat panels, tiles, smooth edges), so a fast octree
    palette is visually lossless, and an 8-bit PNG is about 3x smaller and twice as fast to write as a 24-bit one.
    """
    pal = im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


class Draw(ImageDraw.ImageDraw):
    """ImageDraw that remembers its picture, so text can be pasted from cached masks."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.image = image


@lru_cache(maxsize=4096)
def _fitted(s: str, size: int, bold: bool, max_width: float | None) -> str:
    f = fonts.font(size, bold)
    return fonts.fit(s, f, max_width) if max_width is not None else fonts.drawable(s, f)


@lru_cache(maxsize=4096)
def _mask(s: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image | None, int, int, float]:
    """The text drawn once as an 8-bit mask, its offset from the anchor point, and its advance width."""
    f = fonts.font(size, bold)
    x0, y0, x1, y1 = f.getbbox(s, anchor=anchor)
    width = f.getlength(s)
    if x1 <= x0 or y1 <= y0:
        return None, 0, 0, width
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), s, font=f, fill=255, anchor=anchor)
    return mask, x0, y0, width


def _clear() -> None:
    _fitted.cache_clear()
    _mask.cache_clear()


fonts.on_font_change(_clear)


def text(
    draw: Draw,
    xy: tuple[float, float],
    s: str,
    size: int,
    *,
    bold: bool = False,
    fill: RGB = TEXT,
    anchor: str = "la",
    max_width: float | None = None,
) -> float:
    """Draw `s` (cut with an ellipsis to `max_width`); returns the width drawn."""
    s = _fitted(s, size, bold, None if max_width is None else round(max_width))
    mask, dx, dy, width = _mask(s, size, bold, anchor)
    if mask is not None:
        draw.image.paste(fill, (round(xy[0]) + dx, round(xy[1]) + dy), mask)
    return width


def text_width(s: str, size: int, bold: bool = False) -> float:
    return _mask(_fitted(s, size, bold, None), size, bold, "la")[3]


def player_colours(game: Game, colours: Mapping[str, RGB] | None) -> dict[str, RGB]:
    """Every player's colour: the caller's, else the default palette by seat."""
    result = {p: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, p in enumerate(game.players)}
    if colours:
        result.update({p: tuple(c) for p, c in colours.items() if p in result})  # type: ignore[misc]
    return result


def player_names(game: Game, names: Mapping[str, str] | None) -> dict[str, str]:
    """Every player's display name: the caller's, else the player id."""
    result = {p: p for p in game.players}
    if names:
        result.update({p: str(n) for p, n in names.items() if p in result and str(n).strip()})
    return result


def kingdom_name(game: Game, index: int, names: Mapping[str, str]) -> str:
    return " & ".join(names[p] for p in game.kingdoms[index].players)


def kingdom_colour(game: Game, index: int, colours: Mapping[str, RGB]) -> RGB:
    return colours[game.kingdoms[index].players[0]]
