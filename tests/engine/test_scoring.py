"""Scoring: the rulebook examples, bonuses, buildings, the queen, coins, and the tie-breaks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Kingdom, building_types, score_kingdom
from engine.scoring import rank

from . import independent as ind

QUEENDOMINO_71 = [
    "G1 G1 G1 T0 T0",
    "G0 W1 CC L1 L1",
    "T0 W0 W0 L0 F1",
    "F1 T0 M2 M2 S1",
    "F0 T0 M0 T0 F0",
]
# Grid-relative cells of the six buildings; the castle is at grid (1, 2).
BUILDINGS_71 = {
    (0, 3): ("sawmill", 0),
    (0, 4): ("church", 0),
    (2, 0): ("travelling_castle", 1),
    (3, 1): ("big_tavern", 0),  # the rulebook's 2-point "Taverna"
    (4, 1): ("statue", 0),
    (4, 3): ("guardtower", 2),
}


def kingdom(rows, size=5, buildings=None, coins=0, knights=0, castle_at=None) -> Kingdom:
    """A kingdom from its text form, with buildings given at grid-relative cells."""
    k = Kingdom.from_text(rows, size)
    rows = [r.split() for r in rows]
    cr, cc = next((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == "CC")
    for (r, c), (bid, towers) in (buildings or {}).items():
        k.buildings[(r - cr + size - 1, c - cc + size - 1)] = [bid, towers]
    k.coins = coins
    k.knights_reserve = knights
    return k


def test_kingdomino_rulebook_example_seven_forests_with_three_crowns_make_21():
    # Seed 001: "7 forest squares and 3 crowns: 7 x 3 = 21"; "9 lake squares and no crown: 0".
    rows = ["F1 F1 F1 F0 ..", "F0 F0 F0 CC ..", "L0 L0 L0 L0 L0", "L0 L0 L0 L0 .."]
    s = score_kingdom(kingdom(rows), queendomino=False)
    assert s.total == 21
    assert s.terrains == {"forest": 21, "lake": 0}
    assert sorted((t.terrain, t.size, t.crowns, t.points) for t in s.territories) == [
        ("forest", 7, 3, 21),
        ("lake", 9, 0, 0),
    ]
    assert s.largest_territory == 9 and s.total_crowns == 3


def test_queendomino_rulebook_example_totals_71():
    # Seeds 000 and 004, the score example: 24 squares, exactly a 5x5 around the castle.
    k = kingdom(QUEENDOMINO_71, buildings=BUILDINGS_71, coins=11, knights=1)
    assert sum(1 for r in QUEENDOMINO_71 for x in r.split() if x not in ("CC", "..")) == 24
    s = score_kingdom(k, queendomino=True, hosts_queen=True)
    assert s.coins == 3  # 11 coins
    assert s.terrains == {
        "wheat": 3,  # 3 x 1
        "forest": 3,  # 2 x 1 + 1 x 1, and a third forest without crowns
        "lake": 6,  # 3 x 2
        "grassland": 12,  # 4 x 3 ...
        "swamp": 1,
        "mine": 12,  # 3 x 4
        "town": 0,  # four towns, no crown building
    }
    assert s.queen == 4  # ... + the queen's crown on the 4 grassland squares: 16
    assert dict(s.buildings) == {
        "sawmill": 6,  # 3 forest territories
        "church": 8,  # 4 town territories
        "travelling_castle": 3,  # 3 towers
        "big_tavern": 2,
        "statue": 5,
        "guardtower": 3,
    }
    assert s.total == 71
    assert s.parts() == {
        "wheat": 3,
        "forest": 3,
        "lake": 6,
        "grassland": 12,
        "swamp": 1,
        "mine": 12,
        "town": 0,
        "queen": 4,
        "buildings": 27,
        "coins": 3,
        "middle_kingdom": 0,
        "harmony": 0,
    }
    # The independent scorer agrees.
    grid = ind.grid_from_rows(QUEENDOMINO_71, 5)
    cells = {(r - 1 + 4, c - 2 + 4): b for (r, c), (b, _) in BUILDINGS_71.items()}
    assert ind.score(grid, 5, queendomino=True, buildings=cells, towers=3, coins=11, queen=True)["total"] == 71


def test_the_castle_joins_no_territory():
    s = score_kingdom(kingdom(["W1 CC W1"]), queendomino=False)
    assert [t.size for t in s.territories] == [1, 1] and s.total == 2


def test_separate_territories_of_one_terrain_score_separately():
    s = score_kingdom(kingdom(["W1 W0 CC W1 W1", ".. .. .. .. W0"]), queendomino=False)
    assert s.terrains == {"wheat": 2 * 1 + 3 * 2}


@pytest.mark.parametrize(
    ("rows", "size", "bonus"),
    [
        (["CC"], 5, 10),
        (["W0 W0 W0 W0 W0", "W0 W0 W0 W0 W0", "W0 W0 CC W0 W0", "W0 W0 W0 W0 W0", "W0 W0 W0 W0 W0"], 5, 10),
        (["W0 .. .. .. W0", ".. .. .. .. ..", ".. .. CC .. ..", ".. .. .. .. ..", "W0 .. .. .. W0"], 5, 10),
        (["CC W0 W0"], 5, 10),
        (["CC W0 W0 W0"], 5, 0),
        (["W0", "W0", "W0", "CC"], 5, 0),
        (["CC W0 W0 W0"], 7, 10),
        (["CC W0 W0 W0 W0"], 7, 0),
        (["W0 W0 W0 CC W0 W0 W0"], 7, 10),
    ],
)
def test_middle_kingdom_castle_within_2_cells_on_5x5_and_3_on_7x7(rows, size, bonus):
    k = kingdom(rows, size)
    assert score_kingdom(k, queendomino=False, middle_kingdom=True).middle_kingdom == bonus
    assert score_kingdom(k, queendomino=False, middle_kingdom=False).middle_kingdom == 0


def test_harmony_needs_no_discarded_domino():
    k = kingdom(["CC W1"])
    assert score_kingdom(k, queendomino=False, harmony=True).harmony == 5
    assert score_kingdom(k, queendomino=False, harmony=True).total == 6
    k.discarded.append("K12")
    assert score_kingdom(k, queendomino=False, harmony=True).harmony == 0


def test_coins_score_one_point_per_three():
    for coins, points, left in ((0, 0, 0), (2, 0, 2), (3, 1, 0), (11, 3, 2), (30, 10, 0)):
        s = score_kingdom(kingdom(["CC"], coins=coins), queendomino=True)
        assert (s.coins, s.leftover_coins, s.total) == (points, left, points)
    assert score_kingdom(kingdom(["CC"], coins=30), queendomino=False).total == 0


def test_queen_adds_a_crown_to_the_largest_territory_even_a_town():
    k = kingdom(["T0 T0 T0 CC W1"])
    s = score_kingdom(k, queendomino=True, hosts_queen=True)
    assert s.queen == 3 and s.total == 1 + 3
    assert [t.queen for t in s.territories if t.terrain == "town"] == [True]
    assert s.total_crowns == 2
    assert score_kingdom(k, queendomino=True, hosts_queen=False).queen == 0


def test_crown_buildings_give_towns_their_crowns():
    k = kingdom(["T0 T0 CC T0"], buildings={(0, 0): ("queens_tower", 0), (0, 3): ("statue", 0)})
    s = score_kingdom(k, queendomino=True)
    assert s.terrains["town"] == 2 * 1  # the 2-square town with the Queen's Tower; the other has no crown
    assert s.total == 2 + 5


def test_building_scores_per_territory_tower_and_knight():
    rows = ["T0 F0 T0 CC S1 T0", ".. .. .. L0 S0 .."]
    buildings = {
        (0, 0): ("training_camp", 0),  # 1 per knight owned
        (0, 2): ("travelling_castle", 4),  # 1 per tower in the kingdom
        (0, 5): ("magic_school", 1),  # 2 per swamp territory
    }
    k = kingdom(rows, size=7, buildings=buildings, knights=2)
    k.knights_placed = [(6, 6)]
    s = score_kingdom(k, queendomino=True)
    assert dict(s.buildings) == {"training_camp": 3, "travelling_castle": 5, "magic_school": 2}
    assert s.total == 3 + 5 + 2 + 2  # plus the swamp: 2 squares x 1 crown


# -- the tie-breaks ---------------------------------------------------------------------------------------------------


def _rank(kingdoms, queendomino):
    b = [score_kingdom(k, queendomino=queendomino) for k in kingdoms]
    return rank([x.total for x in b], b, queendomino=queendomino)


def test_kingdomino_tie_goes_to_the_largest_territory():
    a = kingdom(["W1 W0 W0 CC"])  # 3 points, largest territory 3
    b = kingdom(["W3 CC F0 F0"])  # 3 points, largest 2
    r = _rank([b, a], queendomino=False)
    assert r.winners == (1,) and r.tiebreak == "largest territory" and r.order == (1, 0)


def test_kingdomino_then_the_most_crowns():
    a = kingdom(["F1 F1 F0 CC W0 W0 W0"], size=7)  # forest 3 x 2 = 6, largest 3, 2 crowns
    c = kingdom(["F3 F0 CC W0 W0 W0"], size=7)  # forest 2 x 3 = 6, largest 3 (the wheat), 3 crowns
    r = _rank([a, c], queendomino=False)
    assert r.winners == (1,) and r.tiebreak == "most crowns" and r.order == (1, 0)


def test_kingdomino_else_the_win_is_shared():
    a = kingdom(["W1 W0 W0 CC"])
    b = kingdom(["W0 W0 W1 CC"])
    c = kingdom(["W1 CC"])
    r = _rank([a, c, b], queendomino=False)
    assert r.winners == (0, 2) and r.tiebreak == "shared" and r.order[-1] == 1


def test_no_tiebreak_without_a_tie():
    r = _rank([kingdom(["W1 CC"]), kingdom(["W2 CC"])], queendomino=False)
    assert r.winners == (1,) and r.tiebreak is None


def test_queendomino_tie_goes_to_the_largest_territory_then_leftover_coins():
    a = kingdom(["W1 W0 W0 CC"], coins=5)  # 3 + 1 = 4, largest 3, 2 coins left
    b = kingdom(["W3 CC F0 F0"], coins=5)  # 3 + 1 = 4, largest 2
    assert _rank([b, a], queendomino=True).winners == (1,)
    assert _rank([b, a], queendomino=True).tiebreak == "largest territory"
    c = kingdom(["W1 W0 W0 CC"], coins=4)  # 3 + 1 = 4, largest 3, 1 coin left
    r = _rank([c, a], queendomino=True)
    assert r.winners == (1,) and r.tiebreak == "leftover coins"
    d = kingdom(["W0 W0 W1 CC"], coins=5)
    r = _rank([a, d], queendomino=True)
    assert r.winners == (0, 1) and r.tiebreak == "shared"
    # Crowns do not break a Queendomino tie: 3 crowns against 2 here.
    e = kingdom(["F3 F0 CC W0 W0 W0"], size=7, coins=2)  # 6, largest 3, 3 crowns, 2 left
    f = kingdom(["F1 F1 F0 CC W0 W0 W0"], size=7, coins=2)  # 6, largest 3, 2 crowns, 2 left
    assert _rank([e, f], queendomino=True).tiebreak == "shared"


# -- random kingdoms against the independent scorer -----------------------------------------------------------------

SQUARE = st.one_of(
    st.just(".."),
    st.sampled_from("WFLGSM").flatmap(lambda t: st.integers(0, 3).map(lambda c: f"{t}{c}")),
    st.just("T0"),
)


@st.composite
def kingdoms(draw):
    queendomino = draw(st.booleans())
    size = draw(st.sampled_from([5, 7]))
    h = draw(st.integers(1, size))
    w = draw(st.integers(1, size))
    # Town squares and buildings exist only with Queendomino's box.
    cells = [[draw(SQUARE if queendomino else SQUARE.filter(lambda x: x != "T0")) for _ in range(w)] for _ in range(h)]
    cells[draw(st.integers(0, h - 1))][draw(st.integers(0, w - 1))] = "CC"
    rows = [" ".join(r) for r in cells]
    towns = [(r, c) for r in range(h) for c in range(w) if cells[r][c] == "T0"]
    ids = sorted(building_types())
    buildings = {cell: (draw(st.sampled_from(ids)), draw(st.integers(0, 3))) for cell in towns if draw(st.booleans())}
    return {
        "rows": rows,
        "size": size,
        "buildings": buildings,
        "coins": draw(st.integers(0, 40)),
        "knights": draw(st.integers(0, 5)),
        "queen": draw(st.booleans()),  # only in play with Queendomino rules (below)
        "middle": draw(st.booleans()),
        "harmony": draw(st.booleans()),
        "discards": draw(st.integers(0, 2)),
        "queendomino": queendomino,
    }


def _queen(spec) -> bool:
    return spec["queen"] and spec["queendomino"]


@settings(max_examples=300)
@given(kingdoms())
def test_scores_agree_with_an_independent_scorer(spec):
    rows, size = spec["rows"], spec["size"]
    k = kingdom(rows, size, spec["buildings"], spec["coins"], spec["knights"])
    k.discarded = ["K1"] * spec["discards"]
    s = score_kingdom(
        k,
        queendomino=spec["queendomino"],
        hosts_queen=_queen(spec),
        middle_kingdom=spec["middle"],
        harmony=spec["harmony"],
    )
    cells = [r.split() for r in rows]
    cr, cc = next((r, c) for r, row in enumerate(cells) for c, x in enumerate(row) if x == "CC")
    buildings = {(r - cr + size - 1, c - cc + size - 1): b for (r, c), (b, _) in spec["buildings"].items()}
    expected = ind.score(
        ind.grid_from_rows(rows, size),
        size,
        queendomino=spec["queendomino"],
        buildings=buildings,
        towers=sum(t for _, t in spec["buildings"].values()),
        knights=spec["knights"],
        coins=spec["coins"],
        queen=_queen(spec),
        middle_kingdom=spec["middle"],
        harmony=spec["harmony"],
        discards=spec["discards"],
    )
    assert s.total == expected["total"]
    parts = s.parts()
    for terrain in ind.LETTERS.values():
        assert parts.get(terrain, 0) == expected.get(terrain, 0), terrain
    assert parts.get("queen", 0) == expected["queen"]
    assert s.building_points == (expected["buildings"] if spec["queendomino"] else 0)
    assert (parts["middle_kingdom"], parts["harmony"]) == (expected["middle_kingdom"], expected["harmony"])
    assert s.largest_territory == expected["largest"]
    assert sum(parts.values()) == s.total
