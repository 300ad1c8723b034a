"""The learned position value (engine/ai/value.py) and hard's truncated playouts (`value_depth`): the value ranks
obviously better kingdoms above worse ones, the truncated search plays legal moves, deterministically, for less work
a playout, only where weights were fitted, and bad option values are refused; the fitting code recovers a known
linear law."""

from __future__ import annotations

import random

import pytest

import engine.ai.search as search
from benchmarks.fit_value import fit, round_start, solve
from engine import Game, GameConfig
from engine.ai import make_agent
from engine.ai.model import TERRAINS, Sim
from engine.ai.value import FEATURES, FIXED, WEIGHTS, future_stats, value, weights_for
from tests.conftest import SearchClock

from .modes import MODES, players

BONUSES = frozenset({"middle-kingdom", "harmony"})
WHEAT, FOREST, LAKE = (TERRAINS.index(t) for t in ("wheat", "forest", "lake"))


def opening(n: int, seed: int = 3) -> tuple[Game, Sim]:
    """A Kingdomino game (Middle Kingdom, Harmony) at the first placement of its first round, and its model."""
    game = Game.new(GameConfig("kingdomino", players(n), BONUSES), seed)
    rng = random.Random(seed)
    while not (game.decision().kind == "place" and round_start(game)):
        game.apply(rng.choice(game.legal_actions()))
    return game, Sim.from_game(game)


def points_to_come(game: Game, sim: Sim, ki: int) -> float:
    return value(sim, ki, future_stats(game.unseen_dominoes()), weights_for(sim))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_weights_are_fitted_for_kingdomino_with_two_to_four_players(n: int) -> None:
    game, sim = opening(n)
    assert len(WEIGHTS[n]) == len(FEATURES)
    assert weights_for(sim) == WEIGHTS[n]
    # Most of a game's points are still to come at its start, and a kingdom's value is a few dozen of them.
    assert 20 < points_to_come(game, sim, 0) < 90
    assert weights_for(Sim.from_game(Game.new(MODES["queendomino-2"], 1))) is None
    assert weights_for(Sim.from_game(Game.new(MODES["mighty-duel"], 1))) is None


@pytest.mark.parametrize("n", [2, 4])
def test_crowns_in_a_territory_that_can_grow_are_worth_more_to_come(n: int) -> None:
    game, sim = opening(n)
    rich, poor = sim.copy(), sim.copy()
    for s, crowns in ((rich, 2), (poor, 0)):
        k = s.ks[0]
        k.place(k.cell(4, 5), WHEAT, crowns, k.cell(4, 6), WHEAT, 0)  # a wheat field east of the castle, open
    assert rich.ks[0].pts == 4 and poor.ks[0].pts == 0
    assert points_to_come(game, rich, 0) > points_to_come(game, poor, 0) + 1


@pytest.mark.parametrize("n", [2, 4])
def test_a_walled_in_cell_is_worth_less_to_come(n: int) -> None:
    # The same eight squares, no crowns, in the same frame: around the cell north-east of the castle (a hole: no
    # domino can fill it, so a domino will be discarded and Harmony is lost), or not.
    game, sim = opening(n)
    holed, clean = sim.copy(), sim.copy()
    k = holed.ks[0]
    k.place(k.cell(4, 5), FOREST, 0, k.cell(5, 5), LAKE, 0)
    k.place(k.cell(3, 4), LAKE, 0, k.cell(2, 4), FOREST, 0)
    k.place(k.cell(2, 5), FOREST, 0, k.cell(2, 6), LAKE, 0)
    k.place(k.cell(3, 6), LAKE, 0, k.cell(4, 6), FOREST, 0)
    k = clean.ks[0]
    k.place(k.cell(2, 4), FOREST, 0, k.cell(3, 4), LAKE, 0)
    k.place(k.cell(2, 5), LAKE, 0, k.cell(3, 5), FOREST, 0)
    k.place(k.cell(2, 6), FOREST, 0, k.cell(3, 6), LAKE, 0)
    k.place(k.cell(4, 5), LAKE, 0, k.cell(5, 5), FOREST, 0)
    assert holed.ks[0].terr[holed.ks[0].cell(3, 5)] == -1  # empty, walled in
    assert (holed.ks[0].fr0, holed.ks[0].fr1, holed.ks[0].fc0, holed.ks[0].fc1) == (
        clean.ks[0].fr0,
        clean.ks[0].fr1,
        clean.ks[0].fc0,
        clean.ks[0].fc1,
    )
    assert holed.ks[0].inside and clean.ks[0].inside  # both still in reach of the Middle Kingdom
    assert points_to_come(game, holed, 0) < points_to_come(game, clean, 0) - 3


