"""Shards against the fake: IDENTIFY with `shard`, several guilds, each guild's events only on the shard
`(guild_id >> 22) % shard_count`, DMs on shard 0, `GET /gateway/bot` recommending `fake.shard_count`."""

from __future__ import annotations

import contextlib
from typing import Any

import discord
import pytest
from discord.ext import commands

from tests.e2e.conftest import GUILD_READY_TIMEOUT
from tests.fakediscord import BotRunner, FakeDiscord
from tests.fakediscord.runner import no_identify_delay

pytestmark = pytest.mark.e2e


def factory(cls: type[commands.Bot], **options: Any):  # type: ignore[no-untyped-def]
    def build(stack: contextlib.AsyncExitStack) -> commands.Bot:
        bot = cls(
            command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=GUILD_READY_TIMEOUT, **options
        )
        return no_identify_delay(bot)  # discord.py waits 5 s before each shard after the first

    return build


def events_of(fake: FakeDiscord, shard_id: int, name: str) -> list[dict[str, Any]]:
    return [data for _, event, data in fake.session(shard_id).events if event == name]


async def test_auto_sharded_bot_gets_each_guild_on_its_shard(fake: FakeDiscord) -> None:
    fake.shard_count = 2
    north = await fake.add_guild("North", shard=(0, 2))
    south = await fake.add_guild("South", shard=(1, 2))
    assert (north.shard(2), south.shard(2)) == (0, 1)
    runner = BotRunner(fake, factory(commands.AutoShardedBot), extensions=["tests.e2e.harness_cog"])
    bot = await runner.start()
    try:
        assert bot.shard_count == 2 and fake.connected_shards == [0, 1]
        assert sorted(i["shard"] for i in fake.identifies) == [[0, 2], [1, 2]]
        assert {g.id for g in bot.guilds} == {fake.guild_id, north.id, south.id}
        for shard_id in (0, 1):
            [ready] = events_of(fake, shard_id, "READY")
            expected = {str(g.id) for g in fake.guilds.values() if g.shard(2) == shard_id}
            assert (
                {g["id"] for g in ready["guilds"]}
                == expected
                == {g["id"] for g in events_of(fake, shard_id, "GUILD_CREATE")}
            )
        south_guild = bot.get_guild(south.id)
        assert south_guild is not None and south_guild.shard_id == 1
        assert {c.name for c in south_guild.text_channels} == {"general", "kingdomino"}
        assert [r.name for r in south_guild.me.roles] == ["@everyone", "Kingdomino"]  # only this guild's roles
        channel = south_guild.get_channel(south.channels["general"].id)
        assert isinstance(channel, discord.TextChannel)
        assert channel.permissions_for(south_guild.me).value == fake.permissions_for(
            fake.bot_user, south.channels["general"]
        )

        reply = await fake.slash(fake.carol, south.channels["kingdomino"], "harness", "ping")
        assert reply.content == "pong, carol"
        assert "South #kingdomino | carol: /harness ping" in fake.transcript(south.channels["kingdomino"])
        [created] = events_of(fake, 1, "INTERACTION_CREATE")
        assert created["guild_id"] == str(south.id) and events_of(fake, 0, "INTERACTION_CREATE") == []
        await fake.delete_channel(north.channels["general"])
        assert [e["id"] for e in events_of(fake, 0, "CHANNEL_DELETE")] == [str(north.channels["general"].id)]
        assert events_of(fake, 1, "CHANNEL_DELETE") == []

        user = await bot.fetch_user(fake.dave.id)
        await user.send("a DM")
        dms = [[m for m in events_of(fake, shard, "MESSAGE_CREATE") if "guild_id" not in m] for shard in (0, 1)]
        assert [[m["content"] for m in shard] for shard in dms] == [["a DM"], []]

        await fake.close_gateway(4000, shard_id=1)  # one shard drops and resumes; the other never notices
        await fake.wait_for_gateway(shard_id=1)
        assert fake.session(1).resumes == 1 and fake.session(0).resumes == 0
        reply = await fake.slash(fake.bob, south.channels["general"], "harness", "ping")
        assert reply.content == "pong, bob"
    finally:
        await runner.stop()
    assert runner.logged_errors == []


async def test_a_bot_on_one_shard_sees_only_its_guilds(fake: FakeDiscord) -> None:
    north = await fake.add_guild("North", shard=(0, 2))
    south = await fake.add_guild("South", shard=(1, 2))
    runner = BotRunner(fake, factory(commands.Bot, shard_id=1, shard_count=2), extensions=["tests.e2e.harness_cog"])
    bot = await runner.start()
    try:
        assert fake.identifies[-1]["shard"] == [1, 2]
        on_shard_1 = {g.id for g in fake.guilds.values() if g.shard(2) == 1}
        assert {g.id for g in bot.guilds} == on_shard_1 and south.id in on_shard_1 and north.id not in on_shard_1
        with pytest.raises(AssertionError, match="no bot is connected"):
            await fake.slash(fake.alice, north.channels["kingdomino"], "harness", "ping")
        assert (await fake.slash(fake.alice, south.channels["kingdomino"], "harness", "ping")).content == "pong, alice"
        late = await fake.add_guild("Late", shard=(1, 2))  # the bot joins a guild while it runs
        await fake.wait_until(lambda: bot.get_guild(late.id), what="GUILD_CREATE")
    finally:
        await runner.stop()
    assert runner.logged_errors == []


async def test_gateway_bot_recommends_the_shard_count(fake: FakeDiscord) -> None:
    fake.shard_count = 3
    runner = BotRunner(fake, factory(commands.AutoShardedBot), sync_commands=False)
    bot = await runner.start()
    try:
        assert bot.shard_count == 3 and fake.connected_shards == [0, 1, 2]
        assert fake.requests_to("GET", r"^/gateway/bot$")
        shard = fake.guild.shard(3)
        assert bot.get_guild(fake.guild_id).shard_id == shard  # type: ignore[union-attr]
        empty = [s for s in (0, 1, 2) if s != shard]
        assert all(events_of(fake, s, "READY")[0]["guilds"] == [] for s in empty)
    finally:
        await runner.stop()


async def test_two_bots_on_the_same_shard_both_get_its_events(fake: FakeDiscord) -> None:
    first = BotRunner(fake, factory(commands.Bot), extensions=["tests.e2e.harness_cog"])
    second = BotRunner(fake, factory(commands.Bot), extensions=["tests.e2e.harness_cog"], sync_commands=False)
    await first.start()
    await second.start()
    try:
        assert len([s for s in fake.sessions if s.connected]) == 2  # as on Discord: the older session lives on
        reply = await fake.slash(fake.alice, "kingdomino", "harness", "ping")
        assert reply.content == "pong, alice"
        await fake.wait_until(lambda: fake.violations, what="the second answer")
        [double] = fake.take_violations()
        assert double.kind == "double response"  # a misconfigured deployment shows
        await fake.wait_until(lambda: first.logged_errors, what="the refused answer to be logged")
    finally:
        await second.stop()
        await first.stop()
    assert "already been acknowledged" in first.take_logged_errors()[0]
    second.take_logged_errors()
