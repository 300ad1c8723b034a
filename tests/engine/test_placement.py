"""Placement: rotation, connection, the 5x5 / 7x7 frame, occupied cells; one function decides, and it agrees with a
brute-force reading of the rules."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import DIRECTIONS, IllegalPlacement, Kingdom, Placement, cell_name, domino, parse_cell

from . import independent as ind

ALL_IDS = sorted(ind.DOMINOES)


def at(name: str, direction: str) -> Placement:
    return Placement(*parse_cell(name), direction)


def cells_of(k: Kingdom) -> dict:
    """The kingdom's squares as (row, col) -> text, for comparisons."""
    return {(r, c): k.square(r, c).text for r in range(k.n) for c in range(k.n) if k.square(r, c)}


def test_castle_is_e5_on_5x5_and_g7_on_7x7():
    assert cell_name(*Kingdom(5).castle) == "E5" and Kingdom(5).is_castle(*parse_cell("E5"))
    assert cell_name(*Kingdom(7).castle) == "G7" and Kingdom(7).is_castle(*parse_cell("G7"))


def test_first_domino_touches_the_castle_with_either_square_in_every_direction():
    k = Kingdom(5)
    placements = k.legal_placements(domino("K13"))  # W0 F0
    # 4 cells around the castle x (first or second square there) x 3 directions away from the castle.
    assert len(placements) == len(set(placements)) == 24
    assert {p.direction for p in placements} == set(DIRECTIONS)
    around = {parse_cell(c) for c in ("E4", "F5", "E6", "D5")}
    firsts = {p.cells[0] for p in placements}
    seconds = {p.cells[1] for p in placements}
    assert around <= firsts and around <= seconds


@pytest.mark.parametrize(("direction", "second"), [("up", "E3"), ("right", "F4"), ("left", "D4")])
def test_first_printed_square_goes_on_the_cell_and_the_second_towards_the_direction(direction, second):
    k = Kingdom(5)
    k.place(domino("K13"), at("E4", direction))  # W0 then F0
    assert k.square(*parse_cell("E4")).text == "W0"
    assert k.square(*parse_cell(second)).text == "F0"
    assert k.placed == [("K13", (parse_cell("E4"), parse_cell(second)))]


def test_swapping_the_squares_is_another_placement():
    a, b = Kingdom(5), Kingdom(5)
    a.place(domino("K13"), at("F5", "right"))
    b.place(domino("K13"), at("G5", "left"))
    assert cells_of(a) == {parse_cell("F5"): "W0", parse_cell("G5"): "F0"}
    assert cells_of(b) == {parse_cell("F5"): "F0", parse_cell("G5"): "W0"}


def test_a_matching_terrain_connects_and_the_castle_connects_anything():
    k = Kingdom.from_text("CC W0", 5)  # castle E5, wheat F5
    assert k.placement_problem(domino("K14"), at("F4", "up")) is None  # W0 next to the wheat
    assert k.placement_problem(domino("K17"), at("E4", "up")) is None  # F0 L0 next to the castle
    for p in (at("F4", "up"), at("G5", "right"), at("F6", "down")):  # F0 L0 touching only wheat
        assert k.placement_problem(domino("K17"), p) == (
            "That spot is not connected to the castle or to a square of the same terrain."
        )


def test_diagonal_contact_does_not_connect():
    k = Kingdom.from_text(["CC W0", ".. .."], 5)
    # G6 touches F5 (wheat) only diagonally... and E6/F6 directly: use a cell that only touches diagonally.
    assert k.placement_problem(domino("K1"), at("G4", "up")) is not None  # G4-G3: diagonal to F5 only
    assert k.placement_problem(domino("K1"), at("G5", "right")) is None  # G5 is next to F5


def test_the_other_square_of_the_same_domino_does_not_connect_it():
    k = Kingdom(5)
    # W0 W0 far from everything: each square touches the other but nothing in the kingdom.
    assert k.placement_problem(domino("K1"), at("B2", "right")) is not None


def test_both_squares_need_empty_cells():
    k = Kingdom.from_text("CC W0", 5)
    assert "F5 is already taken" in k.placement_problem(domino("K1"), at("F5", "up"))
    assert "F5 is already taken" in k.placement_problem(domino("K1"), at("F4", "down"))
    assert "E5 is the castle" in k.placement_problem(domino("K1"), at("E4", "down"))
    with pytest.raises(IllegalPlacement, match="already taken"):
        k.place(domino("K1"), at("F5", "up"))
    assert cells_of(k) == {parse_cell("F5"): "W0"}


def test_cells_off_the_table_are_refused():
    k = Kingdom(5)
    assert "outside the table" in k.placement_problem(domino("K1"), Placement(0, 0, "up"))
    assert "outside the table" in k.placement_problem(domino("K1"), Placement(8, 8, "right"))


