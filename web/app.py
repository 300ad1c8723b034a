"""The board's web server: the page, the game as JSON, live updates (Server-Sent Events), the moves, the local
tables, health and metrics. It runs in the bot's own process and goes through the bot's game service for everything
it changes.

`Board` composes the rooms of the server, each a concern of its own: who reads and acts (`web.people`), the guard's
limits (`web.guard`), the games as the boards show them (`web.snapshots`), the live streams (`web.streams`), a
game's moves and review (`web.tables`), a hint at the reader's turn (`web.hints`), the local tables and their lobby
(`web.lobby`, their list in `web.gamelist`), the rules page (`web.rules`), and the Activity's sign-in
(`web.activity`). Every URL the page uses is relative, so the board works under any prefix (Discord's Activity
proxy maps one)."""

from __future__ import annotations

import logging
import time
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from cogs.words import game_name
from db.models import ACTIVE_STATUSES
from engine.ai import OFFERED_LEVELS
from engine.config import PLAYER_RANGE, VARIANTS
from i18n import LANGUAGES, translate
from i18n import messages as M
from render.palette import TERRAIN_COLOURS

from . import assets, auth, rules
from .activity import SignIns
from .errors import Declined, Refusal
from .gamelist import legal_tables
from .guard import (
    SECURITY_HEADERS,
    BadBody,
    Limits,
    is_loopback,
    networks,
    parse_body,
    quiet_floods,
    raise_open_file_limit,
    stream_ceiling,
)
from .hints import BoardHints
from .hub import Hub
from .lobby import Lobby
from .metrics import Metrics
from .people import LANG_COOKIE, People, lang_of
from .review import BoardReviews
from .snapshots import Snapshot, Snapshots, after_others
from .streams import Streams
from .strings import page_strings
from .tables import Tables

log = logging.getLogger(__name__)

MAX_BODY = 4096
METRICS_SECONDS = 1.0  # /metrics is read at most once a second; callers in between get the same figures


