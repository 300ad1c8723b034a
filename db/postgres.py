"""The game store on PostgreSQL (asyncpg): its connection pool and transactions; the SQL is shared (`db.sql`).

Each call takes a connection from the pool for one transaction. Writes run at READ COMMITTED: the version check in
each ``UPDATE`` waits for a concurrent writer of the same game and then sees its new version, so of two processes
saving the same game at once one succeeds and the other gets `StaleVersion`. Reads run in a REPEATABLE READ, READ
ONLY transaction, so each call sees one snapshot. The config, state and actions are jsonb, passed as JSON text.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import asyncpg

from db.changes import CHANNEL, ListeningFeed, OnVersion, VersionFeed, Watched
from db.engine_state import StateDecoder, decode_engine_state
from db.errors import StoreBusy, StoreUnavailable
from db.migrate import LATEST_VERSION, migrate_postgres, postgres_migration_lock, postgres_schema_version
from db.people import PeopleSql
from db.sqlbase import Row, StepHook, to_ms, utc_now

log = logging.getLogger(__name__)

URL_SCHEMES = ("postgresql", "postgres")
DEFAULT_BACKUP_DIR = "data/backups"  # where the copy before a migration goes when the caller names no folder

# The server went away (restart, network, admin): the pool replaces the connection on the next call.
_CONNECTION_LOST = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.TooManyConnectionsError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,  # a connection left confused by its server going away mid-conversation
)


def is_postgres_url(url: str) -> bool:
    """Whether `url` names a PostgreSQL database (postgresql://... or postgres://...)."""
    return urlsplit(url.strip()).scheme in URL_SCHEMES


def redact_url(url: str) -> str:
    """`url` with its password replaced by ***, fit for logs and error messages."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.rsplit("@", 1)
        return parts._replace(netloc=f"{parts.username or ''}:***@{netloc[1]}").geturl()
    except ValueError:
        return "<a database URL that cannot be parsed>"


def describe_url(url: str) -> str:
    """'database "name" on host:port as user': what an error may say about a URL, without its password."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or "localhost"
        port = parts.port or 5432
        database = unquote(parts.path.lstrip("/")) or (parts.username or "")
        user = unquote(parts.username or "") or "the default user"
    except ValueError as error:
        raise StoreUnavailable(f"DATABASE_URL {redact_url(url)} is malformed ({error})") from None
    return f'database "{database}" on {host}:{port} as {user}'


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """The shared SQL's ``?`` placeholders as PostgreSQL's ``$1, $2...`` (the shared SQL has no ? in literals)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


def _rowcount(status: str) -> int:
    # asyncpg returns the command tag: "UPDATE 3", "INSERT 0 1", "DELETE 0"
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _Transaction:
    """The statements of one transaction, each announced to the step hook first."""

    def __init__(self, conn: asyncpg.Connection, on_step: StepHook | None) -> None:
        self._conn = conn
        self._on_step = on_step

    def step(self, name: str) -> None:
        if self._on_step is not None:
            self._on_step(name)

    async def execute(self, step: str, sql: str, params: Sequence[Any] = ()) -> int:
        self.step(step)
        return _rowcount(await self._conn.execute(numbered(sql), *params))

    async def executemany(self, step: str, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.step(step)
        await self._conn.executemany(numbered(sql), list(rows))

    async def fetchall(self, step: str, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self.step(step)
        return list(await self._conn.fetch(numbered(sql), *params))

    @asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        async with self._conn.transaction():  # nested: a savepoint
            yield


class PostgresGameStore(PeopleSql):
    """`GameStore` on a PostgreSQL database. Open it with `await PostgresGameStore.open(url)` and close it with
    `close()` (or use ``async with``). See `db.store.GameStore` for what each method does."""

    _skip_locked = " FOR UPDATE SKIP LOCKED"
    _wait_locked = " FOR UPDATE"
    # Every write that raises a game's version tells the other processes, in its own statement and transaction: the
    # notice leaves when the write commits, and never for one rolled back (db.changes).
    _returning_version = f" RETURNING version, pg_notify('{CHANNEL}', id::text || ':' || version::text)"

    def __init__(
        self,
        pool: asyncpg.Pool,
        *,
        location: str,
        decode_state: StateDecoder | None,
        clock: Callable[[], datetime],
        on_step: StepHook | None,
        url: str | None = None,
    ) -> None:
        super().__init__(decode_state=decode_state, clock=clock)
        self._pool = pool
        self._url = url  # for the connection that listens for other processes' changes (never logged)
        self._location = location
        self._on_step = on_step
        self._closed = False

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        decode_state: StateDecoder | None = decode_engine_state,
        clock: Callable[[], datetime] = utc_now,
        on_step: StepHook | None = None,
        busy_timeout: float = 10.0,
        connect_timeout: float = 10.0,
        min_connections: int = 1,
        max_connections: int = 20,
        backup_dir: str | Path | None = None,
        pg_bin: str | Path | None = None,
    ) -> PostgresGameStore:
        """Connect to the database at `url` (postgresql://user:password@host:port/database) and migrate it.

        `busy_timeout`: how long a statement waits for a lock another process holds before `StoreBusy`.
        A database that needs a schema migration is first dumped to `backup_dir` (default data/backups) as
        `before-vN-<time>.dump` with the pg_dump of `pg_bin` (default: the first new enough one found, `db.backup`),
        checked; without one the migration is refused (`BackupError`, saying how to get pg_dump).
        Raises `StoreUnavailable` (naming host and database, never the password) when the server cannot be reached
        or refuses the login, and `SchemaTooNew` for a database written by a newer bot.
        """
        if not is_postgres_url(url):
            raise StoreUnavailable(f"{redact_url(url)} is not a postgresql:// URL")
        where = describe_url(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=min_connections,
                max_size=max_connections,
                timeout=connect_timeout,
                server_settings={"lock_timeout": str(max(1, round(busy_timeout * 1000)))},
            )
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
            reason = _scrub(str(error) or type(error).__name__, url)
            raise StoreUnavailable(f"cannot open the PostgreSQL {where}: {reason}") from None
        try:
            async with pool.acquire() as conn, postgres_migration_lock(conn):
                if 0 < await postgres_schema_version(conn) < LATEST_VERSION:
                    await _copy_before_migration(url, backup_dir, pg_bin)
                await migrate_postgres(conn, location=where, clock_ms=lambda: to_ms(clock()) or 0)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, location=where, decode_state=decode_state, clock=clock, on_step=on_step, url=url)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._pool.close()

    async def __aenter__(self) -> PostgresGameStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def version_feed(self, watched: Watched, on_version: OnVersion) -> VersionFeed:
        """The versions other processes write, heard as they commit (LISTEN on a connection of the feed's own)."""
        if self._url is None:
            return super().version_feed(watched, on_version)
        url = self._url

        async def connect() -> asyncpg.Connection:
            return await asyncpg.connect(url, timeout=10.0)

        return ListeningFeed(self, watched, on_version, connect=connect)

    # Transactions

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool; losing the server on the way is `StoreUnavailable`, nothing written."""
        closed_under_us = True  # an InterfaceError means a lost connection only when the connection did close
        try:
            async with self._pool.acquire() as conn:
                try:
                    yield conn
                except asyncpg.InterfaceError:
                    closed_under_us = conn.is_closed()
                    raise
                except asyncpg.InternalClientError:
                    conn.terminate()  # never hand it out again
                    raise
        except _CONNECTION_LOST as error:
            if self._closed or (isinstance(error, asyncpg.InterfaceError) and not closed_under_us):
                raise  # a bad argument or a misuse, not the server going away
            raise StoreUnavailable(
                f"lost the connection to the PostgreSQL {self._location} ({type(error).__name__}: {error}); "
                "nothing was saved, try again"
            ) from error

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[_Transaction]:
        async with self._connection() as conn:
            transaction = conn.transaction()
            try:  # BEGIN is inside: a task cancelled while it runs must not hand the pool a connection mid-transaction
                await transaction.start()
                tx = _Transaction(conn, self._on_step)
                yield tx
                tx.step("commit")
                await transaction.commit()
            except BaseException as error:
                try:
                    await transaction.rollback()
                except BaseException:  # never started, broken, or cancelled mid-statement: throw the connection away
                    conn.terminate()
                if isinstance(error, asyncpg.LockNotAvailableError):
                    raise StoreBusy(f"the PostgreSQL {self._location} stayed locked by another writer") from error
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_Transaction]:
        async with self._connection() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            yield _Transaction(conn, None)

    def _is_constraint_error(self, error: BaseException) -> bool:
        return isinstance(error, asyncpg.IntegrityConstraintViolationError)


async def _copy_before_migration(url: str, backup_dir: str | Path | None, pg_bin: str | Path | None) -> None:
    """A checked pg_dump of the database before its schema changes (`db.backup`); without pg_dump the migration is
    refused (BackupError, saying how to get it)."""
    from db.backup import backup_path, copy_postgres

    folder = Path(backup_dir) if backup_dir is not None else Path(DEFAULT_BACKUP_DIR)
    copy = await copy_postgres(url, backup_path(folder, f"before-v{LATEST_VERSION}", postgres=True), pg_bin)
    log.warning("Before migrating to schema version %d, a copy: %s", LATEST_VERSION, copy.describe())


def _scrub(message: str, url: str) -> str:
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    if password:
        message = message.replace(password, "***").replace(unquote(password), "***")
    return message
