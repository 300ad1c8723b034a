"""Queendomino's turn: knights and tax, building, the queen, the dragon, and the end of a round."""

import random

import pytest

from engine import (
    BUILD,
    CLAIM,
    DRAGON,
    PLACE,
    TAX,
    BribeDragon,
    Build,
    Game,
    GameConfig,
    IllegalAction,
    NotEnoughCoins,
    Place,
    Skip,
    Tax,
    WrongPhase,
    parse_cell,
)

from .harness import config
from .positions import craft, first_place

QD4 = GameConfig("queendomino", ("p1", "p2", "p3", "p4"))

# A wheat pair left of the castle (C5 D5) and two town squares above it (C4 D4).
TOWN_ROWS = ["T0 T0 ..", "W0 W0 CC"]
# Q7 (F1 W0) with its wheat on B5, next to the wheat pair, and its forest on B6 below.
Q7_ON_B5 = Place(*parse_cell("B6"), "up")


def place_q7(**kw):
    game = first_place(QD4)
    k = craft(game, TOWN_ROWS, "Q7", **kw)
    game.apply(Q7_ON_B5)
    return game, k


# -- B. tax ---------------------------------------------------------------------------------------------------------


def test_a_knight_collects_the_size_of_its_territory():
    game, k = place_q7(coins=0, knights=1)
    assert game.decision().kind == TAX
    assert set(game.legal_actions()) == {Tax((parse_cell("B6"),)), Tax((parse_cell("B5"),)), Skip()}
    events = game.apply(Tax((parse_cell("B5"),)))
    assert k.coins == 3  # wheat B5 C5 D5
    assert k.knights_reserve == 0 and k.knights_placed == [parse_cell("B5")] and k.knights_owned == 1
    assert "collected 3 coins" in events[0].text


def test_two_knights_one_per_square_each_collect():
    game, k = place_q7(coins=0, knights=2)
    both = Tax((parse_cell("B6"), parse_cell("B5")))
    assert both in game.legal_actions()
    game.apply(both)
    assert k.coins == 1 + 3 and k.knights_reserve == 0 and len(k.knights_placed) == 2


def test_permanent_bonuses_count_per_knight_sent():
    # Fortified Guardhouse: +1 per knight owned; Treasury: +1 per tower in the kingdom.
    buildings = {"C4": ("fortified_guardhouse", 0), "D4": ("treasury", 1)}
    game, k = place_q7(coins=0, knights=2, buildings=buildings)
    assert game.tax_coins(game.decision().kingdom, parse_cell("B5")) == 3 + 2 + 1
    game.apply(Tax((parse_cell("B6"), parse_cell("B5"))))
    assert k.coins == (3 + 2 + 1) + (1 + 2 + 1)


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (("D5",), "Knights go on the domino just placed: B6 or B5"),
        (("B5", "B5"), "at most one on each square"),
        (("B5", "B6", "D5"), "Send one or two knights"),
        (("B6", "B5"), "You have 1 knight in reserve, not 2"),
    ],
)
def test_bad_tax_is_refused_and_changes_nothing(cells, message):
    game, _ = place_q7(knights=1)
    state = game.to_dict()
    with pytest.raises(IllegalAction, match=message):
        game.apply(Tax(tuple(parse_cell(c) for c in cells)))
    assert game.to_dict() == state


def test_no_tax_decision_without_a_knight_in_reserve():
    game, k = place_q7(knights=0, coins=0)
    assert game.decision().kind != TAX
    assert k.coins == 0


def test_knights_gained_by_building_come_after_the_tax_step():
    game, k = place_q7(knights=0, coins=9)
    game.board[5] = "tavern"  # +2 knights, free slot
    assert game.decision().kind == BUILD
    game.apply(Build(5, *parse_cell("C4")))
    assert k.knights_reserve == 2
    assert game.decision().kind in (DRAGON, CLAIM)  # no second tax this turn


# -- C. build -------------------------------------------------------------------------------------------------------

BOARD = ["statue", "tavern", "guardtower", "big_tavern", "treasury", "church"]  # costs 5 4 3 2 1 0


