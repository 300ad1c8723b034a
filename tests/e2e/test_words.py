"""The turn's words read like a person speaking (issue #27, item 8): one "Your turn" per panel, the optional steps
numbered from 1, the first line's picks told apart without king numbers, computer seats named once, teams listed
once, forced claims said as forced, the coins behind Queendomino's scores explained, the final breakdown without a
second "Scores" line and with its `squares×crowns` explained. Whole games through the fake Discord."""

from __future__ import annotations

import re

import pytest

from i18n import messages as M
from i18n import translate
from tests.e2e.play import latest_table, open_lobby, play_game, start_game

pytestmark = pytest.mark.e2e
CH = "kingdomino"


def panel_texts(fake, *users) -> list[str]:
    """Every text the private panels of `users` showed, each version of each panel."""
    texts = []
    for user in users:
        for m in fake.messages_in(CH, viewer=user):
            if m.ephemeral:
                texts += [h.get("content") or "" for h in m.history] + [m.content]
    return texts


def tables(fake) -> list[str]:
    return [m.content for m in fake.messages_in(CH) if any(a.filename == "table.png" for a in m.attachments)]


async def test_queendomino_words(fake, bot):
    bot.service.story_at_end = False  # the replay and the chart of the end are not the subject (slow to draw)
    first = await start_game(fake, fake.alice, CH, [fake.bob], game="queendomino", players=2)
    # The game opens with points from the coins alone: the scores line says where they come from.
    assert "Scores, with 1 point for every 3 coins: Alice 2 · Bob 2" in first.content, first.content
    await play_game(fake, bot, CH, {str(u.id): u for u in (fake.alice, fake.bob)}, seed=21)
    texts = panel_texts(fake, fake.alice, fake.bob)
    steps = [t for t in texts if "you may now do these steps" in t]
    assert steps, "the optional steps were shown"
    for text in texts:
        assert text.count("**Your turn**") <= 1, text
        assert "(king " not in text, text
    for text in steps:
        numbers = [int(n) for n in re.findall(r"^(\d+)\. \*\*", text, flags=re.M)]
        assert numbers == list(range(1, len(numbers) + 1)) and numbers, text  # 1., 2., ... as shown
    assert any("\n1. **Build**" in t for t in steps), "a panel that starts at the build step numbers it 1"
    final = latest_table(fake, CH).content
    breakdown = final[final.index("🏆") :]
    assert "Scores" not in breakdown, final  # the breakdown has the totals: no second line of scores
    assert translate("en", M.BREAKDOWN_LEGEND) in breakdown and "×" in breakdown, final


async def test_first_picks_and_forced_claims_are_told_as_such(fake, bot):
    bot.service.story_at_end = False  # the replay and the chart of the end are not the subject (slow to draw)
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    await play_game(fake, bot, CH, {str(u.id): u for u in (fake.alice, fake.bob)}, seed=22)
    texts = panel_texts(fake, fake.alice, fake.bob)
    firsts = [t for t in texts if "of the first line" in t and "**Your turn**" in t]
    assert any("choose the first of your two dominoes of the first line" in t for t in firsts), firsts
    assert any("choose your second domino of the first line" in t for t in firsts), firsts
    assert not any("king 1 of 2" in t or "king 2 of 2" in t for t in texts)
    # The last domino of a line is nobody's choice: the table says so.
    said = "\n".join(tables(fake))
    forced = re.findall(r"\*\*(\w+)\*\* was left with domino (\d+)", said)
    assert forced, said[-2000:]
    for name, number in forced:
        assert f"**{name}** chose domino {number} " not in said


async def test_the_lobby_names_computers_and_teams_once(fake, bot):
    lobby = await open_lobby(
        fake, fake.alice, CH, game="royal-wedding", players=8, teams=True, computers=6, computer_level="medium"
    )
    await (await fake.click(fake.bob, lobby, "Join")).wait_message()
    await fake.settle()
    text = fake.message(lobby.id).content
    assert "🤖 Bot 1 (medium)" in text and "(computer, medium)" not in text, text
    assert text.count("Bot 1 (medium)") == 1 and text.count(f"<@{fake.bob.id}>") == 1, text
    assert re.search(r"^Team 4: 7\. .+ & 8\. ", text, flags=re.M), text  # the seats, numbered for the swap list

    lobby = await open_lobby(fake, fake.carol, "general", game="kingdomino", players=3, computers=1)
    text = fake.message(lobby.id).content
    assert "2. 🤖 Bot 1 (" in text and "computer," not in text, text
