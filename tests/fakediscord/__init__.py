"""A fake Discord (REST API + gateway) for end-to-end tests of a real discord.py bot. See DISCORD_TESTING.md."""

from .drivers import ClientRefused, Reply
from .model import (
    Callback,
    ChannelType,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    MessageFlag,
    Perm,
)
from .runner import BotFactory, BotRunner
from .server import RESPONSE_DEADLINE, FakeDiscord, RecordedRequest, Violation

__all__ = [
    "RESPONSE_DEADLINE",
    "BotFactory",
    "BotRunner",
    "Callback",
    "ChannelType",
    "ClientRefused",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "MessageFlag",
    "Perm",
    "RecordedRequest",
    "Reply",
    "Violation",
]
