"""The few helpers the Discord cogs share that need Discord's objects: mentions that ping exactly whom they name,
the controls that name their game, the channel types, taking the buttons off an old message. The words themselves are in
`cogs.words` (no Discord there)."""

from __future__ import annotations

import logging

import discord

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
NEEDED_PERMISSIONS = {"view_channel": "View Channel", "send_messages": "Send Messages", "attach_files": "Attach Files"}
THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


class OfGame:
    """A control whose custom id names only its game (`gid`): discord.py finds it again from that id on each click."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]))


def pings(*user_ids: int | None) -> discord.AllowedMentions:
    """Mentions that notify exactly these users, and nobody else (never everyone, roles or other users)."""
    users = [discord.Object(id=u) for u in dict.fromkeys(user_ids) if u is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


async def strip_controls(client: discord.Client, channel_id: int, message_id: int | None) -> None:
    """Take the buttons off an earlier message (the table of a past turn, a closed lobby). A deleted or
    uneditable message is left as it is."""
    if message_id is None:
        return
    channel = client.get_partial_messageable(channel_id)
    try:
        await channel.get_partial_message(message_id).edit(view=None)
    except discord.HTTPException:
        log.debug("Could not take the controls off message %s", message_id)
