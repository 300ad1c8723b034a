"""Who a request acts for: a signed session cookie holding the player ids this browser may act as.

The cookie is `<payload>.<signature>`: the payload is base64url JSON `{"u": [user ids], "e": expiry}`, the signature
HMAC-SHA256 of the payload with the board's secret (settings.web_secret, or one made once and kept beside the
database: `load_secret`, so a restart keeps everyone's session). Nothing secret is in the payload and the page never sees the cookie (HttpOnly).

Locally (no Discord), a browser gets a new person's id when it takes a seat; a browser may hold several (two seats
at one table in one browser, played in turn). With Discord, a person's id comes from a signed link
(`link_token`) that only the bot hands out, to that person, for a short time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

COOKIE = "kd_board"
SESSION_SECONDS = 30 * 24 * 3600
LINK_SECONDS = 15 * 60
MAX_IDENTITIES = 8
MAX_GAMES = 16  # games one linked person keeps in a browser's session
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


def expires_at(secret: bytes, token: str | None) -> float | None:
    """When a token this secret signed stops being valid (its expiry, seconds since the epoch); None for a token
    that is not valid now."""
    payload = verify(secret, token)
    return float(payload["e"]) if payload is not None else None


@dataclass(frozen=True)
class Session:
    """The people this browser may act as (Discord user ids, or local people's ids). A person who came through a
    signed link acts in the games of their links only (`games`); a local person, in any local game."""

    users: tuple[int, ...] = ()
    games: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (user, the games their links opened)

    def cookie(self, secret: bytes, *, now: float | None = None) -> str:
        expiry = int((time.time() if now is None else now) + SESSION_SECONDS)
        users = list(self.users[-MAX_IDENTITIES:])
        games = {str(u): list(g[-MAX_GAMES:]) for u, g in self.games if u in users}
        return sign(secret, {"u": users, "g": games, "e": expiry})

    def with_user(self, user_id: int, game_id: int | None = None) -> Session:
        """With `user_id` too: in any game (a local person), or in `game_id` besides their other links' games."""
        users = self.users if user_id in self.users else (*self.users, user_id)[-MAX_IDENTITIES:]
        games = dict(self.games)
        if game_id is not None:
            games[user_id] = (*[g for g in games.get(user_id, ()) if g != game_id], game_id)[-MAX_GAMES:]
        return Session(users, tuple(sorted(games.items())))

    def for_game(self, game_id: int) -> tuple[int, ...]:
        """The people this browser may act as in game `game_id`."""
        limited = dict(self.games)
        return tuple(u for u in self.users if u not in limited or game_id in limited[u])

    def merged(self, other: Session) -> Session:
        """Both sessions' people, each with their games."""
        merged = self
        limited = dict(other.games)
        for user in other.users:
            games = limited.get(user)
            if games is None:
                merged = merged.with_user(user)
            for game in games or ():
                merged = merged.with_user(user, game)
        return merged

    @classmethod
    def read(cls, secret: bytes, token: str | None) -> Session:
        payload = verify(secret, token)
        users = payload.get("u") if payload else None
        if not isinstance(users, list):
            return cls()
        kept = tuple(u for u in users if isinstance(u, int) and 0 < u <= USER_ID_LIMIT)[:MAX_IDENTITIES]
        raw = payload.get("g") if isinstance(payload.get("g"), dict) else {}  # type: ignore[union-attr]
        games = []
        for key, ids in raw.items():
            if key.isdigit() and int(key) in kept and isinstance(ids, list):
                games.append((int(key), tuple(g for g in ids if isinstance(g, int))[:MAX_GAMES]))
        return cls(kept, tuple(sorted(games)))


def new_browser_id() -> str:
    """A browser's own id (the limits count it while it holds no session): random, 16 url-safe characters."""
    return secrets.token_urlsafe(12)


def new_local_user() -> int:
    """A new local person's id: random, within JavaScript's exact integers, far from any real Discord id's range is
    not needed (a local game never meets Discord)."""
    return secrets.randbelow(ID_LIMIT - 1) + 1


def link_token(
    secret: bytes, user_id: int, game_id: int, *, seat: int | None = None, seconds: float = LINK_SECONDS
) -> str:
    """A short-lived signed token that lets `user_id` open game `game_id`'s board as themselves (`/join/<token>`):
    at their seat `seat` (its index at the table; None: they watch)."""
    payload: dict = {"l": user_id, "g": game_id, "e": int(time.time() + seconds)}
    if seat is not None:
        payload["s"] = seat
    return sign(secret, payload)


def read_link(secret: bytes, token: str) -> tuple[int, int] | None:
    """(user id, game id) of a valid, unexpired link token; None otherwise."""
    payload = verify(secret, token)
    if payload is None:
        return None
    user, game = payload.get("l"), payload.get("g")
    if not isinstance(user, int) or not isinstance(game, int):
        return None
    return user, game


def read_seat_link(secret: bytes, token: str) -> tuple[int, int, int | None] | None:
    """(user id, game id, seat index or None for a watcher) of a valid, unexpired link token; None otherwise."""
    payload = verify(secret, token)
    found = read_link(secret, token)
    if payload is None or found is None:
        return None
    seat = payload.get("s")
    return (*found, seat if isinstance(seat, int) and not isinstance(seat, bool) else None)


ACTIVITY_SECONDS = 12 * 3600  # a board session inside Discord (the page asks again when it reopens)
STREAM_SECONDS = 5 * 60  # a token that opens one game's live stream (EventSource cannot send headers)


def activity_session(secret: bytes, user_id: int, game_id: int, *, seconds: float = ACTIVITY_SECONDS) -> str:
    """The board session of a person Discord named (OAuth2) inside an Activity, for the game of its channel: sent
    by the page as a header (a cookie would be a third party's inside Discord's frame)."""
    return sign(secret, {"a": user_id, "g": game_id, "e": int(time.time() + seconds)})


def stream_token(secret: bytes, user_id: int, game_id: int, *, seconds: float = STREAM_SECONDS) -> str:
    """A short-lived token for the query string of one game's event stream, as that person."""
    return sign(secret, {"t": user_id, "g": game_id, "e": int(time.time() + seconds)})


def read_scoped(secret: bytes, token: str | None, key: str) -> Session:
    """The session an Activity session (`key` "a") or a stream token (`key` "t") stands for: one person in one
    game; an empty session for anything else."""
    payload = verify(secret, token)
    user, game = (payload.get(key), payload.get("g")) if payload else (None, None)
    if not isinstance(user, int) or not isinstance(game, int) or not 0 < user <= USER_ID_LIMIT:
        return Session()
    return Session((user,), ((user, (game,)),))


SECRET_FILE = "board-secret"  # beside the database: the secret the board signs with when WEB_SECRET is not set


def secret_path(settings: Any) -> Path | None:
    """Where the board's secret is kept: beside the SQLite file's place (also with PostgreSQL: the bot's data
    folder); None when the settings name no such place (tests that build their own)."""
    database_path = getattr(settings, "database_path", None)
    return Path(database_path).parent / SECRET_FILE if database_path else None


def load_secret(settings: Any) -> bytes:
    """The secret the board signs its sessions and links with: WEB_SECRET when set; else the one kept beside the
    database, made once (32 random bytes, readable by the bot's user only), so that a restart keeps everyone's seat.
    Rotating it (README: "The board's secret") signs everyone out: set WEB_SECRET, or delete the file."""
    if getattr(settings, "web_secret", None):
        return settings.web_secret.encode()
    path = secret_path(settings)
    if path is None:
        return new_secret()
    try:
        kept = path.read_bytes().strip()
        if len(kept) >= 32:
            return kept
    except FileNotFoundError:
        pass
    secret = _b64(new_secret()).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(secret + b"\n")
    return secret


@dataclass(frozen=True)
class BoardLinks:
    """The board as the Discord side sees it (`cogs.service.BoardAccess`): a person's signed link to a game's board
    at the board's public address, and whether the board opens inside Discord (the Activity's sign-in is set up)."""

    secret: bytes
    public_url: str | None = None
    activity: bool = False
    link_minutes: int = LINK_SECONDS // 60

    def link(self, game_id: int, user_id: int, seat: int | None) -> str | None:
        if not self.public_url:
            return None
        return f"{self.public_url}join/{link_token(self.secret, user_id, game_id, seat=seat)}"

    @classmethod
    def of(cls, settings: Any, secret: bytes) -> BoardLinks:
        activity = getattr(settings, "activity", "auto") != "off" and bool(
            getattr(settings, "discord_client_secret", None)
        )
        return cls(secret, getattr(settings, "public_url", None), activity)
