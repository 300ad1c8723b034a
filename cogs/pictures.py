"""Where pictures are drawn: worker processes, so drawing never holds the bot's event loop; in order of urgency and
fairly between the people who ask (issue #26).

Drawing a table is 30-60 ms of Python and Pillow, most of it holding the interpreter's lock: in a thread of the
bot's process it stalls every click of every game for that long (measured in `benchmarks/bench_load.py`: at 200
games, pictures were half the bot's CPU and the first response to a click waited behind them). Here each picture is
drawn in a spawned process at a lower priority (nice +5), so when the machine is busy the clicks are answered first
and the pictures follow.

Two lanes, each with its own processes and its own queue:

- the light lane (`PICTURE_WORKERS` processes) draws, first, what a game waits for (`Priority.TABLE`: the table a
  player waits for, the turn panels' pictures and previews, the final score sheet), then the private looks
  (`Priority.LOOK`: a look at the table, a kingdom, the dominoes to come), round-robin between the people asking;
- the heavy lane (`HEAVY_WORKERS` process, nice +10) draws the replays and charts (a 7-player Royal Wedding replay
  is a second of work and 600 KB): first those of a finished game's last table (`Priority.STORY`), then the looks
  (`Priority.HEAVY`), round-robin between the people asking. However many replays are asked for, a table never
  waits behind them;
- the review lane (`REVIEW_WORKERS` process, nice +15) works out a finished game's post-game review (issue #31:
  minutes of the `hard` search, `review_data`) and draws its pictures (`Priority.REVIEW`), one at a time, after
  everything else: neither a table nor a replay waits behind a review. With 0 workers it is a thread like the
  others, and the reviews are not started at the end of a game (`reviews_at_end`: the bot's own process would
  spend minutes on them).

Looks are limited per member, per server and in all (`LIMITS`, counted while queued or drawing): over a limit,
`draw` raises `PicturesBusy` at once (the look answers "busy, try again in a minute"). A table is never refused.

A finished game's replay and chart are drawn once (`kept`): they are kept on disk in `cache_dir` (beside the
database: a file per picture, keyed by game id and a digest of what the picture shows: seed, log, names, colours,
language and the drawing code's own digest, so a stale picture is never shown and a restart draws nothing again),
at most `DISK_BYTES`, the least recently used going first; a memory copy of the last few (`MEMORY_BYTES`) spares
reading the file. The database would be shared by every process, but it would grow by up to a megabyte a game and
make every backup carry pictures that can be drawn again; a cache on disk costs one drawing per process host after a
loss. Pictures of a game still in play are kept in memory only (they change with every move), and identical ones
asked at once are drawn once.

A picture that cannot be drawn never blocks a game: it comes back as None (the caller sends text alone), logged
once per drawing function with the worker's traceback. A worker that dies (or a pool that cannot start) is
replaced, and that picture is drawn in a thread instead. With 0 workers (the tests' default) pictures are drawn in
threads of the bot's process (with the same lanes, queues and limits).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import functools
import hashlib
import json
import logging
import multiprocessing
import os
import traceback
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Coroutine, Hashable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any

from engine.ai.pool import exit_with_parent
from render import safe_render

log = logging.getLogger(__name__)

WORKER_NICENESS = 5
HEAVY_NICENESS = 10  # replays and charts yield the cores to the tables' workers and to the bot
HEAVY_WORKERS = 1
REVIEW_NICENESS = 15  # a review is minutes of search: it yields the cores to everything else
REVIEW_WORKERS = 1
REVIEW_TIMEOUT_SECONDS = 30 * 60.0  # a review queued and worked out later than this is given up (logged)
REVIEWS_IN_THREADS = False  # with 0 workers, start the reviews at the end of a game anyway (tests, at a tiny effort)
THREAD_SLOTS = 4  # pictures drawn at once in threads (0 workers): more would only queue on the interpreter's lock
PICTURE_TIMEOUT_SECONDS = 60.0  # a picture later than this is given up (the text goes out alone)
MEMORY_BYTES = 48 * 1024 * 1024
DISK_BYTES = 512 * 1024 * 1024
ORDER_KEPT = 500  # the last pictures started, in order (for tests and `/admin`)


class Priority(IntEnum):
    """What a picture is for; a lower value is drawn first (within its lane)."""

    TABLE = 0  # a table a player waits for, the turn panels' pictures, the final score sheet: never refused
    LOOK = 1  # a private look at the table, a kingdom, the dominoes to come
    STORY = 2  # the replay and chart posted with a finished game's last table: never refused
    HEAVY = 3  # a private look at a replay or a chart
    REVIEW = 4  # a finished game's review and its pictures (the channel's, or a look's): its own lane, last


HEAVY_PRIORITIES = (Priority.STORY, Priority.HEAVY)


@dataclass(frozen=True)
class Limits:
    """Pictures of one priority queued or drawing at once: per member, per server, in all."""

    member: int
    server: int
    total: int


LIMITS = {Priority.LOOK: Limits(3, 10, 40), Priority.HEAVY: Limits(2, 4, 12), Priority.REVIEW: Limits(1, 3, 12)}


@dataclass(frozen=True)
class Asker:
    """Who asked for a look: fairness and limits are per member within a server, and per server."""

    guild_id: int | None
    user_id: int

    @property
    def server(self) -> Hashable:
        return self.guild_id if self.guild_id is not None else ("dm", self.user_id)


class PicturesBusy(Exception):
    """Too many looks are being drawn for this member, this server or in all; nothing was queued."""


# The tickets the running task already holds (a look takes its ticket before it reads the game, so that a refusal
# costs nothing; its pictures then do not count twice).
_holding: contextvars.ContextVar[frozenset] = contextvars.ContextVar("pictures_holding", default=frozenset())


def _start_worker(niceness: int = WORKER_NICENESS) -> None:
    exit_with_parent()  # a bot killed with SIGKILL leaves no picture or review worker behind
    with contextlib.suppress(OSError):  # not allowed here: the same priority as the bot, still off its event loop
        os.nice(niceness)
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


def replay_gif(*args: Any, **kwargs: Any) -> bytes:
    """`render_replay`'s GIF alone (its file name is always `render.replay.FILE_NAME`), so it can be kept."""
    from render.replay import render_replay

    return render_replay(*args, **kwargs)[0]


