"""The words drawn on the pictures, in the picture's language.

Every drawing function takes `lang` ("en" by default). In English a picture keeps the exact words it has always
drawn (the golden images test them); in another language the words come from the catalogues (the msgids of
`i18n/messages.py`, section "pictures") and the game's terms."""

from __future__ import annotations

from typing import Any

from i18n import DEFAULT_LOCALE, TERMS, resolve_locale, term, translate, translate_plural
from i18n import messages as M

EN = DEFAULT_LOCALE


def picture_lang(lang: Any) -> str:
    return resolve_locale(lang) or EN


def say(lang: str, english: str, msgid: str, /, **params: Any) -> str:
    """`english` (already filled) in English, else the catalogue's `msgid` filled with `params`."""
    return english if lang == EN else translate(lang, msgid, **params)


def say_plural(lang: str, english: str, pair: tuple[str, str], n: int, /, **params: Any) -> str:
    """`english` (already filled, in the plural) in English, but the catalogue's singular for 1 ("1 point", never
    "1 points"); else the catalogue's form of `pair` for `n`."""
    if lang == EN and n != 1:
        return english
    return translate_plural(lang, *pair, n, **params)


def domino_label(game_kind: str, domino_id: str) -> str:
    """A domino's name as the players read it everywhere (the text and the pictures): its number, `14`; in Royal
    Wedding, where both boxes are in play and numbers repeat, the box's letter before it, `K14` or `Q14` (the
    pictures' legend says K is the Kingdomino box, Q the Queendomino box)."""
    from engine import domino

    return domino_id if game_kind == "royal-wedding" else str(domino(domino_id).number)


def game_title(lang: str, english: str, kind: str) -> str:
    return english if lang == EN or kind not in TERMS else term(lang, kind)


def variant_word(lang: str, english: str, variant: str) -> str:
    return english if lang == EN or variant not in TERMS else term(lang, variant)


def building_title(lang: str, english: str, building_id: str) -> str:
    key = f"building.{building_id}"
    return english if lang == EN or key not in TERMS else term(lang, key)


def terrain_name(lang: str, terrain: str) -> str:
    """A terrain's name as a label, capitalised: `Wheat` in English (TERRAIN_NAMES), `Obilné pole` in Czech."""
    from .palette import TERRAIN_NAMES  # palette imports nothing of ours, but keep words.py light

    if lang == EN or terrain not in TERMS:
        return TERRAIN_NAMES.get(terrain, terrain)
    word = term(lang, terrain)
    return word[:1].upper() + word[1:]


def direction_word(lang: str, direction: str) -> str:
    """`up`, `right`, `down`, `left` in `lang` (the turn panel's words for the second square)."""
    return translate(lang, M.DIRECTIONS[direction]) if direction in M.DIRECTIONS else direction


def delta_words(lang: str, delta: int) -> str:
    """A score change: `+3 points`, `-1 point`, `no points`."""
    if not delta:
        return translate(lang, M.PIC_NO_POINTS_DELTA)
    return translate_plural(lang, *M.PIC_DELTA, abs(delta), n=f"{delta:+d}")


def and_list(lang: str, items: list[str]) -> str:
    """`A`, `A and B`, `A, B and C` in `lang` (the catalogue's `{first} and {second}`)."""
    if len(items) <= 1:
        return "".join(items)
    return translate(lang, M.TWO_CELLS, first=", ".join(items[:-1]), second=items[-1])
