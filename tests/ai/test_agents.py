"""The computer players: whole games of every mode with legal actions only, determinism, no peeking at hidden
information, strength against a weaker level, and the search's effort budget (no clock)."""

from __future__ import annotations

import contextlib
import random
from collections import defaultdict

import pytest

import engine.ai.search as search
from engine import Game, GameConfig
from engine.ai import AGENTS, make_agent
from engine.ai.greedy import GreedyMediumAgent
from tests.conftest import SearchClock

from .modes import MODES, players

LEVELS = ("random", "easy", "medium", "hard")


def fast_agent(level: str, seed: int):
    """Hard and medium (hard's search over fewer placements) with a tiny budget (a few playouts per decision), so
    that whole games stay quick: medium's own budget is 17 times this one, and the legality of what they choose does
    not depend on how many playouts ranked it."""
    return make_agent(level, seed, time_budget=0.003) if level in ("hard", "medium") else make_agent(level, seed)


def play(game: Game, agents: dict, seen: dict | None = None) -> Game:
    """Play to the end; every action must be one of the legal actions of the moment."""
    while not game.is_over:
        d = game.decision()
        assert d is not None
        legal = game.legal_actions()
        action = agents[d.player].choose(game)
        assert action in legal, f"{agents[d.player].name} chose {action} at {d}"
        if seen is not None and len(legal) > 1:
            seen[agents[d.player].name].add(d.kind)
        game.apply(action, by=d.player)
    return game


def test_every_level_plays_every_mode_with_legal_actions_only() -> None:
    seen: dict[str, set[str]] = defaultdict(set)
    for n, (mode, config) in enumerate(sorted(MODES.items())):
        agents = {p: fast_agent(LEVELS[(i + n) % len(LEVELS)], seed=n * 10 + i) for i, p in enumerate(config.players)}
        game = play(Game.new(config, seed=n), agents, seen)
        assert game.result().winners, mode
    # Every level met every kind of decision somewhere (Queendomino's knights, buildings and dragon included).
    kinds = {"first_claim", "place", "claim", "tax", "build", "dragon"}
    for level in LEVELS:
        assert seen[level] == kinds, level


@pytest.mark.parametrize("level", ["easy", "greedy-medium", "medium"])
def test_greedy_levels_play_team_games_for_the_team(level: str) -> None:
    config = MODES["royal-wedding-6-teams"]
    maker = GreedyMediumAgent if level == "greedy-medium" else lambda seed: fast_agent(level, seed)
    agents = {p: maker(seed=i) for i, p in enumerate(config.players)}
    game = play(Game.new(config, seed=5), agents)
    assert len(game.result().totals) == 3


def positions(seed: int) -> list[Game]:
    """Mid-game positions of several modes, at every kind of decision."""
    rng = random.Random(seed)
    out = []
    for mode in ("kingdomino-4-bonuses", "queendomino-2", "queendomino-4", "royal-wedding-6-teams", "mighty-duel"):
        game = Game.new(MODES[mode], seed)
        kinds = set()
        while not game.is_over and len(out) < 60:
            d = game.decision()
            if d.kind not in kinds or rng.random() < 0.05:
                kinds.add(d.kind)
                if len(game.legal_actions()) > 1:
                    out.append(game.clone())
            game.apply(rng.choice(game.legal_actions()))
    return out