def review_data(config: dict, seed: int, log: list, players: list[str], budget: float, playouts: int) -> bytes:
    """The post-game review of a game given as data (engine/ai/review.py), as JSON bytes, so it can be kept."""
    from engine.ai.review import review_log

    return json.dumps(review_log(config, seed, log, players, budget, playouts), sort_keys=True).encode()


@functools.cache
def drawing_digest() -> str:
    """A digest of the code and words that draw the pictures: a kept picture drawn by another version is not used."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted([*(root / "render").glob("*.py"), *(root / "i18n" / "locales").glob("*.po")]):
        with contextlib.suppress(OSError):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def thinking_digest() -> str:
    """A digest of the engine's code, computer players included: a review they would now work out otherwise is not
    used (a part of the review's key)."""
    root = Path(__file__).resolve().parent.parent / "engine"
    digest = hashlib.sha256()
    for path in sorted([*root.glob("*.py"), *(root / "ai").glob("*.py")]):
        with contextlib.suppress(OSError):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def picture_key(game_id: int, what: str, *parts: Any) -> str:
    """The key of a game's picture (`what`: "replay", "chart"): the game id and a digest of everything it shows."""
    shown = json.dumps([what, *parts, drawing_digest()], sort_keys=True, default=repr, separators=(",", ":"))
    return f"{int(game_id)}-{what}-{hashlib.sha256(shown.encode()).hexdigest()[:32]}"


@dataclass(eq=False)
class _Job:
    fn: Callable[..., Any]
    args: tuple
    kwargs: dict
    priority: Priority
    member: Hashable
    future: asyncio.Future


@dataclass
class _Lane:
    """One lane's workers and queue: urgent jobs first in order, then the others round-robin between members."""

    name: str
    workers: int  # processes; 0: threads
    niceness: int
    slots: int
    urgent: Priority
    timeout: float = PICTURE_TIMEOUT_SECONDS
    pool: concurrent.futures.ProcessPoolExecutor | None = None
    running: int = 0
    first: deque[_Job] = field(default_factory=deque)
    waiting: dict[Hashable, deque[_Job]] = field(default_factory=dict)
    turns: deque[Hashable] = field(default_factory=deque)

    def executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self.pool is None:
            self.pool = concurrent.futures.ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self.niceness,),
            )
        return self.pool

    def put(self, job: _Job) -> None:
        if job.priority == self.urgent:
            self.first.append(job)
            return
        jobs = self.waiting.get(job.member)
        if jobs is None:
            jobs = self.waiting[job.member] = deque()
            self.turns.append(job.member)
        jobs.append(job)

    def take(self) -> _Job | None:
        if self.first:
            return self.first.popleft()
        if not self.turns:
            return None
        member = self.turns.popleft()
        jobs = self.waiting[member]
        job = jobs.popleft()
        if jobs:
            self.turns.append(member)
        else:
            del self.waiting[member]
        return job

    def remove(self, job: _Job) -> bool:
        """Take a waiting job out of the queue; False if it is not waiting (drawing, or done)."""
        if job in self.first:
            self.first.remove(job)
            return True
        jobs = self.waiting.get(job.member)
        if jobs is None or job not in jobs:
            return False
        jobs.remove(job)
        if not jobs:
            del self.waiting[job.member]
            self.turns.remove(job.member)
        return True

    @property
    def queued(self) -> int:
        return len(self.first) + sum(len(jobs) for jobs in self.waiting.values())

    def close(self, *, stop_work: bool = False) -> None:
        """Let the workers go; `stop_work`: end at once what they are working out (a review: minutes of it, worked
        out again at the next start, `cogs.reviews.resume_reviews`)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            processes = list((getattr(pool, "_processes", None) or {}).values()) if stop_work else []
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(Exception):
                    process.terminate()


class PictureCache:
    """Kept pictures: the last few in memory; a finished game's on disk in `directory` (None: memory only)."""

    def __init__(
        self, directory: Path | None = None, *, memory_bytes: int = MEMORY_BYTES, disk_bytes: int = DISK_BYTES
    ) -> None:
        self.directory = directory
        self.memory_bytes = memory_bytes
        self.disk_bytes = disk_bytes
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self._held = 0

    def remembered(self, key: str) -> bytes | None:
        data = self._memory.get(key)
        if data is not None:
            self._memory.move_to_end(key)
        return data

    def remember(self, key: str, data: bytes) -> None:
        if len(data) > self.memory_bytes:
            return
        old = self._memory.pop(key, None)
        self._held += len(data) - (len(old) if old is not None else 0)
        self._memory[key] = data
        while self._held > self.memory_bytes:
            _, dropped = self._memory.popitem(last=False)
            self._held -= len(dropped)

    def _path(self, key: str) -> Path | None:
        return None if self.directory is None else self.directory / f"{key}.pic"

    async def read(self, key: str) -> bytes | None:
        path = self._path(key)
        if path is None:
            return None
        return await asyncio.to_thread(_read_touching, path)

    async def write(self, key: str, data: bytes) -> None:
        path = self._path(key)
        if path is not None:
            await asyncio.to_thread(_write_bounded, path, data, self.disk_bytes)

    async def forget_game(self, game_id: int) -> int:
        """Drop every kept picture (and review) of the game, in memory and on disk: they show its players' names (a
        person who asked to be forgotten). Returns how many went."""
        prefix = f"{int(game_id)}-"
        gone = 0
        for key in [k for k in self._memory if k.startswith(prefix)]:
            self._held -= len(self._memory.pop(key))
            gone += 1
        if self.directory is not None:
            gone += await asyncio.to_thread(_remove_kept, self.directory, prefix)
        return gone


