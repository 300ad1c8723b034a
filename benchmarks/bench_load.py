"""The whole bot under load, through the fake Discord (issue #12 "Measured"): many games at once, people clicking
whole turns, computer players of every level, on SQLite and on PostgreSQL.

    .venv/bin/python benchmarks/bench_load.py [--games 50] [--seconds 10] [--think 0.3] [--hard-seats 2]
                                             [--backends sqlite postgres] [--workers 2] [--picture-workers 2]
                                             [--guilds 4] [--profile FILE]
                                             [--hard-games 20] [--hard-seconds 7] [--no-hard | --only-hard]
                                             [--stub-pictures] [--full] [--boards N [--repeat R]]
                                             [--replay-flood [--flood-burst 70] [--flood-every 1.5] [--flood-games 6]]

Each scenario runs in its own process (a fresh interpreter): a `FakeDiscord` (tests/fakediscord) and the people
who click share that process, and the real `KingdominoBot` runs in a process of its own, as in production
(tests/fakediscord/subprocess_bot.py with `build_bot` below: tests/e2e/process_bot.py's bot plus the bench's probes),
with its AI and picture worker processes under it. `--games` games are opened in separate channels spread over
`--guilds` guilds (`/game new`, Join, Start; each game has people of its own, so no per-member limit refuses them),
then for `--seconds` every game is played at once: the person the table names
clicks a whole turn with `tests/e2e/play.py`'s `play_turn` (pausing about `--think` seconds before each click, as a
person does), computer seats (easy, medium, hard in turn; hard with a 0.05 s budget, except the games of the first
`--hard-seats` hard seats, which think with the bot's real budget) play in the bot's AI pool (`--workers` processes,
AI_WORKERS) or, with `--workers 0`, in threads; pictures are drawn in `--picture-workers` processes (PICTURE_WORKERS;
0: threads of the bot). Measured over the window:

- click to first response: from the fake dispatching INTERACTION_CREATE to the bot's first callback (the
  acknowledgement), for every click, select and command;
- click to new table: from the click that ends a person's turn to the new table message in the channel; apart when
  the next to act is a person and when computer players moved first (then it includes their thinking; the bot
  process tells when each computer move ended, and both processes read the same monotonic clock);
- event-loop lag: how much later than asked an `asyncio.sleep(0.01)` wakes up in the bot's process, sampled all
  along, and the pauses of its garbage collector (each stops the event loop) by generation;
- RSS: VmRSS / VmHWM of the bot's process from /proc/PID/status, and its worker processes' VmRSS; CPU seconds of
  the bot, its workers and the fake over the window;
- interactions that missed Discord's 3 s window: the fake's "late response" and "no response" violations;
- where the time goes in the store: its calls by method (count, mean time including waits) and, on SQLite, how busy
  its writer thread (the writes run there one at a time; reads run on the event loop) is and how long writes wait.

Then (unless `--no-hard`) `--hard-games` games of one person and three `hard` players with the real budget: the lag
while at least 16 hard players think at once, with the pool and with threads. The default run (`make bench`) takes
about 90 s: 50 games on each backend and the two hard runs. `--full` runs 50 and 200 games on both backends and the
hard runs. If PostgreSQL cannot start (tests/conftest.py's `PostgresServer`), that is printed and SQLite goes on.
`--stub-pictures` (for attribution) makes every picture a ready-made PNG; `--profile FILE` writes a cProfile of the
bot's main thread (FILE.<mode>.<backend>.<games>.bot, over the whole run) and of the fake's process (....fake). The
machine's own noise is printed too: the bot's lag while it sat idle for a second before the run.

`--replay-flood` (issue #26) runs each load run again beside one member's flood of private looks: bursts of
`--flood-burst` `/look replay` and `/look chart` at once, every `--flood-every` seconds, over `--flood-games`
finished 7-player Royal Wedding games (each replay about a second of drawing) in the first guild; it prints how the
looks were answered (the picture, "busy") and compares click -> new table with the run without the flood.

Targets, printed beside the figures (a miss prints MISSED; the exit status stays 0): 0 missed interactions; lag p99
< 20 ms while 16 hard players think (pool); click to first response p99 < 100 ms and RSS < 300 MB at 200 games;
with the replay flood, click to new table p99 within 20% of the run without it.

`--boards N` (issue #29) runs each load run again with N open web boards (Server-Sent Events connections, from a
process of their own as browsers would be, each signed in through a player's link) watching the first
`--board-games` games, and compares click to first response (p50, p99, their ratio; target: p99 within 20% of the
run without boards). The bot's board server listens in every run (WEB_PORT: a free port), with or without boards.
With boards it also prints the boards' own work on the bot's event loop, in CPU time (not inflated by other
processes on a shared machine): in all, and per turn of the loop (what a click arriving in that turn waits for);
and how fresh the boards were kept (the bot's push histogram) and where the game states they drew came from (handed
over by the commit path, read from the store). The callbacks are timed in the runs without boards too, so that the
timing costs both runs alike. The comparison says how many clicks each p99 rests on; `--repeat R` runs R pairs
(without, with the boards, alternating) and compares their clicks pooled. Every load run prints the AI pool's queue (the most
decisions waiting in each third of the window, each decision's time computing in a worker by its cost, asked to
answered) and where the slowest tables' time went (their computers' decisions between the click and the table).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import gc
import inspect
import io
import json
import logging
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TOKEN = "fake-token"
TICK = 0.010
SMALL_HARD_BUDGET = 0.05
LEVELS = ("easy", "medium", "hard")
# (game, seats, people): the rest of the seats are computers, of the game's level
MIX = (
    ("kingdomino", 4, 2),
    ("kingdomino", 3, 1),
    ("queendomino", 3, 2),
    ("kingdomino", 2, 1),
    ("kingdomino", 4, 1),
    ("kingdomino", 2, 2),
)
TARGET_ACK_P99_MS = 100.0
TARGET_LAG_P99_MS = 20.0
TARGET_RSS_MB = 300.0
FLOOD_TOLERANCE = 0.20  # click -> table p99 with one member's replay flood, against the run without it
BOARDS_TOLERANCE = 0.20  # click -> first response p99 with the open boards, against the run without them
BOARD_SECRET = "bench-load-board-secret-0123456789abcdef"  # WEB_SECRET of the bench's bot: the boards' links
THINKERS = 16
STALL_SECONDS = 20.0  # no new table for this long: look in the store whether it is one of ours to act
NEXT = re.compile(r"➡️ <@(\d+)>")


# -- figures --------------------------------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def spread(values: list[float]) -> dict:
    return {
        "p50": pct(values, 0.5),
        "p99": pct(values, 0.99),
        "max": max(values, default=float("nan")),
        "n": len(values),
    }


def status_kb(pid: int | str = "self") -> dict[str, int]:
    out = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1])
    return out


def child_pids() -> list[int]:
    pids = []
    for task in Path("/proc/self/task").iterdir():
        with contextlib.suppress(OSError):
            pids += [int(p) for p in (task / "children").read_text().split()]
    return pids


# -- the replay flood (issue #26) -----------------------------------------------------------------------------------
def flood_outcomes(replies: list) -> dict:
    """How the flood's looks were answered: with the picture, "busy", otherwise, or not at all."""
    from i18n import messages as M

    out = {"looks": len(replies), "picture": 0, "busy": 0, "other": 0, "unanswered": 0}
    for reply in replies:
        # the answer: the reply itself ("busy" comes at once), or what replaced "thinking…" (the picture)
        answer = None if isinstance(reply, BaseException) else reply.interaction.original
        if answer is None or answer.loading:
            out["unanswered"] += 1
        elif answer.attachments:
            out["picture"] += 1
        elif M.PICTURES_BUSY in answer.content:
            out["busy"] += 1
        else:
            out["other"] += 1
            examples = out.setdefault("other_examples", [])
            if len(examples) < 3:
                examples.append(answer.content[:120])
    return out


# -- one scenario, in its own process ------------------------------------------------------------------------------
@dataclass
class Spec:
    index: int
    kind: str
    seats: int
    people: list  # FakeUser
    computers: int
    level: str
    channel: object  # FakeChannel
    real_budget: bool = False


