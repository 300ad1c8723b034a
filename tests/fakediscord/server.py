"""The fake Discord: REST API and gateway on 127.0.0.1, a model of a guild (or several), limits enforced.

`FakeDiscord` is started inside the test's event loop. While it runs, discord.py's `Route.BASE` and
`DiscordWebSocket.DEFAULT_GATEWAY` point at it, so an unmodified bot logs in, connects and answers
interactions against it. The drivers that act as people (slash commands, clicks, ...) are in `drivers.py`;
the faults it can inject are in `faults.py`. The gateway keeps sessions (RESUME replays what a shard missed) and
routes each guild's events to its shard.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import mimetypes
import re
import secrets
import socket
import time
import traceback
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

from . import limits
from .activity import LAUNCH_ACTIVITY, Activities
from .drivers import PATIENCE, ClientRefused, Drivers
from .faults import HTTP_CLIENT_RETRIED, SERVER_ERROR_MESSAGES, Fault, FaultInjector
from .model import (
    ALL_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    MAX_FILE_SIZE,
    Callback,
    ChannelType,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionType,
    MessageFlag,
    Perm,
    Snowflakes,
    UploadedFile,
    describe_component,
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


class FakeDiscord(Drivers):
    """One guild ("Kingdomino Test Server"), its channels, roles and members, and the bot's application.

    People: `alice` (role Game Master: Manage Channels, Manage Messages, Manage Threads), `bob`, `carol`, `dave`;
    `olivia` owns the guild. Channels: `#general` (no threads for @everyone), `#kingdomino` (threads allowed),
    `#announcements` (@everyone, the bot included, cannot send messages). `add_guild` adds more guilds.
    """

    def __init__(self, *, token: str = "fake-token", privileged_intents: int = 0) -> None:
        self.token = token
        self.privileged_intents = privileged_intents
        self._ids = Snowflakes()
        self.application_id = self._ids()
        self.bot_user = FakeUser(self.application_id, "Kingdomino", bot=True)
        self.guild_id = self._ids()
        self.left_by_bot: set[int] = set()  # guilds the bot was removed from (`remove_bot`)
        self.guild_name = "Kingdomino Test Server"

        self.everyone_role = FakeRole(self.guild_id, "@everyone", int(EVERYONE_PERMISSIONS), 0, guild_id=self.guild_id)
        self.game_master_role = FakeRole(
            self._ids(),
            "Game Master",
            int(Perm.MANAGE_CHANNELS | Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS),
            1,
            guild_id=self.guild_id,
        )
        self.bot_role = FakeRole(
            self._ids(), "Kingdomino", int(BOT_PERMISSIONS), 2, managed=True, guild_id=self.guild_id
        )
        self.roles: dict[int, FakeRole] = {r.id: r for r in (self.everyone_role, self.game_master_role, self.bot_role)}
        self.bot_user.role_ids.append(self.bot_role.id)

        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.owner = self.add_user("olivia")
        self.guild = FakeGuild(self.guild_id, self.guild_name, self.owner, self.everyone_role, self.bot_role)
        self.guilds: dict[int, FakeGuild] = {self.guild_id: self.guild}
        self.alice = self.add_user("alice", roles=[self.game_master_role])
        self.bob = self.add_user("bob")
        self.carol = self.add_user("carol")
        self.dave = self.add_user("dave")

        self.channels: dict[int, FakeChannel] = {}
        self.games_category = self._add_channel("Games", ChannelType.CATEGORY, position=0)
        no_threads = int(Perm.CREATE_PUBLIC_THREADS | Perm.CREATE_PRIVATE_THREADS)
        self.general = self._add_channel(
            "general",
            ChannelType.TEXT,
            position=1,
            overwrites=[{"id": self.guild_id, "type": 0, "allow": 0, "deny": no_threads}],
        )
        self.kingdomino = self._add_channel(
            "kingdomino",
            ChannelType.TEXT,
            position=2,
            parent_id=self.games_category.id,
            topic="Play Kingdomino here",
        )
        self.announcements = self._add_channel(
            "announcements",
            ChannelType.TEXT,
            position=3,
            overwrites=[{"id": self.guild_id, "type": 0, "allow": 0, "deny": int(Perm.SEND_MESSAGES)}],
        )
        for channel in (self.games_category, self.general, self.kingdomino, self.announcements):
            self.guild.channels[channel.name] = channel

        self.messages: list[FakeMessage] = []
        self._messages_by_id: dict[int, FakeMessage] = {}
        self._message_numbers = 0
        self.interactions: dict[int, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}

        self.requests: list[RecordedRequest] = []
        self.violations: list[Violation] = []
        self.excused: list[Violation] = []  # what Discord rejected because of an injected fault (not the bot's)
        self.faults = FaultInjector()
        self.unhandled: list[RecordedRequest] = []
        self.internal_errors: list[str] = []
        self.identifies: list[dict[str, Any]] = []
        self._option_attachments: list[FakeAttachment] = []  # files users attached to slash command options
        self.transcript_lines: list[tuple[float, str, str]] = []

        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        self._add_routes()
        self.activities = Activities(self)  # LAUNCH_ACTIVITY, OAuth2 for the Activity (activity.py)
        self.activities.install()
        self._gateway_sockets: list[web.WebSocketResponse] = []
        self.sessions: list[GatewaySession] = []  # every gateway session, oldest first
        self._ws_sessions: dict[web.WebSocketResponse, GatewaySession] = {}
        self._closing_by_server: dict[web.WebSocketResponse, int] = {}  # close code the fake sent
        self.shard_count = 1  # what GET /gateway/bot recommends
        self.resume_timeout = 60.0  # seconds after a disconnect during which a RESUME is accepted
        self.interaction_token_lifetime = 15 * 60.0  # seconds an interaction's webhook token works
        self.expired_token_answer = (401, 50027, "Invalid Webhook Token")  # what Discord says after that
        self._hold_gateway_until = 0.0  # loop time: new gateway connections get no HELLO before it
        self._waiters: list[asyncio.Future[None]] = []
        self._runner: web.AppRunner | None = None
        self._patched: list[tuple[Any, str, Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._t0 = time.monotonic()
        self.base_url = ""

    # --- world -----------------------------------------------------------------------------------------
    def add_user(self, name: str, *, roles: list[FakeRole] | None = None) -> FakeUser:
        """A new human member of the guild (the bot learns of them from the interactions they send)."""
        user = FakeUser(self._ids(), name, role_ids=[r.id for r in roles or []])
        self.users[user.id] = user
        return user

    def _add_channel(self, name: str, kind: int, *, guild_id: int | None = None, **kwargs: Any) -> FakeChannel:
        channel = FakeChannel(self._ids(), name, kind, guild_id or self.guild_id, **kwargs)
        self.channels[channel.id] = channel
        return channel

    async def add_guild(
        self, name: str, *, shard: tuple[int, int] | None = None, owner: FakeUser | str | None = None
    ) -> FakeGuild:
        """Another guild with the same people (no roles but @everyone) and channels #general and #kingdomino.

        `shard=(shard_id, shard_count)` picks its id so that its events go to that shard. If a bot is connected on
        that shard, it joins at once (GUILD_CREATE).
        """
        guild_id = self._ids()
        if shard is not None:
            shard_id, count = shard
            while (guild_id >> 22) % count != shard_id:
                guild_id += 1 << 22
            self._ids._last = guild_id
        everyone = FakeRole(guild_id, "@everyone", int(EVERYONE_PERMISSIONS), 0, guild_id=guild_id)
        bot_role = FakeRole(self._ids(), "Kingdomino", int(BOT_PERMISSIONS), 1, managed=True, guild_id=guild_id)
        self.roles.update({everyone.id: everyone, bot_role.id: bot_role})
        self.bot_user.role_ids.append(bot_role.id)
        guild = FakeGuild(guild_id, name, self.user(owner) if owner else self.owner, everyone, bot_role)
        self.guilds[guild_id] = guild
        for position, channel_name in enumerate(("general", "kingdomino")):
            channel = self._add_channel(
                channel_name, ChannelType.TEXT, guild_id=guild_id, position=position, guild_label=name
            )
            guild.channels[channel_name] = channel
        if await self.dispatch("GUILD_CREATE", self.guild_payload(guild_id)):
            self._say("", f"({self.bot_user.name} joined {name})")
        return guild

    async def remove_bot(self, guild: FakeGuild) -> None:
        """An admin removes (kicks) the bot from `guild`: GUILD_DELETE on the gateway; at its next connection the
        guild is not among its guilds."""
        self.left_by_bot.add(guild.id)
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id)})
        self._say("", f"({self.bot_user.name} was removed from {guild.name})")

    async def add_bot_back(self, guild: FakeGuild) -> None:
        """The bot is added to `guild` again: GUILD_CREATE without `unavailable`, as Discord sends for a join."""
        self.left_by_bot.discard(guild.id)
        payload = self.guild_payload(guild.id)
        del payload["unavailable"]
        await self.dispatch("GUILD_CREATE", payload)
        self._say("", f"({self.bot_user.name} joined {guild.name} again)")

    def guild_of(self, channel: FakeChannel) -> FakeGuild:
        if channel.guild_id is None:
            raise ValueError(f"{channel.label} is not in a guild")
        return self.guilds[channel.guild_id]

    def _role_ids_in(self, user: FakeUser, guild_id: int) -> list[int]:
        return [r for r in user.role_ids if self.roles[r].guild_id == guild_id]

    def member_payload(self, user: FakeUser, guild_id: int, **kwargs: Any) -> dict[str, Any]:
        return user.member_payload(role_ids=self._role_ids_in(user, guild_id), **kwargs)

    def close_dms(self, user: FakeUser | str | int, closed: bool = True) -> None:
        """`user` accepts no DMs from the bot: sending to them answers 403, code 50007."""
        self.user(user).dms_closed = closed

    async def delete_channel(self, which: FakeChannel | str | int) -> None:
        """Someone deletes a channel or thread: CHANNEL_DELETE / THREAD_DELETE on the gateway, then its routes
        answer 404 (10003 Unknown Channel)."""
        channel = self.channel(which)
        await self._remove_channel(channel)
        owner = self.guild_of(channel).owner if channel.guild_id else channel.recipients[0]
        self._say(channel.label, f"{owner.name} deleted {channel.label}")

    def user(self, who: FakeUser | str | int) -> FakeUser:
        """A user by object, name or id."""
        if isinstance(who, FakeUser):
            return who
        for user in self.users.values():
            if who in (user.name, user.id, str(user.id)):
                return user
        raise LookupError(f"no user {who!r}; users: {', '.join(u.name for u in self.users.values())}")

    def channel(self, which: FakeChannel | str | int) -> FakeChannel:
        """A channel or thread by object, name (with or without '#') or id."""
        if isinstance(which, FakeChannel):
            return which
        name = which.lstrip("#") if isinstance(which, str) else which
        for channel in self.channels.values():
            if not channel.deleted and name in (channel.name, channel.id, str(channel.id)):
                return channel
        raise LookupError(f"no channel {which!r}")

    def role(self, which: FakeRole | str | int) -> FakeRole:
        if isinstance(which, FakeRole):
            return which
        for role in self.roles.values():
            if which in (role.name, role.id, str(role.id)):
                return role
        raise LookupError(f"no role {which!r}")

    @property
    def members(self) -> list[FakeUser]:
        return list(self.users.values())

    def permissions_for(self, user: FakeUser, channel: FakeChannel) -> int:
        """Discord's permission computation: roles, then @everyone, role and member overwrites."""
        if channel.is_dm:
            return int(DM_PERMISSIONS)
        guild = self.guild_of(channel)
        if user is guild.owner:
            return ALL_PERMISSIONS
        base = guild.everyone_role.permissions
        role_ids = self._role_ids_in(user, guild.id)
        for role_id in role_ids:
            base |= self.roles[role_id].permissions
        if base & Perm.ADMINISTRATOR:
            return ALL_PERMISSIONS
        target = self.channels[channel.parent_id] if channel.is_thread and channel.parent_id else channel
        perms = base
        overwrites = {(o["type"], o["id"]): o for o in target.overwrites}
        everyone = overwrites.get((0, guild.id))
        if everyone:
            perms = (perms & ~everyone["deny"]) | everyone["allow"]
        allow = deny = 0
        for role_id in role_ids:
            o = overwrites.get((0, role_id))
            if o:
                allow, deny = allow | o["allow"], deny | o["deny"]
        perms = (perms & ~deny) | allow
        member = overwrites.get((1, user.id))
        if member:
            perms = (perms & ~member["deny"]) | member["allow"]
        if not perms & Perm.SEND_MESSAGES:  # who cannot send cannot embed, attach, mention @everyone or TTS
            perms &= ~(Perm.SEND_TTS_MESSAGES | Perm.MENTION_EVERYONE | Perm.EMBED_LINKS | Perm.ATTACH_FILES)
        if not perms & Perm.VIEW_CHANNEL:
            return 0
        return perms

    # --- messages: what users see ---------------------------------------------------------------------
    def messages_in(
        self, channel: FakeChannel | str | int, *, viewer: FakeUser | str | None = None, deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages in a channel, oldest first, as `viewer` sees them (None: only what everyone sees)."""
        ch = self.channel(channel)
        who = self.user(viewer) if viewer is not None else None
        return [m for m in self.messages if m.channel is ch and (m.visible(who) or (deleted and m.deleted))]

    def last_message(self, channel: FakeChannel | str | int, *, viewer: FakeUser | str | None = None) -> FakeMessage:
        shown = self.messages_in(channel, viewer=viewer)
        if not shown:
            raise AssertionError(f"no message in {self.channel(channel).label}")
        return shown[-1]

    def dm_channel(self, user: FakeUser | str | int) -> FakeChannel:
        """The bot's DM channel with `user` (the bot must have opened it)."""
        who = self.user(user)
        for channel in self.channels.values():
            if channel.is_dm and channel.recipients == [who]:
                return channel
        raise LookupError(f"the bot has no DM channel with {who.name}")

    def message(self, which: FakeMessage | int) -> FakeMessage:
        if isinstance(which, FakeMessage):
            return which
        try:
            return self._messages_by_id[int(which)]
        except KeyError:
            for m in self.messages:
                if m.number == which:
                    return m
            raise LookupError(f"no message {which!r}") from None

    # --- lifecycle -----------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Serve on 127.0.0.1 (random port) and point discord.py at it."""
        self._loop = asyncio.get_running_loop()
        self._t0 = self._loop.time()
        loop = self._loop
        self.faults._clock = lambda: loop.time() - self._t0
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway_handler)
        app.router.add_route("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", API + "/{tail:.*}", self._api)
        app.router.add_route("*", "/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.base_url = f"http://127.0.0.1:{port}"
        self.gateway_url = f"ws://127.0.0.1:{port}/gateway"
        self._patched = point_discord_at(self.base_url)

    async def stop(self) -> None:
        """Close gateway connections, stop serving, restore discord.py."""
        restore_discord(self._patched)
        for ws in list(self._gateway_sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def connected(self) -> bool:
        """Whether a bot is connected to the gateway and identified (on any shard)."""
        return any(s.connected for s in self.sessions)

    @property
    def connected_shards(self) -> list[int]:
        """The shard ids with a connected, identified gateway session."""
        return sorted({s.shard_id for s in self.sessions if s.connected})

    def session(self, shard_id: int = 0) -> GatewaySession:
        """The newest gateway session of shard `shard_id`."""
        for session in reversed(self.sessions):
            if session.shard_id == shard_id:
                return session
        raise LookupError(f"no gateway session for shard {shard_id}")

    def _resumable(self, session: GatewaySession) -> bool:
        if session.invalid:
            return False
        if session.connected or session.disconnected_at is None:
            return True
        assert self._loop is not None
        return self._loop.time() - session.disconnected_at <= self.resume_timeout

    def _sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """The live sessions that get `guild_id`'s events (connected, or disconnected but resumable)."""
        return [s for s in self.sessions if s.receives(guild_id) and self._resumable(s)]

    # --- failures -----------------------------------------------------------------------------------------
    def take_violations(self) -> list[Violation]:
        """The violations recorded so far; they no longer fail the test at teardown."""
        taken, self.violations = self.violations, []
        return taken

    def take_unhandled(self) -> list[RecordedRequest]:
        """The requests to endpoints the fake does not handle; they no longer fail the test at teardown."""
        taken, self.unhandled = self.unhandled, []
        return taken

    def problems(self) -> list[str]:
        out = [f"Discord would reject: {v}" for v in self.violations]
        out += [f"unhandled endpoint (add it to the fake if the bot needs it): {r}" for r in self.unhandled]
        out += [f"fake Discord crashed: {e}" for e in self.internal_errors]
        return out

    def check(self) -> None:
        """Fail if the bot did anything Discord would reject or hit an endpoint the fake does not handle."""
        problems = self.problems()
        if problems:
            raise AssertionError("fake Discord saw problems:\n  - " + "\n  - ".join(problems))

    def _violate(
        self,
        kind: str,
        message: str,
        *,
        request: RecordedRequest | None = None,
        interaction: FakeInteraction | None = None,
        problems: list[limits.Problem] | None = None,
    ) -> Violation:
        violation = Violation(kind, message, request, interaction, problems or [])
        channel = interaction.channel.label if interaction else ""
        if interaction is not None and interaction.faulted and kind in FAULT_EXCUSES:
            self.excused.append(violation)
            self._say(channel, f"(Discord rejects this, because of an injected fault: {violation})")
            self._notify()
            return violation
        self.violations.append(violation)
        if interaction is not None:
            interaction.violations.append(violation)
        self._say(channel, f"!! Discord would reject this: {violation}")
        self._notify()
        return violation

    # --- waiting -----------------------------------------------------------------------------------------
    def _notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float = PATIENCE, what: str = "") -> Any:
        """Wait until `predicate()` is truthy (checked after every request and event), and return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout} s waiting for {what or predicate}")
            waiter = loop.create_future()
            self._waiters.append(waiter)
            # Woken by the fake's own events, and polling for state outside it (the bot, its logs). asyncio.wait,
            # not wait_for: Python 3.11's wait_for swallows a cancellation that comes as its future completes (here
            # often: every request completes the waiters), and a cancelled wait went on to its timeout, 60 s.
            await asyncio.wait((waiter,), timeout=min(remaining, 0.02))

    async def settle(self, *, quiet: float = 0.05, timeout: float = PATIENCE) -> None:
        """Wait until the bot has made no request for `quiet` seconds (it finished what it was doing)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            seen = len(self.requests)
            await asyncio.sleep(quiet)
            if len(self.requests) == seen and all(r.status is not None for r in self.requests[-3:]):
                return
            if loop.time() > deadline:
                raise AssertionError(f"the bot was still busy after {timeout} s")

    def mark(self) -> int:
        """The number of requests so far: pass it as `after=` to wait only for later requests."""
        return len(self.requests)

    async def wait_for_request(
        self,
        method: str | None = None,
        path: str | None = None,
        *,
        after: int = 0,
        predicate: Callable[[RecordedRequest], bool] | None = None,
        timeout: float = PATIENCE,
    ) -> RecordedRequest:
        """The first request (index >= `after`) with this method whose path matches the regex `path`."""

        def find() -> RecordedRequest | None:
            for r in self.requests[after:]:
                if method is not None and r.method != method.upper():
                    continue
                if path is not None and not re.search(path, r.path):
                    continue
                if predicate is not None and not predicate(r):
                    continue
                if r.status is None:  # still being handled
                    continue
                return r
            return None

        return await self.wait_until(find, timeout=timeout, what=f"request {method or '*'} {path or '*'}")

    def requests_to(self, method: str, path: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == method.upper() and re.search(path, r.path)]

    # --- transcript --------------------------------------------------------------------------------------
    def _say(self, where: str, text: str) -> None:
        now = self._loop.time() - self._t0 if self._loop else 0.0
        self.transcript_lines.append((now, where, text))

    def transcript(self, channel: FakeChannel | str | int | None = None) -> str:
        """Everything said and done, in order: who, what, buttons, attachments, violations."""
        label = self.channel(channel).label if channel is not None else None
        lines = []
        for at, where, text in self.transcript_lines:
            if label is not None and where not in (label, ""):
                continue
            first, *rest = text.split("\n")
            lines.append(f"[{at:7.3f}s] {where + ' | ' if where else ''}{first}")
            lines += [" " * 11 + line for line in rest]
        return "\n".join(lines)

    def describe(self, msg: FakeMessage) -> str:
        tags = []
        if msg.interaction is not None:
            tags.append(f"answers {msg.interaction.user.name}")
        if msg.visible_to is not None:
            tags.append(f"only {msg.visible_to.name} sees it")
        if msg.loading:
            tags.append("thinking...")
        head = f"{msg.author.name} #{msg.number}" + (f" ({', '.join(tags)})" if tags else "") + ":"
        lines = [f"{head} {msg.content}" if msg.content else head]
        for embed in msg.embeds:
            parts = [embed.get("title") or "", (embed.get("description") or "")[:300]]
            parts += [f"{f.get('name')}={f.get('value')}" for f in embed.get("fields") or []]
            image = (embed.get("image") or {}).get("url")
            if image:
                parts.append(f"image {image}")
            lines.append("  embed: " + " | ".join(p for p in parts if p))
        for component in msg.components:
            lines += self._describe_layout(component, "  ")
        for a in msg.attachments:
            lines.append(f"  file: {a.filename} ({a.size} bytes, {a.content_type})")
        return "\n".join(lines)

    def _describe_layout(self, component: dict[str, Any], indent: str) -> list[str]:
        kind = component.get("type")
        if kind == 1:
            return [indent + " ".join(describe_component(c) for c in component.get("components") or [])]
        if kind == 10:
            return [indent + "text: " + (component.get("content") or "")]
        if kind in (9, 17):
            out = [indent + ("section:" if kind == 9 else "container:")]
            for child in component.get("components") or []:
                out += self._describe_layout(child, indent + "  ")
            if component.get("accessory"):
                out += [indent + "  " + describe_component(component["accessory"])]
            return out
        return [indent + describe_component(component)]

    # --- HTTP plumbing ---------------------------------------------------------------------------------------
    def _add_routes(self) -> None:
        r = self._route
        r("GET", r"/users/@me", self._get_me)
        r("GET", r"/oauth2/applications/@me", self._get_application)
        r("GET", r"/applications/@me", self._get_application)
        r("GET", r"/gateway", self._get_gateway)
        r("GET", r"/gateway/bot", self._get_gateway)
        r("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands)
        r("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands)
        r("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._get_commands)
        r("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._put_commands)
        r("GET", r"/channels/(?P<cid>\d+)", self._get_channel)
        r("PATCH", r"/channels/(?P<cid>\d+)", self._patch_channel)
        r("DELETE", r"/channels/(?P<cid>\d+)", self._delete_channel)
        r("GET", r"/channels/(?P<cid>\d+)/messages", self._get_messages)
        r("POST", r"/channels/(?P<cid>\d+)/messages", self._post_message)
        r("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_message)
        r("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._patch_message)
        r("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._delete_message)
        r("POST", r"/channels/(?P<cid>\d+)/typing", self._typing)
        r("POST", r"/channels/(?P<cid>\d+)/threads", self._post_thread)
        r("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads", self._post_thread)
        r("PUT", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>\d+|@me)", self._put_thread_member)
        r("DELETE", r"/channels/(?P<cid>\d+)/thread-members/(?P<uid>\d+|@me)", self._delete_thread_member)
        r("PUT", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me", self._react)
        r("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/reactions/(?P<emoji>[^/]+)/@me", self._react)
        r("GET", r"/guilds/(?P<gid>\d+)", self._get_guild)
        r("GET", r"/guilds/(?P<gid>\d+)/channels", self._get_guild_channels)
        r("GET", r"/guilds/(?P<gid>\d+)/roles", self._get_roles)
        r("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", self._get_member)
        r("POST", r"/users/@me/channels", self._create_dm)
        r("GET", r"/users/(?P<uid>\d+)", self._get_user)
        r("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback)
        r("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup)
        r("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>\d+|@original)", self._webhook_message)
        r("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>\d+|@original)", self._webhook_message)
        r("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>\d+|@original)", self._webhook_message)

    def _route(self, method: str, pattern: str, handler: Handler) -> None:
        self._routes.append((method, re.compile(pattern), handler))

    async def _record(self, request: web.Request) -> RecordedRequest:
        path = request.path[len(API) :] if request.path.startswith(API + "/") else request.path
        body: Any = None
        files: list[UploadedFile] = []
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    match = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                    index = int(match.group(1)) if match else len(files)
                    data = await part.read()
                    filename = part.filename or f"file{index}"
                    guessed = mimetypes.guess_type(filename)[0]
                    files.append(
                        UploadedFile(index, filename, guessed or part.headers.get("Content-Type"), bytes(data))
                    )
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode(errors="replace")
        rec = RecordedRequest(
            index=len(self.requests),
            method=request.method,
            path=path,
            query=dict(request.query),
            json=body,
            files=files,
            headers=dict(request.headers),
            at=asyncio.get_running_loop().time(),
        )
        self.requests.append(rec)
        return rec

    async def _api(self, request: web.Request) -> web.StreamResponse:
        rec = await self._record(request)
        rule = self.faults.pick(rec) if request.path.startswith(API + "/") else None
        if rule is not None:
            return await self._inject(request, rec, rule)
        response = await self._respond(request, rec)
        rec.status = response.status
        if response.status < 300:
            self.faults.note_success(rec)
        self._notify()
        return response

    async def _respond(self, request: web.Request, rec: RecordedRequest) -> web.StreamResponse:
        try:
            response = await self._handle(request, rec)
        except Rejected as rejected:
            if rejected.violation:
                message = rejected.detail or rejected.message
                self._violate(
                    rejected.violation,
                    message,
                    request=rec,
                    interaction=rejected.interaction,
                    problems=rejected.problems,
                )
            body: dict[str, Any] = {"code": rejected.code, "message": rejected.message}
            if rejected.problems:
                body["errors"] = limits.error_tree(rejected.problems)
            response = json_response(body, rejected.status)
        except Exception:
            # A bug in the fake: report it at teardown, answer 400 (a 5xx would make discord.py retry slowly).
            self.internal_errors.append(f"{rec}: {traceback.format_exc()}")
            response = json_response({"code": 0, "message": "fake Discord crashed, see the test report"}, 400)
        return response

    # --- injected faults ------------------------------------------------------------------------------------------
    def _interaction_of(self, rec: RecordedRequest) -> FakeInteraction | None:
        parts = rec.path.split("/")
        if len(parts) > 3 and parts[1] == "interactions" and parts[2].isdigit():
            return self.interactions.get(int(parts[2]))
        if len(parts) > 3 and parts[1] == "webhooks":
            return self._interactions_by_token.get(parts[3])
        return None

    async def _inject(self, request: web.Request, rec: RecordedRequest, rule: Fault) -> web.StreamResponse:
        """Answer `rec` with the fault `rule` instead of (or around) the normal handling."""
        rec.fault = rule.kind
        entry = self.faults.log(rule.kind, rule.describe(), request=rec)
        it = self._interaction_of(rec)
        webhook = rec.path.startswith(("/interactions/", "/webhooks/"))
        if it is not None and it.faulted_at is None:
            it.faulted_at = rec.at
        self._say(it.channel.label if it else "", f"(fault injected: {entry.detail} for {rec})")
        retried = False  # whether discord.py will send the request again by itself
        response: web.StreamResponse | None
        if rule.kind in ("rate limit", "global rate limit"):
            response, retried = self._rate_limited(rule), True
        elif rule.kind == "server error":
            body = {"message": SERVER_ERROR_MESSAGES[rule.status], "code": 0}
            response, retried = json_response(body, rule.status), webhook or rule.status in HTTP_CLIENT_RETRIED
        elif rule.kind == "refuse upload":
            response = json_response({"message": "Request entity too large", "code": 40005}, 413)
        elif rule.kind == "slow":
            if rule.applied:
                response = await self._respond(request, rec)
                await asyncio.sleep(rule.delay)
            else:
                await asyncio.sleep(rule.delay)
                response = await self._respond(request, rec)
            retried = True  # the request is carried out: its answer counts
        else:  # drop
            if rule.applied:
                await self._respond(request, rec)
            try:
                await self.faults.run_on_hit(rule, rec)
            except Exception:  # the test's callback failed: report it at teardown, drop the connection anyway
                self.internal_errors.append(f"on_hit of {rule.describe()} failed: {traceback.format_exc()}")
            response = None
        if it is not None and not retried:
            it.answered.set()  # the bot tried; nothing more will come of this attempt
        if response is None:
            rec.status = 0
            if request.transport is not None:
                request.transport.close()
            request.protocol.force_close()
            self._notify()
            return web.Response(status=500)  # never sent: the connection is gone
        rec.status = response.status
        if response.status < 300:
            self.faults.note_success(rec)
        self._notify()
        return response

    def _rate_limited(self, rule: Fault) -> web.Response:
        retry_after = rule.retry_after
        is_global = rule.kind == "global rate limit"
        headers = {
            "Content-Type": "application/json",
            "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
            "Retry-After": str(max(1, int(retry_after + 0.999))),
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            bucket = rule.bucket or hashlib.sha1(f"{rule.method} {rule.route}".encode()).hexdigest()[:16]
            headers.update(
                {
                    "X-RateLimit-Bucket": bucket,
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                }
            )
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

    async def _handle(self, request: web.Request, rec: RecordedRequest) -> web.StreamResponse:
        if not request.path.startswith(API + "/"):
            return self._unhandled(rec)
        for method, pattern, handler in self._routes:
            match = pattern.fullmatch(rec.path)
            if match and method == rec.method:
                needs_auth = not rec.path.startswith(("/interactions/", "/webhooks/")) and not self.activities.own_auth(
                    rec
                )
                if needs_auth and rec.headers.get("Authorization") != f"Bot {self.token}":
                    raise Rejected(401, 0, "401: Unauthorized", violation="auth", detail="wrong or missing token")
                return await handler(rec, **match.groupdict())
        return self._unhandled(rec)

    def _unhandled(self, rec: RecordedRequest) -> web.Response:
        self.unhandled.append(rec)
        self._say("", f"!! unhandled endpoint: {rec.method} {rec.path}")
        return json_response({"code": 0, "message": f"fake Discord does not handle {rec.method} {rec.path}"}, 404)

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        rec = await self._record(request)
        attachment_id = int(request.match_info["attachment_id"])
        for attachment in self._all_attachments():
            if attachment.id == attachment_id:
                rec.status = 200
                return web.Response(
                    body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
                )
        rec.status = 404
        return web.Response(status=404, text="Not Found")

    def _all_attachments(self) -> Any:
        for message in self.messages:
            yield from message.attachments
        yield from self._option_attachments

    # --- gateway ---------------------------------------------------------------------------------------------
    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        rec = await self._record(request)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        rec.status = 101
        self._gateway_sockets.append(ws)
        loop = asyncio.get_running_loop()
        try:
            hold = self._hold_gateway_until - loop.time()
            if hold > 0:  # Discord is unreachable for a while: the bot misses events, which RESUME replays
                await asyncio.sleep(hold)
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    self._violate("gateway", f"unexpected {msg.type.name} frame on the gateway")
                    continue
                await self._gateway_op(ws, json.loads(msg.data))
        finally:
            self._gateway_sockets.remove(ws)
            session = self._ws_sessions.pop(ws, None)
            by_server = ws in self._closing_by_server
            code = self._closing_by_server.pop(ws, ws.close_code)
            if session is not None and session.ws is ws:
                session.ws = None
                session.ready = False
                session.disconnected_at = loop.time()
                if not by_server and ws.close_code in (1000, 1001):
                    session.invalid = True  # a client that closes with 1000/1001 ends its session
                self._say("", f"(the bot disconnected from the gateway, shard {session.shard_id}, code {code})")
            self._notify()
        return ws

    async def _gateway_op(self, ws: web.WebSocketResponse, msg: dict[str, Any]) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == 1:  # heartbeat
            await ws.send_str(json.dumps({"op": 11}))
        elif op == 2:  # identify
            await self._identify(ws, data)
        elif op == 3:  # presence update
            pass
        elif op == 6:  # resume
            await self._resume(ws, data)
        else:
            self._violate("gateway", f"unexpected gateway op {op}: {msg}")

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append(data)
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if data.get("intents", 0) & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return
        # As on Discord, an older session of the same shard lives on (two processes that claim the same shard both
        # get its events, and both answer its interactions).
        session = GatewaySession(secrets.token_hex(16), shard_id, shard_count, data, ws)
        self.sessions.append(session)
        self._ws_sessions[ws] = session
        guilds = [g for g in self.guilds.values() if session.receives(g.id) and g.id not in self.left_by_bot]
        await self._send_event(
            session,
            "READY",
            {
                "v": 10,
                "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "shard": [shard_id, shard_count],
            },
        )
        for guild in guilds:
            await self._send_event(session, "GUILD_CREATE", self.guild_payload(guild.id))
        session.ready = True
        self.faults.note_gateway_back(shard_id)
        shown = f" (shard {shard_id} of {shard_count})" if shard_count > 1 else ""
        self._say("", f"({self.bot_user.name} connected to the gateway{shown})")
        self._notify()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if session is None or not self._resumable(session):
            if session is not None:
                session.invalid = True
            self._say("", "(the gateway refused a RESUME: INVALID_SESSION, the bot must IDENTIFY again)")
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return
        if session.ws is not None and session.ws is not ws and not session.ws.closed:
            self._closing_by_server[session.ws] = 4000
            await session.ws.close(code=4000, message=b"Resumed elsewhere.")
        session.ws = ws
        session.disconnected_at = None
        session.resumes += 1
        self._ws_sessions[ws] = session
        last = data.get("seq") or 0
        missed = [e for e in session.events if e[0] > last]
        for seq, event, payload in missed:
            await ws.send_str(json.dumps({"op": 0, "t": event, "s": seq, "d": payload}))
        await self._send_event(session, "RESUMED", {})
        session.ready = True
        self.faults.note_gateway_back(session.shard_id)
        self._say("", f"(the bot resumed shard {session.shard_id}: {len(missed)} missed event(s) replayed)")
        self._notify()

    async def _send_event(self, session: GatewaySession, event: str, data: dict[str, Any]) -> bool:
        session.seq += 1
        session.events.append((session.seq, event, data))
        ws = session.ws
        if ws is None or ws.closed:
            return False
        try:
            await ws.send_str(json.dumps({"op": 0, "t": event, "s": session.seq, "d": data}))
        except ConnectionError:
            return False
        return True

    @staticmethod
    def _event_guild(event: str, data: dict[str, Any]) -> int | None:
        if event.startswith("GUILD_") and "guild_id" not in data:
            return int(data["id"])
        guild_id = data.get("guild_id")
        return int(guild_id) if guild_id else None

    async def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """Send a gateway DISPATCH on the shard that gets its guild's events (DMs: shard 0). While that shard is
        disconnected but resumable, the event waits for its RESUME. False when no session would get it (lost)."""
        guild_id = self._event_guild(event, data)
        sessions = self._sessions_for(guild_id)
        for session in sessions:
            if session.subscribed(event, guild_id):
                await self._send_event(session, event, data)
        return bool(sessions)

    # --- gateway: what Discord does to connections ----------------------------------------------------------------
    def _target_sessions(self, shard_id: int | None) -> list[GatewaySession]:
        targets = [s for s in self.sessions if s.connected and (shard_id is None or s.shard_id == shard_id)]
        if not targets:
            raise AssertionError(f"no connected gateway session{'' if shard_id is None else f' on shard {shard_id}'}")
        return targets

    async def close_gateway(
        self, code: int | None = 4000, *, shard_id: int | None = None, hold: float = 0.0, reason: str = ""
    ) -> None:
        """Close the gateway connection(s) (all shards, or `shard_id`) with `code`, as Discord does: discord.py
        reconnects and RESUMEs. 4009 (session timed out) also ends the session, so the RESUME gets INVALID_SESSION
        and the bot IDENTIFYs again. None: the connection is lost without a close frame (a network failure).
        `hold`: new connections get no HELLO for that long (events meanwhile are
        buffered and replayed on RESUME)."""
        assert self._loop is not None
        if hold:
            self._hold_gateway_until = self._loop.time() + hold
        for session in self._target_sessions(shard_id):
            ws = session.ws
            assert ws is not None
            if code == 4009:
                session.invalid = True
            self._closing_by_server[ws] = code or 1006
            what = f"close {code}" if code else "connection lost"
            self.faults.log("gateway close", what, shard_id=session.shard_id)
            self._say("", f"(fault injected: gateway shard {session.shard_id}: {what})")
            if code is None:
                transport = ws._req.transport if ws._req is not None else None
                if transport is not None:
                    transport.abort()
                continue
            await ws.close(code=code, message=(reason or f"closed by the test ({code})").encode())

    async def request_reconnect(self, *, shard_id: int | None = None) -> None:
        """Send op 7 RECONNECT: discord.py closes and RESUMEs."""
        for session in self._target_sessions(shard_id):
            assert session.ws is not None
            self.faults.log("gateway reconnect", "op 7 RECONNECT", shard_id=session.shard_id)
            await session.ws.send_str(json.dumps({"op": 7, "d": None}))

    async def invalidate_session(self, *, shard_id: int | None = None, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION: not `resumable` ends the session (the bot IDENTIFYs again)."""
        for session in self._target_sessions(shard_id):
            assert session.ws is not None
            if not resumable:
                session.invalid = True
            self.faults.log("gateway invalid session", f"op 9 INVALID_SESSION {resumable}", shard_id=session.shard_id)
            await session.ws.send_str(json.dumps({"op": 9, "d": resumable}))

    async def wait_for_gateway(self, *, shard_id: int | None = None, timeout: float = 5.0) -> GatewaySession:
        """Wait until the shard (or any shard) has a connected session again, and return it."""

        def ready() -> GatewaySession | None:
            for session in reversed(self.sessions):
                live = session.connected and session.ready and not session.invalid
                if live and (shard_id is None or session.shard_id == shard_id):
                    return session
            return None

        return await self.wait_until(ready, timeout=timeout, what=f"the gateway (shard {shard_id})")

    def guilds_on(self, session: GatewaySession) -> list[FakeGuild]:
        return [g for g in self.guilds.values() if session.receives(g.id)]

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        guild = self.guilds[guild_id or self.guild_id]
        channels = [c for c in self.channels.values() if not c.deleted and c.guild_id == guild.id]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": str(guild.channels["general"].id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "features": [],
            "roles": [r.payload() for r in self.roles.values() if r.guild_id == guild.id],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [
                {**c.payload(message_count=self._count_messages(c)), "guild_id": str(guild.id)}
                for c in channels
                if c.is_thread and not c.archived
            ],
            "members": [self.member_payload(u, guild.id) for u in self.users.values()],
            "member_count": len(self.users),
            "large": False,
            "unavailable": False,
            "joined_at": self.bot_user.member_payload()["joined_at"],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "premium_progress_bar_enabled": False,
        }

    def _count_messages(self, channel: FakeChannel) -> int:
        return sum(1 for m in self.messages if m.channel is channel and not m.deleted and not m.ephemeral)

    # --- REST: login, gateway, commands ------------------------------------------------------------------------
    async def _get_me(self, rec: RecordedRequest) -> web.Response:
        if rec.headers.get("Authorization", "").startswith("Bearer "):  # an OAuth2 token: the person behind it
            user = self.activities.user_of(rec)
            if user is None:
                return json_response({"message": "401: Unauthorized", "code": 0}, 401)
            return json_response(user.payload())
        return json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def _get_application(self, rec: RecordedRequest) -> web.Response:
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "flags": EMBEDDED if self.activities.enabled else 0,  # an app with Activities is "embedded"
                "team": None,
                "summary": "",
                "rpc_origins": [],
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
                "tags": [],
                "redirect_uris": [],
            }
        )

    async def _get_gateway(self, rec: RecordedRequest) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit})

    def _check_app(self, app: str) -> None:
        if int(app) != self.application_id:
            raise Rejected(404, 10002, "Unknown Application", violation="unknown application")

    def _check_guild(self, guild: str | None) -> int | None:
        if guild is not None and int(guild) not in self.guilds:
            raise Rejected(403, 50001, "Missing Access", violation="unknown guild", detail=f"no guild {guild}")
        return int(guild) if guild is not None else None

    def commands_for(self, guild_id: int | None) -> list[dict[str, Any]]:
        return self.guild_commands.get(guild_id, []) if guild_id else self.global_commands

    async def _get_commands(self, rec: RecordedRequest, app: str, guild: str | None = None) -> web.Response:
        self._check_app(app)
        return json_response(self.commands_for(self._check_guild(guild)))

    async def _put_commands(self, rec: RecordedRequest, app: str, guild: str | None = None) -> web.Response:
        self._check_app(app)
        guild_id = self._check_guild(guild)
        problems = limits.validate_commands(rec.json)
        if problems:
            raise invalid_body(problems, "command sync rejected", kind="commands")
        kept = [c for c in self.commands_for(guild_id) if c.get("type") == ENTRY_POINT]
        if kept and not any(isinstance(c, dict) and c.get("type") == ENTRY_POINT for c in rec.json):
            # Discord: "You cannot remove this app's Primary Entry Point command in a bulk update operation".
            raise Rejected(
                400, 50240, "Cannot remove the Primary Entry Point command in a bulk update", violation="commands"
            )
        stored = []
        for command in rec.json:
            kind = command.get("type", 1)
            key = (guild_id, kind, command["name"])
            command_id = self._command_ids.setdefault(key, self._ids())
            entry = {
                "id": str(command_id),
                "application_id": str(self.application_id),
                "version": str(self._ids()),
                "type": kind,
                "name": command["name"],
                "description": command.get("description", ""),
                "options": command.get("options") or [],
                "default_member_permissions": command.get("default_member_permissions"),
                "dm_permission": command.get("dm_permission", True),
                "contexts": command.get("contexts"),
                "integration_types": command.get("integration_types") or [0],
                "nsfw": command.get("nsfw", False),
            }
            if kind == ENTRY_POINT:
                entry["handler"] = command.get("handler", 1)
            if guild_id:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        if guild_id:
            self.guild_commands[guild_id] = stored
        else:
            self.global_commands = stored
        names = ", ".join("/" + c["name"] for c in stored) or "none"
        self._say("", f"{self.bot_user.name} synced {'guild' if guild_id else 'global'} commands: {names}")
        return json_response(stored)

    # --- REST: guild, users, channels ------------------------------------------------------------------------
    async def _get_guild(self, rec: RecordedRequest, gid: str) -> web.Response:
        self._check_guild(gid)
        data = self.guild_payload(int(gid))
        for key in ("channels", "threads", "members", "voice_states", "presences"):
            data.pop(key)
        return json_response(data)

    async def _get_guild_channels(self, rec: RecordedRequest, gid: str) -> web.Response:
        self._check_guild(gid)
        channels = [c for c in self.channels.values() if not c.deleted and c.guild_id == int(gid) and not c.is_thread]
        return json_response([c.payload() for c in channels])

    async def _get_roles(self, rec: RecordedRequest, gid: str) -> web.Response:
        self._check_guild(gid)
        return json_response([r.payload() for r in self.roles.values() if r.guild_id == int(gid)])

    async def _get_member(self, rec: RecordedRequest, gid: str, uid: str) -> web.Response:
        self._check_guild(gid)
        user = self.users.get(int(uid))
        if user is None:
            raise Rejected(404, 10007, "Unknown Member")
        return json_response(self.member_payload(user, int(gid)))

    async def _get_user(self, rec: RecordedRequest, uid: str) -> web.Response:
        user = self.users.get(int(uid))
        if user is None:
            raise Rejected(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def _create_dm(self, rec: RecordedRequest) -> web.Response:
        recipient = self.users.get(int((rec.json or {}).get("recipient_id", 0)))
        if recipient is None or recipient.bot:
            raise Rejected(400, 50007, "Cannot send messages to this user", violation="dm")
        for channel in self.channels.values():
            if channel.is_dm and channel.recipients == [recipient]:
                return json_response(channel.payload())
        channel = FakeChannel(self._ids(), f"dm-{recipient.name}", ChannelType.DM, None, recipients=[recipient])
        self.channels[channel.id] = channel
        return json_response(channel.payload())

    def _get_channel_or_404(self, cid: str | int) -> FakeChannel:
        channel = self.channels.get(int(cid))
        if channel is None or channel.deleted:
            raise Rejected(404, 10003, "Unknown Channel")
        return channel

    def _channel_payload(self, channel: FakeChannel) -> dict[str, Any]:
        data = channel.payload(message_count=self._count_messages(channel))
        if channel.is_thread:
            data["member"] = {
                "id": str(channel.id),
                "user_id": str(self.bot_user.id),
                "join_timestamp": data["thread_metadata"]["create_timestamp"],
                "flags": 0,
            }
        return data

    async def _get_channel(self, rec: RecordedRequest, cid: str) -> web.Response:
        channel = self._get_channel_or_404(cid)
        if not self.permissions_for(self.bot_user, channel) & Perm.VIEW_CHANNEL:
            raise Rejected(403, 50001, "Missing Access")
        return json_response(self._channel_payload(channel))

    def _require(self, channel: FakeChannel, needed: int, what: str) -> None:
        have = self.permissions_for(self.bot_user, channel)
        missing = needed & ~have
        if missing:
            names = ", ".join(p.name or str(p) for p in Perm if p & missing)
            raise Rejected(
                403,
                50013,
                "Missing Permissions",
                violation="permissions",
                detail=f"the bot lacks {names} in {channel.label} to {what}",
            )

    async def _patch_channel(self, rec: RecordedRequest, cid: str) -> web.Response:
        channel = self._get_channel_or_404(cid)
        body = rec.json or {}
        if channel.is_thread:
            if channel.owner_id != self.bot_user.id:
                self._require(channel, Perm.MANAGE_THREADS, "edit a thread it does not own")
            for key in ("name", "archived", "locked", "invitable", "auto_archive_duration"):
                if key in body:
                    setattr(channel, key, body[key])
            await self.dispatch("THREAD_UPDATE", {**self._channel_payload(channel), "guild_id": str(channel.guild_id)})
        else:
            self._require(channel, Perm.MANAGE_CHANNELS, "edit a channel")
            for key in ("name", "topic"):
                if key in body:
                    setattr(channel, key, body[key])
            await self.dispatch("CHANNEL_UPDATE", channel.payload())
        self._say(channel.label, f"{self.bot_user.name} edited {channel.label}: {body}")
        return json_response(self._channel_payload(channel))

    async def _delete_channel(self, rec: RecordedRequest, cid: str) -> web.Response:
        channel = self._get_channel_or_404(cid)
        if channel.is_dm:
            return json_response(channel.payload())
        self._require(channel, Perm.MANAGE_THREADS if channel.is_thread else Perm.MANAGE_CHANNELS, "delete it")
        payload = await self._remove_channel(channel)
        self._say(channel.label, f"{self.bot_user.name} deleted {channel.label}")
        return json_response(payload)

    async def _remove_channel(self, channel: FakeChannel) -> dict[str, Any]:
        """Delete a channel (and a category's or channel's threads go with it): gateway events, then 404s."""
        channel.deleted = True
        payload = self._channel_payload(channel)
        if channel.is_thread:
            await self.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                },
            )
        else:
            await self.dispatch("CHANNEL_DELETE", payload)
            for thread in [c for c in self.channels.values() if c.parent_id == channel.id and c.is_thread]:
                thread.deleted = True  # Discord sends no THREAD_DELETE for them; discord.py drops them itself
        return payload

    async def _typing(self, rec: RecordedRequest, cid: str) -> web.Response:
        self._get_channel_or_404(cid)
        return web.Response(status=204)

    async def _post_thread(self, rec: RecordedRequest, cid: str, mid: str | None = None) -> web.Response:
        parent = self._get_channel_or_404(cid)
        body = rec.json or {}
        if parent.type != ChannelType.TEXT:
            raise Rejected(400, 50024, "Cannot execute action on this channel type", violation="threads")
        kind = ChannelType.PUBLIC_THREAD if mid else body.get("type", ChannelType.PRIVATE_THREAD)
        needed = Perm.CREATE_PUBLIC_THREADS if kind == ChannelType.PUBLIC_THREAD else Perm.CREATE_PRIVATE_THREADS
        self._require(parent, needed, "create a thread")
        problems: list[limits.Problem] = []
        limits._length(problems, "name", body.get("name"), 1, 100)
        if problems:
            raise invalid_body(problems, "thread name")
        thread_id = self._ids()
        starter = None
        if mid:
            starter = self._find_message(parent, mid, viewer=None)
            if starter.thread_id:
                raise Rejected(400, 160004, "A thread has already been created for this message", violation="threads")
            thread_id = starter.id
            starter.thread_id = thread_id
        thread = FakeChannel(
            thread_id,
            body["name"],
            kind,
            parent.guild_id,
            guild_label=parent.guild_label,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            invitable=body.get("invitable", True),
            thread_member_ids={self.bot_user.id},
        )
        self.channels[thread.id] = thread
        await self.dispatch("THREAD_CREATE", {**self._channel_payload(thread), "newly_created": True})
        where = f" from message #{starter.number}" if starter else ""
        self._say(parent.label, f"{self.bot_user.name} created {thread.label}{where}")
        return json_response(self._channel_payload(thread), 201)

    async def _put_thread_member(self, rec: RecordedRequest, cid: str, uid: str) -> web.Response:
        thread = self._get_channel_or_404(cid)
        user = self.bot_user if uid == "@me" else self.users.get(int(uid))
        if not thread.is_thread or user is None:
            raise Rejected(404, 10003, "Unknown Channel", violation="threads")
        if thread.archived or thread.locked:
            raise Rejected(400, 50083, "Thread is archived", violation="threads")
        thread.thread_member_ids.add(user.id)
        self._say(thread.label, f"{self.bot_user.name} added {user.name} to {thread.label}")
        return web.Response(status=204)

    async def _delete_thread_member(self, rec: RecordedRequest, cid: str, uid: str) -> web.Response:
        thread = self._get_channel_or_404(cid)
        user = self.bot_user if uid == "@me" else self.users.get(int(uid))
        if not thread.is_thread or user is None:
            raise Rejected(404, 10003, "Unknown Channel", violation="threads")
        thread.thread_member_ids.discard(user.id)
        self._say(thread.label, f"{self.bot_user.name} removed {user.name} from {thread.label}")
        return web.Response(status=204)

    # --- REST: channel messages -------------------------------------------------------------------------------
    def _find_message(self, channel: FakeChannel, mid: str | int, *, viewer: FakeUser | None) -> FakeMessage:
        msg = self._messages_by_id.get(int(mid))
        if msg is None or msg.channel is not channel or not msg.visible(viewer):
            raise Rejected(404, 10008, "Unknown Message")
        return msg

    def _send_permissions(self, channel: FakeChannel, data: dict[str, Any], files: list[UploadedFile]) -> None:
        if channel.is_dm:
            return
        needed = Perm.VIEW_CHANNEL | (Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES)
        if files:
            needed |= Perm.ATTACH_FILES
        if data.get("embeds"):
            needed |= Perm.EMBED_LINKS
        self._require(channel, needed, "send this message")
        if channel.is_thread and channel.locked:
            self._require(channel, Perm.MANAGE_THREADS, "send in a locked thread")

    async def _get_messages(self, rec: RecordedRequest, cid: str) -> web.Response:
        channel = self._get_channel_or_404(cid)
        self._require(channel, Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY, "read message history")
        limit = int(rec.query.get("limit", 50))
        if not 1 <= limit <= 100:
            raise invalid_body([("limit", "Must be between 1 and 100.")], "message history")
        shown = [m for m in self.messages_in(channel)]
        if "after" in rec.query:
            after = int(rec.query["after"])
            chosen = [m for m in shown if m.id > after][:limit]
        elif "around" in rec.query:
            around = int(rec.query["around"])
            older = [m for m in shown if m.id <= around]
            newer = [m for m in shown if m.id > around]
            chosen = older[-((limit + 1) // 2) :] + newer[: limit // 2]
        else:
            before = int(rec.query.get("before", 1 << 63))
            chosen = [m for m in shown if m.id < before][-limit:]
        guild_id = channel.guild_id
        return json_response([m.payload(guild_id=guild_id) for m in reversed(chosen)])

    async def _get_message(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        channel = self._get_channel_or_404(cid)
        self._require(channel, Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY, "read a message")
        return json_response(self._find_message(channel, mid, viewer=None).payload(guild_id=channel.guild_id))

    async def _post_message(self, rec: RecordedRequest, cid: str) -> web.Response:
        channel = self._get_channel_or_404(cid)
        data = rec.json if isinstance(rec.json, dict) else {}
        if channel.is_dm and any(u.dms_closed for u in channel.recipients):
            raise Rejected(403, 50007, "Cannot send messages to this user")
        self._send_permissions(channel, data, rec.files)
        problems = limits.validate_message(data, rec.files, creating=True, interaction=False)
        attachments, attachment_problems = self._attachments(channel, data, rec.files, [])
        if problems or attachment_problems:
            raise invalid_body(problems + attachment_problems, f"message to {channel.label}")
        reference = (data.get("message_reference") or {}).get("message_id")
        msg = self._new_message(channel, self.bot_user, data, attachments)
        if reference is not None:
            msg.reference_id = int(reference)
        if channel.is_thread and channel.archived:
            channel.archived = False
        await self._announce(msg)
        return json_response(msg.payload(guild_id=channel.guild_id))

    async def _patch_message(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        channel = self._get_channel_or_404(cid)
        msg = self._find_message(channel, mid, viewer=None)
        if msg.author is not self.bot_user:
            raise Rejected(403, 50005, "Cannot edit a message authored by another user", violation="permissions")
        return json_response(await self._edit(rec, msg, interaction=None))

    async def _delete_message(self, rec: RecordedRequest, cid: str, mid: str) -> web.Response:
        channel = self._get_channel_or_404(cid)
        msg = self._find_message(channel, mid, viewer=None)
        if msg.author is not self.bot_user:
            self._require(channel, Perm.MANAGE_MESSAGES, "delete another user's message")
        await self._delete(msg)
        return web.Response(status=204)

    async def _react(self, rec: RecordedRequest, cid: str, mid: str, emoji: str) -> web.Response:
        channel = self._get_channel_or_404(cid)
        msg = self._find_message(channel, mid, viewer=None)
        name = yarl.URL.build(path="/" + emoji, encoded=True).path.lstrip("/")
        users = msg.reactions.setdefault(name, set())
        if rec.method == "PUT":
            self._require(channel, Perm.ADD_REACTIONS | Perm.READ_MESSAGE_HISTORY, "react")
            users.add(self.bot_user.id)
            self._say(channel.label, f"{self.bot_user.name} reacted {name} to #{msg.number}")
        else:
            users.discard(self.bot_user.id)
        return web.Response(status=204)

    # --- message model -------------------------------------------------------------------------------------------
    def _attachments(
        self,
        channel: FakeChannel,
        data: dict[str, Any],
        files: list[UploadedFile],
        existing: list[FakeAttachment],
    ) -> tuple[list[FakeAttachment], list[limits.Problem]]:
        """The attachments a create/edit body asks for: kept ones by id, new ones by upload index."""
        uploads = {f.index: f for f in files}
        entries = data.get("attachments")
        if entries is None:
            return list(existing) + [self._new_attachment(channel, f, None) for f in files], []
        result: list[FakeAttachment] = []
        problems: list[limits.Problem] = []
        for i, entry in enumerate(entries):
            try:
                attachment_id = int(entry.get("id"))
            except (TypeError, ValueError):
                problems.append((f"attachments.{i}.id", "Must be a snowflake or an upload index."))
                continue
            kept = next((a for a in existing if a.id == attachment_id), None)
            if kept is not None:
                result.append(kept)
                continue
            upload = uploads.pop(attachment_id, None)
            if upload is None:
                problems.append((f"attachments.{i}.id", f"Unknown attachment or upload {attachment_id}."))
                continue
            attachment = self._new_attachment(channel, upload, entry.get("description"))
            attachment.filename = entry.get("filename") or upload.filename
            result.append(attachment)
        result += [self._new_attachment(channel, f, None) for f in uploads.values()]
        return result, problems

    def _new_attachment(self, channel: FakeChannel, upload: UploadedFile, description: str | None) -> FakeAttachment:
        attachment_id = self._ids()
        return FakeAttachment(
            id=attachment_id,
            filename=upload.filename,
            data=upload.data,
            content_type=upload.content_type,
            url=f"{self.base_url}/attachments/{channel.id}/{attachment_id}/{upload.filename}",
            description=description,
        )

    def _new_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        data: dict[str, Any],
        attachments: list[FakeAttachment],
        *,
        interaction: FakeInteraction | None = None,
        kind: int = 0,
    ) -> FakeMessage:
        self._message_numbers += 1
        keep = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS | MessageFlag.IS_COMPONENTS_V2
        msg = FakeMessage(
            id=self._ids(),
            channel=channel,
            author=author,
            content=data.get("content") or "",
            embeds=data.get("embeds") or [],
            attachments=attachments,
            components=data.get("components") or [],
            flags=(data.get("flags") or 0) & keep,
            type=kind,
            interaction=interaction,
            webhook_id=self.application_id if interaction is not None else None,
            number=self._message_numbers,
        )
        self.messages.append(msg)
        self._messages_by_id[msg.id] = msg
        return msg

    async def _announce(self, msg: FakeMessage) -> None:
        """Transcript line and MESSAGE_CREATE for a new message (none for ephemeral ones)."""
        self._say(msg.channel.label, self.describe(msg))
        if msg.visible_to is None:
            payload = msg.payload(guild_id=msg.channel.guild_id)
            if msg.channel.guild_id:
                payload["member"] = self.member_payload(msg.author, msg.channel.guild_id, with_user=False)
            await self.dispatch("MESSAGE_CREATE", payload)
        self._notify()

    async def _edit(
        self, rec: RecordedRequest, msg: FakeMessage, *, interaction: FakeInteraction | None, data: Any = None
    ) -> dict[str, Any]:
        """Validate and apply an edit body to `msg`; returns the message payload."""
        data = rec.json if data is None else data
        data = data if isinstance(data, dict) else {}
        problems = limits.validate_message(data, rec.files, creating=False, interaction=interaction is not None)
        attachments, attachment_problems = self._attachments(msg.channel, data, rec.files, msg.attachments)
        problems += attachment_problems
        if interaction is None and rec.files and not msg.channel.is_dm:
            self._require(msg.channel, Perm.ATTACH_FILES, "attach files")
        if problems:
            raise invalid_body(problems, f"edit of message #{msg.number}", interaction)
        self._apply_edit(msg, data, attachments)
        if msg.visible_to is None:
            await self.dispatch("MESSAGE_UPDATE", msg.payload(guild_id=msg.channel.guild_id))
        self._notify()
        return msg.payload(guild_id=msg.channel.guild_id)

    def _apply_edit(self, msg: FakeMessage, data: dict[str, Any], attachments: list[FakeAttachment]) -> None:
        was_loading = msg.loading
        if not was_loading:
            msg.history.append(msg.snapshot())
        if "content" in data:
            msg.content = data["content"] or ""
        if "embeds" in data:
            msg.embeds = data["embeds"] or []
        if "components" in data:
            msg.components = data["components"] or []
        if data.get("flags") is not None:
            toggled = MessageFlag.SUPPRESS_EMBEDS
            msg.flags = (msg.flags & ~toggled) | (data["flags"] & (toggled | MessageFlag.IS_COMPONENTS_V2))
        msg.attachments = attachments
        msg.flags &= ~MessageFlag.LOADING
        if was_loading:
            self._say(msg.channel.label, self.describe(msg))
        else:
            msg.edited_at = time.time()
            self._say(msg.channel.label, f"(edited) {self.describe(msg)}")

    async def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._say(msg.channel.label, f"{self.bot_user.name} deleted message #{msg.number}")
        if msg.visible_to is None:
            payload = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.channel.guild_id:
                payload["guild_id"] = str(msg.channel.guild_id)
            await self.dispatch("MESSAGE_DELETE", payload)
        self._notify()

    # --- interactions: the bot's answers --------------------------------------------------------------------------
    ALLOWED_CALLBACKS: ClassVar[dict[int, tuple[int, ...]]] = {
        InteractionType.APPLICATION_COMMAND: (4, 5, 9, LAUNCH_ACTIVITY),
        InteractionType.MESSAGE_COMPONENT: (4, 5, 6, 7, 9, LAUNCH_ACTIVITY),
        InteractionType.AUTOCOMPLETE: (8,),
        InteractionType.MODAL_SUBMIT: (4, 5, 6, 7, LAUNCH_ACTIVITY),
    }

    async def _callback(self, rec: RecordedRequest, iid: str, token: str) -> web.Response:
        it = self.interactions.get(int(iid))
        if it is None or it.token != token:
            raise Rejected(404, 10062, "Unknown interaction", violation="unknown interaction")
        it.callback_attempts += 1
        try:
            return await self._answer(rec, it)
        finally:
            it.answered.set()
            self._notify()

    async def _answer(self, rec: RecordedRequest, it: FakeInteraction) -> web.Response:
        loop = asyncio.get_running_loop()
        body = rec.json if isinstance(rec.json, dict) else {}
        kind, data = body.get("type"), body.get("data") or {}
        if it.callback_type is not None:
            raise Rejected(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation="double response",
                detail=f"second initial response to {it.summary} by {it.user.name} (use a follow-up or edit)",
                interaction=it,
            )
        # After an injected fault, the bot's first attempt counts: the retries' delay is Discord's doing.
        elapsed = (it.faulted_at if it.faulted_at is not None else loop.time()) - it.dispatched_at
        if elapsed > RESPONSE_DEADLINE:
            raise Rejected(
                404,
                10062,
                "Unknown interaction",
                violation="late response",
                detail=f"initial response to {it.summary} after {elapsed:.2f} s (limit {RESPONSE_DEADLINE:.0f} s)",
                interaction=it,
            )
        allowed = self.ALLOWED_CALLBACKS.get(it.type, ())
        if it.type == InteractionType.MODAL_SUBMIT and it.message is None:
            allowed = (4, 5, LAUNCH_ACTIVITY)  # a modal opened by a slash command has no message to update
        if kind not in allowed:
            raise invalid_body(
                [("type", f"Callback type {kind} is not valid for a {it.kind} interaction (valid: {allowed}).")],
                f"bad response type to {it.summary}",
                it,
                kind="bad response",
            )
        if kind == Callback.AUTOCOMPLETE_RESULT:
            problems = limits.validate_autocomplete(data)
            if problems:
                raise invalid_body(problems, f"autocomplete choices for {it.summary}", it)
            it.callback_type = kind
            it.choices = list(data.get("choices") or [])
            offered = ", ".join(str(c.get("name")) for c in it.choices) or "nothing"
            self._say(it.channel.label, f"{self.bot_user.name} offered {it.user.name}: {offered}")
            return self._callback_response(it, kind, None)
        if kind == Callback.MODAL:
            problems = limits.validate_modal(data)
            if problems:
                raise invalid_body(problems, f"modal for {it.summary}", it)
            it.callback_type = kind
            it.modal = data
            fields = [self._modal_field_name(c) for c in data.get("components") or []]
            self._say(
                it.channel.label,
                f"{self.bot_user.name} opened modal {data.get('title')!r} for {it.user.name}: {', '.join(f for f in fields if f)}",
            )
            return self._callback_response(it, kind, None)
        if kind == LAUNCH_ACTIVITY:
            instance = self.activities.launch(it)
            it.callback_type = kind
            return self._callback_response(it, kind, None, activity_instance=instance)
        if kind == Callback.DEFERRED_UPDATE_MESSAGE:
            it.callback_type = kind
            it.original = it.message
            self._say(it.channel.label, f"{self.bot_user.name} acknowledged {it.user.name} (deferred update)")
            return self._callback_response(it, kind, None)
        if kind == Callback.UPDATE_MESSAGE:
            msg = it.message
            assert msg is not None
            payload = await self._edit(rec, msg, interaction=it, data=data)
            it.callback_type = kind
            it.original = msg
            return self._callback_response(it, kind, msg, payload)
        # 4 (message) or 5 (thinking): a new message answering the interaction
        flags = data.get("flags") or 0
        if kind == Callback.DEFERRED_CHANNEL_MESSAGE:
            if flags & ~MessageFlag.EPHEMERAL:
                raise invalid_body([("data.flags", "Only the ephemeral flag can be set when deferring.")], "defer", it)
            data = {}
            attachments: list[FakeAttachment] = []
        else:
            problems = limits.validate_message(data, rec.files, creating=True, interaction=True, path="data")
            attachments, attachment_problems = self._attachments(it.channel, data, rec.files, [])
            if problems or attachment_problems:
                raise invalid_body(problems + attachment_problems, f"response to {it.summary}", it)
        msg = self._new_message(
            it.channel,
            self.bot_user,
            data,
            attachments,
            interaction=it,
            kind=20 if it.type == InteractionType.APPLICATION_COMMAND else 0,
        )
        if flags & MessageFlag.EPHEMERAL:
            msg.flags |= MessageFlag.EPHEMERAL
            msg.visible_to = it.user
            it.defer_ephemeral = True
        if kind == Callback.DEFERRED_CHANNEL_MESSAGE:
            msg.flags |= MessageFlag.LOADING
        it.callback_type = kind
        it.original = msg
        await self._announce(msg)
        return self._callback_response(it, kind, msg)

    @staticmethod
    def _modal_field_name(component: dict[str, Any]) -> str:
        if component.get("type") == 18:
            return str(component.get("label"))
        inner = (component.get("components") or [{}])[0]
        return str(inner.get("label") or inner.get("custom_id") or "")

    def _callback_response(
        self,
        it: FakeInteraction,
        kind: int,
        msg: FakeMessage | None,
        payload: dict[str, Any] | None = None,
        *,
        activity_instance: dict[str, Any] | None = None,
    ) -> web.Response:
        interaction: dict[str, Any] = {"id": str(it.id), "type": it.type}
        resource: dict[str, Any] = {"type": kind}
        if activity_instance is not None:  # LAUNCH_ACTIVITY
            interaction["activity_instance_id"] = activity_instance["id"]
            resource["activity_instance"] = activity_instance
        if msg is not None:
            interaction["response_message_id"] = str(msg.id)
            interaction["response_message_loading"] = msg.loading
            interaction["response_message_ephemeral"] = msg.ephemeral
            resource["message"] = payload or msg.payload(guild_id=msg.channel.guild_id)
        return json_response({"interaction": interaction, "resource": resource})

    def _interaction_for_token(self, app: str, token: str, rec: RecordedRequest) -> FakeInteraction:
        self._check_app(app)
        it = self._interactions_by_token.get(token)
        if it is None:
            raise Rejected(
                404, 10015, "Unknown Webhook", violation="unknown webhook", detail="no interaction has this token"
            )
        age = asyncio.get_running_loop().time() - it.dispatched_at + it.aged
        if age > self.interaction_token_lifetime:
            status, code, message = self.expired_token_answer
            self._say(it.channel.label, f"(the token of {it.summary} expired {age:.0f} s after it was sent)")
            raise Rejected(status, code, message)
        if it.callback_type is None:
            raise Rejected(
                404,
                10015,
                "Unknown Webhook",
                violation="not acknowledged",
                detail=f"{rec.method} on the webhook of {it.summary} before any initial response",
                interaction=it,
            )
        return it

    async def _followup(self, rec: RecordedRequest, app: str, token: str) -> web.Response:
        it = self._interaction_for_token(app, token, rec)
        if it.callback_type in (Callback.AUTOCOMPLETE_RESULT,):
            raise Rejected(
                400, 40060, "Interaction has already been acknowledged.", violation="bad follow-up", interaction=it
            )
        data = rec.json if isinstance(rec.json, dict) else {}
        problems = limits.validate_message(data, rec.files, creating=True, interaction=True)
        original = it.original
        if original is not None and original.loading and original.interaction is it:
            # The first follow-up after "thinking" replaces the loading message; the defer decided ephemerality.
            attachments, attachment_problems = self._attachments(it.channel, data, rec.files, [])
            if problems or attachment_problems:
                raise invalid_body(problems + attachment_problems, f"follow-up to {it.summary}", it)
            self._apply_edit(original, {k: v for k, v in data.items() if k != "flags"}, attachments)
            it.followups.append(original)
            if original.visible_to is None:
                await self.dispatch("MESSAGE_UPDATE", original.payload(guild_id=original.channel.guild_id))
            self._notify()
            return self._wait_answer(rec, original)
        attachments, attachment_problems = self._attachments(it.channel, data, rec.files, [])
        if problems or attachment_problems:
            raise invalid_body(problems + attachment_problems, f"follow-up to {it.summary}", it)
        msg = self._new_message(it.channel, self.bot_user, data, attachments, interaction=it)
        if (data.get("flags") or 0) & MessageFlag.EPHEMERAL:
            msg.flags |= MessageFlag.EPHEMERAL
            msg.visible_to = it.user
        it.followups.append(msg)
        await self._announce(msg)
        return self._wait_answer(rec, msg)

    @staticmethod
    def _wait_answer(rec: RecordedRequest, msg: FakeMessage) -> web.Response:
        if rec.query.get("wait") in ("1", "true", "True"):
            return json_response(msg.payload(guild_id=msg.channel.guild_id))
        return web.Response(status=204)

    async def _webhook_message(self, rec: RecordedRequest, app: str, token: str, mid: str) -> web.Response:
        it = self._interaction_for_token(app, token, rec)
        if mid == "@original":
            msg = it.original
            if msg is None:
                raise Rejected(
                    404,
                    10008,
                    "Unknown Message",
                    violation="no original",
                    detail=f"{rec.method} @original of {it.summary}, which has no message (response: "
                    f"{Callback.NAMES.get(it.callback_type or 0)})",
                    interaction=it,
                )
        else:
            msg = next((m for m in it.followups if m.id == int(mid)), None)
            if msg is None and it.original is not None and it.original.id == int(mid):
                msg = it.original
            if msg is None:
                raise Rejected(404, 10008, "Unknown Message", violation="unknown message", interaction=it)
        if msg.deleted:
            raise Rejected(404, 10008, "Unknown Message")
        if rec.method == "GET":
            return json_response(msg.payload(guild_id=msg.channel.guild_id))
        if rec.method == "DELETE":
            await self._delete(msg)
            return web.Response(status=204)
        return json_response(await self._edit(rec, msg, interaction=it))

    # --- interactions: sending them ---------------------------------------------------------------------------------
    def _new_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        summary: str,
        *,
        message: FakeMessage | None = None,
        source: FakeInteraction | None = None,
    ) -> FakeInteraction:
        it = FakeInteraction(
            id=self._ids(),
            token=secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel=channel,
            summary=summary,
            data=data,
            message=message,
            source=source,
        )
        self.interactions[it.id] = it
        self._interactions_by_token[it.token] = it
        return it

    def age_interaction(self, which: Any, seconds: float) -> FakeInteraction:
        """Make an interaction (a Reply, FakeInteraction or id) `seconds` older for its token's lifetime (15 min):
        its webhook then answers like Discord does for expired tokens (`expired_token_answer`)."""
        it = getattr(which, "interaction", which)
        it = it if isinstance(it, FakeInteraction) else self.interactions[int(it)]
        it.aged += seconds
        return it

    def interaction_payload(self, it: FakeInteraction, *, permissions: int | None = None) -> dict[str, Any]:
        channel = it.channel
        perms = self.permissions_for(it.user, channel) if permissions is None else permissions
        payload: dict[str, Any] = {
            "id": str(it.id),
            "application_id": str(self.application_id),
            "type": it.type,
            "data": it.data,
            "token": it.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": {**channel.payload(message_count=self._count_messages(channel)), "permissions": str(perms)},
            "app_permissions": str(self.permissions_for(self.bot_user, channel)),
            "locale": it.user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": MAX_FILE_SIZE,
        }
        if channel.is_dm:
            payload.update(user=it.user.payload(), context=1, authorizing_integration_owners={"0": "0"})
        else:
            guild_id = str(channel.guild_id)
            guild_locale = self.guild_of(channel).locale
            payload.update(
                guild_id=guild_id,
                guild={"id": guild_id, "locale": guild_locale, "features": []},
                guild_locale=guild_locale,
                member=self.member_payload(it.user, self.guild_of(channel).id, permissions=perms),
                context=0,
                authorizing_integration_owners={"0": guild_id},
            )
        if it.message is not None:
            payload["message"] = it.message.payload(guild_id=channel.guild_id)
        return payload

    async def send_interaction(self, it: FakeInteraction, *, permissions: int | None = None) -> None:
        """Dispatch INTERACTION_CREATE and wait for the bot's initial response (3 s, then a violation)."""
        if it.channel.deleted:
            raise ClientRefused(f"{it.channel.label} was deleted: nobody can use it any more")
        if not self._sessions_for(it.channel.guild_id):
            raise AssertionError(f"no bot is connected to the gateway to receive {it.summary}")
        payload = self.interaction_payload(it, permissions=permissions)
        self._say(it.channel.label, f"{it.user.name}: {it.summary}")
        it.dispatched_at = asyncio.get_running_loop().time()
        await self.dispatch("INTERACTION_CREATE", payload)
        self._notify()
        loop = asyncio.get_running_loop()
        # A little past the deadline, so that a late answer is reported as late rather than missing; longer when
        # an injected fault made discord.py retry.
        deadline = it.dispatched_at + RESPONSE_DEADLINE * 7 / 6
        while not it.answered.is_set():
            limit = deadline + (FAULT_RETRY_WAIT if it.faulted else 0.0)
            answered = asyncio.ensure_future(it.answered.wait())
            try:  # asyncio.wait: a cancellation is never swallowed (see wait_until)
                await asyncio.wait((answered,), timeout=max(0.0, min(limit, loop.time() + 0.05) - loop.time()))
            finally:
                answered.cancel()
            if loop.time() >= limit:
                break
        if not it.answered.is_set():
            self._violate(
                "no response",
                f"the bot did not answer {it.summary} by {it.user.name} within {RESPONSE_DEADLINE:.0f} s "
                "(the user sees 'The application did not respond')",
                interaction=it,
            )
