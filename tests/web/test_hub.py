"""The hub: every write that changes a game wakes its watchers once it returned; reads wake nobody."""

from __future__ import annotations

import asyncio

from web.hub import GAME_WRITES, Hub, wait_changed, watched


class Store:
    def __init__(self) -> None:
        self.calls: list[str] = []

    async def save_move(self, game_id: int, version: int, **_) -> int:
        self.calls.append("save")
        return version + 1

    async def get_game(self, game_id: int) -> str:
        return "game"


async def test_writes_wake_the_watchers_of_their_game_only():
    hub = Hub()
    store = watched(Store(), hub)
    assert watched(store, hub) is store, "wrapped once"
    seven, eight = hub.watch(7), hub.watch(8)
    change7, change8 = seven.changed, eight.changed
    assert await store.get_game(7) == "game"
    assert not change7.is_set(), "a read changes nothing"
    assert await store.save_move(7, 3, state={}) == 4
    assert change7.is_set() and not change8.is_set()
    assert hub.version_of(7) == 1 and hub.version_of(8) == 0 and hub.version_of(9) == -1
    assert await wait_changed(change7, 0) is True
    assert await asyncio.wait_for(wait_changed(seven.changed, 0.01), 1) is False  # nothing new since
    assert hub.connections == 2
    hub.unwatch(7)
    hub.unwatch(8)
    assert hub.connections == 0 and hub.version_of(7) == -1
    assert {"save_move", "undo_last_action", "start_game", "cancel_game"} <= GAME_WRITES
