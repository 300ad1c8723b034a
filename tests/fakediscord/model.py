"""What the fake Discord knows: users, roles, channels, messages, interactions, and their JSON payloads."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import time
from dataclasses import dataclass, field
from enum import IntFlag
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from PIL import Image

DISCORD_EPOCH_MS = 1420070400000
MAX_FILE_SIZE = 10 * 1024 * 1024  # 10 MiB: what an unboosted guild accepts


class Perm(IntFlag):
    """The permission bits the fake uses (the same values as Discord's)."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 51) - 1

# @everyone in a freshly created guild, roughly.
EVERYONE_PERMISSIONS = (
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CHANGE_NICKNAME
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)


class ChannelType:
    TEXT = 0
    DM = 1
    CATEGORY = 4
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    THREADS = (11, 12)


class MessageFlag:
    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class InteractionType:
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5
    NAMES: ClassVar[dict[int, str]] = {1: "ping", 2: "command", 3: "component", 4: "autocomplete", 5: "modal submit"}


class Callback:
    """Interaction callback (response) types."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9
    LAUNCH_ACTIVITY = 12
    NAMES: ClassVar[dict[int, str]] = {
        1: "pong",
        4: "message",
        5: "deferred message (thinking)",
        6: "deferred update",
        7: "update message",
        8: "autocomplete result",
        9: "modal",
        12: "launch activity",
    }


def iso(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).isoformat()


class Snowflakes:
    """Increasing snowflake ids whose timestamps are the current time, as Discord's are."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, now)
        return self._last


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int
    managed: bool = False
    guild_id: int = 0  # the guild the role belongs to (0: the fake's main guild)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeUser:
    """A user and (in the fake's single guild) their membership."""

    id: int
    name: str
    bot: bool = False
    role_ids: list[int] = field(default_factory=list)  # in every guild (each guild shows its own)
    joined_at: float = field(default_factory=time.time)
    dms_closed: bool = False  # the bot's messages to them fail with 50007 (`FakeDiscord.close_dms`)
    locale: str = "en-US"  # their client's language: each interaction's `locale`

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name.capitalize(),
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }

    def member_payload(
        self, *, with_user: bool = True, permissions: int | None = None, role_ids: list[int] | None = None
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in (self.role_ids if role_ids is None else role_ids)],
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def __str__(self) -> str:
        return self.name


