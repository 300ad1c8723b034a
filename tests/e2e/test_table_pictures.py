"""The table as a phone sees it: a Royal Wedding table comes as two pictures in the one table message, each at
most about twice as tall as wide, each described; a smaller table stays one picture."""

from __future__ import annotations

import random

import pytest

from tests.e2e.play import active_record, latest_table, open_lobby, play_turn

pytestmark = pytest.mark.e2e
CH = "kingdomino"


def _pictures(message) -> dict[str, tuple[int, int]]:
    return {a.filename: a.image().size for a in message.attachments if a.filename.endswith(".png")}


async def test_a_royal_wedding_table_is_two_pictures_a_phone_reads_without_zooming(fake, bot):
    lobby = await open_lobby(
        fake, fake.alice, CH, game="royal-wedding", players=8, teams=True, computers=7, computer_level="easy"
    )
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await bot.service.idle()
    await fake.settle()
    rng = random.Random(3)
    for _ in range(3):  # a few of Alice's turns: the kingdoms grow, the computers play in between
        rec = await active_record(bot, fake.channel(CH).id)
        await play_turn(fake, fake.alice, CH, rng)
        await bot.service.idle()
        await fake.settle()
    assert rec is not None
    table = latest_table(fake, CH)
    sizes = _pictures(table)
    assert list(sizes) == ["table.png", "kingdoms.png"], "both pictures in the one table message"
    for name, (w, h) in sizes.items():
        assert w == 1000 and h <= 2.2 * w, f"{name} is {w}x{h}"
    described = {a.filename: a.description for a in table.attachments}
    assert "Table of Royal Wedding" in described["table.png"]
    assert (
        described["kingdoms.png"].startswith("The kingdoms of Royal Wedding") and " coins" in described["kingdoms.png"]
    )
    # `/look table` shows the same two pictures, privately.
    look = await (await fake.slash(fake.bob, CH, "look", "table")).wait_message()
    assert look.ephemeral and list(_pictures(look)) == ["table.png", "kingdoms.png"]


async def test_a_queendomino_table_of_two_stays_one_picture(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="queendomino", players=2, computers=1, computer_level="easy")
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await bot.service.idle()
    await fake.settle()
    assert list(_pictures(latest_table(fake, CH))) == ["table.png"]
