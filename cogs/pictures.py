"""Where pictures are drawn: worker processes, so drawing never holds the bot's event loop.

Drawing a table is 30-60 ms of Python and Pillow, most of it holding the interpreter's lock: in a thread of the
bot's process it stalls every click of every game for that long (measured in `benchmarks/bench_load.py`: at 200
games, pictures were half the bot's CPU and the first response to a click waited behind them). Here each picture is
drawn in one of `PICTURE_WORKERS` spawned processes at a lower priority (nice +5), so when the machine is busy the
clicks are answered first and the pictures follow.

A picture that cannot be drawn never blocks a game: it comes back as None (the caller sends text alone), logged
once per drawing function with the worker's traceback. A worker that dies (or a pool that cannot start) is
replaced, and that picture is drawn in a thread instead. With 0 workers (the tests' default) pictures are drawn in
threads, as before.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import traceback
from collections.abc import Callable
from typing import Any

from render import safe_render

log = logging.getLogger(__name__)

WORKER_NICENESS = 5
PICTURE_TIMEOUT_SECONDS = 60.0  # a picture later than this is given up (the text goes out alone)


def _start_worker() -> None:
    with contextlib.suppress(OSError):  # not allowed here: the same priority as the bot, still off its event loop
        os.nice(WORKER_NICENESS)
    import render  # noqa: F401  (the fonts and the engine load once per worker, not on the first picture)


def _ready() -> None:
    """Nothing: submitted once per worker at start, so the workers are spawned (and have loaded the fonts) before
    the first table needs them."""


def _draw(fn: Callable[..., bytes], args: tuple, kwargs: dict) -> tuple[bytes | None, str | None]:
    """In a worker: the picture, or None and the traceback of why not."""
    try:
        return fn(*args, **kwargs), None
    except Exception:
        return None, traceback.format_exc()


class PicturePool:
    """The bot's picture workers. `draw(fn, *args, **kwargs)` returns `fn(*args, **kwargs)` (PNG or GIF bytes, or
    any picklable result) or None when it cannot be drawn."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._failed: set[str] = set()
        self.stats = {"drawn": 0, "failed": 0, "restarts": 0, "in_threads": 0}

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
            )
        return self._pool

    async def draw(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self.workers:
            self.stats["in_threads"] += 1
            return await asyncio.to_thread(safe_render, fn, *args, **kwargs)
        loop = asyncio.get_running_loop()
        pool = self._executor()
        try:
            future = loop.run_in_executor(pool, _draw, fn, args, kwargs)
            result, error = await asyncio.wait_for(future, PICTURE_TIMEOUT_SECONDS)
        except concurrent.futures.process.BrokenProcessPool:
            if self._pool is pool:  # the first of its pictures to hear of it replaces the workers
                log.warning("A picture worker died while drawing %s; the workers are restarted", _name(fn))
                self._pool = None
                self.stats["restarts"] += 1
                pool.shutdown(wait=False)
            self.stats["in_threads"] += 1
            return await asyncio.to_thread(safe_render, fn, *args, **kwargs)
        except TimeoutError:
            log.warning("Drawing %s took over %.0f s; the game goes on without it", _name(fn), PICTURE_TIMEOUT_SECONDS)
            self.stats["failed"] += 1
            return None
        if error is not None:
            self.stats["failed"] += 1
            name = _name(fn)
            if name not in self._failed:
                self._failed.add(name)
                log.error("Could not draw %s; the game goes on without the picture\n%s", name, error.rstrip())
            else:
                log.warning("Could not draw %s again", name)
            return None
        self.stats["drawn"] += 1
        return result

    def warm_up(self) -> None:
        """Start the workers now rather than at the first picture (a worker takes a second or two to start)."""
        if self.workers:
            pool = self._executor()
            for _ in range(self.workers):
                pool.submit(_ready)

    def close(self) -> None:
        """Stop the workers (pictures still being drawn are given up)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


_pool = PicturePool()


def configure(workers: int) -> PicturePool:
    """Draw in `workers` processes from now on (0: threads); the bot calls it at start."""
    global _pool
    _pool.close()
    _pool = PicturePool(workers)
    _pool.warm_up()
    return _pool


def current() -> PicturePool:
    return _pool


async def draw(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)` drawn by the bot's picture workers, or None when it cannot be drawn."""
    return await _pool.draw(fn, *args, **kwargs)


def close() -> None:
    _pool.close()


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", repr(fn))
