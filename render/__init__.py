"""Pictures of the game: engine state in, PNG bytes out. No Discord, no database, no I/O but reading fonts.

    render_table(game, names, colours, active)           # the table after every move
    render_kingdom(game, kingdom_index, names, colours, legal_spots=..., preview=...)
    render_score_sheet(game, names, colours)             # the score breakdown, final or so far
    render_remaining(game)                               # the dominoes not seen yet, per terrain

`names` maps player ids to display names (missing ids show as themselves); `colours` maps player ids to RGB and
defaults to PLAYER_COLOURS by seat. `table_layout` and `kingdom_layout` give the pixel box of any cell.
"""

from .fonts import set_font_loader, using_font_loader
from .large import kingdom_layout, render_kingdom
from .palette import PLAYER_COLOURS, TERRAIN_COLOURS
from .remaining import render_remaining
from .sheet import render_score_sheet
from .table import render_table, table_layout

__all__ = [
    "PLAYER_COLOURS",
    "TERRAIN_COLOURS",
    "kingdom_layout",
    "render_kingdom",
    "render_remaining",
    "render_score_sheet",
    "render_table",
    "set_font_loader",
    "table_layout",
    "using_font_loader",
]
