"""The news that a game changed, whichever process wrote it: a feed of (game id, version) for the games a process
is watching (its open web boards).

A process hears its own writes directly (web.hub wraps its store); moves made by another process on the same
database (another shard) reach it through a `VersionFeed`:

- PostgreSQL (`ListeningFeed`): every write that raises a game's version sends ``NOTIFY kd_game_versions,
  'id:version'`` in its own transaction (db.postgres), so the notice leaves when the write commits and never for a
  write that rolled back. The feed LISTENs on a connection of its own; when that connection is lost (or stops
  answering) it connects again and catches up by reading the versions of every watched game once.
- SQLite (`PollingFeed`), which has no notices between processes: one query for the versions of all watched games
  every `period` seconds, and none while nothing is watched.

A feed only reports versions; the watcher compares them with what it knows and reads the game again if it is newer,
so a notice heard twice, or late, costs a comparison.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Any

log = logging.getLogger(__name__)

CHANNEL = "kd_game_versions"
POLL_SECONDS = 0.5
CHECK_SECONDS = 5.0  # how often a listening connection is asked whether it still answers
RETRY_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)  # waits between attempts to connect again, the last one repeated

Watched = Callable[[], Collection[int]]
OnVersion = Callable[[int, int], None]


def payload(game_id: int, version: int) -> str:
    return f"{game_id}:{version}"


def parse_payload(text: str) -> tuple[int, int] | None:
    """(game id, version) from a notice's text, or None when it is not one of ours."""
    game, _, version = text.partition(":")
    if not (game.isdigit() and version.isdigit()):
        return None
    return int(game), int(version)


class VersionFeed:
    """Tells `on_version(game_id, version)` about the games `watched()` names, once started (`wake`), until
    `close`. Subclasses say how they learn of changes (`_run`)."""

    def __init__(self, store: Any, watched: Watched, on_version: OnVersion) -> None:
        self._store = store
        self._watched = watched
        self._on_version = on_version
        self._task: asyncio.Task | None = None
        self._someone = asyncio.Event()  # set when a game may be watched: the loop has work
        self.catch_ups = 0  # how many times the versions of every watched game were read (tests, metrics)
        self._failures = 0  # attempts failed in a row (reset once the feed works again)

    def wake(self) -> None:
        """A game is watched now: start the feed (on the running loop) if it is not running, and let it look."""
        self._someone.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._forever(), name=type(self).__name__)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def catch_up(self) -> None:
        """Read the version of every watched game (one query) and report each."""
        ids = sorted(self._watched())
        if not ids:
            return
        self.catch_ups += 1
        for game_id, version in (await self._store.game_versions(ids)).items():
            self._on_version(game_id, version)

    async def _forever(self) -> None:
        while True:
            try:
                await self._run()
                return
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: say so once per outage, try again
                if self._failures == 0:
                    log.warning("Cannot follow other processes' moves (%s: %s); retrying", type(error).__name__, error)
                await asyncio.sleep(RETRY_SECONDS[min(self._failures, len(RETRY_SECONDS) - 1)])
                self._failures += 1

    async def _run(self) -> None:
        raise NotImplementedError

    async def _until_watched(self) -> None:
        while not self._watched():
            self._someone.clear()
            await self._someone.wait()


class PollingFeed(VersionFeed):
    """SQLite: the versions of all watched games, read together every `period` seconds while any is watched."""

    def __init__(self, store: Any, watched: Watched, on_version: OnVersion, *, period: float = POLL_SECONDS) -> None:
        super().__init__(store, watched, on_version)
        self.period = period

    async def _run(self) -> None:
        while True:
            await self._until_watched()
            await self.catch_up()
            self._failures = 0
            await asyncio.sleep(self.period)


class ListeningFeed(VersionFeed):
    """PostgreSQL: LISTEN on a connection of its own (`connect()` opens one); after each (re)connection, a catch-up
    read of the watched games' versions, since notices sent while it was away are lost."""

    def __init__(
        self,
        store: Any,
        watched: Watched,
        on_version: OnVersion,
        *,
        connect: Callable[[], Awaitable[Any]],
        check_every: float = CHECK_SECONDS,
    ) -> None:
        super().__init__(store, watched, on_version)
        self._connect = connect
        self.check_every = check_every
        self.connections = 0  # how many listening connections were opened (tests: a lost one is replaced)
        self.listening = asyncio.Event()  # set while a connection listens (tests)
        self.server_pid = 0  # the listening connection's backend process (tests cut it)

    def _heard(self, connection: Any, pid: int, channel: str, text: str) -> None:
        found = parse_payload(text)
        if found is not None:
            self._on_version(*found)

    async def _run(self) -> None:
        while True:
            conn = await self._connect()
            self.connections += 1
            self.server_pid = conn.get_server_pid()
            lost = asyncio.Event()
            conn.add_termination_listener(lambda _conn, lost=lost: lost.set())
            try:
                await conn.add_listener(CHANNEL, self._heard)
                self.listening.set()
                await self.catch_up()  # after LISTEN: a change in between is heard or read, never missed
                self._failures = 0
                await self._while_alive(conn, lost)
            finally:
                self.listening.clear()
                if not conn.is_closed():
                    conn.terminate()
            log.info("The connection that hears other processes' moves was lost; connecting again")

    async def _while_alive(self, conn: Any, lost: asyncio.Event) -> None:
        """Return when the connection is closed or stops answering a ping for `check_every` seconds."""
        while not lost.is_set() and not conn.is_closed():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.check_every):  # not wait_for: see web.hub.wait_changed
                    await lost.wait()
                return
            try:
                async with asyncio.timeout(self.check_every):
                    await conn.fetchval("SELECT 1")
            except asyncio.CancelledError:
                raise
            except Exception:
                return
