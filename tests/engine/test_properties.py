"""Property tests over thousands of random games of every mode, each checked step by step by the harness
against the independent model: placements legal when made, discards only when nothing was legal, dominoes never
twice, coins and supplies never negative, the dragon once a round, the queen with the most towers, buildings slid
and refilled, turn order by the line, scores and winners recomputed independently, replays exact.

The bulk runs in two processes when the machine has two cores (the games are independent).
"""

from __future__ import annotations

import multiprocessing
import os
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .harness import MODES, Stats, config, play_checked

VARIANT_CYCLE = ((), ("harmony", "middle-kingdom"), ("harmony",), ("middle-kingdom",))
# Games per mode: the quick modes get more, so that each mode costs about the same time.
GAMES = {
    "kingdomino-2": 230,
    "kingdomino-3": 180,
    "kingdomino-3-bga": 180,
    "kingdomino-4": 150,
    "mighty-duel": 90,
    "queendomino-2": 75,
    "queendomino-3": 150,
    "queendomino-4": 110,
    "royal-wedding-3": 55,
    "royal-wedding-4": 45,
    "royal-wedding-5": 90,
    "royal-wedding-6": 75,
    "royal-wedding-7": 65,
    "teams-6": 55,
    "teams-8": 35,
}
WORKERS = max(1, min(2, os.cpu_count() or 1))


def _play_many(job: tuple[str, list[int], tuple[str, ...] | None]) -> tuple[str | None, Counter]:
    """Play the games of one chunk; return the first failure (with its seed) and what the games went through."""
    mode, seeds, variants = job
    stats = Stats()
    for seed in seeds:
        v = VARIANT_CYCLE[seed % len(VARIANT_CYCLE)] if variants is None else variants
        try:
            play_checked(config(mode, v), seed, stats=stats, probe_illegal=0.02, check_replay=seed % 8 == 0)
        except Exception:
            return f"{mode}, seed {seed}, variants {v}:\n{traceback.format_exc()}", stats.kinds
    return None, stats.kinds


@pytest.fixture(scope="module")
def pool():
    if WORKERS == 1:
        yield None
        return
    with ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("fork")) as executor:
        yield executor


def run_games(pool, mode: str, seeds: list[int], variants: tuple[str, ...] | None = None) -> Counter:
    chunks = [(mode, seeds[i::WORKERS], variants) for i in range(WORKERS)]
    results = list(pool.map(_play_many, chunks)) if pool else [_play_many(c) for c in chunks]
    kinds: Counter = Counter()
    for failure, seen in results:
        if failure:
            pytest.fail(failure, pytrace=False)
        kinds.update(seen)
    return kinds


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(MODES))
def test_random_games_keep_every_rule(pool, mode):
    kinds = run_games(pool, mode, list(range(GAMES[mode])))
    # The interesting cases did happen.
    assert kinds["event:game_over"] == GAMES[mode]
    assert kinds["event:discarded"] > 0
    assert kinds["refused:place"] > 0 and kinds["refused:claim"] > 0
    assert (kinds["event:unclaimed"] > 0) == config(mode).setup.discard_unclaimed
    if config(mode).setup.queendomino_rules:
        for kind in ("event:taxed", "event:built", "event:dragon", "event:queen"):
            assert kinds[kind] > 0, kind
        assert kinds["refused:build"] > 0 and kinds["refused:tax"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["kingdomino-4", "mighty-duel", "queendomino-2", "royal-wedding-5", "teams-8"])
def test_random_dynasties_keep_every_rule(pool, mode):
    kinds = run_games(pool, mode, list(range(1000, 1006)), ("dynasty", "harmony"))
    assert kinds["event:deal_end"] == 2 * 6 and kinds["event:game_over"] == 6


def test_ties_happen_and_are_broken_as_the_rules_say(pool):
    kinds = run_games(pool, "kingdomino-2", list(range(2000, 2150)), ())
    assert kinds["tiebreak:largest territory"] > 0


@settings(max_examples=25)
@given(mode=st.sampled_from(list(MODES)), seed=st.integers(0, 2**31 - 1))
def test_every_list_of_legal_placements_is_exactly_the_rules(mode, seed):
    play_checked(config(mode), seed, compare_legal_sets=True)
