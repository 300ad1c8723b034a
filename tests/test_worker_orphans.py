"""The bot's worker processes do not outlive it: a bot killed with SIGKILL (or by the OOM killer) closes no pool, and
its AI and picture workers used to run on as orphans to the end of their work (one ran for 70 minutes)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

PATIENCE = 60.0  # an upper bound only: a worker ends as soon as it sees its parent gone

# A bot's two kinds of pools, each with a worker busy for an hour; prints the workers' pids.
BUSY_POOLS = """
import concurrent.futures, multiprocessing, time
from cogs import pictures
from engine.ai import pool

spawn = multiprocessing.get_context("spawn")
ai = concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn, initializer=pool._init_worker, initargs=(0,))
drawing = concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn, initializer=pictures._start_worker)
pids = [executor.submit(pool._ready).result() if executor is ai else executor.submit(__import__("os").getpid).result()
        for executor in (ai, drawing)]
for executor in (ai, drawing):
    executor.submit(time.sleep, 3600)
print(*pids, flush=True)
time.sleep(3600)
"""


def running(pid: int) -> bool:
    """Whether `pid` still runs (a zombie waiting for its reaper does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def test_a_killed_bot_leaves_no_worker_running():
    root = Path(__file__).resolve().parent.parent
    bot = subprocess.Popen(
        [sys.executable, "-c", BUSY_POOLS],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = bot.stdout.readline()  # type: ignore[union-attr]
    assert line, f"the pools did not start: {bot.stderr.read()}"  # type: ignore[union-attr]
    workers = [int(pid) for pid in line.split()]
    assert len(workers) == 2 and all(running(pid) for pid in workers)

    bot.send_signal(signal.SIGKILL)
    bot.wait()
    deadline = time.monotonic() + PATIENCE
    while any(running(pid) for pid in workers):
        if time.monotonic() > deadline:
            for pid in workers:  # leave nothing behind, then fail
                if running(pid):
                    os.kill(pid, signal.SIGKILL)
            raise AssertionError(f"workers still running {PATIENCE:.0f} s after their bot was killed: {workers}")
        time.sleep(0.05)
