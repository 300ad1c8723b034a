"""Fonts: DejaVu Sans from the system (Debian's fonts-dejavu-core), or Pillow's built-in scalable font, and
fallbacks for the letters they lack: Noto Sans CJK (the pinned PyPI package noto-cjk-sans-otc) for Chinese,
Japanese and Korean, DejaVu Sans regular for a bold face's missing letters. A character no font covers is left out
(the seat number beside every name still tells players apart).

The loader is swappable (`set_font_loader`, `using_font_loader`) so tests can exercise the fallback; every cache
that holds drawn text registers with `on_font_change` and is emptied when the loader changes.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont
FontLoader = Callable[[int, bool], Font]

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


def system_font(size: int, bold: bool) -> Font:
    """DejaVu Sans (bold or regular); raises OSError when the file is missing."""
    path = FONT_DIR / FONT_FILES[bold]
    if not path.is_file():  # else Pillow would go looking for the name in other font folders
        raise OSError(f"No font file at {path}")
    return ImageFont.truetype(str(path), size)


def builtin_font(size: int, bold: bool) -> Font:
    """Pillow's built-in scalable font (ASCII only; no bold face)."""
    font = ImageFont.load_default(size=size)
    assert isinstance(font, ImageFont.FreeTypeFont)  # Pillow is built with FreeType
    return font


def _cjk_path() -> Path | None:
    try:
        import noto_cjk_sans_otc  # the pinned font package
    except ImportError:
        return None
    path = Path(str(noto_cjk_sans_otc.FONT_PATH))
    return path if path.is_file() else None


def fallback_fonts(size: int, bold: bool) -> list[Font]:
    """Fonts to try, in order, for a character the main font lacks."""
    return list(_fallbacks(max(6, int(size)), bold))


@lru_cache(maxsize=64)
def _fallbacks(size: int, bold: bool) -> tuple[Font, ...]:
    found: list[Font] = []
    if bold:
        with suppress(OSError):
            found.append(system_font(size, False))
    cjk = _cjk_path()
    if cjk is not None:
        with suppress(OSError):  # a broken package: go without
            found.append(ImageFont.truetype(str(cjk), size, index=2))  # Simplified Chinese first: most Han glyphs
    return tuple(found)


def default_loader(size: int, bold: bool) -> Font:
    try:
        return system_font(size, bold)
    except OSError:
        return builtin_font(size, bold)


_loader: FontLoader = default_loader
_listeners: list[Callable[[], None]] = []


def on_font_change(clear: Callable[[], None]) -> Callable[[], None]:
    """Register a cache-clearing function to call whenever the font loader changes."""
    _listeners.append(clear)
    return clear


def set_font_loader(loader: FontLoader | None = None) -> None:
    """Use `loader(size, bold)` for every font from now on (None: back to the default)."""
    global _loader
    _loader = loader or default_loader
    font.cache_clear()
    _fallbacks.cache_clear()
    _missing.clear()
    for clear in _listeners:
        clear()


@contextmanager
def using_font_loader(loader: FontLoader) -> Iterator[None]:
    previous = _loader
    set_font_loader(loader)
    try:
        yield
    finally:
        set_font_loader(previous)


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> Font:
    """The font at `size` pixels, cached."""
    return _loader(max(6, int(size)), bold)


# -- text that the fonts can draw ---------------------------------------------------------------------------------
_missing: dict[tuple, dict[str, bool]] = {}


def _glyph_pixels(f: Font, ch: str) -> bytes:
    size = int(f.size) * 2
    im = Image.new("L", (size, size))
    ImageDraw.Draw(im).text((0, 0), ch, font=f, fill=255)
    return im.tobytes()


def _has_glyph(f: Font, ch: str) -> bool:
    known = _missing.setdefault((f.getname(), f.size), {})
    if ch not in known:
        if ch.isascii():
            known[ch] = True
        else:
            known[ch] = _glyph_pixels(f, ch) != _glyph_pixels(f, "\uffff")
    return known[ch]


# Latin letters that Unicode does not decompose into a base letter and a mark.
_NO_DECOMPOSITION = {
    "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "ß": "ss",
    "Đ": "D", "đ": "d", "Þ": "Th", "þ": "th", "ı": "i", "Ħ": "H", "ħ": "h",
}  # fmt: skip


def drawable(text: str, f: Font) -> str:
    """`text` with any character the font lacks replaced by its unaccented letter (É -> E), when there is one."""
    if text.isascii():
        return text
    out = []
    for ch in text:
        if _has_glyph(f, ch):
            out.append(ch)
            continue
        base = _NO_DECOMPOSITION.get(ch) or "".join(
            c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
        )
        out.append(base if base and all(_has_glyph(f, c) for c in base) else ch)
    return "".join(out)


Run = tuple[str, Font]


def runs(text: str, f: Font, fallbacks: list[Font] | tuple[Font, ...] = ()) -> list[Run]:
    """`text` split into runs each drawn with one font: `f` where it has the letter, else the first fallback that
    has it, else the unaccented letter in `f`; a character no font has is left out. Combining marks and spaces
    stay with the run before them."""
    if text.isascii():
        return [(text, f)] if text else []
    chosen: list[Run] = []
    for ch in text:
        if unicodedata.combining(ch) or ch == " " or ch == "\u200d":
            if chosen:
                chosen[-1] = (chosen[-1][0] + ch, chosen[-1][1])
            elif ch == " ":
                chosen.append((ch, f))
            continue
        use: Font | None = f if _has_glyph(f, ch) else next((g for g in fallbacks if _has_glyph(g, ch)), None)
        if use is None:
            plain = drawable(ch, f)
            if plain != ch:
                ch, use = plain, f
            else:
                continue
        if chosen and chosen[-1][1] is use:
            chosen[-1] = (chosen[-1][0] + ch, use)
        else:
            chosen.append((ch, use))
    return chosen


def runs_length(parts: list[Run]) -> float:
    return sum(g.getlength(t) for t, g in parts)


def ellipsis(f: Font) -> str:
    return "…" if _has_glyph(f, "…") else "..."


def fit(text: str, f: Font, width: float, fallbacks: list[Font] | tuple[Font, ...] = ()) -> str:
    """`text` (what the fonts can draw of it) cut with an ellipsis so it fits in `width` pixels."""
    text = "".join(t for t, _ in runs(text, f, fallbacks))
    if runs_length(runs(text, f, fallbacks)) <= width:
        return text
    dots = ellipsis(f)
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if runs_length(runs(text[:mid].rstrip() + dots, f, fallbacks)) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + dots if lo else dots


def fit_middle(text: str, f: Font, width: float, fallbacks: list[Font] | tuple[Font, ...] = ()) -> str:
    """`text` cut in the middle ("Bot…(hard)") so it fits in `width` pixels: keeps both ends of a name."""
    text = "".join(t for t, _ in runs(text, f, fallbacks))
    if runs_length(runs(text, f, fallbacks)) <= width:
        return text
    dots = ellipsis(f)
    best = dots
    for keep in range(len(text) - 1, 0, -1):
        head, tail = text[: (keep + 1) // 2].rstrip(), text[len(text) - keep // 2 :].lstrip()
        candidate = head + dots + tail
        if runs_length(runs(candidate, f, fallbacks)) <= width:
            best = candidate
            break
    return best
