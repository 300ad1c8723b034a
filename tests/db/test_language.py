"""The table's language (issue #13) is kept in the lobby options and, once the game starts, beside the engine's
config in the same JSON: both stores keep it, and the engine still reads its config."""

from cogs.decide import game_language
from engine import GameConfig

from .conftest import fake_state, new_game


async def test_the_language_survives_the_start_in_the_saved_config(store):
    lobby = await new_game(store)
    await store.set_lobby_options(lobby.id, lobby.version, config={"seats": 2, "language": "cs"})
    lobby = await store.get_game(lobby.id)
    assert game_language(lobby) == "cs"
    engine_config = GameConfig("kingdomino", ("1", "2"), frozenset(), None).to_dict()
    await store.start_game(lobby.id, lobby.version, config={**engine_config, "language": "cs"}, state=fake_state())
    started = await store.get_game(lobby.id)
    assert started.config["language"] == "cs" and game_language(started) == "cs"
    assert GameConfig.from_dict(started.config) == GameConfig.from_dict(engine_config)


async def test_a_game_without_a_language_speaks_english(store):
    lobby = await new_game(store)
    assert game_language(lobby) == "en"
