"""The computer levels are listed once (engine.ai.LEVELS): every reader takes them from there."""

from __future__ import annotations

import pytest

from engine import Game
from engine.ai import AGENTS, LEVELS, OFFERED_LEVELS, make_agent

from .modes import MODES


def test_every_level_is_an_agent_and_only_those() -> None:
    assert tuple(AGENTS) == LEVELS
    game = Game.new(MODES["kingdomino-2"], 1)
    for level in LEVELS:
        assert make_agent(level, seed=1).choose(game) in game.legal_actions()


def test_the_store_accepts_exactly_the_agents_levels() -> None:
    from db.models import CPU_LEVELS

    assert frozenset(LEVELS) == CPU_LEVELS
    assert "expert" not in CPU_LEVELS


def test_the_lobby_offers_the_levels_the_catalogues_name() -> None:
    from cogs import lobby
    from i18n import messages as M

    assert set(OFFERED_LEVELS) <= set(LEVELS)
    assert lobby.LEVELS == OFFERED_LEVELS
    assert set(M.LEVELS) == set(OFFERED_LEVELS)


def test_an_unknown_level_is_refused_with_the_levels_to_choose_from() -> None:
    with pytest.raises(ValueError, match=r"Unknown computer player 'expert': choose one of random, easy, medium, hard"):
        make_agent("expert")


async def test_the_service_refuses_an_unknown_level_instead_of_playing_random() -> None:
    from cogs.service import GameService

    service = GameService.__new__(GameService)
    service.ai_pool = None
    service.hard_budget = 0.1
    with pytest.raises(ValueError, match="Unknown computer player 'expert'"):
        await service.computer_action(Game.new(MODES["kingdomino-2"], 1), "expert")
