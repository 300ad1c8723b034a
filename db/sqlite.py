"""The game store on SQLite: its connections and transactions; the SQL is shared (`db.sql`).

Two connections per store, on one file in WAL mode:

- Writes run on the store's own writer thread, on a connection only that thread uses: each write method (its SQL,
  its checks and the JSON it encodes) runs there whole, one at a time in the order they were asked, and the event
  loop waits for it in one hop. An fsync never holds the loop, and one transaction no longer costs the four to six
  round trips to a database thread (each waiting for a busy loop to wake up) it cost through aiosqlite: at 200
  games in `benchmarks/bench_load.py` the connection was busy 86% of the time and a save waited 0.6-3 s for it.
- Reads run on a read-only connection directly on the event loop: a read is a few index lookups in a WAL snapshot
  (well under a millisecond), cheaper than a single thread hop, and it never queues behind a write. A read
  transaction has no real await inside, so it is one snapshot and cannot interleave with anything.

A write cancelled before it started never runs; one cancelled while it runs finishes (or fails) whole first, then
the caller sees the cancellation: the database never holds half of it. Several processes (or stores) on one file
are kept apart by SQLite's own locking: writes start with ``BEGIN IMMEDIATE`` and wait up to `busy_timeout` for the
write lock, and a change that was computed from an older version is refused by the version check in its
``UPDATE``. aiosqlite opens the file and applies the migrations.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from db.backup import backup_path, copy_sqlite
from db.engine_state import StateDecoder, decode_engine_state
from db.errors import StoreBusy, StoreError
from db.migrate import LATEST_VERSION, migrate, schema_version_of
from db.people import PeopleSql
from db.sqlbase import StepHook, from_ms, to_ms, utc_now

log = logging.getLogger(__name__)

__all__ = ["SqliteGameStore", "StepHook", "from_ms", "to_ms"]

_SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")

# The store's methods that write: each runs whole on the writer thread (`_write` refuses to run anywhere else, so a
# write method missing here fails at once in the tests).
_WRITES = (
    "cancel_game",
    "claim_due",
    "claim_notification",
    "claim_table_post",
    "create_game",
    "delete_game",
    "drop_lease",
    "erase_person",
    "finish_game",
    "forget_guild",
    "forget_notification_messages",
    "forget_player",
    "guild_left",
    "guild_returned",
    "join_game",
    "leave_game",
    "notification_sent",
    "release_claim",
    "release_claims_of",
    "release_table_post",
    "save_move",
    "set_guild_settings",
    "set_host",
    "set_lobby_options",
    "set_seats",
    "set_table_message",
    "set_turn_timer",
    "set_user_settings",
    "start_game",
    "take_lease",
    "undo_last_action",
)


class _Statements:
    """The statements of one transaction, run at once on a connection of the current thread, each announced to
    the step hook first (writes only)."""

    def __init__(self, conn: sqlite3.Connection, on_step: StepHook | None) -> None:
        self._conn = conn
        self._on_step = on_step

    def step(self, name: str) -> None:
        if self._on_step is not None:
            self._on_step(name)

    async def execute(self, step: str, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement that returns no rows; returns the number of rows it changed."""
        self.step(step)
        return self._conn.execute(sql, params).rowcount

    async def executemany(self, step: str, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.step(step)
        self._conn.executemany(sql, rows)

    async def fetchall(self, step: str, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        self.step(step)
        return self._conn.execute(sql, params).fetchall()

    @asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        self._conn.execute("SAVEPOINT nested")
        try:
            yield
        except BaseException:
            self._conn.execute("ROLLBACK TO nested")
            self._conn.execute("RELEASE nested")
            raise
        self._conn.execute("RELEASE nested")


async def _copy_before_migration(location: str, backup_dir: str | Path | None) -> None:
    """A checked copy of the database before its schema changes (`db.backup`); one that fails stops the opening."""
    folder = Path(backup_dir) if backup_dir is not None else Path(location).parent / "backups"
    target = backup_path(folder, f"before-v{LATEST_VERSION}", postgres=False)
    copy = await asyncio.to_thread(copy_sqlite, location, target)
    log.warning("Before migrating %s to schema version %d, a copy: %s", location, LATEST_VERSION, copy.describe())


def _drive(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a store method's coroutine to its end on this thread. Its awaits are on `_Statements`, which never
    suspend, so it finishes in one step."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a store transaction waited for something on the writer thread")


class SqliteGameStore(PeopleSql):
    """`GameStore` on a SQLite file. Open it with `await SqliteGameStore.open(path)` and close it with `close()`
    (or use ``async with``). See `db.store.GameStore` for what each method does."""

    def __init__(
        self,
        *,
        writer: concurrent.futures.ThreadPoolExecutor,
        writer_conn: sqlite3.Connection,
        writer_ident: int,
        reader: sqlite3.Connection,
        location: str,
        decode_state: StateDecoder | None,
        clock: Callable[[], datetime],
        on_step: StepHook | None,
        scratch: str | None = None,
    ) -> None:
        super().__init__(decode_state=decode_state, clock=clock)
        self._writer = writer  # one thread: the writes, one at a time, in order
        self._writer_conn = writer_conn  # used on that thread only
        self._writer_ident = writer_ident
        self._reader = reader  # read-only, used on the event loop
        self._location = location
        self._on_step = on_step
        self._scratch = scratch  # the directory of a ":memory:" store's file, removed at close
        self._closed = False

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        decode_state: StateDecoder | None = decode_engine_state,
        clock: Callable[[], datetime] = utc_now,
        on_step: StepHook | None = None,
        synchronous: Literal["NORMAL", "FULL", "EXTRA"] = "FULL",
        busy_timeout: float = 10.0,
        backup_dir: str | Path | None = None,
    ) -> SqliteGameStore:
        """Open (creating it and its directory if needed) and migrate the database at `path` (":memory:": a
        database of this store alone, in a scratch file removed when it closes).

        `decode_state` rebuilds the engine object of each loaded game (None: leave `GameRecord.game` None).
        `synchronous` is SQLite's: FULL (the default) makes every save durable, even against a power cut, at the
        price of an fsync per save; NORMAL survives a crash of the bot but may lose the last saves to a power cut.
        A database that needs a schema migration is first copied to `backup_dir` (default: `backups` beside the
        file) as `before-vN-<time>.sqlite3` (`db.backup`), checked; a copy that fails stops the opening.
        Raises `SchemaTooNew` for a database written by a newer bot, and `StoreError` when the file is not a usable
        SQLite database.
        """
        if synchronous not in _SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {_SYNCHRONOUS}, not {synchronous!r}")
        location = str(path)
        scratch = None
        if location == ":memory:":
            scratch = tempfile.mkdtemp(prefix="kd-store-")
            path = location = str(Path(scratch) / "games.sqlite3")
        if not location.startswith("file:"):
            Path(location).parent.mkdir(parents=True, exist_ok=True)
        uri = location.startswith("file:")
        conn = await aiosqlite.connect(location, isolation_level=None, timeout=busy_timeout, uri=uri)
        try:
            conn.row_factory = sqlite3.Row
            try:
                await conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.DatabaseError as error:
                raise StoreError(f"{location} cannot be opened as a SQLite database: {error}") from error
            if not uri and 0 < await schema_version_of(conn) < LATEST_VERSION:
                await _copy_before_migration(location, backup_dir)
            await migrate(conn, location=location, clock_ms=lambda: to_ms(clock()) or 0)
        finally:
            await conn.close()

        def connect(read_only: bool) -> sqlite3.Connection:
            # a reader waits at most a second for a lock: in WAL mode it is only ever blocked while another
            # connection recovers the log, which is rare and short
            timeout = min(busy_timeout, 1.0) if read_only else busy_timeout
            c = sqlite3.connect(location, timeout=timeout, isolation_level=None, check_same_thread=False, uri=uri)
            c.row_factory = sqlite3.Row
            if read_only:
                c.execute("PRAGMA query_only = ON")
            else:
                c.execute(f"PRAGMA synchronous = {synchronous}")
                c.execute("PRAGMA foreign_keys = ON")
            return c

        writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
        try:
            writer_conn, writer_ident = await asyncio.wrap_future(
                writer.submit(lambda: (connect(False), threading.get_ident()))
            )
        except BaseException:
            writer.shutdown(wait=False)
            raise
        return cls(
            writer=writer,
            writer_conn=writer_conn,
            writer_ident=writer_ident,
            reader=connect(True),
            location=location,
            decode_state=decode_state,
            clock=clock,
            on_step=on_step,
            scratch=scratch,
        )

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True

        def close_writer() -> None:
            try:  # cheap upkeep of the query planner's statistics, never worth a failed close
                self._writer_conn.execute("PRAGMA optimize")
            except sqlite3.OperationalError as error:  # another connection holds the database ("locked")
                log.info("SQLite's upkeep skipped at close: %s", error)
            finally:
                self._writer_conn.close()

        try:
            await asyncio.wrap_future(self._writer.submit(close_writer))  # after the writes already asked for
        finally:
            self._writer.shutdown(wait=True)
            self._reader.close()
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)

    async def __aenter__(self) -> SqliteGameStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # Transactions

    async def _on_writer(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Run a write method's coroutine on the writer thread and wait for it."""
        if self._closed:
            coro.close()
            raise StoreError(f"{self._location} is closed")
        job = self._writer.submit(_drive, coro)
        waiting = asyncio.wrap_future(job)
        try:
            return await asyncio.shield(waiting)
        except asyncio.CancelledError:
            if job.cancel():  # it had not started: it never will
                coro.close()
            elif not waiting.done():  # it is running: it ends whole (done or undone) before the caller goes on
                await asyncio.wait([waiting])
            raise

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[_Statements]:
        if threading.get_ident() != self._writer_ident:
            raise RuntimeError("a SQLite write transaction runs on the store's writer thread: list it in _WRITES")
        conn = self._writer_conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise StoreBusy(f"{self._location} stayed locked by another writer: {error}") from error
        try:
            tx = _Statements(conn, self._on_step)
            yield tx
            tx.step("commit")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_Statements]:
        # A read transaction sees one snapshot even when another process commits between its statements.
        if self._closed:
            raise StoreError(f"{self._location} is closed")
        conn = self._writer_conn if threading.get_ident() == self._writer_ident else self._reader
        if conn.in_transaction:
            raise RuntimeError("a SQLite read transaction inside another one")
        conn.execute("BEGIN")
        try:
            yield _Statements(conn, None)
        finally:
            conn.execute("ROLLBACK")

    def _is_constraint_error(self, error: BaseException) -> bool:
        return isinstance(error, sqlite3.IntegrityError)


def _run_on_writer(name: str) -> Callable[..., Any]:
    method = getattr(PeopleSql, name)

    @functools.wraps(method)
    async def write(self: SqliteGameStore, *args: Any, **kwargs: Any) -> Any:
        return await self._on_writer(method(self, *args, **kwargs))

    return write


for _name in _WRITES:
    setattr(SqliteGameStore, _name, _run_on_writer(_name))
