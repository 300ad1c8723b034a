"""Who reads and acts on the board: the signed sessions (cookie, the Activity's header, a stream's token), the
browser's own id, the address a request comes from (through trusted proxies only), the reader's language, whether
they may watch a game, and the personal links the bot hands out (each for the first browser that opens it)."""

from __future__ import annotations

import hashlib
import html
import math
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from aiohttp import web

from cogs.words import UserError
from db.models import ACTIVE_STATUSES, GameRecord
from i18n import first_supported, translate
from i18n import messages as M

from . import auth
from .guard import SECURITY_HEADERS, Network, client_address, forwarded_scheme

SESSION_HEADER = (
    "X-Board-Session"  # the Activity's board session (a cookie would be a third party's in Discord's frame)
)
BROWSER_COOKIE = "kd_browser"  # a browser's own signed id: what the limits count when it holds no session yet
LANG_COOKIE = "kd_lang"
AFTER_THE_GAME = timedelta(hours=24)  # a link's session still shows a game this long after its end (the review)
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


@dataclass(frozen=True)
class Reader:
    """Who reads a board (the request's session), in which language, and until when (seconds since the epoch) that
    session holds: the first of its signed tokens to expire then."""

    session: auth.Session
    lang: str
    until: float = math.inf


def lang_of(request: web.Request) -> str:
    """The reader's language: their choice on the page (a cookie), else their browser's (Accept-Language)."""
    chosen = request.cookies.get(LANG_COOKIE)
    accepted = [part.split(";")[0].strip() for part in request.headers.get("Accept-Language", "").split(",")]
    return first_supported(chosen, *accepted[:8])


