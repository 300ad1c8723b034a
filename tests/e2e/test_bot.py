"""The bot's behaviour around the games: restarts, simultaneous clicks, refusals, typing, timers, looking, stats."""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Callable
from datetime import timedelta

import pytest

from cogs.decide import utcnow
from engine import Build, Skip
from tests.e2e.play import (
    TURN,
    latest_table,
    open_lobby,
    play_game,
    play_turn,
    select_panel,
    slash_action,
    start_game,
)

pytestmark = pytest.mark.e2e
CH = "kingdomino"


async def _record(bot, fake, channel=CH):
    return await bot.store.get_active_game(fake.channel(channel).id)


async def _panel(fake, user, channel=CH):
    reply = await fake.click(user, latest_table(fake, channel), TURN)
    return await reply.wait_message()


async def _private(reply):
    message = await reply.wait_message()
    assert message.ephemeral, "a refusal or a look is private"
    return message.content


# -- restarts -------------------------------------------------------------------------------------------------
async def test_restart_mid_game_old_buttons_still_work(fake, harness, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    rng = random.Random(7)
    for _ in range(6):
        rec = await _record(bot, fake)
        await play_turn(fake, people[rec.game.decision().player], CH, rng)
    rec = await _record(bot, fake)
    player = people[rec.game.decision().player]
    panel = await _panel(fake, player)  # a private panel made by the first process
    table_before = latest_table(fake, CH)

    new_bot = await harness.restart()
    assert new_bot is not bot
    after = await _record(new_bot, fake)
    assert after.version == rec.version and after.game.to_dict() == rec.game.to_dict()

    # The panel's select, sent before the restart, still works in the new process.
    options = panel.selects[0]["options"] if panel.selects else None
    if options:
        panel = await select_panel(fake, player, panel, 0, options[0]["value"])
        assert "which way does the second square" in panel.content or "Preview:" in panel.content
    # So does the table's button.
    reply = await fake.click(player, table_before, TURN)
    assert "Your turn" in (await reply.wait_message()).content
    await play_game(fake, new_bot, CH, people, seed=8)
    assert (await new_bot.store.list_games(channel_id=fake.channel(CH).id, limit=1))[0].status == "finished"


# -- concurrency ----------------------------------------------------------------------------------------------
async def test_two_clicks_at_once_apply_one_move(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    rec = await _record(bot, fake)
    player = fake.alice if rec.game.decision().player == str(fake.alice.id) else fake.bob
    first = await _panel(fake, player)
    second = await _panel(fake, player)
    target = first.buttons[0]["custom_id"]
    assert target == second.buttons[0]["custom_id"]
    replies = await asyncio.gather(fake.click(player, first, target), fake.click(player, second, target))
    for _ in range(200):  # the applied click may still be on its way under load
        if (await _record(bot, fake)).version != rec.version and any(r.followups for r in replies):
            break
        await asyncio.sleep(0.05)
    await fake.settle()
    after = await _record(bot, fake)
    assert after.version == rec.version + 1, "exactly one of the two clicks was applied"
    assert len(await bot.store.get_actions(rec.id)) == 1
    texts = [m.content for r in replies for m in r.followups]
    assert any("The table changed" in t for t in texts), texts


async def test_two_people_join_at_once_both_get_seats(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="queendomino", players=4)
    replies = await asyncio.gather(fake.click(fake.bob, lobby, "Join"), fake.click(fake.carol, lobby, "Join"))
    for reply in replies:
        assert "You joined" in (await reply.wait_message()).content
    rec = await _record(bot, fake)
    assert {s.display_name for s in rec.seats} >= {"bob", "carol"} or len(rec.seats) == 3
    assert len(rec.seats) == 3


# -- refusals -------------------------------------------------------------------------------------------------
async def test_refusals_are_private_specific_and_change_nothing(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    rec = await _record(bot, fake)
    acting = fake.alice if rec.game.decision().player == str(fake.alice.id) else fake.bob
    waiting = fake.bob if acting is fake.alice else fake.alice
    table = latest_table(fake, CH)

    text = await _private(await fake.click(waiting, table, TURN))
    assert text.lower().startswith(f"it's {acting.name}'s turn: they must choose a domino")
    text = await _private(await fake.click(fake.carol, table, TURN))
    assert "You are not playing in this game" in text
    text = await _private(await fake.slash(acting, CH, "play", "place", options={"cell": "A1", "direction": "right"}))
    assert "must choose a domino" in text or "not" in text
    text = await _private(await fake.slash(acting, CH, "play", "claim", options={"domino": "99"}))
    assert "That domino is not in the line: choose a free one (" in text
    text = await _private(await fake.slash(acting, CH, "play", "skip"))
    assert text == "That step cannot be skipped: you must choose a domino of the first line for your king."
    # A second game in a busy channel points at the running one.
    text = await _private(await fake.slash(fake.carol, CH, "game", "new", options={"game": "kingdomino"}))
    assert "already has a game" in text and "discord.com/channels" in text
    # Impossible options are refused before anything is created.
    text = await _private(
        await fake.slash(fake.carol, "general", "game", "new", options={"game": "queendomino", "mighty_duel": True})
    )
    assert "Mighty Duel" in text
    text = await _private(
        await fake.slash(
            fake.carol, "general", "game", "new", options={"game": "kingdomino", "players": 5}, client_checks=False
        )
    )
    assert "2-4 players, not 5" in text
    assert (await _record(bot, fake, "general")) is None
    after = await _record(bot, fake)
    assert after.version == rec.version and after.game.to_dict() == rec.game.to_dict()


async def test_illegal_placement_and_wrong_phase_by_typing(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="queendomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    rng = random.Random(1)
    while (rec := await _record(bot, fake)).game.decision().kind != "place":
        await play_turn(fake, people[rec.game.decision().player], CH, rng)
    user = people[rec.game.decision().player]
    text = await _private(await fake.slash(user, CH, "play", "place", options={"cell": "A1", "direction": "right"}))
    # Spoken to the person, without echoing command syntax.
    assert text == "That spot is not connected to the castle or to a square of the same terrain."
    text = await _private(await fake.slash(user, CH, "play", "build", options={"building": "0", "cell": "G7"}))
    assert text.startswith("You must place domino ") and text.endswith(" first.")
    text = await _private(await fake.slash(user, CH, "play", "place", options={"cell": "zz", "direction": "right"}))
    assert "Cannot read cell" in text
    after = await _record(bot, fake)
    assert after.version == rec.version


async def test_missing_coins_is_refused(fake, bot):
    # Three players have one king each, so every build decision comes back to this loop.
    await start_game(fake, fake.alice, CH, [fake.bob, fake.carol], game="queendomino", players=3)
    people = {str(u.id): u for u in (fake.alice, fake.bob, fake.carol)}
    rng = random.Random(2)
    for _ in range(200):
        rec = await _record(bot, fake)
        assert rec is not None, "the game ended before a build decision with an unaffordable building"
        game = rec.game
        d = game.decision()
        k = game.kingdoms[d.kingdom]
        if d.kind == "build":
            pricey = [s for s, b in enumerate(game.board) if b and game.cost_of(s, d.kingdom) > k.coins]
            if pricey:
                r, c = k.free_town_cells()[0]
                from engine import cell_name

                slot = pricey[0]
                text = await _private(
                    await fake.slash(
                        people[d.player], CH, "play", "build", options={"building": str(slot), "cell": cell_name(r, c)}
                    )
                )
                assert text == f"You need {game.cost_of(slot, d.kingdom)} coins, you have {k.coins}."
                assert (await _record(bot, fake)).version == rec.version
                return
        # Steer toward the situation: never collect tax, always buy the dearest building one can afford.
        legal = game.legal_actions()
        builds = [a for a in legal if isinstance(a, Build)]
        if d.kind == "build" and builds:
            action = min(builds, key=lambda a: a.slot)
        elif d.kind in ("tax", "dragon"):
            action = Skip()
        else:
            action = rng.choice(legal)
        await slash_action(fake, people[d.player], CH, action)
    pytest.fail("no build decision with an unaffordable building came up")


async def test_stale_panel_after_the_move_was_made_by_typing(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    rec = await _record(bot, fake)
    d = rec.game.decision()
    user = fake.alice if d.player == str(fake.alice.id) else fake.bob
    panel = await _panel(fake, user)
    free = [a.domino for a in rec.game.legal_actions()]
    await (await fake.slash(user, CH, "play", "claim", options={"domino": free[-1]})).wait_message()
    reply = await fake.click(user, panel, panel.buttons[0]["custom_id"])
    # Wait for the answer itself, not for a quiet moment: under load the bot can pause longer than any quiet period.
    await fake.wait_until(
        lambda: any("The table changed" in m.content for m in reply.followups), what="the stale panel's answer"
    )


async def test_a_click_on_a_table_replaced_meanwhile_is_answered(fake, bot):
    """A person clicks the table's buttons just as the bot posts the next table and takes them off this one: Discord
    still delivers the click, with the message as it is now (without the button). discord.py runs a dynamic item
    only when the clicked button is on the message, so the click was dropped without a word ("The application did
    not respond", the fake's "no response"). The bot answers it: the table is out of date."""
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    old = latest_table(fake, CH)
    turn = old.component(TURN)["custom_id"]
    look = next(c["custom_id"] for c in old.walk_components() if c.get("custom_id", "").startswith("kd:look:"))
    rng = random.Random(5)
    while latest_table(fake, CH).id == old.id:
        rec = await _record(bot, fake)
        await play_turn(fake, people[rec.game.decision().player], CH, rng)
        await fake.settle()
    assert not fake.message(old.id).buttons, "a newer table takes the buttons off the old one"
    for custom_id in (turn, look):
        reply = await fake.click(fake.alice, old, custom_id, client_checks=False)
        assert "This table is out of date" in await _private(reply)


async def test_host_and_manage_channels_rules(fake, bot):
    lobby = await open_lobby(fake, fake.bob, CH, game="kingdomino", players=2)
    await (await fake.click(fake.carol, lobby, "Join")).wait_message()
    assert "Only the host" in await _private(await fake.click(fake.carol, lobby, "Start"))
    assert "Only the host or a member with Manage Channels" in await _private(
        await fake.click(fake.carol, lobby, "Cancel")
    )
    assert "The game is cancelled" in await _private(await fake.click(fake.alice, lobby, "Cancel"))  # Manage Channels
    assert (await _record(bot, fake)) is None
    # the public line follows the private answer
    await fake.wait_until(lambda: "cancelled by" in fake.last_message(CH).content, what="the public cancel line")


async def test_swapping_seats_refuses_a_player_who_left_and_changes_nothing(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="royal-wedding", players=6, teams=True)
    await (await fake.click(fake.bob, lobby, "Join")).wait_message()
    swap = fake.message(lobby.id).component("Swap two seats to arrange teams (host only)", types=(3,))
    await (await fake.click(fake.bob, lobby, "Leave")).wait_message()
    await (await fake.click(fake.carol, lobby, "Join")).wait_message()
    before = await _record(bot, fake)
    # A client still showing the old list sends Bob, who has left.
    reply = await fake.select(
        fake.alice, lobby, swap["custom_id"], [str(fake.alice.id), str(fake.bob.id)], client_checks=False
    )
    assert "has left the table" in await _private(reply)
    after = await _record(bot, fake)
    assert (after.version, after.seats) == (before.version, before.seats)


async def test_not_enough_players_to_start(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="queendomino", players=3)
    text = await _private(await fake.click(fake.alice, lobby, "Start"))
    assert "cannot start yet" in text and "2-4 players, not 1" in text


async def test_missing_channel_permission_is_named(fake, bot):
    reply = await fake.slash(fake.alice, "announcements", "game", "new", options={"game": "kingdomino"})
    text = await _private(reply)
    assert "missing permissions" in text and "Send Messages" in text


async def test_unexpected_error_gets_an_apology_and_is_logged(fake, harness, bot, monkeypatch):
    look = sys.modules["cogs.looks"]  # the looks the running bot's buttons and commands answer with

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(look, "history_lines", broken)
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    text = await _private(await fake.click(fake.bob, latest_table(fake, CH), "History"))
    assert text.startswith("Sorry, something went wrong")
    errors = harness.take_logged_errors()
    assert any("boom" in e or "failed" in e for e in errors)
    # A picture that cannot be drawn is no surprise: the answer goes out in text, and the failure is logged.
    monkeypatch.setattr(look, "render_remaining", broken)
    text = await _private(await fake.click(fake.bob, latest_table(fake, CH), "To come"))
    assert "not seen yet" in text
    harness.take_logged_errors()  # logged with its traceback the first time in this process, briefly after


# -- typing -----------------------------------------------------------------------------------------------------
async def test_whole_game_by_slash_commands_with_autocomplete(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    for _ in range(200):
        rec = await _record(bot, fake)
        if rec is None:
            break
        d = rec.game.decision()
        user = people[d.player]
        if d.kind == "place":
            cells = await fake.autocomplete(user, CH, "play", "place", focused="cell")
            assert cells and len(cells) <= 25
            cell = cells[0]["value"]
            dirs = await fake.autocomplete(user, CH, "play", "place", focused="direction", options={"cell": cell})
            assert dirs, cell
            reply = await fake.slash(user, CH, "play", "place", options={"cell": cell, "direction": dirs[0]["value"]})
        else:
            choices = await fake.autocomplete(user, CH, "play", "claim", focused="domino")
            legal = {a.domino for a in rec.game.legal_actions()}
            assert {c["value"] for c in choices} == legal
            reply = await fake.slash(user, CH, "play", "claim", options={"domino": choices[0]["value"]})
        await reply.wait_message()
        await fake.settle()
    assert (await bot.store.list_games(channel_id=fake.channel(CH).id, limit=1))[0].status == "finished"
    # Someone not on turn is offered nothing.
    assert await fake.autocomplete(fake.carol, CH, "play", "claim", focused="domino") == []


# -- timers -----------------------------------------------------------------------------------------------------
async def test_reminder_then_deadline_plays_for_the_absent_player(fake, harness, bot):
    await start_game(
        fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2, reminder_hours=1.0, deadline_hours=3.0
    )
    rec = await _record(bot, fake)
    absent = rec.game.decision().player
    start = utcnow()
    bot.service.clock = lambda: start + timedelta(hours=1.5)
    assert await bot.service.timers.run_due() == 1
    assert f"<@{absent}>, reminder: it's your turn" in fake.last_message(CH).content
    assert (await _record(bot, fake)).version == rec.version

    # A restart keeps the deadline: the new process plays for the absent player.
    new_bot = await harness.restart()
    new_bot.service.clock = lambda: start + timedelta(hours=3.5)
    await new_bot.service.timers.run_due()  # (or the new process's own timer pass, if it runs first: the same, once)
    await fake.wait_until(lambda: "time ran out" in latest_table(fake, CH).content)
    after = await _record(new_bot, fake)
    assert after.version > rec.version
    assert "time ran out: the computer played their turn" in latest_table(fake, CH).content
    actions = await new_bot.store.get_actions(rec.id)
    assert actions[0].player_id == absent and actions[0].user_id is None


# -- looking, stats, rematch -----------------------------------------------------------------------------------
async def test_looks_stats_and_rematch(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2, middle_kingdom=True)
    table = latest_table(fake, CH)
    reply = await fake.click(fake.carol, table, "Scores")
    assert "Scores so far" in await _private(reply)
    # The latest table each time: on a busy machine the bot's timer may have re-posted it meanwhile (grace 10 s).
    reply = await fake.click(fake.bob, latest_table(fake, CH), "My kingdom")
    message = await reply.wait_message()
    assert "kingdom" in message.content and message.attachments[0].image().size[0] > 300
    assert message.attachments[0].description, "the picture is described for screen readers"
    text = await _private(await fake.slash(fake.bob, CH, "look", "kingdom", options={"text": True}))
    assert "```" in text and "legend" in text.lower()
    message = await (await fake.click(fake.bob, latest_table(fake, CH), "To come")).wait_message()
    assert "not seen yet" in message.content and message.attachments
    message = await (await fake.slash(fake.carol, CH, "look", "kingdom", options={"player": fake.alice})).wait_message()
    assert "alice" in message.content.lower()
    message = await (await fake.slash(fake.carol, CH, "look", "table")).wait_message()
    assert message.attachments[0].image().size[0] >= 1000
    assert "Kingdomino in short" in await _private(await fake.slash(fake.carol, CH, "rules"))

    await play_game(fake, bot, CH, {str(u.id): u for u in (fake.alice, fake.bob)}, seed=11)
    history = await (await fake.slash(fake.carol, CH, "look", "history")).wait_message()
    assert (
        "**Moves " in history.content and " chose domino " in history.content and " placed domino " in history.content
    )
    stats = await (await fake.slash(fake.alice, CH, "stats", "players", options={"player": fake.bob})).wait_message()
    assert "Kingdomino: 1 played" in stats.content
    stats = await (await fake.slash(fake.alice, CH, "stats", "players")).wait_message()
    assert stats.content.count("1 played") == 2

    reply = await fake.click(fake.bob, latest_table(fake, CH), "Rematch")
    assert "Your table is open" in await _private(reply)
    lobby = fake.last_message(CH)
    assert "Rematch" in lobby.content and "Join" in lobby.button_labels
    rec = await _record(bot, fake)
    assert rec.status == "lobby" and len(rec.seats) == 1 and rec.config["variants"] == ["middle-kingdom"]


async def test_admin_sync_is_owner_only(fake, bot):
    text = await _private(await fake.slash(fake.alice, CH, "admin", "sync", options={"scope": "guild"}))
    assert "Only the bot's owner" in text
    reply = await fake.slash(fake.owner, CH, "admin", "sync", options={"scope": "guild"})
    assert "Synced" in (await reply.wait_message()).content


async def test_a_thread_is_a_channel_of_its_own(fake, bot):
    from tests.fakediscord.model import ChannelType

    # Carol opens a thread under #kingdomino (Discord tells the bot with THREAD_CREATE).
    thread = fake._add_channel(
        "duel-thread",
        ChannelType.PUBLIC_THREAD,
        parent_id=fake.kingdomino.id,
        owner_id=fake.carol.id,
        auto_archive_duration=1440,
        thread_member_ids={fake.carol.id, fake.dave.id},
    )
    await fake.dispatch("THREAD_CREATE", {**fake._channel_payload(thread), "newly_created": True})
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    await start_game(fake, fake.carol, thread.name, [fake.dave], game="queendomino", players=2)
    in_channel = await _record(bot, fake, CH)
    in_thread = await _record(bot, fake, thread.name)
    assert in_channel.id != in_thread.id and in_thread.kind == "queendomino"
    rng = random.Random(3)
    people = {str(u.id): u for u in (fake.carol, fake.dave)}
    await play_turn(fake, people[in_thread.game.decision().player], thread.name, rng)
    assert (await _record(bot, fake, thread.name)).version > in_thread.version
    assert (await _record(bot, fake, CH)).version == in_channel.version
    assert "Queendomino" in latest_table(fake, thread.name).content


async def test_table_text_tells_the_whole_turn(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    rng = random.Random(4)
    while (rec := await _record(bot, fake)).game.round == 0:
        await play_turn(fake, people[rec.game.decision().player], CH, rng)
    await play_turn(fake, people[rec.game.decision().player], CH, rng)
    text = latest_table(fake, CH).content
    assert " placed " in text and " chose " in text, text  # placing and claiming, not only the last step


def break_tables(bot, monkeypatch) -> Callable[[], None]:
    """Every table post fails ("Discord is down") until the returned function is called."""
    real_post = bot.service.tables.post_table

    async def broken_post(*args, **kwargs):
        raise RuntimeError("Discord is down")

    monkeypatch.setattr(bot.service.tables, "post_table", broken_post)
    return lambda: monkeypatch.setattr(bot.service.tables, "post_table", real_post)


async def test_failure_after_a_saved_move_is_reported_and_the_table_is_posted_again(fake, harness, bot, monkeypatch):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    old_table = latest_table(fake, CH)
    mend_tables = break_tables(bot, monkeypatch)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    first = (await _record(bot, fake)).game.decision().player
    for _ in range(6):  # the first player's turn (one or two kings), until the turn passes to the other
        before = await _record(bot, fake)
        if before.game.decision().player != first:
            break
        await slash_action(fake, people[first], CH, before.game.legal_actions()[0])
        after = await _record(bot, fake)
        assert after.version == before.version + 1, "the move stands"
    warned = [m for m in fake.messages_in(CH, viewer=people[first]) if "Your move is saved" in m.content]
    assert warned and warned[-1].ephemeral, "the mover is told the table could not be shown"
    harness.take_logged_errors()
    rec = await _record(bot, fake)
    other = rec.game.decision().player
    assert other != first and rec.table_version < rec.version, "the store knows the table on screen is old"

    mend_tables()
    # The table on screen is still the recorded one, so its button keeps working for whoever must act.
    text = await _private(await fake.click(people[other], old_table, TURN))
    assert "Your turn" in text
    # The repair pass posts the table as it stands, once, with the mention of the player to act.
    assert await bot.service.timers.repair_tables(grace=0) == 1
    table = latest_table(fake, CH)
    assert table.id != old_table.id and f"<@{other}>, it's your turn" in table.content
    posted = fake.requests_to("POST", r"/channels/\d+/messages$")[-1]
    assert [int(u) for u in posted.json["allowed_mentions"]["users"]] == [int(other)]
    assert await bot.service.timers.repair_tables(grace=0) == 0, "once"
    assert (await _record(bot, fake)).table_version == rec.version


async def test_a_step_of_a_turn_does_not_count_a_table_left_by_a_failed_post_as_current(
    fake, harness, bot, monkeypatch
):
    """The soak found it: a table that could not be posted leaves the old one on screen, naming the previous player.
    The next player's first step of a turn of several (place, then claim) took that old table as current (it is
    "still their turn"): the store counted it as shown, so no repair pass posted the right one, and nobody was
    pinged. Now the step posts the table, which names them."""
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    mend_tables = break_tables(bot, monkeypatch)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    mover = None
    while True:  # both play, the tables failing, until a player's turn of several steps begins after another's
        rec = await _record(bot, fake)
        d = rec.game.decision()
        if d.kind == "place" and mover is not None and d.player != mover:
            break
        mover = d.player
        await slash_action(fake, people[mover], CH, rec.game.legal_actions()[0])
    harness.take_logged_errors()
    assert rec.table_version < rec.version and f"<@{d.player}>" not in latest_table(fake, CH).content

    mend_tables()
    await slash_action(fake, people[d.player], CH, rec.game.legal_actions()[0])  # the placement: a step of the turn
    rec = await _record(bot, fake)
    assert rec.game.decision().player == d.player, "still their turn (the claim)"
    table = latest_table(fake, CH)
    assert f"<@{d.player}>, it's your turn" in table.content
    assert (rec.table_version, rec.table_message_id) == (rec.version, table.id)


async def test_an_undo_does_not_count_a_table_left_by_a_failed_post_as_current(fake, harness, bot, monkeypatch):
    """The same for an undo of a step of one's own turn: the table on screen stays only if it showed the game."""
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    mend_tables = break_tables(bot, monkeypatch)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    mover = None
    for _ in range(40):  # as above, then the new player's placement too, its table failing
        rec = await _record(bot, fake)
        d = rec.game.decision()
        if d.kind == "claim" and d.player == mover and f"<@{mover}>" not in latest_table(fake, CH).content:
            break  # they placed; the table on screen names the other player
        mover = d.player
        await slash_action(fake, people[mover], CH, rec.game.legal_actions()[0])
    harness.take_logged_errors()
    assert rec.table_version < rec.version and f"<@{mover}>" not in latest_table(fake, CH).content

    mend_tables()
    await (await fake.slash(people[mover], CH, "play", "undo")).wait_message()
    rec = await _record(bot, fake)
    assert rec.game.decision().player == mover and rec.game.decision().kind == "place", "their placement undone"
    table = latest_table(fake, CH)
    assert f"<@{mover}>, it's your turn" in table.content
    assert (rec.table_version, rec.table_message_id) == (rec.version, table.id)


async def test_a_crash_between_saving_and_posting_is_repaired_after_the_restart(fake, harness, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    first = (await _record(bot, fake)).game.decision().player
    # The bot process dies at the moment it posts the next table: after the move is saved.
    fake.faults.drop_connection("POST", "/channels/{channel_id}/messages", on_hit=harness.stop)
    store = bot.store
    for _ in range(6):
        rec = await _record(bot, fake)
        if rec.game.decision().player != first or fake.faults.injected:
            break
        names, options = _slash(rec.game)
        reply = await fake.slash(people[first], CH, "play", *names, options=options)

        def done(r=reply):
            return any(not m.loading and m.content for m in r.messages) or bool(fake.faults.injected)

        await fake.wait_until(done)
    assert store is not None
    await fake.wait_until(lambda: harness.bot is None or harness.bot.is_closed())
    assert fake.faults.injected, "the table post was cut"
    harness.take_logged_errors()
    tables_before = len([m for m in fake.messages_in(CH) if m.attachments])
    mark = fake.mark()

    new_bot = await harness.restart()
    rec = await _record(new_bot, fake)
    other = rec.game.decision().player
    assert other != first
    await fake.wait_until(lambda: (latest_table(fake, CH).content or "").find(f"<@{other}>") >= 0)
    await fake.settle()
    tables = [m for m in fake.messages_in(CH) if m.attachments]
    assert len(tables) == tables_before + 1, "exactly one fresh table after the restart"
    pings = [
        r
        for r in fake.requests[mark:]
        if r.method == "POST"
        and isinstance(r.json, dict)
        and int(other) in [int(u) for u in (r.json.get("allowed_mentions") or {}).get("users", [])]
    ]
    assert len(pings) == 1, "and a single ping"
    fake.take_violations()


def _slash(game):
    """The slash command words and options for the first legal action of the game."""
    from engine import Claim, Place, cell_name

    action = game.legal_actions()[0]
    if isinstance(action, Claim):
        return ("claim",), {"domino": action.domino}
    assert isinstance(action, Place)
    return ("place",), {"cell": cell_name(action.row, action.col), "direction": action.direction}


async def test_the_bot_asks_only_for_server_events_and_gets_no_message_events(fake, bot):
    """The bot identifies with the guilds intent only, so (as on Discord) its own and everyone's messages do not come
    back to it as MESSAGE_CREATE / MESSAGE_UPDATE events; a click and a channel's deletion still do."""
    from tests.fakediscord.wire import GatewaySession

    session = next(s for s in fake.sessions if s.connected)
    before = len(session.events)
    lobby = await open_lobby(fake, fake.bob, CH, game="kingdomino", players=2)
    await (await fake.click(fake.carol, lobby, "Join")).wait_message()
    sent = [event for _, event, _ in list(session.events)[before:]]
    assert "INTERACTION_CREATE" in sent
    assert "MESSAGE_CREATE" not in sent and "MESSAGE_UPDATE" not in sent, sent
    assert session.subscribed("CHANNEL_DELETE", fake.guild_id) and not session.subscribed("MESSAGE_CREATE", None)
    reader = GatewaySession("x", 0, 1, {"intents": 1 << 9})  # GUILD_MESSAGES: guild messages, not DMs
    assert reader.subscribed("MESSAGE_CREATE", fake.guild_id) and not reader.subscribed("MESSAGE_CREATE", None)


@pytest.mark.parametrize("freeze", [True, False])
async def test_a_bot_in_its_own_process_freezes_its_startup_objects_once_ready(fake, bot_settings, freeze):
    """`python bot.py` (and tests/e2e/process_bot.py) build the bot with `freeze_at_ready=True`: at ready, what is
    alive (modules, cogs, command tree, the servers' cache) leaves the garbage collector's scans, so each full
    collection (a pause of the event loop) scans only what the bot made since. Bots built by the test suite itself
    (many in one process) do not freeze."""
    import gc

    from bot import KingdominoBot
    from db import open_store
    from tests.fakediscord import BotRunner

    built = []

    async def build(stack):
        store = await open_store(bot_settings.database_path, bot_settings.database_url)
        stack.push_async_callback(store.close)
        built.append(KingdominoBot(bot_settings, store, guild_ready_timeout=0.01, freeze_at_ready=freeze))
        return built[-1]

    gc.unfreeze()
    runner = BotRunner(fake, build, token=fake.token)
    try:
        await runner.start()
        await fake.settle()
        scanned = gc.get_objects()
        assert (gc.get_freeze_count() > 0) is freeze
        assert any(o is built[0] for o in scanned) is not freeze  # the bot itself is frozen (or not)
        assert built[0].freeze_at_ready is False  # once: a reconnect's READY freezes nothing more
        await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)  # it plays on
        assert latest_table(fake, CH) is not None
    finally:
        del scanned
        gc.unfreeze()  # the test process's objects go back to the collector
        await runner.stop()


async def test_private_panels_are_not_kept_alive_after_they_are_sent(fake, bot):
    """discord.py gives the view of an ephemeral message a 15-minute timeout task, which holds the view and every
    control on it for those 15 minutes. The panels' controls are all DynamicItems (found again from their custom ids
    on each click), so the bot stops each panel's view before sending it: after whole turns of clicking through
    panels no view waits for a timeout, and the panels' buttons still work (the turns were played with them)."""
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    rng = random.Random(3)
    first = latest_table(fake, CH)
    for _ in range(4):
        rec = await _record(bot, fake)
        await play_turn(fake, people[rec.game.decision().player], CH, rng)
        await fake.settle()
    assert latest_table(fake, CH).id != first.id, "the turns were played through the panels"
    panels = [m for m in fake.messages if m.ephemeral and m.buttons]  # private messages with controls
    assert panels, "panels with buttons were sent"
    waiting = [t for t in asyncio.all_tasks() if "timeout_task" in getattr(t.get_coro(), "__qualname__", "")]
    assert waiting == [], f"{len(waiting)} views are kept alive by their timeout"
