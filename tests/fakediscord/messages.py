"""The fake Discord's channel messages: the REST endpoints that read, send, edit, delete and react, and the model of a
message (its attachments, edits and announcement to the gateway)."""

from __future__ import annotations

import time
from typing import Any

import yarl
from aiohttp import web

from . import limits
from .model import (
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    MessageFlag,
    Perm,
    UploadedFile,
)
from .wire import (
    RecordedRequest,
    Rejected,
    invalid_body,
    json_response,
)


class Messages:
    """Channel messages (`FakeDiscord` is made of this and its other parts)."""

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
