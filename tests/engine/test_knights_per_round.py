"""At most two knights per kingdom per round, whatever the number of its turns (two kings in Queendomino with 2
players, two players in a Royal Wedding team): RO "maxim 2 cavaleri în timpul unei runde", CS "V jednom kole hry
můžete takto poslat až dva rytíře"."""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PLACE, TAX, Game, IllegalAction, Skip, Tax, WrongPhase
from engine.game import KNIGHTS_PER_ROUND

from .harness import config

# Modes where one kingdom has several turns in a round.
MULTI_TURN_MODES = ["queendomino-2", "teams-6", "teams-8"]


def rich_game(mode: str, seed: int, knights: int = 9) -> Game:
    """A new game whose kingdoms start with `knights` in reserve, so the round allowance is what limits them."""
    game = Game.new(config(mode), seed)
    for k in game.kingdoms:
        k.knights_reserve = knights
    return game


def play_checking_the_allowance(game: Game, rng: random.Random, eager: float = 0.9) -> Counter:
    """Play to the end, sending knights whenever allowed (with probability `eager`), and check at every step that
    the engine offers, accepts and refuses taxes by the round's allowance, counted here independently."""
    sent: Counter = Counter()  # (deal, round, kingdom) -> knights sent
    turns_sent: Counter = Counter()  # (deal, round, kingdom) -> turns that sent knights
    while not game.is_over:
        d = game.decision()
        k = game.kingdoms[d.kingdom]
        key = (game.deal, game.round, d.kingdom)
        assert k.knights_sent_this_round == sent[key]
        allowed = min(k.knights_reserve, KNIGHTS_PER_ROUND - sent[key])
        if d.kind == PLACE:
            action = rng.choice(game.legal_actions())
            game.apply(action)
            after = game.decision()
            if after is not None and (game.deal, game.round) == key[:2] and game.placed_this_turn is not None:
                # Right after a placement the tax step comes exactly when knights may still be sent.
                assert (after.kind == TAX) == (allowed > 0), (after.kind, allowed)
            continue
        if d.kind != TAX:
            game.apply(rng.choice(game.legal_actions()))
            continue
        assert allowed > 0, "a tax decision with no knight allowed"
        taxes = [a for a in game.legal_actions() if isinstance(a, Tax)]
        assert max(len(a.cells) for a in taxes) == allowed
        a, b = game.placed_this_turn
        if allowed == 1:
            state = game.to_dict()
            with pytest.raises(IllegalAction) as refused:
                game.apply(Tax((a, b)))
            assert game.to_dict() == state
            if sent[key] == 1:
                assert str(refused.value) == (
                    "Your kingdom has already sent 1 knight this round and may send at most 2 per round: "
                    "send 1 more at most."
                )
        if rng.random() < eager:
            action = rng.choice(taxes)
            game.apply(action)
            sent[key] += len(action.cells)
            turns_sent[key] += 1
        else:
            game.apply(Skip())
    assert all(n <= KNIGHTS_PER_ROUND for n in sent.values())
    return turns_sent


@pytest.mark.parametrize("mode", MULTI_TURN_MODES)
def test_a_kingdom_sends_at_most_two_knights_per_round_over_all_its_turns(mode):
    turns_sent = play_checking_the_allowance(rich_game(mode, 5), random.Random(5))
    # The rule was really put to work: some kingdom sent knights on two turns of one round.
    assert max(turns_sent.values()) == 2


@settings(max_examples=12)
@given(
    st.sampled_from([*MULTI_TURN_MODES, "queendomino-4", "royal-wedding-5"]), st.integers(0, 10**6), st.floats(0.3, 1)
)
def test_the_round_allowance_holds_in_random_games(mode, seed, eager):
    play_checking_the_allowance(
        rich_game(mode, seed, knights=random.Random(seed).randint(1, 9)), random.Random(seed), eager
    )


