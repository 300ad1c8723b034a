"""Whole games through the real bot and the fake Discord: slash commands and clicks only."""

from __future__ import annotations

import pytest

from tests.e2e.play import latest_table, logged_actions, open_lobby, play_game, start_game

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def story_once(bot, backend):
    """A whole game's end draws its replay and chart from its log, alike on every backend: the SQLite variant draws
    them (tests/e2e/test_calm.py checks them), the PostgreSQL variant checks what that store keeps and does not draw the
    same pictures a second time."""
    if backend == "postgresql":
        bot.service.story_at_end = False


def _people(fake, *users):
    return {str(u.id): u for u in users}


async def _finished(fake, bot, channel):
    final = latest_table(fake, channel)
    assert "win" in final.content
    assert any(a.filename == "scores.png" for a in final.attachments)
    assert "Rematch" in final.button_labels
    assert "Take my turn" not in final.button_labels
    rec = (await bot.store.list_games(channel_id=fake.channel(channel).id, limit=1))[0]
    assert rec.status == "finished"
    return final


async def test_kingdomino_two_players_whole_game(fake, bot):
    first = await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    assert "it's your turn" in first.content and "<@" in first.content
    assert "must fit in 5×5 squares" in first.content, "players learn the kingdom's limit before a refusal"
    await play_game(fake, bot, "kingdomino", _people(fake, fake.alice, fake.bob))
    final = await _finished(fake, bot, "kingdomino")
    # Every table but the last lost its controls: old messages do not pile up buttons.
    tables = [m for m in fake.messages_in("kingdomino") if any(a.filename == "table.png" for a in m.attachments)]
    # One table each time the turn passes to the other player (a player's two kings in a row share one).
    assert len(tables) >= 7
    assert all(not m.buttons for m in tables[:-1])
    assert final.attachments[0].image().size[0] >= 1000


async def test_kingdomino_four_players_whole_game(fake, bot):
    await start_game(
        fake, fake.alice, "kingdomino", [fake.bob, fake.carol, fake.dave], game="kingdomino", players=4, harmony=True
    )
    await play_game(fake, bot, "kingdomino", _people(fake, fake.alice, fake.bob, fake.carol, fake.dave), seed=2)
    final = await _finished(fake, bot, "kingdomino")
    assert "harmony" in final.content.lower() or "points (" in final.content  # the breakdown, bonus or not


async def test_mighty_duel_whole_game(fake, bot):
    await start_game(fake, fake.bob, "kingdomino", [fake.carol], game="kingdomino", players=2, mighty_duel=True)
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    assert rec.game.setup.kingdom_size == 7
    await play_game(fake, bot, "kingdomino", _people(fake, fake.bob, fake.carol), seed=3)
    await _finished(fake, bot, "kingdomino")


async def test_queendomino_three_players_uses_knights_buildings_and_dragon(fake, bot):
    await start_game(fake, fake.alice, "kingdomino", [fake.bob, fake.carol], game="queendomino", players=3)
    await play_game(fake, bot, "kingdomino", _people(fake, fake.alice, fake.bob, fake.carol), seed=4)
    await _finished(fake, bot, "kingdomino")
    kinds = {a["type"] for a in await logged_actions(bot, fake.channel("kingdomino").id)}
    assert {"place", "claim", "tax", "build", "dragon", "skip"} <= kinds


async def test_royal_wedding_teams_of_six_with_computer_players(fake, bot):
    lobby = await open_lobby(
        fake, fake.alice, "kingdomino", game="royal-wedding", players=6, teams=True, computers=4, computer_level="easy"
    )
    await (await fake.click(fake.bob, lobby, "Join")).wait_message()
    lobby = fake.message(lobby.id)
    # Partners sit side by side: Bob joined last, at seat 6, beside Bot 4. Only the host arranges the seats.
    assert "swapping seats" in lobby.content and "6. <@" in lobby.content
    swap = lobby.component("Swap two seats to arrange teams (host only)", types=(3,))
    assert (swap["min_values"], swap["max_values"]) == (2, 2) and len(swap["options"]) == 6
    refused = await (await fake.select(fake.bob, lobby, swap["custom_id"], [str(fake.bob.id), "cpu:1"])).wait_message()
    assert refused.ephemeral and "Only the host" in refused.content
    done = await (await fake.select(fake.alice, lobby, swap["custom_id"], [str(fake.bob.id), "cpu:1"])).wait_message()
    assert "Bob and Bot 1 (easy) swapped seats" in done.content
    await fake.settle()
    assert "2. <@" + str(fake.bob.id) in fake.message(lobby.id).content
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await fake.settle()
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    assert rec.game.config.teams is not None and len(rec.game.kingdoms) == 3
    assert rec.game.kingdoms[0].players == (str(fake.alice.id), str(fake.bob.id))
    assert rec.game.kingdoms[2].players == ("cpu:4", "cpu:1")
    await play_game(fake, bot, "kingdomino", _people(fake, fake.alice, fake.bob), seed=5)
    final = await _finished(fake, bot, "kingdomino")
    assert "Alice & Bob" in final.content and "Bot 4 (easy) & Bot 1 (easy)" in final.content


async def test_solo_game_against_a_hard_computer(fake, bot):
    bot.service.hard_budget = 0.05  # the real default is 1 s per move; the path is the same
    await start_game(
        fake, fake.dave, "kingdomino", [], game="kingdomino", players=2, computers=1, computer_level="hard"
    )
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    assert [s.cpu_level for s in rec.seats] == [None, "hard"]
    await play_game(fake, bot, "kingdomino", _people(fake, fake.dave), seed=6)
    await _finished(fake, bot, "kingdomino")
    actions = await bot.store.get_actions(rec.id)
    by_computer = [a for a in actions if a.player_id == "cpu:1"]
    assert by_computer and all(a.user_id is None for a in by_computer)
