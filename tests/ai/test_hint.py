"""The hint (engine/ai/hint.py): hard's move at a decision and what it gains on average, from what the player sees
only: two games that differ only in what is hidden get the same hint; the move is legal; the same position gives the
same hint (nothing reads the clock or a global random); what a worker sends back reads the same."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game
from engine.ai.hint import Hint, hint_data, suggest
from tests.engine.hidden import random_position, reshuffled

from .modes import MODES

TINY = {"budget": 0.01, "playouts": 3, "rivals": 3}  # the same code at any effort; the tests look at what it reads


def position(mode: str, seed: int, steps: int) -> Game:
    rng = random.Random(seed)
    return random_position(Game.new(MODES[mode], rng.randrange(10**6)), rng, steps)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(["kingdomino-2", "kingdomino-3-four-dominoes", "queendomino-2", "queendomino-4"]),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 120),
)
def test_a_hint_reads_nothing_hidden(mode: str, seed: int, steps: int) -> None:
    """The same hint for a game and its twin with another hidden future (lines to come, dominoes set aside, building
    stack, seed), at any decision: the hint cannot reveal a hidden domino or building."""
    game = position(mode, seed, steps)
    if game.is_over:
        return
    twin = reshuffled(game, random.Random(seed + 1))
    assert twin.to_dict() != game.to_dict() or not game.lines_to_come
    hint = suggest(game, **TINY)
    assert hint == suggest(twin, **TINY)
    assert hint.action in game.legal_actions()
    assert hint.player == game.decision().player and hint.kind == game.decision().kind


def test_a_hint_says_what_it_gains_over_the_other_moves() -> None:
    game = position("kingdomino-2", 3, 9)
    hint = suggest(game, budget=0.05, playouts=8, rivals=4)
    assert hint.compared == min(4, len(game.legal_actions()) - 1)
    assert hint.gain == round(hint.mean - hint.others, 2)
    assert 0 < hint.mean < 200
    assert suggest(game, budget=0.05, playouts=8, rivals=4) == hint, "the same position gives the same hint"


def test_one_move_is_compared_with_nothing() -> None:
    rng = random.Random(4)
    game = Game.new(MODES["queendomino-2"], 11)
    while len(game.legal_actions()) != 1 or game.is_over:  # a forced move (a last free domino, say)
        game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            pytest.skip("no forced move in this game")
    hint = suggest(game, **TINY)
    assert hint.compared == 0 and hint.others == hint.mean and hint.action == game.legal_actions()[0]


def test_what_a_worker_sends_back_reads_the_same() -> None:
    game = position("queendomino-2", 8, 30)
    data = json.loads(hint_data(game.view().to_dict(), TINY["budget"], TINY["playouts"], TINY["rivals"]))
    assert Hint.from_dict(data) == suggest(game, **TINY)
    assert Hint.from_dict(json.loads(json.dumps(Hint.from_dict(data).to_dict()))) == Hint.from_dict(data)


def test_a_hint_needs_a_game_in_play_and_some_effort() -> None:
    game = position("kingdomino-2", 1, 400)
    assert game.is_over
    with pytest.raises(ValueError, match="over"):
        suggest(game, **TINY)
    with pytest.raises(ValueError, match="budget"):
        suggest(position("kingdomino-2", 1, 3), budget=0, playouts=3, rivals=1)
