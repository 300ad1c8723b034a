"""The soak test's end-of-run check (`check_game`) on a Queendomino game played here click by click: it traces
every move to the click that asked for it, without a false alarm when a person used two panels of the same version
(Done on one, a building on the other: the building applied with the skip of the tax before it, Done refused), and it
still catches a move applied at a version no click of that person carried (a click applied twice, or late)."""

from __future__ import annotations

import random

import pytest

from engine import Skip
from tests.e2e.play import _button, active_record, choose_spot, click_panel, latest_table, select_panel, start_game
from tests.e2e.test_soak import check_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.model import FakeMessage, FakeUser

pytestmark = pytest.mark.e2e

CH = "kingdomino"
OPTIONAL = "you may now do these steps"


async def open_panel(fake: FakeDiscord, bot, user: FakeUser) -> FakeMessage:
    """`user` opens their turn panel from the latest table (once the bot has posted it)."""
    await bot.service.idle()
    await fake.settle()
    reply = await fake.click(user, latest_table(fake, CH), "Take my turn")
    return await reply.wait_message()


async def next_step(fake: FakeDiscord, user: FakeUser, panel: FakeMessage, rng: random.Random) -> FakeMessage:
    """One step of a turn, the optional steps left out (Done, or the next domino at once)."""
    text = panel.content
    if "Preview:" in text:
        return await click_panel(fake, user, panel, _button(panel, startswith="Confirm", rng=rng))
    if "which way does the second square" in text:
        return await click_panel(fake, user, panel, _button(panel, contains="point", rng=rng))
    if "Choose a spot" in text:
        return await choose_spot(fake, user, panel, rng)
    if "Pick a free domino" in text:
        return await click_panel(fake, user, panel, _button(panel, rng=rng))
    assert OPTIONAL in text, text
    takes = [
        b["custom_id"] for b in panel.buttons if b["custom_id"].startswith("kd:go:") and ":claim " in b["custom_id"]
    ]
    return await click_panel(fake, user, panel, rng.choice(takes) if takes else _button(panel, startswith="Done"))


async def play_to_tax_with_a_building(
    fake: FakeDiscord, bot, people: dict[str, FakeUser]
) -> tuple[FakeUser, FakeMessage]:
    """Play by clicks until a person's panel offers the tax step, a building to buy after it, and Done (no choice of
    the next domino on it)."""
    rng = random.Random(3)
    channel_id = fake.channel(CH).id
    panel, holder = None, None
    for _ in range(400):
        rec = await active_record(bot, channel_id)
        assert rec is not None, "the game ended before a building could be bought after the tax step"
        d = rec.game.decision()
        user = people[d.player]
        if panel is None or holder is not user or panel.content.startswith("Done"):
            panel, holder = await open_panel(fake, bot, user), user
        builds = any("Build" in s.get("placeholder", "") for s in panel.selects)
        if (
            OPTIONAL in panel.content
            and d.kind == "tax"
            and builds
            and any(x.startswith("Done") for x in panel.button_labels)
        ):
            return user, panel
        panel = await next_step(fake, user, panel, rng)
    raise AssertionError("no tax step with a building to buy after it")


async def test_check_traces_moves_to_clicks_and_catches_a_move_nobody_clicked(fake: FakeDiscord, bot) -> None:
    await start_game(fake, fake.alice, CH, [fake.bob], game="queendomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    user, first = await play_to_tax_with_a_building(fake, bot, people)
    rec = await active_record(bot, fake.channel(CH).id)
    version = rec.version
    done = next(b["custom_id"] for b in first.buttons if b.get("label", "").startswith("Done"))

    # The same turn opened again: a second panel of the same version. A building on it, then Done on the first one.
    second = await open_panel(fake, bot, user)
    index = next(i for i, s in enumerate(second.selects) if "Build" in s.get("placeholder", ""))
    site = await select_panel(fake, user, second, index, second.selects[index]["options"][0]["value"])
    assert "on which town square" in site.content, site.content
    await click_panel(fake, user, site, _button(site, startswith="Build on"))
    late = await fake.click(user, first, done)
    await fake.wait_until(lambda: late.interaction.followups, what="the refusal of the out-of-date panel")
    assert "The table changed" in late.interaction.followups[0].content
    actions = await bot.store.get_actions(rec.id)
    start = (await bot.store.get_game(rec.id)).version - len(actions)
    applied = [(a.action["type"], a.user_id) for a in actions[version - start : version - start + 2]]
    assert applied == [("skip", user.id), ("build", user.id)], applied  # the tax skipped, then the building
    assert done == f"kd:go:{rec.id}:{version}:skip"

    count, problems = await check_game(fake, bot.store, rec.id)
    assert count == len(actions) and problems == []

    # A move applied at a version no click of theirs carried (as a stale click applied late would be): caught.
    await bot.service.idle()
    rec = await bot.store.get_game(rec.id)
    game, d = rec.game, rec.game.decision()
    action = Skip() if Skip() in game.legal_actions() else game.legal_actions()[0]
    game.apply(action, by=d.player)
    await bot.store.save_move(
        rec.id, rec.version, state=game.to_dict(), action=action.to_dict(), player_id=d.player, user_id=int(d.player)
    )
    count, problems = await check_game(fake, bot.store, rec.id)
    assert count == len(actions) + 1
    assert problems == [
        f"game {rec.id}: action {count} ({action.text} by user {d.player}) at version {rec.version}: no click of "
        "theirs asked for it (applied twice, or at a state no click asked for?)"
    ], problems