@dataclass
class Probe:
    """Hooks on the fake: when each interaction was acknowledged, when each table was posted, clicks' times."""

    loop: asyncio.AbstractEventLoop
    think: float
    rng: random.Random
    measuring: bool = False
    acks: list[float] = field(default_factory=list)
    acked: set[int] = field(default_factory=set)
    interactions: int = 0
    last_click: dict[int, float] = field(default_factory=dict)  # channel id -> loop time of the last dispatch
    tables: dict[int, tuple[object, float]] = field(default_factory=dict)  # channel id -> (message, loop time)
    waiters: dict[int, list[asyncio.Future]] = field(default_factory=dict)
    trimmed: int = 0

    def install(self, fake) -> None:
        new_message, answer, send = fake._new_message, fake._answer, fake.send_interaction

        def on_new_message(channel, author, data, attachments, **kw):
            msg = new_message(channel, author, data, attachments, **kw)
            if any(a.filename == "table.png" for a in attachments):
                self.tables[channel.id] = (msg, self.loop.time())
                for waiter in self.waiters.pop(channel.id, []):
                    if not waiter.done():
                        waiter.set_result(None)
            return msg

        async def on_answer(rec, it):
            if it.id not in self.acked:
                self.acked.add(it.id)
                if self.measuring:
                    self.acks.append((self.loop.time() - it.dispatched_at) * 1000)
            return await answer(rec, it)

        async def on_send(it, *, permissions=None):
            if self.think > 0:  # a person reads the panel before clicking
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            self.interactions += self.measuring
            try:
                return await send(it, permissions=permissions)
            finally:
                self.last_click[it.channel.id] = it.dispatched_at

        fake._new_message, fake._answer, fake.send_interaction = on_new_message, on_answer, on_send

    async def next_table(self, channel_id: int, after_id: int, timeout: float):
        deadline = self.loop.time() + timeout
        while True:
            table = self.tables.get(channel_id)
            if table is not None and table[0].id > after_id:
                return table
            remaining = deadline - self.loop.time()
            if remaining <= 0:
                return None
            waiter = self.loop.create_future()
            self.waiters.setdefault(channel_id, []).append(waiter)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, remaining)

    async def trim_uploads(self, fake) -> None:
        """Drop the fake's copies of uploaded pictures once they are old (the fake keeps every byte otherwise, and it
        shares the bot's process): only their bytes go, the messages and attachments stay."""
        done = 0
        while True:
            await asyncio.sleep(1.0)
            end = len(fake.requests) - 200
            for request in fake.requests[done:end]:
                for upload in request.files:
                    self.trimmed += len(upload.data)
                    upload.data = b""
            done = max(done, end)
            for msg in fake.messages[-5000:-300]:
                for attachment in msg.attachments:
                    attachment.data = b""


class StoreProbe:
    """Counts the store's calls (by method: how many, and their mean time, waits included) and, on SQLite, how long
    write transactions wait for and keep the store's writer thread (db/sqlite.py: the writes run there one at a
    time; reads run on the event loop and are counted in the calls only)."""

    def __init__(self, store, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.calls: dict[str, list[float]] = {}
        self.waits: list[float] = []
        self.holds: list[float] = []
        for name in dir(store):
            method = getattr(store, name)
            if not name.startswith("_") and inspect.iscoroutinefunction(method):
                setattr(store, name, self._counted(name, method))
        writer = getattr(store, "_writer", None)
        if isinstance(writer, concurrent.futures.ThreadPoolExecutor):
            store._writer = self._TimedWriter(self, writer)

    def _counted(self, name, method):
        async def counted(*args, **kwargs):
            began = self.loop.time()
            try:
                return await method(*args, **kwargs)
            finally:
                entry = self.calls.setdefault(name, [0, 0.0])
                entry[0] += 1
                entry[1] += self.loop.time() - began

        return counted

    class _TimedWriter:
        def __init__(self, probe: StoreProbe, writer: concurrent.futures.ThreadPoolExecutor) -> None:
            self.probe, self.writer = probe, writer

        def submit(self, fn, *args):
            asked = time.perf_counter()

            def timed():
                began = time.perf_counter()
                self.probe.waits.append((began - asked) * 1000)
                try:
                    return fn(*args)
                finally:
                    self.probe.holds.append((time.perf_counter() - began) * 1000)

            return self.writer.submit(timed)

        def shutdown(self, *args, **kwargs) -> None:
            self.writer.shutdown(*args, **kwargs)

    def summary(self, seconds: float) -> dict:
        top = sorted(self.calls.items(), key=lambda item: -item[1][0])[:8]
        return {
            "calls": [(name, int(n), total / n * 1000) for name, (n, total) in top],
            "lock_wait_ms": spread(self.waits),
            "lock_busy": sum(self.holds) / 1000 / seconds if seconds > 0 else 0.0,
            "transactions": len(self.holds),
        }


# -- the bot's side: a process of its own, as in production ------------------------------------------------------------
BOT_CONFIG = "KD_BENCH_BOT"  # environment variable: the JSON the scenario gives the bot process (see `build_bot`)


def histogram(metric) -> dict[str, float]:
    """A Prometheus histogram's cumulative buckets (by upper bound), count and sum, as they stand."""
    out = {}
    for family in metric.collect():
        for sample in family.samples:
            if sample.name.endswith("_bucket"):
                out[sample.labels["le"]] = sample.value
            elif sample.name.endswith(("_count", "_sum")):
                out[sample.name.rsplit("_", 1)[1]] = sample.value
    return out


def server_cpu_seconds(server) -> float:
    """CPU seconds of the PostgreSQL server so far: its postmaster's, its children's that ended (cutime, cstime)
    and its live children's (the connections' backends); 0 without a server process."""
    process = getattr(server, "process", None)
    if process is None:
        return 0.0
    total = 0.0
    with contextlib.suppress(OSError, ValueError, IndexError):
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        total = sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        for task in Path(f"/proc/{process.pid}/task").iterdir():
            total += sum(process_cpu_seconds(int(pid)) for pid in (task / "children").read_text().split())
    return total


def counted_by(metric, label: str) -> dict[str, float]:
    """A labelled Prometheus counter's totals by the value of `label`."""
    return {
        sample.labels[label]: sample.value
        for family in metric.collect()
        for sample in family.samples
        if sample.name.endswith("_total")
    }


def process_cpu_seconds(pid: int | str = "self") -> float:
    """User + system CPU seconds of a process so far (/proc/PID/stat), 0 if it is gone."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def time_board_work(loop: asyncio.AbstractEventLoop) -> list[tuple[float, float, int]]:
    """The boards' work on the bot's event loop, in CPU time (not inflated by other processes on the machine): each
    callback run for a board's stream (its request's task, marked through a context variable) is timed, and summed
    per turn of the loop. Returns the list it fills: (monotonic time, CPU ms of board work in that turn, board
    callbacks in it), for every turn with any. A click that arrives waits at most for its turn's board work."""
    import contextvars

    import web.streams

    marked: contextvars.ContextVar[bool] = contextvars.ContextVar("bench_board_work", default=False)
    events = web.streams.Streams.events

    async def marked_events(self, request):
        marked.set(True)
        return await events(self, request)

    web.streams.Streams.events = marked_events  # before the bot builds its board (setup_hook)
    turn = {"cpu": 0.0, "n": 0}
    turns: list[tuple[float, float, int]] = []
    run = asyncio.events.Handle._run

    def timed_run(handle) -> None:
        if not handle._context.get(marked):
            return run(handle)
        began = time.thread_time()
        try:
            return run(handle)
        finally:
            turn["cpu"] += time.thread_time() - began
            turn["n"] += 1

    asyncio.events.Handle._run = timed_run
    run_once = loop._run_once

    def timed_once() -> None:
        turn["cpu"], turn["n"] = 0.0, 0
        run_once()
        if turn["n"]:
            turns.append((time.monotonic(), turn["cpu"] * 1000, turn["n"]))

    loop._run_once = timed_once
    return turns


