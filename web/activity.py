"""The board inside Discord (an Activity): who plays comes from Discord, never from the page.

The page (inside Discord's frame) asks Discord's client for an OAuth2 code (scope `identify`) and hands it to the
board; the board exchanges it at Discord's token endpoint with the application's id and secret, reads the person
from `GET /users/@me` with the access token, and asks Discord (with the bot's token) where the Activity instance the
page says it runs in really runs and who is in it. Only then does the person get a board session for the game of
that channel."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
from aiohttp import web

from i18n import messages as M
from i18n import translate

from . import auth
from .errors import Refusal
from .guard import Bucket
from .people import lang_of

log = logging.getLogger(__name__)
SDK_DIR = Path(__file__).resolve().parent / "sdk" / "node_modules" / "@discord" / "embedded-app-sdk" / "output"

TIMEOUT = aiohttp.ClientTimeout(total=15)
MAX_FIELD = 256  # a code, an instance id: Discord's are far shorter


class ActivityRefused(Exception):
    """Discord did not confirm the person, or the Activity instance is not where the page says."""


@dataclass(frozen=True)
class Place:
    """Where an Activity instance runs, as Discord says."""

    channel_id: int
    guild_id: int | None
    users: frozenset[int]


def api_base() -> str:
    """Discord's API as discord.py reaches it (the tests' fake Discord sets the same base)."""
    return discord.http.Route.BASE


async def exchange_code(client_id: int, client_secret: str, code: str) -> tuple[str, int]:
    """(access token, user id) for an authorization code the Activity got from Discord: the code exchanged at
    `POST /oauth2/token` (form-encoded, as Discord's OAuth2 documentation says), then `GET /users/@me`."""
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": str(client_id),
        "client_secret": client_secret,
    }
    base = api_base()
    try:
        async with aiohttp.ClientSession(timeout=TIMEOUT) as http:
            async with http.post(base + "/oauth2/token", data=form) as response:
                token: Any = await response.json(content_type=None)
                if response.status != 200 or not isinstance(token, dict) or "access_token" not in token:
                    raise ActivityRefused(f"token exchange: HTTP {response.status}")
            access = str(token["access_token"])
            headers = {"Authorization": f"Bearer {access}"}
            async with http.get(base + "/users/@me", headers=headers) as response:
                user: Any = await response.json(content_type=None)
                if response.status != 200 or not isinstance(user, dict) or not str(user.get("id", "")).isdigit():
                    raise ActivityRefused(f"users/@me: HTTP {response.status}")
    except (aiohttp.ClientError, TimeoutError, ValueError) as error:
        raise ActivityRefused(f"Discord could not be reached: {error}") from None
    return access, int(user["id"])


async def instance_place(bot: Any, instance_id: str) -> Place:
    """Where Discord says the Activity instance runs (`GET /applications/{app}/activity-instances/{instance}`,
    with the bot's token), and who is in it."""
    route = discord.http.Route(
        "GET",
        "/applications/{application_id}/activity-instances/{instance_id}",
        application_id=bot.application_id,
        instance_id=instance_id,
    )
    try:
        data = await bot.http.request(route)
        location = data["location"]
        guild = location.get("guild_id")
        return Place(
            int(location["channel_id"]),
            int(guild) if guild else None,
            frozenset(int(u) for u in data.get("users", [])),
        )
    except (discord.HTTPException, KeyError, TypeError, ValueError) as error:
        raise ActivityRefused(f"no such Activity instance: {error}") from None


def field_of(body: dict, name: str, *, digits: bool = False) -> str | None:
    """A short string field of the page's request (digits only for ids); None when missing or malformed."""
    value = body.get(name)
    if not isinstance(value, str) or not 0 < len(value) <= MAX_FIELD:
        return None
    if digits and not value.isdigit():
        return None
    return value


SIGN_INS_PER_MINUTE, SIGN_IN_BURST = 6.0, 10.0  # per address, and per Activity instance, before Discord is asked


class SignIns:
    """The Activity's sign-in endpoints of a board: Discord's SDK files, and the sign-in itself, each address and
    each instance allowed a few a minute before the board calls Discord's token endpoint (a forged code costs the
    board one refused call, not one per request)."""

    def __init__(self, board: Any, clock=time.monotonic) -> None:
        self.board = board
        self.clock = clock
        self._buckets: dict[str, Bucket] = {}

    def _allow(self, key: str) -> bool:
        now = self.clock()
        if len(self._buckets) > 10_000:
            self._buckets.clear()
        bucket = self._buckets.setdefault(key, Bucket(SIGN_IN_BURST, now))
        return bucket.take(SIGN_INS_PER_MINUTE / 60.0, SIGN_IN_BURST, now)

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

    async def sign_in(self, request: web.Request) -> web.Response:
        """The Activity's sign-in: the page's OAuth2 code exchanged with Discord (who the person is), the instance
        it runs in checked with Discord (which channel, that they are in it); answers the access token for the
        SDK's authenticate, the board session for that channel's game, and the game's id."""
        board = self.board
        lang = lang_of(request)
        bot = getattr(board.service, "bot", None)
        app = board.app_id()
        if board.local or not board.client_secret or app is None or bot is None:
            raise Refusal(403, translate(lang, M.WEB_ACTIVITY_OFF))
        body = await board.body(request)
        code, instance = field_of(body, "code"), field_of(body, "instance_id")
        channel = field_of(body, "channel_id", digits=True)
        if code is None or instance is None or channel is None:
            raise Refusal(400, translate(lang, M.WEB_ACTIVITY_REFUSED))
        if not self._allow(f"a:{board.people.address(request)}") or not self._allow(f"i:{instance}"):
            raise Refusal(429, translate(lang, M.WEB_TOO_FAST))
        try:
            access, user = await exchange_code(app, board.client_secret, code)
        except ActivityRefused as error:
            log.info("Activity sign-in refused: %s", error)
            raise Refusal(403, translate(lang, M.WEB_ACTIVITY_REFUSED)) from None
        try:
            place = await instance_place(bot, instance)
        except ActivityRefused as error:
            log.info("Activity instance refused: %s", error)
            raise Refusal(403, translate(lang, M.WEB_ACTIVITY_ELSEWHERE)) from None
        if place.channel_id != int(channel) or user not in place.users:
            raise Refusal(403, translate(lang, M.WEB_ACTIVITY_ELSEWHERE))
        rec = await board.service.store.get_active_game(place.channel_id)
        if rec is None or rec.guild_id != place.guild_id:
            return web.json_response({"access_token": access, "game": None, "session": None})
        session = auth.activity_session(board.secret, user, rec.id)
        return web.json_response({"access_token": access, "game": rec.id, "session": session})
