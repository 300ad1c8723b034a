"""A Python process of the project's, killed as `timeout -s KILL` or the OOM killer would (no finalizer, no atexit),
and the wait for what it left behind to go: tests/test_postgres_guard.py, tests/test_worker_orphans.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

PATIENCE = 60.0  # an upper bound only: what the process left ends as soon as it sees the process gone
ROOT = Path(__file__).resolve().parent.parent


def project_python(code: str) -> subprocess.Popen:
    """`code` run by this Python in the project's folder, its output read through pipes (text)."""
    return subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def kill_hard(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()


def running(pid: int) -> bool:
    """Whether `pid` still runs (a zombie waiting for its reaper does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"still waiting after {PATIENCE:.0f} s: {what}"
        time.sleep(0.05)
