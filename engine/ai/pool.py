"""Computer players thinking in worker processes, so that the event loop only awaits them (issue #12).

A `hard` player thinking in a thread holds the interpreter's lock for most of its budget: with 16 of them at once
every click in every game waits behind them. `AIPool` runs each decision in a worker process instead; the caller's
interpreter only serialises the state and awaits the answer.

How the bot uses it::

    # setup_hook: start the workers once (AI_WORKERS processes; spawning them takes a moment), give the service
    self.ai_pool = AIPool(workers=settings.ai_workers)
    await self.ai_pool.start()

    # the service, for a computer seat (key: the fairness key, the guild id; a game outside a server: its channel)
    action = await self.ai_pool.choose_action(game, level, game.seed + len(game.log), key=guild_id, time_budget=1.0)

    # shutdown (the bot's close(), before super().close()): nothing is lost by cancelling, as every computer move
    # is saved when made and the timer loop resumes unfinished computer turns after a restart
    await self.ai_pool.close(cancel=True)

The bot must be started from a module whose top level does not start it (`bot.py` has its `__main__` guard): a
spawned worker imports the main module once, as `__mp_main__`.

What a caller can rely on:

- **Processes.** Every decision runs in one of `workers` processes (default `os.cpu_count()`), started with the
  `spawn` method: a fresh interpreter that inherits none of the bot's threads, sockets or event loop (forking a
  process that runs asyncio and discord.py's threads is unsafe). At most `workers` decisions run at once. The
  workers run at a lower priority (`niceness`), so that the event loop's process wins the cores.
- **Fair queue.** Waiting decisions queue per key and are dispatched round-robin between keys: one server's 16
  games cannot starve another server's single game; the latter waits for at most one dispatch per other key.
  Within a key, decisions are fair between members (`member`: whose game it is, its host): the member who has
  used the least of the workers goes first (start-time fair queuing on each decision's cost, known before it
  runs: `hard`'s time budget, a few milliseconds for the others). A member with ten tables of `hard` players
  cannot starve another member's `easy` one, which waits only for a decision already running. A decision counts
  when it starts, whether its answer is used or thrown away (the game changed while it thought: move then undo),
  so a member's undo spam spends that member's share, not the others'. The costs are forgotten when nothing of
  the key is waiting or running.
- **Bounded queue: fail fast.** When a key already has `max_queued_per_key` decisions waiting, a member
  `max_queued_per_member`, or the whole pool `max_queued`, `choose` raises `PoolBusy` at once rather than waiting
  (a member with fewer than `GUARANTEED_PER_MEMBER` decisions waiting gets in even when its key is full: other
  members cannot fill a server's queue against it). The service holds a channel's lock while a
  computer player thinks, so waiting would only pile up locked channels; after `PoolBusy` the move before it is
  saved and the timer loop (computer seats are due at once) asks again later.
- **Crashes lose no move.** If a worker dies (killed, out of memory), the executor stops the others too; the pool
  is rebuilt and every decision that was running is computed again, up to `max_attempts` computations in all, then
  `WorkerCrashed` is raised.
- **Deterministic.** The answer depends only on (state, level, seed, options), as in the caller's process: each
  decision builds a fresh agent from `make_agent(level, seed=seed, **options)` on `Game.from_dict(state)`, whatever
  the worker and the load. (`hard` counts its effort in work units; its safety clock, at thirty times its budget,
  stops it only on a machine so overloaded that a move would take that long.)
- **Cancellation.** Cancelling the task that awaits `choose` drops a waiting decision from the queue; a running one
  cannot be interrupted, so it keeps its worker until done (a bounded budget) and its answer is discarded.
- **Errors** from the agent (an unknown option: `TypeError`; a bad state: engine errors) are raised to the caller
  as they are, not retried. An unknown level raises `ValueError` before anything is queued.
- **Closing.** `close(cancel=False)` refuses new decisions (`PoolClosed`), waits for the queued and running ones,
  then stops the workers; `close(cancel=True)` fails the queued and running ones with `PoolClosed` and terminates
  the workers at once. Either way every worker process is joined (no zombies) before `close` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import select
import signal
import threading
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError as FutureCancelled
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, action_from_dict
from ..game import Game
from . import AGENTS, BUDGET_FACTORS, make_agent

DEFAULT_MAX_QUEUED_PER_KEY = 32
DEFAULT_MAX_QUEUED_PER_MEMBER = 12
GUARANTEED_PER_MEMBER = 2
# What a decision costs the member whose game it is, in seconds of a worker (measured: benchmarks/bench_ai.py);
# `hard` costs its `time_budget`.
COSTS = {"random": 0.001, "easy": 0.005, "medium": 0.05}
DEFAULT_HARD_BUDGET = 1.0
DEFAULT_MAX_QUEUED = 512
DEFAULT_MAX_ATTEMPTS = 3
DEFAULT_NICENESS = 10  # 16 hard players in 2 workers on 2 cores: loop lag p99 5-12 ms at +10, 12-20 ms at 0


class PoolError(RuntimeError):
    """The pool could not give an answer (the agent's own errors are raised as they are)."""


class PoolBusy(PoolError):
    """Too many decisions are waiting (for this key, or in all); nothing was queued. Ask again later."""


class PoolClosed(PoolError):
    """The pool is closing or closed: the decision was not (or will not be) computed."""


class WorkerCrashed(PoolError):
    """Worker processes died every time this decision was computed."""


def think(state: dict, level: str, seed: int, options: dict) -> dict:
    """One decision, in a worker process: the action (as `Action.to_dict()`) that `make_agent(level, seed,
    **options)` chooses for `Game.from_dict(state)`."""
    game = Game.from_dict(state)
    return make_agent(level, seed=seed, **options).choose(game).to_dict()


def _unpacked(function: Callable[[dict, str, int, dict], dict], packed: bytes, level: str, seed: int, options: dict):
    """In a worker: `function` on the state the queue kept pickled."""
    return function(pickle.loads(packed), level, seed, options)


def exit_with_parent() -> threading.Thread:
    """In a worker process: a daemon thread that ends the process as soon as its parent is gone. A bot killed with
    SIGKILL (or the OOM killer) closes no pool: its workers would run on, orphans, to the end of what they were given
    (minutes of a review) and hold their memory; one was seen running for 70 minutes. On Linux the thread waits on a
    pidfd of the parent (woken when it exits); elsewhere it looks at the parent's pid every second."""
    parent = os.getppid()

    def watch() -> None:
        fd = None
        with contextlib.suppress(OSError, AttributeError):
            fd = os.pidfd_open(parent)
        if fd is not None and os.getppid() == parent:  # the pidfd is the parent's (it was alive after the open)
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            while not poller.poll():
                pass
        else:
            while os.getppid() == parent:
                threading.Event().wait(1.0)
        os._exit(1)

    thread = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    thread.start()
    return thread


def _init_worker(niceness: int) -> None:
    # Ctrl+C reaches the whole process group: the bot handles it and closes the pool; a worker dying of it would
    # only look like a crash.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent()
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)


