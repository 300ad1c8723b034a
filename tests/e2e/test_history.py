"""`/look history` in pages from the newest move, numbered without gaps, on a whole Royal Wedding game."""

from __future__ import annotations

import contextlib
import random
import re

import pytest

from cogs.words import UserError
from tests.e2e.play import open_lobby

pytestmark = pytest.mark.e2e
CH = "kingdomino"
HEAD = re.compile(r"\*\*Moves (\d+)-(\d+) of (\d+)\*\* \(page (\d+) of (\d+);")


def _numbers(content: str) -> list[int]:
    return [int(m.group(1)) for m in re.finditer(r"^(\d+)\. ", content, re.MULTILINE)]


async def _play_whole_game(fake, bot) -> int:
    """Alice against two computers, her moves sent to the service (the game is the setting, not the subject);
    some of them taken back and played otherwise, so the log has undone actions. Returns the game's id."""
    lobby = await open_lobby(fake, fake.alice, CH, game="royal-wedding", players=3, computers=2, computer_level="easy")
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await fake.settle()
    service, rng = bot.service, random.Random(4)
    game_id = None
    while True:
        await service.idle()
        rec = await bot.store.get_active_game(fake.channel(CH).id)
        if rec is None:
            return game_id
        game_id = rec.id
        await service.play(rec.id, fake.alice.id, rng.choice(rec.game.legal_actions()))
        if rng.random() < 0.1:
            with contextlib.suppress(UserError):  # a line was drawn, or the game ended: it stands
                await service.undo(rec.id, fake.alice.id)


async def test_history_pages_from_the_newest_move_without_gaps(fake, bot):
    bot.service.story_at_end = False  # the replay and the chart of the end are not the subject (slow to draw)
    game_id = await _play_whole_game(fake, bot)
    undone = [a for a in await bot.store.get_actions(game_id) if a.undone]
    assert undone, "the log has undone actions"

    first = await (await fake.slash(fake.bob, CH, "look", "history")).wait_message()
    assert first.ephemeral and len(first.content) <= 2000
    low, high, total, page, pages = map(int, HEAD.search(first.content).groups())
    assert (page, high) == (1, total) and pages > 3, "page 1 ends with the newest move"
    assert _numbers(first.content) == list(range(low, high + 1))
    assert "Round 24 is over" in first.content.splitlines()[-1], "the last move of the game"
    assert first.button_labels == ["Older moves"]
    newest = first.content

    seen = _numbers(first.content)
    message = first
    for expected_page in range(2, pages + 1):
        before = message.content
        await (await fake.click(fake.bob, message, "Older moves")).wait_message()
        await fake.wait_until(lambda m=message, b=before: m.content != b, what=f"page {expected_page}")
        low, high, _, page, _ = map(int, HEAD.search(message.content).groups())
        assert page == expected_page and high == seen[0] - 1, "each older page ends where the newer one began"
        assert len(message.content) <= 2000
        seen = _numbers(message.content) + seen
        labels = message.button_labels
        assert "Newer moves" in labels and ("Older moves" in labels) == (page < pages)
    assert seen == list(range(1, total + 1)), "every move once, numbered without gaps"

    # The option gives the same page; Newer goes back.
    second = await (await fake.slash(fake.carol, CH, "look", "history", options={"page": 2})).wait_message()
    assert HEAD.search(second.content).group(4) == "2"
    before = second.content
    await (await fake.click(fake.carol, second, "Newer moves")).wait_message()
    await fake.wait_until(lambda: second.content != before, what="page 1 again")
    assert second.content == newest
