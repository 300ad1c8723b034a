"""The component data matches the totals compiled in the reference README (rulebook count tables)."""

from collections import Counter

import pytest

from engine import building, building_types, domino
from engine.components import builders_board_spec, building_stack, kingdomino_dominoes, queendomino_dominoes

KINGDOMINO_TOTALS = {  # terrain: (squares, crowns)
    "wheat": (26, 5),
    "forest": (22, 6),
    "lake": (18, 6),
    "grassland": (14, 6),
    "swamp": (10, 6),
    "mine": (6, 10),
}
KINGDOMINO_BY_CROWNS = {  # terrain: {crowns on a square: how many squares}
    "wheat": {0: 21, 1: 5},
    "forest": {0: 16, 1: 6},
    "lake": {0: 12, 1: 6},
    "grassland": {0: 10, 1: 2, 2: 2},
    "swamp": {0: 6, 1: 2, 2: 2},
    "mine": {0: 1, 1: 1, 2: 3, 3: 1},
}
QUEENDOMINO_TOTALS = {
    "wheat": (19, 5),
    "forest": (17, 6),
    "lake": (14, 6),
    "grassland": (12, 6),
    "swamp": (8, 6),
    "mine": (6, 10),
    "town": (20, 0),
}


def _totals(dominoes):
    squares, crowns, by_crowns = Counter(), Counter(), {}
    for d in dominoes:
        for s in d.squares:
            squares[s.terrain] += 1
            crowns[s.terrain] += s.crowns
            by_crowns.setdefault(s.terrain, Counter())[s.crowns] += 1
    return squares, crowns, by_crowns


@pytest.mark.parametrize(
    ("dominoes", "box", "totals"),
    [(kingdomino_dominoes(), "K", KINGDOMINO_TOTALS), (queendomino_dominoes(), "Q", QUEENDOMINO_TOTALS)],
    ids=["kingdomino", "queendomino"],
)
def test_each_box_holds_48_dominoes_with_the_printed_square_counts(dominoes, box, totals):
    assert [d.number for d in dominoes] == list(range(1, 49))
    assert {d.box for d in dominoes} == {box}
    squares, crowns, _ = _totals(dominoes)
    assert {t: (squares[t], crowns[t]) for t in squares} == totals
    assert sum(squares.values()) == 96
    assert sum(crowns.values()) == 39


def test_kingdomino_squares_by_crowns():
    _, _, by_crowns = _totals(kingdomino_dominoes())
    assert {t: dict(c) for t, c in by_crowns.items()} == KINGDOMINO_BY_CROWNS


def test_town_squares_never_carry_printed_crowns():
    assert all(s.crowns == 0 for d in queendomino_dominoes() for s in d.squares if s.terrain == "town")
    assert not any(s.terrain == "town" for d in kingdomino_dominoes() for s in d.squares)


def test_domino_ids_name_box_and_number():
    assert domino("K23").id == "K23" and domino("K23").number == 23 and domino("K23").box == "K"
    assert domino("Q23").box == "Q"
    assert domino("K23") != domino("Q23")


def test_32_buildings_in_16_designs():
    types = building_types()
    assert len(types) == 16
    assert sum(b.copies for b in types.values()) == 32
    stack = building_stack()
    assert len(stack) == 32
    assert Counter(stack) == {b.id: b.copies for b in types.values()}


def test_builders_board_costs_supplies_and_start():
    spec = builders_board_spec()
    assert spec.costs == (5, 4, 3, 2, 1, 0)
    assert (spec.queen_discount, spec.cost_floor, spec.dragon_bribe) == (1, 0, 1)
    assert (spec.knights_supply, spec.towers_supply) == (22, 15)
    assert (spec.start_knights, spec.start_coins) == (1, 7)


def test_buildings_of_the_rulebook_score_example():
    # The 71-point example of the Queendomino rulebooks (seed 000 and 004) relies on these.
    assert building("sawmill").scoring == "per_territory" and building("sawmill").scoring_terrain == "forest"
    assert building("church").scoring == "per_territory" and building("church").scoring_terrain == "town"
    assert building("travelling_castle").scoring == "per_tower"
    assert (building("statue").scoring, building("statue").points) == ("fixed", 5)
    assert (building("guardtower").points, building("guardtower").towers) == (3, 2)
    # The rulebook's "Taverna" worth 2 points is the one-copy design, `big_tavern` in the data.
    assert (building("big_tavern").copies, building("big_tavern").points) == (1, 2)
    assert building("queens_tower").crowns == 1


def test_every_building_has_a_readable_effect():
    for b in building_types().values():
        assert b.effect_text() and b.effect_text() != "no effect", b.id
