"""Fixtures for every test suite: a PostgreSQL server the tests start themselves, and a fresh database per test.

    postgres_server        (session) the running server: `admin_url`, `url(name)`, `started_in` (seconds)
    pg_database_factory    an async callable giving the URL of a new empty database each call; all dropped after
    pg_url                 the URL of one new empty database (postgresql://postgres@127.0.0.1:PORT/test_N)

The server is the one the `pgserver` test dependency ships (else a system PostgreSQL: `pg_ctl` on the PATH or
/usr/lib/postgresql/*/bin; `KD_POSTGRES_BIN` may name the folder), in a temporary folder, on a free local port,
with fsync off: fast and throwaway. `KD_TEST_POSTGRES_URL` (a superuser URL) uses a server already running instead.
When no server can be started the tests that need one are skipped, except under CI (CI=true) where they fail.

In parallel runs (pytest-xdist; `make test` runs `-n auto`: two workers per core) each worker process starts its
own server and names its databases after its pid, and the longest tests are handed out first (`longest_first`).
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import itertools
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, settings

START_TIMEOUT = 60.0

# Property tests judge what an example does, never how fast: hypothesis's per-example deadline (200 ms) and its
# too-slow health check measure the clock, which a busy machine stretches. Tests' own @settings inherit this.
settings.register_profile("kd", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("kd")


class SearchClock:
    """A clock for the computer players' search (`engine.ai.search.time`): each reading moves it on by `step` seconds
    (a busy or a very slow machine; 0: a clock that never moves)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture(autouse=True)
def computers_clock_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer players' clock never moves in the tests. Their effort is counted in work units and the clock is
    only a safety stop (30 times the budget), which a starved test process could reach on a busy machine, cutting a
    search short and changing its move. Frozen, the moves depend on the work alone, as the tests assume; the tests of
    the safety stop set their own `SearchClock`."""
    from engine.ai import search

    monkeypatch.setattr(search, "time", SearchClock(0.0))


# How long each test takes, to hand the longest out first in a parallel run: what the last runs measured (each run
# keeps its tests' durations in pytest's cache, .pytest_cache), else DURATIONS_FILE (the tests over 1 s of a whole
# run on the 2-core machine, 2026-12-04 20:32-20:46 UTC, at a load of 5-8, so about twice their time on an idle one).
# Only the order changes, never which tests run (but with `--fast`: make test-fast leaves those out).
DURATIONS_FILE = Path(__file__).with_name("durations.json")
DURATIONS_CACHE = "kd/durations"
SLOW = 1.0  # seconds: slower tests go first, longest first; the others keep their order (modules stay together)
_DURATIONS = pytest.StashKey[dict[str, float]]()
_measured: dict[str, float] | None = None  # this run's durations, in the process that reports the run


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two workers per core, at most 8. The tests wait about half of their time (for the fake Discord,
    bot processes, the database), so two per core keep the cores busy."""
    return min(8, 2 * (os.cpu_count() or 1))


def pytest_configure(config: pytest.Config) -> None:
    """Bytecode caches on for the run (PYTHONDONTWRITEBYTECODE may turn them off): without them every worker
    process compiles the project and rewrites every test module's asserts again, seconds of CPU each."""
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the bot processes, picture and computer workers too


