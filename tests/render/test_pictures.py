"""Every kind of picture, in every mode and player count, at the start, halfway and at the end."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Place
from render import (
    PLAYER_COLOURS,
    kingdom_layout,
    render_kingdom,
    render_remaining,
    render_score_sheet,
    render_table,
    table_layout,
)
from render.palette import EMPTY_CELL, TERRAIN_COLOURS
from render.remaining import unseen_counts

from .helpers import MODES, active, config, mode_id, names_for, near, open_png, state


def _check_cells(picture, game, index, layout) -> int:
    """Each square's centre shows its terrain's colour; each empty cell of the grid shows the empty colour; the grid
    holds every square of the kingdom (the table shows one ring of cells around them, the large view the frame)."""
    k = game.kingdoms[index]
    checked = 0
    bt, bl, bb, br = k.bounds()
    assert layout.contains(bt, bl) and layout.contains(bb, br), "every square is shown"
    ft, fl, fb, fr = k.frame()
    assert ft <= layout.top and fl <= layout.left and layout.bottom <= fb and layout.right <= fr, "within the frame"
    top, left, bottom, right = layout.top, layout.left, layout.bottom, layout.right
    from render.kingdom import queen_cell

    queen = queen_cell(game, index)
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            x0, y0, x1, y1 = layout.cell_box(r, c)
            centre = picture.getpixel(((x0 + x1) // 2, (y0 + y1) // 2))
            # Icons sit on these cells (on small cells a knight covers the centre): other tests look at them.
            if k.is_castle(r, c) or (r, c) in k.buildings or (r, c) == queen or (r, c) in k.knights_placed:
                continue
            sq = k.square(r, c)
            want = EMPTY_CELL if sq is None else TERRAIN_COLOURS[sq.terrain]
            assert near(centre, want), f"kingdom {index} cell {(r, c)}: {centre} is not {want} ({sq})"
            checked += 1
    return checked


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
@pytest.mark.parametrize("fraction", [0.0, 0.5, 1.0])
def test_every_picture_renders_in_every_mode(mode, fraction):
    game = state(config(*mode), seed=3, fraction=fraction)
    names = names_for(game)

    table = open_png(render_table(game, names, None, active(game)))
    layout = table_layout(game)
    assert table.format == "PNG" and table.mode == "P"
    assert table.size == (layout.width, layout.height)
    assert table.width == 1000, "one width for every table: a phone shows it at 0.78"
    rgb = table.convert("RGB")
    for i in range(len(game.kingdoms)):
        _check_cells(rgb, game, i, layout.grids[i])

    for i in (0, len(game.kingdoms) - 1):
        kingdom = open_png(render_kingdom(game, i, names, None))
        _check_cells(kingdom.convert("RGB"), game, i, kingdom_layout(game, i))

    sheet = open_png(render_score_sheet(game, names, None))
    assert 400 <= sheet.width <= 1000 and sheet.height >= 200, "one column per kingdom: narrow enough for a phone"
    if len(game.kingdoms) <= 4:
        assert sheet.width <= 810

    remaining = open_png(render_remaining(game))
    assert remaining.width <= 600 and remaining.height <= 600, "the dominoes still to come are a small picture"


def test_table_regions_do_not_overlap():
    game = state(config("royal-wedding", 7), seed=5, fraction=0.5)
    layout = table_layout(game)
    boxes = [layout.lines, layout.board, *layout.panels]
    for i, a in enumerate(boxes):
        assert 0 <= a[0] < a[2] <= layout.width and 0 <= a[1] < a[3] <= layout.height
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], f"{a} overlaps {b}"
    for i, grid in enumerate(layout.grids):
        x0, y0, x1, y1 = grid.grid_box
        px0, py0, px1, py1 = layout.panels[i]
        assert px0 <= x0 and x1 <= px1 and py0 <= y0 and y1 <= py1, "a kingdom's grid stays in its panel"


def test_the_table_shows_each_kingdom_with_one_ring_of_cells_and_the_large_view_its_frame():
    cfg = config("kingdomino", 4)
    start, end = state(cfg, seed=2, fraction=0.0), state(cfg, seed=2, fraction=1.0)
    assert table_layout(start).grids[0].rows == 3, "the castle and the cells around it"
    assert kingdom_layout(start, 0).rows == 9, "the large view shows every cell a square could go to"
    grid = table_layout(end).grids[0]
    assert grid.rows == 5 and grid.cols == 5
    assert kingdom_layout(end, 0).rows == 5


def test_legal_spots_are_marked_and_the_preview_is_drawn_in_place():
    game = state(config("queendomino", 4), seed=4, fraction=0.5)
    while game.decision().kind != "place":
        game.apply(game.legal_actions()[0])
    d = game.decision()
    places = [a for a in game.legal_actions() if isinstance(a, Place)]
    spots = sorted({(a.row, a.col) for a in places})
    layout = kingdom_layout(game, d.kingdom)
    plain = open_png(render_kingdom(game, d.kingdom, None, None)).convert("RGB")
    marked = open_png(render_kingdom(game, d.kingdom, None, None, legal_spots=spots)).convert("RGB")
    from render.palette import LEGAL, PREVIEW

    for r, c in spots:
        x0, y0, x1, y1 = layout.cell_box(r, c)
        assert near(marked.getpixel((x0 + 2, (y0 + y1) // 2)), LEGAL), "a legal spot has a bright border"
        assert near(plain.getpixel((x0 + 2, (y0 + y1) // 2)), EMPTY_CELL, 24)

    place = places[-1]
    preview = open_png(render_kingdom(game, d.kingdom, None, None, preview=(d.domino, place.placement))).convert("RGB")
    from engine import domino

    for (r, c), sq in zip(place.placement.cells, domino(d.domino).squares, strict=True):
        x0, y0, x1, y1 = layout.cell_box(r, c)
        assert near(preview.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)), TERRAIN_COLOURS[sq.terrain])
    (r0, c0), (r1, c1) = place.placement.cells
    x0, y0, _, _ = layout.cell_box(min(r0, r1), min(c0, c1))
    assert near(preview.getpixel((x0 - 2, y0 + 10)), PREVIEW, 40), "the preview is outlined"


def test_remaining_counts_the_unseen_dominoes():
    from engine import domino

    game = state(config("royal-wedding", 5), seed=8, fraction=0.4)
    counts = unseen_counts(game)
    unseen = game.unseen_dominoes()
    assert sum(s for s, _ in counts.values()) == 2 * len(unseen)
    assert sum(c for _, c in counts.values()) == sum(domino(d).crowns for d in unseen)
    assert set(counts) == set(TERRAIN_COLOURS), "both boxes: town included"
    kd = state(config("kingdomino", 2), seed=8, fraction=0.4)
    assert "town" not in unseen_counts(kd)


@settings(max_examples=15)
@given(mode=st.sampled_from(MODES), seed=st.integers(0, 10_000), fraction=st.floats(0.0, 1.0))
def test_any_table_shows_every_square_and_highlights_the_active_player(mode, seed, fraction):
    game = state(config(*mode), seed, fraction)
    player = active(game)
    picture = open_png(render_table(game, names_for(game), None, player)).convert("RGB")
    layout = table_layout(game)
    for i in range(len(game.kingdoms)):
        _check_cells(picture, game, i, layout.grids[i])
    if player is not None:
        index = game.kingdom_of(player)
        x0, y0, _x1, y1 = layout.panels[index]
        colour = PLAYER_COLOURS[game.players.index(player)]
        assert near(picture.getpixel((x0 + 1, (y0 + y1) // 2)), colour, 16), "the active kingdom is outlined"


def test_pictures_drawn_from_several_threads_at_once_are_the_same():
    """The bot renders in worker threads: shared caches and fonts must not mix pictures up, even when cold."""
    from concurrent.futures import ThreadPoolExecutor

    from render import fonts

    games = [state(config(*mode), seed=3, fraction=0.5) for mode in MODES[::4]]
    expected = [render_table(g, names_for(g), None, active(g)) for g in games]
    fonts.set_font_loader(None)  # empties every cache that holds drawn text
    with ThreadPoolExecutor(6) as pool:
        drawn = list(pool.map(lambda g: render_table(g, names_for(g), None, active(g)), games * 3))
    assert drawn == expected * 3


@pytest.mark.parametrize("lang", ["en", "cs", "ro", "es"])
def test_a_knight_or_the_queen_on_a_building_leaves_its_name_whole(lang):
    # A knight sent to tax stands on a town square that may later hold a building: knight and queen then go in the
    # building's top band, and the name below stays exactly as drawn under towers (it was half covered before).
    from engine.components import building
    from render.kingdom import building_tile
    from render.large import kingdom_image
    from render.words import building_title

    game = state(config("queendomino", 2), 4, 1.0)
    index, k = next((i, k) for i, k in enumerate(game.kingdoms) if k.buildings)
    for cell in k.buildings:
        if cell not in k.knights_placed:
            k.knights_placed.append(cell)
    picture = kingdom_image(game, index, None, None, lang=lang)
    layout = kingdom_layout(game, index)
    s = layout.cell
    for (r, c), (bid, _towers) in k.buildings.items():
        x0, y0, x1, y1 = layout.cell_box(r, c)
        tile = building_tile(building_title(lang, building(bid).name, bid), s, True)
        band = round(s * 0.3)
        below = picture.crop((x0, y0 + band, x1, y1))
        assert below.tobytes() == tile.crop((0, band, s, s)).tobytes(), f"{bid}'s name is covered ({lang})"
        top = picture.crop((x0, y0, x1, y0 + band))
        assert top.tobytes() != tile.crop((0, 0, s, band)).tobytes(), "the knight stands in the band"
