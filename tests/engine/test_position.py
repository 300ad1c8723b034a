"""The text form of a whole position (engine/position.py): it gives back the very game, at any point of a
self-played game of any mode and variant, and says which line is wrong in a bad text."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game
from engine.ai import make_agent
from engine.position import PositionError, from_text, to_text

from .harness import MODES, config

VARIANTS = ((), ("dynasty",), ("middle-kingdom", "harmony"))


@settings(max_examples=40, derandomize=True)
@given(st.sampled_from(sorted(MODES)), st.sampled_from(VARIANTS), st.integers(0, 10**6), st.integers(0, 300))
def test_a_position_reads_back_as_the_same_game(mode: str, variants: tuple, seed: int, steps: int) -> None:
    game = Game.new(config(mode, variants), seed)
    agents = [make_agent("easy" if i % 2 else "random", seed=seed + i) for i in range(2)]
    for step in range(steps):
        if game.is_over:
            break
        game.apply(agents[step % 2].choose(game))
    text = to_text(game)
    again = from_text(text)
    assert again.to_dict() == game.to_dict()
    assert to_text(again) == text
    if not game.is_over:
        assert again.legal_actions() == game.legal_actions()
    short = from_text(to_text(game, log=False))
    assert short.log == [] and {**short.to_dict(), "log": []} == {**game.to_dict(), "log": []}


def test_a_position_reads_as_a_person_would() -> None:
    game = Game.new(config("queendomino-2"), 7)
    rng = random.Random(7)
    while game.round < 2:
        game.apply(rng.choice(game.legal_actions()))
    text = to_text(game)
    assert text.startswith("kingdomino position 1\ngame: queendomino\nplayers: p1 p2\nteams: -\n")
    assert "\nphase: place\n" in text and "\n  | " in text and "\nlog:\n  p" in text
    assert f"\nround: {game.round}\n" in text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chess position\n", "line 1: expected 'kingdomino position 1'"),
        ("kingdomino position 1\ngame queendomino\n", "line 2: expected 'name: value'"),
        ("kingdomino position 1\ngame: kingdomino\n", "not a readable position: KeyError"),
    ],
)
def test_a_bad_text_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        from_text(text)


def test_an_id_that_cannot_be_written_is_refused() -> None:
    from engine import GameConfig

    with pytest.raises(ValueError, match="cannot be written in a position"):
        to_text(Game.new(GameConfig("kingdomino", ("ann b", "bob")), 1))
