"""The hub: every write that changes a game wakes its watchers once it returned; reads wake nobody."""

from __future__ import annotations

import asyncio
import dataclasses

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


def test_a_move_saved_here_is_handed_to_the_boards_as_a_copy_while_it_is_the_newest():
    """The commit path hands the hub the game it just saved (`saved`): the boards take that copy instead of reading
    the store, while it is the newest version heard of. The copy is the game as saved (later moves of the live game
    do not change it); any other news of the game drops it; a game nobody watches, or over, is not kept."""
    from tests.web.test_view import position, record

    game, seats = position(0, 5, 6)
    hub = Hub()
    rec = dataclasses.replace(record(game, seats), id=7, version=4)
    hub.saved(rec, game)
    assert hub.handed(7) is None, "nobody watches game 7: nothing kept"
    hub.watch(7)
    hub.publish(7, 4)  # the save's own news (WatchedStore), then the hand-over
    hub.saved(rec, game)
    handed = hub.handed(7)
    assert handed is not None and handed.version == 4 and handed.game is not game
    saved_as = game.to_dict()
    game.apply(game.legal_actions()[0])  # the live game goes on (a forced claim, the next move)
    assert handed.game.to_dict() == saved_as, "the copy is the game as saved"
    assert hub.handed(7) is handed
    hub.heard(7, 4)  # the feed repeats the save's version: still the newest
    assert hub.handed(7) is handed
    hub.heard(7, 5)  # another process wrote version 5: read the store
    assert hub.handed(7) is None
    hub.saved(rec, game)  # a hand-over for a version older than the newest heard of is not kept
    assert hub.handed(7) is None
    newer = dataclasses.replace(rec, version=6)
    hub.publish(7, 6)
    hub.saved(newer, game)
    assert hub.handed(7) is not None
    hub.publish(7)  # a write whose version the store did not say (a lobby change, an undo's): read the store
    assert hub.handed(7) is None
    hub.publish(7, 8)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    hub.saved(dataclasses.replace(rec, version=8), game)
    assert hub.handed(7) is None, "a finished game's save changed more than its state: read the store"


async def test_the_watched_store_passes_the_commit_paths_hand_over_to_the_hub():
    from tests.web.test_view import position, record

    game, seats = position(1, 3, 4)
    hub = Hub()
    store = watched(Store(), hub)
    hub.watch(1)
    rec = record(game, seats)
    version = await store.save_move(1, rec.version, state=game.to_dict())
    store.saved(dataclasses.replace(rec, version=version), game)
    handed = hub.handed(1)
    assert handed is not None and handed.version == version == rec.version + 1
    assert handed.game.to_dict() == game.to_dict() and handed.seats == seats