def to_second_turn_of_round(mode: str, seed: int) -> tuple[Game, int]:
    """A game at the placement of a kingdom's second turn of round 1, after its first turn sent one knight."""
    game = rich_game(mode, seed)
    first_turn: dict[int, int] = {}
    while True:
        d = game.decision()
        if d.kind == PLACE and game.round == 1:
            if d.kingdom in first_turn and first_turn[d.kingdom] != d.king:
                return game, d.kingdom
            first_turn.setdefault(d.kingdom, d.king)
        if d.kind == TAX and first_turn.get(d.kingdom) == d.king:
            game.apply(next(a for a in game.legal_actions() if isinstance(a, Tax) and len(a.cells) == 1))
        else:
            game.apply(game.legal_actions()[0] if d.kind != TAX else Skip())


@pytest.mark.parametrize("mode", MULTI_TURN_MODES)
def test_after_one_knight_the_second_turn_may_send_one_more(mode):
    game, ki = to_second_turn_of_round(mode, 3)
    k = game.kingdoms[ki]
    assert k.knights_sent_this_round == 1 and k.knights_reserve == 8
    game.apply(game.legal_actions()[0])
    assert game.decision().kind == TAX and game.knights_allowed(ki) == 1
    assert {len(a.cells) for a in game.legal_actions() if isinstance(a, Tax)} == {1}
    with pytest.raises(IllegalAction, match=r"already sent 1 knight this round .* send 1 more at most"):
        game.apply(Tax(game.placed_this_turn))
    game.apply(Tax(game.placed_this_turn[:1]))
    assert k.knights_sent_this_round == 2 and k.knights_reserve == 7


@pytest.mark.parametrize("mode", MULTI_TURN_MODES)
def test_two_knights_on_the_first_turn_leave_no_tax_for_the_second(mode):
    game = rich_game(mode, 4)
    first_turn: dict[int, int] = {}
    while True:
        d = game.decision()
        if d.kind == TAX and game.round == 1 and d.kingdom not in first_turn:
            first_turn[d.kingdom] = d.king
            game.apply(next(a for a in game.legal_actions() if isinstance(a, Tax) and len(a.cells) == 2))
            continue
        if d.kind == PLACE and game.round == 1 and first_turn.get(d.kingdom, d.king) != d.king:
            break
        game.apply(game.legal_actions()[0] if d.kind != TAX else Skip())
    ki = d.kingdom
    assert game.kingdoms[ki].knights_sent_this_round == 2 and game.knights_allowed(ki) == 0
    game.apply(game.legal_actions()[0])
    assert game.decision().kind != TAX, "a tax offered with the round's allowance used up"
    with pytest.raises(WrongPhase):
        game.apply(Tax(game.placed_this_turn[:1]))


def test_the_allowance_comes_back_next_round():
    game, ki = to_second_turn_of_round("queendomino-2", 3)
    game.apply(game.legal_actions()[0])
    game.apply(Tax(game.placed_this_turn[:1]))
    while game.round == 1:
        d = game.decision()
        game.apply(game.legal_actions()[0] if d.kind != TAX else Skip())
    assert [k.knights_sent_this_round for k in game.kingdoms] == [0, 0]
    while game.decision().kingdom != ki or game.decision().kind != PLACE:
        d = game.decision()
        game.apply(game.legal_actions()[0] if d.kind != TAX else Skip())
    game.apply(game.legal_actions()[0])
    assert game.decision().kind == TAX
    assert {len(a.cells) for a in game.legal_actions() if isinstance(a, Tax)} == {1, 2}


def test_the_count_is_saved_and_an_older_state_without_it_reads_as_none_sent():
    game, ki = to_second_turn_of_round("queendomino-2", 3)
    data = json.loads(json.dumps(game.to_dict()))
    assert data["kingdoms"][ki]["knights_sent_this_round"] == 1
    restored = Game.from_dict(data)
    assert restored.kingdoms[ki].knights_sent_this_round == 1
    assert restored.to_dict() == game.to_dict()
    assert game.clone().kingdoms[ki].knights_sent_this_round == 1
    for k in data["kingdoms"]:
        del k["knights_sent_this_round"]
    old = Game.from_dict(data)
    assert [k.knights_sent_this_round for k in old.kingdoms] == [0, 0]
    old.apply(old.legal_actions()[0])
    assert {len(a.cells) for a in old.legal_actions() if isinstance(a, Tax)} == {1, 2}