def deterministic_agent(level: str, seed: int):
    # A fixed number of playouts and a budget the clock never reaches: the choice depends on the seed alone.
    return make_agent(level, seed, iterations=16, time_budget=60) if level == "hard" else make_agent(level, seed)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_same_seed_and_state_give_the_same_action(level: str) -> None:
    games = positions(11)
    if level in ("medium", "hard"):
        games = games[::6]
    for game in games:
        agent = deterministic_agent(level, 3)
        first = agent.choose(game)
        assert agent.choose(game) == first  # the same agent asked again
        assert deterministic_agent(level, 3).choose(game.clone()) == first  # a fresh agent
        assert deterministic_agent(level, 3).choose(Game.from_dict(game.to_dict())) == first  # a saved game


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_choices_ignore_the_hidden_order_of_lines_and_buildings(level: str) -> None:
    games = positions(12)
    if level in ("medium", "hard"):
        games = games[::6]
    rng = random.Random(0)
    for game in games:
        expected = deterministic_agent(level, 4).choose(game)
        shuffled = game.clone()
        # Deal the same hidden dominoes and buildings in another order (each line stays sorted, per box).
        for box in game.setup.boxes:
            slots = [(i, j) for i, line in enumerate(shuffled.lines_to_come) for j, d in enumerate(line) if d[0] == box]
            doms = [shuffled.lines_to_come[i][j] for i, j in slots]
            rng.shuffle(doms)
            for (i, j), d in zip(slots, doms, strict=True):
                shuffled.lines_to_come[i][j] = d
        shuffled.lines_to_come = [sorted(line, key=lambda d: int(d[1:])) for line in shuffled.lines_to_come]
        rng.shuffle(shuffled.stack)
        assert deterministic_agent(level, 4).choose(shuffled) == expected


def test_easy_beats_random_clearly() -> None:
    config = GameConfig("kingdomino", players(4))
    wins = 0.0
    for seed in range(20):
        seat = seed % 4
        agents = {p: make_agent("easy" if i == seat else "random", seed * 4 + i) for i, p in enumerate(config.players)}
        result = play(Game.new(config, seed), agents).result()
        if config.players[seat] in result.winners:
            wins += 1 / len(result.winners)
    assert wins >= 15  # about 97% over many games; 25% would be chance


def test_medium_beats_easy_head_to_head() -> None:
    config = GameConfig("kingdomino", players(2))
    games, needed = 30, 16  # at least 16 of 30 games: about 2 in 3 over many games
    wins = 0.0
    for seed in range(games):
        if wins >= needed:
            break  # the games are deterministic and independent: the rest cannot change the verdict
        levels = ("medium", "easy") if seed % 2 == 0 else ("easy", "medium")
        agents = {p: make_agent(level, seed) for p, level in zip(config.players, levels, strict=True)}
        result = play(Game.new(config, seed), agents).result()
        medium = config.players[levels.index("medium")]
        if medium in result.winners:
            wins += 1 / len(result.winners)
    assert wins >= needed, f"medium won {wins} of {games} games against easy"


def hard_position(mode: str, rounds: int) -> Game:
    game = Game.new(MODES[mode], 6)
    rng = random.Random(6)
    while game.round < rounds or len(game.legal_actions()) == 1:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_medium_is_a_small_search_with_a_fixed_effort(monkeypatch: pytest.MonkeyPatch) -> None:
    # medium runs hard's search with a budget of a few hundredths of a second, counted in work units: it simulates
    # a few dozen futures (far fewer than hard), and a clock each reading of which comes a millisecond later (a
    # machine 50 times busier than usual) changes neither its choice nor its playouts.
    game = hard_position("kingdomino-4-bonuses", 3)
    medium, hard = make_agent("medium", 5), make_agent("hard", 5)
    expected = medium.choose(game)
    hard.choose(game)
    assert medium.time_budget == search.MEDIUM_BUDGET and medium.max_placements == search.MEDIUM_PLACEMENTS
    assert 10 < medium.last_playouts < hard.last_playouts / 5
    monkeypatch.setattr(search, "time", SearchClock(0.001))
    busy = make_agent("medium", 5)
    assert busy.choose(game) == expected
    assert busy.last_playouts == medium.last_playouts and not busy.stopped_by_clock


