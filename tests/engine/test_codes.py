"""Machine-readable refusals and events: every error the engine raises and every event it reports carries a short
`code` and `params` of plain JSON values next to its English sentence, for a translation layer."""

import ast
import json
import random
from pathlib import Path

import pytest

import engine
from engine import EngineError, Game, IllegalAction
from engine.errors import ConfigError

from .harness import config

ENGINE = Path(engine.__file__).parent
ERRORS = {name for name, obj in vars(engine.errors).items() if isinstance(obj, type) and issubclass(obj, EngineError)}
CLASS_CODES = {"engine_error", "illegal_action", "config"}  # too vague for a translation: every site names its own
EVENT_CODES = {
    "claimed",
    "placed",
    "taxed",
    "built",
    "queen",
    "dragon",
    "discarded",
    "unclaimed",
    "round_end",
    "deal_end",
    "game_over",
}


def test_every_raise_site_in_the_engine_gives_a_code():
    sites = 0
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in ERRORS:
                continue
            sites += 1
            has_code = len(node.exc.args) >= 2 or any(kw.arg == "code" for kw in node.exc.keywords)
            assert has_code, f"{path.name}:{node.lineno}: {name}(...) without a code"
    assert sites >= 30


def plain(value) -> bool:
    return json.loads(json.dumps(value)) == value


def check_refusal(error: EngineError) -> None:
    assert error.code not in CLASS_CODES and error.code.replace("_", "").isalpha(), error.code
    assert isinstance(error.params, dict) and plain(error.params), error.params
    assert str(error).endswith("."), str(error)


@pytest.mark.parametrize("mode", ["kingdomino-4", "queendomino-2", "royal-wedding-5", "teams-8"])
def test_refusals_and_events_of_random_games_carry_codes(mode):
    rng = random.Random(len(mode))
    game = Game.new(config(mode), 7)
    codes, kinds = set(), set()
    while not game.is_over:
        d = game.decision()
        legal = game.legal_actions()
        # A few wrong actions: another player's move, one of another decision, one from another kingdom's state.
        others = [p for p in game.players if p != d.player]
        tries = [(legal[0], rng.choice(others))]
        other = Game.new(config(mode), rng.randrange(100))
        while not other.is_over and other.decision().kind == d.kind and rng.random() < 0.9:
            other.apply(rng.choice(other.legal_actions()))
        if not other.is_over:
            tries.extend((a, d.player) for a in rng.sample(other.legal_actions(), min(3, len(other.legal_actions()))))
        for action, by in tries:
            if by == d.player and action in legal:
                continue
            with pytest.raises(IllegalAction) as refused:
                game.apply(action, by=by)
            check_refusal(refused.value)
            codes.add(refused.value.code)
        for event in game.apply(rng.choice(legal), by=d.player):
            assert event.code == event.kind and event.code in EVENT_CODES
            assert event.params["player"] == event.player and plain(event.params), event
            kinds.add(event.code)
    with pytest.raises(IllegalAction) as refused:
        game.apply(legal[0])
    check_refusal(refused.value)
    assert {"not_your_turn", "game_over"} <= codes | {refused.value.code}
    assert {"claimed", "placed", "round_end", "game_over"} <= kinds


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"game": "chess", "players": ("a", "b")}, "unknown_game"),
        ({"game": "kingdomino", "players": ("a",)}, "player_count"),
        ({"game": "kingdomino", "players": ("a", "a")}, "duplicate_player"),
        ({"game": "kingdomino", "players": ("a", "b"), "variants": {"nope"}}, "unknown_variant"),
    ],
)
def test_configuration_errors_carry_codes(kwargs, code):
    with pytest.raises(ConfigError) as refused:
        engine.GameConfig(**kwargs)
    assert refused.value.code == code
    check_refusal(refused.value)
