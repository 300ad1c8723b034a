"""Whole games through the real bot and the fake Discord: slash commands and clicks only."""

from __future__ import annotations

import pytest

from tests.e2e.play import latest_table, open_lobby, play_game

pytestmark = pytest.mark.e2e


async def test_kingdomino_two_players_whole_game(fake, bot):
    lobby = await open_lobby(fake, fake.alice, "kingdomino", game="kingdomino", players=2)
    assert "Kingdomino" in lobby.content and "Join" in lobby.button_labels
    await (await fake.click(fake.bob, lobby, "Join")).wait_message()
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await fake.settle()
    first = latest_table(fake, "kingdomino")
    assert "it's your turn" in first.content
    people = {str(fake.alice.id): fake.alice, str(fake.bob.id): fake.bob}
    await play_game(fake, bot, "kingdomino", people)
    final = latest_table(fake, "kingdomino")
    assert "wins" in final.content or "win" in final.content
    assert any(a.filename == "scores.png" for a in final.attachments)
    assert "Rematch" in final.button_labels
    rec = (await bot.store.list_games(channel_id=fake.channel("kingdomino").id, limit=1))[0]
    assert rec.status == "finished"
