"""People using the bot: slash commands, autocomplete, buttons, selects and modals, as Discord's client sends them.

The drivers refuse (with `ClientRefused`) what Discord's client would not let a person do: a missing required
option, a value outside a declared range, a command hidden by its default permissions, a click on a message
the person cannot see or on a disabled button. Pass `client_checks=False` to send such input anyway.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .model import (
    Callback,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionType,
    Perm,
    UploadedFile,
    describe_component,
)

if TYPE_CHECKING:
    from .server import FakeDiscord
    from .wire import Violation

PATIENCE = 60.0  # an upper bound only: a passing test never waits it out; a loaded CI machine can be slow
"""Seconds the fake waits for a condition (an answer, a request, a quiet bot) before failing the test: a safety net,
never a clock a test relies on (a passing wait returns as soon as its condition holds), so it is generous: a busy
machine (parallel test workers, other jobs) must not fail a correct bot."""

UserRef = FakeUser | str | int
ChannelRef = FakeChannel | str | int


class ClientRefused(AssertionError):
    """Discord's client would not send this interaction (the test asked for something a person cannot do)."""


class Reply:
    """The bot's answer to one interaction: its initial response, the message it created or updated, follow-ups."""

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction

    def __repr__(self) -> str:
        kind = Callback.NAMES.get(self.response_type or 0, "no response")
        return f"<Reply to {self.interaction.user.name}'s {self.interaction.summary}: {kind}>"

    @property
    def response_type(self) -> int | None:
        """The callback type the bot answered with (4 message, 5 thinking, 6/7 update, 8 choices, 9 modal)."""
        return self.interaction.callback_type

    @property
    def violations(self) -> list[Violation]:
        """What Discord rejected about the bot's answers to this interaction (kept after `take_violations`)."""
        return list(self.interaction.violations)

    def _fail(self, wanted: str) -> AssertionError:
        it = self.interaction
        got = Callback.NAMES.get(it.callback_type or 0, "no accepted response")
        why = "".join(f"\n  {v}" for v in self.violations)
        return AssertionError(f"wanted {wanted} from the bot for {it.summary} by {it.user.name}, got {got}{why}")

    @property
    def message(self) -> FakeMessage:
        """The message the response shows: the new reply (4, 5) or the updated message (6, 7)."""
        if self.interaction.original is None:
            raise self._fail("a message")
        return self.interaction.original

    @property
    def content(self) -> str:
        return self.message.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds

    @property
    def attachments(self) -> list[FakeAttachment]:
        return self.message.attachments

    @property
    def ephemeral(self) -> bool:
        return self.message.ephemeral

    @property
    def followups(self) -> list[FakeMessage]:
        """Messages sent through the interaction webhook (the first after 'thinking' is also `message`)."""
        return list(self.interaction.followups)

    @property
    def messages(self) -> list[FakeMessage]:
        """Every message this interaction produced: the reply (if new) and the follow-ups."""
        out: list[FakeMessage] = []
        original = self.interaction.original
        if original is not None and original.interaction is self.interaction:
            out.append(original)
        out += [m for m in self.interaction.followups if m not in out]
        return out

    @property
    def choices(self) -> list[dict[str, Any]]:
        if self.interaction.choices is None:
            raise self._fail("autocomplete choices")
        return self.interaction.choices

    @property
    def modal(self) -> dict[str, Any]:
        if self.interaction.modal is None:
            raise self._fail("a modal")
        return self.interaction.modal

    async def wait_message(self, *, timeout: float = PATIENCE) -> FakeMessage:
        """The response message once it is no longer 'thinking' (after a defer: the edit or first follow-up)."""

        def ready() -> FakeMessage | None:
            original = self.interaction.original
            return original if original is not None and not original.loading else None

        return await self.fake.wait_until(ready, timeout=timeout, what=f"the answer to {self.interaction.summary}")

    async def wait_followups(self, count: int = 1, *, timeout: float = PATIENCE) -> list[FakeMessage]:
        await self.fake.wait_until(
            lambda: len(self.interaction.followups) >= count,
            timeout=timeout,
            what=f"{count} follow-up(s) to {self.interaction.summary}",
        )
        return self.followups


