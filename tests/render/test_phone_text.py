"""Every text on a table, measured as drawn: a phone shows the table 780 pixels wide, and nothing on it may read
smaller than 12 pixels there (building names, seat numbers on the kings, team letters, tags and legends too).

Tables: Royal Wedding with 8 players in teams, 4 of them computers (its two pictures), and 7 players alone;
Queendomino with 4; and a Czech table (the longest building names), each at a third of the game, in the middle and
near the end."""

from __future__ import annotations

import pytest

from render import fonts, render_table_pictures
from render.draw import recording_sizes

from .helpers import active, config, names_for, open_png, state

PHONE = 780
BOTS = {"p2": "Bot 1 (medium)", "p4": "Bot 2 (medium)", "p6": "Bot 3 (medium)", "p8": "Bot 4 (medium)"}
TABLES = {
    "royal-wedding-8-teams": (config("royal-wedding", 8, True), "en"),
    "royal-wedding-7": (config("royal-wedding", 7), "en"),
    "queendomino-4": (config("queendomino", 4), "en"),
    "queendomino-4-cs": (config("queendomino", 4), "cs"),
    "royal-wedding-8-teams-cs": (config("royal-wedding", 8, True), "cs"),
}


def smallest_text(game, lang: str) -> tuple[float, str]:
    """(size on a phone, text) of the smallest text drawn on the table's pictures (each 1000 pixels wide)."""
    names = {**names_for(game), **{p: n for p, n in BOTS.items() if p in game.players}}
    with recording_sizes() as drawn:
        pictures = render_table_pictures(game, names, None, active(game), lang=lang)
    assert drawn, "the recording saw the texts"
    assert {open_png(p).width for p in pictures} == {1000}
    size, words = min((s, t) for t, s in drawn)
    return size * PHONE / 1000, words


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("fraction", [0.35, 0.6, 0.9])
def test_no_text_on_a_table_reads_under_12_pixels_on_a_phone(table, fraction):
    fonts.set_font_loader(None)
    cfg, lang = TABLES[table]
    game = state(cfg, seed=3, fraction=fraction)
    px, words = smallest_text(game, lang)
    assert px >= 12, f"{words!r} is drawn at {px:.1f} px on a phone"
