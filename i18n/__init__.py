"""Every player-visible word in English, Romanian, Spanish and Czech: gettext catalogues read with Babel.

    from i18n import translate, translate_plural, term, resolve_locale

    translate("cs", "You joined the table.")
    translate("ro", "The table is full ({size} seats).", size=4)
    translate_plural("cs", "{n} coin", "{n} coins", 3)          # "3 mince" (Czech and Romanian: three forms)
    term("es", "knight", 2)                                     # "caballeros"
    resolve_locale(interaction.locale)                          # discord.Locale.czech -> "cs"

Message ids are the English sentences with named placeholders (`{size}`, never `{}` or `%s`). Code marks the
sentences it shows with `_()` (or `N_()` where the sentence is only declared, `NP_()` for a plural pair), so that
`python -m i18n extract` finds them; see docs/languages.md.
"""

from __future__ import annotations

from typing import Any

from babel import Locale
from babel.numbers import format_decimal

from .catalog import ALL_LOCALES, LANGUAGES, PSEUDO, SOURCE, pseudo_text, reload, translations
from .terms import TERMS, Term

__all__ = [
    "ALL_LOCALES",
    "DEFAULT_LOCALE",
    "LANGUAGES",
    "NP_",
    "N_",
    "PSEUDO",
    "TERMS",
    "Term",
    "first_supported",
    "format_number",
    "pseudo_text",
    "reload",
    "resolve_locale",
    "term",
    "translate",
    "translate_plural",
]

DEFAULT_LOCALE = SOURCE
# Discord locale codes (discord.Locale values) and other spellings -> our language.
_ALIASES = {"en-xa": PSEUDO, "qps": PSEUDO, "qps-ploc": PSEUDO}


def N_(msgid: str, context: str | None = None) -> str:
    """Marks a sentence for the catalogue where it is declared but translated later; returns it unchanged.

    `context` marks an entry whose English alone would be ambiguous (the text grid's letter `W` is the wheat's);
    translate it later with the same `context=`."""
    return msgid


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural pair for the catalogue; returns it unchanged, for `translate_plural(locale, *pair, n)`."""
    return singular, plural


def resolve_locale(value: Any, default: str | None = DEFAULT_LOCALE) -> str | None:
    """Our language for a Discord locale (`discord.Locale` or its value) or a language code.

    `en-US`, `en-GB` -> `en`; `es-ES`, `es-419` -> `es`; `cs` -> `cs`; `ro` -> `ro`; `en-XA` -> the pseudo-locale;
    anything else (and None) -> `default` (English unless told otherwise; pass None to learn there is no match)."""
    if value is None:
        return default
    code = str(getattr(value, "value", value)).strip().replace("_", "-").lower()
    if code in _ALIASES:
        return _ALIASES[code]
    base = code.split("-", 1)[0]
    return base if base in LANGUAGES else default


def first_supported(*candidates: Any) -> str:
    """The first candidate that is one of our languages, else English: e.g. the game's language option, the
    server's `guild_locale`, the server default an admin set, in that order."""
    for value in candidates:
        found = resolve_locale(value, default=None)
        if found is not None:
            return found
    return DEFAULT_LOCALE


def _lang(locale: Any) -> str:
    return resolve_locale(locale) or DEFAULT_LOCALE


def _babel_locale(lang: str) -> Locale:
    return Locale.parse("en" if lang == PSEUDO else lang)


def format_number(locale: Any, value: float, *, decimals: int | None = None) -> str:
    """A number written the locale's way: `1,234.5` (en), `1 234,5` (cs), `1.234,5` (es, ro)."""
    lang = _lang(locale)
    if decimals is not None:
        fmt = "#,##0" + ("." + "0" * decimals if decimals else "")
        return format_decimal(value, format=fmt, locale=_babel_locale(lang))
    return format_decimal(value, locale=_babel_locale(lang))


class _Params(dict):
    """Placeholders for str.format_map: an unknown placeholder stays visible instead of failing a message."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fill(lang: str, text: str, params: dict[str, Any]) -> str:
    if not params:
        return text
    values = _Params()
    for key, value in params.items():
        # Floats (averages) are written the locale's way; integers (ids, scores) stay plain digits.
        values[key] = format_decimal(value, locale=_babel_locale(lang)) if isinstance(value, float) else value
    return text.format_map(values)


def translate(locale: Any, msgid: str, /, *, context: str | None = None, **params: Any) -> str:
    """The catalogue's sentence `msgid` in `locale`, its `{placeholders}` filled from `params`.

    `locale` is one of our languages or anything `resolve_locale` understands (a discord.Locale). A sentence the
    catalogue lacks comes back in English."""
    lang = _lang(locale)
    t = translations(lang)
    text = t.pgettext(context, msgid) if context else t.gettext(msgid)
    return _fill(lang, text, params)


def translate_plural(
    locale: Any, singular: str, plural: str, n: int, /, *, context: str | None = None, **params: Any
) -> str:
    """The form of a plural sentence for the number `n` (also available as the placeholder `{n}`): English and
    Spanish have two forms, Czech and Romanian three (1; 2-4 / 0 and 2-19; the rest)."""
    lang = _lang(locale)
    t = translations(lang)
    text = t.npgettext(context, singular, plural, n) if context else t.ngettext(singular, plural, n)
    return _fill(lang, text, {"n": n, **params})


def term(locale: Any, key: str, count: int = 1) -> str:
    """A game word in `locale`: `term("cs", "knight", 3)` -> `rytíři`; `term("ro", "building.sawmill")` ->
    `Fabrica de cherestea`; `term("es", "mighty-duel")` -> `Duelo Poderoso`. Keys: `i18n.TERMS`."""
    entry = TERMS[key]
    t = translations(_lang(locale))
    if entry.plural is None:
        return t.pgettext(entry.context, entry.singular)
    return t.npgettext(entry.context, entry.singular, entry.plural, count)


# The usual gettext name for marking and translating at once, in code that has a locale at hand.
_ = translate