async def build_bot(stack: contextlib.AsyncExitStack):
    """The bot, built in its own process by tests/fakediscord/subprocess_bot.py (`--factory
    benchmarks.bench_load:build_bot`), exactly as tests/e2e/process_bot.py builds it from the environment, plus the
    bench's probes, configured by the JSON in KD_BENCH_BOT: `people` (player id -> game index), `real` (games whose
    hard seats think with the bot's real budget; the others 0.05 s), `stub_pictures`, `snapshot` (where SIGUSR1
    writes what the bot measured) and `profile` (a cProfile of the bot's main thread, written with the snapshot)."""
    from tests.e2e import process_bot

    bench = json.loads(os.environ[BOT_CONFIG])
    logging.getLogger().setLevel(logging.WARNING)  # errors still reach the scenario (subprocess_bot's ERROR lines)
    profiler = None
    if bench.get("profile"):
        import cProfile

        profiler = cProfile.Profile(time.thread_time)  # CPU time: on a busy machine, wall time counts others' turns
        profiler.enable()
    bot = await process_bot.build(stack)
    loop = asyncio.get_running_loop()
    started = time.monotonic()
    people = {str(k): v for k, v in bench["people"].items()}
    real = set(bench["real"])
    thinking = {"hard": 0, "all": 0}
    moves: list[tuple[int, float]] = []  # (game index, monotonic time) of each computer move
    decisions: list[tuple[int, str, float, float]] = []  # (game index, level, asked, answered): monotonic times
    computed: list[tuple[float, float, float]] = []  # (the decision's cost in the pool's queue, began, ended)
    queue: list[tuple[float, int, int]] = []  # (monotonic time, decisions waiting in the AI pool, running)
    lags: list[tuple[float, float, int]] = []  # (monotonic time, lag ms, hard players thinking)
    busy = {"n": 0}
    setup_hook = bot.setup_hook
    probes: dict = {}

    async def setup_hook_with_probes() -> None:
        await setup_hook()
        service = bot.service
        if bench.get("boards") and bot.board is not None:  # every board comes from one address here
            import web.guard

            web.guard.STREAMS_PER_PERSON = web.guard.STREAMS_PER_ADDRESS = 1 << 20
            bot.board.limits.allow = lambda *_, **__: True
            bot.board.streams.slots.ceiling = 1 << 20
        probes["store"] = StoreProbe(getattr(bot.store, "inner", bot.store), loop)  # under the boards' hub wrapper
        if bench.get("stub_pictures"):  # attribution only: every picture is a ready-made PNG, nothing is drawn
            from PIL import Image

            import cogs.views

            buffer = io.BytesIO()
            Image.new("RGB", (8, 8)).save(buffer, "PNG")
            png = buffer.getvalue()

            async def no_picture(*args, **kwargs):
                return png

            cogs.tables.pictures.draw = no_picture  # the table pictures (cogs.pictures.draw, as the presenter uses)
            cogs.views.kingdom_png = cogs.views.panel_png = no_picture  # the turn panel's pictures

        computer_action, budget = service.computer_action, service.hard_budget

        async def counted_computer_action(game, level, *, key=None, member=None):
            index = next((people[p] for p in game.config.players if p in people), None)
            service.hard_budget = budget if index in real else SMALL_HARD_BUDGET  # read before computer_action awaits
            thinking["all"] += 1
            thinking["hard"] += level == "hard"
            asked = time.monotonic()
            choosing = computer_action(game, level, key=key, member=member)
            del game  # as the service does: nothing keeps the game while the move waits for the pool
            try:
                return await choosing
            except Exception as error:
                busy["n"] += type(error).__name__ == "PoolBusy"
                raise
            finally:
                thinking["all"] -= 1
                thinking["hard"] -= level == "hard"
                if index is not None:
                    moves.append((index, time.monotonic()))
                    decisions.append((index, level, asked, moves[-1][1]))

        service.computer_action = counted_computer_action
        pool = service.ai_pool
        if pool is not None:  # how long each decision computed in a worker (the rest of asked -> answered: queued)
            compute = pool._compute

            async def timed_compute(job):
                began = time.monotonic()
                try:
                    return await compute(job)
                finally:
                    computed.append((job.cost, began, time.monotonic()))

            pool._compute = timed_compute

    bot.setup_hook = setup_hook_with_probes  # type: ignore[method-assign]

    async def sample() -> None:
        n = 0
        while True:
            begin = loop.time()
            await asyncio.sleep(TICK)
            lags.append((begin, (loop.time() - begin - TICK) * 1000, thinking["hard"]))
            n += 1
            pool = getattr(getattr(bot, "service", None), "ai_pool", None)
            if pool is not None and n % 50 == 0:
                queue.append((begin, pool.queued, pool.running))

    sampler = loop.create_task(sample())
    stack.callback(sampler.cancel)
    # the garbage collector's pauses (each stops the event loop): (monotonic time, generation, wall ms, CPU ms)
    collections: list[tuple[float, int, float, float]] = []
    gc_began = {"at": 0.0}

    def time_collections(phase: str, info: dict) -> None:
        if phase == "start":
            gc_began["at"] = time.perf_counter()
            gc_began["cpu"] = time.thread_time()
        else:
            wall, cpu = time.perf_counter() - gc_began["at"], time.thread_time() - gc_began["cpu"]
            collections.append((time.monotonic(), info["generation"], wall * 1000, cpu * 1000))

    gc.callbacks.append(time_collections)
    # in every run, with boards or without: the timing of each callback costs the loop alike in both runs compared
    board_turns = time_board_work(loop)

    def snapshot() -> None:
        from cogs import pictures

        pool = getattr(bot, "service", None) and bot.service.ai_pool
        children = child_pids()
        data = {
            "lags": lags,
            "moves": moves,
            "decisions": decisions,
            "collections": collections,
            "board_turns": board_turns,
            "objects": len(gc.get_objects()),  # the objects a full collection scans (the frozen ones are not)
            "frozen": gc.get_freeze_count(),
            "pool_busy": busy["n"],
            "pool_stats": vars(pool.stats).copy() if pool else None,
            "computed": computed,
            "queue": queue,
            "picture_stats": dict(pictures.current().stats),
            "picture_counts": dict(getattr(pictures.current(), "counts", {})),
            "store": probes["store"].summary(time.monotonic() - started) if "store" in probes else None,
            "board_connections": bot.hub.connections if getattr(bot, "hub", None) is not None else 0,
            "push": histogram(bot.board.metrics.push) if getattr(bot, "board", None) is not None else {},
            "board_snapshots": counted_by(bot.board.metrics.board_reads, "source")
            if hasattr(getattr(getattr(bot, "board", None), "metrics", None), "board_reads")
            else {},
            "rss": status_kb(),
            "workers_rss_mb": [status_kb(pid).get("VmRSS", 0) / 1024 for pid in children],
            "cpu_s": process_cpu_seconds(),
            "workers_cpu_s": sum(process_cpu_seconds(pid) for pid in children),
        }
        if profiler is not None:
            profiler.dump_stats(bench["profile"])  # which stops it: on, for the rest of the run
            profiler.enable()
        path = Path(bench["snapshot"])
        path.with_suffix(".tmp").write_text(json.dumps(data))
        path.with_suffix(".tmp").rename(path)

    loop.add_signal_handler(signal.SIGUSR1, snapshot)
    return bot


