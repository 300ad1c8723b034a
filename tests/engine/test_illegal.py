"""Every kind of illegal action is refused with a specific exception and a readable message, and leaves
`game.to_dict()` exactly as it was."""

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
    Claim,
    Game,
    GameConfig,
    GameOver,
    IllegalAction,
    IllegalPlacement,
    NotEnoughCoins,
    NotYourTurn,
    Place,
    Skip,
    Tax,
    WrongPhase,
    parse_cell,
)

from .positions import craft, first_place

KD2 = GameConfig("kingdomino", ("ann", "bob"))
QD4 = GameConfig("queendomino", ("p1", "p2", "p3", "p4"))


def at(cfg, kind, seed=1):
    """A random game taken to its first decision of `kind`."""
    game = Game.new(cfg, seed)
    rng = random.Random(seed)
    while game.decision().kind != kind:
        game.apply(rng.choice(game.legal_actions()))
    return game


def other(game):
    return next(p for p in game.players if p != game.decision().player)


def taken(line):
    return next(d for d, k in line if k is not None)


def qd_turn(stop):
    """QD4 at a crafted turn: town squares C4 D4, Q7 placed on B5/B6, 2 coins, 1 knight; stopped at `stop`."""
    game = first_place(QD4)
    craft(game, ["T0 T0 ..", "W0 W0 CC"], "Q7", coins=2, knights=1)
    game.board = ["statue", "tavern", "guardtower", "big_tavern", "treasury", None]
    if stop == PLACE:
        return game
    game.apply(Place(*parse_cell("B6"), "up"))
    while game.decision().kind != stop:
        game.apply(Skip())
    return game


CASES = {
    # name: (make the game, the action (may use the game), by (None: the player to act), exception, message)
    "first claim by the wrong player": (
        lambda: Game.new(KD2, 1),
        lambda g: g.legal_actions()[0],
        other,
        NotYourTurn,
        r"It is \w+'s turn: they must choose a domino of the first line",
    ),
    "first claim of a taken domino": (
        lambda: _after_one_first_claim(),
        lambda g: Claim(taken(g.current_line)),
        None,
        IllegalAction,
        r"Domino K\d+ is already taken: choose a free one",
    ),
    "claim of a domino not in the line": (
        lambda: Game.new(KD2, 1),
        lambda g: Claim("Q3"),
        None,
        IllegalAction,
        r"Domino Q3 is not in the line: choose one of K",
    ),
    "placing during the first claim": (
        lambda: Game.new(KD2, 1),
        lambda g: Place(3, 4, "up"),
        None,
        WrongPhase,
        r"must choose a domino of the first line, not place E4 up",
    ),
    "claiming while a domino waits to be placed": (
        lambda: at(KD2, PLACE),
        lambda g: Claim(g.next_line[0][0]),
        None,
        WrongPhase,
        r"must place domino K\d+ first, not claim",
    ),
    "placing on the castle": (
        lambda: at(KD2, PLACE),
        lambda g: Place(3, 4, "down"),
        None,
        IllegalPlacement,
        r"place E4 down: E5 is the castle: both squares need empty cells",
    ),
    "placing unconnected": (
        lambda: at(KD2, PLACE),
        lambda g: Place(0, 0, "right"),
        None,
        IllegalPlacement,
        r"place A1 right: .*(not connected|must fit in 5x5)",
    ),
    "placing in an unknown direction": (
        lambda: at(KD2, PLACE),
        lambda g: Place(3, 4, "sideways"),
        None,
        IllegalPlacement,
        r"Unknown direction 'sideways'",
    ),
    "skipping a placement": (lambda: at(KD2, PLACE), lambda g: Skip(), None, WrongPhase, r"not skip"),
    "placing by the wrong player": (
        lambda: at(KD2, PLACE),
        lambda g: g.legal_actions()[0],
        other,
        NotYourTurn,
        r"they must place a domino",
    ),
    "claiming a taken domino of the next line": (
        lambda: _claim_with_a_taken_domino(),
        lambda g: Claim(taken(g.next_line)),
        None,
        IllegalAction,
        r"already taken",
    ),
    "claiming from the current line": (
        lambda: at(KD2, CLAIM),
        lambda g: Claim(g.current_line[0][0]),
        None,
        IllegalAction,
        r"is not in the line",
    ),
    "skipping a claim": (
        lambda: at(KD2, CLAIM),
        lambda g: Skip(),
        None,
        WrongPhase,
        r"must choose a domino of the next line, not skip",
    ),
    "tax on another domino": (
        lambda: qd_turn(TAX),
        lambda g: Tax((parse_cell("C5"),)),
        None,
        IllegalAction,
        r"Knights go on the domino just placed: B6 or B5",
    ),
    "tax with more knights than in reserve": (
        lambda: qd_turn(TAX),
        lambda g: Tax((parse_cell("B5"), parse_cell("B6"))),
        None,
        IllegalAction,
        r"You have 1 knight in reserve, not 2",
    ),
    "two knights on one square": (
        lambda: qd_turn(TAX),
        lambda g: Tax((parse_cell("B5"), parse_cell("B5"))),
        None,
        IllegalAction,
        r"at most one on each square",
    ),
    "building during tax": (
        lambda: qd_turn(TAX),
        lambda g: Build(4, *parse_cell("C4")),
        None,
        WrongPhase,
        r"must first decide on tax",
    ),
    "building without the coins": (
        lambda: qd_turn(BUILD),
        lambda g: Build(0, *parse_cell("C4")),
        None,
        NotEnoughCoins,
        r"You need 5 coins, you have 2",
    ),
    "building off a town square": (
        lambda: qd_turn(BUILD),
        lambda g: Build(4, *parse_cell("B5")),
        None,
        IllegalAction,
        r"B5 is not a free town square: build on C4, D4",
    ),
    "building an empty slot": (
        lambda: qd_turn(BUILD),
        lambda g: Build(5, *parse_cell("C4")),
        None,
        IllegalAction,
        r"Slot 5 of the builders' board holds no building",
    ),
    "bribing the dragon while building": (
        lambda: qd_turn(BUILD),
        lambda g: BribeDragon(0),
        None,
        WrongPhase,
        r"must decide on building",
    ),
    "the dragon on an empty slot": (
        lambda: qd_turn(DRAGON),
        lambda g: BribeDragon(5),
        None,
        IllegalAction,
        r"Slot 5 of the builders' board holds no building",
    ),
    "the dragon on a slot off the board": (
        lambda: qd_turn(DRAGON),
        lambda g: BribeDragon(9),
        None,
        IllegalAction,
        r"Slot 9 of the builders' board holds no building",
    ),
    "building during the dragon step": (
        lambda: qd_turn(DRAGON),
        lambda g: Build(4, *parse_cell("C4")),
        None,
        WrongPhase,
        r"must decide on the dragon",
    ),
    "the dragon twice in a round": (
        lambda: _dragon_flown(),
        lambda g: BribeDragon(next(s for s, b in enumerate(g.board) if b)),
        None,
        WrongPhase,
        r"not dragon \d",
    ),
    "an action after the end": (
        lambda: _finished(),
        lambda g: Skip(),
        None,
        GameOver,
        r"The game is over: no more moves",
    ),
}


