"""The text grid in the reader's language: `/look kingdom text:True` and an alt text's compact grid use letters of
that language, one per terrain and no two alike, the castle's own two letters, and a legend in that language.

English W F L G S M T meant nothing to a Czech reader (L was the lake, while les and louka both start with L)."""

from __future__ import annotations

import re

import pytest

from engine.components import TERRAIN_LETTER
from i18n import LANGUAGES, PSEUDO, term, translate
from i18n import messages as M
from render.alt import grid_letters, grid_row, kingdom_alt_text, kingdom_text

from .helpers import MODES, config, mode_id, names_for, state

TERRAINS = list(M.GRID_LETTERS)
ENGLISH_WORDS = {"wheat": "wheat field", "castle": "castle"}


def word(lang: str, key: str) -> str:
    if lang == "en":
        return ENGLISH_WORDS.get(key, key)
    return term(lang, "castle") if key == "castle" else term(lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_terrain_has_its_own_letter_in_every_language(lang):
    letters, castle = grid_letters(lang)
    assert set(letters) == set(TERRAIN_LETTER)
    values = list(letters.values())
    assert len(set(values)) == len(values) == 7, f"{lang}: two terrains share a letter: {letters}"
    for terrain, letter in letters.items():
        assert len(letter) == 1 and letter.isalpha() and letter.isupper(), f"{lang} {terrain}: {letter!r}"
        # a letter of the word itself, so the legend reads as a reminder (K for louka, P for obilné pole)
        assert letter.lower() in word(lang, terrain).lower(), f"{lang} {terrain}: {letter} not in {word(lang, terrain)}"
    assert len(castle) == 2 and castle.isalpha() and castle.isupper(), f"{lang}: castle {castle!r}"
    assert castle[0].lower() in word(lang, "castle").lower()


def test_czech_letters_tell_forest_from_grassland():
    letters, _ = grid_letters("cs")
    assert letters["forest"] == "L" and letters["grassland"] != "L" and letters["lake"] != "L"


def test_the_pseudo_locale_keeps_the_two_character_cells():
    assert grid_letters(PSEUDO) == grid_letters("en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_grid_row_maps_every_cell_and_keeps_the_columns(lang):
    letters, castle = grid_letters(lang)
    row = "W2 F0 CC .. L1 G0 S3 M2 T0"
    out = grid_row(row, lang)
    assert len(out) == len(row)
    expected = [letters[t] for t in ("wheat", "forest")] + [castle, ".."]
    expected += [letters[t] for t in ("lake", "grassland", "swamp", "mine", "town")]
    assert [c if c in (castle, "..") else c[0] for c in out.split()] == expected
    assert [c[1] for c in out.split() if c not in (castle, "..")] == list("2010320")


def _cells(block: str, k) -> dict[tuple[int, int], str]:
    lines = block.splitlines()
    top, left, bottom, right = k.frame()
    out = {}
    for r in range(top, bottom + 1):
        label, *cells = lines[1 + r - top].split()
        assert label == str(r + 1)
        for c, cell in zip(range(left, right + 1), cells, strict=True):
            out[(r, c)] = cell
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("mode", [MODES[0], MODES[2], MODES[-1]], ids=mode_id)
def test_the_text_kingdom_is_written_in_the_readers_letters_with_a_legend_in_their_language(lang, mode):
    game = state(config(*mode), 4, 0.7)
    letters, castle = grid_letters(lang)
    for i, k in enumerate(game.kingdoms):
        block = kingdom_text(game, i, lang=lang)
        for (r, c), cell in _cells(block, k).items():
            sq = k.square(r, c)
            want = castle if k.is_castle(r, c) else f"{letters[sq.terrain]}{sq.crowns}" if sq else ".."
            assert cell == want
        legend = block.split("\n\n")[-1].splitlines()
        assert legend[0] == translate(lang, "Legend: letter = terrain, digit = crowns")
        pairs = dict(p.split(" ", 1) for p in legend[1].split(", "))
        shown = [t for t in TERRAINS if game.queendomino_rules or t != "town"]
        assert pairs == {letters[t]: (t if lang == "en" else term(lang, t)) for t in shown}
        assert legend[2].startswith(f"{castle} {word(lang, 'castle')}")
        if lang != "en":
            assert "Legend:" not in block and not re.search(r"\b(wheat|forest|lake|grassland|swamp|mine|town)\b", block)


@pytest.mark.parametrize("lang", ["ro", "es", "cs"])
def test_the_compact_alt_text_grid_uses_the_readers_letters(lang):
    """A 7x7 kingdom too long to tell cell by cell falls back to the grid: in the reader's letters too."""
    game = state(config("queendomino", 2), 0, 1.0)
    text = kingdom_alt_text(game, 0, {p: "W" * 30 for p in game.players}, lang=lang)
    letters, castle = grid_letters(lang)
    sentence = translate(lang, "Each cell is a terrain letter and its crowns: {letters}; {castle} castle.",
                         letters="", castle=castle)  # fmt: skip
    assert sentence.split(":")[0] in text, text
    k = game.kingdoms[0]
    top, left, _, right = k.bounds()
    first = " ".join(
        castle if k.is_castle(top, c) else f"{letters[k.square(top, c).terrain]}{k.square(top, c).crowns}"
        if k.square(top, c) else translate(lang, "empty")
        for c in range(left, right + 1)
    )  # fmt: skip
    assert translate(lang, "Row {row}: {cells}.", row=top + 1, cells=first) in text


def test_english_grid_is_unchanged():
    game = state(config("kingdomino", 2), 1, 0.5)
    names = names_for(game)
    assert "W wheat, F forest, L lake, G grassland, S swamp, M mine" in kingdom_text(game, 0)
    assert kingdom_alt_text(game, 0, names)  # still one paragraph in English
