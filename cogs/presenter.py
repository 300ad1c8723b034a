"""Showing the games: a listener of every saved change, and a `Result` of the game service posted as the game's
table, once per version of the game, even with several processes.

The presenter hears each change the commit path announces (`heard`): the events that wait for the next table, what
a taken-back move or an ended game no longer needs to say, a lobby's new state (shown on its message) and a cancel
(said in its channel). It posts through its `Tables` (Discord's channels: `cogs.tables.DiscordTables`; the local
board's: nothing to post), decides whom the table pings, records which message shows which version (through the
commit path) and hands the notifier whom to tell. It decides nothing about the game.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from db.models import GameRecord
from engine import Event, Game
from i18n import messages as M
from i18n import translate

from . import pictures
from .decide import Change, Result, turn_key
from .notifier import TurnNotice
from .words import UserError

if TYPE_CHECKING:
    from .commit import Commits
    from .games import Games
    from .notifier import Notifier

log = logging.getLogger(__name__)

TABLE_LEASE_SECONDS = 120.0  # how long a process may take to post a table before another one may


class Host(Protocol):
    """What the presenter needs from the game service."""

    owner: str
    games: Games
    commits: Commits
    notifier: Notifier
    clock: Callable[[], datetime]


class Tables(Protocol):
    """Where the games are shown: a table message per version, a lobby's message, what is said in a game's channel.
    Discord's channels (`cogs.tables.DiscordTables`), or nothing but the board (`web.local.BoardOnly`)."""

    async def post_table(
        self, rec: GameRecord, game: Game, events: list[Event], *, note: str, ping: int | None
    ) -> int | None:
        """Post the table (its words, pictures and controls; `ping`: the person its mention notifies) and take the
        controls off the previous one; the new message's id (None: no message)."""

    async def post_lobby(self, rec: GameRecord, note: str) -> int | None:
        """Post a new lobby's message; its id (None: no message). A refusal (`UserError`) says why it could not."""

    async def show_lobby(self, rec: GameRecord) -> None:
        """Show a lobby's new state on its message (`rec.table_message_id`)."""

    async def lobby_closed(self, rec: GameRecord, text: str) -> None:
        """Show on a lobby's message that it closed (`text`), without its controls."""

    async def cancelled(self, rec: GameRecord, by: int | None) -> None:
        """Say in the game's channel that `by` cancelled it; take the controls off its table."""


