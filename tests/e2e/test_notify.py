"""Telling a person it is their turn, through the fake Discord: direct messages that never hold a game, a notification
lost in a crash sent again once, closed DMs, quiet hours, ping loops, reminders that say so, old DM buttons, and the
table's text kept whole after a long posting failure."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cogs.decide import utcnow
from engine import Claim, cell_name
from tests.e2e.play import TURN, latest_table, open_lobby, play_game, slash_action, start_game
from tests.fakediscord.model import Perm

pytestmark = pytest.mark.e2e
CH = "kingdomino"
DM_ROUTE = "/users/@me/channels"


async def _record(bot, fake):
    return await bot.store.get_active_game(fake.channel(CH).id)


async def _notify(fake, user, **options) -> None:
    reply = await fake.slash(user, "general", "settings", "notify", options=options)
    await reply.wait_message()


async def _until_turn_of(bot, fake, user, people) -> None:
    """Play first legal actions until it is `user`'s turn."""
    while (rec := await _record(bot, fake)).game.decision().player != str(user.id):
        await slash_action(fake, people[rec.game.decision().player], CH, rec.game.legal_actions()[0])


async def _until_undoable_turn_of(bot, fake, user, people) -> None:
    """Play first legal actions until it is `user`'s turn and playing it (first legal actions) reveals nothing hidden
    (no line drawn, no building from the stack): a turn that can be taken back (cogs.service.undo_plan)."""
    while True:
        await _until_turn_of(bot, fake, user, people)
        trial = (await _record(bot, fake)).game.clone()
        before = trial.draw_position
        while not trial.is_over and trial.decision().player == str(user.id):
            trial.apply(trial.legal_actions()[0], by=str(user.id))
        while (
            not trial.is_over and trial.decision().kind in ("claim", "first_claim") and len(trial.legal_actions()) == 1
        ):
            trial.apply(trial.legal_actions()[0], by=trial.decision().player)  # the service's forced last claim
        if trial.draw_position == before:
            return
        while (rec := await _record(bot, fake)).game.decision().player == str(user.id):
            await slash_action(fake, user, CH, rec.game.legal_actions()[0])


async def _pass_the_turn(bot, fake, people, mover, to) -> None:
    """`mover` plays until it is `to`'s turn."""
    while (rec := await _record(bot, fake)).game.decision().player == str(mover.id):
        await slash_action(fake, mover, CH, rec.game.legal_actions()[0])
    assert rec.game.decision().player == str(to.id)


async def _play_until_passed(bot, fake, mover, stop=lambda: False) -> str:
    """`mover` plays first legal actions by slash command until the turn passes (or `stop()`, e.g. the bot died);
    returns the last answer."""
    text = ""
    while True:
        rec = await _record(bot, fake)
        if rec.game.decision().player != str(mover.id):
            return text
        action = rec.game.legal_actions()[0]
        if isinstance(action, Claim):
            names, options = ("claim",), {"domino": action.domino}
        else:
            names, options = ("place",), {"cell": cell_name(action.row, action.col), "direction": action.direction}
        reply = await fake.slash(mover, CH, "play", *names, options=options)
        await fake.wait_until(lambda r=reply: any(m.content for m in r.messages) or stop(), what="the answer")
        if stop():
            return text
        text = next(m.content for m in reply.messages if m.content)


def _pinged(fake, user, mark: int = 0) -> list:
    """Requests after `mark` whose allowed mentions ping `user`."""
    return [
        r
        for r in fake.requests[mark:]
        if r.method == "POST"
        and isinstance(r.json, dict)
        and user.id in [int(u) for u in (r.json.get("allowed_mentions") or {}).get("users", [])]
    ]


def _dms(fake, user) -> list:
    try:
        return fake.messages_in(fake.dm_channel(user))
    except LookupError:  # the bot never opened one
        return []


