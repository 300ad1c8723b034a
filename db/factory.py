"""Opening the game store the settings ask for: PostgreSQL when a database URL is given, else the SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from db.store import GameStore


async def open_store(database_path: str | Path, database_url: str | None = None, **options: Any) -> GameStore:
    """Open and migrate the game store: the PostgreSQL database at `database_url` when it is set (a
    postgresql://user:password@host:port/name URL), else the SQLite file at `database_path` (created as needed).
    A `database_path` that is itself a postgresql:// URL opens that database. `options` go to the backend's `open`
    (`SqliteGameStore.open` or `PostgresGameStore.open`); `pg_bin` (the folder of pg_dump, for the copy before a
    migration) only to PostgreSQL's.

    Raises `StoreUnavailable` (naming host and database, never the password) when PostgreSQL cannot be reached,
    `SchemaTooNew` when the database was written by a newer bot, `StoreError` for a file that is not SQLite."""
    if database_url is not None and database_url.strip():
        url = database_url.strip()
    elif isinstance(database_path, str) and "://" in database_path:
        url = database_path.strip()
    else:
        url = None
    if url is not None:
        from db.postgres import PostgresGameStore, is_postgres_url, redact_url  # asyncpg only when it is used

        if not is_postgres_url(url):
            from db.errors import StoreUnavailable

            raise StoreUnavailable(f"DATABASE_URL must start with postgresql://, not {redact_url(url)!r}")
        return await PostgresGameStore.open(url, **options)
    from db.sqlite import SqliteGameStore

    options.pop("pg_bin", None)
    return await SqliteGameStore.open(database_path, **options)
