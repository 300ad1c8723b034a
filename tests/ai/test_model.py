"""The computer players' private model of the game must agree with the engine.

Whole games are played in the engine and in the model side by side (the model is given the real future here, which
only a test may read), with a mix of the model's greedy policy and random choices; at every decision the two must
agree on whose turn and which step it is, on the legal placements and what each gains, on every kingdom's score,
and a model read afresh from the engine must equal the one kept up to date move by move.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import BribeDragon, Build, Claim, Game, GameConfig, Skip, Tax
from engine.ai.model import (
    P_BUILD,
    P_CLAIM,
    P_DRAGON,
    P_FIRST,
    P_OVER,
    P_PLACE,
    P_TAX,
    Sim,
    domino_table,
    first_claim_rest,
    place_action,
    place_cells,
    unseen_buildings,
)

from .modes import MODES, players

PHASE_NAMES = {P_FIRST: "first_claim", P_PLACE: "place", P_TAX: "tax", P_BUILD: "build", P_DRAGON: "dragon"}
PHASE_NAMES[P_CLAIM] = "claim"


def sim_with_true_future(game: Game) -> Sim:
    """The model of `game` with the real hidden future copied in (test only: the players never read it)."""
    sim = Sim.from_game(game)
    sim.future = [line[:] for line in game.lines_to_come]
    sim.stack = game.stack[:]
    if sim.phase == P_FIRST:
        sim.first_order = game.first_claim_order[game.turn :]
        sim.turn = 0
    return sim


def step_both(sim: Sim, rng: random.Random):
    """Choose an action in the model (greedy or random), apply it there, and return the engine's equivalent (None
    for a forced discard, which the engine does by itself)."""
    king = sim.acting_king()
    ki = sim.king_k[king]
    k = sim.ks[ki]
    if sim.phase == P_PLACE:
        t0, c0, t1, c1, _ = domino_table()[sim.cur_dom[sim.turn]]
        cands = k.placements(t0, c0, t1, c1)
        if not cands:
            sim.discard()
            return None
        if rng.random() < 0.5:
            _, a, b, _ = rng.choice(cands)
        else:
            a, b = sim.policy_place()  # type: ignore[misc]
        action = place_action(k, a, b)
        sim.place(a, t0, c0, b, t1, c1)
        return action
    if sim.phase in (P_CLAIM, P_FIRST):
        doms, kings = (sim.cur_dom, sim.cur_king) if sim.phase == P_FIRST else (sim.nxt_dom, sim.nxt_king)
        if rng.random() < 0.5:
            dom, _ = sim.policy_claim()
        else:
            dom = rng.choice([d for d, owner in zip(doms, kings, strict=True) if owner < 0])
        sim.claim(dom)
        return Claim(dom)
    if sim.phase == P_TAX:
        cells = sim.policy_tax() or ((sim.placed[0],) if rng.random() < 0.5 else ())  # type: ignore[index]
        if cells:
            action = Tax(tuple(k.rowcol(p) for p in cells))
            sim.tax(cells)
            return action
        sim.skip()
        return Skip()
    if sim.phase == P_BUILD:
        choice = sim.policy_build()
        if choice is None and rng.random() < 0.5:
            options = [
                (slot, cell)
                for slot, b in enumerate(sim.board)
                if b is not None and sim.cost_of(slot, ki) <= k.coins
                for cell in k.free_towns
            ]
            choice = rng.choice(options)
        if choice is not None:
            action = Build(choice[0], *k.rowcol(choice[1]))
            sim.build(*choice)
            return action
        sim.skip()
        return Skip()
    assert sim.phase == P_DRAGON
    if rng.random() < 0.3:
        slot = rng.choice([i for i, b in enumerate(sim.board) if b is not None])
        sim.bribe_dragon(slot)
        return BribeDragon(slot)
    sim.skip()
    return Skip()


def check_agreement(game: Game, sim: Sim) -> None:
    d = game.decision()
    assert d is not None
    assert PHASE_NAMES[sim.phase] == d.kind
    assert sim.acting_king() == d.king
    engine_totals = [s.total for s in game.scores()]
    assert sim.totals() == engine_totals
    fresh = Sim.from_game(game)
    assert fresh.totals() == engine_totals
    for kept, read in zip(sim.ks, fresh.ks, strict=True):
        assert kept.terr == read.terr
        assert kept.frontier == read.frontier
        assert sorted(kept.free_towns) == sorted(read.free_towns)
        assert (kept.coins, kept.kres, kept.kplaced, kept.towers) == (read.coins, read.kres, read.kplaced, read.towers)
        assert kept.largest() == read.largest()
        assert kept.n_terr == read.n_terr
        assert kept.key == read.key  # the key of the squares and buildings' crowns (the search's cache)
    assert (sim.board, sim.dragon, sim.queen) == (game.board, game.dragon_slot, game.queen)
    if d.kind == "place":
        k = sim.ks[d.kingdom]
        t0, c0, t1, c1, _ = domino_table()[d.domino]  # type: ignore[index]
        model = {(a, b): g for g, a, b, _ in k.placements(t0, c0, t1, c1)}
        engine = {place_cells(k, a) for a in game.legal_actions()}  # type: ignore[arg-type]
        if t0 == t1 and c0 == c1:  # the model lists one of two identical mirror orientations
            assert {frozenset(p) for p in model} == {frozenset(p) for p in engine}
        else:
            assert set(model) == engine
        before = sum(t.points for t in game.scores()[d.kingdom].territories)
        for (a, b), gain in list(model.items())[:6]:
            after_game = game.clone()
            after_game.apply(place_action(k, a, b))
            if after_game.deal == game.deal:
                after = sum(t.points for t in after_game.scores()[d.kingdom].territories)
                assert after - before == gain


def play_lockstep(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    sim = sim_with_true_future(game)
    while not game.is_over:
        check_agreement(game, sim)
        action = None
        while action is None:
            action = step_both(sim, rng)
        game.apply(action)
        # The engine discards an unplaceable domino by itself; the model waits for its policy to do it.
        while sim.phase == P_PLACE:
            t0, c0, t1, c1, _ = domino_table()[sim.cur_dom[sim.turn]]
            if sim.ks[sim.king_k[sim.acting_king()]].placements(t0, c0, t1, c1):
                break
            sim.discard()
        if sim.phase == P_OVER:
            assert sim.totals() == game.deal_totals[-1]
            if not game.is_over:  # Dynasty: the next deal
                sim = sim_with_true_future(game)
    assert sim.phase == P_OVER


@pytest.mark.parametrize("mode", sorted(MODES))
@settings(max_examples=2, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_model_follows_the_engine_through_whole_games(mode: str, seed: int) -> None:
    play_lockstep(Game.new(MODES[mode], seed), seed)


def test_determinize_samples_only_the_unseen() -> None:
    game = Game.new(MODES["royal-wedding-4"], 3)
    rng = random.Random(0)
    while game.round < 3:
        game.apply(rng.choice(game.legal_actions()))
    base = Sim.from_game(game)
    world = base.determinize(game, random.Random(1))
    drawn = [d for line in world.future for d in line]
    unseen = set(game.unseen_dominoes())
    assert set(drawn) <= unseen
    assert len(drawn) == len(set(drawn)) == sum(len(line) for line in game.lines_to_come)
    # Lines alternate between the boxes exactly as the real ones do, each sorted by number.
    assert [line[0][0] for line in world.future] == [line[0][0] for line in game.lines_to_come]
    for line in world.future:
        assert line == sorted(line, key=lambda d: domino_table()[d][4])
    assert sorted(world.stack) == sorted(game.stack) == unseen_buildings(game)


@pytest.mark.parametrize("mode", ["queendomino-2", "kingdomino-2", "royal-wedding-5"])
def test_first_claim_order_is_drawn_from_the_kings_still_to_choose(mode: str) -> None:
    for seed in range(6):
        game = Game.new(MODES[mode], seed)
        while game.decision().kind == "first_claim":  # type: ignore[union-attr]
            rest = first_claim_rest(game, random.Random(seed))
            real = game.first_claim_order[game.turn + 1 :]
            if mode == "queendomino-2":
                assert rest == real  # A, B, B, A: fixed by the rules once the first king is known
            else:
                assert sorted(rest) == sorted(real)
            game.apply(game.legal_actions()[-1])


def claim_position() -> tuple[Game, Sim]:
    """A Kingdomino game at a claim from a full line of four, with a sampled future."""
    game = Game.new(GameConfig("kingdomino", players(4)), 2)
    rng = random.Random(2)
    while not (game.decision().kind == "claim" and len(game.legal_actions()) == 4):  # type: ignore[union-attr]
        game.apply(rng.choice(game.legal_actions()))
    return game, Sim.from_game(game).determinize(game, random.Random(3))


def test_playout_claims_can_weigh_the_turn_order() -> None:
    _, world = claim_position()
    assert world.phase == P_CLAIM and world.future
    greedy = world.policy_claim()[0]
    world.order_weight = 1000.0  # choosing first next round outweighs any placement
    assert world.policy_claim()[0] == world.nxt_dom[0]
    world.order_weight = 0.0
    assert world.policy_claim()[0] == greedy
    # In the last round the next line's order no longer matters.
    world.future = []
    world.order_weight = 1000.0
    assert world.policy_claim()[0] == greedy


def test_playout_claims_with_noise_vary_with_the_generator_only() -> None:
    _, world = claim_position()
    greedy = world.policy_claim()[0]
    world.noise = 1000.0  # noise that swamps the values: the claim follows the generator
    chosen = set()
    for seed in range(12):
        world.rng = random.Random(seed)
        first = world.policy_claim()[0]
        world.rng = random.Random(seed)
        assert world.policy_claim()[0] == first  # the same generator state, the same claim
        chosen.add(first)
    assert len(chosen) > 1
    copy = world.copy()
    assert copy.noise == world.noise and copy.rng is world.rng
    world.noise = 0.0
    assert world.policy_claim()[0] == greedy


def test_the_quiet_kingdom_claims_without_noise() -> None:
    _, world = claim_position()
    greedy = world.policy_claim()[0]
    world.noise = 1000.0
    me = world.king_k[world.acting_king()]
    world.quiet = me  # the searching player's own claims stay greedy whatever the generator
    copy = world.copy()
    assert copy.quiet == me
    for seed in range(12):
        world.rng = random.Random(seed)
        assert world.policy_claim()[0] == greedy
    world.quiet = (me + 1) % len(world.ks)  # another kingdom is quiet: this one's claims are noisy again
    chosen = set()
    for seed in range(12):
        world.rng = random.Random(seed)
        chosen.add(world.policy_claim()[0])
    assert len(chosen) > 1


def _at_round(mode: str, seed: int, round_: int = 2) -> Game:
    """A game of `mode` played at random (seeded) into round `round_`."""
    game = Game.new(MODES[mode], seed)
    rng = random.Random(seed)
    while game.round < round_:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("mode", ["kingdomino-4-bonuses", "queendomino-3", "royal-wedding-6-teams"])
def test_remembered_placements_change_no_playout(mode: str) -> None:
    # A search's cache of greedy placements (keyed by each kingdom's squares and buildings' crowns) must give
    # exactly the placements the kingdoms would compute: whole playouts end the same with and without it.
    game = _at_round(mode, 4)
    base = Sim.from_game(game)
    cached = Sim.from_game(game)
    cached.cache = {}
    for seed in range(8):
        plain, remembered = base.determinize(game, random.Random(seed)), cached.determinize(game, random.Random(seed))
        plain.playout()
        remembered.playout()
        assert remembered.totals() == plain.totals()
        assert [k.key for k in remembered.ks] == [k.key for k in plain.ks]
    assert len(cached.cache) > 0
    hits = sum(k.work for k in remembered.ks)
    assert hits < sum(k.work for k in plain.ks)  # a remembered placement costs less work than computing it


@pytest.mark.parametrize("mode", ["queendomino-3", "royal-wedding-4"])
def test_determinize_reads_the_unseen_once_for_the_same_futures(mode: str) -> None:
    # A search reads the unseen dominoes and buildings once and passes them to every pass: the futures drawn are
    # those drawn when determinize reads them itself, and the lists it is given are left as they were.
    game = _at_round(mode, 5)
    base = Sim.from_game(game)
    unseen, stack = game.unseen_dominoes(), unseen_buildings(game)
    kept = (list(unseen), list(stack))
    for seed in range(4):
        read = base.determinize(game, random.Random(seed))
        given_lists = base.determinize(game, random.Random(seed), unseen, stack)
        assert (given_lists.future, given_lists.stack) == (read.future, read.stack)
    assert (unseen, stack) == kept


def test_listed_pairs_give_the_same_placements_and_work() -> None:
    # A claim lists a kingdom's pairs of empty cells once for all the dominoes of the line: each domino's best
    # placement, and the work it is charged, are those it gets without the list.
    game = _at_round("kingdomino-4-bonuses", 6, 4)
    sim = Sim.from_game(game)
    table = domino_table()
    for k in sim.ks:
        pairs = k.pairs()
        assert pairs and len(pairs) == len(set(pairs))
        for dom in ("K1", "K11", "K24", "K40", "K48"):
            t0, c0, t1, c1, _ = table[dom]
            for centre in (False, True):
                before = k.work
                alone = k.best_placement(t0, c0, t1, c1, centre)
                cost = k.work - before
                assert k.best_placement(t0, c0, t1, c1, centre, pairs) == alone
                assert k.work - before == 2 * cost


def test_replayed_noise_is_the_generators_own_sequence() -> None:
    # Every candidate of a pass reads the same noise: a replay of one generator, whatever each candidate drew.
    from engine.ai.search import _Replay

    fresh = random.Random(9)
    expected = [fresh.random() for _ in range(40)]
    replay = _Replay(random.Random(9))
    for n in (5, 20, 3, 40, 12):  # candidates drawing fewer or more values than those before them
        draws = replay.again()
        assert [draws.random() for _ in range(n)] == expected[:n]
    _, world = claim_position()
    world.noise = 1000.0  # the claim follows the noise
    for seed in range(6):
        world.rng = random.Random(seed)
        claim = world.policy_claim()[0]
        replay = _Replay(random.Random(seed))
        for _ in range(2):
            world.rng = replay.again()
            assert world.policy_claim()[0] == claim


def test_shaped_placements_are_the_best_of_points_holes_and_shape_bonus() -> None:
    # With `shape`, the playouts' placement is the one with the most points (within 2 holes' penalty of the best),
    # minus the holes' penalty, plus `shape` times the shape bonus: checked against every placement, computed
    # plainly; shape 0 is the plain policy, and a shaped search is charged more work.
    from engine.ai.model import HOLE_PENALTY, centre_box

    table = domino_table()
    differ = 0
    for seed in (3, 6, 9):
        game = _at_round("kingdomino-4-bonuses", seed, 4)
        for k in Sim.from_game(game).ks:
            for dom in ("K1", "K5", "K11", "K19", "K24", "K33", "K40", "K48"):
                t0, c0, t1, c1, _ = table[dom]
                for centre in (False, True):
                    cands = k._options(t0, c0, t1, c1, centre_box(k.size) if centre else None)
                    if not cands:
                        assert k.best_placement(t0, c0, t1, c1, centre, None, 1.0) is None
                        continue
                    floor = max(cands)[0] - 2 * HOLE_PENALTY
                    plain = k.best_placement(t0, c0, t1, c1, centre)
                    assert k.best_placement(t0, c0, t1, c1, centre, None, 0.0) == plain
                    for shape in (0.5, 1.0, 2.0):
                        before = k.work
                        value, a, b = k.best_placement(t0, c0, t1, c1, centre, None, shape)
                        assert k.work - before > len(cands)  # the options, and the shape bonuses read
                        values = {
                            (x, y): g - HOLE_PENALTY * k.holes(x, y) + shape * k.shape_bonus(x, t0, y, t1)
                            for g, x, y in cands
                            if g >= floor
                        }
                        assert value == pytest.approx(max(values.values()))
                        assert values[(a, b)] == pytest.approx(value)
                        differ += (a, b) != plain[1:]
    assert differ > 0  # the bonus does change placements


def test_shaped_playouts_are_deterministic_and_play_otherwise() -> None:
    game = _at_round("kingdomino-2", 4, 2)
    base = Sim.from_game(game)
    base.cache = {}
    assert base.copy().shape == 0.0
    shaped = Sim.from_game(game)
    shaped.shape = 1.0
    shaped.cache = {}
    assert shaped.copy().shape == 1.0
    differ = 0
    for seed in range(8):
        one, two = shaped.determinize(game, random.Random(seed)), shaped.determinize(game, random.Random(seed))
        one.playout()
        two.playout()
        assert one.totals() == two.totals()
        plain = base.determinize(game, random.Random(seed))
        plain.playout()
        differ += [k.key for k in plain.ks] != [k.key for k in one.ks]
    assert differ > 0


def test_noisy_playout_placements_vary_with_the_generator_only_and_spare_the_quiet_kingdom() -> None:
    from engine.ai.model import HOLE_PENALTY, centre_box

    game = _at_round("kingdomino-4-bonuses", 5, 3)
    while game.decision().kind != "place":  # type: ignore[union-attr]
        game.apply(game.legal_actions()[0])
    world = Sim.from_game(game).determinize(game, random.Random(1))
    greedy = world.policy_place()
    assert greedy is not None
    world.place_noise = 1000.0  # noise that swamps the values: the placement follows the generator
    assert world.copy().place_noise == 1000.0
    world.rng = None
    assert world.policy_place() == greedy  # no generator, no noise
    chosen = set()
    for seed in range(12):
        world.rng = random.Random(seed)
        first = world.policy_place()
        world.rng = random.Random(seed)
        assert world.policy_place() == first  # the same generator state, the same placement
        chosen.add(first)
    assert len(chosen) > 1
    k = world.ks[world.king_k[world.acting_king()]]
    t0, c0, t1, c1, _ = domino_table()[world.cur_dom[world.turn]]
    legal = {(a, b) for _, a, b, _ in k.placements(t0, c0, t1, c1)}
    assert chosen <= legal
    world.quiet = world.king_k[world.acting_king()]  # the searching player's own placements stay greedy
    for seed in range(6):
        world.rng = random.Random(seed)
        assert world.policy_place() == greedy
    world.place_noise = 0.5  # below a point (values are whole): only placements of equal value trade places
    box = centre_box(k.size) if world.middle_kingdom and k.inside else None
    values = {(a, b): g - HOLE_PENALTY * k.holes(a, b) for g, a, b in k._options(t0, c0, t1, c1, box)}
    assert values[greedy] == max(values.values())
    world.quiet = -1
    for seed in range(12):
        world.rng = random.Random(seed)
        assert values[world.policy_place()] == values[greedy]
