"""The fake's gateway through the real discord.py client: closes, RESUME with the missed events, INVALID_SESSION,
expired interaction tokens, DMs (open and closed), and channels or threads deleted under the bot."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands

from tests.e2e.test_harness import bot_extensions, bot_factory  # noqa: F401  (the harness bot, without the cogs)
from tests.fakediscord import BotRunner, ClientRefused, FakeDiscord
from tests.fakediscord.runner import no_identify_delay

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("code", [1000, 1001, 4000, None])  # None: the connection is lost, no close frame
async def test_close_then_resume_replays_missed_events(fake: FakeDiscord, bot: commands.Bot, code: int | None) -> None:
    session = fake.session(0)
    await fake.close_gateway(code, hold=0.2)  # the bot cannot reconnect for 0.2 s
    await fake.wait_until(lambda: not fake.connected, what="the disconnect")
    # Meanwhile: a deleted channel and a slash command; both reach the bot on RESUME, in order.
    await fake.delete_channel("general")
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "ping")
    assert reply.content == "pong, alice"
    resumed = await fake.wait_for_gateway()
    assert resumed is session and session.resumes == 1 and len(fake.identifies) == 1  # no new IDENTIFY
    assert bot.get_channel(fake.general.id) is None
    events = [e[1] for e in session.events]
    assert events[events.index("RESUMED") - 2 :][:3] == ["CHANNEL_DELETE", "INTERACTION_CREATE", "RESUMED"]
    [closed] = fake.faults.injected
    assert (closed.kind, closed.detail, closed.shard_id, closed.recovered) == (
        "gateway close",
        f"close {code}" if code else "connection lost",
        0,
        True,
    )


async def test_4009_and_late_resumes_get_invalid_session(fake: FakeDiscord, bot: commands.Bot) -> None:
    no_identify_delay(bot)
    first = fake.session(0)
    await fake.close_gateway(4009)  # session timed out: the RESUME is refused, the bot IDENTIFYs again
    second = await fake.wait_for_gateway()
    assert second is not first and first.invalid and first.resumes == 0 and len(fake.identifies) == 2
    assert bot.get_guild(fake.guild_id) is not None

    fake.resume_timeout = 0.05
    await fake.close_gateway(4000, hold=0.1)  # resumable, but the RESUME comes too late
    third = await fake.wait_for_gateway()
    assert third is not second and second.invalid and len(fake.identifies) == 3
    assert (await fake.slash(fake.bob, "kingdomino", "harness", "ping")).content == "pong, bob"


async def test_reconnect_and_invalid_session_opcodes(fake: FakeDiscord, bot: commands.Bot) -> None:
    no_identify_delay(bot)
    session = fake.session(0)
    await fake.request_reconnect()
    await fake.wait_until(lambda: session.resumes == 1 and session.ready, what="the RESUME")
    await fake.invalidate_session(resumable=True)  # discord.py closes and resumes the same session
    await fake.wait_until(lambda: session.resumes == 2 and session.ready, what="the second RESUME")
    await fake.invalidate_session()  # not resumable: a new IDENTIFY
    await fake.wait_until(lambda: len(fake.identifies) == 2, what="the new IDENTIFY")
    fresh = await fake.wait_for_gateway()
    assert fresh is not session and len(fake.identifies) == 2
    assert fake.faults.counts == {"gateway reconnect": 1, "gateway invalid session": 2}


async def test_expired_interaction_token(fake: FakeDiscord, harness: BotRunner) -> None:
    bot = harness.bot
    assert bot is not None
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "ping")
    webhook = discord.Webhook.partial(fake.application_id, reply.interaction.token, client=bot)
    await webhook.send("a follow-up within 15 minutes")
    fake.age_interaction(reply, 15 * 60)  # as if a quarter of an hour had passed
    with pytest.raises(discord.HTTPException) as caught:
        await webhook.send("too late")
    assert (caught.value.status, caught.value.code) == (401, 50027)
    fake.expired_token_answer = (404, 10015, "Unknown Webhook")
    with pytest.raises(discord.NotFound):
        await webhook.edit_message(reply.message.id, content="edited too late")
    assert fake.take_violations() == []  # Discord's ordinary refusal, not a mistake it reports

    fake.interaction_token_lifetime = 0.02  # /harness slow follows up after 0.05 s
    slow = await fake.slash(fake.bob, "kingdomino", "harness", "slow")
    await fake.wait_until(lambda: harness.logged_errors, what="the follow-up to fail")
    assert "Unknown Webhook" in harness.take_logged_errors()[0]
    assert slow.message.loading


async def test_direct_messages_open_and_closed(fake: FakeDiscord, bot: commands.Bot) -> None:
    dave = await bot.fetch_user(fake.dave.id)
    await dave.send("your turn")
    assert fake.last_message(fake.dm_channel("dave")).content == "your turn"
    fake.close_dms("dave")
    with pytest.raises(discord.Forbidden) as caught:
        await dave.send("your turn, again")
    assert (caught.value.status, caught.value.code, caught.value.text) == (
        403,
        50007,
        "Cannot send messages to this user",
    )
    assert [m.content for m in fake.messages_in(fake.dm_channel("dave"))] == ["your turn"]
    fake.close_dms("dave", closed=False)
    await dave.send("open again")
    assert fake.take_violations() == []


async def test_channels_and_threads_deleted_under_the_bot(fake: FakeDiscord, bot: commands.Bot) -> None:
    channel = bot.get_channel(fake.kingdomino.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="game-7", type=discord.ChannelType.public_thread)
    other = await channel.create_thread(name="game-8", type=discord.ChannelType.public_thread)
    await thread.send("move 1")
    await fake.delete_channel(thread.id)
    await fake.wait_until(lambda: bot.get_channel(thread.id) is None, what="THREAD_DELETE")
    with pytest.raises(discord.NotFound) as caught:
        await thread.send("move 2")
    assert caught.value.code == 10003
    await fake.delete_channel(fake.kingdomino)
    await fake.wait_until(lambda: bot.get_channel(fake.kingdomino.id) is None, what="CHANNEL_DELETE")
    for call in (channel.send("hello?"), channel.fetch_message(1), bot.fetch_channel(channel.id)):
        with pytest.raises(discord.NotFound) as caught:
            await call
        assert caught.value.code == 10003
    with pytest.raises(discord.NotFound):  # the channel's threads went with it
        await other.send("anyone?")
    with pytest.raises(ClientRefused, match="#kingdomino was deleted"):
        await fake.slash(fake.alice, fake.kingdomino, "harness", "ping")
    assert fake.take_violations() == []
