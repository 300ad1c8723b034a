"""The board's web server: the page, the game as JSON, live updates (Server-Sent Events), the moves, health and
metrics. It runs in the bot's own process and goes through the bot's game service for everything it changes.

Every URL the page uses is relative, so the board works under any prefix (Discord's Activity proxy maps one)."""

from __future__ import annotations

import asyncio
import html
import json
import logging
import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from cogs.common import UserError, config_refusal, game_name
from db.errors import StoreError
from db.models import ACTIVE_STATUSES, GameRecord, GameStatus, Seat
from engine import GameConfig, action_from_dict
from engine.actions import Skip
from engine.ai import LEVELS, OFFERED_LEVELS
from engine.config import PLAYER_RANGE, VARIANTS
from i18n import LANGUAGES, first_supported, translate
from i18n import messages as M
from render.palette import TERRAIN_COLOURS

from . import activity, assets, auth
from .hub import Hub, wait_changed
from .metrics import Metrics
from .ratelimit import RateLimiter
from .review import BoardReviews, shown_players
from .strings import page_strings
from .view import LOG_LINES, game_view, hex_of, recent_events, table_view

log = logging.getLogger(__name__)

MAX_BODY = 4096
KEEPALIVE_SECONDS = 15.0
MAX_STREAMS_PER_CLIENT = 24
MAX_LOCAL_GAMES = 200
YIELD_TURNS = 20  # turns of the event loop a step of the boards' work lets pass before it, at most (after_others)
SESSION_HEADER = (
    "X-Board-Session"  # the Activity's board session (a cookie would be a third party's in Discord's frame)
)
SDK_DIR = Path(__file__).resolve().parent / "sdk" / "node_modules" / "@discord" / "embedded-app-sdk" / "output"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


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
        no seat shares one; each seated person has their own)."""
        key = self._key(viewers, lang)
        made = self.views.get(key)
        if made is None:
            view = game_view(self.record, key[1], lang, self.events, self.table(lang))
            made = self.views[key] = (view, json.dumps(view, separators=(",", ":")))
        return made


@dataclass(frozen=True)
class Reader:
    """Who reads a board (the request's session), in which language, and until when (seconds since the epoch) that
    session holds: the first of its signed tokens to expire then."""

    session: auth.Session
    lang: str
    until: float = math.inf


class Refusal(Exception):
    """A request the board refuses: HTTP status and a sentence in the reader's language."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status, self.text = status, text


class Declined(Refusal):
    """A well-formed move the game declines (not your turn, the table changed, nothing to undo...): an answer
    (HTTP 200, `ok: false`) that the board shows, not a failed request."""

    def __init__(self, text: str) -> None:
        super().__init__(200, text)


class Board:
    """The board server of one bot process."""

    def __init__(self, service: Any, hub: Hub, *, secret: bytes, local: bool) -> None:
        self.service = service
        self.hub = hub
        self.secret = secret
        self.local = local
        self.metrics = Metrics()
        self.limiter = RateLimiter()
        self.streams: dict[str, int] = {}
        self._snapshots: OrderedDict[int, Snapshot] = OrderedDict()
        self._reading: dict[int, asyncio.Future] = {}
        self._changed_at: dict[int, float] = {}
        self._frames: OrderedDict[tuple[int, bool], tuple[str, bytes]] = OrderedDict()
        self._settling: dict[int, asyncio.Future] = {}
        self._rendering = asyncio.Lock()  # one stream's view made at a time (`_stream_view`)
        self._drawing: dict[int, asyncio.Future] = {}  # per game, the stream making its view (done: made or failed)
        hub.listeners.append(self._on_change)
        self.runner: web.AppRunner | None = None
        self.url = ""
        self.client_id: int | None = None  # the Activity's OAuth2 client (None: the bot's application id)
        self.client_secret: str | None = None  # None: no Activity sign-in
        self.reviews = BoardReviews(service)  # a finished game's post-game review (web/review.py)
        self.app = self._build()

    # -- the application --------------------------------------------------------------------------------------
    def _build(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.router.add_get("/", self.page)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/static/sdk/{path:[A-Za-z0-9_./-]+}", self.sdk)
        app.router.add_post("/api/token", self.activity_token)
        app.router.add_get("/api/games/{gid:\\d+}/stream", self.stream_token)
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics_page)
        app.router.add_get("/api/me", self.me)
        app.router.add_post("/api/lang", self.set_lang)
        app.router.add_get("/api/games", self.list_games)
        app.router.add_post("/api/games", self.create_game)
        app.router.add_get("/api/games/{gid:\\d+}", self.state)
        app.router.add_get("/api/games/{gid:\\d+}/events", self.events)
        app.router.add_post("/api/games/{gid:\\d+}/act", self.act)
        app.router.add_post("/api/games/{gid:\\d+}/undo", self.undo)
        app.router.add_post("/api/games/{gid:\\d+}/join", self.join)
        app.router.add_post("/api/games/{gid:\\d+}/start", self.start_lobby)
        app.router.add_get("/api/games/{gid:\\d+}/review", self.review)
        app.router.add_get("/api/games/{gid:\\d+}/review/{player:\\d+}.png", self.review_picture)
        app.router.add_get("/join/{token}", self.join_link)
        return app

    async def start(self, host: str, port: int) -> str:
        self.runner = web.AppRunner(self.app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port, reuse_address=True)
        await site.start()
        server = site._server
        bound = server.sockets[0].getsockname()[1] if server and server.sockets else port  # type: ignore[union-attr]
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{bound}/"
        return self.url

    async def stop(self) -> None:
        if self._on_change in self.hub.listeners:
            self.hub.listeners.remove(self._on_change)
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    def _on_change(self, game_id: int) -> None:
        self._changed_at[game_id] = time.perf_counter()
        self.metrics.game_writes.inc()

    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:
        """Every request: rate limits, same-origin writes, JSON bodies only, and the security headers."""
        client = request.remote or "?"
        lang = self.lang_of(request)
        try:
            if not self.limiter.allow(client, write=request.method != "GET"):
                raise Refusal(429, translate(lang, M.WEB_TOO_FAST))
            if request.method == "POST":
                origin = request.headers.get("Origin")
                if origin is not None and origin.split("://", 1)[-1] not in (request.host, self.activity_origin()):
                    raise Refusal(403, translate(lang, M.WEB_OTHER_SITE))
                if request.content_type != "application/json":
                    raise Refusal(415, translate(lang, M.WEB_JSON_ONLY))
            response = await handler(request)
        except Refusal as refusal:
            if refusal.status != 429:
                self.metrics.refusals.inc()
            response = web.json_response({"ok": False, "error": refusal.text}, status=refusal.status)
        except web.HTTPRequestEntityTooLarge:
            response = web.json_response({"error": translate(lang, M.WEB_TOO_LARGE, limit=MAX_BODY)}, status=413)
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    # -- who and which language ----------------------------------------------------------------------------------
    def cookie_session(self, request: web.Request) -> auth.Session:
        return auth.Session.read(self.secret, request.cookies.get(auth.COOKIE))

    def session(self, request: web.Request) -> auth.Session:
        """Who this request acts for: the cookie's people, the Activity's board session (a header) and a stream
        token (the event stream's query: EventSource sends no headers)."""
        session = self.cookie_session(request)
        for token, key in ((request.headers.get(SESSION_HEADER), "a"), (request.query.get("s"), "t")):
            if token:
                session = session.merged(auth.read_scoped(self.secret, token, key))
        return session

    def may_watch(self, session: auth.Session, rec: GameRecord) -> bool:
        """A game's board is open to a session tied to it (a link's, an Activity's); a local game to the local
        board's every reader (they take seats from its list)."""
        if self.local and rec.guild_id is None:
            return True
        return any(rec.id in games for _, games in session.games)

    def app_id(self) -> int | None:
        return self.client_id or getattr(getattr(self.service, "bot", None), "application_id", None)

    def activity_origin(self) -> str | None:
        """The origin Discord serves the Activity from (its proxy: https://{application id}.discordsays.com)."""
        app = self.app_id()
        return f"{app}.discordsays.com" if app and self.client_secret else None

    def set_session(self, response: web.StreamResponse, session: auth.Session, request: web.Request) -> None:
        response.set_cookie(
            auth.COOKIE,
            session.cookie(self.secret),
            max_age=auth.SESSION_SECONDS,
            httponly=True,
            samesite="Strict",
            secure=request.secure,
            path="/",
        )

    @staticmethod
    def lang_of(request: web.Request) -> str:
        """The reader's language: their choice on the page (a cookie), else their browser's (Accept-Language)."""
        chosen = request.cookies.get("kd_lang")
        accepted = [part.split(";")[0].strip() for part in request.headers.get("Accept-Language", "").split(",")]
        return first_supported(chosen, *accepted[:8])

    # -- pages ------------------------------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.Response:
        return assets.respond(request, "index.html")  # with the art's symbols in it, gzipped (issue #45)

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in assets.TYPES or name == "index.html":
            raise web.HTTPNotFound()
        return assets.respond(request, name)

    async def healthz(self, request: web.Request) -> web.Response:
        try:
            await self.service.store.list_games(statuses=ACTIVE_STATUSES, limit=1)
        except Exception as error:  # the database is what can fail
            return web.json_response({"ok": False, "error": type(error).__name__}, status=503)
        return web.json_response({"ok": True, "local": self.local, "connections": self.hub.connections})

    async def metrics_page(self, request: web.Request) -> web.Response:
        body = await self.metrics.collect(self.service, self.hub)
        return web.Response(body=body, content_type="text/plain", charset="utf-8")

    async def me(self, request: web.Request) -> web.Response:
        lang = self.lang_of(request)
        modes = {kind: {"name": game_name(kind, lang), "players": list(PLAYER_RANGE[kind])} for kind in PLAYER_RANGE}
        return web.json_response(
            {
                "local": self.local,
                "activity": str(self.app_id()) if self.client_secret and not self.local else None,
                "people": [str(u) for u in self.session(request).users],
                "lang": lang,
                "languages": [code for code in LANGUAGES],
                "strings": page_strings(lang),
                "modes": modes,
                "variants": list(VARIANTS),
                "levels": list(OFFERED_LEVELS),  # the menu; the API also takes `random` (tests)
                "terrains": {t: "#{:02x}{:02x}{:02x}".format(*c) for t, c in TERRAIN_COLOURS.items()},
            }
        )

    async def set_lang(self, request: web.Request) -> web.Response:
        body = await self.body(request)
        lang = body.get("lang")
        if lang not in LANGUAGES:
            raise Refusal(400, translate(self.lang_of(request), M.WEB_BAD_LANGUAGE, languages=", ".join(LANGUAGES)))
        response = web.json_response({"lang": lang})
        response.set_cookie("kd_lang", lang, max_age=365 * 24 * 3600, samesite="Strict", path="/")
        return response

    async def body(self, request: web.Request) -> dict:
        try:
            data = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise Refusal(400, translate(self.lang_of(request), M.WEB_BAD_JSON)) from None
        if not isinstance(data, dict):
            raise Refusal(400, translate(self.lang_of(request), M.WEB_BAD_JSON))
        return data

    # -- reading games ------------------------------------------------------------------------------------------
    async def snapshot(self, game_id: int, *, max_age: float | None = None) -> Snapshot:
        """The game as stored now, read once per change however many boards watch it (`max_age`: read again if the
        last read is older than this many seconds, even when no change was heard)."""
        topic_version = self.hub.version_of(game_id)
        current = self._current(game_id, max_age)
        if current is not None:
            return current
        cached = self._snapshots.get(game_id)
        pending = self._reading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._reading[game_id] = future
        try:
            # the move this process just saved, as its commit path handed it over (`Hub.saved`), else the store's;
            # a quiet spell's read again (`max_age`) asks the store
            rec = self.hub.handed(game_id) if max_age is None else None
            source = "handed" if rec is not None else "store"
            if rec is None:
                rec = await self.service.get(game_id)
            self.metrics.board_reads.labels(source=source).inc()
            await after_others()  # the read (and its decoding), then the events, each in a turn of the loop
            events = await self._events(rec, cached)
            snap = Snapshot(topic_version, rec, events, time.perf_counter())
            self._snapshots[game_id] = snap
            self._snapshots.move_to_end(game_id)
            while len(self._snapshots) > 256:
                self._snapshots.popitem(last=False)
            future.set_result(snap)
            return snap
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning when nobody else waited
            raise
        finally:
            self._reading.pop(game_id, None)

    def _current(self, game_id: int, max_age: float | None = None) -> Snapshot | None:
        """The snapshot of the game if it holds its newest version heard of (and is not older than `max_age`)."""
        cached = self._snapshots.get(game_id)
        if (
            cached is not None
            and cached.topic_version == self.hub.version_of(game_id) >= 0
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

    async def view_for(self, request: web.Request, game_id: int) -> tuple[dict, str]:
        """The game's view for this request's reader (and its JSON), shared with every reader who sees the same."""
        return await self._view(game_id, self.reader(request))

    async def _view(self, game_id: int, reader: Reader, *, max_age: float | None = None) -> tuple[dict, str]:
        """The game's view for `reader`, refused unless they may watch it (`max_age`: read the game again if what
        was read of it is older than this many seconds, even when no change was heard)."""
        try:
            snap = await self.snapshot(game_id, max_age=max_age)
        except UserError as error:
            raise Refusal(404, error.text(reader.lang)) from None
        if not self.may_watch(reader.session, snap.record):
            raise Refusal(403, translate(reader.lang, M.WEB_NOT_YOURS))
        viewers = reader.session.for_game(game_id)
        if not snap.has_view(viewers, reader.lang):
            snap.table(reader.lang)
            await after_others()  # the table, then the viewer's part, each in a turn of the loop of its own
        return snap.view(viewers, reader.lang)

    def game_id(self, request: web.Request) -> int:
        gid = int(request.match_info["gid"])
        if gid > 2**62:
            raise Refusal(404, translate(self.lang_of(request), M.WEB_NO_GAME))
        return gid

    async def state(self, request: web.Request) -> web.Response:
        _, text = await self.view_for(request, self.game_id(request))
        return web.Response(text=text, content_type="application/json", headers={"Cache-Control": "no-store"})

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-Sent Events: the game's whole view each time it changes (event id: its version), a comment every
        few seconds to keep the connection open. `?v=N` (or Last-Event-ID): the version the board already shows;
        anything newer is sent at once, so a board that lost its connection catches up."""
        gid = self.game_id(request)
        client = request.remote or "?"
        if self.streams.get(client, 0) >= MAX_STREAMS_PER_CLIENT:
            raise Refusal(429, translate(self.lang_of(request), M.WEB_TOO_MANY_BOARDS))
        shown = request.headers.get("Last-Event-ID") or request.query.get("v", "-1")
        try:
            known = int(shown)
        except ValueError:
            known = -1
        topic = self.hub.watch(gid)
        self.streams[client] = self.streams.get(client, 0) + 1
        self.metrics.connections.set(self.hub.connections)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", **SECURITY_HEADERS}
        )
        reader = self.reader(request)  # once per stream (and again once a token it came with expires)
        try:
            change = topic.changed  # taken before each read: a change during the read wakes the next wait
            view, text = await self._stream_view(gid, reader)
            lock = self.service.lock(await self.service.channel_of(gid))
            await response.prepare(request)
            sent_settling = False
            while True:
                settling = lock.locked()  # a move is still being saved and shown: draw it, offer nothing yet
                if view["version"] != known or (sent_settling and not settling):
                    await response.write(self._frame(view, text, settling))
                    known, sent_settling = view["version"], settling
                    changed = self._changed_at.get(gid)
                    if changed is not None:
                        self.metrics.push.observe(time.perf_counter() - changed)
                else:
                    await response.write(b": still here\n\n")
                if settling:
                    await self._settled(gid, lock)  # the move's end (its last save, its table): then the settled state
                    woke = True
                else:
                    woke = await wait_changed(change, KEEPALIVE_SECONDS)
                change = topic.changed
                if time.time() >= reader.until:
                    reader = self.reader(request)
                # a quiet spell: read again anyway (what another board of the game read a moment ago will do)
                view, text = await self._stream_view(gid, reader, max_age=None if woke else 1.0)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        except Refusal:
            if not response.prepared:
                raise
        finally:
            self.hub.unwatch(gid)
            self.streams[client] -= 1
            if not self.streams[client]:
                del self.streams[client]
            self.metrics.connections.set(self.hub.connections)
        return response

    async def _stream_view(self, gid: int, reader: Reader, *, max_age: float | None = None) -> tuple[dict, str]:
        """A stream's view of its game, made while no other stream makes one (`_rendering`), in small steps each
        begun when nothing else waits to run (`after_others`): when many games change at once, the boards' work is
        spread over many turns of the event loop and a click's first answer waits behind one step of it, never
        behind all of it. One stream per game waits for that turn (`_drawing`); the game's other boards wait for
        its view and take it (or, seeing someone else, make theirs next). A board loses nothing by waiting: it
        draws the newest version when its turn comes."""
        viewers = reader.session.for_game(gid)
        while True:
            ready = self._current(gid, max_age)
            if ready is not None and ready.has_view(viewers, reader.lang):
                return await self._view(gid, reader, max_age=max_age)  # made already: nothing to wait for
            drawing = self._drawing.get(gid)
            if drawing is None:
                break
            await asyncio.shield(drawing)  # another board of the game is drawing it: then look again
        done = self._drawing[gid] = asyncio.get_running_loop().create_future()
        try:
            async with self._rendering:
                await after_others()  # behind whatever is waiting to run (a click's answer)
                return await self._view(gid, reader, max_age=max_age)
        finally:
            del self._drawing[gid]
            done.set_result(None)

    def reader(self, request: web.Request) -> Reader:
        """Who reads, in which language, and until when that holds (the earliest expiry of the request's signed
        tokens: then the session they stood for is read again, and ends with them)."""
        tokens = (request.cookies.get(auth.COOKIE), request.headers.get(SESSION_HEADER), request.query.get("s"))
        ends = [end for end in (auth.expires_at(self.secret, token) for token in tokens if token) if end is not None]
        return Reader(self.session(request), self.lang_of(request), min(ends, default=math.inf))

    def _frame(self, view: dict, text: str, settling: bool) -> bytes:
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
            made = self._frames[key] = (text, f"id: {view['version']}\ndata: {text_sent}\n\n".encode())
            while len(self._frames) > 1024:
                self._frames.popitem(last=False)
        return made[1]

    async def _settled(self, gid: int, lock: asyncio.Lock) -> None:
        """Until the move under way in the game's channel has ended (its lock is free once). One waiter in the lock's
        queue per game, however many boards watch it: each would otherwise take the lock in turn ahead of the
        channel's next click."""
        waiting = self._settling.get(gid)
        if waiting is None or waiting.done():

            async def pass_through() -> None:
                async with lock:
                    pass

            waiting = self._settling[gid] = asyncio.ensure_future(pass_through())
            waiting.add_done_callback(
                lambda done: self._settling.pop(gid, None) if self._settling.get(gid) is done else None
            )
        await asyncio.shield(waiting)

    # -- the post-game review (web/review.py) ---------------------------------------------------------------------
    async def finished_game(self, request: web.Request) -> tuple[GameRecord, tuple[int, ...], str]:
        """The finished game of the request, its reader's people in it and language; refused unless the reader may
        watch the game, and while it is not over."""
        gid = self.game_id(request)
        lang = self.lang_of(request)
        try:
            rec = (await self.snapshot(gid)).record
        except UserError as error:
            raise Refusal(404, error.text(lang)) from None
        session = self.session(request)
        if not self.may_watch(session, rec):
            raise Refusal(403, translate(lang, M.WEB_NOT_YOURS))
        if rec.game is None or not rec.game.is_over:
            raise Refusal(409, translate(lang, M.REVIEW_NOT_OVER))
        return rec, session.for_game(gid), lang

    async def review(self, request: web.Request) -> web.Response:
        """The reader's review of a finished game: pending (ask again later) until it is worked out and drawn."""
        rec, viewers, lang = await self.finished_game(request)
        answer = await self.reviews.answer(rec, viewers, lang)
        return web.json_response(answer, headers={"Cache-Control": "no-store"})

    async def review_picture(self, request: web.Request) -> web.Response:
        """A person's review picture (PNG), for a reader who may see that person's review."""
        rec, viewers, lang = await self.finished_game(request)
        player = request.match_info["player"]
        if player not in shown_players(rec, viewers):
            raise Refusal(403, translate(lang, M.WEB_REVIEW_NOT_YOURS))
        png = await self.reviews.picture(rec, viewers, player, lang)
        if png is None:
            raise Refusal(404, translate(lang, M.WEB_REVIEW_NO_PICTURE))
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "private, max-age=3600"})

    # -- acting ------------------------------------------------------------------------------------------------
    def acting_user(self, request: web.Request, rec: GameRecord) -> int:
        """Which of the browser's people acts: the one whose turn it is, else any seated one (the service then
        says whose turn it is); refused when none of them has a seat."""
        users = self.session(request).for_game(rec.id)
        seated = [s.user_id for s in rec.seats if s.user_id is not None and s.user_id in users]
        if not seated:
            raise Declined(translate(self.lang_of(request), M.WEB_NOT_SEATED))
        d = rec.game.decision() if rec.game is not None else None
        if d is not None:
            seat = rec.seat_of(d.player)
            if seat is not None and seat.user_id in seated:
                return seat.user_id
        return seated[0]

    @staticmethod
    def version_of(body: dict, lang: str) -> int:
        version = body.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refusal(400, translate(lang, M.WEB_NEED_VERSION))
        return version

    async def act(self, request: web.Request) -> web.Response:
        started = time.perf_counter()
        gid = self.game_id(request)
        lang = self.lang_of(request)
        body = await self.body(request)
        version = self.version_of(body, lang)
        try:
            action = action_from_dict(body.get("action"))  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise Refusal(400, translate(lang, M.WEB_BAD_ACTION)) from None
        through = body.get("through", not isinstance(action, Skip)) is True
        try:
            rec = await self.service.get(gid)
            user = self.acting_user(request, rec)
            outcome = await self.service.play(gid, user, action, expected_version=version, through_optional=through)
        except UserError as error:
            raise Declined(error.text(lang)) from None
        except StoreError as error:
            raise Refusal(503, str(error)) from None
        self.metrics.moves.labels(source="board").inc()
        self.metrics.click_to_table.observe(time.perf_counter() - started)
        return web.json_response(
            {
                "ok": True,
                "version": outcome.record.version,
                "warning": outcome.warning_in(lang),
                "posted": outcome.table_posted,
            }
        )

    async def undo(self, request: web.Request) -> web.Response:
        gid = self.game_id(request)
        lang = self.lang_of(request)
        body = await self.body(request)
        version = self.version_of(body, lang)
        try:
            rec = await self.service.get(gid)
            if rec.version != version:
                raise UserError(M.STALE)
            user = self.acting_user(request, rec)
            seated = [s.user_id for s in rec.seats if s.user_id in self.session(request).for_game(gid)]
            last = await self._last_person(gid, seated)
            outcome = await self.service.undo(gid, last if last is not None else user)
        except UserError as error:
            raise Declined(error.text(lang)) from None
        return web.json_response({"ok": True, "version": outcome.record.version})

    async def _last_person(self, gid: int, seated: list[int | None]) -> int | None:
        """Of the browser's seated people, the one who acted last (whose action an undo takes back)."""
        for record in reversed(await self.service.store.get_actions(gid, include_undone=False)):
            if record.user_id is not None:
                return record.user_id if record.user_id in seated else None
        return None

    # -- local tables (no Discord) --------------------------------------------------------------------------------
    def local_only(self, request: web.Request) -> None:
        if not self.local:
            raise Refusal(403, translate(self.lang_of(request), M.WEB_DISCORD_TABLES))

    async def list_games(self, request: web.Request) -> web.Response:
        self.local_only(request)
        lang = self.lang_of(request)
        users = set(self.session(request).users)
        out = []
        for summary in await self.service.store.list_games(statuses=ACTIVE_STATUSES, limit=50):
            if summary.guild_id is not None:
                continue
            mine = any(s.user_id in users for s in summary.seats)
            if not mine and summary.status != GameStatus.LOBBY:
                continue
            out.append(
                {
                    "id": summary.id,
                    "title": game_name(summary.kind, lang),
                    "status": str(summary.status),
                    "seats": [s.display_name for s in summary.seats],
                    "mine": mine,
                }
            )
        return web.json_response({"games": out})

    def _person(self, request: web.Request, session: auth.Session, taken: set[int]) -> tuple[auth.Session, int]:
        """A local person of this browser (not one who came through a link) without a seat at the table, or a new
        one."""
        linked = dict(session.games)
        for user in (u for u in session.users if u not in linked):
            if user not in taken:
                return session, user
        user = auth.new_local_user()
        return session.with_user(user), user

    async def create_game(self, request: web.Request) -> web.Response:
        self.local_only(request)
        lang = self.lang_of(request)
        body = await self.body(request)
        spec = self._table_spec(body, lang)
        active = await self.service.store.list_games(statuses=ACTIVE_STATUSES, limit=MAX_LOCAL_GAMES)
        if len(active) >= MAX_LOCAL_GAMES:
            raise Refusal(429, translate(lang, M.WEB_TOO_MANY_GAMES, limit=MAX_LOCAL_GAMES))
        session, user = self._person(request, self.cookie_session(request), set())
        name = translate(lang, M.WEB_PERSON_NAME, number=1)
        seats = [Seat.human(user, name, hex_of(0))]
        level = spec["level"]
        from cogs.lobby import bot_name

        for n in range(1, spec["computers"] + 1):
            seats.append(Seat.computer(n, level, bot_name(n, level, spec["language"]), hex_of(n)))
        rec = await self.service.commits.open_lobby(
            channel_id=auth.new_local_user(),  # a table of its own (one active game per channel)
            guild_id=None,
            host_user_id=user,
            kind=spec["kind"],
            config={
                "seats": spec["players"],
                "variants": spec["variants"],
                "teams": spec["teams"],
                "language": spec["language"],
            },
            seats=seats,
            seed=self.service.new_seed(),
            reminder_hours=None,
            deadline_hours=None,
        )
        if len(seats) == spec["players"]:
            await self._start(rec.id, lang)
        response = web.json_response({"id": rec.id})
        self.set_session(response, session, request)
        return response

    def _table_spec(self, body: dict, lang: str) -> dict:
        """The table asked for, checked by the engine's own configuration (an impossible one is refused, saying
        why)."""
        kind = body.get("kind")
        if kind not in PLAYER_RANGE:
            raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="kind", allowed=", ".join(PLAYER_RANGE)))
        low, high = PLAYER_RANGE[kind]
        players = body.get("players")
        computers = body.get("computers", players - 1 if isinstance(players, int) else 0)
        variants = body.get("variants", [])
        level = body.get("level", "easy")
        language = body.get("language") or lang
        if not isinstance(players, int) or not low <= players <= high:
            raise Refusal(
                400, translate(lang, M.PLAYER_RANGE, game=game_name(kind, lang), low=low, high=high, size=players)
            )
        if not isinstance(computers, int) or not 0 <= computers < players:
            raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="computers", allowed=f"0-{players - 1}"))
        if not isinstance(variants, list) or not all(v in VARIANTS for v in variants):
            raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="variants", allowed=", ".join(VARIANTS)))
        if level not in LEVELS:
            raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="level", allowed=", ".join(LEVELS)))
        if language not in LANGUAGES:
            raise Refusal(400, translate(lang, M.WEB_BAD_FIELD, field="language", allowed=", ".join(LANGUAGES)))
        teams = body.get("teams") is True
        placeholder = tuple(f"seat{i}" for i in range(players))
        pairs = tuple(placeholder[i : i + 2] for i in range(0, players, 2)) if teams else None
        try:
            GameConfig(kind, placeholder, frozenset(variants), pairs)
        except ValueError as error:
            raise Refusal(400, translate(lang, M.TABLE_IMPOSSIBLE, reason=config_refusal(error, lang))) from None
        return {
            "kind": kind,
            "players": players,
            "computers": computers,
            "variants": sorted(set(variants)),
            "level": level,
            "language": language,
            "teams": teams,
        }

    async def join(self, request: web.Request) -> web.Response:
        """Take a free seat at a local lobby (a second window, another person at the same screen)."""
        self.local_only(request)
        gid = self.game_id(request)
        lang = self.lang_of(request)
        body = await self.body(request)
        version = self.version_of(body, lang)
        try:
            async with self.service.lock(await self.service.channel_of(gid)):
                rec = await self.service.get(gid)
                if rec.status != GameStatus.LOBBY:
                    raise UserError(M.LOBBY_CLOSED)
                if rec.version != version:
                    raise UserError(M.STALE)
                size = int(rec.config.get("seats", 0))
                if len(rec.seats) >= size:
                    raise UserError(M.TABLE_FULL, size=size)
                taken = {s.user_id for s in rec.seats if s.user_id is not None}
                session, user = self._person(request, self.cookie_session(request), taken)
                people = sum(1 for s in rec.seats if not s.is_computer)
                name = translate(lang, M.WEB_PERSON_NAME, number=people + 1)
                from cogs.lobby import next_colour

                await self.service.commits.join(rec, Seat.human(user, name, next_colour(rec.seats)))
        except UserError as error:
            raise Declined(error.text(lang)) from None
        except StoreError:
            raise Declined(translate(lang, M.STALE)) from None
        response = web.json_response({"ok": True})
        self.set_session(response, session, request)
        return response

    async def start_lobby(self, request: web.Request) -> web.Response:
        self.local_only(request)
        gid = self.game_id(request)
        lang = self.lang_of(request)
        body = await self.body(request)
        version = self.version_of(body, lang)
        rec = await self.service.get(gid)
        if rec.host_user_id not in self.session(request).users:
            raise Declined(translate(lang, M.WEB_ONLY_HOST_START))
        if rec.version != version:
            raise Declined(translate(lang, M.STALE))
        await self._start(gid, lang)
        return web.json_response({"ok": True})

    async def _start(self, gid: int, lang: str) -> None:
        try:
            async with self.service.lock(await self.service.channel_of(gid)):
                rec = await self.service.get(gid)
                if rec.status != GameStatus.LOBBY:
                    raise UserError(M.LOBBY_CLOSED)
                from cogs.lobby import check_can_start

                check_can_start(rec)
                await self.service.start(rec)
        except UserError as error:
            raise Declined(error.text(lang)) from None

    async def join_link(self, request: web.Request) -> web.Response:
        """A signed link the bot gave one person for one game and their seat (or to watch): this browser now acts
        as them in that game; on to the board. Refused once expired, for another seat, or after the game's end."""
        lang = self.lang_of(request)
        found = auth.read_seat_link(self.secret, request.match_info["token"])
        refusal = M.WEB_LINK_EXPIRED
        if found is not None:
            user, gid, seat = found
            try:
                rec = await self.service.get(gid)
            except UserError:
                rec = None
            seats = rec.seats if rec is not None else []
            if rec is None or (seat is not None and (seat >= len(seats) or seats[seat].user_id != user)):
                found = None
            elif rec.status not in ACTIVE_STATUSES:
                found, refusal = None, M.WEB_LINK_GAME_OVER
        if found is None:  # a page, not JSON: a person followed this link
            text, back = html.escape(translate(lang, refusal)), html.escape(translate(lang, M.WEB_BACK))
            page = (
                f'<!doctype html><html lang="{lang}"><meta charset="utf-8"><meta name="viewport" '
                f'content="width=device-width, initial-scale=1"><link rel="icon" href="../static/favicon.svg" '
                f'type="image/svg+xml"><title>{text}</title><p>{text}</p>'
                f'<p><a href="../">{back}</a></p></html>'
            )
            return web.Response(status=403, text=page, content_type="text/html", headers=SECURITY_HEADERS)
        response = web.Response(status=302, headers={"Location": f"../?game={gid}", "Cache-Control": "no-store"})
        self.set_session(response, self.cookie_session(request).with_user(user, gid), request)
        return response

    # -- inside Discord (an Activity) ----------------------------------------------------------------------------
    async def sdk(self, request: web.Request) -> web.Response:
        """Discord's Embedded App SDK (web/sdk, pinned by npm): its ES modules, served by the board itself (no
        CDN: an Activity reaches only its own URL mapping)."""
        path = request.match_info["path"]
        target = (SDK_DIR / path).resolve()
        if ".." in path.split("/") or not path.endswith(".mjs") or not target.is_relative_to(SDK_DIR):
            raise web.HTTPNotFound()
        try:
            body = await asyncio.to_thread(target.read_bytes)
        except OSError:
            raise web.HTTPNotFound() from None
        return web.Response(body=body, content_type="text/javascript", headers={"Cache-Control": "max-age=3600"})

    async def activity_token(self, request: web.Request) -> web.Response:
        """The Activity's sign-in: the page's OAuth2 code exchanged with Discord (who the person is), the instance
        it runs in checked with Discord (which channel, that they are in it); answers the access token for the
        SDK's authenticate, the board session for that channel's game, and the game's id."""
        lang = self.lang_of(request)
        bot = getattr(self.service, "bot", None)
        app = self.app_id()
        if self.local or not self.client_secret or app is None or bot is None:
            raise Refusal(403, translate(lang, M.WEB_ACTIVITY_OFF))
        body = await self.body(request)
        code, instance = activity.field_of(body, "code"), activity.field_of(body, "instance_id")
        channel = activity.field_of(body, "channel_id", digits=True)
        if code is None or instance is None or channel is None:
            raise Refusal(400, translate(lang, M.WEB_ACTIVITY_REFUSED))
        try:
            access, user = await activity.exchange_code(app, self.client_secret, code)
        except activity.ActivityRefused as error:
            log.info("Activity sign-in refused: %s", error)
            raise Refusal(403, translate(lang, M.WEB_ACTIVITY_REFUSED)) from None
        try:
            place = await activity.instance_place(bot, instance)
        except activity.ActivityRefused as error:
            log.info("Activity instance refused: %s", error)
            raise Refusal(403, translate(lang, M.WEB_ACTIVITY_ELSEWHERE)) from None
        if place.channel_id != int(channel) or user not in place.users:
            raise Refusal(403, translate(lang, M.WEB_ACTIVITY_ELSEWHERE))
        rec = await self.service.store.get_active_game(place.channel_id)
        if rec is None or rec.guild_id != place.guild_id:
            return web.json_response({"access_token": access, "game": None, "session": None})
        session = auth.activity_session(self.secret, user, rec.id)
        return web.json_response({"access_token": access, "game": rec.id, "session": session})

    async def stream_token(self, request: web.Request) -> web.Response:
        """A short-lived token for the query of the game's event stream, for the people of this request's session
        (the Activity's header session: EventSource cannot send it)."""
        gid = self.game_id(request)
        session = self.session(request)
        await self.view_for(request, gid)  # refused unless this session may watch the game
        users = [u for u, games in session.games if gid in games]
        if not users:  # a local game's reader: the stream needs no token
            raise Refusal(403, translate(self.lang_of(request), M.WEB_NOT_YOURS))
        return web.json_response({"token": auth.stream_token(self.secret, users[0], gid)})


async def start_board(service: Any, hub: Hub, settings: Any, *, local: bool) -> Board:
    """Start the board server on the settings' host and port; returns it (its `url` says where)."""
    secret = (settings.web_secret or "").encode() or auth.new_secret()
    board = Board(service, hub, secret=secret, local=local)
    board.client_id = getattr(settings, "discord_client_id", None)
    if getattr(settings, "activity", "auto") != "off":
        board.client_secret = getattr(settings, "discord_client_secret", None)
    await board.start(settings.web_host, settings.web_port)
    return board


__all__ = ["Board", "Declined", "Refusal", "start_board"]
