"""The hub: every write that changes a game wakes its watchers once it returned; reads wake nobody."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

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
    assert await wait_changed(seven.changed, 0.01) is False  # nothing new since: it gives up after its timeout
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


async def test_a_notice_of_the_feed_heard_during_a_write_here_waits_for_its_end():
    """PostgreSQL sends a write's notice at its commit: the feed may tell the hub of the new version before the
    writer hears that it committed. The boards are woken once the write returned (and then take the game as the
    commit path saved it, not read back); a newer version told meanwhile (another process wrote after) still wakes
    them, and so does one told during a write that failed."""
    from tests.web.test_view import position, record

    hub = Hub()
    topic = hub.watch(7)

    class Feeding(Store):
        def __init__(self) -> None:
            super().__init__()
            self.told: int | None = None
            self.during: list[int] = []  # the hub's count of changes seen, as the write is about to return

        async def save_move(self, game_id: int, version: int, **_) -> int:
            hub.heard(game_id, version + 1)  # its own notice, first
            if self.told is not None:
                hub.heard(game_id, self.told)
            self.during.append(hub.version_of(game_id))
            return version + 1

    inner = Feeding()
    store = watched(inner, hub)
    change = topic.changed
    game, seats = position(0, 2, 3)
    rec = dataclasses.replace(record(game, seats), id=7, version=3)

    assert await store.save_move(7, 3, state={}) == 4
    assert inner.during == [0], "nobody woken during the write"
    assert change.is_set() and hub.version_of(7) == 1, "woken once, when the write returned"
    store.saved(dataclasses.replace(rec, version=4), game)
    assert hub.handed(7) is not None and hub.handed(7).version == 4

    inner.told = 9  # another process's version 9 came while this write (version 5) was under way
    assert await store.save_move(7, 4, state={}) == 5
    assert inner.during == [0, 1], "nobody woken during the write"
    assert hub.version_of(7) == 3 and topic.seen == 9, "woken for the write, then for the newer version"
    store.saved(dataclasses.replace(rec, version=5), game)
    assert hub.handed(7) is None, "version 9 is newer than what was saved here: read the store"

    class Failing(Store):
        async def save_move(self, game_id: int, version: int, **_) -> int:
            hub.heard(game_id, 12)
            raise RuntimeError("stale")

    failing = watched(Failing(), hub)
    with pytest.raises(RuntimeError):
        await failing.save_move(7, 9, state={})
    assert hub.version_of(7) == 4 and topic.seen == 12, "the notice told during a failed write still wakes them"


async def test_a_stream_cancelled_as_its_game_changes_ends_cancelled():
    """A board's stream waits for its game's change; when it is cancelled (the page closed, the bot stopping) in the
    same moment the change comes, it must end, not go on to send the change. Python 3.11's asyncio.wait_for returned
    normally there (it swallowed the cancellation); each of 30 tries below lost it with wait_for."""
    for _ in range(30):
        changed = asyncio.Event()
        waiting = asyncio.create_task(wait_changed(changed, 30))
        await asyncio.sleep(0)  # the stream is waiting
        changed.set()
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