class Board:
    """The board server of one bot process."""

    def __init__(self, service: Any, hub: Hub, *, secret: bytes, local: bool, settings: Any = None) -> None:
        self.service = service
        self.hub = hub
        self.secret = secret
        self.local = local
        self.metrics = Metrics()
        self.limits = Limits()
        self.people = People(
            secret,
            local=local,
            trusted=networks(getattr(settings, "web_trusted_proxies", ())),
            hosts=(*getattr(settings, "web_hosts", ()), *public_host(getattr(settings, "public_url", None))),
        )
        self.metrics_access = getattr(settings, "web_metrics", "local")
        self.snapshots = Snapshots(self)
        self.streams = Streams(self, stream_ceiling(getattr(settings, "web_max_streams", None)))
        self.tables = Tables(self)
        self.lobby = Lobby(self)
        self.sign_ins = SignIns(self)
        self.hints = BoardHints(self)  # "Show me a good move" (web/hints.py)
        self.reviews = BoardReviews(service)  # a finished game's post-game review (web/review.py)
        self.changed_at: dict[int, float] = {}
        self._metrics: tuple[float, bytes] | None = None
        self.clock = time.monotonic  # when the figures were read (tests set their own)
        hub.listeners.append(self._on_change)
        self.runner: web.AppRunner | None = None
        self.url = ""
        self.client_id: int | None = None  # the Activity's OAuth2 client (None: the bot's application id)
        self.client_secret: str | None = None  # None: no Activity sign-in
        self.app = self._build()

    # -- the application --------------------------------------------------------------------------------------
    def _build(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        games, lobby, tables = "/api/games", self.lobby, self.tables
        for method, path, handler in (
            ("GET", "/", self.page),
            ("GET", "/rules", rules.page),
            ("GET", "/static/{name}", self.static),
            ("GET", "/static/sdk/{path:[A-Za-z0-9_./-]+}", self.sign_ins.sdk),
            ("POST", "/api/token", self.sign_ins.sign_in),
            ("GET", "/healthz", self.healthz),
            ("GET", "/metrics", self.metrics_page),
            ("GET", "/api/me", self.me),
            ("POST", "/api/lang", self.set_lang),
            ("GET", games, lobby.list_games),
            ("POST", games, lobby.create_game),
            ("GET", games + "/{gid:\\d+}", tables.state),
            ("GET", games + "/{gid:\\d+}/events", self.streams.events),
            ("GET", games + "/{gid:\\d+}/stream", self.streams.stream_token),
            ("POST", games + "/{gid:\\d+}/act", tables.act),
            ("POST", games + "/{gid:\\d+}/undo", tables.undo),
            ("POST", games + "/{gid:\\d+}/play-now", tables.play_now),
            ("POST", games + "/{gid:\\d+}/hint", self.hints.hint),
            ("GET", games + "/{gid:\\d+}/review", tables.review),
            ("GET", games + "/{gid:\\d+}/review/{player:\\d+}.png", tables.review_picture),
            ("POST", games + "/{gid:\\d+}/join", lobby.join),
            ("POST", games + "/{gid:\\d+}/leave", lobby.leave),
            ("POST", games + "/{gid:\\d+}/start", lobby.start),
            ("POST", games + "/{gid:\\d+}/cancel", lobby.cancel),
            ("POST", games + "/{gid:\\d+}/computers", lobby.computers),
            ("POST", games + "/{gid:\\d+}/seats", lobby.seats),
            ("GET", "/join/{token}", self.join_link),
            ("POST", "/api/forget-me", lobby.forget_me),
        ):
            app.router.add_route(method, path, handler)
        return app

    async def start(self, host: str, port: int) -> str:
        quiet_floods()  # a flood of one error (say, out of open files) is a line a minute in the log
        # A page that goes away (its stream, a slow read) is cancelled at once, giving its connection's slot back; a
        # move it asked for is carried to its end (web.tables.even_if_gone).
        self.runner = web.AppRunner(
            self.app, access_log=None, handle_signals=False, shutdown_timeout=1.0, handler_cancellation=True
        )
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
        self.streams.close()  # no stream holds the stop up: each page reconnects and catches up
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    def _on_change(self, game_id: int) -> None:
        self.changed_at[game_id] = time.perf_counter()
        self.metrics.game_writes.inc()

    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:
        """Every request: its Host, its rates (per person under a ceiling per address), same-origin writes, JSON
        bodies only, and the security headers."""
        lang = lang_of(request)
        try:
            if not self.people.host_allowed(request):
                raise Refusal(421, translate(lang, M.WEB_OTHER_HOST))
            person, address = self.people.person(request), self.people.address(request)
            if not self.limits.allow(person, address, write=request.method != "GET"):
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
            response.headers.update(refusal.headers)
        except web.HTTPRequestEntityTooLarge:
            response = web.json_response({"error": translate(lang, M.WEB_TOO_LARGE, limit=MAX_BODY)}, status=413)
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    def app_id(self) -> int | None:
        return self.client_id or getattr(getattr(self.service, "bot", None), "application_id", None)

    def activity_origin(self) -> str | None:
        """The origin Discord serves the Activity from (its proxy: https://{application id}.discordsays.com)."""
        app = self.app_id()
        return f"{app}.discordsays.com" if app and self.client_secret else None

    @staticmethod
    def game_id(request: web.Request) -> int:
        gid = int(request.match_info["gid"])
        if gid > 2**62:
            raise Refusal(404, translate(lang_of(request), M.WEB_NO_GAME))
        return gid

    async def body(self, request: web.Request) -> dict:
        """The request's JSON object, read within the size limit and checked (nesting, numbers) before use."""
        lang = lang_of(request)
        try:
            return parse_body(await request.text())
        except BadBody as bad:
            if str(bad) == "depth":
                raise Refusal(400, translate(lang, M.WEB_BAD_BODY_DEPTH, depth=16)) from None
            raise Refusal(400, translate(lang, M.WEB_BAD_BODY_NUMBER)) from None
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise Refusal(400, translate(lang, M.WEB_BAD_JSON)) from None

    # -- pages ------------------------------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.Response:
        """The page (with the art's symbols in it, gzipped: web/assets.py) in the reader's language before any
        script runs; the browser's own id given with it."""
        response = assets.respond(request, "index.html", lang_of(request))
        self.people.give_browser(request, response)
        return response

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in assets.TYPES or name == "index.html":
            raise web.HTTPNotFound()
        return assets.respond(request, name)

    async def join_link(self, request: web.Request) -> web.StreamResponse:
        return await self.people.join_link(request, self.service.games)

    async def healthz(self, request: web.Request) -> web.Response:
        try:
            await self.service.store.list_games(statuses=ACTIVE_STATUSES, limit=1)
        except Exception as error:  # the database is what can fail
            return web.json_response({"ok": False, "error": type(error).__name__}, status=503)
        return web.json_response({"ok": True, "local": self.local, "connections": self.hub.connections})

    async def metrics_page(self, request: web.Request) -> web.Response:
        """The figures, for this machine's addresses (or a bearer token, or anyone: WEB_METRICS), read at most
        once a second."""
        access = self.metrics_access
        allowed = access == "open" or (access == "local" and is_loopback(self.people.address(request)))
        if access.startswith("token:"):
            allowed = request.headers.get("Authorization", "") == f"Bearer {access.removeprefix('token:')}"
        if not allowed:
            raise Refusal(403, translate(lang_of(request), M.WEB_METRICS_CLOSED))
        now = self.clock()
        if self._metrics is None or now - self._metrics[0] >= METRICS_SECONDS:
            self._metrics = (now, await self.metrics.collect(self.service, self.hub))
        body = self._metrics[1]
        return web.Response(body=body, content_type="text/plain", charset="utf-8")

    async def me(self, request: web.Request) -> web.Response:
        lang = lang_of(request)
        modes = {kind: {"name": game_name(kind, lang), "players": list(PLAYER_RANGE[kind])} for kind in PLAYER_RANGE}
        return web.json_response(
            {
                "local": self.local,
                "activity": str(self.app_id()) if self.client_secret and not self.local else None,
                "people": [str(u) for u in self.people.session(request).users],
                "lang": lang,
                "languages": list(LANGUAGES),
                "strings": page_strings(lang),
                "modes": modes,
                "variants": list(VARIANTS),
                "tables": list(legal_tables()),  # every table the engine accepts: the form offers only these
                "levels": list(OFFERED_LEVELS),  # the menu; the API also takes `random` (tests)
                "terrains": {t: "#{:02x}{:02x}{:02x}".format(*c) for t, c in TERRAIN_COLOURS.items()},
            }
        )

    async def set_lang(self, request: web.Request) -> web.Response:
        body = await self.body(request)
        lang = body.get("lang")
        if lang not in LANGUAGES:
            raise Refusal(400, translate(lang_of(request), M.WEB_BAD_LANGUAGE, languages=", ".join(LANGUAGES)))
        response = web.json_response({"lang": lang})
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Strict", path="/")
        return response


def public_host(public_url: str | None) -> tuple[str, ...]:
    """The host name of the board's public address (its proxy's), which the Host header may name."""
    if not public_url:
        return ()
    host = urlsplit(public_url).hostname
    return (host,) if host else ()


async def start_board(service: Any, hub: Hub, settings: Any, *, local: bool) -> Board:
    """Start the board server on the settings' host and port, signing with the service's board secret (or the
    settings'), with the process's open-file limit raised to its hard limit; returns it (its `url` says where)."""
    access = getattr(service, "board", None)
    secret = access.secret if access is not None else auth.load_secret(settings)
    raise_open_file_limit()
    board = Board(service, hub, secret=secret, local=local, settings=settings)
    board.client_id = getattr(settings, "discord_client_id", None)
    if getattr(settings, "activity", "auto") != "off":
        board.client_secret = getattr(settings, "discord_client_secret", None)
    await board.start(settings.web_host, settings.web_port)
    return board


__all__ = ["Board", "Declined", "Refusal", "Snapshot", "after_others", "start_board"]