@dataclass(eq=False)
class FakeGuild:
    """A guild: its @everyone role (same id as the guild), the bot's role, its owner and its channels by name."""

    id: int
    name: str
    owner: FakeUser
    everyone_role: FakeRole
    bot_role: FakeRole
    channels: dict[str, FakeChannel] = field(default_factory=dict)
    locale: str = "en-US"  # the server's language: each interaction's `guild_locale`

    def shard(self, shard_count: int) -> int:
        """The shard that receives this guild's events: `(guild_id >> 22) % shard_count`."""
        return (self.id >> 22) % shard_count


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int
    guild_id: int | None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    # Permission overwrites: {"id", "type" (0 role, 1 member), "allow", "deny"} with int allow/deny.
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    owner_id: int | None = None  # threads
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    created_at: float = field(default_factory=time.time)
    thread_member_ids: set[int] = field(default_factory=set)
    recipients: list[FakeUser] = field(default_factory=list)  # DMs
    deleted: bool = False
    guild_label: str = ""  # the guild's name in transcripts, for guilds other than the main one

    @property
    def is_thread(self) -> bool:
        return self.type in ChannelType.THREADS

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def label(self) -> str:
        if self.is_dm:
            return "DM with " + ", ".join(u.name for u in self.recipients)
        where = f"{self.guild_label} " if self.guild_label else ""
        return where + ("thread #" if self.is_thread else "#") + self.name

    def payload(self, *, permissions: int | None = None, message_count: int = 0) -> dict[str, Any]:
        if self.is_dm:
            return {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": None,
                "recipients": [u.payload() for u in self.recipients],
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "position": self.position,
            "flags": 0,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                member_count=len(self.thread_member_ids),
                message_count=message_count,
                total_message_sent=message_count,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.created_at),
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": iso(self.created_at),
                },
            )
        else:
            data.update(
                topic=self.topic,
                permission_overwrites=[
                    {"id": str(o["id"]), "type": o["type"], "allow": str(o["allow"]), "deny": str(o["deny"])}
                    for o in self.overwrites
                ],
            )
            if self.type == ChannelType.TEXT:
                data["default_auto_archive_duration"] = 1440
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class UploadedFile:
    """One `files[n]` part of a multipart request."""

    index: int
    filename: str
    content_type: str | None
    data: bytes


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def image(self) -> Image.Image:
        """Open the attachment with Pillow (fully loaded, so a corrupt file fails here)."""
        from PIL import Image

        image = Image.open(io.BytesIO(self.data))
        image.load()
        return image

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "description": self.description,
            "ephemeral": self.ephemeral,
        }
        return data


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord stores it. `visible_to` is the one user who sees an ephemeral message."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    deleted: bool = False
    visible_to: FakeUser | None = None
    interaction: FakeInteraction | None = None  # the interaction this message answers, if any
    webhook_id: int | None = None
    reference_id: int | None = None
    thread_id: int | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)  # earlier versions (content, embeds, ...)
    number: int = 0  # short name for transcripts: #1, #2, ... in the order the fake created them

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def edited(self) -> bool:
        return self.edited_at is not None

    def visible(self, viewer: FakeUser | None) -> bool:
        """Whether `viewer` (None: anyone looking at the channel) sees this message."""
        if self.deleted:
            return False
        return self.visible_to is None or self.visible_to is viewer

    # --- components ---------------------------------------------------------------------------------
    def walk_components(self) -> list[dict[str, Any]]:
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def button_labels(self) -> list[str]:
        return [b.get("label") or (b.get("emoji") or {}).get("name") or "" for b in self.buttons]

    def component(self, target: str, *, types: tuple[int, ...] = (2, 3, 5, 6, 7, 8)) -> dict[str, Any]:
        """The component whose custom_id, label or placeholder is `target` (exact custom_id wins)."""
        candidates = [c for c in self.walk_components() if c.get("type") in types]
        exact = [c for c in candidates if c.get("custom_id") == target]
        if exact:
            return exact[0]
        named = [
            c
            for c in candidates
            if target in (c.get("label"), c.get("placeholder"), (c.get("emoji") or {}).get("name"))
        ]
        if len(named) == 1:
            return named[0]
        available = ", ".join(describe_component(c) for c in candidates) or "none"
        if not named:
            raise AssertionError(f"message #{self.number} has no component {target!r}; it has: {available}")
        raise AssertionError(f"message #{self.number}: {target!r} is ambiguous among: {available}")

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions and fields, plus components-v2 text: all text a user reads."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        parts += [c.get("content", "") for c in self.walk_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "attachments": [a.filename for a in self.attachments],
            "components": self.components,
            "flags": self.flags,
            "at": self.edited_at or self.created_at,
        }

    def payload(self, *, guild_id: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "reactions": [
                {"emoji": {"id": None, "name": name}, "count": len(users), "me": False, "burst_count": 0}
                for name, users in self.reactions.items()
                if users
            ],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            it = self.interaction
            data["interaction_metadata"] = {
                "id": str(it.id),
                "type": it.type,
                "user": it.user.payload(),
                "authorizing_integration_owners": {"0": str(guild_id)} if guild_id else {"1": str(it.user.id)},
            }
            if it.message is not None:
                data["interaction_metadata"]["interacted_message_id"] = str(it.message.id)
        if self.reference_id is not None:
            data["message_reference"] = {
                "type": 0,
                "message_id": str(self.reference_id),
                "channel_id": str(self.channel.id),
            }
        return data


@dataclass(eq=False)
class FakeInteraction:
    """One interaction the fake sent to the bot, and what the bot answered."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    summary: str  # e.g. "/game new players:3", for transcripts and errors
    data: dict[str, Any]
    message: FakeMessage | None = None  # the message a component was on (components, modals from components)
    source: FakeInteraction | None = None  # the interaction that opened this modal
    dispatched_at: float = 0.0  # loop time
    callback_type: int | None = None
    callback_attempts: int = 0
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    defer_ephemeral: bool = False
    answered: asyncio.Event = field(default_factory=asyncio.Event)  # set by the first callback attempt
    faulted_at: float | None = None  # loop time of the first request about it that met an injected fault
    aged: float = 0.0  # seconds a test aged its token by (`FakeDiscord.age_interaction`)
    violations: list[Any] = field(default_factory=list)  # what Discord rejected about the bot's answers

    @property
    def kind(self) -> str:
        return InteractionType.NAMES.get(self.type, str(self.type))

    @property
    def faulted(self) -> bool:
        """Whether an injected fault hit a request about this interaction (its lateness is not the bot's)."""
        return self.faulted_at is not None


def walk_components(components: list[dict[str, Any]]) -> Any:
    """Every component, depth first, including action rows, containers, sections and their accessories."""
    for component in components or []:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            inner = component.get(key)
            if isinstance(inner, dict):
                yield from walk_components([inner])


BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}


def describe_component(c: dict[str, Any]) -> str:
    kind = c.get("type")
    if kind == 2:
        label = c.get("label") or (c.get("emoji") or {}).get("name") or "?"
        extra = c.get("url") if c.get("style") == 5 else c.get("custom_id")
        disabled = ", disabled" if c.get("disabled") else ""
        return f"[{label}] ({extra}{disabled})"
    if kind in (3, 5, 6, 7, 8):
        name = {3: "select", 5: "user select", 6: "role select", 7: "mentionable select", 8: "channel select"}[kind]
        options = "|".join(o.get("label", "?") for o in c.get("options") or [])
        placeholder = c.get("placeholder") or ""
        shown = f" {placeholder!r}" if placeholder else ""
        return (
            f"[{name}{shown}: {options}] ({c.get('custom_id')})"
            if options
            else f"[{name}{shown}] ({c.get('custom_id')})"
        )
    return f"[component type {kind}]"
