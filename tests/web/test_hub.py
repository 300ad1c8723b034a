"""The hub, a listener of the commit path: every change announced wakes the watchers of its game; an operation under
way holds the feed's notices until it settles; a move's game is handed to the boards."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from cogs.decide import Change
from web.hub import Hub, wait_changed


def move(game_id: int, version: int, record=None) -> Change:
    return Change(game_id, "move", version, record)


async def test_announced_changes_wake_the_watchers_of_their_game_only():
    hub = Hub()
    seven, eight = hub.watch(7), hub.watch(8)
    change7, change8 = seven.changed, eight.changed
    hub.heard(Change(7, "busy"))
    assert not change7.is_set(), "an operation that begins changes nothing yet"
    hub.heard(move(7, 4))
    assert change7.is_set() and not change8.is_set()
    assert hub.version_of(7) == 1 and hub.version_of(8) == 0 and hub.version_of(9) == -1
    assert await wait_changed(change7, 0) is True
    assert await wait_changed(seven.changed, 0.01) is False  # nothing new since: it gives up after its timeout
    hub.heard(Change(7, "settled"))
    assert hub.version_of(7) == 1, "the end of an operation is no change"
    for kind in ("undo", "start", "lobby", "cancel"):
        hub.heard(Change(8, kind))
    assert hub.version_of(8) == 4, "every kind of saved change wakes the boards"
    assert hub.connections == 2
    hub.unwatch(7)
    hub.unwatch(8)
    assert hub.connections == 0 and hub.version_of(7) == -1


async def test_a_board_waits_for_an_operation_under_way_to_settle():
    """Between `busy` and `settled` a move is still being saved and shown (the claims it forces, its table): a board
    draws what is saved and waits for the end before it offers anything. Two operations at once: the end of both."""
    hub = Hub()
    assert not hub.busy(7)
    await hub.settled(7)  # nothing under way: no wait
    hub.heard(Change(7, "busy"))
    hub.heard(Change(7, "busy"))
    waiting = asyncio.create_task(hub.settled(7))
    await asyncio.sleep(0)
    assert hub.busy(7) and not waiting.done()
    hub.heard(Change(7, "settled"))
    await asyncio.sleep(0)
    assert hub.busy(7) and not waiting.done(), "one operation is still under way"
    hub.heard(Change(7, "settled"))
    await waiting
    assert not hub.busy(7)


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
    hub.publish(7, 4)  # the save's own news, then the hand-over (both from its announcement: see below)
    hub.saved(rec, game)
    handed = hub.handed(7)
    assert handed is not None and handed.version == 4 and handed.game is not game
    saved_as = game.to_dict()
    game.apply(game.legal_actions()[0])  # the live game goes on (a forced claim, the next move)
    assert handed.game.to_dict() == saved_as, "the copy is the game as saved"
    assert hub.handed(7) is handed
    hub.feed_heard(7, 4)  # the feed repeats the save's version: still the newest
    assert hub.handed(7) is handed
    hub.feed_heard(7, 5)  # another process wrote version 5: read the store
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


async def test_the_commit_paths_announcement_of_a_move_hands_the_game_to_the_hub(tmp_path):
    """A real commit path, the hub among its listeners: a person's move is announced with the game as saved, which
    the hub keeps for the game's boards; a lobby change announced (no game) is news without a hand-over."""
    from cogs.commit import Commits
    from cogs.decide import utcnow
    from cogs.games import Games
    from db.models import Seat
    from db.sqlite import SqliteGameStore

    store = await SqliteGameStore.open(tmp_path / "games.sqlite3", synchronous="NORMAL")
    try:
        commits = Commits(Games(store), utcnow)
        hub = Hub()
        commits.listeners.append(hub)
        seats = [Seat.human(11, "Ann", "#ff0000"), Seat.human(12, "Bob", "#00ff00")]
        rec = await commits.open_lobby(
            channel_id=5, guild_id=1, host_user_id=11, kind="kingdomino", config={"seats": 2}, seats=seats, seed=3
        )
        topic = hub.watch(rec.id)
        result = await commits.start(rec)
        assert hub.version_of(rec.id) == 1 and hub.handed(rec.id) is None, "a start: news, read the store"
        game = result.game
        player = game.decision().player
        async with commits.hold(rec.id):
            assert hub.busy(rec.id)
            before = topic.version
            played = await commits.play(
                rec.id, int(player), game.legal_actions()[0], expected_version=result.version, through_optional=False
            )
        assert not hub.busy(rec.id) and topic.version > before
        handed = hub.handed(rec.id)
        assert handed is not None and handed.version == played.version
        assert handed.game.to_dict() == (await store.get_game(rec.id)).game.to_dict()
        assert handed.game is not played.game, "a copy: the live game goes on"
    finally:
        await store.close()


async def test_a_notice_of_the_feed_heard_during_an_operation_here_waits_for_its_end():
    """PostgreSQL sends a write's notice at its commit: the feed may tell the hub of the new version before the
    writer's announcement. While an operation of this process is under way, the feed's notices wait for its end
    (`settled`): the boards are woken by the announcement (and take the game as the commit path saved it, not read
    back); a newer version told meanwhile (another process wrote after) still wakes them at the end."""
    from tests.web.test_view import position, record

    hub = Hub()
    topic = hub.watch(7)
    game, seats = position(0, 2, 3)
    rec = dataclasses.replace(record(game, seats), id=7, version=4)

    hub.heard(Change(7, "busy"))
    hub.feed_heard(7, 4)  # the write's own notice, first
    assert hub.version_of(7) == 0, "nobody woken by the feed during the operation"
    hub.heard(move(7, 4, rec))
    assert hub.version_of(7) == 1 and hub.handed(7) is not None and hub.handed(7).version == 4
    hub.heard(Change(7, "settled"))
    assert hub.version_of(7) == 1 and hub.handed(7) is not None, "the held notice was of that very version"

    hub.heard(Change(7, "busy"))
    hub.feed_heard(7, 9)  # another process's version 9 came while this operation (version 5) was under way
    hub.heard(move(7, 5, dataclasses.replace(rec, version=5)))
    assert hub.version_of(7) == 2
    hub.heard(Change(7, "settled"))
    assert hub.version_of(7) == 3 and topic.seen == 9, "woken for the move, then for the newer version"
    assert hub.handed(7) is None, "version 9 is newer than what was saved here: read the store"

    hub.heard(Change(7, "busy"))
    hub.feed_heard(7, 12)
    hub.heard(Change(7, "settled"))  # an operation that saved nothing (refused)
    assert hub.version_of(7) == 4 and topic.seen == 12, "the notice told during a refused operation still wakes them"


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
