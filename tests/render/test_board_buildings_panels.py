"""The builders' board's numbers are the engine's slots + 1; buildings are told apart; the turn panel pictures."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import render.table as table_module
from engine import Game, Place
from engine.components import building
from render import render_dragon, render_offer, render_placement, render_table, render_tax
from render.kingdom import building_tile
from render.palette import LEGAL, PREVIEW, TERRAIN_COLOURS
from render.panels import offer_line, placement_layout

from .helpers import _log, config, largest_difference, names_for, near, open_png

DATA = Path(__file__).resolve().parents[2] / "engine" / "data" / "queendomino_buildings.json"
BUILDINGS = [b["id"] for b in json.loads(DATA.read_text())["buildings"]]


def _first(cfg, seed, test):
    game = Game.new(cfg, seed)
    for _, action in _log(cfg, seed):
        if test(game):
            return game
        game.apply(action)
    pytest.skip("no such state in this game")


def test_board_slots_are_numbered_1_to_6_in_reading_order_and_the_words_use_the_same_number(monkeypatch):
    game = _first(config("queendomino", 4), 5, lambda g: g.dragon_slot is not None)
    tabs, words = [], []
    real_tab, real_text = table_module._slot_tab, table_module.text

    def tab(draw, x, y, number):
        tabs.append((y, x, number))
        real_tab(draw, x, y, number)

    def text(draw, xy, s, *args, **kwargs):
        words.append((s, xy))
        return real_text(draw, xy, s, *args, **kwargs)

    monkeypatch.setattr(table_module, "_slot_tab", tab)
    monkeypatch.setattr(table_module, "text", text)
    render_table(game, None, None, None)
    assert [n for _, _, n in sorted(tabs)] == [1, 2, 3, 4, 5, 6], "left to right, top to bottom"
    number = game.dragon_slot + 1
    assert any(s.endswith(f"burned slot {number}") for s, _ in words)
    (bx, by) = next(xy for s, xy in words if s == "burned")
    card = max((t for t in tabs if t[0] <= by and t[1] <= bx), key=lambda t: (t[0], t[1]))
    assert card[2] == number, "the burned card carries the number the words give"


def test_every_building_looks_different_on_a_table_square():
    for size in (46, 54, 73):
        tiles = {bid: building_tile(building(bid).name, size).convert("RGB") for bid in BUILDINGS}
        for (a, ta), (b, tb) in itertools.combinations(tiles.items(), 2):
            if building(a).name == building(b).name:
                continue
            assert largest_difference(ta, tb) > 100, f"{a} and {b} look the same at {size} px"


def _placing(cfg, seed):
    return _first(cfg, seed, lambda g: g.decision() is not None and g.decision().kind == "place" and g.round > 2)


@pytest.mark.parametrize("mode", [("kingdomino", 2), ("queendomino", 4), ("royal-wedding", 8, True)])
def test_placement_shows_the_first_square_and_each_legal_second_square(mode):
    game = _placing(config(*mode), 5)
    d = game.decision()
    places = [a for a in game.legal_actions() if isinstance(a, Place)]
    for cell in sorted({(a.row, a.col) for a in places})[:4]:
        picture = open_png(render_placement(game, d.player, d.domino, cell, names_for(game), None)).convert("RGB")
        assert picture.width == 780
        layout = placement_layout(game, d.kingdom, cell)
        x0, y0, x1, y1 = layout.cell_box(*cell)
        from engine import domino

        first = domino(d.domino).squares[0]
        assert near(picture.getpixel(((x0 + x1) // 2, (y0 + y1) // 2 + 4)), TERRAIN_COLOURS[first.terrain], 30)
        assert near(picture.getpixel((x0 + 1, (y0 + y1) // 2)), PREVIEW, 30), "the chosen cell is outlined"
        seconds = [a for a in places if (a.row, a.col) == cell]
        for a in seconds:
            (r2, c2) = a.placement.cells[1]
            bx0, by0, _, by1 = layout.cell_box(r2, c2)
            assert near(picture.getpixel((bx0 + 1, (by0 + by1) // 2)), LEGAL, 30), f"{a.direction} is marked"


def test_offer_tax_and_dragon_pictures():
    cfg = config("queendomino", 4)
    claim = _first(cfg, 5, lambda g: g.decision() is not None and g.decision().kind == "claim")
    assert offer_line(claim) is claim.next_line
    offer = open_png(render_offer(claim, claim.decision().player, None, None))
    assert offer.width == 780 and offer.height < 500
    tax = _first(cfg, 5, lambda g: g.decision() is not None and g.decision().kind == "tax")
    assert open_png(render_tax(tax, tax.decision().player, None, None)).size == (780, 314)
    dragon = _first(cfg, 5, lambda g: g.decision() is not None and g.decision().kind == "dragon")
    picture = open_png(render_dragon(dragon, dragon.decision().player, None, None))
    assert picture.width == 780 and picture.height < 600
    first = _first(config("kingdomino", 3), 2, lambda g: g.decision() is not None)
    assert offer_line(first) is first.current_line, "during set-up the first line is on offer"
    assert open_png(render_offer(first, first.decision().player, None, None)).width == 780


def test_a_long_word_breaks_where_a_syllable_does():
    from render.kingdom import hyphenate

    assert hyphenate("Pescăria") == ("Pescă-", "ria")  # before a consonant between vowels, nearest the middle
    assert hyphenate("Tesorería") == ("Teso-", "rería")
    assert hyphenate("Tkalcovna") == ("Tkal-", "covna")  # else between two consonants
    assert hyphenate("Pokladna") == ("Po-", "kladna")  # but not inside a stop and l or r (not Pok-ladna)
    assert hyphenate("Guardtower") == ("Guard-", "tower")  # the curated English breaks first
    assert hyphenate("Hanul") == ("Hanul",)  # short words stay whole
    assert hyphenate("Krčma") == ("Krčma",)


@pytest.mark.parametrize("lang", ["en", "ro", "es", "cs"])
def test_one_word_building_names_are_written_out_on_the_smallest_table_square(lang):
    """On the table's smallest kingdom squares (46 px) a one-word name is never cut to its initial (Romanian
    "Pescăria" and "Vistieria", Spanish "Herrería", Czech "Pokladna" were a bare letter): it breaks at a syllable,
    and every row stays inside the plate's border."""
    from render.alt import building_title
    from render.draw import text_width
    from render.kingdom import building_lines

    size = 46
    room = size - 2 * max(2, size // 20) - 2
    for bid in BUILDINGS:
        name = building_title(lang, building(bid).name, bid)
        font, rows = building_lines(name, size, size - round(size * 0.3) - max(2, size // 20))
        assert all(text_width(r, font, True) <= room for r in rows), (name, rows)
        if len(name.split()) == 1:
            assert "".join(rows).replace("-", "") == name.replace("-", ""), (name, rows)
            assert font >= 9, (name, font)