class Presenter:
    """Shows the games of one bot process."""

    def __init__(self, host: Host, tables: Tables) -> None:
        self.host = host
        self.tables = tables
        self.notes: dict[int, list[str]] = {}  # per game: lines for its next table (the start, a deadline)
        self.unshown: dict[int, list[Event]] = {}  # per game: what was saved since its table was last posted
        self._showing: dict[int, asyncio.Future] = {}  # per game: the last of its lobby's shows, in order

    # -- hearing the changes ----------------------------------------------------------------------------------------
    def heard(self, change: Change) -> None:
        gid = change.game_id
        if change.kind == "move":
            self.unshown.setdefault(gid, []).extend(change.events)
        elif change.kind == "undo":
            self.forget(gid)
        elif change.kind in ("cancel", "deleted"):
            self.forget(gid)
            if change.reason in ("cancelled", "forgotten"):
                self._show(gid, lambda: self._cancelled(gid, change.by))
        elif change.kind in ("lobby", "start") and change.record is not None:
            rec = change.record
            if rec.table_message_id is not None:  # a lobby with a message (a new one's is posted by `post_lobby`)
                self._show(gid, lambda: self.tables.show_lobby(rec))

    def _show(self, gid: int, show: Callable[[], Awaitable[None]]) -> None:
        """Show a lobby's change after the game's earlier ones (in the order heard), in the background: a listener
        does not wait for Discord. A failure is logged: the game is saved."""
        before = self._showing.get(gid)

        async def in_turn() -> None:
            if before is not None:
                await asyncio.gather(before, return_exceptions=True)
            try:
                await show()
            except Exception:
                log.info("Game %s: its lobby's message could not be updated", gid, exc_info=True)

        task = self._showing[gid] = asyncio.ensure_future(in_turn())
        task.add_done_callback(lambda t: self._showing.pop(gid, None) if self._showing.get(gid) is t else None)

    async def shown(self, gid: int) -> None:
        """Until what was heard of the game so far is shown (a lobby operation answers its person after it)."""
        task = self._showing.get(gid)
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    async def idle(self) -> None:
        while self._showing:
            await asyncio.gather(*list(self._showing.values()), return_exceptions=True)

    async def _cancelled(self, gid: int, by: int | None) -> None:
        rec = await self.host.games.get(gid)
        if rec.table_message_id is None:
            return
        if rec.game is None:  # cancelled in its lobby: the lobby's message says so, without its controls
            await self.tables.show_lobby(rec)
        if by is not None:  # someone cancelled it (not a forgotten host who sat alone): the channel is told who
            await self.tables.cancelled(rec, by)

    # -- tables -------------------------------------------------------------------------------------------------------
    def note(self, game_id: int, line: str) -> None:
        if line:
            self.notes.setdefault(game_id, []).append(line)

    def forget(self, game_id: int) -> None:
        """The game's table will not be posted for what it waited to say (it ended, or a move was taken back)."""
        self.notes.pop(game_id, None)
        self.unshown.pop(game_id, None)

    def has_news(self, game_id: int) -> bool:
        return bool(self.unshown.get(game_id) or self.notes.get(game_id))

    async def post_lobby(self, rec: GameRecord, note: str = "") -> None:
        """Post a new lobby's message, and record which message shows the lobby."""
        message_id = await self.tables.post_lobby(rec, note)
        if message_id is not None:
            await self.host.commits.table_shown(rec, rec.channel_id, message_id)

    async def publish(self, result: Result, *, note: str = "") -> None:
        """Post the table with everything that happened since the last one: once per version of the game, even
        with several processes (the store hands the posting to one of them)."""
        host, commits = self.host, self.host.commits
        result.record = rec = await host.games.get(result.record.id)
        if not await commits.store.claim_table_post(rec.id, rec.version, host.owner, TABLE_LEASE_SECONDS, host.clock()):
            return  # another process, or an earlier call, posts this version's table
        self.note(rec.id, note)
        events = self.unshown.get(rec.id, [])
        try:
            await self._post(rec, events, note="\n".join(self.notes.get(rec.id, [])))
        except BaseException:
            await commits.store.release_table_post(rec.id, rec.version, host.owner)  # the next attempt may try
            raise
        self.forget(rec.id)
        result.table_posted = True

    async def publish_or_warn(self, result: Result, *, note: str = "") -> None:
        """`publish`, for a change that is saved whatever happens here (an undo): a failure becomes the result's
        warning (the repair pass posts the table later), never the answer instead of "done"."""
        try:
            await self.publish(result, note=note)
        except Exception as error:
            log.warning("Game %s: saved, but its table could not be posted: %s", result.record.id, error)

            def warning(lang: str, error=error) -> str:
                reason = error.text(lang) if isinstance(error, UserError) else translate(lang, M.TABLE_NOT_UPDATED)
                return f"⚠️ {reason}"

            result.warning = warning

    async def _post(self, rec: GameRecord, events: list[Event], *, note: str) -> None:
        """Post the table (mentioning the player to act, if their settings and the pings so far allow), record it as
        the one showing this version, and hand the notifier whom to tell."""
        host = self.host
        game = rec.game
        assert game is not None
        d = game.decision()
        to_act = rec.seat_of(d.player) if d else None
        user_id = to_act.user_id if to_act is not None else None
        key, now = turn_key(game), host.clock()
        ping = None
        if user_id is not None:
            settings = await host.commits.store.get_user_settings(user_id)
            ping = user_id if host.notifier.table_ping(rec.id, key, user_id, settings, now) else None
        message_id = await self.tables.post_table(rec, game, events, note=note, ping=ping)
        await host.commits.table_shown(rec, rec.channel_id, message_id)
        if ping is not None:
            host.notifier.pinged(rec.id, key, ping, now)
        host.notifier.turn_passed(rec.id, None if game.is_over else key)
        if game.is_over:
            pictures.game_over(host, rec)  # the post-game review, worked out at low priority, posted once
        if user_id is not None:  # told outside the lock, by the person's choice (DM, quiet hours...)
            host.notifier.submit(TurnNotice(rec.id, key, user_id))
