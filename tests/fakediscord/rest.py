"""The fake Discord's REST API of logging in, the gateway's address, the commands, and the guild, its users and
channels (threads included)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import limits
from .model import (
    ChannelType,
    FakeChannel,
    Perm,
)
from .wire import (
    EMBEDDED,
    ENTRY_POINT,
    RecordedRequest,
    Rejected,
    invalid_body,
    json_response,
)


class Rest:
    """The REST endpoints of login, commands, guilds, users and channels (`FakeDiscord` is made of this and its other parts)."""

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
