"""The game store on SQLite (aiosqlite): its connection and transactions; the SQL is shared (`db.sql`).

One connection per store, in WAL mode. An `asyncio.Lock` lets one transaction at a time use it, so coroutines of
one bot never see each other's half-done work; several processes (or stores) on one file are kept apart by SQLite's
own locking: writes start with ``BEGIN IMMEDIATE`` and wait up to `busy_timeout` for the write lock, and a change
that was computed from an older version is refused by the version check in its ``UPDATE``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from db.engine_state import StateDecoder, decode_engine_state
from db.errors import StoreBusy, StoreError
from db.migrate import migrate
from db.sql import SqlGameStore, StepHook, from_ms, to_ms, utc_now

__all__ = ["SqliteGameStore", "StepHook", "from_ms", "to_ms"]

_SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")


class _Transaction:
    """The statements of one transaction, each announced to the step hook first."""

    def __init__(self, conn: aiosqlite.Connection, on_step: StepHook | None) -> None:
        self._conn = conn
        self._on_step = on_step

    def step(self, name: str) -> None:
        if self._on_step is not None:
            self._on_step(name)

    async def execute(self, step: str, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement that returns no rows; returns the number of rows it changed."""
        self.step(step)
        return (await self._conn.execute(sql, params)).rowcount

    async def executemany(self, step: str, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.step(step)
        await self._conn.executemany(sql, rows)

    async def fetchall(self, step: str, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        self.step(step)
        return list(await self._conn.execute_fetchall(sql, params))

    @asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        await self._conn.execute("SAVEPOINT nested")
        try:
            yield
        except BaseException:
            await self._conn.execute("ROLLBACK TO nested")
            await self._conn.execute("RELEASE nested")
            raise
        await self._conn.execute("RELEASE nested")


class SqliteGameStore(SqlGameStore):
    """`GameStore` on a SQLite file. Open it with `await SqliteGameStore.open(path)` and close it with `close()`
    (or use ``async with``). See `db.store.GameStore` for what each method does."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        *,
        location: str,
        decode_state: StateDecoder | None,
        clock: Callable[[], datetime],
        on_step: StepHook | None,
    ) -> None:
        super().__init__(decode_state=decode_state, clock=clock)
        self._conn = conn
        self._location = location
        self._on_step = on_step
        self._lock = asyncio.Lock()
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
    ) -> SqliteGameStore:
        """Open (creating it and its directory if needed) and migrate the database at `path`.

        `decode_state` rebuilds the engine object of each loaded game (None: leave `GameRecord.game` None).
        `synchronous` is SQLite's: FULL (the default) makes every save durable, even against a power cut, at the
        price of an fsync per save; NORMAL survives a crash of the bot but may lose the last saves to a power cut.
        Raises `SchemaTooNew` for a database written by a newer bot, and `StoreError` when the file is not a usable
        SQLite database.
        """
        if synchronous not in _SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {_SYNCHRONOUS}, not {synchronous!r}")
        location = str(path)
        if location != ":memory:" and not location.startswith("file:"):
            Path(location).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(location, isolation_level=None, timeout=busy_timeout)
        try:
            conn.row_factory = sqlite3.Row
            try:
                await conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.DatabaseError as error:
                raise StoreError(f"{location} cannot be opened as a SQLite database: {error}") from error
            await conn.execute(f"PRAGMA synchronous = {synchronous}")
            await conn.execute("PRAGMA foreign_keys = ON")
            await migrate(conn, location=location, clock_ms=lambda: to_ms(clock()) or 0)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, location=location, decode_state=decode_state, clock=clock, on_step=on_step)

    async def close(self) -> None:
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._conn.execute("PRAGMA optimize")  # cheap upkeep of the query planner's statistics
            await self._conn.close()

    async def __aenter__(self) -> SqliteGameStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # Transactions

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[_Transaction]:
        async with self._lock:
            try:  # BEGIN is inside: a task cancelled while it runs must not leave the connection in a transaction
                try:
                    await self._conn.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as error:
                    raise StoreBusy(f"{self._location} stayed locked by another writer: {error}") from error
                tx = _Transaction(self._conn, self._on_step)
                yield tx
                tx.step("commit")
                await self._conn.execute("COMMIT")
            except BaseException:
                await self._conn.rollback()  # a no-op outside a transaction
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_Transaction]:
        # A read transaction sees one snapshot even when another process commits between its statements.
        async with self._lock:
            try:
                await self._conn.execute("BEGIN")
                yield _Transaction(self._conn, None)
            finally:
                await self._conn.rollback()

    def _is_constraint_error(self, error: BaseException) -> bool:
        return isinstance(error, sqlite3.IntegrityError)
