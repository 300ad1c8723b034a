"""Forced discards: only when nothing is legal, at once, announced with the reason; Harmony then lost."""

import pytest

from engine import CLAIM, FIRST_CLAIM, PLACE, Game, GameConfig, Kingdom, Place, Skip, WrongPhase

FULL = ["W0 W0 W0 W0 W0", "W0 W0 W0 W0 W0", "W0 W0 CC W0 W0", "W0 W0 W0 W0 W0", "W0 W0 W0 W0 W0"]
# The same with a two-cell hole left of the castle (C5 D5).
HOLE = ["W0 W0 W0 W0 W0", "W0 W0 W0 W0 W0", ".. .. CC W0 W0", "W0 W0 W0 W0 W0", "W0 W0 W0 W0 W0"]

KD4 = GameConfig("kingdomino", ("p1", "p2", "p3", "p4"), {"harmony"})


def _before_last_first_claim(seed=1):
    game = Game.new(KD4, seed)
    for _ in range(3):
        game.apply(game.legal_actions()[0])  # claimers take the line in order: the first claimer plays first
    assert game.decision().kind == FIRST_CLAIM
    return game


def test_a_domino_that_fits_nowhere_is_discarded_at_once_with_the_reason():
    game = _before_last_first_claim()
    game.kingdoms = [Kingdom.from_text(FULL, 5, k.players) for k in game.kingdoms]
    first = game.kings[game.current_line[0][1]]
    dom = game.current_line[0][0]
    events = game.apply(game.legal_actions()[0])
    discards = [e for e in events if e.kind == "discarded"]
    assert len(discards) == 1, "only the first king has played yet"
    e = discards[0]
    assert e.player == first.player and e.data == {"domino": dom, "size": 5}
    assert "could not place" in e.text and "it is discarded" in e.text and "5x5" in e.text
    assert game.kingdoms[first.kingdom].discarded == [dom]
    d = game.decision()
    assert (d.kind, d.player) == (CLAIM, first.player), "the turn goes on with the claim"
    assert game.scores()[first.kingdom].harmony == 0
    assert all(s.harmony == 5 for i, s in enumerate(game.scores()) if i != first.kingdom)


def test_a_domino_with_a_legal_place_must_be_placed():
    game = _before_last_first_claim()
    first = game.kings[game.current_line[0][1]]
    game.kingdoms[first.kingdom] = Kingdom.from_text(HOLE, 5, game.kingdoms[first.kingdom].players)
    events = game.apply(game.legal_actions()[0])
    assert not [e for e in events if e.kind == "discarded"]
    d = game.decision()
    assert (d.kind, d.player) == (PLACE, first.player)
    assert set(game.legal_actions()) == {Place(4, 2, "right"), Place(4, 3, "left")}
    state = game.to_dict()
    with pytest.raises(WrongPhase, match=r"must place domino .* first, not skip"):
        game.apply(Skip())
    assert game.to_dict() == state
    game.apply(Place(4, 3, "left"))
    assert game.kingdoms[first.kingdom].discarded == []
