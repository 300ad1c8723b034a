"""What a phone shows: pictures are seen about 780 pixels wide, so every size is measured after that scaling.

Tables of 2-4 kingdoms: terrain symbols and crowns at least 12 px, names, scores and coordinates at least 14 px.
Tables of 5-7 kingdoms: terrain symbols and names too (their crowns may be smaller); each player's own kingdom
(render_kingdom) reads at 780 px, and so do the turn panel pictures. (tests/render/test_phone_text.py measures every
text actually drawn on a table: none under 12 px.)
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Place
from render import fonts, kingdom_layout, table_layout
from render import table as table_module
from render.large import WIDTH as LARGE_WIDTH
from render.panels import WIDTH as PANEL_WIDTH
from render.panels import placement_layout
from render.tiles import crown_size, letter_size

from .helpers import MODES, config, mode_id, state

PHONE = 780
SMALL_TABLES = [m for m in MODES if len(config(*m).players) // (2 if m[2] else 1) <= 4]
LARGE_TABLES = [m for m in MODES if m not in SMALL_TABLES]


def _cap_height(size: int) -> float:
    """Ink height of a capital letter (bold) at font size `size`, in pixels."""
    _, top, _, bottom = fonts.font(size, True).getbbox("W", anchor="ls")
    return bottom - top


def _table_sizes(game) -> dict[str, float]:
    layout = table_layout(game)
    s = PHONE / layout.width
    cell = min(g.cell for g in layout.grids)
    return {
        "letter on a kingdom square": letter_size(cell) * s,
        "crown on a kingdom square": crown_size(cell) * s,
        "letter on a domino of the lines": letter_size(layout.tile) * s,
        "crown on a domino of the lines": crown_size(layout.tile) * s,
        "coordinates": min(g.label_size for g in layout.grids) * s,
        "name on a kingdom": layout.name_size * s,
        "score": layout.score_size * s,
        "name in the lines": table_module.LINE_NAME_SIZE * s,
        "status line": table_module.STATUS_SIZE * s,
        "notes (placed, free, coins...)": table_module.NOTE_SIZE * s,
    }


def _assert_readable(sizes: dict[str, float]) -> None:
    for what, px in sizes.items():
        least = 12 if what.startswith(("letter", "crown")) else 14
        assert px >= least, f"{what}: {px:.1f} px on a phone, less than {least}"


def test_every_table_is_one_width_a_phone_shows_at_078():
    for mode in MODES:
        layout = table_layout(state(config(*mode), seed=1, fraction=0.5))
        assert layout.width == 1000 and abs(layout.phone_scale - 0.78) < 1e-9


@pytest.mark.parametrize("mode", SMALL_TABLES, ids=mode_id)
@pytest.mark.parametrize("fraction", [0.0, 0.25, 0.5, 0.75, 1.0])
def test_small_tables_read_on_a_phone(mode, fraction):
    _assert_readable(_table_sizes(state(config(*mode), seed=3, fraction=fraction)))


@settings(max_examples=30)
@given(mode=st.sampled_from(SMALL_TABLES), seed=st.integers(0, 10_000), fraction=st.floats(0.0, 1.0))
def test_any_small_table_reads_on_a_phone(mode, seed, fraction):
    _assert_readable(_table_sizes(state(config(*mode), seed, fraction)))


@pytest.mark.parametrize("mode", LARGE_TABLES, ids=mode_id)
def test_large_tables_are_compact_but_each_kingdom_reads_large(mode):
    game = state(config(*mode), seed=3, fraction=0.5)
    sizes = _table_sizes(game)
    assert sizes["letter on a kingdom square"] >= 12, "three kingdoms to a row, each terrain's symbol still reads"
    assert sizes["name on a kingdom"] >= 14
    s = PHONE / LARGE_WIDTH
    for i in range(len(game.kingdoms)):
        grid = kingdom_layout(game, i)
        assert letter_size(grid.cell) * s >= 12 and crown_size(grid.cell) * s >= 12
        assert grid.label_size * s >= 14


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_the_large_kingdom_reads_on_a_phone_even_with_the_widest_frame(mode):
    start = state(config(*mode), seed=3, fraction=0.0)  # an empty kingdom: the widest frame
    grid = kingdom_layout(start, 0)
    s = PHONE / LARGE_WIDTH
    assert letter_size(grid.cell) * s >= 12 and crown_size(grid.cell) * s >= 12 and grid.label_size * s >= 14


def test_placement_panel_cells_read_on_a_phone():
    assert PANEL_WIDTH <= PHONE, "panel pictures are shown at full size"
    for mode in (MODES[0], MODES[4], MODES[6], MODES[-1]):
        game = state(config(*mode), seed=3, fraction=0.0)
        d = game.decision()
        while d.kind != "place":
            game.apply(game.legal_actions()[0])
            d = game.decision()
        for a in game.legal_actions():
            assert isinstance(a, Place)
            grid = placement_layout(game, d.kingdom, (a.row, a.col))
            assert letter_size(grid.cell) >= 12 and crown_size(grid.cell) >= 12 and grid.label_size >= 14


def test_letters_are_tall_enough_in_ink_too():
    """Font sizes are em sizes; the terrain letter's capital must itself stand at least 9 px on a phone (DejaVu
    Sans Bold capitals are 0.73 em), and names' capitals at least 10 px."""
    fonts.set_font_loader(None)
    game = state(config("royal-wedding", 8, True), seed=3, fraction=0.5)  # the most crowded small table
    layout = table_layout(game)
    s = PHONE / layout.width
    cell = min(g.cell for g in layout.grids)
    assert _cap_height(letter_size(cell)) * s >= 9
    assert _cap_height(layout.name_size) * s >= 10
