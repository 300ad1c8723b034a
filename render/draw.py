"""Shared drawing helpers: text that fits, panels, player colours and names, PNG encoding."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Game
from i18n import translate

from . import fonts
from .names import clean_name
from .palette import PLAYER_COLOURS, RGB, TEXT

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive ends)

PNG_COMPRESS_LEVEL = 3


def encode(im: Image.Image) -> bytes:
    """The picture as PNG bytes, in 256 colours.

    These pictures hold a few thousand distinct colours at most (flat panels, tiles, smooth edges), so 256 are
    visually lossless, and an 8-bit PNG is about 3x smaller and faster to write than a 24-bit one. The palette is
    chosen (fast octree) on a copy a quarter the size, then every pixel takes its nearest palette colour: three
    times faster than choosing it on the whole picture, and as close (largest error about 30 levels, on edges)."""
    small = im.reduce(4) if im.width >= 64 and im.height >= 64 else im
    palette = small.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    pal = im.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


class Draw(ImageDraw.ImageDraw):
    """ImageDraw that remembers its picture, so text can be pasted from cached masks."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.image = image


def _drawable_line(s: str) -> str:
    """`s` without what raqm cannot lay out on one line (controls, line and paragraph separators, bidi controls):
    a guard for any text, names are cleaned before already."""
    if s.isascii() and s.isprintable():
        return s
    breaks = "\n\r\t\u2028\u2029\x85"
    return "".join(" " if ch in breaks else ch for ch in s if ch in breaks or not _unlayable(ch))


def _unlayable(ch: str) -> bool:
    return (
        unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs") or "\u202a" <= ch <= "\u202e" or "\u2066" <= ch <= "\u2069"
    )


@lru_cache(maxsize=4096)
def _fitted(s: str, size: int, bold: bool, max_width: float | None) -> str:
    s = _drawable_line(s)
    f = fonts.font(size, bold)
    extra = () if s.isascii() else fonts.fallback_fonts(size, bold)
    if max_width is None:
        return "".join(t for t, _ in fonts.runs(s, f, extra))
    return fonts.fit(s, f, max_width, extra)


@lru_cache(maxsize=4096)
def _mask(s: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image | None, int, int, float]:
    """The text drawn once as an 8-bit mask, its offset from the anchor point, and its advance width."""
    f = fonts.font(size, bold)
    parts = fonts.runs(s, f, () if s.isascii() else fonts.fallback_fonts(size, bold))
    if len(parts) <= 1:
        s, f = parts[0] if parts else ("", f)
        x0, y0, x1, y1 = f.getbbox(s, anchor=anchor)
        width = f.getlength(s)
        if x1 <= x0 or y1 <= y0:
            return None, 0, 0, width
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        ImageDraw.Draw(mask).text((-x0, -y0), s, font=f, fill=255, anchor=anchor)
        return mask, x0, y0, width
    # Several fonts: lay the runs out on the main font's baseline, then place the whole as `anchor` asks.
    width = fonts.runs_length(parts)
    ascent, descent = f.getmetrics()
    pad = size  # room for a fallback font's taller letters
    mask = Image.new("L", (round(width) + 2 * pad, ascent + descent + 2 * pad), 0)
    draw = ImageDraw.Draw(mask)
    x = float(pad)
    for t, g in parts:
        draw.text((x, pad + ascent), t, font=g, fill=255, anchor="ls")
        x += g.getlength(t)
    box = mask.getbbox()
    if box is None:
        return None, 0, 0, width
    ax = {"l": 0.0, "m": width / 2, "r": width}.get(anchor[0], 0.0)
    ay = {"a": -ascent, "t": -ascent, "m": (descent - ascent) / 2, "s": 0, "b": descent, "d": descent}.get(anchor[1], 0)
    # Mask pixel (px, py) sits at (px - pad - ax, py - pad - ascent - ay) from the anchor point.
    dx = round(box[0] - pad - ax)
    dy = round(box[1] - pad - ascent - ay)
    return mask.crop(box), dx, dy, width


