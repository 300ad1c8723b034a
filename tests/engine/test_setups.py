"""Set-ups checked by playing whole games: dominoes used, lines, rounds, kingdoms, kings, first-line order."""

import random
from collections import Counter

import pytest

from engine import CLAIM, FIRST_CLAIM, PLACE, Game, GameConfig, domino

from .harness import MODES, SETUPS, config, players


def _observe(cfg: GameConfig, seed: int) -> dict:
    """Play a random game and record what the table saw."""
    game = Game.new(cfg, seed)
    rng = random.Random(seed)
    seen = {
        "first_line": [d for d, _ in game.current_line],
        "lines": [],
        "first_claimers": [],
        "decisions": Counter(),
        "kingdom_sizes": {k.size for k in game.kingdoms},
        "coins": [k.coins for k in game.kingdoms],
        "knights": [k.knights_reserve for k in game.kingdoms],
        "board": list(game.board),
        "set_aside": len(game.removed),
        "claims_by_round": Counter(),
    }
    last_round = None
    while not game.is_over:
        if game.round != last_round:
            last_round = game.round
            if game.next_line:
                seen["lines"].append([d for d, _ in game.next_line])
        d = game.decision()
        seen["decisions"][d.kind] += 1
        if d.kind == FIRST_CLAIM:
            seen["first_claimers"].append(d.player)
        if d.kind == CLAIM:
            seen["claims_by_round"][game.round] += 1
        game.apply(rng.choice(game.legal_actions()), by=d.player)
    seen["game"] = game
    return seen


@pytest.mark.parametrize("mode", MODES)
def test_whole_game_follows_the_setup_table(mode):
    cfg = config(mode)
    boxes, used, line, kings_each, size, rounds, qd, _ = SETUPS[mode]
    seen = _observe(cfg, seed=11)
    game = seen["game"]
    lines = [seen["first_line"], *seen["lines"]]
    assert len(lines) == rounds, "one line per round"
    assert all(len(x) == line for x in lines)
    for x in lines:
        assert [domino(d).number for d in x] == sorted(domino(d).number for d in x), "lines are sorted"
        assert len({d[0] for d in x}) == 1, "a line comes from one box"
    # Royal Wedding: Queendomino's box first, then alternating.
    assert [x[0][0] for x in lines] == [boxes[i % len(boxes)] for i in range(rounds)]
    revealed = [d for x in lines for d in x]
    assert len(revealed) == len(set(revealed)) == used
    assert seen["set_aside"] == 48 * len(boxes) - used
    assert seen["kingdom_sizes"] == {size}
    assert Counter(k.player for k in game.kings) == dict.fromkeys(cfg.players, kings_each)
    assert seen["decisions"][FIRST_CLAIM] == len(game.kings)
    # Every king claims once a round except in the last one, which has no next line.
    assert set(seen["claims_by_round"]) == set(range(1, rounds))
    assert all(n == len(game.kings) for n in seen["claims_by_round"].values())
    assert game.round == rounds
    for k in game.kingdoms:
        kings = sum(1 for king in game.kings if king.kingdom == game.kingdoms.index(k))
        assert len(k.placed) + len(k.discarded) == kings * rounds
    if qd:
        assert seen["coins"] == [7] * len(game.kingdoms) and seen["knights"] == [1] * len(game.kingdoms)
        assert all(b is not None for b in seen["board"]) and len(seen["board"]) == 6
    else:
        assert seen["board"] == [] and seen["coins"] == [0] * len(game.kingdoms)


@pytest.mark.parametrize(
    ("mode", "unclaimed_per_line"),
    [
        ("kingdomino-3", 0),
        ("kingdomino-3-bga", 1),
        ("kingdomino-4", 0),
        ("queendomino-3", 1),
        ("queendomino-4", 0),
        ("royal-wedding-3", 1),
        ("royal-wedding-4", 0),
        ("royal-wedding-5", 3),
        ("royal-wedding-6", 2),
        ("royal-wedding-7", 1),
        ("teams-6", 2),
        ("teams-8", 0),
    ],
)
def test_unclaimed_dominoes_are_discarded_each_round_first_line_included(mode, unclaimed_per_line):
    cfg = config(mode)
    game = Game.new(cfg, 5)
    rng = random.Random(5)
    unclaimed = []
    while not game.is_over:
        for e in game.apply(rng.choice(game.legal_actions())):
            if e.kind == "unclaimed":
                assert e.text.startswith("Nobody claimed")
                unclaimed.append(e.data["dominoes"])
    rounds = cfg.setup.rounds
    # Every line but the last is claimed before the next is drawn (the last line's kings all play).
    expected = [unclaimed_per_line] * rounds if unclaimed_per_line else []
    assert [len(x) for x in unclaimed] == expected
    flat = [d for x in unclaimed for d in x]
    assert all(d in game.removed for d in flat)
    assert len(game.removed) == 48 * len(cfg.setup.boxes) - cfg.setup.dominoes_used + len(flat)


