"""The service layer's tests: the game service's door and the commit path over a store of their own (SQLite's
":memory:", a scratch file of this store alone), with no Discord at all: what shows the games is a recording
`Tables`, and a listener keeps every change the commit path announces."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from cogs.decide import Change
from cogs.service import GameService
from db.sqlite import SqliteGameStore


class Shown:
    """Where the games are shown, for a test: what was posted and shown, in order."""

    def __init__(self, host=None) -> None:
        self.tables: list[tuple[int, int]] = []  # (game id, version) of each table posted
        self.events: dict[int, list] = {}  # per game: the events of its tables, in the order posted
        self.lobbies: list[tuple[int, int, str]] = []  # (game id, version, status) of each lobby shown
        self.cancels: list[tuple[int, int | None]] = []
        self.closed: list[tuple[int, str]] = []

    async def post_table(self, rec, game, events, *, note, ping):
        self.tables.append((rec.id, rec.version))
        self.events.setdefault(rec.id, []).extend(events)
        return 10_000 + len(self.tables)

    async def post_lobby(self, rec, note):
        self.lobbies.append((rec.id, rec.version, str(rec.status)))
        return 20_000 + rec.id

    async def show_lobby(self, rec):
        self.lobbies.append((rec.id, rec.version, str(rec.status)))

    async def lobby_closed(self, rec, text):
        self.closed.append((rec.id, text))

    async def cancelled(self, rec, by):
        self.cancels.append((rec.id, by))


class Heard:
    """A listener of the commit path: every change it announced, busy/settled included."""

    def __init__(self) -> None:
        self.changes: list[Change] = []

    def heard(self, change: Change) -> None:
        self.changes.append(change)

    def kinds(self, game_id: int | None = None, *, saved_only: bool = True) -> list[str]:
        return [
            c.kind
            for c in self.changes
            if (game_id is None or c.game_id == game_id) and not (saved_only and c.kind in ("busy", "settled"))
        ]

    def clear(self) -> None:
        self.changes.clear()


@pytest.fixture
async def service() -> AsyncIterator[GameService]:
    store = await SqliteGameStore.open(":memory:", synchronous="NORMAL")
    service = GameService(None, store, tables=Shown)
    service.seeds = random.Random(7)
    try:
        yield service
    finally:
        service.stop_all()
        await service.idle()
        await store.close()


@pytest.fixture
def heard(service: GameService) -> Heard:
    listener = Heard()
    service.listen(listener)
    return listener