def test_fewer_points_are_to_come_as_the_game_ends() -> None:
    game = Game.new(GameConfig("kingdomino", players(2), BONUSES), 9)
    agents = {p: make_agent("easy", i) for i, p in enumerate(game.config.players)}
    seen: list[list[float]] = []
    while not game.is_over:
        if game.decision().kind == "place" and round_start(game):
            sim = Sim.from_game(game)
            seen.append([points_to_come(game, sim, ki) for ki in range(2)])
        d = game.decision()
        game.apply(agents[d.player].choose(game), by=d.player)
    assert len(seen) == game.setup.rounds
    for ki in range(2):
        assert seen[0][ki] > seen[len(seen) // 2][ki] > seen[-1][ki]


def test_truncated_playouts_play_whole_games_with_legal_moves() -> None:
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        config = GameConfig("kingdomino", players(n), BONUSES)
        game = Game.new(config, seed)
        agents = {p: make_agent("hard", i, time_budget=0.003, value_depth=1 + i) for i, p in enumerate(config.players)}
        while not game.is_over:
            d = game.decision()
            action = agents[d.player].choose(game)
            assert action in game.legal_actions()
            game.apply(action, by=d.player)
        assert game.result().winners


def mid_game(seed: int = 4) -> Game:
    game = Game.new(GameConfig("kingdomino", players(2), BONUSES), seed)
    rng = random.Random(seed)
    while game.round < 2 or game.decision().kind != "place" or len(game.legal_actions()) == 1:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_truncated_playouts_are_deterministic_however_busy_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    game = mid_game()
    idle = make_agent("hard", 5, time_budget=0.05, value_depth=2)
    expected = idle.choose(game)
    assert expected in game.legal_actions() and idle.last_playouts > 1
    assert make_agent("hard", 5, time_budget=0.05, value_depth=2).choose(game) == expected
    monkeypatch.setattr(search, "time", SearchClock(0.001))
    busy = make_agent("hard", 5, time_budget=0.05, value_depth=2)
    assert busy.choose(game) == expected
    assert busy.last_playouts == idle.last_playouts and not busy.stopped_by_clock


def test_truncated_playouts_stop_early_and_add_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # At the same work, playouts that stop a round in are cheaper, so there are more of them; each adds every
    # kingdom's value (two kingdoms: two values a playout, but in the playouts that reached the end of the game).
    game = mid_game()
    calls = []

    def spy(sim, ki, stats, weights):
        calls.append(sim.round)
        return value(sim, ki, stats, weights)

    monkeypatch.setattr(search, "value", spy)
    full, truncated = make_agent("hard", 5, time_budget=0.05), make_agent("hard", 5, time_budget=0.05, value_depth=1)
    full.choose(game)
    assert not calls
    truncated.choose(game)
    assert truncated.last_playouts > 1.5 * full.last_playouts
    assert len(calls) == 2 * truncated.last_playouts
    assert set(calls) == {game.round + 1}


def test_without_fitted_weights_the_playouts_go_to_the_end() -> None:
    # Queendomino's economy is not in the learned value: value_depth changes nothing there.
    game = Game.new(MODES["queendomino-2"], 8)
    rng = random.Random(8)
    while game.round < 3 or len(game.legal_actions()) == 1:
        game.apply(rng.choice(game.legal_actions()))
    plain, asked = make_agent("hard", 2, time_budget=0.03), make_agent("hard", 2, time_budget=0.03, value_depth=2)
    assert plain.choose(game) == asked.choose(game)
    assert plain.last_playouts == asked.last_playouts


@pytest.mark.parametrize("bad", [-1, 13, 1.5, True, "2", None])
def test_bad_value_depths_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="value_depth must be a whole number of rounds from 0"):
        make_agent("hard", 1, value_depth=bad)


def test_the_fit_recovers_a_known_linear_law() -> None:
    assert solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0]) == pytest.approx([0.8, 1.4])
    rng = random.Random(1)
    law = [FIXED.get(name, rng.uniform(-2, 2)) for name in FEATURES]  # the fixed weights as they are set
    rows = []
    for _ in range(400):
        x = [1.0] + [rng.uniform(0, 10) for _ in FEATURES[1:]]
        now = rng.uniform(0, 30)
        rows.append({"x": x, "now": now, "final": now + sum(a * b for a, b in zip(law, x, strict=True))})
    assert fit(rows) == pytest.approx(law, abs=0.05)
