"""Royal Wedding in teams: one kingdom, knights and coins per team; each player moves their own king."""

import random
from collections import defaultdict

import pytest

from engine import BUILD, PLACE, TAX, Build, Game, NotYourTurn, Skip, Tax

from .harness import config


@pytest.mark.parametrize("mode", ["teams-6", "teams-8"])
def test_teams_share_a_kingdom_but_each_player_moves_their_own_king(mode):
    cfg = config(mode)
    teams = len(cfg.players) // 2
    game = Game.new(cfg, 2)
    assert [k.players for k in game.kingdoms] == [(f"p{2 * i + 1}", f"p{2 * i + 2}") for i in range(teams)]
    assert [(k.coins, k.knights_reserve) for k in game.kingdoms] == [(7, 1)] * teams
    assert game.knights_supply == 22 - teams
    assert [(k.player, k.kingdom) for k in game.kings] == [(p, i // 2) for i, p in enumerate(cfg.players)]
    rng = random.Random(2)
    placed_by = defaultdict(set)
    economy_by = defaultdict(set)
    refused = 0
    while not game.is_over:
        d = game.decision()
        assert game.kings[d.king].player == d.player
        mate = next(p for p in game.kingdoms[d.kingdom].players if p != d.player)
        if refused < 20:
            state = game.to_dict()
            with pytest.raises(NotYourTurn, match=f"It is {d.player}'s turn"):
                game.apply(game.legal_actions()[0], by=mate)
            assert game.to_dict() == state
            refused += 1
        action = rng.choice(game.legal_actions())
        if d.kind == PLACE:
            placed_by[d.kingdom].add(d.player)
        if d.kind in (TAX, BUILD) and isinstance(action, (Tax, Build)):
            economy_by[d.kingdom].add(d.player)
        game.apply(action, by=d.player)
    assert all(len(placed_by[i]) == 2 for i in range(teams)), "both players build the team's kingdom"
    assert any(len(p) == 2 for p in economy_by.values()), "both players spend the team's coins and knights"
    result = game.result()
    winners = [game.kingdoms[i].players for i in result.winner_kingdoms]
    assert sorted(result.winners) == sorted(p for team in winners for p in team)
    assert len(game.scores()) == teams


def test_a_team_kingdom_holds_both_kings_dominoes():
    game = Game.new(config("teams-6"), 9)
    rng = random.Random(9)
    while not game.is_over:
        d = game.decision()
        game.apply(rng.choice(game.legal_actions()) if d.kind != TAX else Skip())
    for k in game.kingdoms:
        assert len(k.placed) + len(k.discarded) == 2 * 12
        assert k.size == 7
