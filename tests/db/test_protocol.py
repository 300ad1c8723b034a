"""Both stores implement `GameStore` call for call."""

import inspect

import pytest

from db import GameStore, SqliteGameStore, open_store
from db.postgres import PostgresGameStore


def public_methods(cls) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_")
    }


@pytest.mark.parametrize("cls", [SqliteGameStore, PostgresGameStore])
def test_each_store_matches_the_protocol_signature_for_signature(cls):
    protocol = public_methods(GameStore)
    store = public_methods(cls)
    assert protocol, "the protocol declares methods"
    for name, signature in protocol.items():
        assert name in store, f"{cls.__name__} lacks {name}"
        assert str(store[name]) == str(signature), name


async def test_open_store_gives_a_game_store(tmp_path):
    store = await open_store(tmp_path / "games.sqlite3")
    try:
        assert isinstance(store, GameStore)
    finally:
        await store.close()