def at_build(coins=7, queen=False, **kw):
    game, k = place_q7(coins=coins, knights=0, **kw)
    game.board = list(BOARD)
    if queen:
        game.queen = game.decision().kingdom
    assert game.decision().kind == BUILD
    return game, k


def test_build_pays_the_slot_cost_and_the_slot_stays_empty():
    game, k = at_build(coins=7)
    assert set(game.legal_actions()) == {
        Build(slot, *parse_cell(c)) for slot in range(6) for c in ("C4", "D4") if 5 - slot <= 7
    } | {Skip()}
    events = game.apply(Build(2, *parse_cell("C4")))  # guardtower, 3 coins
    assert k.coins == 4
    assert k.buildings == {parse_cell("C4"): ["guardtower", 2]} and k.towers == 2
    assert game.board == [*BOARD[:2], None, *BOARD[3:]]
    assert events[0].kind == "built"
    assert events[0].data == {"building": "guardtower", "knights": 0, "towers": 2, "cell": "C4", "cost": 3}
    assert game.decision().kind != BUILD, "one building a turn"


def test_only_affordable_buildings_are_offered_and_missing_coins_are_refused():
    game, _ = at_build(coins=2)
    assert {a.slot for a in game.legal_actions() if isinstance(a, Build)} == {3, 4, 5}
    state = game.to_dict()
    with pytest.raises(NotEnoughCoins, match="You need 5 coins, you have 2"):
        game.apply(Build(0, *parse_cell("C4")))
    assert game.to_dict() == state


def test_the_queens_host_pays_one_less_never_below_zero():
    game, k = at_build(coins=4, queen=True)
    kingdom = game.decision().kingdom
    assert [game.cost_of(s, kingdom) for s in range(6)] == [4, 3, 2, 1, 0, 0]
    game.apply(Build(0, *parse_cell("C4")))
    assert k.coins == 0 and k.buildings[parse_cell("C4")][0] == "statue"


def test_a_building_needs_a_free_town_square():
    game, k = at_build(coins=9)
    state = game.to_dict()
    with pytest.raises(IllegalAction, match="B5 is not a free town square: build on C4, D4"):
        game.apply(Build(0, *parse_cell("B5")))
    assert game.to_dict() == state
    game.apply(Build(5, *parse_cell("C4")))
    # Later turn: C4 is built, D4 is free.
    assert k.free_town_cells() == [parse_cell("D4")]


def test_no_build_step_without_a_free_town_square():
    game = first_place(QD4)
    craft(game, ["W0 W0 CC"], "Q7", coins=30, knights=0)
    game.apply(Q7_ON_B5)
    assert game.decision().kind in (DRAGON, CLAIM)


def test_empty_slot_is_refused():
    game, _ = at_build(coins=9)
    game.board[1] = None
    with pytest.raises(IllegalAction, match="Slot 1 of the builders' board holds no building"):
        game.apply(Build(1, *parse_cell("C4")))


def test_immediate_effects_are_limited_by_the_supplies():
    game, k = at_build(coins=9)
    game.knights_supply = 1
    game.apply(Build(3, *parse_cell("C4")))  # big tavern: 3 knights, only 1 left in the box
    assert k.knights_reserve == 1 and game.knights_supply == 0
    game2, k2 = at_build(coins=9)
    game2.towers_supply = 1
    game2.apply(Build(2, *parse_cell("C4")))  # guardtower: 2 towers, 1 left
    assert k2.buildings[parse_cell("C4")] == ["guardtower", 1] and game2.towers_supply == 0


# -- the queen ------------------------------------------------------------------------------------------------------


def _other_with_towers(game, towers):
    other = (game.decision().kingdom + 1) % len(game.kingdoms)
    game.kingdoms[other].buildings[(0, 0)] = ["guardtower", towers]
    game.queen = other
    return other


def test_the_queen_moves_on_a_tie_of_towers():
    game, _ = at_build(coins=9)
    _other_with_towers(game, 2)
    events = game.apply(Build(2, *parse_cell("C4")))  # 2 towers: a tie
    assert game.queen == game.kings[game.current_line[game.turn][1]].kingdom
    assert events[-1].kind == "queen" and "The queen moves to" in events[-1].text


