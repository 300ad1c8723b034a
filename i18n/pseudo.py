"""Finding English that never went through the catalogues, in text shown under the pseudo-locale en-XA.

Under en-XA every catalogue string comes out accented and wrapped in ⟦ ⟧ (see `catalog.pseudo_text`); what is
left outside the brackets is data (names, numbers, cell names like E4, domino ids like K23) or a bug: an English
literal that a cog or a picture wrote directly. An end-to-end test plays a game with the table's language set to
en-XA and runs every message, button label, select option and picture caption it saw through
`english_outside_catalogues`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .catalog import PSEUDO_CLOSE, PSEUDO_OPEN

_BRACKETED = re.compile(re.escape(PSEUDO_OPEN) + ".*?" + re.escape(PSEUDO_CLOSE), re.DOTALL)
# Words of two or more ASCII letters; cell names (E4), domino ids (K23) and sizes (7x7) have digits and never match.
_WORD = re.compile(r"(?<![\w/@#:<])[A-Za-z][A-Za-z']*[A-Za-z](?![\w>])")
# Always allowed: the games' brand names and Discord's own syntax.
ALLOWED = frozenset({"Kingdomino", "Queendomino", "BGA", "DEV_GUILD_ID", "https", "discord", "com", "channels"})


def english_outside_catalogues(text: str, *, names: Iterable[str] = ()) -> list[str]:
    """The ASCII words of `text` outside ⟦ ⟧ that are not a known name: empty when everything was translated."""
    allowed = set(ALLOWED)
    for name in names:
        allowed.update(re.findall(r"[A-Za-z']+", name))
    outside = _BRACKETED.sub(" ", text)
    outside = re.sub(r"`[^`]*`", " ", outside)  # code spans (`/game new`) are commands, kept in English
    outside = re.sub(r"<[^<>]*>", " ", outside)  # mentions and custom emoji
    return [w for w in _WORD.findall(outside) if w not in allowed]
