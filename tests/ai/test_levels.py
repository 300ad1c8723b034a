"""The computer levels are listed once (engine.ai.LEVELS): every reader takes them from there."""

from __future__ import annotations

import pytest

from engine import Game
from engine.ai import AGENTS, BUDGET_FACTORS, LEVELS, OFFERED_LEVELS, make_agent

from .modes import MODES


def test_every_level_is_an_agent_and_only_those() -> None:
    assert tuple(AGENTS) == LEVELS
    game = Game.new(MODES["kingdomino-2"], 1)
    for level in LEVELS:
        options = {"time_budget": 0.02 * BUDGET_FACTORS[level]} if level in BUDGET_FACTORS else {}
        assert make_agent(level, seed=1, **options).choose(game) in game.legal_actions()


def test_expert_is_hard_with_three_times_the_effort() -> None:
    """The fifth rung: the same search, `EXPERT_FACTOR` times hard's budget; the bot's `hard_budget` scales both."""
    from engine.ai.search import EXPERT_FACTOR, HardAgent

    assert LEVELS[-2:] == ("hard", "expert") and BUDGET_FACTORS == {"hard": 1.0, "expert": EXPERT_FACTOR}
    expert, hard = make_agent("expert", seed=3).agent, make_agent("hard", seed=3).agent
    assert isinstance(expert, HardAgent) and expert.name == "expert"
    assert expert.time_budget == EXPERT_FACTOR * hard.time_budget == 3.0
    # the same search, three times the playouts for its effort (its own random stream: it is named expert)
    game = Game.new(MODES["kingdomino-2"], 5)
    while game.decision().kind != "place":
        game.apply(game.legal_actions()[0])
    base = make_agent("hard", seed=3, time_budget=0.05)
    assert base.choose(game) in game.legal_actions()
    more = make_agent("expert", seed=3, time_budget=0.05 * EXPERT_FACTOR)
    assert more.choose(game) in game.legal_actions()
    assert more.last_playouts > 2 * base.last_playouts


def test_the_store_accepts_exactly_the_agents_levels() -> None:
    from db.models import CPU_LEVELS

    assert frozenset(LEVELS) == CPU_LEVELS
    assert "grandmaster" not in CPU_LEVELS


def test_the_lobby_offers_the_levels_the_catalogues_name() -> None:
    from cogs import lobby
    from i18n import messages as M

    assert set(OFFERED_LEVELS) <= set(LEVELS)
    assert lobby.LEVELS == OFFERED_LEVELS == ("easy", "medium", "hard")
    # Every level a stored seat can have but `random` has words (a game with an expert seat still names it).
    assert set(M.LEVELS) == set(LEVELS) - {"random"}


def test_the_web_board_offers_the_lobby_levels_with_their_words() -> None:
    from web import app, lobby, strings

    # Its API takes every level (the browser tests seat `random` players); its menu offers the lobby's.
    assert lobby.LEVELS == LEVELS and app.OFFERED_LEVELS == OFFERED_LEVELS
    for lang in ("en", "cs", "es", "ro"):
        words = strings.page_strings(lang)["levels"]
        assert list(words) == list(LEVELS)
        assert all(words[level] for level in OFFERED_LEVELS) and len(set(words.values())) == len(LEVELS), words


def test_an_unknown_level_is_refused_with_the_levels_to_choose_from() -> None:
    with pytest.raises(
        ValueError, match=r"Unknown computer player 'grandmaster': choose one of random, easy, medium, hard, expert"
    ):
        make_agent("grandmaster")


async def test_the_service_refuses_an_unknown_level_instead_of_playing_random() -> None:
    from cogs.service import GameService

    service = GameService.__new__(GameService)
    service.ai_pool = None
    service.hard_budget = 0.1
    with pytest.raises(ValueError, match="Unknown computer player 'grandmaster'"):
        await service.computer_action(Game.new(MODES["kingdomino-2"], 1), "grandmaster")


async def test_a_stored_expert_seat_plays_on_at_three_times_the_bots_hard_budget(monkeypatch) -> None:
    """`expert` is no longer offered, but a game stored with an expert seat plays on: its moves get three times the
    bot's `hard_budget` (hard's get one), and the move is legal."""
    from cogs import service as service_module
    from cogs.service import GameService

    budgets = []
    real = service_module.make_agent

    def spy(level, seed=0, **options):
        budgets.append((level, options.get("time_budget")))
        return real(level, seed, **options)

    monkeypatch.setattr(service_module, "make_agent", spy)
    service = GameService.__new__(GameService)
    service.ai_pool = None
    service.hard_budget = 0.02
    game = Game.new(MODES["kingdomino-2"], 3)
    for level in ("expert", "hard"):
        action = await service.computer_action(game, level)
        assert action in game.legal_actions()
    assert budgets == [("expert", pytest.approx(0.06)), ("hard", 0.02)]
