"""Who is watching which game, and the news that a game changed: a small publish/subscribe in the bot's process.

The hub is one of the commit path's listeners (`cogs.commit.Commits.listeners`): every change of a game that this
process commits (a move from Discord, from the board, a computer player, a deadline, an undo, a start, a cancel, a
lobby change) is announced to it (`heard`), as to the presenter. A board's connection waits on its game's `Topic`;
what it sends is read again from the store, so a missed or doubled notice costs nothing but a read (the board asks by
version numbers and catches up) -- except a move: its announcement carries the game at its new version, which the
hub keeps for the boards (`handed`) instead of reading back (and decoding) what was just written, as long as
nothing newer was heard of. The announcements that an operation on a game began and ended (`busy`, `settled`) tell
the boards when a move is still being saved and shown (they draw it, and offer nothing until it settled).

Moves made by another process on the same database (another shard) arrive through the store's version feed
(`db.changes`: NOTIFY on PostgreSQL, a poll of the watched games' versions on SQLite), started when the first board
opens. Each topic remembers the newest game version it heard of, so a process's own write, heard a second time
through the feed, wakes nobody twice; a notice heard while a write of this process on the game is under way (most
often that write's own, sent at its commit before the writer hears of it) waits for the write's end, so that the
boards take the game as the commit path saved it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any

from cogs.decide import Change
from db.models import GameRecord, GameStatus
from engine import Game


class Topic:
    """One game's news: how many changes this hub saw (`version`), the newest game version it heard of (`seen`, -1:
    none yet), a condition its watchers wait on, and the game at `seen` as the commit path of this process saved it
    (`handed`: None when it was not, or something else was heard of since)."""

    __slots__ = ("changed", "handed", "seen", "version", "watchers")

    def __init__(self) -> None:
        self.version = 0
        self.seen = -1
        self.watchers = 0
        self.changed = asyncio.Event()
        self.handed: GameRecord | None = None


class Hub:
    """Per game: who watches it, and a wake-up when it changes. `changed_at` remembers when each game last changed
    (monotonic clock) for the click-to-board latency figures."""

    def __init__(self) -> None:
        self._topics: dict[int, Topic] = {}
        self._writing: dict[int, int] = {}  # per game: this process's operations under way (`busy` to `settled`)
        self._settled: dict[int, asyncio.Event] = {}  # per game under way: set when its operations settled
        self._held: dict[int, int] = {}  # per game: the newest version the feed told of while one was under way
        self.listeners: list[Callable[[int], None]] = []
        self.feed: Any = None  # the store's version feed (db.changes.VersionFeed), once `follow` was called

    def topic(self, game_id: int) -> Topic:
        topic = self._topics.get(game_id)
        if topic is None:
            topic = self._topics[game_id] = Topic()
        return topic

    def publish(self, game_id: int, version: int | None = None) -> None:
        """Game `game_id` changed here (its write is committed; `version`: the game's new version, when known):
        wake everyone watching it, unless the feed already told them of this version."""
        topic = self._topics.get(game_id)
        if topic is not None and (version is None or version > topic.seen):
            self._wake(topic, version)
        for listener in self.listeners:
            listener(game_id)

    def heard(self, change: Change) -> None:
        """The commit path of this process announced `change`: an operation began (`busy`) or ended (`settled`), or
        a change was committed (the boards wake; a move's game is kept for them)."""
        if change.kind == "busy":
            self.writing(change.game_id)
        elif change.kind == "settled":
            self.wrote(change.game_id)
        elif change.kind == "wait":  # nothing saved: the boards read the game again, to show the computers' wait
            topic = self._topics.get(change.game_id)
            if topic is not None:
                self._wake(topic, None)
        else:
            self.publish(change.game_id, change.version)
            if change.kind == "move" and change.record is not None and change.record.game is not None:
                self.saved(change.record, change.record.game)

    def busy(self, game_id: int) -> bool:
        """Whether an operation of this process on the game is under way (a move is still being saved and shown)."""
        return bool(self._writing.get(game_id))

    async def settled(self, game_id: int) -> None:
        """Until no operation of this process on the game is under way."""
        event = self._settled.get(game_id)
        if event is not None:
            await event.wait()

    def feed_heard(self, game_id: int, version: int) -> None:
        """The feed says game `game_id` is at `version` (written here or by another process): wake its watchers if
        that is newer than what this hub knew. While a write of this process on the game is under way, the notice
        waits for its end (`wrote`): most often it is that write's own (PostgreSQL sends it at the commit, before
        the writer hears that it committed), and the boards then take the game as the commit path saved it."""
        topic = self._topics.get(game_id)
        if topic is None or version <= topic.seen:
            return
        if self._writing.get(game_id):
            self._held[game_id] = max(version, self._held.get(game_id, -1))
            return
        self._wake(topic, version)

    def writing(self, game_id: int) -> None:
        """An operation of this process on game `game_id` begins."""
        self._writing[game_id] = self._writing.get(game_id, 0) + 1
        if game_id not in self._settled:
            self._settled[game_id] = asyncio.Event()

    def wrote(self, game_id: int) -> None:
        """That operation ended (its changes were each announced as committed): the boards waiting for it to settle
        go on, then hear of anything newer the feed told of meanwhile."""
        left = self._writing.get(game_id, 1) - 1
        if left > 0:
            self._writing[game_id] = left
            return
        self._writing.pop(game_id, None)
        event = self._settled.pop(game_id, None)
        if event is not None:
            event.set()
        held = self._held.pop(game_id, None)
        if held is not None:
            self.feed_heard(game_id, held)

    @staticmethod
    def _wake(topic: Topic, version: int | None) -> None:
        if version is not None:
            topic.seen = version
        topic.handed = None  # whatever was handed is no longer the newest (`saved` hands the new one next)
        topic.version += 1
        event, topic.changed = topic.changed, asyncio.Event()
        event.set()

    def saved(self, record: GameRecord, game: Game) -> None:
        """The commit path of this process saved `game` as version `record.version` of its game (`record`: the game
        as it read it, at that version): keep a copy of it for the game's boards, if anyone watches it and that is
        the newest version heard of. A finished game is not kept (its save changed more than the state: its status,
        its results), nor one whose version the store did not report (`publish` without one)."""
        topic = self._topics.get(record.id)
        if topic is None or topic.seen != record.version or game.is_over or record.status != GameStatus.PLAYING:
            return
        topic.handed = dataclasses.replace(record, game=game.clone(), state=None)

    def handed(self, game_id: int) -> GameRecord | None:
        """The game at the newest version heard of, as this process's commit path saved it (None: read the store)."""
        topic = self._topics.get(game_id)
        if topic is None or topic.handed is None or topic.handed.version != topic.seen:
            return None
        return topic.handed

    def listen_to(self, service: Any) -> None:
        """Hear of every change the service's commit path commits, and of the changes other processes make to its
        store (its version feed, once a game is watched)."""
        service.listen(self)
        self.follow(service.store)

    def follow(self, store: Any) -> None:
        """Hear of the changes other processes make to `store`'s games (its version feed, if it has one), from the
        moment a game is watched."""
        make = getattr(store, "version_feed", None)
        if self.feed is None and make is not None:
            self.feed = make(lambda: self._topics.keys(), self.feed_heard)

    async def close(self) -> None:
        """Stop the feed (its task, its connection)."""
        if self.feed is not None:
            await self.feed.close()

    def version_of(self, game_id: int) -> int:
        """How many changes of a watched game this hub has seen; -1 when nobody watches it (nothing is cached)."""
        topic = self._topics.get(game_id)
        return topic.version if topic is not None else -1

    def watch(self, game_id: int) -> Topic:
        topic = self.topic(game_id)
        topic.watchers += 1
        if self.feed is not None:
            self.feed.wake()
        return topic

    def unwatch(self, game_id: int) -> None:
        topic = self._topics.get(game_id)
        if topic is None:
            return
        topic.watchers -= 1
        if topic.watchers <= 0:
            self._topics.pop(game_id, None)

    @property
    def connections(self) -> int:
        return sum(t.watchers for t in self._topics.values())


async def wait_changed(event: asyncio.Event, timeout: float) -> bool:
    """Wait until a topic's `changed` event (taken before the last read) is set (True), or `timeout` seconds pass
    (False: time for a keep-alive).

    asyncio.timeout, not wait_for: Python 3.11's wait_for returns normally when the task is cancelled just as the event
    is set (it swallows the cancellation), and a cancelled stream would go on as if nothing had happened."""
    if event.is_set():
        return True
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
        return True
    except TimeoutError:
        return False
