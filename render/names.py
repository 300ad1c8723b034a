"""Player names made safe to draw (and to store), and a wrapper so a failing picture never blocks a game."""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

MAX_NAME = 32  # characters (code points) kept: Discord's own limit for a display name
MAX_MARKS = 2  # combining marks kept on one letter: zalgo text would otherwise climb out of its box
FALLBACK_NAME = "Player"

# Unicode categories that are never drawn: controls (CR, LF, U+0085, U+001C-001E...), format characters (bidi
# embeddings, overrides and isolates, zero-width space and joiners, BOM), line and paragraph separators
# (U+2028, U+2029: raqm refuses to lay them out), surrogates, private use and unassigned code points.
_DROPPED = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}
_SPACES = re.compile(r"\s+")
_BREAKS = set("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")  # they separate words: each becomes a space


def clean_name(name: object, fallback: str = FALLBACK_NAME) -> str:
    """`name` as a single line of visible characters: controls, separators, bidi controls and zero-width characters
    removed, runs of spaces made one, at most two combining marks per letter, at most 32 characters.

    Never empty: a name with nothing visible left becomes `fallback` ("Player"). The bot uses it before storing a
    name, and every picture applies it again before drawing."""
    text = unicodedata.normalize("NFC", str(name))
    out: list[str] = []
    marks = 0
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in _BREAKS:
            ch, cat = " ", "Zs"
        elif cat in _DROPPED:
            continue
        if cat.startswith("Z"):
            ch = " "
        if unicodedata.combining(ch) or cat in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS or not out:
                continue
        else:
            marks = 0
        out.append(ch)
    cleaned = _SPACES.sub(" ", "".join(out)).strip()
    if len(cleaned) > MAX_NAME:
        cleaned = cleaned[:MAX_NAME].rstrip()
        while cleaned and unicodedata.combining(cleaned[-1]):
            cleaned = cleaned[:-1]
    return cleaned or fallback


_failed: set[str] = set()


def safe_render(fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes | None:
    """`fn(*args, **kwargs)`, or None when it raises: a picture that cannot be drawn must never block a game (the
    caller then sends text alone). Each function's failure is logged once with its traceback, later ones briefly."""
    try:
        return fn(*args, **kwargs)
    except Exception:
        name = getattr(fn, "__qualname__", repr(fn))
        if name not in _failed:
            _failed.add(name)
            log.exception("Could not draw %s; the game goes on without the picture", name)
        else:
            log.warning("Could not draw %s again", name)
        return None