def _remove_kept(directory: Path, prefix: str) -> int:
    gone = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory):
            if entry.name.startswith(prefix) and entry.name.endswith(".pic"):
                with contextlib.suppress(OSError):
                    os.remove(entry.path)
                    gone += 1
    return gone


def _read_touching(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
        os.utime(path)  # recently used: evicted last
        return data
    except OSError:
        return None


def _write_bounded(path: Path, data: bytes, limit: int) -> None:
    """Write atomically, then remove the least recently used files while the directory holds over `limit` bytes."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_bytes(data)
        os.replace(partial, path)
        files = []
        for entry in os.scandir(path.parent):
            if entry.name.endswith(".pic"):
                with contextlib.suppress(OSError):
                    stat = entry.stat()
                    files.append((stat.st_mtime, stat.st_size, entry.path))
        total = sum(size for _, size, _ in files)
        for _, size, name in sorted(files):
            if total <= limit:
                break
            with contextlib.suppress(OSError):
                os.remove(name)
                total -= size
    except OSError:
        log.warning("Could not keep the picture %s on disk", path, exc_info=True)


class PicturePool:
    """The bot's picture workers. `draw(fn, *args, **kwargs)` returns `fn(*args, **kwargs)` (PNG or GIF bytes, or
    any picklable result) or None when it cannot be drawn; `priority=` and `asker=` say what it is for and who
    asked (see the module's docstring)."""

    def __init__(
        self,
        workers: int = 0,
        *,
        cache_dir: Path | None = None,
        heavy_workers: int = HEAVY_WORKERS,
        thread_slots: int = THREAD_SLOTS,
    ) -> None:
        self.workers = workers
        heavy = heavy_workers if workers else 0
        self.light = _Lane("light", workers, WORKER_NICENESS, workers or thread_slots, Priority.TABLE)
        self.heavy = _Lane("heavy", heavy, HEAVY_NICENESS, heavy or 1, Priority.STORY)
        review = REVIEW_WORKERS if workers else 0
        self.review = _Lane("review", review, REVIEW_NICENESS, 1, Priority.REVIEW, REVIEW_TIMEOUT_SECONDS)
        self.reviews_at_end = bool(workers) or REVIEWS_IN_THREADS  # see the module's docstring
        self.cache = PictureCache(cache_dir)
        self._failed: set[str] = set()
        self._inflight: dict[str, asyncio.Future] = {}
        self._inflight_jobs: dict[str, _Job] = {}  # the queued job of each drawing in `_inflight`
        self._tasks: set[asyncio.Task] = set()  # the drawings at work: held, so none is collected mid-way
        self._tickets: Counter[tuple] = Counter()
        self.stats = {"drawn": 0, "failed": 0, "restarts": 0, "in_threads": 0}
        self.counts: Counter[str] = Counter()  # "busy", "kept" (answered from the cache), "<priority>" started
        self.order: deque[tuple[Priority, str]] = deque(maxlen=ORDER_KEPT)  # pictures as they started

    # -- asking ----------------------------------------------------------------------------------------------------
    async def draw(
        self,
        fn: Callable[..., Any],
        *args: Any,
        priority: Priority = Priority.TABLE,
        asker: Asker | None = None,
        **kwargs: Any,
    ) -> Any:
        with self._ticket(priority, asker):
            return await self._queued(fn, args, kwargs, priority, asker)

    async def kept(
        self,
        key: str,
        fn: Callable[..., bytes],
        *args: Any,
        on_disk: bool,
        priority: Priority = Priority.STORY,
        asker: Asker | None = None,
        **kwargs: Any,
    ) -> bytes | None:
        """`fn(*args, **kwargs)` drawn once for `key`: from memory, else from disk (`on_disk`: a finished game's),
        else drawn (the same drawing for everyone asking at once) and kept."""
        data = self.cache.remembered(key)
        if data is None and on_disk:
            data = await self.cache.read(key)
            if data is not None:
                self.cache.remember(key, data)
        if data is not None:
            self.counts["kept"] += 1
            return data
        with self._ticket(priority, asker):
            drawing = self._inflight.get(key)
            if drawing is None:
                drawing = asyncio.ensure_future(self._draw_and_keep(key, fn, args, kwargs, priority, asker, on_disk))
                self._inflight[key] = drawing
                drawing.add_done_callback(lambda done: self._inflight.pop(key, None))
            else:
                self._hasten(key, priority)
            return await asyncio.shield(drawing)

    def _hasten(self, key: str, priority: Priority) -> None:
        """A game's own picture joining a look's drawing of the same picture: the drawing waits no longer than the
        game's would have."""
        job = self._inflight_jobs.get(key)
        if job is not None and priority < job.priority:
            lane = self._lane(job.priority)
            if lane.remove(job):
                job.priority, job.member = priority, None
                lane.put(job)
                self._dispatch(lane)

    async def _draw_and_keep(self, key, fn, args, kwargs, priority, asker, on_disk: bool) -> bytes | None:
        data = await self._queued(fn, args, kwargs, priority, asker, key=key)
        if data is not None:
            self.cache.remember(key, data)
            if on_disk:
                await self.cache.write(key, data)
        return data

    @contextlib.contextmanager
    def admitted(self, priority: Priority | None, asker: Asker | None) -> Iterator[None]:
        """Hold a place of `asker` among the pictures of `priority` for the duration (none is needed for a table,
        or without an asker); raise `PicturesBusy` at once when there is none. Pictures drawn meanwhile for the same
        asker and priority use this place."""
        with self._ticket(priority, asker):
            yield

    @contextlib.contextmanager
    def _ticket(self, priority: Priority | None, asker: Asker | None) -> Iterator[None]:
        limits = LIMITS.get(priority) if priority is not None else None
        held = _holding.get()
        if limits is None or asker is None or (priority, asker) in held:
            yield
            return
        keys = ((priority, "member", asker), (priority, "server", asker.server), (priority, "total"))
        for key, limit in zip(keys, (limits.member, limits.server, limits.total), strict=True):
            if self._tickets[key] >= limit:
                self.counts["busy"] += 1
                raise PicturesBusy(f"{self._tickets[key]} pictures of this kind are being drawn ({key[1]})")
        for key in keys:
            self._tickets[key] += 1
        token = _holding.set(held | {(priority, asker)})
        try:
            yield
        finally:
            _holding.reset(token)
            for key in keys:
                self._tickets[key] -= 1
                if not self._tickets[key]:
                    del self._tickets[key]

    # -- the queue -------------------------------------------------------------------------------------------------
    def _lane(self, priority: Priority) -> _Lane:
        if priority == Priority.REVIEW:
            return self.review
        return self.heavy if priority in HEAVY_PRIORITIES else self.light

    async def _queued(
        self, fn, args, kwargs, priority: Priority, asker: Asker | None, *, key: str | None = None
    ) -> Any:
        lane = self._lane(priority)
        job = _Job(fn, args, kwargs, priority, asker, asyncio.get_running_loop().create_future())
        lane.put(job)
        if key is not None:
            self._inflight_jobs[key] = job
        self._dispatch(lane)
        try:
            async with asyncio.timeout(lane.timeout):  # not wait_for: see web.hub.wait_changed
                return await asyncio.shield(job.future)
        except TimeoutError:
            lane.remove(job)
            log.warning("Drawing %s took over %.0f s; the game goes on without it", _name(fn), lane.timeout)
            self.stats["failed"] += 1
            return None
        except asyncio.CancelledError:
            lane.remove(job)  # still waiting: dropped; drawing: its picture is thrown away
            raise
        finally:
            if key is not None and self._inflight_jobs.get(key) is job:
                del self._inflight_jobs[key]

    def _dispatch(self, lane: _Lane) -> None:
        while lane.running < lane.slots:
            job = lane.take()
            if job is None:
                return
            lane.running += 1
            self.counts[job.priority.name.lower()] += 1
            self.order.append((job.priority, _name(job.fn)))
            task = asyncio.get_running_loop().create_task(self._run(lane, job), name="drawing")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, lane: _Lane, job: _Job) -> None:
        try:
            result = await self._drawn(lane, job.fn, job.args, job.kwargs)
        except asyncio.CancelledError:  # the loop is closing
            job.future.cancel()
            raise
        except Exception as error:  # what the pool itself could not do (e.g. arguments that cannot be sent)
            if not job.future.done():
                job.future.set_exception(error)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            lane.running -= 1
            self._dispatch(lane)

    async def _drawn(self, lane: _Lane, fn, args: tuple, kwargs: dict) -> Any:
        if not lane.workers:
            self.stats["in_threads"] += 1
            return await asyncio.to_thread(safe_render, fn, *args, **kwargs)
        pool = lane.executor()
        try:
            result, error = await asyncio.get_running_loop().run_in_executor(pool, _draw, fn, args, kwargs)
        except concurrent.futures.process.BrokenProcessPool:
            if lane.pool is pool:  # the first of its pictures to hear of it replaces the workers
                log.warning("A picture worker died while drawing %s; the workers are restarted", _name(fn))
                lane.pool = None
                self.stats["restarts"] += 1
                pool.shutdown(wait=False)
            self.stats["in_threads"] += 1
            return await asyncio.to_thread(safe_render, fn, *args, **kwargs)
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

    # -- life ------------------------------------------------------------------------------------------------------
    async def remembered(self, key: str) -> bytes | None:
        """What `kept` holds for `key` (from memory, else from disk), or None: nothing is drawn."""
        data = self.cache.remembered(key)
        if data is None:
            data = await self.cache.read(key)
            if data is not None:
                self.cache.remember(key, data)
        return data

    def background(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task:
        """Run `work` (a task that waits on pictures, like a review) held by the pool: `close` cancels it and
        `aclose` waits until it has ended; an error in it is logged."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)

        def done(task: asyncio.Task) -> None:
            self._tasks.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.error("%s failed", name, exc_info=task.exception())

        task.add_done_callback(done)
        return task

    async def background_done(self) -> None:
        """Wait until the work started with `background` (and what it started meanwhile) has ended."""
        while tasks := [task for task in self._tasks if task.get_name() != "drawing"]:
            await asyncio.gather(*tasks, return_exceptions=True)

    @property
    def queued(self) -> int:
        return self.light.queued + self.heavy.queued + self.review.queued

    def warm_up(self) -> None:
        """Start the workers now rather than at the first picture (a worker takes a second or two to start)."""
        for lane in (self.light, self.heavy):  # the review's worker starts with the first review
            if lane.workers:
                pool = lane.executor()
                for _ in range(lane.workers):
                    pool.submit(_ready)

    def close(self) -> None:
        """Stop the workers (pictures still being drawn are given up)."""
        for task in list(self._tasks):
            task.cancel()
        self.light.close()
        self.heavy.close()
        self.review.close(stop_work=True)

    async def aclose(self) -> None:
        """`close`, then wait until the drawings given up have ended (the bot's shutdown leaves no task pending)."""
        tasks = list(self._tasks)
        self.close()
        await asyncio.gather(*tasks, return_exceptions=True)


_pool = PicturePool()


def cache_dir_beside(database_path: str | Path | None) -> Path | None:
    """Where finished games' pictures are kept: a `pictures` folder beside the SQLite file (None: no such file, as on
    PostgreSQL without one, keeps them in memory only). The bot and the local board keep them alike."""
    return Path(database_path).parent / "pictures" if database_path else None


def configure(workers: int, *, cache_dir: Path | None = None, warm: bool = True) -> PicturePool:
    """Draw in `workers` processes from now on (0: threads), keeping finished games' pictures in `cache_dir`; the
    bot calls it at start. `warm`: start the workers now (the local board, which draws no table, starts them only
    when a picture or a review first needs them)."""
    global _pool
    _pool.close()
    _pool = PicturePool(workers, cache_dir=cache_dir)
    if warm:
        _pool.warm_up()
    return _pool


def current() -> PicturePool:
    return _pool


_after_game: list[Callable[[Any, Any], None]] = []


def when_game_over(handler: Callable[[Any, Any], None]) -> None:
    """Have `handler(service, rec)` called by `game_over` (the post-game review registers itself: cogs/reviews.py)."""
    if handler not in _after_game:
        _after_game.append(handler)


def game_over(service: Any, rec: Any) -> None:
    """The service's one call once a finished game's final table is posted: what follows a game's end starts, in the
    background and at low priority (nothing here waits on it)."""
    for handler in _after_game:
        try:
            handler(service, rec)
        except Exception:
            log.exception("After game %s: %s failed", getattr(rec, "id", "?"), _name(handler))


async def draw(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)` drawn by the bot's picture workers, or None when it cannot be drawn. `priority=`
    (default: a table) and `asker=` (a look's: limited, may raise `PicturesBusy`) go to `PicturePool.draw`."""
    return await _pool.draw(fn, *args, **kwargs)


async def kept(key: str, fn: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes | None:
    """`PicturePool.kept` of the bot's pool."""
    return await _pool.kept(key, fn, *args, **kwargs)


def admitted(priority: Priority | None, asker: Asker | None) -> contextlib.AbstractContextManager[None]:
    """`PicturePool.admitted` of the bot's pool."""
    return _pool.admitted(priority, asker)


async def forget_game(game_id: int) -> int:
    """Drop the kept pictures of a game (`PictureCache.forget_game`) of the bot's pool."""
    return await _pool.cache.forget_game(game_id)


def close() -> None:
    _pool.close()


async def aclose() -> None:
    """`PicturePool.aclose` of the bot's pool."""
    await _pool.aclose()


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", repr(fn))
