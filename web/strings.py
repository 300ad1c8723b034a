"""The page's words in the reader's language, from the catalogues: every `WEB_…` sentence of i18n/messages.py (its
`{placeholders}` left for the page to fill), the terrains, directions, games, variants and computer levels."""

from __future__ import annotations

from functools import cache

from cogs.words import terrain_word
from engine.ai import LEVELS
from engine.components import TERRAINS
from engine.config import VARIANTS
from i18n import TERMS, term, translate
from i18n import messages as M


@cache
def page_strings(lang: str) -> dict[str, object]:
    words: dict[str, object] = {
        name[4:].lower(): translate(lang, value)
        for name, value in vars(M).items()
        if name.startswith("WEB_") and isinstance(value, str)
    }
    words["your_turn"] = translate(lang, M.YOUR_TURN_WEB)
    words["play_now"] = translate(lang, M.BUTTON_PLAY_ON)  # Discord's button, the same words
    words["host"] = translate(lang, M.WEB_HOST, context="lobby")  # the table's host (the queen's is another word)
    words["terrains"] = {t: terrain_word(t, lang) for t in TERRAINS}
    words["directions"] = {d: translate(lang, w) for d, w in M.DIRECTIONS.items()}
    words["games"] = {g: term(lang, g) for g in ("kingdomino", "queendomino", "royal-wedding")}
    words["variant_names"] = {
        v: (term(lang, v) if v in TERMS else translate(lang, M.WEB_VARIANT_NAMES.get(v, v))) for v in VARIANTS
    }
    words["levels"] = {lvl: translate(lang, M.LEVELS.get(lvl, lvl)) for lvl in LEVELS}
    words["languages"] = {"en": "English", "ro": "Română", "es": "Español", "cs": "Čeština"}
    # the table pictures' words the board shows too (issue #45)
    pictures = {
        "pts": M.PIC_PTS,
        "to_play": M.PIC_TO_PLAY,
        "free": M.PIC_FREE,
        "burned": M.PIC_BURNED,
        "dragon_cave": M.PIC_DRAGON_CAVE,
        "dragon_flew": M.PIC_DRAGON_FLEW,
        "queen_host": M.PIC_QUEEN_HOST,
        "queen_no_host": M.PIC_QUEEN_NO_HOST,
    }
    words.update({name: translate(lang, msgid) for name, msgid in pictures.items()})
    return words
