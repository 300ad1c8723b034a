"""Fonts: DejaVu Sans from the system (Debian's fonts-dejavu-core), or Pillow's built-in scalable font, and
fallbacks for the letters they lack, from two pinned PyPI packages (SIL Open Font License): Noto Sans CJK
(noto-cjk-sans-otc) for Chinese, Japanese and Korean; Noto Emoji, Noto Sans Symbols and Noto Sans for other scripts
(manimgx-fonts: Devanagari, Thai, Bengali, Tamil, Georgian, Armenian, Ethiopic...); and DejaVu Sans regular for a
bold face's missing letters. A fallback is loaded the first time a character needs it. A character no font covers
is left out (the seat number beside every name still tells players apart).

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


def _package_dir(name: str) -> Path | None:
    try:
        module = __import__(name)
    except ImportError:
        return None
    return Path(module.__file__).parent if module.__file__ else None


def _fallback_files() -> list[tuple[Path, int]]:
    """(font file, face index) of every fallback font installed, in the order they are tried."""
    files: list[tuple[Path, int]] = []
    cjk = _package_dir("noto_cjk_sans_otc")
    if cjk is not None:
        files.append((cjk / "NotoSansCJK-Regular.ttc", 2))  # Simplified Chinese first: most Han glyphs
    noto = _package_dir("manimgx_fonts")
    if noto is not None:
        first = ["NotoEmoji[wght].ttf", "NotoSansSymbols[wght].ttf"]
        files += [(noto / f, 0) for f in first]
        scripts = sorted(noto.glob("NotoSans*[[]wght].ttf"))
        files += [(f, 0) for f in scripts if f.name not in first and not f.name.startswith(("NotoSans[", "NotoSans-"))]
    return [(f, i) for f, i in files if f.is_file()]


class Fallback:
    """A fallback font at one size, loaded the first time a character needs it."""

    def __init__(self, path: Path, index: int, size: int) -> None:
        self.path, self.index, self.size = path, index, size
        self._font: Font | None = None
        self.broken = False

    @property
    def font(self) -> Font | None:
        if self._font is None and not self.broken:
            try:
                self._font = ImageFont.truetype(str(self.path), self.size, index=self.index)
            except OSError:  # a broken file: go without it
                self.broken = True
        return self._font


def fallback_fonts(size: int, bold: bool) -> tuple[Font | Fallback, ...]:
    """Fonts to try, in order, for a character the main font lacks (each loaded when first needed)."""
    return _fallbacks(max(6, int(size)), bold)


@lru_cache(maxsize=64)
def _fallbacks(size: int, bold: bool) -> tuple[Font | Fallback, ...]:
    found: list[Font | Fallback] = []
    if bold:
        with suppress(OSError):
            found.append(system_font(size, False))
    found += [Fallback(path, index, size) for path, index in _fallback_files()]
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


def runs(text: str, f: Font, fallbacks=()) -> list[Run]:
    """`text` split into runs each drawn with one font: `f` where it has the letter, else the first fallback that
    has it, else the unaccented letter in `f`; a character no font has is left out. Combining marks and spaces
    stay with the run before them."""
    if text.isascii():
        return [(text, f)] if text else []
    chosen: list[Run] = []
    for ch in text:
        if unicodedata.category(ch).startswith("M") or ch in " \u200c\u200d":  # marks join their letter's run
            if chosen:
                chosen[-1] = (chosen[-1][0] + ch, chosen[-1][1])
            elif ch == " ":
                chosen.append((ch, f))
            continue
        use: Font | None = f if _has_glyph(f, ch) else _first_with(fallbacks, ch)
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


def _first_with(fallbacks, ch: str) -> Font | None:
    for g in fallbacks:
        font = g.font if isinstance(g, Fallback) else g
        if font is not None and _has_glyph(font, ch):
            return font
    return None


def runs_length(parts: list[Run]) -> float:
    return sum(g.getlength(t) for t, g in parts)


def ellipsis(f: Font) -> str:
    return "…" if _has_glyph(f, "…") else "..."


def fit(text: str, f: Font, width: float, fallbacks=()) -> str:
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


def fit_middle(text: str, f: Font, width: float, fallbacks=()) -> str:
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
