"""The fake Discord's interactions: the bot's answers (callbacks, follow-ups, the original message's edits, with
Discord's deadline and limits) and sending an interaction to the bot."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any, ClassVar

from aiohttp import web

from . import limits, wire
from .activity import LAUNCH_ACTIVITY
from .drivers import ClientRefused
from .model import (
    MAX_FILE_SIZE,
    Callback,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    InteractionType,
    MessageFlag,
)
from .wire import (
    FAULT_RETRY_WAIT,
    RecordedRequest,
    Rejected,
    invalid_body,
    json_response,
)


class Interactions:
    """Interactions (`FakeDiscord` is made of this and its other parts)."""

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
        if elapsed > wire.RESPONSE_DEADLINE:
            raise Rejected(
                404,
                10062,
                "Unknown interaction",
                violation="late response",
                detail=f"initial response to {it.summary} after {elapsed:.2f} s (limit {wire.RESPONSE_DEADLINE:.0f} s)",
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
        deadline = it.dispatched_at + wire.RESPONSE_DEADLINE * 7 / 6
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
                f"the bot did not answer {it.summary} by {it.user.name} within {wire.RESPONSE_DEADLINE:.0f} s "
                "(the user sees 'The application did not respond')",
                interaction=it,
            )