async def run_scenario(cfg: dict) -> dict:
    import discord

    from db import open_store
    from tests.e2e import play
    from tests.e2e.saved_games import finished_royal_wedding
    from tests.fakediscord import FakeDiscord
    from tests.fakediscord.drivers import Reply
    from tests.fakediscord.model import ChannelType
    from tests.fakediscord.runner import BotProcess

    logging.basicConfig(level=logging.WARNING, handlers=[logging.NullHandler()])

    wait_message = Reply.wait_message

    async def patient_wait_message(self, *, timeout: float = 30.0):  # under load an answer may take > 2 s
        return await wait_message(self, timeout=timeout)

    Reply.wait_message = patient_wait_message  # type: ignore[method-assign]

    loop = asyncio.get_running_loop()
    hard_mode = cfg["mode"] == "hard"
    fake = FakeDiscord(token=TOKEN)
    await fake.start()
    probe = Probe(loop, cfg["think"], random.Random(cfg["seed"] + 1))
    probe.install(fake)

    # guilds, channels and people, before the bot connects (so each GUILD_CREATE lists them)
    guilds = [fake.guild]
    for g in range(1, cfg["guilds"]):
        guilds.append(await fake.add_guild(f"Load {g}"))
    specs: list[Spec] = []
    hard_real_left = cfg["hard_seats"]
    for i in range(cfg["games"]):
        if hard_mode:
            kind, seats, people, level = "kingdomino", 4, 1, "hard"
        else:
            kind, seats, people = MIX[i % len(MIX)]
            level = LEVELS[(i // len(MIX) + i) % len(LEVELS)]
        computers = seats - people
        guild = guilds[i % len(guilds)]
        name = f"table-{i}"
        channel = fake._add_channel(
            name,
            ChannelType.TEXT,
            guild_id=guild.id,
            position=10 + i,
            guild_label="" if guild is fake.guild else guild.name,
        )
        guild.channels[name] = channel
        users = [fake.add_user(f"g{i}p{j}") for j in range(people)]
        real = hard_mode or (level == "hard" and computers > 0 and hard_real_left > 0)
        if real and not hard_mode:
            hard_real_left -= computers
        specs.append(Spec(i, kind, seats, users, computers, level, channel, real))
    flood = cfg.get("flood")
    flood_channels = []
    flooder = fake.add_user("flooder") if flood else None
    for k in range(flood["games"] if flood else 0):  # each gets a finished 7-player Royal Wedding game
        name = f"finished-{k}"
        channel = fake._add_channel(name, ChannelType.TEXT, guild_id=fake.guild.id, position=5 + k)
        fake.guild.channels[name] = channel
        flood_channels.append(channel)

    # the bot, in a process of its own (tests/fakediscord/subprocess_bot.py), as in production
    folder = Path(tempfile.mkdtemp(prefix="kd-bench-load-"))
    snapshot_path = folder / "bot.json"
    bench = {
        "people": {str(u.id): s.index for s in specs for u in s.people},
        "real": [s.index for s in specs if s.real_budget],
        "stub_pictures": cfg.get("stub_pictures", False),
        "boards": bool(cfg.get("boards")),
        "snapshot": str(snapshot_path),
        "profile": f"{cfg['profile']}.{cfg['mode']}.{cfg['backend']}.{cfg['games']}{'.boards' if cfg.get('boards') else ''}.bot"
        if cfg.get("profile")
        else None,
    }
    env = {
        BOT_CONFIG: json.dumps(bench),
        "DATABASE_PATH": str(folder / "load.sqlite3"),
        "DATABASE_URL": cfg.get("database_url") or "",
        "AI_WORKERS": str(cfg["workers"]),
        "PICTURE_WORKERS": str(cfg.get("picture_workers", 0)),
        "KD_SEEDS": str(cfg["seed"]),
        "LOG_LEVEL": "WARNING",
        "WEB_PORT": str(free_port()),
        "WEB_SECRET": BOARD_SECRET,
    }
    if flood_channels:  # the finished games are saved before the bot starts (its writes would hold the file)
        setup_store = await open_store(folder / "load.sqlite3", cfg.get("database_url"))
        try:
            for k, channel in enumerate(flood_channels):
                seed = cfg["seed"] * 100 + k
                await finished_royal_wedding(
                    setup_store,
                    channel_id=channel.id,
                    guild_id=fake.guild.id,
                    host_id=flooder.id,
                    host_name="Flooder",
                    seed=seed,
                )
        finally:
            await setup_store.close()
    bot = BotProcess(
        fake, "benchmarks.bench_load:build_bot", env=env, sync_commands=True, ready_timeout=60.0, name="bench bot"
    )
    started = time.perf_counter()
    await bot.start()
    bot_started = time.perf_counter() - started
    store = await open_store(folder / "load.sqlite3", cfg.get("database_url"))  # the drivers' look when stuck

    async def bot_snapshot() -> dict:
        """What the bot process measured so far (it writes it on SIGUSR1)."""
        snapshot_path.unlink(missing_ok=True)
        os.kill(bot.pid, signal.SIGUSR1)
        for _ in range(600):
            if snapshot_path.exists():
                return json.loads(snapshot_path.read_text())
            await asyncio.sleep(0.05)
        raise TimeoutError("the bot process wrote no snapshot within 30 s")

    stop = asyncio.Event()
    flood_replies: list = []

    async def flood_looks() -> None:
        """One member's flood of `/look replay` and `/look chart` on the finished games: bursts of `burst` at once,
        one every `every` seconds (issue #26: 70 in 1.5 s)."""
        n = 0
        while not stop.is_set():
            burst = []
            for _ in range(flood["burst"]):
                channel = flood_channels[n % len(flood_channels)]
                what = ("replay", "chart")[(n // len(flood_channels)) % 2]
                burst.append(fake.slash(flooder, channel, "look", what))
                n += 1
            flood_replies.extend(r for r in await asyncio.gather(*burst, return_exceptions=True))
            await asyncio.sleep(flood["every"])

    rss_fake_before = status_kb()
    await asyncio.sleep(1.0)  # the bot connected and idle: the machine's own lag, for comparison
    idle_until = loop.time()
    trimmer = asyncio.create_task(probe.trim_uploads(fake))

    # open every table: /game new, Join, Start
    began = time.perf_counter()
    setup_errors: list[str] = []
    gate = asyncio.Semaphore(cfg["setup_concurrency"])

    async def open_table(spec: Spec):
        async with gate:
            try:
                host, *joiners = spec.people
                options = {"game": spec.kind, "players": spec.seats, "computers": spec.computers}
                if spec.computers:
                    options["computer_level"] = spec.level
                lobby = await play.open_lobby(fake, host, spec.channel, **options)
                for user in joiners:
                    await (await fake.click(user, lobby, "Join")).wait_message()
                return lobby
            except Exception as error:
                setup_errors.append(f"game {spec.index}: {type(error).__name__}: {str(error)[:200]}")
                return None

    async def start(spec: Spec, lobby) -> bool:
        if lobby is None:
            return False
        try:
            await (await fake.click(spec.people[0], lobby, "Start")).wait_message()
            return True
        except Exception as error:
            setup_errors.append(f"game {spec.index}: {type(error).__name__}: {str(error)[:200]}")
            return False

    saved_think, probe.think = probe.think, 0.0
    lobbies = await asyncio.gather(*(open_table(s) for s in specs))
    if hard_mode:  # every host clicks Start at once and the measure starts, as the hard players all begin
        cpu_before, fake_cpu_before = await bot_snapshot(), time.process_time()
        probe.measuring = True
        window_began, window_from = time.perf_counter(), loop.time()
        ok = [lobby is not None for lobby in lobbies]
    else:
        ok = await asyncio.gather(*(start(s, lobby) for s, lobby in zip(specs, lobbies, strict=True)))
    probe.think = saved_think
    setup_seconds = time.perf_counter() - began
    boards = None
    if cfg.get("boards"):  # the open boards, from a process of their own, before the window opens
        watched = [s for s, good in zip(specs, ok, strict=True) if good][: cfg["boards"]["games"]]
        games = []
        for spec in watched:
            rec = await store.get_active_game(spec.channel.id)
            if rec is not None:
                games.append([rec.id, [u.id for u in spec.people]])
        url = f"http://127.0.0.1:{env['WEB_PORT']}/"
        boards = await open_boards({"url": url, "boards": cfg["boards"]["connections"], "games": games})

    # play: every game at once, for the window
    results = {"turns": 0, "finished": 0, "stalls": 0, "errors": []}
    turns: list[tuple[int, float, float]] = []  # (game index, click, new table), loop (monotonic) times

    async def drive(spec: Spec) -> None:
        game_rng = random.Random(cfg["seed"] * 1000 + spec.index)
        people = {u.id: u for u in spec.people}
        ours = {str(u.id) for u in spec.people}
        seen = 0
        waited = None
        while not stop.is_set():
            table = await probe.next_table(spec.channel.id, seen, STALL_SECONDS)
            if table is None:
                if stop.is_set():
                    return
                # No new table for a while (computers still at work, or a turn left half done): act on the latest
                # table only when the store says it is current and one of ours is to act.
                results["stalls"] += 1
                table = probe.tables.get(spec.channel.id)
                rec = await store.get_active_game(spec.channel.id)
                d = rec.game.decision() if rec is not None and rec.game is not None else None
                if table is None or d is None or rec.table_message_id != table[0].id or d.player not in ours:
                    continue
            msg, posted = table
            if waited is not None and msg.id > seen:
                turns.append((spec.index, waited, posted))
            waited = None
            seen = msg.id
            first = msg.content.splitlines()[0] if msg.content else ""
            if "final table" in first:
                results["finished"] += 1
                return
            found = NEXT.search(msg.content)
            if not found or int(found.group(1)) not in people:
                results["errors"].append(f"game {spec.index}: the table names nobody of ours: {first!r}")
                return
            try:
                await play.play_turn(fake, people[int(found.group(1))], spec.channel, game_rng)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                results["errors"].append(f"game {spec.index}: {type(error).__name__}: {str(error)[:160]}")
                waited = None
                await asyncio.sleep(1.0)
                continue  # the next table, or after STALL_SECONDS the latest one again if the store says so
            if probe.measuring:
                results["turns"] += 1
                waited = probe.last_click.get(spec.channel.id, loop.time())

    async def start_and_drive(spec: Spec, lobby) -> None:
        if await start(spec, lobby):
            await drive(spec)

    if hard_mode:
        drivers = [asyncio.create_task(start_and_drive(s, lobby)) for s, lobby in zip(specs, lobbies, strict=True)]
    else:
        cpu_before, fake_cpu_before = await bot_snapshot(), time.process_time()
        probe.measuring = True
        window_began, window_from = time.perf_counter(), loop.time()
        drivers = [asyncio.create_task(drive(s)) for s, good in zip(specs, ok, strict=True) if good]
    flooding = [asyncio.create_task(flood_looks())] if flood else []
    await asyncio.wait(drivers, timeout=max(0.0, cfg["seconds"] - (time.perf_counter() - window_began)))
    probe.measuring = False
    window, window_to = time.perf_counter() - window_began, loop.time()
    measured, fake_cpu = await bot_snapshot(), time.process_time()
    rss_fake = status_kb()
    stop.set()
    boards_seen = await close_boards(boards) if boards is not None else None
    for task in drivers + flooding:
        task.cancel()
    await asyncio.gather(*drivers, *flooding, return_exceptions=True)
    await asyncio.sleep(1.5)  # answers still on their way are checked against the 3 s window
    flood_result = flood_outcomes(flood_replies) if flood else None
    trimmer.cancel()

    violations: dict[str, int] = {}
    for v in fake.violations:
        violations[v.kind] = violations.get(v.kind, 0) + 1
    examples = [str(v)[:300] for v in fake.violations[:3]]
    await store.close()
    with contextlib.suppress(Exception):
        await bot.stop(timeout=20)
    bot_errors = list(bot.logged_errors)
    await fake.stop()
    shutil.rmtree(folder, ignore_errors=True)

    # the bot's figures, over the measured window; a turn's new table came after computers' moves if one of its
    # game's computer players finished a move between the click and the table (both processes read CLOCK_MONOTONIC)
    moves: dict[int, list[float]] = {}
    for index, at in measured["moves"]:
        moves.setdefault(index, []).append(at)
    to_person, after_computers = [], []
    for index, clicked, posted in turns:
        moved = any(clicked < at <= posted for at in moves.get(index, ()))
        (after_computers if moved else to_person).append((posted - clicked) * 1000)
    slowest = [slow_table(specs[index], clicked, posted, measured["decisions"]) for index, clicked, posted in turns]
    slowest = sorted(slowest, key=lambda s: -s["s"])[:6]
    in_window = [q for q in measured.get("queue", []) if window_from <= q[0] <= window_to]
    thirds = [in_window[len(in_window) * k // 3 : len(in_window) * (k + 1) // 3] for k in range(3)]
    computing: dict[str, list[float]] = {}
    for cost, began, ended in measured.get("computed", []):
        if window_from <= began <= window_to:
            computing.setdefault(f"{cost:g}", []).append((ended - began) * 1000)
    asked = [(answered - at) * 1000 for _, _, at, answered in measured["decisions"] if window_from <= at <= window_to]
    ai_queue = {
        "waiting_by_third": [max((q[1] for q in part), default=0) for part in thirds],
        "computing_ms": {cost: spread(times) for cost, times in sorted(computing.items())},
        "asked_to_answered_ms": spread(asked),
    }
    lags = [(lag, n) for at, lag, n in measured["lags"] if window_from <= at <= window_to]
    idle_lags = [lag for at, lag, _ in measured["lags"] if idle_until - 1.0 <= at <= idle_until]
    hard_lags = [lag for lag, n in lags if n >= THINKERS]
    window_collections = [c for c in measured["collections"] if window_from <= c[0] <= window_to]
    board_turns = [(ms, n) for at, ms, n in measured.get("board_turns", []) if window_from <= at <= window_to]
    rss = measured["rss"]
    return {
        "mode": cfg["mode"],
        "backend": cfg["backend"],
        "games": cfg["games"],
        "started_games": sum(ok),
        "guilds": cfg["guilds"],
        "workers": cfg["workers"],
        "people": sum(len(s.people) for s in specs),
        "computers": {lv: sum(s.computers for s in specs if s.level == lv) for lv in LEVELS},
        "real_budget_games": sum(s.real_budget for s in specs),
        "bot_start_s": bot_started,
        "setup_s": setup_seconds,
        "window_s": window,
        "interactions": probe.interactions,
        "ack_ms": spread(probe.acks),
        "acks": probe.acks,  # every click's, for runs pooled (--repeat)
        "table_person_ms": spread(to_person),
        "table_computers_ms": spread(after_computers),
        "lag_ms": spread([lag for lag, _ in lags]),
        "idle_lag_ms": spread(idle_lags),
        "lag_16_hard_ms": spread(hard_lags),
        "gc": {
            str(g): {
                **spread([ms for at, gen, ms, _ in window_collections if gen == g]),
                "cpu_ms": sum(cpu for _, gen, _, cpu in window_collections if gen == g),
            }
            for g in (0, 1, 2)
        },
        "hard_thinking_max": max((n for _, n in lags), default=0),
        "rss_mb": rss.get("VmRSS", 0) / 1024,
        "hwm_mb": rss.get("VmHWM", 0) / 1024,
        "fake_rss_mb": rss_fake.get("VmRSS", 0) / 1024,
        "fake_rss_before_mb": rss_fake_before.get("VmRSS", 0) / 1024,
        "workers_rss_mb": measured["workers_rss_mb"],
        "bot_cpu_s": measured["cpu_s"] - cpu_before["cpu_s"],
        "workers_cpu_s": measured["workers_cpu_s"] - cpu_before["workers_cpu_s"],
        "fake_cpu_s": fake_cpu - fake_cpu_before,
        "trimmed_mb": probe.trimmed / 2**20,
        "violations": violations,
        "violation_examples": examples,
        "missed": violations.get("late response", 0) + violations.get("no response", 0),
        "turns": results["turns"],
        "finished": results["finished"],
        "stalls": results["stalls"],
        "slowest_tables": slowest,
        "ai_queue": ai_queue,
        "driver_errors": results["errors"][:5],
        "driver_error_count": len(results["errors"]),
        "setup_errors": setup_errors[:5],
        "setup_error_count": len(setup_errors),
        "bot_errors": [e[:300] for e in bot_errors[:5]],
        "bot_error_count": len(bot_errors),
        "pool_busy": measured["pool_busy"],
        "pool_stats": measured["pool_stats"],
        "picture_stats": measured["picture_stats"],
        "picture_counts": measured.get("picture_counts"),
        "flood": flood_result,
        "picture_workers": cfg.get("picture_workers", 0),
        "discord": discord.__version__,
        "store": measured["store"],
        "gc_objects": measured["objects"],
        "gc_frozen": measured["frozen"],
        "boards": {
            **cfg["boards"],
            **boards_seen,
            "bot_counted": measured["board_connections"],
            "work_per_turn_ms": spread([ms for ms, _ in board_turns]),
            "work_cpu_s": sum(ms for ms, _ in board_turns) / 1000,
            "callbacks_per_turn": spread([float(n) for _, n in board_turns]),
            "push": {k: v - cpu_before.get("push", {}).get(k, 0.0) for k, v in measured.get("push", {}).items()},
            "snapshots": {
                k: v - cpu_before.get("board_snapshots", {}).get(k, 0.0)
                for k, v in measured.get("board_snapshots", {}).items()
            },
        }
        if boards_seen is not None
        else None,
    }


def slow_table(spec: Spec, clicked: float, posted: float, decisions: list) -> dict:
    """Where the time between a click and its new table went: the game, and its computers' decisions in between
    (each from the service asking to its answer, its wait in the AI pool's queue included)."""
    mine = [(level, asked, answered) for index, level, asked, answered in decisions if index == spec.index]
    between = [(level, asked, answered) for level, asked, answered in mine if clicked < answered <= posted]
    return {
        "s": posted - clicked,
        "game": f"#{spec.index} {spec.kind} {spec.seats} seats, {len(spec.people)} people, {spec.computers} "
        f"{spec.level}{' (real budget)' if spec.real_budget else ''}",
        "decisions": len(between),
        "thinking_s": sum(answered - asked for _, asked, answered in between),
        "longest_s": max((answered - asked for _, asked, answered in between), default=0.0),
        "before_first_s": (between[0][1] - clicked) if between else None,
        "after_last_s": (posted - between[-1][2]) if between else None,
    }


# -- open web boards (--boards) --------------------------------------------------------------------------------------
def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def open_boards(spec: dict) -> asyncio.subprocess.Process:
    """Start the boards' process (`--boards-child`) and wait until every board has its first picture of its game."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(Path(__file__).resolve()),
        "--boards-child",
        json.dumps(spec),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    line = await asyncio.wait_for(proc.stdout.readline(), 120)  # type: ignore[union-attr]
    if not line.startswith(b"READY"):
        raise RuntimeError(f"the boards did not open: {line!r}")
    return proc


async def close_boards(proc: asyncio.subprocess.Process) -> dict:
    """Close the boards (their process ends when its stdin does); what they received while open."""
    proc.stdin.close()  # type: ignore[union-attr]
    out = await asyncio.wait_for(proc.stdout.read(), 60)  # type: ignore[union-attr]
    await proc.wait()
    for line in out.decode().splitlines():
        if line.startswith("BOARDS "):
            return json.loads(line[7:])
    return {"events": 0, "bytes": 0, "dropped": -1}


async def watch_boards(spec: dict) -> dict:
    """`spec["boards"]` live connections spread over `spec["games"]` ([game id, [people]]), each board signed in as
    one of its game's people through a signed link (as a player opens it), reading every event. Prints READY once
    all have their first event, then counts what comes until stdin closes."""
    import aiohttp

    from web import auth

    total = spec["boards"]
    seen = {"events": 0, "bytes": 0, "dropped": 0, "refused": 0}
    first = {"n": 0}
    ready = asyncio.Event()

    async def board(http: aiohttp.ClientSession, gid: int) -> None:
        async with http.get(f"api/games/{gid}/events", timeout=aiohttp.ClientTimeout(total=None)) as r:
            if r.status != 200:
                seen["refused"] += 1
                return
            # Read in chunks, counting the events' starts ("id: " at the start of a line; a chunk may cut one, so
            # the last bytes of each are kept for the next): a remote browser's parsing is not the bot's machine's.
            got_first = False
            tail = b"\n"
            async for chunk in r.content.iter_any():
                text = tail + chunk
                events = text.count(b"\nid: ")
                tail = text[-4:]
                if ready.is_set():
                    seen["bytes"] += len(chunk)
                    seen["events"] += events
                if events and not got_first:
                    got_first = True
                    first["n"] += 1
                    if first["n"] == total:
                        ready.set()
        seen["dropped"] += 1

    sessions, tasks = [], []
    connector = aiohttp.TCPConnector(limit=0)
    try:
        for n in range(total):
            gid, people = spec["games"][n % len(spec["games"])]
            person = people[(n // len(spec["games"])) % len(people)]
            http = aiohttp.ClientSession(
                base_url=spec["url"],
                cookie_jar=aiohttp.CookieJar(unsafe=True),
                connector=connector,
                connector_owner=False,
            )
            sessions.append(http)
            token = auth.link_token(BOARD_SECRET.encode(), person, gid)
            async with http.get(f"join/{token}", allow_redirects=False) as r:
                assert r.status == 302, r.status
            tasks.append(asyncio.create_task(board(http, gid)))
        await asyncio.wait_for(ready.wait(), 120)
        print("READY", flush=True)
        cpu = time.process_time()
        await asyncio.to_thread(sys.stdin.read)  # until the scenario closes our stdin
        seen["cpu_s"] = time.process_time() - cpu
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for http in sessions:
            await http.close()
        await connector.close()
    return seen


# -- the report ------------------------------------------------------------------------------------------------------
def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def fmt(s: dict) -> str:
    if not s["n"]:
        return "(no samples)"
    return f"p50 {s['p50']:7.1f} ms  p99 {s['p99']:7.1f} ms  max {s['max']:7.1f} ms  n={s['n']}"


def report(r: dict, wall: float) -> list[str]:
    """Print one scenario; return the targets it missed."""
    missed = []
    pool = f"AI pool {r['workers']} workers" if r["workers"] else "AI in threads (AI_WORKERS=0)"
    if r["mode"] == "hard":
        title = f"{r['games']} games, 1 person + 3 hard (real budget) each, {r['backend']}, {pool}"
    else:
        title = f"{r['backend']}, {r['games']} games in {r['guilds']} guilds, {pool}"
    print(
        f"\n== {title} ==  (run {wall:.1f} s: bot start {r['bot_start_s']:.1f} s, tables opened in "
        f"{r['setup_s']:.1f} s, measured {r['window_s']:.1f} s)"
    )
    if r["mode"] == "load":
        cpus = ", ".join(f"{n} {lv}" for lv, n in r["computers"].items())
        print(
            f"  {r['started_games']}/{r['games']} games started; {r['people']} people, computers: {cpus} "
            f"({r['real_budget_games']} games' hard seats with the real budget, the others 0.05 s)"
        )
    print(f"  played: {r['turns']} whole turns, {r['interactions']} interactions, {r['finished']} games finished")
    ack = r["ack_ms"]
    ack_ok = ack["n"] > 0 and ack["p99"] < TARGET_ACK_P99_MS
    at = "" if r["games"] >= 200 and r["mode"] == "load" else " (the target is for 200 games)"
    print(f"  click -> first response        {fmt(ack)}   target p99 < {TARGET_ACK_P99_MS:g} ms{at}: {verdict(ack_ok)}")
    if r["games"] >= 200 and r["mode"] == "load" and not ack_ok:
        missed.append(f"click->first response p99 at {r['games']} games ({r['backend']})")
    print(f"  click -> new table, a person next        {fmt(r['table_person_ms'])}")
    print(f"  click -> new table, computers moved first {fmt(r['table_computers_ms'])}")
    print(f"  event-loop lag (sleep 0.01 overshoot)    {fmt(r['lag_ms'])}")
    print(f"    the same, bot idle for 1 s before     {fmt(r['idle_lag_ms'])}  (the machine's own noise)")
    for generation, pauses in r["gc"].items():
        if pauses["n"]:
            print(
                f"    its garbage collections, generation {generation}  {fmt(pauses)}  (CPU {pauses['cpu_ms']:.0f} ms)"
            )
    print(
        f"    objects a full collection scans at the end: {r['gc_objects']:,} (frozen at start, never scanned: "
        f"{r['gc_frozen']:,})"
    )
    if r["mode"] == "hard":
        lag16 = r["lag_16_hard_ms"]
        good = lag16["n"] > 0 and lag16["p99"] < TARGET_LAG_P99_MS
        print(
            f"  lag while >= {THINKERS} hard think at once  {fmt(lag16)}   (at most {r['hard_thinking_max']} at once)"
            f"   target p99 < {TARGET_LAG_P99_MS:g} ms with the pool: "
            f"{verdict(good) if r['workers'] else 'n/a (threads: for comparison)'}"
        )
        if r["workers"] and not good:
            missed.append(f"lag p99 while {THINKERS} hard think ({r['backend']}, pool)")
    workers = r["workers_rss_mb"]
    rss_ok = r["rss_mb"] < TARGET_RSS_MB
    print(
        f"  RSS of the bot process {r['rss_mb']:.0f} MB, peak {r['hwm_mb']:.0f} MB; its worker processes: "
        f"{', '.join(f'{w:.0f}' for w in workers) or 'none'} MB"
    )
    seconds = r["window_s"] or 1.0
    print(
        f"  CPU over the window: the bot process {r['bot_cpu_s']:.1f} s ({r['bot_cpu_s'] / seconds:.0%} of a core), "
        f"its workers {r['workers_cpu_s']:.1f} s, the fake Discord and the people {r['fake_cpu_s']:.1f} s "
        f"(its RSS {r['fake_rss_mb']:.0f} MB, {r['fake_rss_before_mb']:.0f} before the games; uploads dropped "
        f"{r['trimmed_mb']:.0f} MB)"
    )
    if r.get("pg_cpu_s") is not None:
        print(f"    the PostgreSQL server's CPU over the whole run (set-up, window, end): {r['pg_cpu_s']:.1f} s")
    if r["mode"] == "load":
        print(
            f"    target RSS < {TARGET_RSS_MB:g} MB{'' if r['games'] >= 200 else ' (for 200 games)'}: {verdict(rss_ok)}"
        )
        if r["games"] >= 200 and not rss_ok:
            missed.append(f"RSS at {r['games']} games ({r['backend']})")
    others = {k: v for k, v in r["violations"].items() if k not in ("late response", "no response")}
    print(
        f"  interactions that missed the 3 s window: {r['missed']} (late {r['violations'].get('late response', 0)}, "
        f"no response {r['violations'].get('no response', 0)})   target 0: {verdict(r['missed'] == 0)}"
    )
    if r["missed"]:
        missed.append(f"{r['missed']} interactions missed the 3 s window ({r['backend']}, {r['games']} games)")
    if others:
        print(f"  other violations: {others}")
    for example in r["violation_examples"]:
        print(f"    e.g. {example}")
    st = r["store"]
    calls = ", ".join(f"{name} {n} ({mean:.0f} ms)" for name, n, mean in st["calls"])
    print(f"  store calls from the bot's start (count, mean time with waits): {calls}")
    if st["transactions"]:
        print(
            f"  SQLite's writer thread: {st['transactions']} write transactions, busy {st['lock_busy']:.0%} of the time; "
            f"waits for it {fmt(st['lock_wait_ms'])}"
        )
    if r["pool_stats"] is not None:
        print(f"  AI pool: {r['pool_stats']}")
        q = r["ai_queue"]
        print(
            f"    decisions waiting in its queue, the most in each third of the window: {q['waiting_by_third']}; "
            f"a decision asked to answered {fmt(q['asked_to_answered_ms'])}"
        )
        for cost, times in q["computing_ms"].items():
            print(f"    computing in a worker, decisions that cost {cost} s of its share  {fmt(times)}")
    where = f"{r['picture_workers']} worker processes" if r["picture_workers"] else "threads (PICTURE_WORKERS=0)"
    print(f"  pictures drawn in {where}: {r['picture_stats']}; started by priority, kept, busy: {r['picture_counts']}")
    if r["flood"]:
        print(f"  the replay flood (one member): {r['flood']}")
    if r.get("boards"):
        b = r["boards"]
        print(
            f"  open boards: {b['connections']} live connections on {b['games']} games (the bot counted "
            f"{b['bot_counted']}); over the window they received {b['events']} updates, {b['bytes'] / 2**20:.1f} MB; "
            f"refused {b['refused']}, dropped {b['dropped']}; the boards' process used {b.get('cpu_s', 0):.1f} s of CPU"
        )
        if b.get("work_per_turn_ms", {}).get("n"):
            print(
                f"    the boards' work on the bot's event loop: {b['work_cpu_s']:.2f} s of CPU in the window; in each "
                f"turn of the loop that had any (CPU time, what a click arriving then waits for)  "
                f"{fmt(b['work_per_turn_ms'])}; callbacks in such a turn p50 {b['callbacks_per_turn']['p50']:.0f} "
                f"p99 {b['callbacks_per_turn']['p99']:.0f} max {b['callbacks_per_turn']['max']:.0f}"
            )
        sources = b.get("snapshots") or {}
        if sources:
            print(
                f"    the games' new states the boards drew: {sources.get('handed', 0):.0f} handed over by the commit "
                f"path, {sources.get('store', 0):.0f} read from the store"
            )
        push = b.get("push") or {}
        if push.get("count"):
            within = ", ".join(f"{float(le):g} s {push[le] / push['count']:.0%}" for le in ("0.1", "0.25", "1.0"))
            print(
                f"    the bot's board updates (a game's change to its new state written to a board): {push['count']:.0f}, "
                f"mean {push['sum'] / push['count'] * 1000:.0f} ms; within {within}"
            )
    problems = [
        ("games that could not be opened", r["setup_error_count"], r["setup_errors"]),
        ("turns that failed in the driver", r["driver_error_count"], r["driver_errors"]),
        ("errors the bot logged", r["bot_error_count"], r["bot_errors"]),
    ]
    for label, count, examples in problems:
        if count:
            print(f"  {label}: {count}")
            for example in examples[:3]:
                print(f"    e.g. {example}")
    if r["stalls"]:
        print(f"  tables that did not come within {STALL_SECONDS:g} s: {r['stalls']}")
    for slow in r.get("slowest_tables", [])[:3]:
        first, last = slow["before_first_s"], slow["after_last_s"]
        gaps = f", click to the first ask {first:.1f} s, last answer to table {last:.1f} s" if first is not None else ""
        print(
            f"  a slow table: {slow['s']:.1f} s in game {slow['game']}: {slow['decisions']} computer decisions "
            f"between, {slow['thinking_s']:.1f} s asked to answered (longest {slow['longest_s']:.1f} s){gaps}"
        )
    return missed


def compare_flood(quiet: dict, flooded: dict) -> list[str]:
    """Click to new table with and without the replay flood: p99 within FLOOD_TOLERANCE. Returns what missed."""
    missed = []
    print(f"\n== the replay flood beside {quiet['games']} games ({quiet['backend']}): click -> new table, p99 ==")
    for label, key in (("a person next", "table_person_ms"), ("computers moved first", "table_computers_ms")):
        before, during = quiet[key]["p99"], flooded[key]["p99"]
        ratio = during / before if before and before == before and during == during else float("nan")
        good = ratio <= 1 + FLOOD_TOLERANCE
        print(
            f"  {label:22} without {before:7.1f} ms  with the flood {during:7.1f} ms  ({ratio:.2f}x)"
            f"   target within {FLOOD_TOLERANCE:.0%}: {verdict(good)}"
        )
        if not good:
            missed.append(f"click->table p99 ({label}) with the replay flood, {quiet['games']} games")
    return missed


def tail_count(n: int) -> int:
    """How many of `n` samples are at or above their p99 (`pct`): what the p99 rests on."""
    return n - max(1, math.ceil(0.99 * n)) + 1 if n else 0


def pooled(runs: list[dict]) -> dict:
    """Runs of the same scenario taken as one: their clicks' first responses pooled (and the boards' figures, the
    CPU and the interactions summed), for a p99 that rests on more clicks."""
    out = {**runs[0], "ack_ms": spread([a for r in runs for a in r["acks"]])}
    for key in ("bot_cpu_s", "workers_cpu_s", "fake_cpu_s", "window_s", "interactions", "turns"):
        out[key] = sum(r[key] for r in runs)
    if all(r.get("pg_cpu_s") is not None for r in runs):
        out["pg_cpu_s"] = sum(r["pg_cpu_s"] for r in runs)
    if runs[0].get("boards"):
        out["boards"] = {**runs[0]["boards"], "work_cpu_s": sum(r["boards"]["work_cpu_s"] for r in runs)}
    return out


def repeat_boards(quiet: dict, watched: dict, cfg: dict, repeat: int, server) -> tuple[dict, dict]:
    """`repeat` - 1 more pairs of runs, without then with the boards (alternating, so that the machine's drift
    falls on both alike), each pair's p99 printed; returns the runs of each kind pooled (`pooled`)."""
    quiets, watcheds = [quiet], [watched]
    for n in range(2, repeat + 1):
        for boards, runs in ((None, quiets), (cfg["boards"], watcheds)):
            run_cfg = {**cfg, "boards": boards}
            if cfg["backend"] == "postgres":
                run_cfg["database_url"] = asyncio.run(new_database(server))
            done, _ = run_child(run_cfg, server)
            if done is not None:
                runs.append(done)
        q, w = quiets[-1]["ack_ms"], watcheds[-1]["ack_ms"]
        print(
            f"\n  pair {n}/{repeat} ({cfg['backend']}, load average {os.getloadavg()[0]:.1f}): click -> first response "
            f"p99 without boards {q['p99']:.1f} ms (n={q['n']}, bot CPU {quiets[-1]['bot_cpu_s']:.1f} s), with "
            f"{w['p99']:.1f} ms (n={w['n']}, bot CPU {watcheds[-1]['bot_cpu_s']:.1f} s, the boards' work "
            f"{watcheds[-1]['boards']['work_cpu_s']:.2f} s; PostgreSQL {quiets[-1].get('pg_cpu_s', 0):.1f} and "
            f"{watcheds[-1].get('pg_cpu_s', 0):.1f} s)"
        )
    print(
        f"\n  {len(quiets)} runs without boards and {len(watcheds)} with, pooled: bot CPU {sum_of(quiets, 'bot_cpu_s'):.1f}"
        f" s and {sum_of(watcheds, 'bot_cpu_s'):.1f} s over {sum_of(quiets, 'window_s'):.0f} s and "
        f"{sum_of(watcheds, 'window_s'):.0f} s of windows"
    )
    return pooled(quiets), pooled(watcheds)


def sum_of(runs: list[dict], key: str) -> float:
    return sum(r[key] for r in runs)


def compare_boards(quiet: dict, watched: dict) -> list[str]:
    """Click to first response with and without the open boards: p99 within BOARDS_TOLERANCE. Returns what missed."""
    b = watched["boards"]
    print(
        f"\n== {b['connections']} open boards watching {b['games']} games beside {quiet['games']} games "
        f"({quiet['backend']}): click -> first response =="
    )
    before, during = quiet["ack_ms"], watched["ack_ms"]
    for key in ("p50", "p99"):
        ratio = during[key] / before[key] if before[key] else float("nan")
        line = f"  {key}  without boards {before[key]:7.1f} ms  with boards {during[key]:7.1f} ms  ({ratio:.2f}x)"
        if key == "p99":
            good = ratio <= 1 + BOARDS_TOLERANCE
            line += f"   target within {BOARDS_TOLERANCE:.0%}: {verdict(good)}"
        print(line)
    print(
        f"  clicks: {before['n']} without boards, {during['n']} with; each p99 is the slowest "
        f"{tail_count(before['n'])} and {tail_count(during['n'])} of them"
    )
    for label, r in (("without boards", quiet), ("with boards", watched)):
        per = r["bot_cpu_s"] / r["interactions"] * 1000 if r["interactions"] else float("nan")
        pg = (
            f"; the PostgreSQL server {r['pg_cpu_s']:.1f} s over the whole runs"
            if r.get("pg_cpu_s") is not None
            else ""
        )
        print(
            f"  CPU {label}: the bot {r['bot_cpu_s']:.1f} s in {r['window_s']:.0f} s of window, {per:.1f} ms per "
            f"interaction ({r['interactions']}){pg}"
        )
    p99 = during["p99"] / before["p99"] if before["p99"] else float("nan")
    return [] if p99 <= 1 + BOARDS_TOLERANCE else [f"click->first response p99 with open boards ({quiet['backend']})"]


# -- the orchestra: PostgreSQL, one process per scenario ----------------------------------------------------------
def start_postgres():
    from tests.conftest import PostgresServer, PostgresUnavailable

    try:
        return PostgresServer.start(), None
    except (PostgresUnavailable, OSError, subprocess.SubprocessError) as error:
        return None, str(error).splitlines()[0]


async def new_database(server) -> str:
    from tests.conftest import DatabaseFactory

    return await DatabaseFactory(server).create()


def run_child(cfg: dict, server=None) -> tuple[dict | None, float]:
    """One scenario in a process of its own; with the PostgreSQL `server`, its CPU over the scenario (setup and
    window) is added to the result (`pg_cpu_s`)."""
    began = time.perf_counter()
    pg_before = server_cpu_seconds(server) if cfg["backend"] == "postgres" else 0.0
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(cfg)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        timeout=cfg["seconds"] + 600,
    )
    wall = time.perf_counter() - began
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[7:])
            if server is not None and cfg["backend"] == "postgres":
                result["pg_cpu_s"] = server_cpu_seconds(server) - pg_before
            return result, wall
    print(f"\n!! the scenario {cfg['backend']} {cfg['games']} games failed (exit {proc.returncode}):")
    print("\n".join(proc.stdout.splitlines()[-20:]))
    return None, wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=None, help="games at once (default 50; --full: 50 200)")
    parser.add_argument("--seconds", type=float, default=None, help="the measured window (default 10; --full 30)")
    parser.add_argument("--think", type=float, default=0.3, help="a person's mean pause before each click (s)")
    parser.add_argument("--hard-seats", type=int, default=2, help="hard seats that think with the real budget")
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"], choices=["sqlite", "postgres"])
    parser.add_argument("--workers", type=int, default=2, help="AI_WORKERS for the load runs (0: threads)")
    parser.add_argument(
        "--profile", metavar="FILE", help="write a cProfile of each scenario's process to FILE.<mode>.<backend>.<games>"
    )
    parser.add_argument(
        "--picture-workers", type=int, default=2, help="PICTURE_WORKERS for every run (0: threads of the bot)"
    )
    parser.add_argument("--guilds", type=int, default=4)
    parser.add_argument("--hard-games", type=int, default=20, help="games in the hard run (>= 16)")
    parser.add_argument("--hard-seconds", type=float, default=7.0)
    parser.add_argument("--no-hard", action="store_true", help="skip the runs with 16 hard players thinking")
    parser.add_argument("--only-hard", action="store_true", help="only the runs with 16 hard players thinking")
    parser.add_argument("--full", action="store_true", help="50 and 200 games on both backends, and the hard runs")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument(
        "--stub-pictures", action="store_true", help="for attribution: the bot draws no picture (a ready-made PNG)"
    )
    parser.add_argument(
        "--replay-flood",
        action="store_true",
        help="after each load run, the same run beside one member's /look replay and chart flood, compared",
    )
    parser.add_argument("--flood-burst", type=int, default=70, help="looks in each burst of the flood")
    parser.add_argument("--flood-every", type=float, default=1.5, help="seconds between the flood's bursts")
    parser.add_argument("--flood-games", type=int, default=6, help="finished 7-player games the flood looks at")
    parser.add_argument(
        "--boards", type=int, default=0, help="after each load run, the same run with this many open web boards"
    )
    parser.add_argument("--board-games", type=int, default=50, help="games the open boards watch (default 50)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="with --boards: this many pairs of runs (without, with the boards, alternating), their clicks pooled",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--boards-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.boards_child:
        seen = asyncio.run(watch_boards(json.loads(args.boards_child)))
        print("BOARDS " + json.dumps(seen), flush=True)
        return 0

    if args.child:
        cfg = json.loads(args.child)
        if cfg.get("profile"):  # where the bot's process spends its CPU: a cProfile of the whole scenario
            import cProfile

            profiler = cProfile.Profile()
            result = profiler.runcall(asyncio.run, run_scenario(cfg))
            profiler.dump_stats(f"{cfg['profile']}.{cfg['mode']}.{cfg['backend']}.{cfg['games']}.fake")
        else:
            result = asyncio.run(run_scenario(cfg))
        print("RESULT " + json.dumps(result), flush=True)
        return 0

    games = args.games or ([50, 200] if args.full else [50])
    seconds = args.seconds or (30.0 if args.full else 10.0)
    began = time.perf_counter()
    print(
        f"bench_load: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; games {games} for "
        f"{seconds:g} s each on {', '.join(args.backends)}; a person pauses ~{args.think:g} s before a click"
    )
    server, why = (None, None)
    if "postgres" in args.backends:
        server, why = start_postgres()
        if server is None:
            print(f"PostgreSQL could not start ({why}): going on with SQLite only")
        else:
            print(f"PostgreSQL started in {server.started_in:.1f} s")
    base = {
        "mode": "load",
        "think": args.think,
        "hard_seats": args.hard_seats,
        "guilds": args.guilds,
        "seed": args.seed,
        "seconds": seconds,
        "setup_concurrency": 8,
        "stub_pictures": args.stub_pictures,
        "picture_workers": args.picture_workers,
        "profile": args.profile,
    }
    missed: list[str] = []
    try:
        for n in [] if args.only_hard else games:
            for backend in args.backends:
                if backend == "postgres" and server is None:
                    continue
                cfg = {**base, "backend": backend, "games": n, "workers": args.workers}
                if backend == "postgres":
                    cfg["database_url"] = asyncio.run(new_database(server))
                result, wall = run_child(cfg, server)
                if result is None:
                    missed.append(f"the {backend} run with {n} games did not finish")
                else:
                    missed += report(result, wall)
                if args.replay_flood:
                    flood = {"games": args.flood_games, "burst": args.flood_burst, "every": args.flood_every}
                    cfg = {**cfg, "flood": flood}
                    if backend == "postgres":
                        cfg["database_url"] = asyncio.run(new_database(server))
                    flooded, wall = run_child(cfg)
                    if flooded is None:
                        missed.append(f"the {backend} run with {n} games and the replay flood did not finish")
                    else:
                        missed += report(flooded, wall)
                        if result is not None:
                            missed += compare_flood(result, flooded)
                if args.boards:
                    cfg = {**cfg, "flood": None, "boards": {"connections": args.boards, "games": args.board_games}}
                    if backend == "postgres":
                        cfg["database_url"] = asyncio.run(new_database(server))
                    watched, wall = run_child(cfg, server)
                    if watched is None:
                        missed.append(f"the {backend} run with {n} games and {args.boards} open boards did not finish")
                    else:
                        missed += report(watched, wall)
                        if result is not None and args.repeat > 1:
                            result, watched = repeat_boards(result, watched, cfg, args.repeat, server)
                        if result is not None:
                            missed += compare_boards(result, watched)
        if not args.no_hard:
            for workers in (2, 0):
                cfg = {
                    **base,
                    "mode": "hard",
                    "backend": "sqlite",
                    "games": max(THINKERS, args.hard_games),
                    "guilds": 1,
                    "workers": workers,
                    "think": 0.0,
                    "seconds": args.hard_seconds,
                }
                result, wall = run_child(cfg)
                if result is None:
                    missed.append(f"the hard run ({workers} workers) did not finish")
                else:
                    missed += report(result, wall)
    finally:
        if server is not None:
            server.stop()
    print(f"\nbench_load took {time.perf_counter() - began:.0f} s")
    if missed:
        print("MISSED: " + "; ".join(missed))
    else:
        print("every target met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
