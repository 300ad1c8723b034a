"""The catalogues: one gettext .po file per language in `locales/`, read with Babel and compiled in memory.

Nothing is compiled ahead of time: the first look-up in a language reads its .po file, compiles it to a .mo in
memory with Babel and keeps the resulting `gettext.GNUTranslations` (with English as its fallback) for the life of
the process. So a fresh clone works with no build step, and an edited .po file is what runs.

The pseudo-locale `en-XA` is made from the English catalogue on the fly: every translated string is accented and
wrapped in ⟦ ⟧, placeholders untouched. Text drawn or sent under `en-XA` that still shows plain ASCII words outside
the brackets came from outside the catalogues.
"""

from __future__ import annotations

import gettext
import io
import re
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).parent / "locales"
SOURCE = "en"
LANGUAGES: tuple[str, ...] = ("en", "ro", "es", "cs")
PSEUDO = "en-XA"
ALL_LOCALES: tuple[str, ...] = (*LANGUAGES, PSEUDO)

PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"
_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀɃÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
# What must pass through the pseudo-locale untouched: placeholders, custom emoji and mentions, code spans.
_KEEP = re.compile(r"(\{[^{}]*\}|<[^<>]*>|`[^`]*`)")


def po_path(lang: str) -> Path:
    return LOCALES_DIR / f"{lang}.po"


def read_catalog(lang: str) -> Catalog:
    """The catalogue of `lang` as Babel reads it (a fresh object every call: safe to change)."""
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang.replace("-", "_"), domain="messages")


def pseudo_text(text: str) -> str:
    """`Join the table` -> `⟦Ĵöîñ ţĥé ţàƀĺé⟧`; placeholders, mentions and code spans are kept as they are."""
    parts = _KEEP.split(text)
    return PSEUDO_OPEN + "".join(p if i % 2 else p.translate(_ACCENTS) for i, p in enumerate(parts)) + PSEUDO_CLOSE


def pseudo_catalog() -> Catalog:
    """The English catalogue with every string turned into its pseudo form."""
    source = read_catalog(SOURCE)
    out = Catalog(locale="en", domain="messages")
    for m in source:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            forms = m.string if isinstance(m.string, tuple) and all(m.string) else m.id
            string: str | tuple[str, ...] = tuple(pseudo_text(s) for s in forms)
        else:
            string = pseudo_text(m.string or m.id)
        out.add(m.id, string, context=m.context)
    return out


def _compile(catalog: Catalog) -> gettext.GNUTranslations:
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled translations of `lang` (one of ALL_LOCALES); English, then the msgid, is the fallback."""
    if lang == PSEUDO:
        return _compile(pseudo_catalog())
    if lang not in LANGUAGES:
        raise ValueError(f"No catalogue for {lang!r}: the languages are {', '.join(ALL_LOCALES)}")
    compiled = _compile(read_catalog(lang))
    if lang != SOURCE:
        compiled.add_fallback(translations(SOURCE))
    return compiled


def reload() -> None:
    """Forget the compiled catalogues (after the .po files changed, e.g. in `python -m i18n extract`)."""
    translations.cache_clear()