class Drivers:
    """Mixed into FakeDiscord: act as people."""

    async def slash(
        self: FakeDiscord,
        user: UserRef,
        channel: ChannelRef,
        *names: str,
        options: Mapping[str, Any] | None = None,
        permissions: int | None = None,
        client_checks: bool = True,
    ) -> Reply:
        """Run `/names... options` as `user` in `channel`; returns once the bot sent its initial response.

        Option values: str/int/float/bool; a user, channel or role (object or name) for those types; a
        `(filename, bytes)` pair for an attachment option. `permissions` overrides the user's permissions.
        """
        who, where = self.user(user), self.channel(channel)
        command, chain, leaf = self.find_command(where, names)
        resolved: dict[str, dict[str, Any]] = {}
        perms = self.permissions_for(who, where) if permissions is None else permissions
        if client_checks:
            self._check_command_permission(who, command, perms)
        values = self._option_values(leaf, dict(options or {}), who, where, resolved, client_checks, focused=None)
        data = self._command_data(command, chain, values, resolved)
        shown = " ".join(f"{o['name']}:{show_value(o)}" for o in values)
        summary = "/" + " ".join(names) + (f" {shown}" if shown else "")
        it = self._new_interaction(InteractionType.APPLICATION_COMMAND, who, where, data, summary)
        await self.send_interaction(it, permissions=permissions)
        return Reply(self, it)

    async def autocomplete(
        self: FakeDiscord,
        user: UserRef,
        channel: ChannelRef,
        *names: str,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        permissions: int | None = None,
    ) -> list[dict[str, Any]]:
        """Type `value` into option `focused` of `/names...`; returns the choices the bot offered."""
        who, where = self.user(user), self.channel(channel)
        command, chain, leaf = self.find_command(where, names)
        definition = next((o for o in leaf.get("options") or [] if o["name"] == focused), None)
        if definition is None or not definition.get("autocomplete"):
            raise ClientRefused(f"option {focused!r} of /{' '.join(names)} does not autocomplete")
        given = {**(options or {}), focused: value}
        resolved: dict[str, dict[str, Any]] = {}
        values = self._option_values(leaf, given, who, where, resolved, False, focused=focused)
        data = self._command_data(command, chain, values, resolved)
        summary = f"/{' '.join(names)} (typing {focused}: {value!r})"
        it = self._new_interaction(InteractionType.AUTOCOMPLETE, who, where, data, summary)
        await self.send_interaction(it, permissions=permissions)
        return Reply(self, it).choices

    async def click(
        self: FakeDiscord,
        user: UserRef,
        message: FakeMessage | int,
        target: str,
        *,
        permissions: int | None = None,
        client_checks: bool = True,
    ) -> Reply:
        """Click the button whose custom_id or label is `target` on `message` (any stored message).

        With `client_checks=False`, `target` may be the custom_id of a button the message no longer has: a client
        still showing it (the person clicked as the bot took it off). Discord sends that click all the same, with the
        message as it is now, without the button."""
        who, msg = self.user(user), self.message(message)
        self._check_can_see(who, msg)
        try:
            button = msg.component(target, types=(2,))
        except AssertionError:
            names = ("custom_id", "label", "placeholder")
            if client_checks or any(target in (c.get(k) for k in names) for c in msg.walk_components()):
                raise  # not a button that was taken off: a wrong or ambiguous name
            button = {"type": 2, "custom_id": target}
        if button.get("style") == 5:
            raise ClientRefused(f"{describe_component(button)} is a link: clicking it sends nothing to the bot")
        if client_checks and button.get("disabled"):
            raise ClientRefused(f"{describe_component(button)} on message #{msg.number} is disabled")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        label = button.get("label") or (button.get("emoji") or {}).get("name") or button["custom_id"]
        it = self._new_interaction(
            InteractionType.MESSAGE_COMPONENT, who, msg.channel, data, f"clicks [{label}] on #{msg.number}", message=msg
        )
        await self.send_interaction(it, permissions=permissions)
        return Reply(self, it)

    async def select(
        self: FakeDiscord,
        user: UserRef,
        message: FakeMessage | int,
        target: str | None,
        values: Sequence[Any],
        *,
        permissions: int | None = None,
        client_checks: bool = True,
    ) -> Reply:
        """Choose `values` in the select whose custom_id or placeholder is `target` (None: the only select).

        String selects take option values or labels; user/role/channel selects take those objects or names.
        """
        who, msg = self.user(user), self.message(message)
        self._check_can_see(who, msg)
        if target is None:
            selects = msg.selects
            if len(selects) != 1:
                raise AssertionError(f"message #{msg.number} has {len(selects)} selects; name one")
            select = selects[0]
        else:
            select = msg.component(target, types=(3, 5, 6, 7, 8))
        kind = select["type"]
        if client_checks:
            if select.get("disabled"):
                raise ClientRefused(f"{describe_component(select)} is disabled")
            low, high = select.get("min_values", 1), select.get("max_values", 1)
            if not low <= len(values) <= high:
                raise ClientRefused(f"{describe_component(select)} takes {low} to {high} values, not {len(values)}")
        data: dict[str, Any] = {"custom_id": select["custom_id"], "component_type": kind}
        if kind == 3:
            chosen = []
            for value in values:
                option = next(
                    (o for o in select.get("options") or [] if value in (o.get("value"), o.get("label"))), None
                )
                if option is None and client_checks:
                    raise ClientRefused(f"{describe_component(select)} has no option {value!r}")
                chosen.append(option["value"] if option else str(value))  # a stale client may send an old value
            data["values"] = chosen
            shown = ", ".join(chosen)
        else:
            resolved: dict[str, dict[str, Any]] = {}
            option_type = {5: 6, 6: 8, 7: 9, 8: 7}[kind]
            data["values"] = [
                self._convert({"name": "value", "type": option_type}, v, who, msg.channel, resolved, client_checks)
                for v in values
            ]
            data["resolved"] = resolved
            shown = ", ".join(str(getattr(v, "name", v)) for v in values)
        what = select.get("placeholder") or select["custom_id"]
        it = self._new_interaction(
            InteractionType.MESSAGE_COMPONENT,
            who,
            msg.channel,
            data,
            f"chooses {shown} in [{what}] on #{msg.number}",
            message=msg,
        )
        await self.send_interaction(it, permissions=permissions)
        return Reply(self, it)

    async def submit_modal(
        self: FakeDiscord,
        user: UserRef,
        opened: Reply,
        values: Mapping[str, Any] | None = None,
        *,
        permissions: int | None = None,
        client_checks: bool = True,
    ) -> Reply:
        """Fill in and submit the modal the bot opened in `opened`; `values` keyed by custom_id or label."""
        who = self.user(user)
        source = opened.interaction
        modal = opened.modal
        if who is not source.user:
            raise ClientRefused(f"only {source.user.name} sees the modal {modal.get('title')!r}")
        remaining = dict(values or {})
        components: list[dict[str, Any]] = []
        for component in modal.get("components") or []:
            if component.get("type") == 1:
                inner = component["components"][0]
                answer = modal_answer(inner, inner.get("label"), remaining, client_checks)
                components.append({"type": 1, "components": [answer]})
            elif component.get("type") == 18:
                answer = modal_answer(component["component"], component.get("label"), remaining, client_checks)
                components.append({"type": 18, "component": answer})
        if remaining:
            raise AssertionError(f"modal {modal.get('title')!r} has no field {', '.join(map(repr, remaining))}")
        data = {"custom_id": modal["custom_id"], "components": components}
        filled = ", ".join(
            f"{(c.get('component') or c.get('components', [{}])[0]).get('custom_id')}="
            f"{(c.get('component') or c.get('components', [{}])[0]).get('value', '')!r}"
            for c in components
        )
        it = self._new_interaction(
            InteractionType.MODAL_SUBMIT,
            who,
            source.channel,
            data,
            f"submits {modal.get('title')!r}: {filled}",
            message=source.message,
            source=source,
        )
        await self.send_interaction(it, permissions=permissions)
        return Reply(self, it)

    # --- helpers ---------------------------------------------------------------------------------------------
    def find_command(
        self: FakeDiscord, channel: FakeChannel, names: Sequence[str]
    ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        """The synced command for `names` (guild commands first), its group/subcommand chain, and the leaf."""
        if not names:
            raise ValueError("name the command")
        available = ([] if channel.is_dm else self.commands_for(channel.guild_id)) + self.global_commands
        command = next((c for c in available if c.get("type", 1) == 1 and c["name"] == names[0]), None)
        if command is None:
            synced = ", ".join("/" + c["name"] for c in available) or "none (did the bot sync its commands?)"
            raise ClientRefused(f"no slash command /{names[0]} was synced; synced: {synced}")
        node, chain = command, []
        for name in names[1:]:
            sub = next((o for o in node.get("options") or [] if o.get("type") in (1, 2) and o["name"] == name), None)
            if sub is None:
                raise ClientRefused(f"/{' '.join(names)}: no subcommand {name!r}")
            chain.append(sub)
            node = sub
        subs = [o["name"] for o in node.get("options") or [] if o.get("type") in (1, 2)]
        if subs:
            raise ClientRefused(f"/{' '.join(names)} needs a subcommand: {', '.join(subs)}")
        return command, chain, node

    def _command_data(
        self: FakeDiscord,
        command: dict[str, Any],
        chain: list[dict[str, Any]],
        values: list[dict[str, Any]],
        resolved: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        options = values
        for sub in reversed(chain):
            options = [{"name": sub["name"], "type": sub["type"], "options": options}]
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _check_command_permission(self: FakeDiscord, user: FakeUser, command: dict[str, Any], perms: int) -> None:
        needed = command.get("default_member_permissions")
        if needed is None or perms & Perm.ADMINISTRATOR:
            return
        needed = int(needed)
        if needed == 0 or perms & needed != needed:
            missing = ", ".join(p.name or "" for p in Perm if p & needed & ~perms) or "administrator"
            raise ClientRefused(f"{user.name} cannot see /{command['name']}: it needs {missing}")

    def _check_can_see(self: FakeDiscord, user: FakeUser, msg: FakeMessage) -> None:
        if not msg.visible(user):
            state = "deleted" if msg.deleted else f"only visible to {msg.visible_to.name if msg.visible_to else '?'}"
            raise ClientRefused(f"{user.name} cannot see message #{msg.number} ({state})")
        if not msg.channel.is_dm and not self.permissions_for(user, msg.channel) & Perm.VIEW_CHANNEL:
            raise ClientRefused(f"{user.name} cannot see {msg.channel.label}")

    def _option_values(
        self: FakeDiscord,
        leaf: dict[str, Any],
        given: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        resolved: dict[str, dict[str, Any]],
        client_checks: bool,
        *,
        focused: str | None,
    ) -> list[dict[str, Any]]:
        definitions = [o for o in leaf.get("options") or [] if o.get("type") not in (1, 2)]
        unknown = set(given) - {d["name"] for d in definitions}
        if unknown:
            known = ", ".join(d["name"] for d in definitions) or "none"
            raise ClientRefused(f"/{leaf['name']} has no option {', '.join(sorted(unknown))}; options: {known}")
        out = []
        for definition in definitions:
            name = definition["name"]
            if name not in given:
                if definition.get("required") and client_checks:
                    raise ClientRefused(f"/{leaf['name']} needs option {name!r}")
                continue
            if name == focused:
                out.append({"name": name, "type": definition["type"], "value": str(given[name]), "focused": True})
                continue
            value = self._convert(definition, given[name], user, channel, resolved, client_checks)
            out.append({"name": name, "type": definition["type"], "value": value})
        return out

    def _convert(
        self: FakeDiscord,
        definition: dict[str, Any],
        value: Any,
        user: FakeUser,
        channel: FakeChannel,
        resolved: dict[str, dict[str, Any]],
        client_checks: bool,
    ) -> Any:
        kind, name = definition["type"], definition["name"]
        where = f"option {name!r}"

        def refuse(why: str) -> ClientRefused:
            return ClientRefused(f"Discord's client would not send {where}={value!r}: {why}")

        if kind == 3:  # string
            choices = definition.get("choices")
            if choices:
                match = next((c for c in choices if value in (c["value"], c["name"])), None)
                if match is None and client_checks:
                    raise refuse(f"choices are {[c['name'] for c in choices]}")
                value = match["value"] if match else value
            value = str(value)
            low, high = definition.get("min_length"), definition.get("max_length")
            if client_checks and ((low is not None and len(value) < low) or (high is not None and len(value) > high)):
                raise refuse(f"length must be {low}..{high}")
            return value
        if kind in (4, 10):  # integer, number
            choices = definition.get("choices")
            if choices:
                match = next((c for c in choices if value in (c["value"], c["name"])), None)
                if match is None and client_checks:
                    raise refuse(f"choices are {[c['name'] for c in choices]}")
                value = match["value"] if match else value
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or (kind == 4 and not isinstance(value, int))
            ):
                raise refuse("not a number of that type")
            low, high = definition.get("min_value"), definition.get("max_value")
            if client_checks and ((low is not None and value < low) or (high is not None and value > high)):
                raise refuse(f"allowed range is {low}..{high}")
            return value
        if kind == 5:
            if not isinstance(value, bool):
                raise refuse("not a boolean")
            return value
        if kind in (6, 9) and not isinstance(value, FakeRole):  # user, mentionable
            try:
                target = self.user(value)
            except LookupError:
                if kind == 6:
                    raise
                return self._convert({**definition, "type": 8}, value, user, channel, resolved, client_checks)
            resolved.setdefault("users", {})[str(target.id)] = target.payload()
            if not channel.is_dm:
                perms = self.permissions_for(target, channel)
                member = self.member_payload(target, self.guild_of(channel).id, with_user=False, permissions=perms)
                resolved.setdefault("members", {})[str(target.id)] = member
            return str(target.id)
        if kind in (8, 9):  # role
            role = self.role(value)
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            return str(role.id)
        if kind == 7:  # channel
            target_channel = self.channel(value)
            allowed = definition.get("channel_types")
            if client_checks and allowed and target_channel.type not in allowed:
                raise refuse(f"channel types allowed: {allowed}")
            payload = target_channel.payload(permissions=self.permissions_for(user, target_channel))
            resolved.setdefault("channels", {})[str(target_channel.id)] = payload
            return str(target_channel.id)
        if kind == 11:  # attachment
            if isinstance(value, FakeAttachment):
                attachment = value
            else:
                filename, content = value
                upload = UploadedFile(0, filename, mimetypes.guess_type(filename)[0], bytes(content))
                attachment = self._new_attachment(channel, upload, None)
            self._option_attachments.append(attachment)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
            return str(attachment.id)
        raise refuse(f"option type {kind} is not supported by the fake")


def show_value(option: dict[str, Any]) -> str:
    return str(option["value"])


def modal_answer(
    component: dict[str, Any], label: str | None, remaining: dict[str, Any], client_checks: bool
) -> dict[str, Any]:
    custom_id = component.get("custom_id")
    key = custom_id if custom_id in remaining else label if label in remaining else None
    if component.get("type") == 4:
        value = str(remaining.pop(key)) if key is not None else str(component.get("value") or "")
        if client_checks:
            if component.get("required", True) and not value:
                raise ClientRefused(f"text input {label or custom_id!r} is required")
            low, high = component.get("min_length"), component.get("max_length")
            if value and ((low is not None and len(value) < low) or (high is not None and len(value) > high)):
                raise ClientRefused(f"text input {label or custom_id!r} takes {low}..{high} characters")
        return {"type": 4, "custom_id": custom_id, "value": value}
    chosen = remaining.pop(key) if key is not None else []
    values = [chosen] if isinstance(chosen, str) else list(chosen)
    if component.get("type") == 3:
        options = component.get("options") or []
        mapped = []
        for v in values:
            option = next((o for o in options if v in (o.get("value"), o.get("label"))), None)
            if option is None:
                raise ClientRefused(f"select {label or custom_id!r} has no option {v!r}")
            mapped.append(option["value"])
        values = mapped
    return {"type": component.get("type"), "custom_id": custom_id, "values": values}