def _after_one_first_claim():
    game = Game.new(KD2, 1)
    game.apply(game.legal_actions()[0])
    return game


def _claim_with_a_taken_domino():
    game = at(KD2, CLAIM)
    rng = random.Random(2)
    while not (game.decision().kind == CLAIM and any(k is not None for _, k in game.next_line)):
        game.apply(rng.choice(game.legal_actions()))
    return game


def _dragon_flown():
    game = qd_turn(DRAGON)
    game.apply(BribeDragon(0))
    assert game.decision().kind == CLAIM
    game.apply(game.legal_actions()[0])
    rng = random.Random(1)
    while game.decision().kind in (PLACE, TAX):
        game.apply(rng.choice(game.legal_actions()))
    return game


def _finished():
    game = Game.new(KD2, 1)
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("name", CASES)
def test_illegal_action_is_refused_and_changes_nothing(name):
    make, action, by, error, message = CASES[name]
    game = make()
    act = action(game)
    who = by(game) if by else None
    state = game.to_dict()
    log = list(game.log)
    with pytest.raises(error, match=message) as info:
        game.apply(act, by=who)
    assert str(info.value) and "\n" not in str(info.value)
    assert game.to_dict() == state
    assert game.log == log


def test_the_dragon_once_a_round_is_also_said_by_dragon_allowed():
    game = _dragon_flown()
    d = game.decision()
    assert d.kind != DRAGON
    assert game.dragon_allowed(d.kingdom).startswith("The dragon has already flown this round")


def test_result_before_the_end_is_refused():
    with pytest.raises(IllegalAction, match="not over yet"):
        Game.new(KD2, 1).result()


def test_refusals_are_engine_errors_not_crashes():
    from engine import EngineError

    assert issubclass(IllegalAction, EngineError)
    for cls in (NotYourTurn, WrongPhase, IllegalPlacement, NotEnoughCoins, GameOver):
        assert issubclass(cls, IllegalAction)
