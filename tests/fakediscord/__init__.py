"""A fake Discord (REST API + gateway) for end-to-end tests of a real discord.py bot. See DISCORD_TESTING.md."""

from .drivers import ClientRefused, Reply
from .faults import Fault, FaultInjector, InjectedFault
from .model import (
    Callback,
    ChannelType,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    MessageFlag,
    Perm,
)
from .runner import BotFactory, BotProcess, BotRunner, no_identify_delay
from .server import FakeDiscord
from .wire import RESPONSE_DEADLINE, GatewaySession, RecordedRequest, Violation, point_discord_at

__all__ = [
    "RESPONSE_DEADLINE",
    "BotFactory",
    "BotProcess",
    "BotRunner",
    "Callback",
    "ChannelType",
    "ClientRefused",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Fault",
    "FaultInjector",
    "GatewaySession",
    "InjectedFault",
    "MessageFlag",
    "Perm",
    "RecordedRequest",
    "Reply",
    "Violation",
    "no_identify_delay",
    "point_discord_at",
]