def known_durations(config: pytest.Config) -> dict[str, float]:
    """Seconds per test id: the committed file, overridden by what the cache measured since."""
    if _DURATIONS not in config.stash:
        known: dict[str, float] = {}
        with contextlib.suppress(OSError, ValueError):
            known.update(json.loads(DURATIONS_FILE.read_text()))
        cache = getattr(config, "cache", None)
        cached = cache.get(DURATIONS_CACHE, None) if cache is not None else None
        if isinstance(cached, dict):
            known.update(cached)
        config.stash[_DURATIONS] = known
    return config.stash[_DURATIONS]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist (controller): every worker gets the same durations, so all of them sort the tests alike."""
    node.workerinput["kd_durations"] = known_durations(node.config)


FAST_LIMIT = 1.0  # seconds: `make test-fast` leaves out the tests DURATIONS_FILE knows to take this long or longer
BROWSER_FIXTURES = {"browser", "open_page"}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fast",
        action="store_true",
        help="the tests a change most likely breaks, in about two minutes: leaves out the ones in tests/durations.json "
        f"({FAST_LIMIT:g} s or more on the 2-core machine), the browser tests and those marked slow",
    )


def fast_selection(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`--fast`: drop the long tests (the committed durations, so that every run and every worker drops the same),
    the ones that drive Chromium and the whole-game property tests marked slow."""
    known: dict[str, float] = {}
    with contextlib.suppress(OSError, ValueError):
        known.update(json.loads(DURATIONS_FILE.read_text()))
    dropped = [
        item
        for item in items
        if known.get(item.nodeid, 0.0) >= FAST_LIMIT
        or BROWSER_FIXTURES & set(getattr(item, "fixturenames", ()))
        or item.get_closest_marker("slow") is not None
    ]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        gone = {id(item) for item in dropped}
        items[:] = [item for item in items if id(item) not in gone]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`--fast`: only the quick tests (`fast_selection`). In a pytest-xdist worker, the slow tests first, longest
    first; the others after them in their usual order.
    `--maxschedchunk 1` (make test): xdist hands each worker two tests at the start, then one more each time one
    ends, so the first rounds pair each of the longest tests with a quick one: the longest start at once, on
    different workers."""
    if config.getoption("--fast", False):
        fast_selection(config, items)
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:
        return
    items[:] = longest_first(items, workerinput.get("kd_durations") or {}, int(workerinput.get("workercount", 1)))


def longest_first(items: list[pytest.Item], durations: dict[str, float], workers: int) -> list[pytest.Item]:
    """`items` reordered: those that took at least SLOW seconds first, longest first, the first `workers` of them
    each followed by a quick one; then the quick ones in their order. A test not measured yet counts as quick."""
    slow = sorted((i for i in items if durations.get(i.nodeid, 0.0) >= SLOW), key=lambda i: -durations[i.nodeid])
    quick = [i for i in items if durations.get(i.nodeid, 0.0) < SLOW]
    pairs = min(workers, len(slow), len(quick))
    head = [item for n in range(pairs) for item in (slow[n], quick[n])]
    return head + slow[pairs:] + quick[pairs:]


def pytest_sessionstart(session: pytest.Session) -> None:
    global _measured
    _measured = None if hasattr(session.config, "workerinput") else {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Measure each test (set-up, call and tear-down) where the run is reported: the controller, or a plain run."""
    if _measured is not None and not report.skipped:
        _measured[report.nodeid] = _measured.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Keep the durations measured for the next run's order."""
    cache = getattr(session.config, "cache", None)
    if not _measured or cache is None:
        return
    kept = cache.get(DURATIONS_CACHE, None)
    kept = kept if isinstance(kept, dict) else {}
    kept.update({nodeid: round(seconds, 2) for nodeid, seconds in _measured.items()})
    cache.set(DURATIONS_CACHE, kept)


class PostgresUnavailable(Exception):
    pass


def _binary_folders() -> list[Path]:
    folders: list[Path] = []
    if os.environ.get("KD_POSTGRES_BIN"):
        folders.append(Path(os.environ["KD_POSTGRES_BIN"]))
    spec = importlib.util.find_spec("pgserver")
    if spec is not None and spec.origin is not None:
        folders.append(Path(spec.origin).parent / "pginstall" / "bin")
    on_path = shutil.which("pg_ctl")
    if on_path:
        folders.append(Path(on_path).resolve().parent)
    folders += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    return [f for f in folders if (f / "postgres").is_file() and (f / "initdb").is_file()]


def _reachable_by(binaries: Path, folder: Path, run_as: dict[str, object]) -> Path:
    """`binaries`, or a copy of their installation inside `folder` when the user in `run_as` cannot reach them (a
    virtual environment under /root, say)."""
    try:
        probe = subprocess.run(
            [str(binaries / "postgres"), "--version"], capture_output=True, cwd=folder, timeout=30, **run_as
        )  # type: ignore[call-overload]
        if probe.returncode == 0:
            return binaries
    except OSError:
        pass
    prefix = binaries.parent
    if not (prefix / "lib").is_dir() or not (prefix / "share").is_dir():
        raise PostgresUnavailable(f"{binaries} cannot be run by user {run_as.get('user')} and cannot be copied")
    # pgserver's binaries find their libraries at $ORIGIN/../../../pgserver.libs: keep that layout
    copy = folder / "copy" / "pgserver" / "pginstall"
    for part in ("bin", "lib", "share"):
        shutil.copytree(prefix / part, copy / part, symlinks=True)
    libs = prefix.parent.parent / "pgserver.libs"
    if libs.is_dir():
        shutil.copytree(libs, folder / "copy" / "pgserver.libs", symlinks=True)
    return copy / "bin"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# The server's guard: a process of its own session that reads a pipe from the test process until it closes, which
# happens however the test process ends (killed by `timeout` or a signal included), then stops the server and removes
# its folder. Without it a killed run leaves its servers running for good.
GUARD = """
import os, shutil, signal, sys, time
pid, folder = int(sys.argv[1]), sys.argv[2]
sys.stdin.buffer.read()
try:
    os.kill(pid, signal.SIGINT)
    for _ in range(300):
        os.kill(pid, 0)
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass
shutil.rmtree(folder, ignore_errors=True)
"""