@pytest.mark.parametrize("mode", ["kingdomino-4-bonuses", "queendomino-2", "royal-wedding-6-teams"])
def test_hard_chooses_the_same_however_busy_the_machine(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Its effort is counted in work units, not seconds: a clock running 50 times slower than usual (each reading
    # a millisecond later) changes nothing, as long as the safety stop (ten times the budget) is not reached.
    game = hard_position(mode, 3)
    idle = make_agent("hard", 5, time_budget=0.1)
    expected = idle.choose(game)
    playouts = idle.last_playouts
    assert playouts > 1 and not idle.stopped_by_clock
    monkeypatch.setattr(search, "time", SearchClock(0.001))
    busy = make_agent("hard", 5, time_budget=0.1)
    assert busy.choose(game) == expected
    assert busy.last_playouts == playouts and not busy.stopped_by_clock


def test_the_safety_stop_ends_a_search_on_a_stalled_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each reading of the clock a minute later (past 30 budgets): the search stops after its first playout.
    game = hard_position("kingdomino-4-bonuses", 2)
    monkeypatch.setattr(search, "time", SearchClock(60.0))
    agent = make_agent("hard", 1, time_budget=1.0)
    assert agent.choose(game) in game.legal_actions()
    assert agent.stopped_by_clock and agent.last_playouts == 1


def test_hard_can_search_placements_alone() -> None:
    game = hard_position("kingdomino-4-bonuses", 3)
    while game.decision().kind != "place":
        game.apply(game.legal_actions()[0])
    paired = make_agent("hard", 3, iterations=40, max_placements=3)
    alone = make_agent("hard", 3, iterations=40, max_placements=3, pair_claims=False)
    assert paired.choose(game) in game.legal_actions() and alone.choose(game) in game.legal_actions()
    assert alone.candidates_last <= 3 < paired.candidates_last


def test_a_tiny_budget_gives_few_playouts_and_a_legal_move() -> None:
    game = hard_position("royal-wedding-6-teams", 2)
    small, large = make_agent("hard", 2, time_budget=0.001), make_agent("hard", 2, time_budget=0.2)
    assert small.choose(game) in game.legal_actions() and large.choose(game) in game.legal_actions()
    assert 1 <= small.last_playouts < large.last_playouts


def test_hard_with_a_fixed_number_of_playouts_ignores_the_clock() -> None:
    game = Game.new(GameConfig("queendomino", players(3)), 8)
    rng = random.Random(1)
    while game.round < 4:
        game.apply(rng.choice(game.legal_actions()))
    while len(game.legal_actions()) == 1:
        game.apply(game.legal_actions()[0])
    patient = make_agent("hard", 2, iterations=30, time_budget=100)
    hurried = make_agent("hard", 2, iterations=30, time_budget=2)
    assert patient.choose(game) == hurried.choose(game)
    assert patient.last_playouts == hurried.last_playouts > 0


def test_make_agent_names_and_options() -> None:
    assert set(AGENTS) == {"random", "easy", "medium", "hard", "expert"}
    for name in AGENTS:
        assert make_agent(name, 1).name == name
    with pytest.raises(ValueError, match="Unknown computer player"):
        make_agent("grandmaster")
    with pytest.raises(ValueError, match="time budget"):
        make_agent("hard", time_budget=0)
    game = Game.new(GameConfig("kingdomino", players(2)), 1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    for name in AGENTS:
        if name != "random":
            with pytest.raises(ValueError, match="over"):
                make_agent(name).choose(game)


@pytest.mark.parametrize("mode", ["kingdomino-4-bonuses", "royal-wedding-6-teams"])
def test_the_last_round_is_searched_in_one_pass(mode: str) -> None:
    # In the last round the playouts read nothing of the sampled future: one playout per candidate gives the exact
    # values, whatever the budget.
    last = None
    for seed in range(6, 30):  # a game whose very last placement has a choice
        game = Game.new(MODES[mode], seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.decision().kind == "place":
                last = game.clone() if len(game.legal_actions()) > 1 else None
            game.apply(rng.choice(game.legal_actions()))
        if last is not None:
            break
    assert last is not None
    agent = make_agent("hard", 1, time_budget=1.0)
    action = agent.choose(last)
    assert agent.last_playouts == agent.candidates_last > 1
    me = last.decision().kingdom
    assert agent.choose(last) == action
    game = last.clone()
    game.apply(action)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.scores()[me].total > 0


@contextlib.contextmanager
def sims_seen():
    """The playouts' models (`Sim`) the searches start from while inside, in order: what options reached them."""
    seen: list = []
    original = search.Sim.from_game

    def spy(g):
        s = original(g)
        seen.append(s)
        return s

    search.Sim.from_game = spy  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        search.Sim.from_game = original  # type: ignore[method-assign]


def test_the_searching_players_own_playout_claims_are_greedy_unless_own_noise() -> None:
    game = hard_position("kingdomino-4-bonuses", 3)
    quiet = make_agent("hard", 4, iterations=60)  # the default
    noisy = make_agent("hard", 4, iterations=60, own_noise=True)
    for agent in (quiet, noisy):
        assert agent.choose(game) in game.legal_actions()
        assert agent.choose(game) == agent.choose(game)  # deterministic either way
    with sims_seen() as seen:
        quiet.choose(game)
        noisy.choose(game)
    assert seen[0].quiet == game.decision().kingdom and seen[1].quiet == -1


def test_claim_share_moves_effort_from_the_claim_to_the_placement_before_it() -> None:
    # A turn that places, then claims among several dominoes, searches twice; with claim_share=0.5 the placement
    # gets one and a half budgets (more playouts) and the claim half of one (fewer), counted in work units.
    game = hard_position("kingdomino-4-bonuses", 3)
    while game.decision().kind != "place" or sum(king is None for _, king in game.next_line) < 2:
        game.apply(game.legal_actions()[0])
    claim = game.clone()
    claim.apply(make_agent("easy", 1).choose(claim))
    assert claim.decision().kind == "claim" and len(claim.legal_actions()) > 1
    for position, more in ((game, True), (claim, False)):
        plain = make_agent("hard", 2, time_budget=0.2)
        shared = make_agent("hard", 2, time_budget=0.2, claim_share=0.5)
        assert plain.choose(position) in position.legal_actions()
        assert shared.choose(position) in position.legal_actions()
        assert (shared.last_playouts > plain.last_playouts) is more, (position.decision(), more)
    with pytest.raises(ValueError, match="claim_share"):
        make_agent("hard", claim_share=2)


def test_two_player_kingdomino_decisions_get_the_modes_share_of_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # A 2-player Kingdomino turn costs less CPU per work unit than a 4-player one: its decisions get MODE_SHARE (1.15)
    # budgets, so more playouts than without it; a 4-player decision gets the same work either way.
    assert search.MODE_SHARE[("kingdomino", 2)] > 1
    for mode, more in (("kingdomino-2", True), ("kingdomino-4-bonuses", False)):
        game = hard_position(mode, 3)
        shared = make_agent("hard", 4, time_budget=0.1)
        expected = shared.choose(game)
        with monkeypatch.context() as m:
            m.setattr(search, "MODE_SHARE", {})
            plain = make_agent("hard", 4, time_budget=0.1)
            assert plain.choose(game) in game.legal_actions()
        assert (shared.last_playouts > plain.last_playouts) is more, mode
        if not more:
            assert plain.last_playouts == shared.last_playouts and plain.choose(game) == expected


def test_playout_shape_reaches_the_playouts_and_is_checked() -> None:
    game = hard_position("kingdomino-4-bonuses", 3)
    plain = make_agent("hard", 4, iterations=60)  # the default: no shape bonus in the playouts
    shaped = make_agent("hard", 4, iterations=60, playout_shape=1.0)
    with sims_seen() as seen:
        for agent in (plain, shaped):
            assert agent.choose(game) in game.legal_actions()
            assert agent.choose(game) == agent.choose(game)  # deterministic
    assert [s.shape for s in seen] == [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]
    for bad in (-0.5, 2.5):
        with pytest.raises(ValueError, match="playout_shape"):
            make_agent("hard", 4, playout_shape=bad)


def test_place_noise_reaches_the_playouts_and_is_checked() -> None:
    game = hard_position("kingdomino-4-bonuses", 3)
    noisy = make_agent("hard", 4, iterations=60, place_noise=2.0)
    with sims_seen() as seen:
        assert noisy.choose(game) in game.legal_actions()
        assert noisy.choose(game) == noisy.choose(game)  # deterministic
    assert [s.place_noise for s in seen] == [2.0, 2.0, 2.0]
    for bad in (-1.0, 11.0):
        with pytest.raises(ValueError, match="place_noise"):
            make_agent("hard", 4, place_noise=bad)
