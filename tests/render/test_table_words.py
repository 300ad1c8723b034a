"""What the table and the kingdom say, read as a player would: a domino named as the text names it, the K and Q of
Royal Wedding explained, building names or codes a legend explains, captions that fit the step, plurals right,
terrains marked the same in every language, and no picture much taller than twice its width."""

from __future__ import annotations

import itertools
import re

import pytest

from engine import BUILD, PLACE, Build
from engine.components import building_types
from render import render_kingdom, render_table, render_table_pictures, splits, table_layout, tiles
from render.alt import kingdom_alt_text
from render.draw import recording_sizes
from render.kingdom import building_codes
from render.replay import _caption, replay_steps
from render.table import building_title

from .helpers import (
    MODES,
    SAMPLE_GAMES,
    active,
    config,
    largest_difference,
    mode_id,
    names_for,
    open_png,
    sample_states,
    state,
)

LANGS = ("en", "ro", "es", "cs")


def _texts(fn, *args, **kwargs) -> list[str]:
    with recording_sizes() as drawn:
        fn(*args, **kwargs)
    return [t for t, _ in drawn]


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_no_table_picture_is_taller_than_about_twice_its_width(mode):
    for fraction in (0.3, 0.6, 0.9):
        game = state(config(*mode), seed=2, fraction=fraction)
        parts = ("top", "kingdoms") if splits(game) else ("all",)
        for part in parts:
            layout = table_layout(game, part)
            assert layout.height <= 2.1 * layout.width, f"{part}: {layout.width}x{layout.height}"


def test_royal_wedding_tables_split_and_the_others_do_not():
    """Every mode drawn (Kingdomino too): a Royal Wedding table is two pictures of one width, any other table one."""
    drawn = set()
    for mode in MODES:
        game = state(config(*mode), seed=2, fraction=0.5)
        pictures = render_table_pictures(game, names_for(game), None, active(game))
        if mode[0] == "royal-wedding":
            assert len(pictures) == 2, mode
            top, kingdoms = (open_png(p) for p in pictures)
            assert top.width == kingdoms.width == 1000
        else:
            assert len(pictures) == 1, mode
            assert open_png(pictures[0]).width >= 780, mode
        drawn.add(mode[0])
    assert drawn == {"kingdomino", "queendomino", "royal-wedding"}


def test_a_placing_player_is_told_the_domino_by_the_number_the_text_uses():
    qd = sample_states("qd4")["place"]
    d = qd.decision()
    number = d.domino[1:]
    words = " ".join(_texts(render_table, qd, names_for(qd), None, d.player))
    assert f"places domino {number}" in words and d.domino not in words, "no Q before a Queendomino number"
    rw = sample_states("rw8")["place"]
    d = rw.decision()
    words = _texts(render_table, rw, names_for(rw), None, d.player, part="top")
    assert any(f"places domino {d.domino}" in w for w in words), "Royal Wedding keeps the box letter"
    assert "a domino from the Kingdomino box" in words and "a domino from the Queendomino box" in words
    kd = sample_states("kd2")["place"]
    d = kd.decision()
    place = next(a for a in kd.legal_actions())
    words = _texts(render_kingdom, kd, d.kingdom, names_for(kd), None, preview=(d.domino, place.placement))
    assert any(w.startswith(f"Preview: domino {d.domino[1:]} on ") for w in words), words


def test_the_royal_wedding_replay_names_the_box_of_a_domino():
    over = sample_states("rw8")["over"]
    steps = replay_steps(over.config, over.seed, [(p, a.to_dict()) for p, a in over.log])
    lines = [_caption(s, names_for(over), "Royal Wedding", 1)[1] for s in steps if s.domino]
    named = [m.group(1) for line in lines for m in re.finditer(r"domino (\w+)", line)]
    assert named and all(n[0] in "KQ" and n[1:].isdigit() for n in named), named