async def test_a_rate_limited_direct_message_holds_neither_the_move_nor_a_cancel(fake, bot):
    await _notify(fake, fake.bob, how="dm")
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    await _until_turn_of(bot, fake, fake.alice, people)
    rec = await _record(bot, fake)
    # Opening Bob's DM is rate limited for 12 s: discord.py waits that out before it tries again.
    fake.faults.rate_limit("POST", DM_ROUTE, retry_after=12.0)
    answer = await _play_until_passed(bot, fake, fake.alice)  # each answer within 2 s, else it fails here
    assert "Done" in answer, answer
    await fake.wait_until(lambda: fake.faults.injected, what="the DM's 429")
    cancel = await (await fake.slash(fake.alice, CH, "game", "cancel")).wait_message()
    assert "cancelled" in cancel.content
    # Both were answered while the DM still waits for its retry: one attempt so far, nothing sent yet.
    assert len(fake.requests_to("POST", DM_ROUTE)) == 1 and not _dms(fake, fake.bob)
    assert (await bot.store.get_game(rec.id)).status == "cancelled"


async def test_a_crash_while_opening_the_direct_message_sends_it_again_once(fake, harness, bot):
    await _notify(fake, fake.bob, how="dm")
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    await _until_turn_of(bot, fake, fake.alice, people)
    await bot.service.idle()
    before = len(_dms(fake, fake.bob))
    # The process dies as it opens Bob's DM: the table is posted, the DM claimed, never sent.
    fake.faults.drop_connection("POST", DM_ROUTE, on_hit=harness.stop)
    await _play_until_passed(bot, fake, fake.alice, stop=lambda: bool(fake.faults.injected))
    await fake.wait_until(lambda: harness.bot is None or harness.bot.is_closed())
    assert fake.faults.injected and len(_dms(fake, fake.bob)) == before
    harness.take_logged_errors()
    new_bot = await harness.restart()  # its start-up repair pass sends it again
    await fake.wait_until(lambda: len(_dms(fake, fake.bob)) == before + 1, timeout=10, what="the DM sent again")
    dm = _dms(fake, fake.bob)[-1]
    assert "It's your turn" in dm.content and TURN in dm.button_labels
    await new_bot.service.timers.repair_tables(grace=0)
    await new_bot.service.idle()
    await fake.settle()
    assert len(_dms(fake, fake.bob)) == before + 1, "once"
    fake.take_violations()


async def test_both_with_closed_direct_messages_still_gets_every_reminder_in_the_channel(fake, bot):
    await _notify(fake, fake.bob, how="both")
    fake.close_dms(fake.bob)
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2, reminder_hours=1.0)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    await _until_turn_of(bot, fake, fake.bob, people)
    await bot.service.idle()
    start = utcnow()
    for hours in range(1, 5):
        bot.service.clock = lambda h=hours: start + timedelta(hours=h + 0.5)
        assert await bot.service.timers.run_due() == 1
    reminders = [m for m in fake.messages_in(CH) if f"<@{fake.bob.id}>, reminder" in m.content]
    assert len(reminders) == 4, [m.content for m in fake.messages_in(CH)][-6:]
    public = [m.content for m in fake.messages_in(CH) if not m.ephemeral]
    assert not any("direct message" in text for text in public), "his closed DMs are his business"
    fake.take_violations()


async def test_quiet_hours_hold_every_notification_until_they_end(fake, bot):
    night = datetime(2026, 11, 25, 23, 0, tzinfo=UTC)
    bot.service.clock = lambda: night
    await _notify(fake, fake.bob, how="both", quiet_from="22:00", quiet_to="7:00", timezone="Europe/London")
    mark = fake.mark()
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    await _until_turn_of(bot, fake, fake.bob, people)
    await bot.service.idle()
    await fake.settle()
    assert not _dms(fake, fake.bob), "no direct message at night"
    assert not _pinged(fake, fake.bob, mark), "no ping at night"
    assert f"<@{fake.bob.id}>, it's your turn" in latest_table(fake, CH).content, "the table still names him"
    rec = await _record(bot, fake)
    assert rec.next_reminder_at == datetime(2026, 11, 26, 7, 0, tzinfo=UTC)
    # Morning: one notification, the turn's (not a reminder), by his choice (both: a DM and a ping); then no more.
    bot.service.clock = lambda: datetime(2026, 11, 26, 7, 1, tzinfo=UTC)
    assert await bot.service.timers.run_due() == 1
    (dm,) = _dms(fake, fake.bob)
    assert dm.content.startswith("🎲 It's your turn") and TURN in dm.button_labels
    (ping,) = _pinged(fake, fake.bob, mark)
    assert "reminder" not in ping.json["content"]
    bot.service.clock = lambda: datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
    assert await bot.service.timers.run_due() == 0
    assert len(_dms(fake, fake.bob)) == 1 and len(_pinged(fake, fake.bob, mark)) == 1