def _clear() -> None:
    _fitted.cache_clear()
    _mask.cache_clear()
    _badge.cache_clear()
    _token.cache_clear()
    _team_pill.cache_clear()


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
    for sizes in _size_recorders:
        if s.strip():
            sizes.append((s, size))
    mask, dx, dy, width = _mask(s, size, bold, anchor)
    if mask is not None:
        draw.image.paste(fill, (round(xy[0]) + dx, round(xy[1]) + dy), mask)
    return width


_size_recorders: list[list[tuple[str, int]]] = []


@contextmanager
def recording_sizes() -> Iterator[list[tuple[str, int]]]:
    """Every text drawn inside the block, with its font size in pixels: (text, size). Cached drawings (badges, kings,
    building plates) are emptied first, so they are drawn, and recorded, again."""
    fonts.set_font_loader(fonts._loader)  # empties every cache of drawn text
    sizes: list[tuple[str, int]] = []
    _size_recorders.append(sizes)
    try:
        yield sizes
    finally:
        _size_recorders.remove(sizes)


def text_width(s: str, size: int, bold: bool = False) -> float:
    return _mask(_fitted(s, size, bold, None), size, bold, "la")[3]


def fit_size(s: str, size: int, max_width: float, *, bold: bool = False, smallest: int | None = None) -> int:
    """The largest font size from `size` down to `smallest` (default: 80% of `size`, at least 12) at which `s` fits
    in `max_width`; `smallest` when none does (text() then cuts it). A longer translation is drawn a little smaller
    before it is cut."""
    low = smallest if smallest is not None else max(12, round(size * 0.8))
    while size > low and text_width(s, size, bold) > round(max_width):  # text() cuts at the rounded width
        size -= 1
    return size


def player_colours(game: Game, colours: Mapping[str, RGB] | None) -> dict[str, RGB]:
    """Every player's colour: the caller's, else the default palette by seat."""
    result = {p: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, p in enumerate(game.players)}
    if colours:
        result.update({p: tuple(c) for p, c in colours.items() if p in result})  # type: ignore[misc]
    return result


def player_names(game: Game, names: Mapping[str, str] | None, lang: str = "en") -> dict[str, str]:
    """Every player's display name, cleaned (see clean_name): the caller's, else the player id; a name with nothing
    the fonts can draw becomes "Player N" in `lang` (N the seat number drawn beside it)."""
    result = {}
    given = dict(names or {})
    for seat, p in enumerate(game.players, start=1):
        name = clean_name(given.get(p, p), fallback=p)
        if not _fitted(name, 20, True, None).strip():
            name = f"Player {seat}" if lang == "en" else translate(lang, "Player {number}", number=seat)
        result[p] = name
    return result


def seat_of(game: Game, player: str) -> int:
    """The player's seat number, 1..N, drawn on their badge."""
    return game.players.index(player) + 1


def fit_names(names: Mapping[str, str], size: int, width: float, bold: bool = True) -> dict[str, str]:
    """Each name cut to `width` pixels at `size`; where two cut names would read the same, they are cut in the
    middle instead ("Bot…(easy)", "Bot…(hard)"), keeping both ends."""
    cut = {p: _fitted(n, size, bold, round(width)) for p, n in names.items()}
    f = fonts.font(size, bold)
    for attempt in (_middle, _from_difference):
        clashes = _clashes(cut, names)
        if not clashes:
            break
        extra = fonts.fallback_fonts(size, bold)
        for group in clashes:
            for p in group:
                cut[p] = attempt(names[p], [names[q] for q in group if q != p], f, width, extra)
    return cut


def _clashes(cut: Mapping[str, str], names: Mapping[str, str]) -> list[list[str]]:
    seen: dict[str, list[str]] = {}
    for p, c in cut.items():
        seen.setdefault(c, []).append(p)
    return [same for same in seen.values() if len(same) > 1 and len({names[p] for p in same}) > 1]


def _middle(name: str, others: list[str], f, width: float, extra) -> str:
    return fonts.fit_middle(name, f, width, extra)


def _from_difference(name: str, others: list[str], f, width: float, extra) -> str:
    """The name's start, an ellipsis, then the name from where it first differs from the others."""
    at = 0
    while at < len(name) and any(o[: at + 1] == name[: at + 1] for o in others):
        at += 1
    if at <= 4:
        return fonts.fit(name, f, width, extra)
    return fonts.fit(name[:3].rstrip() + fonts.ellipsis(f) + name[at - 1 :], f, width, extra)


