"""Pictures of the game: engine state in, PNG bytes out. No Discord, no database, no I/O but reading fonts.

    render_table(game, names, colours, active)           # the table after every move (part="all", "top", "kingdoms")
    render_table_pictures(game, names, colours, active)  # the table as posted: one picture, two when it `splits`
    render_kingdom(game, kingdom_index, names, colours, legal_spots=..., preview=...)
    render_score_sheet(game, names, colours)             # the score breakdown, final or so far
    render_remaining(game)                               # the dominoes not seen yet, per terrain
    render_placement(game, player, domino_id, cell, names, colours)  # turn panel: where the second square goes
    render_offer(game, player, names, colours)           # turn panel: the dominoes to claim, with their numbers
    render_tax(game, player, names, colours)             # turn panel: what a knight on each new square collects
    render_dragon(game, player, names, colours)          # turn panel: what the dragon costs and burns from whom
    clean_name(name) -> str                              # a name safe to draw and store (never empty)
    safe_render(fn, *args, **kwargs) -> bytes | None     # a picture, or None (logged) when drawing fails

Every picture takes a keyword `lang="en"` (a language code or a discord.Locale) and draws its words in that language
(render/words.py): English stays exactly as it has always been drawn; elsewhere the catalogue's sentences and the
game's terms. So do `render.replay.render_replay`, `render.chart.render_score_chart` and every alt text of
`render.alt`.

`names` maps player ids to display names (missing ids show as themselves; every name goes through clean_name, and
one no font can draw shows as "Player N"); `colours` maps player ids to RGB and defaults to PLAYER_COLOURS by seat.
Every king carries its seat number (1..N in `game.players` order), so players are told apart without colour.
`table_layout` and `kingdom_layout` give the pixel box of any cell.

Sizes: the table is 1000 pixels wide for every game (a phone shows it at 0.78: no text on it under 16 pixels, 12 on
the phone), at most about twice as tall as wide (a Royal Wedding table is two pictures), and the turn panel pictures 780; the
builders' board numbers its slots 1..6, the engine's slot index + 1 (slot 1 next to the stack, the dearest).
"""

from .fonts import set_font_loader, using_font_loader
from .large import kingdom_layout, render_kingdom
from .names import clean_name, safe_render
from .palette import PLAYER_COLOURS, TERRAIN_COLOURS
from .panels import render_dragon, render_offer, render_placement, render_tax
from .remaining import render_remaining
from .sheet import render_score_sheet
from .table import render_table, render_table_pictures, splits, table_layout

__all__ = [
    "PLAYER_COLOURS",
    "TERRAIN_COLOURS",
    "clean_name",
    "kingdom_layout",
    "render_dragon",
    "render_kingdom",
    "render_offer",
    "render_placement",
    "render_remaining",
    "render_score_sheet",
    "render_table",
    "render_table_pictures",
    "render_tax",
    "safe_render",
    "set_font_loader",
    "splits",
    "table_layout",
    "using_font_loader",
]
