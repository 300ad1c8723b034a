"""`Game.view()`: what every player sees. Two games that differ only in what is hidden have the same view, and the
view keeps everything that is not hidden."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, GameConfig, domino

from .hidden import random_position, reshuffled

MODES = {
    "kingdomino-2": GameConfig("kingdomino", ("a", "b")),
    "kingdomino-3": GameConfig("kingdomino", ("a", "b", "c")),
    "kingdomino-4-dynasty": GameConfig("kingdomino", ("a", "b", "c", "d"), frozenset({"dynasty"})),
    "queendomino-2": GameConfig("queendomino", ("a", "b")),
    "queendomino-4": GameConfig("queendomino", ("a", "b", "c", "d")),
    "royal-wedding-5": GameConfig("royal-wedding", ("a", "b", "c", "d", "e")),
    "royal-wedding-6-teams": GameConfig("royal-wedding", tuple("abcdef"), teams=(("a", "b"), ("c", "d"), ("e", "f"))),
}
VISIBLE = ("config", "log", "deal", "deal_totals", "kingdoms", "kings", "current_line", "next_line", "turn", "phase")
VISIBLE += ("round", "revealed", "board", "burned", "dragon_slot", "queen", "knights_supply", "towers_supply")


@settings(max_examples=40, derandomize=True)
@given(st.sampled_from(sorted(MODES)), st.integers(0, 10**6), st.integers(0, 400))
def test_games_that_differ_only_in_what_is_hidden_have_equal_views(mode: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = random_position(Game.new(MODES[mode], seed), rng, steps)
    other = reshuffled(game, rng)
    assert other.to_dict() != game.to_dict() or game.is_over or not game.lines_to_come
    view = game.view()
    assert view.to_dict() == other.view().to_dict()
    state, seen = game.to_dict(), view.to_dict()
    assert {key: state[key] for key in VISIBLE} == {key: seen[key] for key in VISIBLE}
    assert view.decision() == game.decision()
    if not game.is_over:
        assert view.legal_actions() == game.legal_actions()
    assert view.scores() == game.scores()
    assert sorted(view.unseen_dominoes()) == sorted(game.unseen_dominoes())
    assert sorted(view.stack) == sorted(game.stack) and view.seed == 0
    assert [len(line) for line in view.lines_to_come] == [len(line) for line in game.lines_to_come]
    assert all(line == sorted(line, key=lambda d: domino(d).number) for line in view.lines_to_come)
    assert [line[0][0] for line in view.lines_to_come] == [line[0][0] for line in game.lines_to_come]  # the boxes
    assert len(view.removed) == len(game.removed)
    public = [d for d in game.removed if d in game.revealed]
    assert [d for d in view.removed if d in view.revealed] == public


def test_the_view_is_a_copy_and_plays_on_to_the_end() -> None:
    game = Game.new(MODES["queendomino-4"], 3)
    before = game.to_dict()
    view = game.view()
    rng = random.Random(3)
    random_position(view, rng, 10_000)
    assert view.is_over and game.to_dict() == before