def test_the_queen_stays_with_more_towers():
    game, _ = at_build(coins=9)
    other = _other_with_towers(game, 3)
    game.apply(Build(2, *parse_cell("C4")))
    assert game.queen == other


def test_the_queens_host_may_not_bribe_the_dragon():
    game, _ = at_build(coins=9, queen=True)
    kingdom = game.decision().kingdom
    assert game.dragon_allowed(kingdom) == "The queen's host may not bribe the dragon."
    game.apply(Skip())
    assert game.decision().kind == CLAIM, "no dragon step for the host"
    state = game.to_dict()
    with pytest.raises(WrongPhase):
        game.apply(BribeDragon(0))
    assert game.to_dict() == state


# -- D. the dragon ----------------------------------------------------------------------------------------------------


def test_the_dragon_burns_a_building_for_one_coin_once_a_round():
    game, k = at_build(coins=3)
    game.apply(Skip())
    assert game.decision().kind == DRAGON
    assert set(game.legal_actions()) == {BribeDragon(s) for s in range(6)} | {Skip()}
    events = game.apply(BribeDragon(4))
    assert k.coins == 2 and game.burned == ["treasury"] and game.board[4] is None and game.dragon_slot == 4
    assert "burned the Treasury" in events[0].text
    # Nobody else may bribe it this round.
    game.apply(game.legal_actions()[0])  # claim
    while game.round == 1:
        d = game.decision()
        assert d.kind != DRAGON
        assert "already flown" in game.dragon_allowed(d.kingdom)
        if d.kind in (BUILD, TAX):
            with pytest.raises(WrongPhase):
                game.apply(BribeDragon(0))
        game.apply(game.legal_actions()[-1] if d.kind != PLACE else game.legal_actions()[0])
    assert game.dragon_slot is None, "the dragon is back in its cave"
    assert game.burned == ["treasury"], "a burned building never comes back"


def test_the_dragon_costs_a_coin():
    game, _ = at_build(coins=0)
    assert game.dragon_allowed(game.decision().kingdom) == "The dragon costs 1 coin; you have 0."


# -- end of the round -----------------------------------------------------------------------------------------------


def _last_turn_of_round_one(seed=3):
    game = Game.new(QD4, seed)
    rng = random.Random(seed)
    while not (game.round == 1 and game.decision().kind == PLACE and game.turn == len(game.current_line) - 1):
        game.apply(rng.choice(game.legal_actions()))
    return game


def _finish_turn_skipping(game):
    d = game.decision()
    game.apply(game.legal_actions()[0])  # place
    while game.decision().player == d.player and game.decision().kind != CLAIM:
        game.apply(Skip())
    return game.apply(game.legal_actions()[0])  # claim: the round ends


def test_end_of_round_slides_buildings_to_the_cheap_end_and_refills():
    game = _last_turn_of_round_one()
    game.board = ["statue", None, "tavern", None, "church", None]
    game.stack = ["bakery", "forge", "weaver", "sawmill"]
    game.dragon_slot = 1
    events = _finish_turn_skipping(game)
    assert "round_end" in [e.kind for e in events]
    assert game.board[3:] == ["statue", "tavern", "church"]
    assert sorted(game.board[:3]) == ["bakery", "forge", "weaver"]
    assert game.stack == ["sawmill"]
    assert game.dragon_slot is None


def test_end_of_round_with_a_short_stack_leaves_the_dear_slots_empty():
    game = _last_turn_of_round_one()
    game.board = [None, "statue", None, None, "church", None]
    game.stack = ["bakery"]
    _finish_turn_skipping(game)
    assert game.board == [None, None, None, "bakery", "statue", "church"]
    assert game.stack == []


def test_last_round_has_no_claims_and_ends_the_game():
    game = Game.new(config("queendomino-3"), 4)
    rng = random.Random(4)
    while not game.is_last_round:
        game.apply(rng.choice(game.legal_actions()))
    assert game.next_line == [] and game.round == 12
    kinds = set()
    while not game.is_over:
        kinds.add(game.decision().kind)
        events = game.apply(rng.choice(game.legal_actions()))
    assert CLAIM not in kinds
    assert events[-1].kind == "game_over"
    assert game.decision() is None and game.legal_actions() == []
