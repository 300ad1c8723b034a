"""Computer players see `game.view()` only: they cannot cheat by construction. An agent given two games that differ
only in what is hidden (the order of the lines to come, the dominoes set aside, the building stack, the seed)
chooses the same action, whatever it reads, while the search still samples the unseen dominoes."""

from __future__ import annotations

import random

import pytest

from engine import Action, Game
from engine.ai import AGENTS, LEVELS, Blindfolded, make_agent
from tests.engine.hidden import random_position, reshuffled

from .modes import MODES


class Cheat:
    """Picks its claim by the number of the first domino of the hidden line after next (else the first action)."""

    name = "cheat"

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if game.lines_to_come and hasattr(actions[0], "domino"):
            return actions[int(game.lines_to_come[0][0][1:]) % len(actions)]
        return actions[0]


def pairs(mode: str, count: int) -> list[tuple[Game, Game]]:
    """Positions of `mode` at a claim, each with a twin that differs only in what is hidden."""
    rng = random.Random(mode)
    out = []
    while len(out) < count:
        game = random_position(Game.new(MODES[mode], rng.randrange(10**6)), rng, rng.randrange(0, 200))
        d = game.decision()
        if d is not None and d.kind in ("claim", "first_claim") and len(game.legal_actions()) > 1:
            out.append((game, reshuffled(game, rng)))
    return out


def test_a_cheat_is_blind_once_blindfolded() -> None:
    games = pairs("kingdomino-4-bonuses", 12)
    assert any(Cheat().choose(a) != Cheat().choose(b) for a, b in games)  # it does read the hidden lines
    for a, b in games:
        assert Blindfolded(Cheat()).choose(a) == Blindfolded(Cheat()).choose(b)


@pytest.mark.parametrize("mode", ["kingdomino-3", "queendomino-2", "royal-wedding-6-teams"])
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_chooses_the_same_whatever_is_hidden(mode: str, level: str) -> None:
    options = {"iterations": 40} if level == "hard" else {}
    for a, b in pairs(mode, 3):
        assert make_agent(level, seed=5, **options).choose(a) == make_agent(level, seed=5, **options).choose(b)


@pytest.mark.parametrize("level", LEVELS)
def test_the_blindfold_changes_no_choice(level: str) -> None:
    """Strength is unchanged: the agents never read what the view hides (the search samples the unseen dominoes)."""
    options = {"iterations": 40} if level == "hard" else {}
    for game, _ in pairs("queendomino-3", 3):
        assert make_agent(level, seed=2, **options).choose(game) == AGENTS[level](seed=2, **options).choose(game)


def test_every_level_that_reads_the_game_is_blindfolded() -> None:
    assert [isinstance(make_agent(level), Blindfolded) for level in LEVELS] == [level != "random" for level in LEVELS]


def test_agents_keep_their_own_attributes() -> None:
    agent = make_agent("hard", seed=1, iterations=20)
    game = pairs("kingdomino-3", 1)[0][0]
    agent.choose(game)
    assert agent.name == "hard" and agent.last_playouts > 0 and agent.stopped_by_clock is False
