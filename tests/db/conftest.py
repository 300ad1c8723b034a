"""Fixtures for the store tests: every test that asks for `store` or `open_store` runs twice, on SQLite (a temporary
file) and on PostgreSQL (a fresh database on the test server); a clock the test moves; stand-in game states.

`backend` is what differs: how to open a store, read every row behind the store's back (`dump`), damage a row
(`execute`), start again from an empty database (`reset`). Most tests treat the engine's state as opaque JSON;
`fake_decode` plays the engine's part in refusing a bad state.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from db import GameRecord, GameStore, Seat, SqliteGameStore
from tests.conftest import DatabaseFactory

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def fake_state(turn: int = 0, **extra: Any) -> dict[str, Any]:
    return {"format_version": 1, "turn": turn, "kingdoms": [[["castle", 0, 0]]], **extra}


def fake_decode(state: dict[str, Any]) -> dict[str, Any]:
    """Stands in for `Game.from_dict`: refuses states it does not know."""
    if state.get("format_version") != 1:
        raise ValueError(f"unknown format_version {state.get('format_version')!r}")
    return state


PINK, YELLOW, GREEN, BLUE = "#e91e63", "#ffeb3b", "#4caf50", "#2196f3"


def seats(*user_ids: int) -> list[Seat]:
    colours = [PINK, YELLOW, GREEN, BLUE]
    return [Seat.human(uid, f"player{uid}", colours[i]) for i, uid in enumerate(user_ids)]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


class Backend:
    """One database behind the stores of a test."""

    name: str

    @property
    def location(self) -> str:
        """What `db.open_store` takes to open this database (a file path or a URL)."""
        raise NotImplementedError

    async def open(self, **options: Any) -> GameStore:
        raise NotImplementedError

    async def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table, read through a separate connection: what another process would see."""
        raise NotImplementedError

    async def execute(self, sql: str, *params: Any) -> None:
        """Run one statement (``?`` placeholders) behind the store's back, committed at once."""
        raise NotImplementedError

    async def reset(self) -> None:
        """From now on, stores open a new, empty database."""
        raise NotImplementedError


class SqliteBackend(Backend):
    name = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def location(self) -> str:
        return str(self.path)

    async def open(self, **options: Any) -> GameStore:
        return await SqliteGameStore.open(self.path, **options)

    async def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        return dump(self.path)

    async def execute(self, sql: str, *params: Any) -> None:
        with sqlite3.connect(self.path) as conn:
            conn.execute(sql, params)

    async def reset(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)


class PostgresBackend(Backend):
    name = "postgres"

    def __init__(self, new_database: Callable[..., Awaitable[str]], url: str) -> None:
        self.new_database = new_database
        self.url = url

    @property
    def location(self) -> str:
        return self.url

    async def open(self, **options: Any) -> GameStore:
        from db.postgres import PostgresGameStore

        return await PostgresGameStore.open(self.url, **options)

    async def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            tables = [
                r[0]
                for r in await conn.fetch(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"
                )
            ]
            return {t: sorted((tuple(r) for r in await conn.fetch(f'SELECT * FROM "{t}"')), key=repr) for t in tables}
        finally:
            await conn.close()

    async def execute(self, sql: str, *params: Any) -> None:
        import asyncpg

        from db.postgres import numbered

        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(numbered(sql), *params)
        finally:
            await conn.close()

    async def reset(self) -> None:
        self.url = await self.new_database(migrated=True)


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Backend]:
    """The database of the test: parametrised, so each test that uses it runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield SqliteBackend(db_path)
        return
    factory = DatabaseFactory(request.getfixturevalue("postgres_server"))  # a sync fixture: fine from here
    try:
        yield PostgresBackend(factory.create, await factory.create(migrated=True))
    finally:
        await factory.drop_all()


@pytest.fixture
async def open_store(backend: Backend, clock: FakeClock) -> AsyncIterator[Callable[..., Any]]:
    """Opens stores on the test's database (several may be open at once, as several bot processes would);
    closes them all at the end."""
    opened: list[GameStore] = []

    async def opener(**options: Any) -> GameStore:
        options.setdefault("decode_state", fake_decode)
        options.setdefault("clock", clock)
        store = await backend.open(**options)
        opened.append(store)
        return store

    yield opener
    for store in opened:  # an open store's thread (or pool) would keep the test run alive
        await store.close()


@pytest.fixture
async def store(open_store: Callable[..., Any]) -> GameStore:
    return await open_store()


async def new_game(
    store: GameStore, *, channel_id: int = 100, guild_id: int | None = 10, players: tuple[int, ...] = (1, 2)
) -> GameRecord:
    """A lobby with `players` seated, the first of them hosting."""
    return await store.create_game(
        channel_id=channel_id,
        guild_id=guild_id,
        host_user_id=players[0],
        kind="kingdomino",
        config={"game": "kingdomino", "variants": []},
        seats=seats(*players),
        seed=42,
        reminder_hours=12,
        deadline_hours=48,
    )


async def playing_game(store: GameStore, **options: Any) -> GameRecord:
    """A game that has started (version 2, turn 0)."""
    record = await new_game(store, **options)
    await store.start_game(record.id, record.version, config={"game": "kingdomino"}, state=fake_state(0))
    return await store.get_game(record.id)


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, read through a separate plain connection: what another process would see."""
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
