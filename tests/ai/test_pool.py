"""The computer players' process pool: same moves as in-process, fairness between keys, a bounded queue, crashed
workers replaced without losing the move, cancellation, and a clean close (no worker left behind)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from pathlib import Path

import pytest

from engine import Game, GameConfig, action_from_dict
from engine.ai import make_agent
from engine.ai.pool import AIPool, PoolBusy, PoolClosed, WorkerCrashed, think

# `hard` with a fixed number of playouts and a budget it never reaches, so that its move is the same everywhere.
HARD = {"iterations": 60, "time_budget": 60.0}
SLOW_HARD = {"iterations": 400, "time_budget": 60.0}  # about a second of work, to be caught mid-job
LONG_HARD = {"iterations": 5000, "time_budget": 60.0}  # several seconds, unless stopped


def position(kind: str = "kingdomino", players: int = 4, moves: int = 9, seed: int = 3) -> Game:
    game = Game.new(GameConfig(kind, tuple(f"p{i}" for i in range(1, players + 1))), seed)
    for i in range(moves):
        d = game.decision()
        game.apply(make_agent("medium", seed=i).choose(game), by=d.player)
    return game


def in_process(game: Game, level: str, seed: int, **options) -> dict:
    return make_agent(level, seed=seed, **options).choose(game.clone()).to_dict()


def gone(pid: int) -> bool:
    """The process no longer exists (not even as a zombie waiting to be reaped)."""
    status = Path(f"/proc/{pid}/status")
    if not Path("/proc").exists():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    try:
        return "zombie" in status.read_text()
    except FileNotFoundError:
        return True


def crash(state: dict, level: str, seed: int, options: dict) -> dict:
    """A worker function that always kills its own process."""
    os.kill(os.getpid(), signal.SIGKILL)
    return {}


async def test_moves_are_the_same_as_in_process() -> None:
    kingdomino, queendomino = position(), position("queendomino", 3, moves=12)
    cases = [(kingdomino, "easy", 5, {}), (kingdomino, "hard", 8, HARD), (queendomino, "medium", 9, {})]
    cases += [(queendomino, "hard", 11, HARD), (queendomino, "random", 2, {})]
    async with AIPool(workers=2) as pool:
        answers = await asyncio.gather(
            *(pool.choose(g.to_dict(), lv, s, key=i % 2, **o) for i, (g, lv, s, o) in enumerate(cases))
        )
        action = await pool.choose_action(kingdomino, "hard", 8, key="x", **HARD)
        assert pool.stats.done == len(cases) + 1
    assert answers == [in_process(g, lv, s, **o) for g, lv, s, o in cases]
    assert action == action_from_dict(answers[1])
    assert think(kingdomino.to_dict(), "easy", 5, {}) == answers[0]


async def test_round_robin_between_keys() -> None:
    state = position().to_dict()
    order: list[str] = []

    async def ask(key: str, n: int) -> None:
        await pool.choose(state, "easy", n, key=key)
        order.append(f"{key}{n}")

    async with AIPool(workers=1) as pool:
        # One worker: the busy server's first move runs at once; its others queue, then the lone server's one
        # comes; the lone one waits for at most one more of the busy server's (round-robin), not for all four.
        tasks = [asyncio.create_task(ask("busy", n)) for n in range(1, 6)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(ask("lone", 1)))
        await asyncio.gather(*tasks)
    assert order[:3] == ["busy1", "busy2", "lone1"]
    assert sorted(order) == ["busy1", "busy2", "busy3", "busy4", "busy5", "lone1"]


async def test_a_full_queue_refuses_at_once_and_only_for_that_key() -> None:
    state = position().to_dict()
    async with AIPool(workers=1, max_queued_per_key=2, max_queued=3) as pool:
        running = asyncio.create_task(pool.choose(state, "hard", 1, key="a", **SLOW_HARD))
        queued = [asyncio.create_task(pool.choose(state, "easy", n, key="a")) for n in range(2)]
        await asyncio.sleep(0)
        assert (pool.running, pool.queued) == (1, 2)
        with pytest.raises(PoolBusy, match="2 moves of this server"):
            await pool.choose(state, "easy", 9, key="a")
        other = asyncio.create_task(pool.choose(state, "easy", 9, key="b"))  # another server still gets in
        await asyncio.sleep(0)
        with pytest.raises(PoolBusy, match="3 in all"):
            await pool.choose(state, "easy", 9, key="c")
        assert pool.stats.busy == 2
        await asyncio.gather(running, other, *queued)
        with pytest.raises(ValueError, match="Unknown computer player"):
            await pool.choose(state, "grandmaster", 1, key="a")


async def test_a_killed_worker_loses_no_move() -> None:
    game = position()
    expected = [in_process(game, "hard", seed, **SLOW_HARD) for seed in (4, 5)]
    async with AIPool(workers=2) as pool:
        old = pool.worker_pids()
        tasks = [
            asyncio.create_task(pool.choose(game.to_dict(), "hard", seed, key=seed, **SLOW_HARD)) for seed in (4, 5)
        ]
        await asyncio.sleep(0.3)  # both workers are in the middle of their searches
        assert pool.running == 2 and not any(t.done() for t in tasks)
        os.kill(old[0], signal.SIGKILL)  # the executor then stops the other worker too: both moves are redone
        assert await asyncio.wait_for(asyncio.gather(*tasks), 60) == expected
        assert pool.stats.crashes == 1
        assert len(pool.worker_pids()) >= 1 and not set(old) & set(pool.worker_pids())
        # The rebuilt pool keeps working.
        assert await pool.choose(game.to_dict(), "easy", 1, key="a") == in_process(game, "easy", 1)


async def test_a_worker_that_always_dies_gives_a_clear_error() -> None:
    pool = AIPool(workers=1, max_attempts=2, worker_function=crash)
    with pytest.raises(WorkerCrashed, match="died 2 times"):
        await asyncio.wait_for(pool.choose(position().to_dict(), "easy", 1, key="a"), 60)
    assert pool.stats.crashes == 2
    await pool.close()


async def test_the_agents_own_errors_reach_the_caller() -> None:
    async with AIPool(workers=1) as pool:
        with pytest.raises(TypeError):
            await pool.choose(position().to_dict(), "easy", 1, key="a", depth=3)
        assert pool.stats.crashes == 0


async def test_cancelling_drops_a_queued_move_and_discards_a_running_one() -> None:
    state = position().to_dict()
    async with AIPool(workers=1) as pool:
        running = asyncio.create_task(pool.choose(state, "hard", 1, key="a", **SLOW_HARD))
        queued = asyncio.create_task(pool.choose(state, "easy", 1, key="b"))
        await asyncio.sleep(0.1)
        assert (pool.running, pool.queued) == (1, 1)
        queued.cancel()
        await asyncio.sleep(0)
        assert pool.queued == 0
        running.cancel()
        await asyncio.sleep(0)
        assert pool.running == 1  # the worker is still busy with it: the slot stays taken until it is done
        with pytest.raises(asyncio.CancelledError):
            await running
        assert await pool.choose(state, "easy", 2, key="b") == think(state, "easy", 2, {})
        assert (pool.running, pool.queued, pool.stats.cancelled) == (0, 0, 2)


async def test_close_waits_for_the_moves_then_leaves_no_process() -> None:
    state = position().to_dict()
    pool = AIPool(workers=2)
    await pool.start()
    pids = pool.worker_pids()
    assert len(pids) == 2
    tasks = [asyncio.create_task(pool.choose(state, "easy", n, key=n)) for n in range(4)]
    await asyncio.sleep(0)
    await pool.close(cancel=False)
    assert [t.result() for t in tasks] == [think(state, "easy", n, {}) for n in range(4)]
    assert all(gone(pid) for pid in pids)
    assert not multiprocessing.active_children()
    with pytest.raises(PoolClosed):
        await pool.choose(state, "easy", 1, key="a")


async def test_close_with_cancel_stops_the_running_moves_at_once_even_during_a_patient_close() -> None:
    state = position().to_dict()
    pool = AIPool(workers=1)
    await pool.start()
    pids = pool.worker_pids()
    running = asyncio.create_task(pool.choose(state, "hard", 1, key="a", **LONG_HARD))
    queued = asyncio.create_task(pool.choose(state, "easy", 1, key="b"))
    await asyncio.sleep(0.2)
    patient = asyncio.create_task(pool.close())  # would wait for the search
    await asyncio.sleep(0.1)
    assert not patient.done()
    workers = pool._processes()
    await pool.close(cancel=True)
    # Stopped in the middle of its search (a worker that had finished its work would have exited normally, 0), not
    # waited for: told by how the worker ended, not by a clock, so a busy machine changes nothing.
    assert [w.exitcode for w in workers] == [-signal.SIGTERM]
    await patient
    for task in (running, queued):
        with pytest.raises(PoolClosed):
            await task
    assert all(gone(pid) for pid in pids)
    assert not multiprocessing.active_children()


async def test_a_waiting_decision_keeps_no_reference_to_the_state_it_was_given() -> None:
    """A decision waiting in the queue keeps its state pickled, as one bytes object: the state's dict (some 170
    objects for every full garbage collection of the bot to scan) is the caller's alone, and the answer is the same."""
    import gc

    states = [position().to_dict() for _ in range(3)]
    async with AIPool(workers=1) as pool:
        running = asyncio.create_task(pool.choose(position().to_dict(), "hard", 1, key="a", **SLOW_HARD))
        waiting = [asyncio.create_task(pool.choose(s, "easy", n, key="a")) for n, s in enumerate(states)]
        await asyncio.sleep(0)
        assert (pool.running, pool.queued) == (1, 3)
        gc.collect()
        for state in states:
            holders = [r for r in gc.get_referrers(state) if r is not states]
            assert holders == [], f"the queue keeps the state through {[type(r).__name__ for r in holders]}"
        answers = await asyncio.gather(*waiting)
        await running
    assert answers == [in_process(position(), "easy", n) for n in range(3)]
