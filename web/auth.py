"""Who a request acts for: a signed session cookie holding the player ids this browser may act as.

The cookie is `<payload>.<signature>`: the payload is base64url JSON `{"u": [user ids], "e": expiry}`, the signature
HMAC-SHA256 of the payload with the board's secret (settings.web_secret, or a random one made at start: then a
restart signs everyone out). Nothing secret is in the payload and the page never sees the cookie (HttpOnly).

Locally (no Discord), a browser gets a new person's id when it takes a seat; a browser may hold several (two seats
at one table in one browser, played in turn). With Discord, a person's id comes from a signed link
(`link_token`) that only the bot hands out, to that person, for a short time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass

COOKIE = "kd_board"
SESSION_SECONDS = 30 * 24 * 3600
LINK_SECONDS = 15 * 60
MAX_IDENTITIES = 8
ID_LIMIT = 2**53 - 1  # local people's ids stay exact as JavaScript numbers
USER_ID_LIMIT = 2**63 - 1  # Discord user ids (snowflakes) are 64-bit


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(secret: bytes, payload: dict) -> str:
    body = _b64(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
    mac = hmac.new(secret, body.encode(), hashlib.sha256).digest()
    return f"{body}.{_b64(mac)}"


def verify(secret: bytes, token: str | None, *, now: float | None = None) -> dict | None:
    """The payload of a token this secret signed and that has not expired; None for anything else."""
    if not token or len(token) > 2048 or token.count(".") != 1:
        return None
    body, mac = token.split(".")
    try:
        expected = hmac.new(secret, body.encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(expected, _unb64(mac)):
            return None
        payload = json.loads(_unb64(body))
    except (ValueError, TypeError):
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("e"), int | float):
        return None
    if payload["e"] < (time.time() if now is None else now):
        return None
    return payload


@dataclass(frozen=True)
class Session:
    """The people this browser may act as (Discord user ids, or local people's ids)."""

    users: tuple[int, ...] = ()

    def cookie(self, secret: bytes, *, now: float | None = None) -> str:
        expiry = int((time.time() if now is None else now) + SESSION_SECONDS)
        return sign(secret, {"u": list(self.users[-MAX_IDENTITIES:]), "e": expiry})

    def with_user(self, user_id: int) -> Session:
        if user_id in self.users:
            return self
        return Session((*self.users, user_id)[-MAX_IDENTITIES:])

    @classmethod
    def read(cls, secret: bytes, token: str | None) -> Session:
        payload = verify(secret, token)
        users = payload.get("u") if payload else None
        if not isinstance(users, list):
            return cls()
        return cls(tuple(u for u in users if isinstance(u, int) and 0 < u <= USER_ID_LIMIT)[:MAX_IDENTITIES])


def new_local_user() -> int:
    """A new local person's id: random, within JavaScript's exact integers, far from any real Discord id's range is
    not needed (a local game never meets Discord)."""
    return secrets.randbelow(ID_LIMIT - 1) + 1


def link_token(secret: bytes, user_id: int, game_id: int, *, seconds: float = LINK_SECONDS) -> str:
    """A short-lived signed token that lets `user_id` open game `game_id`'s board as themselves (`/join/<token>`)."""
    return sign(secret, {"l": user_id, "g": game_id, "e": int(time.time() + seconds)})


def read_link(secret: bytes, token: str) -> tuple[int, int] | None:
    """(user id, game id) of a valid, unexpired link token; None otherwise."""
    payload = verify(secret, token)
    if payload is None:
        return None
    user, game = payload.get("l"), payload.get("g")
    if not isinstance(user, int) or not isinstance(game, int):
        return None
    return user, game
