"""Names from anywhere never break a picture; a failing picture never blocks a game; names never read the same."""

from __future__ import annotations

import logging
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Place
from render import (
    clean_name,
    fonts,
    kingdom_layout,
    render_dragon,
    render_kingdom,
    render_offer,
    render_placement,
    render_remaining,
    render_score_sheet,
    render_table,
    render_tax,
    safe_render,
    table_layout,
)
from render.draw import fit_names, player_names
from render.large import HEIGHT as LARGE_HEIGHT
from render.large import WIDTH as LARGE_WIDTH
from render.names import MAX_NAME

from .helpers import active, config, names_for, open_png, state

NASTY = [
    "Alice\u2029Bob",  # a paragraph separator: raqm_layout() failed on it
    "line\r\nbreak\u2028sep\u0085next\u001c\u001d\u001e",
    "\u202eevil\u202c \u2066iso\u2069 \u200bzero\u200dwidth\ufeff",
    "<@123> @everyone [click](https://x.y) # big",
    "Z̷̢̧̛̖̗̘̙̜̝̞̟̠̤̥̦̩̪̫̬̭̮̯̰̱̲̳̹̺̻̼ͅa̵l̶g̸o̷",
    "مرحبا بالعالم",
    "שלום עולם",
    "王小明 the Great",
    "ゆうき 🐉🎲👑",
    "W" * 32,
    "\u0000\u0007\u001b[31m",
    "   ",
    "",
]


def test_clean_name_removes_what_breaks_a_line_and_keeps_the_rest():
    assert clean_name("Alice\u2029Bob") == "Alice Bob"
    assert clean_name("line\r\nbreak") == "line break"
    assert clean_name("\u202eevil\u202c") == "evil"
    assert clean_name("zero\u200bwidth\u200d\ufeff") == "zerowidth"
    assert clean_name("  Bérénice   Ærø  ") == "Bérénice Ærø"
    assert clean_name("王小明") == "王小明"
    assert clean_name("مرحبا") == "مرحبا"
    assert clean_name("<@123> @everyone") == "<@123> @everyone", "mentions are the bot's business, not the picture's"
    zalgo = clean_name("Z̷̢̧̛̖̗̘̙a")
    assert len(zalgo) <= 4, "at most two marks on a letter"
    assert len(clean_name("x" * 100)) == MAX_NAME


@pytest.mark.parametrize("name", ["", "   ", "\u200b\u2029", "\u0000\u0007", "\u202e"])
def test_clean_name_is_never_empty(name):
    assert clean_name(name) == "Player"
    assert clean_name(name, fallback="p3") == "p3"


@given(st.text())
def test_clean_name_of_any_text_is_one_visible_line(name):
    cleaned = clean_name(name)
    assert cleaned and cleaned == cleaned.strip() and len(cleaned) <= MAX_NAME
    assert not any(ch in cleaned for ch in "\r\n\t\u2028\u2029\u0085\u001c\u001d\u001e\u200b\u202e\u2066")
    assert clean_name(cleaned) == cleaned, "cleaning twice changes nothing"


def test_a_name_no_font_can_draw_becomes_the_seat():
    game = state(config("kingdomino", 2), seed=1, fraction=0.3)
    names = player_names(game, {"p1": "\U00013000\U00010000", "p2": "Bob"})  # hieroglyph, Linear B: in no font
    assert names == {"p1": "Player 1", "p2": "Bob"}


def test_cut_names_never_read_the_same():
    names = {"a": "Bot 2 (easy) the unbeatable", "b": "Bot 2 (easy) the beatable", "c": "Alice"}
    cut = fit_names(names, 20, 150)
    assert len(set(cut.values())) == 3, cut
    assert cut["c"] == "Alice"


@pytest.mark.parametrize(
    "name", ["王小明 Li", "ゆうき", "김민수", "नमस्ते", "สวัสดี", "ሰላም", "🐉🎲👑", "مرحبا", "שלום"], ids=repr
)
def test_names_in_other_scripts_are_drawn_whole_with_a_fallback_font(name):
    f = fonts.font(20, True)
    parts = fonts.runs(name, f, fonts.fallback_fonts(20, True))
    assert "".join(t for t, _ in parts) == name, "nothing dropped: a font covers every letter"


def test_marks_stay_with_their_letter():
    parts = fonts.runs("नमस्ते", fonts.font(20, True), fonts.fallback_fonts(20, True))
    assert len(parts) == 1, "one run, so the script is shaped as a whole (no dotted circles)"


@cache
def _games():
    """One state for every picture: a Queendomino game for 4 at each kind of decision, and a finished game."""
    from engine import Game

    from .helpers import _log

    cfg = config("queendomino", 4)
    log = _log(cfg, 5)
    found = {}
    g = Game.new(cfg, 5)
    for i, (_, a) in enumerate(log):
        kind = g.decision().kind
        if kind not in found and i > len(log) // 3:
            found[kind] = g.clone()
        g.apply(a)
    found["over"] = g
    return found


def _every_picture(names):
    games = _games()
    place = games["place"]
    d = place.decision()
    spot = next(a for a in place.legal_actions() if isinstance(a, Place))
    pictures = {
        "table": (render_table(place, names, None, d.player), table_layout(place)),
        "kingdom": (
            render_kingdom(place, d.kingdom, names, None, preview=(d.domino, spot.placement)),
            kingdom_layout(place, d.kingdom),
        ),
        "placement": (render_placement(place, d.player, d.domino, (spot.row, spot.col), names, None), None),
        "offer": (render_offer(games["claim"], games["claim"].decision().player, names, None), None),
        "tax": (render_tax(games["tax"], games["tax"].decision().player, names, None), None),
        "dragon": (render_dragon(games["dragon"], games["dragon"].decision().player, names, None), None),
        "sheet": (render_score_sheet(games["over"], names, None), None),
        "table_over": (render_table(games["over"], names, None, None), table_layout(games["over"])),
        "remaining": (render_remaining(place), None),
    }
    return pictures


@cache
def _plain_sizes():
    return {k: open_png(data).size for k, (data, _) in _every_picture(names_for(_games()["place"])).items()}


def _check(names):
    for kind, (data, layout) in _every_picture(names).items():
        picture = open_png(data)
        if kind.startswith("table"):
            assert picture.size == (layout.width, layout.height)
        elif kind == "kingdom":
            assert picture.size == (LARGE_WIDTH, LARGE_HEIGHT)
        elif kind == "sheet":
            assert picture.width == _plain_sizes()[kind][0], "names never widen the score sheet"
        else:
            assert picture.size == _plain_sizes()[kind], f"{kind}: names never change the picture's size"


def test_nasty_names_draw_every_picture():
    ids = _games()["place"].players
    for i in range(0, len(NASTY), 4):
        _check({p: NASTY[(i + j) % len(NASTY)] for j, p in enumerate(ids)})


@settings(max_examples=25)
@given(st.lists(st.text(max_size=40), min_size=4, max_size=4))
def test_any_names_draw_every_picture(texts):
    ids = _games()["place"].players
    _check(dict(zip(ids, texts, strict=True)))


def test_safe_render_returns_none_and_logs_once(caplog):
    def broken(game):
        raise ValueError("raqm_layout() failed")

    game = state(config("kingdomino", 2), seed=1, fraction=0.3)
    with caplog.at_level(logging.WARNING, logger="render.names"):
        assert safe_render(broken, game) is None
        assert safe_render(broken, game) is None
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1, "the traceback once; later failures in one line"
    data = safe_render(render_table, game, None, None, active(game))
    assert data is not None and open_png(data).width == 1000
