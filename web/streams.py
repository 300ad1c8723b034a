"""The boards' live streams (Server-Sent Events): the game's whole view each time it changes, bounded per person, per
address and in the whole process (past the process's ceiling a board is told to ask every few seconds instead), and
a slot given back the moment its connection closes."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from aiohttp import web

from i18n import messages as M
from i18n import translate

from . import auth
from .errors import Refusal
from .guard import SECURITY_HEADERS, Slots
from .hub import wait_changed
from .people import lang_of
from .snapshots import shown_of

KEEPALIVE_SECONDS = 15.0
STALE_REREADS = 3  # how many times a stream reads the game again when it changed during the read, before sending
RETRY_SECONDS = 5  # what a board refused for the process's ceiling waits before it asks for the game again


class Streams:
    """The live streams of one board."""

    def __init__(self, board: Any, ceiling: int) -> None:
        self.board = board
        self.slots = Slots(ceiling)
        self._open: set[asyncio.Task] = set()  # the streams' handlers, ended at once when the board stops

    def close(self) -> None:
        """The board stops: every stream ends now (its page reconnects and catches up by version)."""
        for task in list(self._open):
            task.cancel()

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-Sent Events: the game's whole view each time it changes (event id: its version), a comment every
        few seconds to keep the connection open. `?v=N` (or Last-Event-ID): the version the board already shows
        (`N-settling`: shown while a move of it was still under way, offering nothing); anything newer, or the
        settled state of a version shown settling, is sent at once, so a board that lost its connection catches up
        and never stays on a frame that offers nothing."""
        board = self.board
        gid = board.game_id(request)
        people = board.people
        person, address = people.person(request), people.address(request)
        refused = self.slots.take(person, address)
        if refused == "process":  # the whole process is at its ceiling: the page asks every few seconds instead
            text = translate(lang_of(request), M.WEB_BUSY_STREAMS)
            raise Refusal(503, text, {"Retry-After": str(RETRY_SECONDS)})
        if refused is not None:
            raise Refusal(429, translate(lang_of(request), M.WEB_TOO_MANY_BOARDS))
        task = asyncio.current_task()
        if task is not None:
            self._open.add(task)
        try:
            return await self._stream(request, gid)
        finally:
            self._open.discard(task)  # type: ignore[arg-type]
            self.slots.give_back(person, address)

    async def _stream(self, request: web.Request, gid: int) -> web.StreamResponse:
        board, hub, snapshots = self.board, self.board.hub, self.board.snapshots
        known, sent_settling = shown_of(request.headers.get("Last-Event-ID") or request.query.get("v", "-1"))
        topic = hub.watch(gid)
        board.metrics.connections.set(hub.connections)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", **SECURITY_HEADERS}
        )
        reader = board.people.reader(
            request, stream=True
        )  # once per stream (and again once a token it came with expires)
        try:
            change = topic.changed  # taken before each read: a change during the read wakes the next wait
            view, text = await snapshots.stream_view(gid, reader)
            await response.prepare(request)
            waited = None  # the computers' wait last sent (it changes without a new version: web/view.py's `wait`)
            while True:
                for _ in range(STALE_REREADS):  # the game changed during the read (a forced claim saved just after
                    if not change.is_set():  # the move, say): what was read is old, and must not be offered
                        break
                    change = topic.changed
                    view, text = await snapshots.stream_view(gid, reader)
                # A move is still being saved and shown: draw it, offer nothing yet. A version this board was shown
                # settled stays so: an operation that saves nothing new (a table posted, a repair pass) while the
                # board is sent something else (the computers' wait) never takes the offer away and back.
                settling = hub.busy(gid) and (view["version"] != known or sent_settling)
                wait = view.get("wait")
                if view["version"] != known or (sent_settling and not settling) or wait != waited:
                    await response.write(snapshots.frame(view, text, settling))
                    known, sent_settling, waited = view["version"], settling, wait
                    changed = board.changed_at.get(gid)
                    if changed is not None:
                        board.metrics.push.observe(time.perf_counter() - changed)
                else:
                    await response.write(b": still here\n\n")
                if settling:
                    await hub.settled(gid)  # the move's end (its last save, its table): then the settled state
                    woke = True
                else:
                    woke = await wait_changed(change, KEEPALIVE_SECONDS)
                change = topic.changed
                if time.time() >= reader.until:
                    reader = board.people.reader(request, stream=True)
                # a quiet spell: read again anyway (what another board of the game read a moment ago will do)
                view, text = await snapshots.stream_view(gid, reader, max_age=None if woke else 1.0)
        except (ConnectionResetError, asyncio.CancelledError):
            pass  # the page went (its connection closed: the handler is cancelled at once, and its slot freed)
        except Refusal:
            if not response.prepared:
                raise
        finally:
            hub.unwatch(gid)
            board.metrics.connections.set(hub.connections)
        return response

    async def stream_token(self, request: web.Request) -> web.Response:
        """A short-lived token for the query of the game's event stream (it opens that stream and nothing else), for
        the people of this request's session (the Activity's header session: EventSource cannot send it)."""
        board = self.board
        gid = board.game_id(request)
        session = board.people.session(request)
        await board.snapshots.view(gid, board.people.reader(request))  # refused unless this session may watch it
        users = [u for u, games in session.games if gid in games]
        if not users:  # a local game's reader: the stream needs no token
            raise Refusal(403, translate(lang_of(request), M.WEB_NOT_YOURS))
        return web.json_response({"token": auth.stream_token(board.secret, users[0], gid)})