async def test_a_move_undo_loop_pings_the_other_player_once(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    await _until_undoable_turn_of(bot, fake, fake.alice, people)
    await bot.service.idle()
    mark = fake.mark()
    for _ in range(4):
        await _pass_the_turn(bot, fake, people, fake.alice, fake.bob)
        await fake.settle()
        assert f"<@{fake.bob.id}>, it's your turn" in latest_table(fake, CH).content, "the table names him"
        reply = await fake.slash(fake.alice, CH, "play", "undo")
        assert "taken back" in (await reply.wait_message()).content.lower()
        await fake.settle()
    assert len(_pinged(fake, fake.bob, mark)) == 1


async def test_a_reminder_says_so_and_old_direct_messages_lose_their_button(fake, bot):
    await _notify(fake, fake.bob, how="dm")
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2, reminder_hours=1.0)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    await _until_turn_of(bot, fake, fake.bob, people)
    await bot.service.idle()
    turn = _dms(fake, fake.bob)[-1]
    start = utcnow()
    bot.service.clock = lambda: start + timedelta(hours=1.5)
    assert await bot.service.timers.run_due() == 1
    reminder = _dms(fake, fake.bob)[-1]
    assert reminder is not turn and reminder.content.startswith("⏳ Reminder: it's still your turn")
    assert turn.content.startswith("🎲 It's your turn") and TURN in reminder.button_labels
    await _pass_the_turn(bot, fake, people, fake.bob, fake.alice)
    await fake.wait_until(
        lambda: all(TURN not in m.button_labels for m in _dms(fake, fake.bob)), what="the old DMs' buttons gone"
    )


async def _deny_posting(bot, fake, people):
    """Alice passes the turn while the bot may not post in the channel, then takes her move back."""
    await _until_undoable_turn_of(bot, fake, fake.alice, people)
    channel = fake.channel(CH)
    denied = {"id": fake.bot_user.id, "type": 1, "allow": 0, "deny": int(Perm.SEND_MESSAGES)}
    channel.overwrites.append(denied)  # a moderator takes Send Messages away
    assert "saved" in await _play_until_passed(bot, fake, fake.alice)
    undo = await (await fake.slash(fake.alice, CH, "play", "undo")).wait_message()
    assert (await _record(bot, fake)).game.decision().player == str(fake.alice.id), undo.content
    return undo, lambda: channel.overwrites.remove(denied)


