"""Moving the bot's SQLite database to PostgreSQL (`python -m db move-to-postgres URL`): every game with its seats,
log, results, claims and notifications, every setting and every server the bot left, copied in one transaction into
a PostgreSQL database that holds no game yet (its tables created, or migrated, first). Refused while a bot uses the
SQLite file; the file itself is left as it was (set DATABASE_URL to run on PostgreSQL, remove it to go back)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from db.backup import BackupError, check_sqlite, sqlite_bot_leases

# In an order the foreign keys accept; the leases belong to the processes of the old database, the schema version to
# each database's own migrations.
TABLES = (
    "games",
    "seats",
    "actions",
    "results",
    "table_claims",
    "notifications",
    "user_settings",
    "guild_settings",
    "guild_departures",
)


def _read(path: Path) -> dict[str, tuple[list[str], list[tuple]]]:
    conn = sqlite3.connect(path, timeout=30.0)
    try:
        conn.execute("BEGIN")  # one snapshot of every table
        found = {}
        for table in TABLES:
            cursor = conn.execute(f"SELECT * FROM {table}")  # the table names are ours
            found[table] = ([c[0] for c in cursor.description], cursor.fetchall())
        conn.execute("ROLLBACK")
        return found
    finally:
        conn.close()


async def sqlite_to_postgres(path: Path, url: str, *, force: bool = False) -> dict[str, int]:
    """Copy the bot's SQLite database at `path` into the PostgreSQL database at `url`; returns the rows copied per
    table. Refused (BackupError) while a bot uses the file (unless `force`), or when the PostgreSQL database already
    holds games."""
    import asyncpg

    from db.postgres import PostgresGameStore
    from db.sqlite import SqliteGameStore

    running = await asyncio.to_thread(sqlite_bot_leases, path)
    if running and not force:
        raise BackupError(f"a bot is using {path}: {', '.join(running)}. Stop it first")
    await (await SqliteGameStore.open(path, decode_state=None)).close()  # at this code's schema (a copy first)
    await asyncio.to_thread(check_sqlite, path, read_only=False)
    await (await PostgresGameStore.open(url, decode_state=None)).close()  # its tables, at the same schema
    source = await asyncio.to_thread(_read, path)
    conn = await asyncpg.connect(url, timeout=30)
    try:
        async with conn.transaction():
            if await conn.fetchval("SELECT COUNT(*) FROM games"):
                raise BackupError("the PostgreSQL database already holds games: move into a new, empty database")
            for table in TABLES:
                columns, rows = source[table]
                if rows:
                    await conn.copy_records_to_table(table, records=rows, columns=columns)
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM games"
            )
            copied = {t: int(await conn.fetchval(f'SELECT COUNT(*) FROM "{t}"')) for t in TABLES}
    finally:
        await conn.close()
    expected = {t: len(rows) for t, (_, rows) in source.items()}
    if copied != expected:
        raise BackupError(f"the copy does not match the file: {copied} rows, not {expected}")
    return copied
