"""The bot's worker processes do not outlive it: a bot killed with SIGKILL (or by the OOM killer) closes no pool, and
its AI and picture workers used to run on as orphans to the end of their work (one ran for 70 minutes)."""

import os
import signal

from tests.killed import kill_hard, project_python, running, wait_until

# A bot's two kinds of pools, each with a worker busy for an hour; prints the workers' pids.
BUSY_POOLS = """
import concurrent.futures, multiprocessing, os, time
from cogs import pictures
from engine.ai import pool

spawn = multiprocessing.get_context("spawn")
ai = concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn, initializer=pool._init_worker, initargs=(0,))
drawing = concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn, initializer=pictures._start_worker)
pids = [executor.submit(os.getpid).result() for executor in (ai, drawing)]  # each worker started
for executor in (ai, drawing):
    executor.submit(time.sleep, 3600)
print(*pids, flush=True)
time.sleep(3600)
"""


def test_a_killed_bot_leaves_no_worker_running():
    bot = project_python(BUSY_POOLS)
    line = bot.stdout.readline()  # type: ignore[union-attr]
    assert line, f"the pools did not start: {bot.stderr.read()}"  # type: ignore[union-attr]
    workers = [int(pid) for pid in line.split()]
    assert len(workers) == 2 and all(running(pid) for pid in workers)

    kill_hard(bot)
    try:
        wait_until(lambda: not any(running(pid) for pid in workers), f"workers {workers} outlived their killed bot")
    finally:
        for pid in filter(running, workers):  # leave nothing behind when it fails
            os.kill(pid, signal.SIGKILL)