def kingdom_name(game: Game, index: int, names: Mapping[str, str]) -> str:
    return " & ".join(names[p] for p in game.kingdoms[index].players)


def kingdom_colour(game: Game, index: int, colours: Mapping[str, RGB]) -> RGB:
    return colours[game.kingdoms[index].players[0]]


def seat_badge(im: Image.Image, draw: Draw, x: float, y: float, d: int, colour: RGB, seat: int) -> None:
    """The player's seat number in a disc of their colour, top-left at (x, y), `d` pixels across: with the name,
    it tells players apart where colours alone would not (colour blindness, eight players, a name no font has)."""
    badge = _badge(d, tuple(colour), seat)
    im.paste(badge, (round(x), round(y)), badge)


@lru_cache(maxsize=256)
def _badge(d: int, colour: RGB, seat: int) -> Image.Image:
    from .palette import OUTLINE, ink_on

    ss = 4
    disc = Image.new("RGBA", (d * ss, d * ss), (0, 0, 0, 0))
    ImageDraw.Draw(disc).ellipse((0, 0, d * ss - 1, d * ss - 1), fill=(*colour, 255), outline=(*OUTLINE, 255),
                                 width=max(ss, d * ss // 9))  # fmt: skip
    disc = disc.resize((d, d), Image.Resampling.LANCZOS)
    text(Draw(disc), (d / 2, d / 2 + 0.5), str(seat), max(8, round(d * 0.68)), bold=True, fill=ink_on(colour),
         anchor="mm")  # fmt: skip
    return disc


def king_token(im: Image.Image, draw: Draw, x: float, y: float, size: int, colour: RGB, seat: int) -> float:
    """A king in the player's colour with their seat badge at its foot, top-left at (x, y); returns its width."""
    token = _token(size, tuple(colour), seat)
    im.paste(token, (round(x), round(y)), token)
    return size + _badge_size(size) * 0.45


def _badge_size(size: int) -> int:
    """The seat badge's diameter on a king of `size` pixels: 24 or more, so its number is drawn at 16 pixels (12 when
    a phone shows the table at 0.78)."""
    return max(24, round(size * 0.5))


@lru_cache(maxsize=256)
def _token(size: int, colour: RGB, seat: int) -> Image.Image:
    from . import icons

    d = _badge_size(size)
    token = Image.new("RGBA", (size + d, size + 2), (0, 0, 0, 0))
    king = icons.icon("king", size, colour)
    token.alpha_composite(king, (0, 0))
    badge = _badge(d, colour, seat)
    token.alpha_composite(badge, (round(size - d * 0.55), size - d))
    return token


def team_mark(im: Image.Image, draw: Draw, x: float, cy: float, h: int, letter: str, a: RGB, b: RGB) -> float:
    """A team's mark: a pill split in its two players' colours with the team letter; returns its width."""
    pill = _team_pill(h, letter, tuple(a), tuple(b))
    im.paste(pill, (round(x), round(cy - h / 2)), pill)
    return pill.width


@lru_cache(maxsize=64)
def _team_pill(h: int, letter: str, a: RGB, b: RGB) -> Image.Image:
    from .palette import OUTLINE

    w = round(h * 1.5)
    pill = Image.new("RGBA", (w, h), (*a, 255))
    d = Draw(pill)
    d.rectangle((w // 2, 0, w, h), fill=(*b, 255))
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, outline=(*OUTLINE, 255), width=2)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, fill=255)
    pill.putalpha(mask)
    r = h * 0.36
    d.ellipse((w / 2 - r, h / 2 - r, w / 2 + r, h / 2 + r), fill=(*OUTLINE, 255))
    text(d, (w / 2, h / 2 + 0.5), letter, max(16, round(h * 0.5)), bold=True, fill=(250, 250, 252), anchor="mm")
    return pill


def team_letter(game: Game, kingdom_index: int) -> str | None:
    """Teams are lettered A, B, C, D in the order of their kingdoms (None when kingdoms are not shared)."""
    return chr(ord("A") + kingdom_index) if game.config.teams else None
