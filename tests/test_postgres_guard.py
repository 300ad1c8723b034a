"""The test PostgreSQL server does not outlive its test process: a run killed by `timeout` or a signal (a helper's,
a developer's Ctrl-C twice, CI's limit) used to leave its servers running for hours."""

import os
from pathlib import Path

import pytest

from tests.conftest import PostgresServer, PostgresUnavailable
from tests.killed import kill_hard, project_python, running, wait_until

STARTS_A_SERVER = """
import sys, time
from tests.conftest import PostgresServer
server = PostgresServer.start()
print(server.process.pid, server.folder, flush=True)
time.sleep(3600)
"""


def test_a_killed_test_process_leaves_no_server_running():
    test_process = project_python(STARTS_A_SERVER)
    line = test_process.stdout.readline()  # type: ignore[union-attr]
    if not line:
        test_process.wait()
        error = test_process.stderr.read()  # type: ignore[union-attr]
        if "PostgresUnavailable" in error and os.environ.get("CI", "").lower() not in ("true", "1", "yes"):
            pytest.skip(f"PostgreSQL unavailable: {error.strip().splitlines()[-1]}")
        pytest.fail(f"the server did not start: {error}")
    pid, folder = int(line.split()[0]), Path(line.split()[1])
    assert running(pid) and folder.is_dir()

    kill_hard(test_process)

    wait_until(lambda: not running(pid), f"postgres {pid} still running after its test process was killed")
    wait_until(lambda: not folder.exists(), f"{folder} still there")


def test_a_stopped_server_stops_its_guard_too():
    try:
        server = PostgresServer.start()
    except PostgresUnavailable as error:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            raise
        pytest.skip(f"PostgreSQL unavailable: {error}")
    try:
        assert server.guard is not None and server.guard.poll() is None
    finally:
        server.stop()
    assert server.guard.poll() is not None, "the guard outlived the server it guarded"
    assert not running(server.process.pid)  # type: ignore[union-attr]
