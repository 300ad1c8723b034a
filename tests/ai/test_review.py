"""The post-game review (engine/ai/review.py): real decisions of the game, better moves that were legal where they
are proposed (checked by replaying the log), the same review every time for a seed and fixed work."""

from __future__ import annotations

import pytest

from engine import Game
from engine.ai import make_agent
from engine.ai.review import MIN_POINTS, Review, review_game

from .modes import MODES

BUDGET, PLAYOUTS = 0.01, 6  # tiny, so that whole games stay quick


def finished(mode: str, seed: int, levels: tuple[str, ...]) -> Game:
    config = MODES[mode]
    game = Game.new(config, seed)
    agents = {p: make_agent(levels[i % len(levels)], seed * 10 + i) for i, p in enumerate(config.players)}
    while not game.is_over:
        d = game.decision()
        game.apply(agents[d.player].choose(game), by=d.player)
    return game


def check_against_the_log(game: Game, review: Review) -> None:
    assert review.items, "random players make mistakes hard would not"
    for item in review.items:
        position = Game.replay(game.config, game.seed, game.log[: item.index])
        d = position.decision()
        assert d is not None and d.player == item.player and d.kind == item.kind and position.round == item.round
        assert game.log[item.index] == (item.player, item.played)  # a real decision of that game
        legal = position.legal_actions()
        assert item.better in legal and item.better != item.played
        assert item.points >= MIN_POINTS
        after = position.clone()
        after.apply(item.better, by=item.player)  # the engine takes it


@pytest.mark.parametrize(
    ("mode", "levels"),
    [
        ("kingdomino-4-bonuses", ("random", "easy")),
        ("queendomino-2", ("random", "easy")),
        ("kingdomino-4-dynasty", ("random",)),
    ],
)
def test_better_moves_are_legal_where_proposed_and_the_review_is_deterministic(mode: str, levels: tuple) -> None:
    game = finished(mode, 3, levels)
    review = review_game(game, budget=BUDGET, playouts=PLAYOUTS, seed=1)
    check_against_the_log(game, review)
    assert review_game(Game.from_dict(game.to_dict()), budget=BUDGET, playouts=PLAYOUTS, seed=1) == review
    assert 0 < review.decisions <= len(game.log)


def test_the_worst_decisions_come_first_and_random_loses_more_than_easy() -> None:
    game = finished("kingdomino-4-bonuses", 5, ("random", "easy"))  # p0, p2 random; p1, p3 easy
    review = review_game(game, budget=BUDGET, playouts=PLAYOUTS, seed=2)
    worst = review.worst("p0", 3)
    assert 1 <= len(worst) <= 3 and all(item.player == "p0" for item in worst)
    assert [item.points for item in worst] == sorted((item.points for item in worst), reverse=True)
    assert worst[0].points == max(item.points for item in review.items if item.player == "p0")
    assert review.lost("p0") + review.lost("p2") > review.lost("p1") + review.lost("p3")


def test_bad_settings_are_refused() -> None:
    game = finished("kingdomino-2", 1, ("random",))
    with pytest.raises(ValueError, match="positive budget"):
        review_game(game, budget=0)
    with pytest.raises(ValueError, match="at least one playout"):
        review_game(game, playouts=0)
