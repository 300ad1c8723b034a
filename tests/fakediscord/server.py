"""The fake Discord: REST API and gateway on 127.0.0.1, a model of a guild (or several), limits enforced.

`FakeDiscord` is started inside the test's event loop. While it runs, discord.py's `Route.BASE` and
`DiscordWebSocket.DEFAULT_GATEWAY` point at it, so an unmodified bot logs in, connects and answers
interactions against it. The drivers that act as people (slash commands, clicks, ...) are in `drivers.py`;
the faults it can inject are in `faults.py`. The gateway keeps sessions (RESUME replays what a shard missed) and
routes each guild's events to its shard."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from aiohttp import web

from .activity import Activities
from .drivers import Drivers
from .faults import FaultInjector
from .gateway import Gateway
from .interactions import Interactions
from .messages import Messages
from .model import (
    EVERYONE_PERMISSIONS,
    ChannelType,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    Perm,
    Snowflakes,
)
from .plumbing import Plumbing
from .rest import Rest
from .wire import (
    BOT_PERMISSIONS,
    GatewaySession,
    Handler,
    RecordedRequest,
    Violation,
)
from .world import World


class FakeDiscord(World, Gateway, Plumbing, Rest, Messages, Interactions, Drivers):
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
