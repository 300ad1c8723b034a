"""A table opened with hints in Discord (issue 46): `/game new hints:True` says so on the lobby's message, so that
everyone who joins agrees; the game keeps the option once it starts (the web board may show anyone at it a good
move), and its result is not rated: the leaderboard leaves it out."""

from __future__ import annotations

import pytest

from tests.e2e.play import open_lobby, play_game

pytestmark = pytest.mark.e2e
CH = "kingdomino"


async def test_a_game_with_hints_is_announced_kept_and_not_rated(fake, bot):
    lobby = await open_lobby(
        fake, fake.alice, CH, game="kingdomino", players=2, computers=1, computer_level="easy", hints=True
    )
    assert "Hints are on at this table" in lobby.content and "not rated" in lobby.content
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    rec = await bot.store.get_active_game(fake.channel(CH).id)
    assert rec.config.get("hints") is True
    await play_game(fake, bot, CH, {str(fake.alice.id): fake.alice}, seed=4)
    finished = await bot.store.finished_results(fake.guild_id, "kingdomino")
    assert len(finished) == 1 and finished[0].config.get("hints") is True
    board = await (await fake.slash(fake.carol, CH, "stats", "leaderboard")).wait_message()
    assert "No finished game yet." in board.content, board.content
