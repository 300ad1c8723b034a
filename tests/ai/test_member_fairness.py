"""The computer players' pool is fair between the members of one server too (issue #26): one member's many `hard`
tables cannot starve another member's `easy` computer, and a decision thrown away (the game changed while it
thought) still counts against its member's share.

The order is checked with one worker and a worker function that answers at once, or waits for a gate file the test
creates: what is queued while the worker is held, and the order in which it is then served, does not depend on the
machine's speed."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from engine.ai.pool import AIPool, PoolBusy, decision_cost

STATE: dict = {}  # the worker functions below do not read the state


def echo(state: dict, level: str, seed: int, options: dict) -> dict:
    """A decision that answers at once, or once the file `options["gate"]` exists."""
    gate = options.get("gate")
    while gate is not None and not os.path.exists(gate):
        time.sleep(0.002)
    return {"level": level, "seed": seed}


async def _served(pool: AIPool, order: list[str], name: str, level: str, seed: int, **options) -> None:
    member = name.rstrip("0123456789")
    await pool.choose(STATE, level, seed, key="server", member=member, **options)
    order.append(name)


def _pool(**options) -> AIPool:
    return AIPool(workers=1, worker_function=echo, **options)


async def _running(pool: AIPool, count: int = 1) -> None:
    while pool.running < count:
        await asyncio.sleep(0.001)


async def test_many_hard_tables_of_one_member_cannot_starve_another_members_easy_computer(tmp_path: Path) -> None:
    gate = tmp_path / "open"
    order: list[str] = []
    async with _pool() as pool:
        # Ann's twelve tables each wait for a `hard` move; the first holds the worker until the gate opens.
        ann = [asyncio.create_task(_served(pool, order, "ann0", "hard", 0, gate=str(gate)))]
        await _running(pool)
        ann += [asyncio.create_task(_served(pool, order, f"ann{n}", "hard", n)) for n in range(1, 12)]
        await asyncio.sleep(0)

        async def ben_plays_three_moves() -> None:
            for n in range(3):  # one game: each computer move is asked once the one before is made
                await _served(pool, order, f"ben{n}", "easy", n)

        ben = asyncio.create_task(ben_plays_three_moves())
        await asyncio.sleep(0)
        assert pool.queued == 12
        gate.touch()
        await asyncio.gather(*ann, ben)
    # Ben's easy moves wait each for one of Ann's moves already running, never behind her queue.
    assert order[:6] == ["ann0", "ben0", "ann1", "ben1", "ann2", "ben2"]
    assert sorted(order) == sorted([f"ann{n}" for n in range(12)] + ["ben0", "ben1", "ben2"])


async def test_a_thrown_away_decision_counts_against_its_members_share(tmp_path: Path) -> None:
    gate = tmp_path / "open"
    order: list[str] = []
    async with _pool() as pool:
        # Ann moves then undoes while her `hard` computer thinks: its answer is thrown away (her caller gives up).
        thrown = asyncio.create_task(_served(pool, order, "ann0", "hard", 0, gate=str(gate)))
        await _running(pool)
        thrown.cancel()
        await asyncio.gather(thrown, return_exceptions=True)
        assert pool.running == 1  # the worker still thinks for her
        # She asks again, before Ben asks for his `medium` move and Cal for his `easy` one.
        tasks = [asyncio.create_task(_served(pool, order, "ann1", "hard", 1))]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(_served(pool, order, "ben0", "medium", 0)))
        tasks.append(asyncio.create_task(_served(pool, order, "cal0", "easy", 0)))
        await asyncio.sleep(0)
        gate.touch()
        await asyncio.gather(*tasks)
        assert pool.stats.cancelled == 1
    # The thrown-away second counted: both other members go before her, although she asked first.
    assert order == ["ben0", "cal0", "ann1"]


async def test_members_share_a_full_server_queue_and_each_has_a_limit(tmp_path: Path) -> None:
    gate = tmp_path / "open"
    async with _pool(max_queued_per_key=4, max_queued_per_member=3) as pool:
        held = asyncio.create_task(pool.choose(STATE, "easy", 0, key="s", member="ann", gate=str(gate)))
        await _running(pool)
        ann = [asyncio.create_task(pool.choose(STATE, "hard", n, key="s", member="ann")) for n in range(3)]
        await asyncio.sleep(0)
        with pytest.raises(PoolBusy, match="3 of this member"):
            await pool.choose(STATE, "hard", 9, key="s", member="ann")
        cal = asyncio.create_task(pool.choose(STATE, "hard", 0, key="s", member="cal"))
        await asyncio.sleep(0)
        assert pool.queued == 4  # the server's queue is full, but Ben still has his guaranteed places
        ben = [asyncio.create_task(pool.choose(STATE, "easy", n, key="s", member="ben")) for n in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(PoolBusy, match="6 moves of this server"):
            await pool.choose(STATE, "easy", 3, key="s", member="ben")
        gate.touch()
        await asyncio.gather(held, cal, *ann, *ben)
        assert pool.stats.busy == 2 and pool.queued == 0


def test_what_a_decision_costs() -> None:
    assert decision_cost("hard", {"time_budget": 0.25}) == 0.25
    assert decision_cost("hard", {}) == 1.0
    assert decision_cost("easy", {}) < decision_cost("medium", {}) < decision_cost("hard", {})
