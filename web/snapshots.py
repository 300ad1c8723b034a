"""The games as the boards show them: each game read once per change however many boards watch it (a snapshot), its
view made once per language and viewer kind, and the events sent as made once for every board sent the same view.

The boards' work is spread over the event loop's turns (`after_others`): when many games change at once, a click's
first answer waits behind one step of it, never behind all of it."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from cogs.words import UserError
from db.models import GameRecord, GameStatus
from i18n import messages as M
from i18n import translate

from .errors import Refusal
from .people import Reader
from .view import LOG_LINES, game_view, recent_events, table_view

SETTLING = "-settling"  # an event id's mark: the version, drawn while a move of it was under way (`frame_id`)

YIELD_TURNS = 20  # turns of the event loop a step of the boards' work lets pass before it, at most (after_others)
KEPT_GAMES = 256
KEPT_FRAMES = 1024


async def after_others(turns: int = YIELD_TURNS) -> None:
    """Let whatever else is ready to run go first: wait for a turn of the event loop in which nothing else waits
    (CPython's loops keep what is ready in `_ready`; another loop: one turn), for at most `turns` turns, so that
    the boards' work goes on when the loop never quiets down. A click's first answer, which takes a few turns of the
    loop, then waits at most for one step of the boards' work (started when nothing else was ready), not one in
    each of its turns."""
    ready = getattr(asyncio.get_running_loop(), "_ready", None)
    for _ in range(turns):
        await asyncio.sleep(0)
        if not ready:
            return


@dataclass
class Snapshot:
    """A game as last read, with its recent events, for as long as its version holds (shared by every viewer)."""

    topic_version: int
    record: GameRecord
    events: list = field(default_factory=list)
    read_at: float = 0.0
    views: dict = field(default_factory=dict)  # (language, the viewer's seated people) -> (view, its JSON)
    tables: dict = field(default_factory=dict)  # language -> the part of the view every viewer shares (table_view)
    wait: dict | None = None  # the computer players' wait for an undo, when the game was read (`GameService.waiting`)
    undo: dict = field(default_factory=dict)  # a seated person's user id -> whether an undo of theirs would be done

    def _key(self, viewers: tuple[int, ...], lang: str) -> tuple[str, tuple[int, ...]]:
        seated = tuple(sorted(s.user_id for s in self.record.seats if s.user_id is not None and s.user_id in viewers))
        return lang, seated

    def has_view(self, viewers: tuple[int, ...], lang: str) -> bool:
        return self._key(viewers, lang) in self.views

    def table(self, lang: str) -> dict | None:
        """What every viewer sees alike, made once per language (None: a lobby, or no game)."""
        if self.record.game is None or self.record.status == GameStatus.LOBBY:
            return None
        table = self.tables.get(lang)
        if table is None:
            table = self.tables[lang] = table_view(self.record, lang, self.events)
        return table

    def view(self, viewers: tuple[int, ...], lang: str) -> tuple[dict, str]:
        """The view for these viewers, made once per snapshot for everyone who sees the same (every watcher with
        no seat shares one; each seated person has their own, with their Undo when `undo` says it would be done)."""
        key = self._key(viewers, lang)
        made = self.views.get(key)
        if made is None:
            undo = any(self.undo.get(user, False) for user in key[1])
            view = game_view(self.record, key[1], lang, self.events, self.table(lang), undo=undo, wait=self.wait)
            made = self.views[key] = (view, json.dumps(view, separators=(",", ":")))
        return made


class Snapshots:
    """The snapshots, views and events of one board's games."""

    def __init__(self, board: Any) -> None:
        self.board = board
        self._snapshots: OrderedDict[int, Snapshot] = OrderedDict()
        self._reading: dict[int, asyncio.Future] = {}
        self._frames: OrderedDict[tuple[int, bool], tuple[str, bytes]] = OrderedDict()
        self._rendering = asyncio.Lock()  # one stream's view made at a time (`stream_view`)
        self._drawing: dict[int, asyncio.Future] = {}  # per game, the stream making its view (done: made or failed)

    async def snapshot(self, game_id: int, *, max_age: float | None = None) -> Snapshot:
        """The game as stored now, read once per change however many boards watch it (`max_age`: read again if the
        last read is older than this many seconds, even when no change was heard)."""
        hub = self.board.hub
        topic_version = hub.version_of(game_id)
        current = self.current(game_id, max_age)
        if current is not None:
            return current
        cached = self._snapshots.get(game_id)
        pending = self._reading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._reading[game_id] = future
        try:
            # the move this process just saved, as its commit path announced it (`Hub.heard`), else the store's; a
            # quiet spell's read again (`max_age`) asks the store
            rec = hub.handed(game_id) if max_age is None else None
            source = "handed" if rec is not None else "store"
            if rec is None:
                rec = await self.board.service.games.get(game_id)
            self.board.metrics.board_reads.labels(source=source).inc()
            await after_others()  # the read (and its decoding), then the events, each in a turn of the loop
            events = await self._events(rec, cached)
            snap = Snapshot(topic_version, rec, events, time.perf_counter(), wait=self.board.service.waiting(game_id))
            self._snapshots[game_id] = snap
            self._snapshots.move_to_end(game_id)
            while len(self._snapshots) > KEPT_GAMES:
                self._snapshots.popitem(last=False)
            future.set_result(snap)
            return snap
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning when nobody else waited
            raise
        finally:
            self._reading.pop(game_id, None)

    def current(self, game_id: int, max_age: float | None = None) -> Snapshot | None:
        """The snapshot of the game if it holds its newest version heard of (and is not older than `max_age`)."""
        cached = self._snapshots.get(game_id)
        if (
            cached is not None
            and cached.topic_version == self.board.hub.version_of(game_id) >= 0
            and (max_age is None or time.perf_counter() - cached.read_at <= max_age)
        ):
            return cached
        return None

    @staticmethod
    async def _events(rec: GameRecord, before: Snapshot | None) -> list:
        """The game's recent events: from the previous snapshot's game and the actions since, when the log only grew
        (one move: a copy and a step), else from a replay of the log (in a thread)."""
        game = rec.game
        if game is None:
            return []
        old = before.record.game if before is not None else None
        grown = (
            old is not None
            and old.seed == game.seed
            and 0 <= len(game.log) - len(old.log) <= 16
            and game.log[: len(old.log)][-4:] == old.log[-4:]  # the same game, grown (an undo shrinks it)
        )
        if grown:
            trial = old.clone()  # type: ignore[union-attr]
            events = list(before.events)  # type: ignore[union-attr]
            for player, action in game.log[len(old.log) :]:  # type: ignore[union-attr]
                events.extend(trial.apply(action, by=player))
            return events[-3 * LOG_LINES :]
        return await asyncio.to_thread(recent_events, game)

    async def view(self, game_id: int, reader: Reader, *, max_age: float | None = None) -> tuple[dict, str]:
        """The game's view for `reader`, refused unless they may watch it (`max_age`: read the game again if what
        was read of it is older than this many seconds, even when no change was heard)."""
        try:
            snap = await self.snapshot(game_id, max_age=max_age)
        except UserError as error:
            raise Refusal(404, error.text(reader.lang)) from None
        if not self.board.people.may_watch(reader.session, snap.record):
            raise Refusal(403, translate(reader.lang, M.WEB_NOT_YOURS))
        viewers = reader.session.for_game(game_id)
        if not snap.has_view(viewers, reader.lang):
            await self._undo(snap, viewers)
            snap.table(reader.lang)
            await after_others()  # the table, then the viewer's part, each in a turn of the loop of its own
        return snap.view(viewers, reader.lang)

    async def _undo(self, snap: Snapshot, viewers: tuple[int, ...]) -> None:
        """Whether an undo by each of the viewers' seated people would be done at the snapshot's version (the
        service's own `undo_refusal`: Undo is offered only then), asked once per person and snapshot."""
        rec = snap.record
        if rec.status != GameStatus.PLAYING or rec.game is None:
            return
        for seat in rec.seats:
            user = seat.user_id
            if user is not None and user in viewers and user not in snap.undo:
                snap.undo[user] = await self.board.service.undo_refusal(rec, user) is None

    async def stream_view(self, gid: int, reader: Reader, *, max_age: float | None = None) -> tuple[dict, str]:
        """A stream's view of its game, made while no other stream makes one (`_rendering`), in small steps each
        begun when nothing else waits to run (`after_others`): when many games change at once, the boards' work is
        spread over many turns of the event loop and a click's first answer waits behind one step of it, never
        behind all of it. One stream per game waits for that turn (`_drawing`); the game's other boards wait for
        its view and take it (or, seeing someone else, make theirs next). A board loses nothing by waiting: it
        draws the newest version when its turn comes."""
        viewers = reader.session.for_game(gid)
        while True:
            ready = self.current(gid, max_age)
            if ready is not None and ready.has_view(viewers, reader.lang):
                return await self.view(gid, reader, max_age=max_age)  # made already: nothing to wait for
            drawing = self._drawing.get(gid)
            if drawing is None:
                break
            await asyncio.shield(drawing)  # another board of the game is drawing it: then look again
        done = self._drawing[gid] = asyncio.get_running_loop().create_future()
        try:
            async with self._rendering:
                await after_others()  # behind whatever is waiting to run (a click's answer)
                return await self.view(gid, reader, max_age=max_age)
        finally:
            del self._drawing[gid]
            done.set_result(None)

    def frame(self, view: dict, text: str, settling: bool) -> bytes:
        """A view's event as sent, made once for every board that is sent the same view (the views are shared:
        `Snapshot.view`); `settling`: drawn, offering nothing yet. Not once per connection: 200 boards watching 50
        games would encode (and, settling, serialise) each event four times over."""
        key = (id(text), settling)
        made = self._frames.get(key)
        if made is None or made[0] is not text:
            if settling:
                text_sent = json.dumps({**view, "settling": True, "actions": None}, separators=(",", ":"))
            else:
                text_sent = text
            made = self._frames[key] = (
                text,
                f"id: {frame_id(view['version'], settling)}\ndata: {text_sent}\n\n".encode(),
            )
            while len(self._frames) > KEPT_FRAMES:
                self._frames.popitem(last=False)
        return made[1]


def frame_id(version: int, settling: bool) -> str:
    """An event's id: its version, marked when it offers nothing yet (a move of it under way). A board that loses its
    connection names it on reconnecting (Last-Event-ID), and is then sent the settled state."""
    return f"{version}{SETTLING}" if settling else str(version)


def shown_of(text: str) -> tuple[int, bool]:
    """What a reconnecting board shows, from its last event's id (or `?v=`): (the version, -1 for none; whether it
    was drawn settling). Anything unreadable is "nothing shown": the board is sent the whole state."""
    settling = text.endswith(SETTLING)
    number = text[: -len(SETTLING)] if settling else text
    if not re.fullmatch(r"-?[0-9]{1,18}", number):
        return -1, False
    return int(number), settling