def test_the_build_step_caption_speaks_of_town_squares_and_the_score_is_explained():
    found = sample_states("qd4")
    game = found["build"].clone() if "build" in found else None
    assert game is not None and game.decision().kind == BUILD
    d = game.decision()
    spots = sorted({(a.row, a.col) for a in game.legal_actions() if isinstance(a, Build)})
    words = " ".join(_texts(render_kingdom, game, d.kingdom, names_for(game), None, legal_spots=spots))
    assert "town square" in words and "first square" not in words
    place = found["place"]
    assert place.decision().kind == PLACE
    spots = sorted({(a.row, a.col) for a in place.legal_actions()})
    words = " ".join(_texts(render_kingdom, place, place.decision().kingdom, names_for(place), None, legal_spots=spots))
    assert "can take the first square" in words
    words = _texts(render_kingdom, place, 0, names_for(place), None)
    total = place.scores()[0].total
    assert any(w.startswith(f"{total} points so far: ") or w.startswith(f"{total} point so far: ") for w in words)


def test_one_domino_placed_is_singular_in_english_and_czech():
    game = state(config("kingdomino", 2), seed=4, fraction=0.0)
    while len(game.kingdoms[0].placed) < 1 or game.decision().kind == PLACE:
        game.apply(game.legal_actions()[0])
    assert len(game.kingdoms[0].placed) == 1
    assert "1 domino placed" in kingdom_alt_text(game, 0, names_for(game))
    assert "1 přiložený dílek" in kingdom_alt_text(game, 0, names_for(game), lang="cs")
    assert "1 dominoes" not in kingdom_alt_text(game, 0, names_for(game))


@pytest.mark.parametrize("lang", LANGS)
def test_every_building_has_its_own_short_code_in_every_language(lang):
    names = {bid: building_title(lang, b.name, bid) for bid, b in building_types().items()}
    codes = building_codes(names)
    assert set(codes) == set(names)
    assert len({c.casefold() for c in codes.values()}) == len(codes), codes
    assert all(1 <= len(c) <= 2 for c in codes.values()), codes
    assert all(c[0].casefold() == names[bid].lstrip()[0].casefold() for bid, c in codes.items()), codes


def test_every_building_drawn_by_its_code_is_in_the_legend():
    for key in SAMPLE_GAMES:
        game = sample_states(key)["over"]
        if not game.queendomino_rules:
            continue
        layout = table_layout(game, "kingdoms" if splits(game) else "all", "cs")
        codes = dict(layout.codes)
        words = _texts(render_table, game, names_for(game), None, None, lang="cs", part=layout.part)
        for bid in layout.coded:
            assert codes[bid] in words and building_title("cs", building_types()[bid].name, bid) in words
    assert any(table_layout(sample_states(k)["over"], "all", "cs").coded for k in ("qd4",)), "some are coded"


def test_terrains_are_marked_by_symbols_the_same_in_every_language():
    terrains = ["wheat", "forest", "lake", "grassland", "swamp", "mine", "town"]
    plates = {t: tiles.symbol_plate(t, 48).convert("L").point(lambda v: 255 if v > 128 else 0) for t in terrains}
    for a, b in itertools.combinations(terrains, 2):
        assert plates[a].tobytes() != plates[b].tobytes(), f"{a} and {b} share a symbol"
    game = sample_states("qd4")["place"]
    assert not any(t in "WFLGSMT" for t in _texts(tiles.terrain_tile, "wheat", 1, 48)), "no letter on a square"
    en = open_png(render_table(game, names_for(game), None, None, lang="en"))
    cs = open_png(render_table(game, names_for(game), None, None, lang="cs"))
    box = table_layout(game).grids[0].grid_box
    layout_cs = table_layout(game, "all", "cs").grids[0].grid_box
    assert box == layout_cs
    square = next(
        (r, c)
        for r in range(9)
        for c in range(9)
        if game.kingdoms[0].square(r, c) is not None and (r, c) not in game.kingdoms[0].buildings
    )
    cell = table_layout(game).cell_box(0, *square)
    assert largest_difference(en, cs, cell) <= 30, "the same square at an English and a Czech table"


def test_a_kingdom_with_one_crown_says_crown_on_the_table():
    for seed in range(20):
        for fraction in (0.1, 0.2, 0.3):
            game = state(config("kingdomino", 2), seed=seed, fraction=fraction)
            counts = [sum(t.crowns for t in k.territories()) for k in game.kingdoms]
            if 1 in counts:
                words = _texts(render_table, game, names_for(game), None, None)
                assert "crown" in words, "1 crown"
                assert ("crowns" in words) == any(c != 1 for c in counts)
                return
    pytest.fail("no kingdom with exactly one crown found")