async def test_an_undo_whose_table_cannot_be_posted_says_it_is_done(fake, harness, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    undo, _ = await _deny_posting(bot, fake, {str(u.id): u for u in (fake.alice, fake.bob)})
    assert undo.ephemeral and undo.content.startswith("↩️ Taken back."), undo.content
    assert "I cannot post the table" in undo.content, "and why the table is not there yet"
    fake.take_violations()
    harness.take_logged_errors()


async def test_a_long_posting_failure_leaves_one_repair_note_and_the_turn_line(fake, harness, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    _, allow = await _deny_posting(bot, fake, {str(u.id): u for u in (fake.alice, fake.bob)})
    for _ in range(6):
        assert await bot.service.timers.repair_tables(grace=0) == 0
    allow()
    assert await bot.service.timers.repair_tables(grace=0) == 1
    table = latest_table(fake, CH).content
    lines = table.splitlines()
    assert table.count("🔁 The table again") == 1, table
    assert any(f"<@{fake.alice.id}>, it's your turn" in line for line in lines) and lines[-1].startswith("Scores:")
    assert len(lines) <= 8
    fake.take_violations()
    harness.take_logged_errors()


async def test_every_table_of_a_royal_wedding_for_eight_has_at_most_eight_lines(fake, bot):
    bot.service.story_at_end = False  # the replay and the chart of the end are not the subject (slow to draw)
    lobby = await open_lobby(
        fake, fake.alice, CH, game="royal-wedding", players=8, teams=True, computers=7, computer_level="easy"
    )
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await play_game(fake, bot, CH, {str(fake.alice.id): fake.alice}, seed=3)
    tables = [m for m in fake.messages_in(CH) if any(a.filename == "table.png" for a in m.attachments)]
    assert len(tables) > 10 and "final table" in tables[-1].content
    for table in tables:
        lines = table.content.splitlines()
        assert len(lines) <= 8, table.content
        assert not any("knights in reserve" in line for line in lines), "the economy is in the picture and /look"
    # Every turn table names the player to act and ends with the scores.
    for table in tables[:-1]:
        assert "it's your turn" in table.content and table.content.splitlines()[-1].startswith("Scores")
    scores = await (await fake.slash(fake.alice, CH, "look", "scores")).wait_message()
    assert "knights in reserve" in scores.content, "the economy is one look away"


async def test_the_final_table_of_seven_kingdoms_keeps_every_breakdown_within_eight_lines(fake, bot):
    bot.service.story_at_end = False  # the replay and the chart of the end are not the subject (slow to draw)
    lobby = await open_lobby(fake, fake.alice, CH, game="royal-wedding", players=7, computers=6, computer_level="easy")
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await play_game(fake, bot, CH, {str(fake.alice.id): fake.alice}, seed=5)
    final = [m for m in fake.messages_in(CH) if any(a.filename == "table.png" for a in m.attachments)][-1]
    lines = final.content.splitlines()
    assert "final table" in lines[0] and len(lines) <= 8, final.content
    for n in range(1, 7):  # every kingdom's breakdown is there, packed two or three to a line
        assert f"Bot {n} (easy)" in final.content


async def test_rematch_is_the_players_button_and_a_watcher_joins_its_table(fake, bot):
    # As the README says: the players take their seat with Rematch; someone who watched is refused with the way in.
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    await play_game(fake, bot, CH, {str(u.id): u for u in (fake.alice, fake.bob)}, seed=4)
    final = latest_table(fake, CH)
    early = await (await fake.click(fake.carol, final, "Rematch")).wait_message()
    assert early.ephemeral and "Only the players of that game" in early.content and "/game new" in early.content
    assert "Your table is open" in (await (await fake.click(fake.bob, final, "Rematch")).wait_message()).content
    told = await (await fake.click(fake.carol, final, "Rematch")).wait_message()
    assert told.ephemeral and "take a seat with its **Join** button" in told.content
    await fake.settle()
    lobby = fake.last_message(CH)
    assert "Rematch of game" in lobby.content
    joined = await (await fake.click(fake.carol, lobby, "Join")).wait_message()
    assert "joined" in joined.content
    rec = await _record(bot, fake)
    assert [s.user_id for s in rec.seats] == [fake.bob.id, fake.carol.id]


async def test_a_cancel_takes_the_button_off_the_turn_direct_message(fake, bot):
    await _notify(fake, fake.bob, how="dm")
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    await _until_turn_of(bot, fake, fake.bob, people)
    await bot.service.idle()
    (dm,) = _dms(fake, fake.bob)
    assert TURN in dm.button_labels
    await (await fake.slash(fake.alice, CH, "game", "cancel")).wait_message()
    await fake.wait_until(lambda: TURN not in fake.message(dm.id).button_labels, what="the DM's button gone")


async def test_the_direct_message_loses_its_button_after_a_restart_too(fake, harness, bot):
    await _notify(fake, fake.bob, how="dm")
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    await _until_turn_of(bot, fake, fake.bob, people)
    await bot.service.idle()
    (dm,) = _dms(fake, fake.bob)
    new_bot = await harness.restart()  # the new process never sent that DM: the store remembers it
    await _play_until_passed(new_bot, fake, fake.bob)
    await fake.wait_until(lambda: TURN not in fake.message(dm.id).button_labels, what="the DM's button gone")
