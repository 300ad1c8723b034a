"""Undo never shows what was hidden, never reaches past a move by the turn deadline, and works against computer
players (they wait while the mover may take the move back); the panel offers Undo only when it would be done."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cogs.decide import utcnow
from engine import Claim
from tests.e2e.play import latest_table, open_lobby, slash_action, start_game

pytestmark = pytest.mark.e2e
CH = "kingdomino"
UNDO = "Undo my last move"
PLAY_ON = "Computers, play now"


async def _record(bot, fake):
    return await bot.store.get_active_game(fake.channel(CH).id)


def _panel(fake, user):
    """The person's latest private answer."""
    return [m for m in fake.messages_in(CH, viewer=user) if m.ephemeral][-1]


async def test_a_claim_that_draws_the_next_line_cannot_be_taken_back(fake, bot):
    """Kingdomino for 3 with lines of 4: the third king's claim ends the first line and draws the next one. Its
    panel offers no Undo, and `/play undo` is refused, saying why; the two claims before it could be taken back."""
    people = [fake.alice, fake.bob, fake.carol]
    await start_game(fake, fake.alice, CH, people[1:], game="kingdomino", players=3, three_player_four_dominoes=True)
    by_id = {str(u.id): u for u in people}
    for n in range(3):
        rec = await _record(bot, fake)
        d = rec.game.decision()
        assert d.kind == "first_claim"
        mover = by_id[d.player]
        claim = next(a for a in rec.game.legal_actions() if isinstance(a, Claim))
        await slash_action(fake, mover, CH, claim)
        panel = _panel(fake, mover)
        if n < 2:
            assert UNDO in panel.button_labels, "nothing hidden came into view: the claim can be taken back"
            continue
        after = await _record(bot, fake)
        assert after.game.round == 1 and after.game.current_line, "the next line was drawn"
        assert UNDO not in panel.button_labels, "the panel never offers an undo that would be refused"
        refused = await (await fake.slash(mover, CH, "play", "undo")).wait_message()
        assert refused.ephemeral and "new dominoes or buildings came into view" in refused.content
        assert (await _record(bot, fake)).version == after.version, "the refusal changed nothing"


async def test_undo_cannot_reach_past_a_move_made_by_the_deadline(fake, bot):
    """Alice claims; Bob is away and the deadline claims for him (a lone claim, saved without a user, like the
    automatic last claim). Alice's undo is refused: the deadline acted since. The move says who made it."""
    await start_game(
        fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2, reminder_hours=1.0, deadline_hours=3.0
    )
    by_id = {str(u.id): u for u in (fake.alice, fake.bob)}
    while True:  # claims until one person's claim hands the turn to the other one (who has a choice)
        rec = await _record(bot, fake)
        d = rec.game.decision()
        claim = next(a for a in rec.game.legal_actions() if isinstance(a, Claim))
        trial = rec.game.clone()
        trial.apply(claim, by=d.player)
        nxt = trial.decision()
        await slash_action(fake, by_id[d.player], CH, claim)
        if nxt.player != d.player and len(trial.legal_actions()) > 1:
            break
    mover, absent = by_id[d.player], nxt.player
    before = await _record(bot, fake)
    bot.service.clock = lambda: utcnow() + timedelta(hours=3.5)
    await bot.service.timers.run_due()
    await fake.wait_until(lambda: "time ran out" in latest_table(fake, CH).content)
    actions = await bot.store.get_actions(before.id)
    assert actions[-1].player_id == absent and actions[-1].user_id is None
    assert actions[-1].action["made_by"] == "deadline", "the move says the deadline made it"
    after = await _record(bot, fake)
    refused = await (await fake.slash(mover, CH, "play", "undo")).wait_message()
    assert "The turn deadline played for Bob since your last move" in refused.content.replace("bob", "Bob")
    assert (await _record(bot, fake)).version == after.version, "the refusal changed nothing"


async def test_a_claim_with_a_computer_next_can_be_taken_back_while_it_waits(fake, bot):
    """Against a computer: after Alice's claim the computer waits (COMPUTER_DELAY) while her Undo is offered; her
    undo in that window takes the claim back and the computer never plays it. When she lets it play (or the wait
    ends), it answers, and her panel no longer offers the undo it would refuse."""
    lobby = await open_lobby(fake, fake.alice, CH, game="kingdomino", players=2, computers=1, computer_level="easy")
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await fake.settle()
    await bot.service.idle()
    alice = str(fake.alice.id)
    while True:  # Alice's claims until one hands the turn to the computer without drawing a line
        rec = await _record(bot, fake)
        d = rec.game.decision()
        assert d.player == alice
        if d.kind not in ("claim", "first_claim"):
            await slash_action(fake, fake.alice, CH, rec.game.legal_actions()[0])
            continue
        claim = next(a for a in rec.game.legal_actions() if isinstance(a, Claim))
        trial = rec.game.clone()
        trial.apply(claim, by=alice)
        if trial.decision().player != alice and trial.draw_position == rec.game.draw_position:
            break
        await slash_action(fake, fake.alice, CH, claim)
        await bot.service.idle()
    bot.service.computer_delay = 3600.0  # the window is long: nothing here waits for a clock
    await slash_action(fake, fake.alice, CH, claim)
    panel = _panel(fake, fake.alice)
    assert UNDO in panel.button_labels and "The computer players answer in 3600 s" in panel.content
    assert PLAY_ON in panel.button_labels
    claimed = await _record(bot, fake)
    assert claimed.version == rec.version + 1 and claimed.game.decision().player != alice, "the computer waits"
    await (await fake.click(fake.alice, panel, UNDO)).wait_message()
    await fake.wait_until(lambda: rec.id not in bot.service.computers.chains, what="the waiting computer stopped")
    undone = await _record(bot, fake)
    assert undone.game.to_dict() == rec.game.to_dict(), "the claim is taken back; the computer did not play"
    actions = await bot.store.get_actions(rec.id, include_undone=False)
    assert actions[-1].player_id != claimed.game.decision().player, "no computer move was saved"

    await slash_action(fake, fake.alice, CH, claim)
    panel = _panel(fake, fake.alice)
    assert UNDO in panel.button_labels
    await (await fake.click(fake.alice, panel, PLAY_ON)).wait_message()
    await fake.wait_until(lambda: UNDO not in panel.button_labels, what="the undo taken off the panel")
    assert not panel.button_labels and "answer in" not in panel.content and "Done" in panel.content
    await bot.service.idle()
    moved = await _record(bot, fake)
    assert moved.version > claimed.version and moved.game.decision().player == alice, "the computer answered"
    refused = await (await fake.slash(fake.alice, CH, "play", "undo")).wait_message()
    assert "has acted since your last move" in refused.content