def _first_claimers(cfg, seed):
    game = Game.new(cfg, seed)
    order = []
    while game.decision().kind == FIRST_CLAIM:
        order.append(game.decision().player)
        game.apply(game.legal_actions()[-1])
    return order


def test_queendomino_two_players_first_line_goes_a_b_b_a():
    cfg = GameConfig("queendomino", ("ann", "bob"))
    firsts = set()
    for seed in range(20):
        a, b, c, d = _first_claimers(cfg, seed)
        assert a == d and b == c and a != b
        firsts.add(a)
    assert firsts == {"ann", "bob"}, "the first player is drawn at random"


@pytest.mark.parametrize("mode", ["kingdomino-2", "mighty-duel"])
def test_kingdomino_two_players_place_both_kings_in_a_random_order(mode):
    orders = set()
    for seed in range(40):
        order = _first_claimers(config(mode), seed)
        assert Counter(order) == {"p1": 2, "p2": 2}
        orders.add(tuple(order))
    assert len(orders) == 6, "every order of the four kings happens"


@pytest.mark.parametrize("mode", ["kingdomino-4", "queendomino-3", "royal-wedding-5", "teams-6"])
def test_one_king_each_claims_the_first_line_in_a_shuffled_order(mode):
    cfg = config(mode)
    orders = {tuple(_first_claimers(cfg, seed)) for seed in range(20)}
    assert all(sorted(o) == sorted(cfg.players) for o in orders)
    assert len(orders) > 5


def test_turn_order_follows_the_line_and_a_two_king_player_may_play_twice_in_a_row():
    twice = False
    for seed in range(10):
        game = Game.new(config("kingdomino-2"), seed)
        rng = random.Random(seed)
        last, by_round = None, {}
        while not game.is_over:
            d = game.decision()
            if d.kind == PLACE:
                by_round.setdefault(game.round, []).append(domino(d.domino).number)
                twice |= last == d.player
                last = d.player
            for e in game.apply(rng.choice(game.legal_actions())):
                if e.kind == "discarded":
                    by_round.setdefault(game.round, []).append(domino(e.data["domino"]).number)
        assert all(numbers == sorted(numbers) and len(numbers) == 4 for numbers in by_round.values())
    assert twice


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    cfg = config("queendomino-4")
    a, b, c = Game.new(cfg, 7), Game.new(cfg, 7), Game.new(cfg, 8)
    assert a.to_dict() == b.to_dict()
    assert a.lines_to_come != c.lines_to_come


def test_dynasty_plays_three_deals_and_sums_them():
    cfg = GameConfig("kingdomino", players(3), {"dynasty"})
    game = Game.new(cfg, 3)
    rng = random.Random(3)
    first_lines = [tuple(d for d, _ in game.current_line)]
    deals_seen = {0}
    while not game.is_over:
        events = game.apply(rng.choice(game.legal_actions()))
        if any(e.kind == "deal_end" for e in events):
            assert game.deal in (1, 2) and all(not k.placed for k in game.kingdoms), "each deal starts afresh"
            assert game.phase == FIRST_CLAIM and game.round == 0
            deals_seen.add(game.deal)
            first_lines.append(tuple(d for d, _ in game.current_line))
    assert deals_seen == {0, 1, 2}
    assert len(set(first_lines)) == 3, "each deal is shuffled anew"
    assert len(game.deal_totals) == 3
    sums = [sum(t[i] for t in game.deal_totals) for i in range(3)]
    result = game.result()
    assert list(result.totals) == sums == game.match_totals()
    assert sums[result.order[0]] == max(sums)
    assert all(sums[i] == max(sums) for i in result.winner_kingdoms)
