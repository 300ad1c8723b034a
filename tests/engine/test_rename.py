"""A player renamed in a game (someone who asked to be forgotten leaves it): the same game, as if the new name had sat
there from the start: its log replays under the new name to the renamed state, in every mode."""

from __future__ import annotations

import random

import pytest

from engine import Game, GameConfig

MODES = [
    GameConfig("kingdomino", ("11", "22")),
    GameConfig("queendomino", ("11", "22", "33")),
    GameConfig("royal-wedding", ("11", "22", "33", "44", "55", "66"), teams=(("11", "22"), ("33", "44"), ("55", "66"))),
]


@pytest.mark.parametrize("config", MODES, ids=lambda c: c.game)
@pytest.mark.parametrize("moves", [0, 7, 40, 10_000])
def test_a_renamed_game_is_its_renamed_log_replayed(config, moves):
    game = Game.new(config, 5)
    rng = random.Random(moves)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()), by=game.decision().player)
    before = game.to_dict()
    renamed = game.clone()
    renamed.rename_player("22", "cpu:7")
    assert "22" not in renamed.config.players and renamed.config.players[1] == "cpu:7"
    assert all(p != "22" for p, _ in renamed.log) and all(k.player != "22" for k in renamed.kings)
    assert all("22" not in k.players for k in renamed.kingdoms)
    replay = Game.replay(renamed.config, 5, renamed.log)
    assert replay.to_dict() == renamed.to_dict()
    assert Game.from_dict(renamed.to_dict()).to_dict() == renamed.to_dict()
    assert game.to_dict() == before, "the original is untouched"
    if not renamed.is_over:
        d, old = renamed.decision(), game.decision()
        assert d.player == ("cpu:7" if old.player == "22" else old.player)
        assert renamed.legal_actions() == game.legal_actions()


def test_renaming_a_stranger_or_onto_a_player_is_refused():
    game = Game.new(MODES[0], 1)
    with pytest.raises(ValueError, match="does not play"):
        game.rename_player("99", "cpu:1")
    with pytest.raises(ValueError, match="already plays"):
        game.rename_player("11", "22")
    assert game.config.players == ("11", "22")
