"""The harness's own tests: the fake Discord, its drivers and the fixtures, through the real KingdominoBot class.

The bot here is the real `KingdominoBot` with the test-only `harness_cog` loaded, and without the project's own
cogs, so that these tests check the harness whatever state the game's cogs are in.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from bot import KingdominoBot
from settings import Settings
from tests.e2e.conftest import GUILD_READY_TIMEOUT
from tests.e2e.harness_cog import COLOURS
from tests.fakediscord import BotFactory, BotRunner, Callback, ClientRefused, FakeDiscord, Perm, limits
from tests.fakediscord import wire as fake_server
from tests.fakediscord.model import MAX_FILE_SIZE

pytestmark = pytest.mark.e2e


@pytest.fixture
def bot_extensions() -> list[str]:
    return ["tests.e2e.harness_cog"]


@pytest.fixture
def bot_factory(bot_settings: Settings) -> BotFactory:
    def build(stack: contextlib.AsyncExitStack) -> commands.Bot:
        bot = KingdominoBot(bot_settings, store=None, guild_ready_timeout=GUILD_READY_TIMEOUT)

        async def without_project_cogs() -> None:
            return None

        bot.setup_hook = without_project_cogs  # type: ignore[method-assign]
        return bot

    return build


async def test_login_and_guild(fake: FakeDiscord, bot: commands.Bot) -> None:
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    calls = [(r.method, r.path) for r in fake.requests]
    assert calls.index(("GET", "/users/@me")) < calls.index(("GET", "/oauth2/applications/@me"))
    assert all(r.headers.get("Authorization") == "Bot fake-token" for r in fake.requests if r.path == "/users/@me")
    assert fake.identifies[-1]["token"] == "fake-token"
    # only the guilds intent: no message, reaction or typing events for every message of every server
    assert fake.identifies[-1]["intents"] == discord.Intents(guilds=True).value

    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.me is not None
    assert {c.name for c in guild.text_channels} == {"general", "kingdomino", "announcements"}
    game_master = discord.utils.get(guild.roles, name="Game Master")
    assert game_master is not None and game_master.permissions.manage_channels
    alice, bob = await guild.fetch_member(fake.alice.id), await guild.fetch_member(fake.bob.id)
    assert (alice.name, bob.name) == ("alice", "bob")
    assert game_master in alice.roles and game_master not in bob.roles
    assert guild.owner_id == fake.owner.id and guild.member_count == 6

    kingdomino, general, announcements = (
        guild.get_channel(c.id) for c in (fake.kingdomino, fake.general, fake.announcements)
    )
    assert isinstance(kingdomino, discord.TextChannel) and isinstance(general, discord.TextChannel)
    assert isinstance(announcements, discord.TextChannel)
    assert kingdomino.permissions_for(guild.me).create_public_threads
    assert not general.permissions_for(bob).create_public_threads
    assert not announcements.permissions_for(guild.me).send_messages
    # The fake computes permissions the way discord.py does.
    for member, fake_member in ((alice, fake.alice), (bob, fake.bob), (guild.me, fake.bot_user)):
        for channel, fake_channel in (
            (kingdomino, fake.kingdomino),
            (general, fake.general),
            (announcements, fake.announcements),
        ):
            assert channel.permissions_for(member).value == fake.permissions_for(fake_member, fake_channel)


async def test_command_sync_is_recorded_and_validated(fake: FakeDiscord, bot: commands.Bot) -> None:
    put = await fake.wait_for_request("PUT", rf"^/applications/{fake.application_id}/commands$")
    assert put.status == 200
    assert {c["name"] for c in put.json} == {"harness", "moderate"}
    harness = next(c for c in put.json if c["name"] == "harness")
    kinds = {o["name"]: o["type"] for o in harness["options"]}
    assert kinds["board"] == 2 and kinds["ping"] == 1  # a subcommand group and a subcommand
    fetched = await bot.tree.fetch_commands()
    assert {(c.id, c.name) for c in fetched} == {(int(c["id"]), c["name"]) for c in fake.global_commands}

    too_many = [{"name": f"o{i}", "description": "d", "type": 3} for i in range(26)]
    bad = [{"name": "Bad Name", "description": "", "type": 1, "options": too_many}]
    with pytest.raises(discord.HTTPException) as caught:
        await bot.http.bulk_upsert_global_commands(fake.application_id, bad)  # type: ignore[arg-type]
    assert (caught.value.status, caught.value.code) == (400, 50035)
    [violation] = fake.take_violations()
    assert violation.kind == "commands"
    problems = dict(violation.problems)
    assert "^[-_a-z0-9]{1,32}$" in problems["0.name"]
    assert "between 1 and 100" in problems["0.description"]
    assert "between 0 and 25" in problems["0.options"]
    assert {c["name"] for c in fake.global_commands} == {"harness", "moderate"}  # the bad sync changed nothing

    guild = discord.Object(id=fake.guild_id)
    bot.tree.copy_global_to(guild=guild)
    await bot.tree.sync(guild=guild)
    guild_ids = {c["name"]: c["id"] for c in fake.guild_commands[fake.guild_id]}
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "ping")
    assert reply.interaction.data["id"] == guild_ids["harness"]  # guild commands win, as in Discord's client
    assert reply.content == "pong, alice"


async def test_slash_options_are_typed(fake: FakeDiscord, bot: commands.Bot) -> None:
    options = {"players": 3, "colour": "green", "opponent": fake.carol, "fast": True, "where": "general", "ratio": 0.5}
    reply = await fake.slash(fake.bob, fake.kingdomino, "harness", "options", options=options)
    assert reply.content == "players=3 colour=green opponent=carol:Member fast=True where=general ratio=0.5"

    with pytest.raises(ClientRefused, match=r"allowed range is 2\.\.4"):
        await fake.slash(fake.bob, "kingdomino", "harness", "options", options={**options, "players": 5})
    with pytest.raises(ClientRefused, match="needs option 'opponent'"):
        await fake.slash(fake.bob, "kingdomino", "harness", "options", options={"players": 2, "colour": "red"})
    with pytest.raises(ClientRefused, match="choices are"):
        await fake.slash(fake.bob, "kingdomino", "harness", "options", options={**options, "colour": "mauve"})
    with pytest.raises(ClientRefused, match="no subcommand 'nope'"):
        await fake.slash(fake.bob, "kingdomino", "harness", "nope")
    # Discord's client enforces a declared range, discord.py does not: the callback sees what Discord sends.
    reply = await fake.slash(
        fake.bob, "kingdomino", "harness", "options", options={**options, "players": 5}, client_checks=False
    )
    assert reply.content.startswith("players=5 ")


async def test_png_reply(fake: FakeDiscord, bot: commands.Bot) -> None:
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "board", "show", options={"size": 16})
    assert reply.response_type == Callback.CHANNEL_MESSAGE and not reply.ephemeral
    [attachment] = reply.attachments
    assert (attachment.filename, attachment.content_type) == ("board.png", "image/png")
    image = attachment.image()
    assert image.format == "PNG" and image.size == (64, 32)
    assert image.convert("RGB").getpixel((0, 0)) == (0, 128, 0)
    assert reply.embeds[0]["image"]["url"] == "attachment://board.png"
    callback = fake.requests_to("POST", r"^/interactions/\d+/[^/]+/callback$")[-1]
    assert callback.query == {"with_response": "1"}
    assert (
        callback.files[0].data == attachment.data and callback.json["data"]["attachments"][0]["filename"] == "board.png"
    )
    assert await bot.http.get_from_cdn(attachment.url) == attachment.data


async def test_deferred_reply_and_followups(fake: FakeDiscord, bot: commands.Bot) -> None:
    reply = await fake.slash(fake.carol, "kingdomino", "harness", "slow")
    assert reply.response_type == Callback.DEFERRED_CHANNEL_MESSAGE
    message = await reply.wait_message()
    assert message.content == "done thinking" and not message.ephemeral and not message.edited
    first, second = await reply.wait_followups(2)
    assert first is message  # the first follow-up after "thinking" replaces the loading message
    assert second.content == "a secret afterthought" and second.ephemeral and second.visible_to is fake.carol
    assert [m.content for m in fake.messages_in("kingdomino")] == ["done thinking"]
    assert [m.content for m in fake.messages_in("kingdomino", viewer="carol")] == [
        "done thinking",
        "a secret afterthought",
    ]
    assert all(r.query["wait"] == "1" for r in fake.requests_to("POST", rf"^/webhooks/{fake.application_id}/"))


async def test_ephemeral_reply(fake: FakeDiscord, bot: commands.Bot) -> None:
    reply = await fake.slash(fake.dave, "general", "harness", "secret")
    assert reply.ephemeral and reply.message.visible_to is fake.dave
    assert reply.content == "only you see this, dave"
    assert fake.messages_in("general") == []
    assert fake.messages_in("general", viewer=fake.dave) == [reply.message]
    assert fake.messages_in("general", viewer=fake.bob) == []
    with pytest.raises(ClientRefused, match="bob cannot see message"):
        await fake.click(fake.bob, reply.message, "anything")


async def test_autocomplete(fake: FakeDiscord, bot: commands.Bot) -> None:
    choices = await fake.autocomplete(fake.alice, "kingdomino", "harness", "pick", focused="colour", value="re")
    assert choices == [{"name": c.title(), "value": c} for c in COLOURS if "re" in c]
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "pick", options={"colour": choices[0]["value"]})
    assert reply.content == "you picked red"
    with pytest.raises(ClientRefused, match="does not autocomplete"):
        await fake.autocomplete(fake.alice, "kingdomino", "harness", "options", focused="players", value="2")


async def test_button_survives_restart(fake: FakeDiscord, harness: BotRunner) -> None:
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "counter")
    message = reply.message
    assert message.button_labels == ["Count 0"]
    click = await fake.click(fake.bob, message, "Count 0")
    assert click.response_type == Callback.UPDATE_MESSAGE and click.message is message
    assert (message.content, message.button_labels) == ("Count: 1 (bob)", ["Count 1"])

    old_bot = harness.bot
    new_bot = await harness.restart()
    assert new_bot is harness.bot and new_bot is not old_bot and old_bot is not None and old_bot.is_closed()
    assert harness.starts == 2 and len(fake.identifies) == 2

    click = await fake.click(fake.carol, message, "harness:counter:1")  # a message the old process sent
    assert click.message is message
    assert (message.content, message.button_labels) == ("Count: 2 (carol)", ["Count 2"])
    assert [v["content"] for v in message.history] == ["Count: 0", "Count: 1 (bob)"]


async def test_select(fake: FakeDiscord, bot: commands.Bot) -> None:
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "colours")
    [select] = reply.message.selects
    assert [o["value"] for o in select["options"]] == COLOURS[:5]
    chosen = await fake.select(fake.bob, reply.message, "Pick colours", ["Red", "blue"])
    assert chosen.content == "bob picked red and blue" and chosen.message is not reply.message
    with pytest.raises(ClientRefused, match="takes 1 to 2 values"):
        await fake.select(fake.bob, reply.message, None, ["red", "green", "blue"])
    with pytest.raises(ClientRefused, match="no option 'mauve'"):
        await fake.select(fake.bob, reply.message, "harness:colours", ["mauve"])


async def test_modal(fake: FakeDiscord, bot: commands.Bot) -> None:
    opened = await fake.slash(fake.carol, "kingdomino", "harness", "name")
    assert opened.response_type == Callback.MODAL and opened.modal["title"] == "Name your kingdom"
    with pytest.raises(ClientRefused, match="only carol sees the modal"):
        await fake.submit_modal(fake.bob, opened, {"Kingdom name": "Bobland"})
    with pytest.raises(ClientRefused, match="is required"):
        await fake.submit_modal(fake.carol, opened, {"Motto": "no name"})
    submitted = await fake.submit_modal(fake.carol, opened, {"harness:kingdom": "Carolia", "Motto": "Wheat for all"})
    assert submitted.content == "Long live Carolia! Wheat for all"


async def test_content_limit_violation(fake: FakeDiscord, harness: BotRunner) -> None:
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "long")
    [violation] = fake.take_violations()
    assert violation.kind == "limit" and violation.interaction is reply.interaction
    assert ("data.content", "Must be 2000 or fewer in length (got 2001).") in violation.problems
    assert reply.response_type is None and fake.messages_in("kingdomino") == []
    with pytest.raises(AssertionError, match=r"data\.content"):
        reply.message  # noqa: B018
    callback = fake.requests_to("POST", r"/callback$")[-1]
    assert callback.status == 400
    [error] = harness.take_logged_errors()  # discord.py raised the 400 inside the command
    assert "Invalid Form Body" in error and "2000 or fewer" in error

    reply = await fake.slash(fake.alice, "kingdomino", "harness", "long", options={"length": 2000})
    assert len(reply.content) == 2000


async def test_select_option_limit_violation(fake: FakeDiscord, harness: BotRunner) -> None:
    await fake.slash(fake.alice, "kingdomino", "harness", "colours", options={"count": 26})
    [violation] = fake.take_violations()
    assert violation.kind == "limit"
    assert (
        "data.components.0.components.0.options",
        "Must be between 1 and 25 in length (got 26).",
    ) in violation.problems
    assert len(harness.take_logged_errors()) == 1


async def test_unknown_endpoint_is_reported(fake: FakeDiscord, bot: commands.Bot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.fetch_invite("kingdomino")
    with pytest.raises(AssertionError, match=r"unhandled endpoint.*GET /invites/kingdomino"):
        fake.check()
    [request] = fake.take_unhandled()
    assert (request.method, request.path, request.status) == ("GET", "/invites/kingdomino", 404)
    fake.check()


async def test_late_and_double_responses_are_violations(fake: FakeDiscord, harness: BotRunner) -> None:
    assert harness.bot is not None
    cog = harness.bot.get_cog("HarnessCog")
    pending = asyncio.create_task(fake.slash(fake.bob, "kingdomino", "harness", "wait"))
    waiting = await fake.wait_until(lambda: next((i for i in fake.interactions.values() if "wait" in i.summary), None))
    waiting.dispatched_at -= 10  # as if the bot had taken 10 s
    cog.gate.set()  # type: ignore[union-attr]
    reply = await pending
    [late] = fake.take_violations()
    assert late.kind == "late response" and late.interaction is reply.interaction
    await fake.wait_until(lambda: harness.logged_errors, what="discord.py to report the 404")
    assert "Unknown interaction" in harness.take_logged_errors()[0]

    reply = await fake.slash(fake.bob, "kingdomino", "harness", "ping")
    url = f"{fake.base_url}/api/v10/interactions/{reply.interaction.id}/{reply.interaction.token}/callback"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json={"type": 4, "data": {"content": "again"}}) as answer,
    ):
        assert answer.status == 400 and (await answer.json())["code"] == 40060
    [double] = fake.take_violations()
    assert double.kind == "double response"


async def test_unanswered_interaction_is_a_violation(
    fake: FakeDiscord, bot: commands.Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fake_server, "RESPONSE_DEADLINE", 0.1)  # the real 3 s would slow the suite down
    reply = await fake.slash(fake.bob, "kingdomino", "harness", "ignore")
    [violation] = fake.take_violations()
    assert violation.kind == "no response" and "did not answer /harness ignore" in violation.message
    with pytest.raises(AssertionError, match="no accepted response"):
        reply.message  # noqa: B018


async def test_manage_channels_permission(fake: FakeDiscord, bot: commands.Bot) -> None:
    with pytest.raises(ClientRefused, match="bob cannot see /moderate: it needs MANAGE_CHANNELS"):
        await fake.slash(fake.bob, "kingdomino", "moderate")
    reply = await fake.slash(fake.alice, "kingdomino", "moderate")
    assert reply.content == "manage_channels=True bot_attach_files=True" and reply.ephemeral
    reply = await fake.slash(fake.bob, "kingdomino", "moderate", client_checks=False)
    assert reply.content.startswith("manage_channels=False")
    granted = int(Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES | Perm.MANAGE_CHANNELS)
    reply = await fake.slash(fake.bob, "kingdomino", "moderate", permissions=granted)
    assert reply.content.startswith("manage_channels=True")


async def test_channel_messages_and_threads(fake: FakeDiscord, harness: BotRunner) -> None:
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "post")
    message = await reply.wait_message()
    assert message.ephemeral and message.content == "posted 'an updated board' with 1 file(s)"
    [board] = fake.messages_in("kingdomino")
    assert board.author is fake.bot_user and board.content == "an updated board" and board.edited
    assert board.history[0]["content"] == "a board"
    assert board.attachments[0].image().size == (40, 20)
    thread = fake.channel("game-1")
    assert thread.is_thread and thread.parent_id == fake.kingdomino.id and thread.id == board.id == board.thread_id
    [welcome] = fake.messages_in(thread)
    assert welcome.content == f"welcome, {fake.alice.mention}"
    assert fake.alice.id in thread.thread_member_ids
    assert harness.bot is not None and isinstance(harness.bot.get_channel(thread.id), discord.Thread)

    # Where the bot may not send messages, Discord answers 403 and the test hears of it.
    await fake.slash(fake.alice, "announcements", "harness", "post")
    await fake.wait_until(lambda: harness.logged_errors, what="the command to fail")
    [violation] = fake.take_violations()
    assert violation.kind == "permissions" and "SEND_MESSAGES" in violation.message
    assert "Missing Permissions" in harness.take_logged_errors()[0]


async def test_direct_message(fake: FakeDiscord, bot: commands.Bot) -> None:
    user = await bot.fetch_user(fake.dave.id)
    await user.send("psst, your turn")
    [message] = fake.messages_in(fake.dm_channel("dave"))
    assert message.content == "psst, your turn" and message.author is fake.bot_user


async def test_transcript_tells_the_story(fake: FakeDiscord, bot: commands.Bot) -> None:
    counter = await fake.slash(fake.alice, "kingdomino", "harness", "counter")
    await fake.click(fake.bob, counter.message, "Count 0")
    await fake.slash(fake.alice, "kingdomino", "harness", "board", "show")
    await fake.slash(fake.dave, "general", "harness", "secret")
    text = fake.transcript("kingdomino")
    n = counter.message.number
    for expected in (
        "#kingdomino | alice: /harness counter",
        f"Kingdomino #{n} (answers alice): Count: 0",
        "[Count 0] (harness:counter:0)",
        f"bob: clicks [Count 0] on #{n}",
        f"(edited) Kingdomino #{n} (answers alice): Count: 1 (bob)",
        "file: board.png (",
    ):
        assert expected in text
    assert "dave" not in text  # another channel
    assert "(answers dave, only dave sees it): only you see this, dave" in fake.transcript()


async def test_wait_for_request(fake: FakeDiscord, bot: commands.Bot) -> None:
    mark = fake.mark()
    pending = asyncio.create_task(fake.slash(fake.alice, "kingdomino", "harness", "ping"))
    request = await fake.wait_for_request("POST", r"/callback$", after=mark)
    # The project's bot sends no pings unless a message names whom it pings.
    data = {"tts": False, "content": "pong, alice", "allowed_mentions": {"parse": []}}
    assert request.json == {"type": 4, "data": data}
    await pending
    with pytest.raises(AssertionError, match=r"timed out after 0\.05 s"):
        await fake.wait_for_request("DELETE", after=fake.mark(), timeout=0.05)


async def test_file_size_limit(fake: FakeDiscord, bot: commands.Bot) -> None:
    channel = bot.get_channel(fake.kingdomino.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send(file=discord.File(io.BytesIO(b"\0" * (MAX_FILE_SIZE + 1)), "huge.bin"))
    assert caught.value.status == 400
    [violation] = fake.take_violations()
    assert "'huge.bin' is 10485761 bytes; the limit is 10485760" in str(violation)
    await channel.send(file=discord.File(io.BytesIO(b"\0" * MAX_FILE_SIZE), "fits.bin"))
    assert fake.last_message("kingdomino").attachments[0].size == MAX_FILE_SIZE


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _button(custom_id: str, label: str = "B") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _select(custom_id: str, options: int) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": f"o{i}", "value": f"o{i}"} for i in range(options)],
    }


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"content": "x" * 2001}, "Must be 2000 or fewer in length"),
        ({}, "Cannot send an empty message"),
        ({"embeds": [{"title": "t"}] * 11}, "Must be between 0 and 10 in length"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "the limit is 6000"),
        ({"embeds": [{"title": "t" * 257}]}, "Must be between 0 and 256 in length"),
        ({"components": [_row(_button(f"b{i}")) for i in range(6)]}, "Must be between 0 and 5 in length"),
        ({"components": [_row(*(_button(f"b{i}") for i in range(6)))]}, "Must be between 1 and 5 in length"),
        ({"components": [_row(_select("s", 3), _button("b"))]}, "A select menu takes a whole action row"),
        ({"components": [_row(_select("s", 26))]}, "Must be between 1 and 25 in length (got 26)"),
        ({"components": [_row(_button("c" * 101))]}, "Must be between 1 and 100 in length (got 101)"),
        ({"components": [_row(_button("same"), _button("same"))]}, "custom id 'same' is used twice"),
        ({"components": [_button("b")]}, "Top-level components must be action rows"),
        ({"content": "x", "flags": 64}, "Only interaction responses can be ephemeral"),
    ],
)
def test_message_limits(body: dict[str, Any], expected: str) -> None:
    problems = limits.validate_message(body, [], creating=True, interaction=False)
    assert any(expected in message for _, message in problems), problems


def test_other_limits() -> None:
    choices = {"choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]}
    assert limits.validate_autocomplete(choices) == [("data.choices", "Must be between 0 and 25 in length (got 26).")]
    text_input = {"type": 4, "custom_id": "t", "style": 1, "label": "Name"}
    modal = {"title": "t" * 46, "custom_id": "m", "components": [_row(text_input)] * 6}
    assert {path for path, _ in limits.validate_modal(modal)} == {"data.title", "data.components"}
    command = {
        "name": "game",
        "description": "d" * 101,
        "type": 1,
        "options": [{"name": "x", "description": "", "type": 3}],
    }
    assert {path for path, _ in limits.validate_commands([command, command])} == {
        "0.description",
        "0.options.0.description",
        "1.name",
        "1.description",
        "1.options.0.description",
    }
    assert limits.validate_message({"content": "ok"}, [], creating=True, interaction=False) == []


async def test_edits_and_deletes_through_the_webhook(fake: FakeDiscord, bot: commands.Bot) -> None:
    reply = await fake.slash(fake.bob, "kingdomino", "harness", "edits")
    await fake.settle()
    original, followup, doomed, last = reply.messages
    assert original.deleted and [v["content"] for v in original.history] == ["reply v1"]
    assert original.content == "reply v2"  # what it said when it was deleted
    assert followup.content == "follow-up v2" and [a.filename for a in followup.attachments] == ["small.png"]
    assert doomed.deleted and last.content == "the reply says 'reply v2'"
    assert [m.content for m in fake.messages_in("kingdomino")] == ["follow-up v2", "the reply says 'reply v2'"]
    assert [m.content for m in fake.messages_in("kingdomino", deleted=True)] == [
        "reply v2",
        "follow-up v2",
        "short-lived",
        "the reply says 'reply v2'",
    ]


async def test_history_reactions_and_thread_edits(fake: FakeDiscord, bot: commands.Bot) -> None:
    channel = bot.get_channel(fake.kingdomino.id)
    assert isinstance(channel, discord.TextChannel)
    sent = [await channel.send(f"message {i}") for i in range(5)]
    newest_first = [m.content async for m in channel.history(limit=3)]
    assert newest_first == ["message 4", "message 3", "message 2"]
    oldest_first = [m.content async for m in channel.history(limit=2, after=sent[1], oldest_first=True)]
    assert oldest_first == ["message 2", "message 3"]
    await sent[0].add_reaction("✅")
    assert fake.message(sent[0].id).reactions == {"✅": {fake.bot_user.id}}
    thread = await channel.create_thread(name="side-game", type=discord.ChannelType.public_thread)
    await thread.edit(archived=True, locked=True)
    fake_thread = fake.channel(thread.id)
    assert fake_thread.archived and fake_thread.locked and fake_thread.type == 11
    await sent[1].delete()
    assert fake.message(sent[1].id).deleted
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(sent[1].id)
    assert fake.take_violations() == []  # a 404 on a deleted message is ordinary, not a violation


async def test_a_cancelled_wait_ends_at_once_even_as_the_fake_wakes_it(fake: FakeDiscord) -> None:
    """A test that cancels a task waiting on the fake (a turn cut short by a killed bot) gets it back at once, even
    when the fake wakes its waiters in that moment: with asyncio.wait_for (Python 3.11) the cancellation was lost and
    the wait went on until its own timeout (60 s in test_processes)."""
    for _ in range(30):
        waiting = asyncio.create_task(fake.wait_until(lambda: False, timeout=30, what="nothing"))
        await asyncio.sleep(0)  # it waits
        fake._notify()  # a request or event of the fake, as the test cancels
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):  # a lost cancellation: "timed out after 30 s" instead
            await waiting