def _ready() -> int:
    return os.getpid()


@dataclass(eq=False)
class _Job:
    key: Hashable
    args: tuple
    future: asyncio.Future
    attempts: int = 0
    member: Hashable = None
    cost: float = 0.0


def decision_cost(level: str, options: dict) -> float:
    """What a decision costs its member's share, known before it runs."""
    factor = BUDGET_FACTORS.get(level)
    if factor is not None:
        return float(options.get("time_budget", DEFAULT_HARD_BUDGET * factor))
    return COSTS.get(level, COSTS["easy"])


@dataclass(eq=False)
class _Key:
    """One key's waiting decisions, per member, with what each member has used (start-time fair queuing)."""

    waiting: dict[Hashable, deque[_Job]] = field(default_factory=dict)
    used: dict[Hashable, float] = field(default_factory=dict)  # a member's virtual time: its next decision starts there
    clock: float = 0.0  # the virtual time at which the last decision started
    queued: int = 0
    running: int = 0  # kept while its decisions run: a decision thrown away still counts for the next dispatch

    def put(self, job: _Job) -> None:
        jobs = self.waiting.get(job.member)
        if jobs is None:  # a member coming back starts at the clock: no credit for having been away
            jobs = self.waiting[job.member] = deque()
            self.used[job.member] = max(self.used.get(job.member, 0.0), self.clock)
        jobs.append(job)
        self.queued += 1

    def take(self) -> _Job:
        """The first decision of the member who has used the least (the earliest-waiting member on a tie)."""
        member = min(self.waiting, key=self.used.__getitem__)  # dicts keep insertion order: ties go to the first
        jobs = self.waiting[member]
        job = jobs.popleft()
        if not jobs:
            del self.waiting[member]
        self.queued -= 1
        self.clock = self.used[member]
        self.used[member] += job.cost
        return job

    def remove(self, job: _Job) -> bool:
        jobs = self.waiting.get(job.member)
        if jobs is None or job not in jobs:
            return False
        jobs.remove(job)
        if not jobs:
            del self.waiting[job.member]
        self.queued -= 1
        return True

    def waiting_of(self, member: Hashable) -> int:
        jobs = self.waiting.get(member)
        return len(jobs) if jobs is not None else 0


