"""Text forms (kingdoms, actions, cells), JSON round trips and replays."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    DIRECTIONS,
    OVER,
    BribeDragon,
    Build,
    Claim,
    Game,
    GameConfig,
    IllegalAction,
    Kingdom,
    Place,
    Skip,
    Tax,
    action_from_dict,
    cell_name,
    parse_action,
    parse_cell,
)

from .harness import MODES, config

# -- kingdoms -------------------------------------------------------------------------------------------------------


def test_kingdom_text_form():
    k = Kingdom.from_text(["F1 F1 ..", "W0 CC T0"], 5)
    assert k.text_rows() == ["F1 F1 ..", "W0 CC T0"]
    assert k.text() == "F1 F1 ..\nW0 CC T0"
    assert k.square(*parse_cell("D4")).text == "F1" and k.is_castle(*parse_cell("E5"))
    assert k.square(*parse_cell("E4")).text == "F1" and k.square(*parse_cell("F4")) is None
    assert k.grid_to_cell(0, 0) == parse_cell("D4")
    assert Kingdom.from_text("F1 F1 ..\nW0 CC T0", 5).text_rows() == k.text_rows()


@pytest.mark.parametrize(
    ("rows", "size", "message"),
    [
        ([], 5, "empty grid"),
        (["W0 CC", "W0"], 5, "same number of cells"),
        (["W0 W0 W0 W0 W0 CC"], 5, "must fit in 5x5"),
        (["W0 W0"], 5, "exactly one castle"),
        (["CC CC"], 5, "exactly one castle"),
        (["CC X1"], 5, "Cannot read cell 'X1'"),
        (["CC W4"], 5, "Cannot read cell 'W4'"),
        (["CC T1"], 5, "Town squares carry no printed crowns"),
    ],
)
def test_kingdom_text_errors(rows, size, message):
    with pytest.raises(ValueError, match=message):
        Kingdom.from_text(rows, size)


@pytest.mark.parametrize("mode", ["kingdomino-4", "mighty-duel", "queendomino-2", "royal-wedding-7"])
def test_kingdom_text_round_trips_after_whole_games(mode):
    game = Game.new(config(mode), 3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    for k in game.kingdoms:
        again = Kingdom.from_text(k.text_rows(), k.size)
        assert again.text_rows() == k.text_rows()
        assert again.bounds() == k.bounds(), "the castle keeps its cell name"
        cells = [(r, c) for r in range(k.n) for c in range(k.n)]
        assert [again.square(*cell) for cell in cells] == [k.square(*cell) for cell in cells]


# -- cells and actions ----------------------------------------------------------------------------------------------


def test_cell_names():
    assert cell_name(4, 4) == "E5" and parse_cell("E5") == (4, 4) and parse_cell("e5") == (4, 4)
    assert cell_name(6, 6) == "G7" and cell_name(0, 12) == "M1" and parse_cell("M13") == (12, 12)
    assert parse_cell("4,4") == (4, 4)
    for bad in ("", "5E", "E", "EE5"):
        with pytest.raises(ValueError, match="Cannot read cell"):
            parse_cell(bad)


CELLS = st.tuples(st.integers(0, 12), st.integers(0, 12))
ACTIONS = st.one_of(
    st.builds(lambda box, n: Claim(f"{box}{n}"), st.sampled_from("KQ"), st.integers(1, 48)),
    st.builds(lambda c, d: Place(c[0], c[1], d), CELLS, st.sampled_from(list(DIRECTIONS))),
    st.builds(lambda cs: Tax(tuple(cs)), st.lists(CELLS, min_size=1, max_size=2)),
    st.builds(lambda s, c: Build(s, c[0], c[1]), st.integers(0, 5), CELLS),
    st.builds(BribeDragon, st.integers(0, 5)),
    st.just(Skip()),
)


@settings(max_examples=300)
@given(ACTIONS)
def test_actions_round_trip_through_text_and_json(action):
    assert parse_action(action.text) == action
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_action_text_examples():
    assert parse_action("claim K23") == Claim("K23") and parse_action("CLAIM q7") == Claim("Q7")
    assert parse_action("place E4 right") == Place(3, 4, "right") == parse_action("place e4 r")
    assert parse_action("place E4 n") == Place(3, 4, "up")
    assert parse_action("tax E4 F4") == Tax(((3, 4), (3, 5)))
    assert parse_action("build 3 E4") == Build(3, 3, 4)
    assert parse_action("dragon 2") == BribeDragon(2)
    assert parse_action("  skip ") == Skip()
    assert Place(3, 4, "right").text == "place E4 right" and Tax(((3, 4), (3, 5))).text == "tax E4 F4"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "An empty action"),
        ("jump E4", "Cannot read 'jump E4': try `claim K23`"),
        ("place E4", "Cannot read 'place E4'"),
        ("place E4 diagonal", "Unknown direction 'diagonal'"),
        ("place 44 up", "Cannot read cell"),
        ("build x E4", "Cannot read 'build x E4'"),
        ("tax E4 F4 G4", "Cannot read 'tax E4 F4 G4'"),
        ("skip now", "Cannot read 'skip now'"),
    ],
)
def test_unreadable_actions(text, message):
    with pytest.raises(ValueError, match=message):
        parse_action(text)


def test_unknown_action_type_in_json():
    with pytest.raises(ValueError, match="Unknown action type 'fly'"):
        action_from_dict({"type": "fly"})


# -- whole games: JSON and replay -------------------------------------------------------------------------------------


def _states_of_every_kind(cfg, seed):
    """Play a random game; keep (game clone, rng state) at the first decision of each kind, and the end."""
    game = Game.new(cfg, seed)
    rng = random.Random(seed)
    kept = {}
    while not game.is_over:
        kind = game.decision().kind
        if kind not in kept:
            kept[kind] = (game.clone(), rng.getstate())
        game.apply(rng.choice(game.legal_actions()))
    kept[OVER] = (game.clone(), rng.getstate())
    return game, kept


def _finish(game, rng_state):
    rng = random.Random()
    rng.setstate(rng_state)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("mode", ["kingdomino-2", "queendomino-2", "royal-wedding-5", "teams-6"])
def test_json_round_trip_at_every_kind_of_decision_and_play_on(mode):
    cfg = config(mode, ("harmony", "middle-kingdom"))
    final, kept = _states_of_every_kind(cfg, 8)
    assert len(kept) >= (7 if cfg.setup.queendomino_rules else 4)
    for _kind, (game, rng_state) in kept.items():
        state = game.to_dict()
        text = json.dumps(state)
        restored = Game.from_dict(json.loads(text))
        assert restored.to_dict() == state
        assert restored.decision() == game.decision()
        assert restored.legal_actions() == game.legal_actions()
        # The restored game goes on exactly like the original.
        assert _finish(restored, rng_state).to_dict() == final.to_dict()


def test_clone_is_independent():
    game = Game.new(config("queendomino-3"), 2)
    rng = random.Random(2)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    state = game.to_dict()
    copy = game.clone()
    _finish(copy, rng.getstate())
    assert game.to_dict() == state


@pytest.mark.parametrize("mode", list(MODES))
def test_replay_reproduces_the_state(mode):
    cfg = config(mode, ("dynasty",) if mode in ("kingdomino-3", "queendomino-4") else ())
    game = Game.new(cfg, 21)
    rng = random.Random(21)
    half = None
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        if half is None and len(game.log) == 40:
            half = game.to_dict()
            assert Game.replay(cfg, 21, game.log).to_dict() == half
    assert Game.replay(cfg, 21, game.log).to_dict() == game.to_dict()
    assert Game.replay(cfg, 21, game.log).result() == game.result()


def test_replay_of_a_tampered_log_is_refused():
    cfg = GameConfig("kingdomino", ("ann", "bob"))
    game = Game.new(cfg, 1)
    game.apply(game.legal_actions()[0])
    by, action = game.log[0]
    with pytest.raises(IllegalAction):
        Game.replay(cfg, 1, [(by, action), (by, action)])


def test_saved_states_from_elsewhere_are_refused_clearly():
    state = Game.new(GameConfig("kingdomino", ("ann", "bob")), 1).to_dict()
    with pytest.raises(ValueError, match="Unsupported game state format 99"):
        Game.from_dict({**state, "format_version": 99})
    with pytest.raises(ValueError, match="Unsupported game state format None"):
        Game.from_dict({k: v for k, v in state.items() if k != "format_version"})
    with pytest.raises(ValueError, match="Corrupt game state: KeyError"):
        Game.from_dict({k: v for k, v in state.items() if k != "board"})
    with pytest.raises(ValueError, match="unknown phase 'lunch'"):
        Game.from_dict({**state, "phase": "lunch"})
