"""The board inside Discord (an Activity): who plays comes from Discord, never from the page.

The page (inside Discord's frame) asks Discord's client for an OAuth2 code (scope `identify`) and hands it to the
board; the board exchanges it at Discord's token endpoint with the application's id and secret, reads the person
from `GET /users/@me` with the access token, and asks Discord (with the bot's token) where the Activity instance the
page says it runs in really runs and who is in it. Only then does the person get a board session for the game of
that channel."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

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
