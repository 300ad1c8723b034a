"""Alt text and the text kingdom: always within Discord's limits, plain, and saying what the pictures show."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, cell_name, domino
from render.alt import (
    ALT_LIMIT,
    CODE_BLOCK_LIMIT,
    chart_alt_text,
    fit,
    kingdom_alt_text,
    kingdom_text,
    plain_name,
    replay_alt_text,
    sheet_alt_text,
    table_alt_text,
)

from .helpers import MODES, NAMES, _log, config, mode_id, state

MARKDOWN = re.compile(r"[*_~`|<>@\[\]\\]")
ugly_names = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("*_~`|>#@[]()\\\n\t "),
    max_size=120,
)


def _check_alt(text: str) -> None:
    assert 0 < len(text) <= ALT_LIMIT
    assert "\n" not in text and "\r" not in text
    assert not MARKDOWN.search(text), text
    assert text == text.strip()


def _names(game: Game, draw) -> dict[str, str]:
    return {p: draw(ugly_names) for p in game.players}


@settings(max_examples=40)
@given(st.sampled_from(MODES), st.integers(0, 3), st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]), st.data())
def test_every_alt_text_fits_in_1024_plain_characters(mode, seed, fraction, data):
    cfg = config(*mode)
    game = state(cfg, seed, fraction)
    names = _names(game, data.draw)
    _check_alt(table_alt_text(game, names))
    _check_alt(sheet_alt_text(game, names))
    _check_alt(replay_alt_text(game, names))
    _check_alt(chart_alt_text(game, names))
    for i, k in enumerate(game.kingdoms):
        _check_alt(kingdom_alt_text(game, k.players[0], names))
        block = kingdom_text(game, i)
        assert len(block) <= CODE_BLOCK_LIMIT and "`" not in block
        assert len(f"```\n{block}\n```") <= 2000


@pytest.mark.parametrize("mode", [m for m in MODES if m[2] or m[1] == 7 or m[0] == "queendomino"], ids=mode_id)
def test_the_longest_names_still_fit(mode):
    cfg = config(*mode)
    game = state(cfg, 1, 0.6)
    names = {p: "W" * 200 for p in game.players}
    for text in (table_alt_text(game, names), sheet_alt_text(game, names), chart_alt_text(game, names)):
        _check_alt(text)
    _check_alt(kingdom_alt_text(game, 0, names))


def test_table_says_whose_turn_the_scores_and_the_dominoes():
    cfg = config("kingdomino", 2)
    game = state(cfg, 2, 0.5)
    names = {"p1": "Ann", "p2": "Bob"}
    text = table_alt_text(game, names)
    d = game.decision()
    assert text.startswith("Table of Kingdomino, 2 players, round ")
    assert f"{names[d.player]}'s turn" in text
    totals = game.match_totals()
    assert f"Ann {totals[0]}" in text and f"Bob {totals[1]}" in text
    for dom, _ in game.current_line + game.next_line:
        assert f"{domino(dom).number} (" in text
    over = state(cfg, 2, 1.0)
    assert "Game over: " in table_alt_text(over, names)


def test_names_are_made_plain():
    assert plain_name("**Ann**\n_the_ `great`") == "Ann the great"
    assert plain_name("<@123> @everyone") == "123 everyone"
    assert plain_name("   ") == "a player"
    assert len(plain_name("x" * 100)) == 40


def test_fit_cuts_at_a_word_with_an_ellipsis():
    assert fit(["One.", "Two."]) == "One. Two."
    text = fit(["A" * 20 + ".", "word " * 10], limit=40)
    assert text.endswith("…") and len(text) <= 40 and text.startswith("A" * 20 + ". word")
    assert fit(["x" * 2000]).endswith("…") and len(fit(["x" * 2000])) <= ALT_LIMIT


def test_kingdom_alt_text_reads_the_rows():
    cfg = config("kingdomino", 2)
    game = state(cfg, 3, 1.0)
    text = kingdom_alt_text(game, "p1", {"p1": "Ann"})
    k = game.kingdoms[0]
    top, _, bottom, _ = k.bounds()
    assert text.startswith("Kingdom of Ann, ")
    assert "castle on E5" in text
    for r in range(top, bottom + 1):
        assert f"Row {r + 1}:" in text


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_kingdom_text_is_the_grid_with_the_game_s_cell_names(mode):
    cfg = config(*mode)
    game = state(cfg, 4, 0.7)
    for i, k in enumerate(game.kingdoms):
        block = kingdom_text(game, i)
        lines = block.splitlines()
        top, left, bottom, right = k.frame()
        header = lines[0].split()
        assert header == [chr(ord("A") + c) for c in range(left, right + 1)]
        for r in range(top, bottom + 1):
            label, *cells = lines[1 + r - top].split()
            assert label == str(r + 1)
            for c, cell in zip(range(left, right + 1), cells, strict=True):
                sq = k.square(r, c)
                want = "CC" if k.is_castle(r, c) else (sq.text if sq else "..")
                assert cell == want, f"{cell_name(r, c)}"
        castle = "E5" if k.size == 5 else "G7"
        assert f"CC castle ({castle})" in block
        assert "Legend" in block


def test_replay_and_chart_alt_text_tell_the_story():
    cfg = config("royal-wedding", 8, True)
    log = list(_log(cfg, 1))
    game = Game.replay(cfg, 1, log)
    names = {p: NAMES[i] for i, p in enumerate(cfg.players)}
    replay = replay_alt_text(game, names)
    assert replay.startswith("Animated replay of Royal Wedding, 8 players in 4 teams: ")
    assert "Final scores: " in replay and "Alice and Bérénice" in replay
    chart = chart_alt_text(game, names)
    assert chart.startswith("Line chart of each kingdom's score after every round")
    total = game.result().totals[0]
    assert f"Alice and Bérénice {total}" in chart
