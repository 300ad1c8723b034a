"""Fonts (DejaVu Sans, or Pillow's built-in font when it is missing), accented and long names."""

from __future__ import annotations

from pathlib import Path

import pytest

from render import fonts, render_kingdom, render_score_sheet, render_table, table_layout, using_font_loader
from render.draw import text_width
from render.table import NOTE_SIZE, PANEL_HEADER, SCORE_SIZE

from .helpers import active, config, largest_difference, names_for, open_png, state

DEJAVU = (fonts.FONT_DIR / fonts.FONT_FILES[False]).exists()
needs_dejavu = pytest.mark.skipif(not DEJAVU, reason="fonts-dejavu-core is not installed")


def test_default_loader_falls_back_to_pillows_font_without_dejavu(monkeypatch, tmp_path: Path):
    monkeypatch.setattr(fonts, "FONT_DIR", tmp_path / "no-fonts-here")
    font = fonts.default_loader(20, True)
    assert font.getname()[0] == "Aileron"


@needs_dejavu
def test_dejavu_is_used_when_installed():
    fonts.set_font_loader(None)
    assert fonts.font(20).getname()[0] == "DejaVu Sans"
    assert fonts.font(20, True).getname() == ("DejaVu Sans", "Bold")


def test_every_picture_renders_with_the_fallback_font():
    game = state(config("queendomino", 4), seed=6, fraction=0.6)
    names = names_for(game)
    with using_font_loader(fonts.builtin_font):
        assert fonts.font(20).getname()[0] == "Aileron"
        table = open_png(render_table(game, names, None, active(game)))
        kingdom = open_png(render_kingdom(game, 1, names, None))
        sheet = open_png(render_score_sheet(game, names, None))
        layout = table_layout(game)  # which building names fit their squares depends on the font
    assert table.size == (layout.width, layout.height)
    assert kingdom.width > 0 and sheet.width > 0
    if DEJAVU:
        assert fonts.font(20).getname()[0] == "DejaVu Sans", "the loader is restored afterwards"
        normal = open_png(render_table(game, names, None, active(game)))
        assert largest_difference(table, normal) > 100


@needs_dejavu
def test_accents_are_kept_with_dejavu_and_spelled_plainly_without():
    name = "Bérénice Łukasiewicz Ærø Straße"
    assert fonts.drawable(name, fonts.system_font(20, False)) == name
    assert fonts.drawable(name, fonts.builtin_font(20, False)) == "Berenice Lukasiewicz AEro Strasse"


@pytest.mark.parametrize("loader", [fonts.default_loader, fonts.builtin_font], ids=["dejavu", "fallback"])
def test_long_names_are_cut_with_an_ellipsis(loader):
    font = loader(20, True)
    long = "Bartholomew the Magnificent of the Seven Kingdoms " * 4
    cut = fonts.fit(long, font, 180)
    assert cut.endswith(fonts.ellipsis(font)) and len(cut) < len(long)
    assert font.getlength(cut) <= 180
    assert fonts.fit("Alice", font, 180) == "Alice"


def test_a_long_name_never_spills_over_the_score():
    game = state(config("kingdomino", 4), seed=9, fraction=0.5)
    short = names_for(game)
    long = {**short, "p1": "Maximilian-Alexander von Hohenzollern-Sigmaringen the Unbelievably Long-Named"}
    a = open_png(render_table(game, short, None, None)).convert("RGB")
    b = open_png(render_table(game, long, None, None)).convert("RGB")
    assert a.size == b.size, "names never change the layout"
    x0, y0, x1, _ = table_layout(game).panels[0]
    score = str(game.scores()[0].total)
    score_left = x1 - 12 - text_width("pts", NOTE_SIZE) - 4 - text_width(score, SCORE_SIZE, True)
    score_area = (round(score_left) - 8, y0 + 4, x1 - 4, y0 + PANEL_HEADER)
    assert largest_difference(a, b, score_area) <= 24, "palette rounding only: a name over the score differs by 100s"
    name_area = (x0 + 60, y0 + 4, round(score_left) - 8, y0 + PANEL_HEADER)
    assert largest_difference(a, b, name_area) > 100


def test_missing_names_show_player_ids_and_colours_can_be_chosen():
    game = state(config("kingdomino", 2), seed=1, fraction=0.3)
    default = open_png(render_table(game, None, None, None)).convert("RGB")
    custom = open_png(render_table(game, {"p1": "Zoë"}, {"p1": (10, 200, 30)}, "p1")).convert("RGB")
    assert default.size == custom.size
    assert largest_difference(default, custom) > 100