def test_an_unknown_direction_is_refused_not_crashed():
    assert "Unknown direction" in Kingdom(5).placement_problem(domino("K1"), Placement(3, 4, "diagonal"))


def test_5x5_frame():
    k = Kingdom.from_text("CC W0 W0 W0 W0", 5)  # already 5 wide
    assert k.placement_problem(domino("K1"), at("J5", "right")) is not None
    assert "5x5" in k.placement_problem(domino("K1"), at("D5", "left"))
    assert "wide" in k.placement_problem(domino("K1"), at("D5", "up"))
    # Growing downwards is fine up to 5 rows, not 6.
    assert k.placement_problem(domino("K1"), at("F6", "down")) is None
    tall = Kingdom.from_text(["CC W0", ".. W0", ".. W0", ".. W0", ".. W0"], 5)
    assert "tall" in tall.placement_problem(domino("K1"), at("E4", "up"))


def test_7x7_frame():
    k = Kingdom.from_text("CC W0 W0 W0 W0 W0 W0", 7)
    assert "7x7" in k.placement_problem(domino("K1"), at("F7", "up"))  # one column left of the castle
    assert k.placement_problem(domino("K1"), at("G6", "up")) is None
    assert k.placement_problem(domino("K1"), at("H6", "up")) is None


def test_the_castle_may_end_in_a_corner():
    k = Kingdom(5)
    moves = [
        ("K1", "F5", "right"),  # CC W W
        ("K2", "H5", "right"),  # CC W W W W: the castle on the left edge
        ("K13", "E6", "down"),  # W below the castle, F under it
        ("K3", "E8", "down"),  # forest down to row 9: the castle in the top-left corner
    ]
    for did, cell, direction in moves:
        k.place(domino(did), at(cell, direction))
    assert k.bounds() == (4, 4, 8, 8)
    assert k.text_rows()[0] == "CC W0 W0 W0 W0"
    # Nothing may go above or left of the castle any more.
    for did in ALL_IDS:
        for p in k.legal_placements(domino(did)):
            assert all(r >= 4 and c >= 4 for r, c in p.cells)


def test_frame_bounds_every_legal_placement():
    k = Kingdom.from_text(["CC W0 W0"], 5)
    top, left, bottom, right = k.frame()
    # Every 5x5 window that still holds the kingdom: 1 row used leaves 4 either way, 3 columns leave 2.
    assert (bottom - top + 1, right - left + 1) == (9, 7)
    for p in k.legal_placements(domino("K1")):
        assert all(top <= r <= bottom and left <= c <= right for r, c in p.cells)


def _random_kingdom(size: int, seed: int, steps: int) -> tuple[Kingdom, dict]:
    """A kingdom grown by random legal placements (chosen with the independent model), engine and model alike."""
    rng = random.Random(seed)
    k = Kingdom(size)
    grid = ind.new_grid(size)
    pool = rng.sample(ALL_IDS, len(ALL_IDS))
    for did in pool[:steps]:
        options = sorted(ind.all_legal(grid, size, did))
        if not options:
            continue
        r, c, d = rng.choice(options)
        k.place(domino(did), Placement(r, c, d))
        ind.put(grid, did, (r, c), d)
    return k, grid


@settings(max_examples=60)
@given(
    size=st.sampled_from([5, 7]),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 26),
    probe=st.sampled_from(ALL_IDS),
)
def test_legal_placements_agree_with_brute_force(size, seed, steps, probe):
    k, grid = _random_kingdom(size, seed, steps)
    assert k.text_rows() == ind.rows_of(grid)
    got = {(p.row, p.col, p.direction) for p in k.legal_placements(domino(probe))}
    assert got == ind.all_legal(grid, size, probe)
    assert k.can_place(domino(probe)) == bool(got)


@settings(max_examples=200)
@given(
    size=st.sampled_from([5, 7]),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 20),
    probe=st.sampled_from(ALL_IDS),
    row=st.integers(-2, 14),
    col=st.integers(-2, 14),
    direction=st.sampled_from(list(DIRECTIONS)),
)
def test_placement_problem_is_none_exactly_when_the_rules_allow(size, seed, steps, probe, row, col, direction):
    k, grid = _random_kingdom(size, seed, steps)
    n = 2 * size - 1
    second = ind.second_cell((row, col), direction)
    on_table = all(0 <= x < n for x in (row, col, *second))
    expected = on_table and ind.is_legal(grid, size, probe, (row, col), direction)
    problem = k.placement_problem(domino(probe), Placement(row, col, direction))
    assert (problem is None) == expected, problem
    if problem is not None:
        before = k.text_rows()
        with pytest.raises(IllegalPlacement):
            k.place(domino(probe), Placement(row, col, direction))
        assert k.text_rows() == before
