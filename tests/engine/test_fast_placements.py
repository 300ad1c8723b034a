"""The fast legal placements (bit masks kept up to date as dominoes are placed) against the plain rule: every
placement of the frame asked one by one of `placement_refusal`, on many random kingdoms."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Kingdom
from engine.components import kingdomino_dominoes, queendomino_dominoes

DOMINOES = [*kingdomino_dominoes(), *queendomino_dominoes()]


def grow(k: Kingdom, rng: random.Random, count: int) -> None:
    """Place up to `count` random dominoes, each at a placement the plain rule allows."""
    for _ in range(count):
        d = rng.choice(DOMINOES)
        options = k.legal_placements_plain(d)
        if options:
            k.place(d, rng.choice(options))


def same_as_plain(k: Kingdom, rng: random.Random, tries: int = 12) -> None:
    for d in rng.sample(DOMINOES, tries):
        plain = k.legal_placements_plain(d)
        assert k.legal_placements(d) == plain, (d, k.text_rows())
        assert k.can_place(d) == bool(plain)


@settings(max_examples=150)
@given(st.sampled_from([5, 7]), st.integers(0, 10**9), st.integers(0, 30))
def test_fast_placements_equal_the_plain_rule(size, seed, count):
    rng = random.Random(seed)
    k = Kingdom(size)
    grow(k, rng, count)
    same_as_plain(k, rng)


@settings(max_examples=40)
@given(st.sampled_from([5, 7]), st.integers(0, 10**9), st.integers(0, 20), st.integers(0, 10))
def test_the_masks_follow_copies_saved_states_and_text_forms(size, seed, before, after):
    rng = random.Random(seed)
    k = Kingdom(size)
    grow(k, rng, before)
    k.legal_placements(DOMINOES[0])  # the masks now exist and must follow every later change
    copy = k.clone()
    restored = Kingdom.from_dict(k.to_dict())
    from_text = Kingdom.from_text(k.text_rows(), size)
    grow(copy, rng, after)
    same_as_plain(k, rng)  # the original did not see the copy's dominoes
    for other in (copy, restored, from_text):
        grow(other, rng, after)
        same_as_plain(other, rng)


def test_a_full_kingdom_and_an_empty_one():
    rng = random.Random(1)
    k = Kingdom(5)
    assert all(len(k.legal_placements(d)) == 24 for d in DOMINOES)  # 12 pairs of cells by the castle, two ways
    grow(k, rng, 200)
    same_as_plain(k, rng, tries=len(DOMINOES))
