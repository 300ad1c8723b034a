"""The SQLite store is one implementation of `GameStore`; another backend would have to match it call for call."""

import inspect

from db import GameStore, SqliteGameStore, open_store


def public_methods(cls) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_")
    }


def test_sqlite_store_matches_the_protocol_signature_for_signature():
    protocol = public_methods(GameStore)
    sqlite = public_methods(SqliteGameStore)
    assert protocol, "the protocol declares methods"
    for name, signature in protocol.items():
        assert name in sqlite, f"SqliteGameStore lacks {name}"
        assert str(sqlite[name]) == str(signature), name


async def test_open_store_gives_a_game_store(tmp_path):
    store = await open_store(tmp_path / "games.sqlite3")
    try:
        assert isinstance(store, GameStore)
    finally:
        await store.close()
