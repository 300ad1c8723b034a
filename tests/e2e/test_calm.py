"""The channel stays calm and the texts are right after the end: whole games counted message by message."""

from __future__ import annotations

import random

import pytest

from tests.e2e.play import active_record, latest_table, open_lobby, play_game, play_turn

pytestmark = pytest.mark.e2e
CH = "kingdomino"


def _public(fake):
    return [m for m in fake.messages_in(CH) if not m.ephemeral and m.author is fake.bot_user]


async def test_royal_wedding_of_four_people_and_four_computers_stays_calm(fake, bot):
    people = [fake.alice, fake.bob, fake.carol, fake.dave]
    lobby = await open_lobby(
        fake, fake.alice, CH, game="royal-wedding", players=8, teams=True, computers=4, computer_level="easy"
    )
    for user in people[1:]:
        await (await fake.click(user, lobby, "Join")).wait_message()
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await bot.service.idle()
    await fake.settle()
    by_id = {str(u.id): u for u in people}
    rng = random.Random(8)
    counts, pictures, turns = [], [], 0
    seen = len(_public(fake))
    while (rec := await active_record(bot, fake.channel(CH).id)) is not None:
        d = rec.game.decision()
        await play_turn(fake, by_id[d.player], CH, rng)
        await bot.service.idle()
        await fake.settle()
        turns += 1
        new = _public(fake)[seen:]
        seen += len(new)
        counts.append(len(new))
        pictures.append(sum(1 for m in new if m.attachments))
    final = latest_table(fake, CH)
    assert "win" in final.content
    print(
        f"\n{turns} human turns, {sum(counts)} public messages ({sum(counts) / turns:.2f} a turn), "
        f"at most {max(counts)} between two human turns, {sum(pictures)} with pictures"
    )
    assert max(pictures) <= 1, "one message with pictures a human turn"
    assert max(counts) <= 2, "at most two public messages between two human turns"
    assert sum(counts) <= turns + 1


async def test_texts_after_the_end(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="queendomino", players=2)
    await (await fake.click(fake.bob, lobby, "Join")).wait_message()
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await play_game(fake, bot, CH, {str(u.id): u for u in (fake.alice, fake.bob)}, seed=12)
    final = latest_table(fake, CH)
    # The end tells every kingdom's breakdown in words, not only the totals.
    assert "×" in final.content and "points (" in final.content
    rules = await (await fake.slash(fake.carol, CH, "rules")).wait_message()
    assert "Queendomino in short" in rules.content, "the rules of the game that just ended"
    scores = await (await fake.slash(fake.carol, CH, "look", "scores")).wait_message()
    assert scores.content.startswith("**Final scores**") and "Dynasty" not in scores.content
    remaining = await (await fake.slash(fake.carol, CH, "look", "remaining")).wait_message()
    assert " not seen yet" in remaining.content and "game is over" in remaining.content


async def test_every_picture_has_a_description_and_the_end_tells_the_story(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="queendomino", players=2, computers=1, computer_level="easy")
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await play_game(fake, bot, CH, {str(fake.alice.id): fake.alice}, seed=21)
    final = latest_table(fake, CH)
    names = [a.filename for a in final.attachments]
    assert names[:2] == ["table.png", "scores.png"] and "replay.gif" in names and "chart.png" in names
    replay = next(a for a in final.attachments if a.filename == "replay.gif")
    assert replay.size < 8 * 1024 * 1024 and replay.image().n_frames > 10
    attachments = [a for m in fake.messages if m.channel.name == CH for a in m.attachments]
    assert attachments and all(a.description and len(a.description) <= 1024 for a in attachments), [
        a.filename for a in attachments if not a.description
    ]
    text = await (await fake.slash(fake.alice, CH, "look", "kingdom", options={"text": True})).wait_message()
    assert "```" in text.content and not text.attachments
    chart = await (await fake.slash(fake.bob, CH, "look", "chart")).wait_message()
    assert chart.attachments[0].filename == "chart.png" and chart.attachments[0].description
