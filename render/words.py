"""The words drawn on the pictures, in the picture's language.

Every drawing function takes `lang` ("en" by default). In English a picture keeps the exact words it has always
drawn (the golden images test them); in another language the words come from the catalogues (the msgids of
`i18n/messages.py`, section "pictures") and the game's terms."""

from __future__ import annotations

from typing import Any

from i18n import DEFAULT_LOCALE, TERMS, resolve_locale, term, translate, translate_plural

EN = DEFAULT_LOCALE


def picture_lang(lang: Any) -> str:
    return resolve_locale(lang) or EN


def say(lang: str, english: str, msgid: str, /, **params: Any) -> str:
    """`english` (already filled) in English, else the catalogue's `msgid` filled with `params`."""
    return english if lang == EN else translate(lang, msgid, **params)


def say_plural(lang: str, english: str, pair: tuple[str, str], n: int, /, **params: Any) -> str:
    return english if lang == EN else translate_plural(lang, *pair, n, **params)


def game_title(lang: str, english: str, kind: str) -> str:
    return english if lang == EN or kind not in TERMS else term(lang, kind)


def variant_word(lang: str, english: str, variant: str) -> str:
    return english if lang == EN or variant not in TERMS else term(lang, variant)


def building_title(lang: str, english: str, building_id: str) -> str:
    key = f"building.{building_id}"
    return english if lang == EN or key not in TERMS else term(lang, key)
