"""The schema: numbered migration files, one folder per database (`db/migrations/sqlite/`,
`db/migrations/postgres/`), applied in order, one transaction each.

A migration is `NNNN_name.sql` (NNNN counts from 0001 without gaps) and is never edited once released: change the
schema by adding the next file, to both folders with the same number and name. The table `schema_version` records
every migration applied to a database.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Literal

import aiosqlite

from db.errors import SchemaTooNew

if TYPE_CHECKING:
    import asyncpg

Dialect = Literal["sqlite", "postgres"]

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version     INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    applied_at  BIGINT  NOT NULL
)
"""
_PG_LOCK_KEY = 0x6B696E67646F6D  # any fixed number: the advisory lock that serialises migrations


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def statements(self) -> list[str]:
        return split_statements(self.sql)


def load_migrations(dialect: Dialect = "sqlite") -> tuple[Migration, ...]:
    """The migrations shipped with the package for one database, in order. A gap or a duplicate number is a
    packaging bug."""
    found: dict[int, Migration] = {}
    for entry in (resources.files("db") / "migrations" / dialect).iterdir():
        match = _FILE_NAME.match(entry.name)
        if match is None:
            continue
        version = int(match.group(1))
        if version in found:
            raise RuntimeError(f"two migrations are numbered {version:04d}: {found[version].name} and {entry.name}")
        found[version] = Migration(version, match.group(2), entry.read_text(encoding="utf-8"))
    expected = list(range(1, len(found) + 1))
    if sorted(found) != expected:
        raise RuntimeError(f"migrations must be numbered 0001 to {len(found):04d} without gaps, found {sorted(found)}")
    return tuple(found[v] for v in expected)


MIGRATIONS = load_migrations("sqlite")
POSTGRES_MIGRATIONS = load_migrations("postgres")
LATEST_VERSION = MIGRATIONS[-1].version
if [(m.version, m.name) for m in POSTGRES_MIGRATIONS] != [(m.version, m.name) for m in MIGRATIONS]:
    raise RuntimeError("the SQLite and PostgreSQL migrations must have the same numbers and names")


def split_statements(script: str) -> list[str]:
    """Split a SQL script into single statements; semicolons inside strings, comments and triggers are respected."""
    statements: list[str] = []
    buffer = ""
    *pieces, tail = script.split(";")
    for piece in pieces:
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    rest = buffer + tail
    if _strip_comments(rest).strip():
        raise ValueError(f"incomplete SQL statement at the end of a migration: {rest.strip()[:80]!r}")
    return [s for s in statements if _strip_comments(s).strip(" \n\t;")]


def _strip_comments(sql: str) -> str:
    return re.sub(r"--[^\n]*", "", sql)


async def schema_version_of(conn: aiosqlite.Connection) -> int:
    """The schema version of the SQLite database behind `conn` (0: none yet), without changing anything."""
    rows = await conn.execute_fetchall("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    return await _current_version(conn) if list(rows) else 0


async def postgres_schema_version(conn: asyncpg.Connection) -> int:
    """The schema version of the PostgreSQL database behind `conn` (0: none yet), without changing anything."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def _current_version(conn: aiosqlite.Connection) -> int:
    rows = await conn.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(next(iter(rows))[0])


async def migrate(
    conn: aiosqlite.Connection,
    *,
    location: str,
    target: int | None = None,
    clock_ms: Callable[[], int],
    migrations: tuple[Migration, ...] = MIGRATIONS,
) -> int:
    """Bring the database behind `conn` (in autocommit mode) up to `target` (default: the newest) and return its
    version. Each migration commits on its own, so a failure leaves the database at the last complete version.
    Raises `SchemaTooNew` when the database is newer than this code. Safe when several processes start at once."""
    latest = migrations[-1].version if migrations else 0
    target = latest if target is None else target
    await conn.execute(VERSION_TABLE)
    while True:
        await conn.execute("BEGIN IMMEDIATE")  # the version is read and raised under the write lock
        try:
            current = await _current_version(conn)
            if current > latest:
                raise SchemaTooNew(location, current, latest)
            if current >= target:
                await conn.execute("COMMIT")
                return current
            migration = migrations[current]
            for statement in migration.statements:
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, clock_ms()),
            )
            await conn.execute("COMMIT")
        except BaseException:
            await conn.rollback()
            raise


@asynccontextmanager
async def postgres_migration_lock(conn: asyncpg.Connection) -> AsyncIterator[None]:
    """The lock that serialises migrations, held by `conn`'s session until the block ends: a process that reads the
    schema version under it, copies the database and migrates is never fooled by another one mid-migration (which
    would show a version between its start and the newest). Waiting for it has no timeout: a copy of a big database
    takes as long as it takes."""
    await conn.execute("SET lock_timeout = 0")
    try:
        await conn.execute("SELECT pg_advisory_lock($1)", _PG_LOCK_KEY)
    finally:
        await conn.execute("RESET lock_timeout")
    try:
        yield
    finally:
        if not conn.is_closed():  # a lost connection released it already
            await conn.execute("SELECT pg_advisory_unlock($1)", _PG_LOCK_KEY)


async def migrate_postgres(
    conn: asyncpg.Connection,
    *,
    location: str,
    target: int | None = None,
    clock_ms: Callable[[], int],
    migrations: tuple[Migration, ...] = POSTGRES_MIGRATIONS,
) -> int:
    """`migrate` for PostgreSQL: the same rules (one transaction per migration, `SchemaTooNew` for a database newer
    than the code), several processes serialised by a transaction-level advisory lock."""
    latest = migrations[-1].version if migrations else 0
    target = latest if target is None else target
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _PG_LOCK_KEY)
            await conn.execute(VERSION_TABLE)
            current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
            if current > latest:
                raise SchemaTooNew(location, current, latest)
            if current >= target:
                return current
            migration = migrations[current]
            await conn.execute(migration.sql)  # no arguments: PostgreSQL runs the whole script
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.version,
                migration.name,
                clock_ms(),
            )
