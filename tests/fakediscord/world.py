"""The fake Discord's world: guilds, channels, roles and members, who may do what where, the messages people see,
and a transcript of them."""

from __future__ import annotations

from typing import Any

from .model import (
    ALL_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    ChannelType,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    Perm,
    describe_component,
)
from .wire import (
    BOT_PERMISSIONS,
    DM_PERMISSIONS,
)


class World:
    """The world of the fake Discord (`FakeDiscord` is made of this and its other parts)."""

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
