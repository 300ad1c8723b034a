"""What the fake Discord's parts share: its wire (the API's path, the interaction deadline, the bot's permissions),
the records of requests and gateway sessions, violations and rejections, and pointing discord.py at the fake."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord.gateway
import discord.http
import yarl
from aiohttp import web

from . import limits
from .model import (
    FakeInteraction,
    Perm,
    UploadedFile,
)

API = "/api/v10"
RESPONSE_DEADLINE = 3.0  # seconds Discord gives a bot for the initial response to an interaction
HEARTBEAT_INTERVAL_MS = 41250
BOT_PERMISSIONS = (
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.SEND_MESSAGES_IN_THREADS
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.ADD_REACTIONS
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.MANAGE_THREADS
    | Perm.MANAGE_MESSAGES
)
DM_PERMISSIONS = (
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.ADD_REACTIONS
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.USE_APPLICATION_COMMANDS
)
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content
# What an injected fault on an interaction's requests can cause without the bot being at fault.
FAULT_EXCUSES = frozenset({"late response", "double response", "no response", "not acknowledged", "no original"})
FAULT_RETRY_WAIT = 20.0  # how long past the deadline to wait for an answer that discord.py retries after a fault


@dataclass(eq=False)
class RecordedRequest:
    """One HTTP request the bot made. `path` is relative to /api/v10 (CDN paths keep their own prefix)."""

    index: int
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    headers: dict[str, str]
    at: float
    status: int | None = None
    fault: str | None = None  # the fault the fake injected into this request, if any

    @property
    def dropped(self) -> bool:
        return self.fault == "drop" and self.status == 0

    @property
    def short_path(self) -> str:
        """The path with interaction tokens shortened, for messages."""
        return "/".join(p if len(p) < 40 else p[:6] + "..." for p in self.path.split("/"))

    def __str__(self) -> str:
        query = "?" + "&".join(f"{k}={v}" for k, v in self.query.items()) if self.query else ""
        status = f" -> {self.status}" if self.status is not None else ""
        if self.dropped:
            status = " -> connection dropped"
        if self.fault:
            status += f" (injected {self.fault})"
        return f"{self.method} {self.short_path}{query}{status}"


# Gateway intents (https://discord.com/developers/docs/events/gateway#list-of-intents): the bit an event needs in a
# guild, and in a DM.
_GUILD_MESSAGES, _GUILD_REACTIONS, _GUILD_TYPING = 1 << 9, 1 << 10, 1 << 11
_DM_MESSAGES, _DM_REACTIONS, _DM_TYPING = 1 << 12, 1 << 13, 1 << 14
_EVENT_INTENTS = {
    "MESSAGE_CREATE": (_GUILD_MESSAGES, _DM_MESSAGES),
    "MESSAGE_UPDATE": (_GUILD_MESSAGES, _DM_MESSAGES),
    "MESSAGE_DELETE": (_GUILD_MESSAGES, _DM_MESSAGES),
    "MESSAGE_DELETE_BULK": (_GUILD_MESSAGES, _DM_MESSAGES),
    "MESSAGE_REACTION_ADD": (_GUILD_REACTIONS, _DM_REACTIONS),
    "MESSAGE_REACTION_REMOVE": (_GUILD_REACTIONS, _DM_REACTIONS),
    "TYPING_START": (_GUILD_TYPING, _DM_TYPING),
}


@dataclass(eq=False)
class GatewaySession:
    """One gateway session (IDENTIFY to INVALID_SESSION): its shard, sequence and the events sent on it, which a
    RESUME replays from the client's last sequence."""

    id: str
    shard_id: int
    shard_count: int
    identify: dict[str, Any]
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    events: deque[tuple[int, str, dict[str, Any]]] = field(default_factory=lambda: deque(maxlen=10_000))
    disconnected_at: float | None = None  # loop time
    invalid: bool = False
    resumes: int = 0
    ready: bool = False  # READY and every GUILD_CREATE sent, or RESUMED

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def subscribed(self, event: str, guild_id: int | None) -> bool:
        """Whether the session's IDENTIFY intents ask for `event` (as Discord does: a bot without the message intents
        gets no MESSAGE_CREATE, and so on). Events without an intent (READY, INTERACTION_CREATE...) always come."""
        intent = _EVENT_INTENTS.get(event)
        if intent is None:
            return True
        bit = intent[0] if guild_id is not None else intent[1]
        return bool(self.identify.get("intents", 0) & bit)

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the events of `guild_id` (None: DMs, which go to shard 0)."""
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id


@dataclass(eq=False)
class Violation:
    """Something the bot sent that Discord would reject (or an interaction it left unanswered)."""

    kind: str
    message: str
    request: RecordedRequest | None = None
    interaction: FakeInteraction | None = None
    problems: list[limits.Problem] = field(default_factory=list)

    def __str__(self) -> str:
        text = f"[{self.kind}] {self.message}"
        if self.request is not None:
            text += f" (request: {self.request.method} {self.request.short_path})"
        for path, problem in self.problems:
            text += f"\n      {path or '(body)'}: {problem}"
        return text


class Rejected(Exception):
    """Raised inside a handler to answer with a Discord error (and, if `violation`, record a violation)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        violation: str | None = None,
        problems: list[limits.Problem] | None = None,
        detail: str | None = None,
        interaction: FakeInteraction | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.violation, self.problems, self.detail, self.interaction = violation, problems or [], detail, interaction


def invalid_body(
    problems: list[limits.Problem], what: str, interaction: FakeInteraction | None = None, kind: str = "limit"
) -> Rejected:
    return Rejected(
        400, 50035, "Invalid Form Body", violation=kind, problems=problems, detail=what, interaction=interaction
    )


Handler = Callable[..., Awaitable[web.StreamResponse]]


EMBEDDED = 1 << 17  # the application flag of an app with Activities
ENTRY_POINT = 4  # PRIMARY_ENTRY_POINT, the application command type the App Launcher opens


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly this content type: discord.py parses JSON only for 'application/json' with no charset.
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def gateway_url_for(base_url: str) -> str:
    return base_url.replace("http://", "ws://", 1) + "/gateway"


def point_discord_at(base_url: str) -> list[tuple[Any, str, Any]]:
    """Point discord.py at a fake Discord served at `base_url` (http://127.0.0.1:PORT): its REST base
    (`Route.BASE`, which the webhook adapter uses too) and its gateway (`DiscordWebSocket.DEFAULT_GATEWAY`).
    Returns what `restore_discord` needs to undo it. The in-process harness and `subprocess_bot` both use this."""
    patched = []
    for owner, name, value in (
        (discord.http.Route, "BASE", base_url + API),
        (discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(gateway_url_for(base_url))),
    ):
        patched.append((owner, name, owner.__dict__[name]))
        setattr(owner, name, value)
    return patched


def restore_discord(patched: list[tuple[Any, str, Any]]) -> None:
    for owner, name, value in reversed(patched):
        setattr(owner, name, value)
    patched.clear()