def guard(process: subprocess.Popen[bytes], folder: Path) -> subprocess.Popen[bytes]:
    """Stop `process` (and remove `folder`) when this test process ends, even killed: see GUARD."""
    return subprocess.Popen(
        [sys.executable, "-c", GUARD, str(process.pid), str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a signal to the test's process group does not reach it
    )


class PostgresServer:
    """A throwaway PostgreSQL cluster: trust authentication, superuser `postgres`, listening on 127.0.0.1."""

    def __init__(
        self,
        admin_url: str,
        *,
        process: subprocess.Popen[bytes] | None = None,
        folder: Path | None = None,
        binaries: Path | None = None,
    ):
        self.admin_url = admin_url
        # the server's own programs: its pg_dump and pg_restore can dump it (an older pg_dump refuses a newer server)
        self.binaries = binaries
        self.process = process
        self.folder = folder
        self.started_in = 0.0
        self.migrated_template: str | None = None
        self.schema_signature: str | None = None
        self.clean_databases: list[str] = []  # migrated test databases emptied after use, for the next test
        self.guard = guard(process, folder) if process is not None and folder is not None else None

    def url(self, database: str) -> str:
        return urlsplit(self.admin_url)._replace(path=f"/{database}").geturl()

    @classmethod
    def start(cls) -> PostgresServer:
        folders = _binary_folders()
        if not folders:
            raise PostgresUnavailable(
                "no PostgreSQL binaries: install the test extra (pip install -e '.[test]', which brings pgserver) or "
                "a system PostgreSQL, or set KD_POSTGRES_BIN"
            )
        errors = []
        for binaries in folders:
            try:
                return cls._start_with(binaries)
            except PostgresUnavailable as error:
                errors.append(f"{binaries}: {error}")
        raise PostgresUnavailable("PostgreSQL did not start:\n" + "\n".join(errors))

    @classmethod
    def _start_with(cls, binaries: Path) -> PostgresServer:
        began = time.monotonic()
        folder = Path(tempfile.mkdtemp(prefix="kd-postgres-"))
        run_as: dict[str, object] = {}
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as nobody
            nobody = pwd.getpwnam("nobody")
            os.chown(folder, nobody.pw_uid, nobody.pw_gid)
            run_as = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
            binaries = _reachable_by(binaries, folder, run_as)
        data = folder / "data"
        log = folder / "server.log"
        initdb = [str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"]
        init = subprocess.run(
            [*initdb, "-E", "UTF8", "--no-locale", "--no-sync"],
            capture_output=True,
            text=True,
            timeout=START_TIMEOUT,
            cwd=folder,
            **run_as,  # type: ignore[arg-type]
        )
        if init.returncode != 0:
            shutil.rmtree(folder, ignore_errors=True)
            raise PostgresUnavailable(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        port = _free_port()
        settings = {
            "fsync": "off",  # a throwaway cluster: speed over durability
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "max_connections": "300",
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": str(folder),
        }
        command = [str(binaries / "postgres"), "-D", str(data), "-p", str(port)]
        for name, value in settings.items():
            command += ["-c", f"{name}={value}"]
        with open(log, "wb") as log_file:
            process = subprocess.Popen(
                command,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                cwd=folder,
                **run_as,  # type: ignore[arg-type]
            )
        server = cls(
            f"postgresql://postgres@127.0.0.1:{port}/postgres", process=process, folder=folder, binaries=binaries
        )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                text = log.read_text(errors="replace")[-2000:]
                server.stop()
                raise PostgresUnavailable(f"postgres exited with {process.returncode}:\n{text}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                ready = subprocess.run(
                    [str(binaries / "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres"],
                    capture_output=True,
                )
                if ready.returncode == 0:
                    break
            if time.monotonic() > deadline:
                server.stop()
                raise PostgresUnavailable(f"postgres did not accept connections within {START_TIMEOUT:.0f} s")
            time.sleep(0.05)
        server.started_in = time.monotonic() - began
        return server

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
        if self.guard is not None:  # nothing left to guard: the guard ends at the pipe's end
            self.guard.stdin.close()  # type: ignore[union-attr]
            self.guard.wait()


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(f"PostgreSQL is required under CI but could not start: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL unavailable: {reason}")


_SERVER_ERROR = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def postgres_server(request: pytest.FixtureRequest) -> Iterator[PostgresServer]:
    """The session's PostgreSQL server (started on first use, stopped at the end of the run)."""
    known_error = request.session.stash.get(_SERVER_ERROR, None)
    if known_error is not None:
        _unavailable(known_error)
    external = os.environ.get("KD_TEST_POSTGRES_URL", "").strip()
    if external:
        folders = _binary_folders()
        yield PostgresServer(external, binaries=folders[0] if folders else None)
        return
    try:
        server = PostgresServer.start()
    except (PostgresUnavailable, OSError, subprocess.SubprocessError) as error:
        request.session.stash[_SERVER_ERROR] = str(error)
        _unavailable(str(error))
        raise  # unreachable: _unavailable raises
    try:
        yield server
    finally:
        server.stop()


_database_numbers = itertools.count(1)


class DatabaseFactory:
    """Creates empty databases on a server and drops them all at the end."""

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        self.created: list[str] = []
        self.recyclable: set[str] = set()

    async def create(self, *, migrated: bool = False) -> str:
        """A new database: empty, or (`migrated`) already at the newest schema, cloned from a template the session
        migrates once, which spares each store test the migrations."""
        import asyncpg

        if migrated and self.server.clean_databases:
            name = self.server.clean_databases.pop()
            self.created.append(name)
            self.recyclable.add(name)
            return self.server.url(name)
        template = await self._migrated_template() if migrated else "template0"
        name = f"test_{os.getpid()}_{next(_database_numbers)}"
        admin = await asyncpg.connect(self.server.admin_url)
        try:
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            await admin.close()
        self.created.append(name)
        if migrated:
            self.recyclable.add(name)
        return self.server.url(name)

    async def _migrated_template(self) -> str:
        if self.server.migrated_template is None:
            import asyncpg

            from db.postgres import PostgresGameStore

            name = f"template_{os.getpid()}_migrated"
            admin = await asyncpg.connect(self.server.admin_url)
            try:
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
                await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
            finally:
                await admin.close()
            store = await PostgresGameStore.open(self.server.url(name), min_connections=1, max_connections=1)
            await store.close()  # nobody may be connected to a template while it is cloned
            conn = await asyncpg.connect(self.server.url(name))
            try:
                self.server.schema_signature = await _schema_signature(conn)
            finally:
                await conn.close()
            self.server.migrated_template = name
        return self.server.migrated_template

    async def drop_all(self) -> None:
        import asyncpg

        if not self.created:
            return
        admin = await asyncpg.connect(self.server.admin_url)
        try:
            for name in self.created:
                if name in self.recyclable and await self._clean(admin, name):
                    self.server.clean_databases.append(name)
                else:
                    await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()
        self.created.clear()
        self.recyclable.clear()

    async def _clean(self, admin: Any, name: str) -> bool:
        """Empty a migrated database for the next test (much faster than a new one): every table but
        schema_version truncated, ids restarted. False when its schema is no longer the template's."""
        import asyncpg

        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            name,
        )
        conn = await asyncpg.connect(self.server.url(name))
        try:
            if await _schema_signature(conn) != self.server.schema_signature:
                return False
            tables = [
                r[0]
                for r in await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_version'"
                )
            ]
            quoted = ", ".join(f'"{table}"' for table in tables)
            await conn.execute(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE")
            return True
        finally:
            await conn.close()


async def _schema_signature(conn: Any) -> str:
    """Tables, columns, indexes, constraints and applied migrations: equal for two databases at the same schema."""
    return await conn.fetchval(
        """
        SELECT md5(concat_ws('|',
            (SELECT string_agg(concat_ws(',', table_name, column_name, data_type, column_default, is_nullable), ';'
                               ORDER BY table_name, column_name)
             FROM information_schema.columns WHERE table_schema = 'public'),
            (SELECT string_agg(indexdef, ';' ORDER BY indexdef) FROM pg_indexes WHERE schemaname = 'public'),
            (SELECT string_agg(pg_get_constraintdef(c.oid), ';' ORDER BY conrelid::regclass::text, conname)
             FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'),
            (SELECT string_agg(version::text || name, ';' ORDER BY version) FROM schema_version)))
        """
    )


@pytest.fixture
async def pg_database_factory(postgres_server: PostgresServer) -> AsyncIterator[Callable[[], Awaitable[str]]]:
    """Call it to get the URL of a new, empty database on the session's server; they are dropped after the test."""
    factory = DatabaseFactory(postgres_server)
    try:
        yield factory.create
    finally:
        await factory.drop_all()


@pytest.fixture
def pg_bin(postgres_server: PostgresServer) -> Path:
    """The folder of the test server's own pg_dump and pg_restore (the pgserver wheel ships them with the server: the
    same version, so they can dump it; Debian's postgresql-client may be older than the server and refuse)."""
    if postgres_server.binaries is None or not (postgres_server.binaries / "pg_dump").is_file():
        _unavailable("no pg_dump beside the test server's binaries (set KD_POSTGRES_BIN)")
    assert postgres_server.binaries is not None
    return postgres_server.binaries


@pytest.fixture
async def pg_url(pg_database_factory: Callable[[], Awaitable[str]]) -> str:
    """The URL of a fresh, empty PostgreSQL database for this test (no password: the test server trusts local
    connections). `await open_store(tmp_path / "unused.sqlite3", pg_url)` opens the bot's store on it."""
    return await pg_database_factory()
