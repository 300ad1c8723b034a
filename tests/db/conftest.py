"""Fixtures for the store tests: a store on a temporary file, a clock the test moves, and stand-in game states.

Most tests treat the engine's state as opaque JSON; `fake_decode` plays the engine's part in refusing a bad state.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from db import GameRecord, GameStore, Seat, SqliteGameStore

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


def seats(*user_ids: int) -> list[Seat]:
    colours = ["pink", "yellow", "green", "blue"]
    return [Seat.human(uid, f"player{uid}", colours[i]) for i, uid in enumerate(user_ids)]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
async def open_store(db_path: Path, clock: FakeClock) -> AsyncIterator[Callable[..., Any]]:
    """Opens stores on the test's database file (several may be open at once); closes them all at the end."""
    opened: list[SqliteGameStore] = []

    async def opener(**options: Any) -> SqliteGameStore:
        options.setdefault("decode_state", fake_decode)
        options.setdefault("clock", clock)
        store = await SqliteGameStore.open(db_path, **options)
        opened.append(store)
        return store

    yield opener
    for store in opened:  # an open store's thread would keep the test run alive
        await store.close()


@pytest.fixture
async def store(open_store: Callable[..., Any]) -> SqliteGameStore:
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
