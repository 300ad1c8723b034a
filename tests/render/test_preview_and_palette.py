"""The preview's score change comes from the engine; the default player colours stay apart."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import IllegalPlacement, Place, Placement
from render import PLAYER_COLOURS, TERRAIN_COLOURS, render_kingdom
from render.kingdom import preview_score

from .helpers import config, near, open_png, state


def _placing(game):
    while game.decision() is not None and game.decision().kind != "place":
        game.apply(game.legal_actions()[-1])
    return game


@settings(max_examples=20)
@given(
    mode=st.sampled_from([("kingdomino", 4), ("queendomino", 3), ("royal-wedding", 5)]),
    seed=st.integers(0, 10_000),
    fraction=st.floats(0.05, 0.95),
    pick=st.integers(0, 1000),
)
def test_preview_score_matches_applying_the_place_action(mode, seed, fraction, pick):
    game = _placing(state(config(*mode), seed, fraction))
    d = game.decision()
    assume(d is not None)  # a finished game has no decision: hypothesis draws another
    places = [a for a in game.legal_actions() if isinstance(a, Place)]
    place = places[pick % len(places)]
    after = game.clone()
    after.apply(place)
    before_total = game.scores()[d.kingdom].total
    assert preview_score(game, d.kingdom, d.domino, place.placement) == (before_total, after.scores()[d.kingdom].total)


def test_an_illegal_preview_is_refused_by_the_engine():
    game = _placing(state(config("kingdomino", 2), 1, 0.3))
    d = game.decision()
    castle = game.kingdoms[d.kingdom].castle
    with pytest.raises(IllegalPlacement):
        render_kingdom(game, d.kingdom, None, None, preview=(d.domino, Placement(*castle, "right")))


def test_eight_distinct_player_colours():
    assert len(PLAYER_COLOURS) == 8 == len(set(PLAYER_COLOURS))
    for a, b in itertools.combinations(PLAYER_COLOURS, 2):
        assert sum(abs(x - y) for x, y in zip(a, b, strict=True)) > 60, f"{a} and {b} are too close"


def test_terrain_colours_stay_apart():
    for a, b in itertools.combinations(TERRAIN_COLOURS.values(), 2):
        assert not near(a, b, 30)


def test_preview_picture_marks_the_two_new_squares():
    game = _placing(state(config("queendomino", 2), 5, 0.5))
    d = game.decision()
    place = next(a for a in game.legal_actions() if isinstance(a, Place))
    data = render_kingdom(game, d.kingdom, None, None, preview=(d.domino, place.placement))
    assert open_png(data).size == open_png(render_kingdom(game, d.kingdom, None, None)).size


@settings(max_examples=20)
@given(
    mode=st.sampled_from([("kingdomino", 4), ("queendomino", 3), ("royal-wedding", 5)]),
    seed=st.integers(0, 10_000),
    fraction=st.floats(0.05, 0.95),
)
def test_the_scores_of_every_placement_at_once_are_each_ones_preview(mode, seed, fraction):
    """`preview_scores` (the board's and the turn panel's: every legal placement) scores the kingdom as it is once,
    and gives each placement the score its own `preview_score` gives."""
    from render.kingdom import preview_scores

    game = _placing(state(config(*mode), seed, fraction))
    d = game.decision()
    assume(d is not None)  # a finished game has no decision: hypothesis draws another
    placements = [a.placement for a in game.legal_actions() if isinstance(a, Place)]
    before, afters = preview_scores(game, d.kingdom, d.domino, placements)
    assert len(afters) == len(placements)
    for placement, after in zip(placements, afters, strict=True):
        assert preview_score(game, d.kingdom, d.domino, placement) == (before, after)
