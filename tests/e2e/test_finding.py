"""Finding your game and knowing it is your turn: links and buttons on pings and reminders, answers from another
channel, `/game mine`, direct-message notifications (and their fallback), quiet hours."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cogs.decide import utcnow
from tests.e2e.play import TURN, latest_table, start_game
from tests.fakediscord.model import ChannelType

pytestmark = pytest.mark.e2e
CH = "kingdomino"


async def _record(bot, fake, channel=CH):
    return await bot.store.get_active_game(fake.channel(channel).id)


async def _thread(fake, name):
    thread = fake._add_channel(
        name,
        ChannelType.PUBLIC_THREAD,
        parent_id=fake.kingdomino.id,
        owner_id=fake.carol.id,
        auto_archive_duration=1440,
        thread_member_ids={fake.alice.id, fake.bob.id, fake.carol.id},
    )
    await fake.dispatch("THREAD_CREATE", {**fake._channel_payload(thread), "newly_created": True})
    return thread


async def test_reminders_carry_the_link_and_the_button(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2, reminder_hours=1.0)
    rec = await _record(bot, fake)
    absent = rec.game.decision().player
    start = utcnow()
    bot.service.clock = lambda: start + timedelta(hours=1.5)
    assert await bot.service.timers.run_due() == 1
    reminder = fake.last_message(CH)
    assert f"<@{absent}>, reminder" in reminder.content
    assert f"https://discord.com/channels/{fake.guild_id}/{rec.channel_id}/{latest_table(fake, CH).id}" in (
        reminder.content
    )
    assert TURN in reminder.button_labels
    panel = await (await fake.click(fake.user(int(absent)), reminder, TURN)).wait_message()
    assert panel.ephemeral and "Your turn" in panel.content


async def test_games_elsewhere_and_game_mine_across_three_channels(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    thread = await _thread(fake, "duel")
    await start_game(fake, fake.bob, thread.name, [fake.alice], game="queendomino", players=2)
    other = await _thread(fake, "third")
    await start_game(fake, fake.alice, other.name, [fake.carol], game="kingdomino", players=2)
    # In #general there is no game: Alice is told where hers are, with links, instead of "no game here".
    reply = await (await fake.slash(fake.alice, "general", "play", "panel")).wait_message()
    assert reply.ephemeral and "Your games in this server" in reply.content
    assert reply.content.count("https://discord.com/channels/") == 3
    nobody = await (await fake.slash(fake.dave, "general", "look", "table")).wait_message()
    assert "There is no game in this channel" in nobody.content and "Your games" not in nobody.content
    # /game mine lists all three, the games where it is her turn first.
    mine = await (await fake.slash(fake.alice, "general", "game", "mine")).wait_message()
    lines = mine.content.splitlines()[1:]
    assert len(lines) == 3 and all("https://discord.com/channels/" in line for line in lines)
    turns = [("your turn" in line) for line in lines]
    assert turns == sorted(turns, reverse=True), "her turns first"
    for channel in (CH, thread.name, other.name):
        assert f"<#{fake.channel(channel).id}>" in mine.content


async def test_direct_message_notifications_and_their_fallback(fake, bot):
    reply = await (await fake.slash(fake.bob, "general", "settings", "notify", options={"how": "dm"})).wait_message()
    assert "direct message" in reply.content
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    import random

    from tests.e2e.play import play_turn

    rng = random.Random(1)
    while (rec := await _record(bot, fake)).game.decision().player != str(fake.bob.id):
        await play_turn(fake, people[rec.game.decision().player], CH, rng)
    await fake.settle()
    dms = fake.messages_in(fake.dm_channel(fake.bob))
    assert dms and "It's your turn" in dms[-1].content and TURN in dms[-1].button_labels
    assert latest_table(fake, CH).content.count(f"<@{fake.bob.id}>") == 1
    posted = fake.requests_to("POST", rf"/channels/{fake.channel(CH).id}/messages$")[-1]
    assert not posted.json["allowed_mentions"].get("users"), "the channel mention does not ping a DM-only player"
    count = len(dms)
    # Bob plays his turn through the DM's button: one DM per turn, never for the steps of a turn.
    while (rec := await _record(bot, fake)).game.decision().player == str(fake.bob.id):
        await play_turn(fake, fake.bob, CH, rng)
    assert len(fake.messages_in(fake.dm_channel(fake.bob))) == count
    # Bob closes his DMs: the next turn falls back to a ping in the channel, once, that says nothing about his DMs;
    # he alone is told why, on his next click.
    fake.close_dms(fake.bob)
    while (rec := await _record(bot, fake)).game.decision().player != str(fake.bob.id):
        await play_turn(fake, people[rec.game.decision().player], CH, rng)
    await bot.service.idle()
    fallback = [m for m in fake.messages_in(CH) if f"<@{fake.bob.id}>, it's your turn in Kingdomino" in m.content]
    assert len(fallback) == 1 and TURN in fallback[0].button_labels
    public = [m.content for m in fake.messages_in(CH) if not m.ephemeral]
    assert not any("direct message" in text for text in public), "the channel is not told that his DMs are closed"
    look = await fake.slash(fake.bob, CH, "look", "scores")
    answer, note = await look.wait_followups(2)
    assert (
        "Scores so far" in answer.content and note.ephemeral and "could not send you a direct message" in note.content
    )
    again = await fake.slash(fake.bob, CH, "look", "scores")
    await again.wait_followups(1)
    await fake.settle()
    assert len(again.followups) == 1, "told once"
    fake.take_violations()


async def test_quiet_hours_hold_a_reminder(fake, bot):
    await (
        await fake.slash(
            fake.bob,
            "general",
            "settings",
            "notify",
            options={"quiet_from": "00:00", "quiet_to": "23:59", "timezone": "Europe/Prague"},
        )
    ).wait_message()
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2, reminder_hours=1.0)
    rec = await _record(bot, fake)
    if rec.game.decision().player != str(fake.bob.id):
        # Make Bob the one to act by playing Alice's first claim.
        from tests.e2e.play import slash_action

        await slash_action(fake, fake.alice, CH, rec.game.legal_actions()[0])
        rec = await _record(bot, fake)
    assert rec.game.decision().player == str(fake.bob.id)
    start = utcnow()
    bot.service.clock = lambda: start + timedelta(hours=1.5)
    before = len(fake.messages_in(CH))
    await bot.service.timers.run_due()
    assert len(fake.messages_in(CH)) == before, "no reminder in quiet hours"
    held = await _record(bot, fake)
    assert held.next_reminder_at is not None and held.next_reminder_at > start + timedelta(hours=1.5)
    bad = await (
        await fake.slash(fake.bob, "general", "settings", "notify", options={"timezone": "Mars/Base"})
    ).wait_message()
    assert "time zone" in bad.content.lower()