class People:
    """The sessions and identities of one board."""

    def __init__(
        self,
        secret: bytes,
        *,
        local: bool,
        trusted: tuple[Network, ...] = (),
        hosts: tuple[str, ...] = (),
    ) -> None:
        self.secret = secret
        self.local = local
        self.trusted = trusted
        self.hosts = {h.lower() for h in (*LOCAL_NAMES, *hosts)}
        self._links: dict[str, tuple[float, str]] = {}  # a link's digest -> (its expiry, the browser that opened it)

    # -- where and who ------------------------------------------------------------------------------------------------
    def address(self, request: web.Request) -> str:
        return client_address(request.remote, request.headers.get("X-Forwarded-For"), self.trusted)

    def secure(self, request: web.Request) -> bool:
        return forwarded_scheme(request.remote, request.headers.get("X-Forwarded-Proto"), self.trusted, request.secure)

    def host_allowed(self, request: web.Request) -> bool:
        """The Host header names this board (else a page of another site, whose name resolves here, is driving it:
        DNS rebinding)."""
        host = request.headers.get("Host", "").strip().lower()
        if host.startswith("["):  # [::1]:8080
            name = host[: host.find("]") + 1]
        else:
            name = host.split(":")[0] if host.count(":") <= 1 else host
        return name in self.hosts

    def browser(self, request: web.Request) -> str | None:
        """This browser's own id (signed when the page was given), or None."""
        payload = auth.verify(self.secret, request.cookies.get(BROWSER_COOKIE))
        found = payload.get("b") if payload else None
        return found if isinstance(found, str) and len(found) <= 32 else None

    def give_browser(self, request: web.Request, response: web.StreamResponse) -> str:
        """The browser's id, given now (a cookie) if it has none."""
        found = self.browser(request)
        if found is None:
            found = auth.new_browser_id()
            token = auth.sign(self.secret, {"b": found, "e": int(time.time() + auth.SESSION_SECONDS)})
            response.set_cookie(
                BROWSER_COOKIE, token, max_age=auth.SESSION_SECONDS, httponly=True, samesite="Strict",
                secure=self.secure(request), path="/",
            )  # fmt: skip
        return found

    def person(self, request: web.Request) -> str:
        """Whom the limits count: the session's first person, else this browser, else the address."""
        session = self.session(request, stream=True)
        if session.users:
            return f"u:{session.users[0]}"
        browser = self.browser(request)
        return f"b:{browser}" if browser else f"a:{self.address(request)}"

    # -- sessions -----------------------------------------------------------------------------------------------------
    def cookie_session(self, request: web.Request) -> auth.Session:
        return auth.Session.read(self.secret, request.cookies.get(auth.COOKIE))

    def session(self, request: web.Request, *, stream: bool = False) -> auth.Session:
        """Who this request acts for: the cookie's people and the Activity's board session (a header); with `stream`,
        also a stream token (the event stream's query: EventSource sends no headers). A stream token opens the
        stream only: a move never acts for it."""
        session = self.cookie_session(request)
        tokens = [(request.headers.get(SESSION_HEADER), "a")]
        if stream:
            tokens.append((request.query.get("s"), "t"))
        for token, key in tokens:
            if token:
                session = session.merged(auth.read_scoped(self.secret, token, key))
        return session

    def reader(self, request: web.Request, *, stream: bool = False) -> Reader:
        """Who reads, in which language, and until when that holds (the earliest expiry of the request's signed
        tokens: then the session they stood for is read again, and ends with them)."""
        tokens = [request.cookies.get(auth.COOKIE), request.headers.get(SESSION_HEADER)]
        if stream:
            tokens.append(request.query.get("s"))
        ends = [end for end in (auth.expires_at(self.secret, token) for token in tokens if token) if end is not None]
        return Reader(self.session(request, stream=stream), lang_of(request), min(ends, default=math.inf))

    def may_watch(self, session: auth.Session, rec: GameRecord) -> bool:
        """A game's board is open to a session tied to it (a link's, an Activity's) while the game is on, and for a
        day after its end; a local game to the local board's every reader (they take seats from its list)."""
        if self.local and rec.guild_id is None:
            return True
        if not any(rec.id in games for _, games in session.games):
            return False
        return rec.status in ACTIVE_STATUSES or (
            rec.ended_at is not None and datetime.now(UTC) - rec.ended_at <= AFTER_THE_GAME
        )

    def set_session(self, response: web.StreamResponse, session: auth.Session, request: web.Request) -> None:
        response.set_cookie(
            auth.COOKIE,
            session.cookie(self.secret),
            max_age=auth.SESSION_SECONDS,
            httponly=True,
            samesite="Strict",
            secure=self.secure(request),
            path="/",
        )

    # -- personal links -----------------------------------------------------------------------------------------------
    def first_browser(self, token: str, browser: str, expires: float) -> bool:
        """Whether `browser` may open the link `token`: the first browser to open it may (again); any other may not."""
        now = time.time()
        if len(self._links) > 10_000:
            self._links = {k: v for k, v in self._links.items() if v[0] > now}
        digest = hashlib.sha256(token.encode()).hexdigest()[:32]
        opened = self._links.setdefault(digest, (expires, browser))
        return opened[1] == browser

    async def join_link(self, request: web.Request, games: Any) -> web.StreamResponse:
        """A signed link the bot gave one person for one game and their seat (or to watch): the first browser that
        opens it acts as them in that game; on to the board. Refused once expired, in a second browser, for another
        seat, or after the game's end."""
        lang = lang_of(request)
        token = request.match_info["token"]
        found = auth.read_seat_link(self.secret, token)
        refusal = M.WEB_LINK_EXPIRED
        if found is not None:
            user, gid, seat = found
            try:
                rec = await games.get(gid)
            except UserError:
                rec = None
            seats = rec.seats if rec is not None else []
            if rec is None or (seat is not None and (seat >= len(seats) or seats[seat].user_id != user)):
                found = None
            elif rec.status not in ACTIVE_STATUSES:
                found, refusal = None, M.WEB_LINK_GAME_OVER
        response = web.Response(status=302, headers={"Location": "../", "Cache-Control": "no-store"})
        if found is not None:
            browser = self.give_browser(request, response)
            if not self.first_browser(token, browser, auth.expires_at(self.secret, token) or time.time()):
                found, refusal = None, M.WEB_LINK_OTHER_BROWSER
        if found is None:  # a page, not JSON: a person followed this link
            return refusal_page(lang, refusal)
        response.headers["Location"] = f"../?game={gid}"
        self.set_session(response, self.cookie_session(request).with_user(user, gid), request)
        return response


def refusal_page(lang: str, refusal: str) -> web.Response:
    text, back = html.escape(translate(lang, refusal)), html.escape(translate(lang, M.WEB_BACK))
    page = (
        f'<!doctype html><html lang="{lang}"><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width, initial-scale=1"><link rel="icon" href="../static/favicon.svg" '
        f'type="image/svg+xml"><title>{text}</title><p>{text}</p>'
        f'<p><a href="../">{back}</a></p></html>'
    )
    return web.Response(status=403, text=page, content_type="text/html", headers=SECURITY_HEADERS)