@dataclass
class PoolStats:
    """Counters since the pool started (for logs and `/admin`)."""

    done: int = 0
    failed: int = 0
    busy: int = 0  # decisions refused with PoolBusy
    cancelled: int = 0  # decisions whose caller stopped waiting
    crashes: int = 0  # times the worker processes were found dead and replaced


class AIPool:
    """Worker processes for the computer players, with a bounded queue that is fair between keys.

    - `workers`: processes, and decisions running at once (default `os.cpu_count()`).
    - `max_queued_per_key`, `max_queued_per_member`, `max_queued`: waiting decisions allowed per key, per member of
      a key and in all before `PoolBusy`.
    - `max_attempts`: computations of one decision when workers crash, before `WorkerCrashed`.
    - `niceness`: added to the workers' nice value (Unix; default 10), so that the event loop's process wins the
      cores when they are all busy. A `hard` player's effort is counted in work units, not seconds, so this does
      not change its move (its safety clock is at thirty times its budget).
    - `start_method`: `spawn` (default) or `forkserver`; never `fork`.
    - `worker_function`: what a worker runs for a decision (a seam for tests; it must be importable by name in a
      fresh interpreter).
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        max_queued_per_key: int = DEFAULT_MAX_QUEUED_PER_KEY,
        max_queued_per_member: int = DEFAULT_MAX_QUEUED_PER_MEMBER,
        max_queued: int = DEFAULT_MAX_QUEUED,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        niceness: int = DEFAULT_NICENESS,
        start_method: str = "spawn",
        worker_function: Callable[[dict, str, int, dict], dict] = think,
    ) -> None:
        workers = workers or os.cpu_count() or 1
        if min(workers, max_queued_per_key, max_queued_per_member, max_queued, max_attempts) < 1:
            raise ValueError(
                "workers, max_queued_per_key, max_queued_per_member, max_queued and max_attempts must be at least 1."
            )
        if start_method not in ("spawn", "forkserver"):
            raise ValueError("start_method must be 'spawn' or 'forkserver': forking a process with threads is unsafe.")
        self.workers = workers
        self.max_queued_per_key = max_queued_per_key
        self.max_queued_per_member = max_queued_per_member
        self.max_queued = max_queued
        self.max_attempts = max_attempts
        self.niceness = niceness
        self.stats = PoolStats()
        self._context = multiprocessing.get_context(start_method)
        self._function = worker_function
        self._executor: ProcessPoolExecutor | None = None
        self._generation = 0  # bumped when the executor is replaced, so that one crash rebuilds it once
        self._waiting: dict[Hashable, _Key] = {}  # per key, the members' waiting decisions
        self._turns: deque[Hashable] = deque()  # keys with waiting decisions, in round-robin order
        self._queued = 0
        self._running: dict[asyncio.Task, _Job] = {}
        self._idle: asyncio.Event | None = None
        self._closing = False  # no new decisions
        self._cancelling = False  # and the queued and running ones fail
        self._shutdown: asyncio.Future | None = None

    # -- life cycle ----------------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the worker processes and wait until they answer (so that the first move is not slowed by the
        interpreters starting). Optional: the first `choose` starts the pool too."""
        if self._closing:
            raise PoolClosed("The computer players' pool is closed.")
        executor = self._ensure_executor()
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(executor, _ready) for _ in range(self.workers)))

    async def close(self, *, cancel: bool = False) -> None:
        """Refuse new decisions; then wait for the queued and running ones (`cancel=False`) or fail them with
        `PoolClosed` and terminate the workers (`cancel=True`). Returns once every worker process is joined. May be
        called again (`cancel=True` then stops what an earlier `close()` is waiting for)."""
        self._closing = True
        if cancel and not self._cancelling:
            self._cancelling = True
            for waiting in self._waiting.values():
                for jobs in waiting.waiting.values():
                    for job in jobs:
                        self._fail(job, PoolClosed("The computer players' pool closed before this move was computed."))
            self._waiting.clear()
            self._turns.clear()
            self._queued = 0
            for job in self._running.values():
                self._fail(job, PoolClosed("The computer players' pool closed while this move was computed."))
            self._terminate_workers()
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._stop_when_idle())
        await asyncio.shield(self._shutdown)

    async def _stop_when_idle(self) -> None:
        while self._running or self._queued:
            if self._idle is None:
                self._idle = asyncio.Event()
            self._idle.clear()
            await self._idle.wait()
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    async def __aenter__(self) -> AIPool:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close(cancel=exc_info[0] is not None)

    # -- decisions -----------------------------------------------------------------------------------------------
    async def choose(
        self, state: dict, level: str, seed: int, *, key: Hashable, member: Hashable = None, **options: Any
    ) -> dict:
        """The action (`Action.to_dict()`) the computer player `level` with this `seed` chooses in the game
        `state` (`Game.to_dict()`); `options` go to `make_agent` (`hard`: `time_budget`, `iterations`). `key` is
        the fairness key (the guild id), `member` whose decision it is within it (the game's host). Raises
        `PoolBusy` when the queue for `key`, for `member` or the pool is full, `PoolClosed` when the pool is
        closing, `WorkerCrashed` after `max_attempts` crashed workers, and the agent's own errors as they are."""
        if self._closing:
            raise PoolClosed("The computer players' pool is closed.")
        if level not in AGENTS:
            raise ValueError(f"Unknown computer player {level!r}: choose one of {', '.join(AGENTS)}.")
        waiting = self._waiting.get(key)
        self._admit(waiting, member)
        # The state waits pickled: bytes are one object the garbage collector never scans, where the dict is some
        # 170 (a queue of 100 moves was a third of what each full collection scanned; benchmarks/bench_load.py).
        packed = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        del state
        job = _Job(
            key,
            (self._function, packed, level, seed, dict(options)),
            asyncio.get_running_loop().create_future(),
            member=member,
            cost=decision_cost(level, options),
        )
        if waiting is None:
            waiting = self._waiting[key] = _Key()
        if not waiting.queued:
            self._turns.append(key)
        waiting.put(job)
        self._queued += 1
        self._dispatch()
        try:
            return await job.future
        except asyncio.CancelledError:
            self.stats.cancelled += 1
            self._unqueue(job)
            raise

    def _admit(self, waiting: _Key | None, member: Hashable) -> None:
        """Raise `PoolBusy` if there is no room for one more decision of `member` in the key `waiting`."""
        in_key = waiting.queued if waiting is not None else 0
        mine = waiting.waiting_of(member) if waiting is not None else 0
        key_full = in_key >= self.max_queued_per_key and mine >= GUARANTEED_PER_MEMBER
        if self._queued >= self.max_queued or key_full or mine >= self.max_queued_per_member:
            self.stats.busy += 1
            raise PoolBusy(
                f"The computer players are busy: {in_key} moves of this server ({mine} of this member) and "
                f"{self._queued} in all are waiting."
            )

    async def choose_action(
        self, game: Game, level: str, seed: int, *, key: Hashable, member: Hashable = None, **options: Any
    ) -> Action:
        """`choose` for engine objects: the game is serialised here and the action read back."""
        return action_from_dict(await self.choose(game.to_dict(), level, seed, key=key, member=member, **options))

    # -- what is going on ----------------------------------------------------------------------------------------
    @property
    def queued(self) -> int:
        """Decisions waiting for a worker."""
        return self._queued

    def queued_for(self, key: Hashable, member: Hashable = None) -> int:
        """Decisions of `member` of `key` waiting for a worker."""
        waiting = self._waiting.get(key)
        return waiting.waiting_of(member) if waiting is not None else 0

    @property
    def running(self) -> int:
        """Decisions being computed (a cancelled one counts until its worker is done with it)."""
        return len(self._running)

    def worker_pids(self) -> list[int]:
        """Process ids of the live workers (for monitoring and tests)."""
        return [p.pid for p in self._processes() if p.pid is not None and p.is_alive()]

    # -- inside --------------------------------------------------------------------------------------------------
    def _ensure_executor(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=self._context, initializer=_init_worker, initargs=(self.niceness,)
            )
            self._generation += 1
        return self._executor

    def _rebuild(self, generation: int) -> None:
        """Replace a broken executor, once per crash however many decisions saw it."""
        if generation != self._generation or self._executor is None:
            return
        self.stats.crashes += 1
        broken, self._executor = self._executor, None
        broken.shutdown(wait=False, cancel_futures=True)  # its manager thread has already joined the dead workers
        self._ensure_executor()

    def _processes(self) -> list[multiprocessing.process.BaseProcess]:
        # ProcessPoolExecutor (before Python 3.14's terminate_workers) shows its processes only in this attribute.
        return list((getattr(self._executor, "_processes", None) or {}).values())

    def _terminate_workers(self) -> None:
        for process in self._processes():
            if process.is_alive():
                process.terminate()

    def _dispatch(self) -> None:
        """Start waiting decisions, round-robin between keys (and fairly between members within a key), while fewer
        than `workers` run."""
        while self._turns and len(self._running) < self.workers:
            key = self._turns.popleft()
            waiting = self._waiting[key]
            job = waiting.take()
            waiting.running += 1
            if waiting.queued:
                self._turns.append(key)
            self._queued -= 1
            task = asyncio.get_running_loop().create_task(self._run(job))
            self._running[task] = job

    def _unqueue(self, job: _Job) -> None:
        waiting = self._waiting.get(job.key)
        if waiting is None or not waiting.remove(job):
            return  # already running: its answer will be discarded (it still counted for its member)
        self._queued -= 1
        if not waiting.queued:
            self._turns.remove(job.key)
            if not waiting.running:
                del self._waiting[job.key]
        if self._idle is not None and not self._running and not self._queued:
            self._idle.set()

    async def _run(self, job: _Job) -> None:
        try:
            result = await self._compute(job)
        except asyncio.CancelledError:  # the loop is shutting down, or the caller stopped waiting
            self._release()
            job.future.cancel()
            raise
        except Exception as error:  # the agent's own errors, the pool's
            self._release()
            self._fail(job, error)
        except BaseException as error:  # SystemExit or the like raised by the worker function: not the loop's
            self._release()
            self._fail(job, PoolError(f"The computer player's process raised {error!r}."))
        else:
            self._release()  # before the caller wakes, so that it sees its slot free
            if not job.future.done():
                self.stats.done += 1
                job.future.set_result(result)

    def _release(self) -> None:
        job = self._running.pop(asyncio.current_task(), None)  # type: ignore[arg-type]
        waiting = self._waiting.get(job.key) if job is not None else None
        if waiting is not None:
            waiting.running -= 1
            if not waiting.running and not waiting.queued:  # nothing of this key left: what it used is forgotten
                del self._waiting[job.key]
        self._dispatch()
        if self._idle is not None and not self._running and not self._queued:
            self._idle.set()

    async def _compute(self, job: _Job) -> dict:
        """The worker's answer; computed again in a new pool when the workers crashed. The agent's errors pass."""
        while True:
            if self._cancelling:
                raise PoolClosed("The computer players' pool closed before this move was computed.")
            if job.future.done():  # the caller stopped waiting before a crashed attempt: do not compute it again
                raise asyncio.CancelledError
            executor = self._ensure_executor()
            generation = self._generation
            try:
                return await asyncio.wrap_future(executor.submit(_unpacked, *job.args))
            except (BrokenProcessPool, FutureCancelled):
                job.attempts += 1
                if self._cancelling:
                    raise PoolClosed("The computer players' pool closed while this move was computed.") from None
                self._rebuild(generation)
                if job.attempts >= self.max_attempts:
                    raise WorkerCrashed(f"The computer player's process died {job.attempts} times.") from None

    def _fail(self, job: _Job, error: BaseException) -> None:
        if not job.future.done():
            self.stats.failed += 1
            job.future.set_exception(error)


__all__ = ["AIPool", "PoolBusy", "PoolClosed", "PoolError", "PoolStats", "WorkerCrashed", "think"]
