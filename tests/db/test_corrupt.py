"""One damaged game is reported as that game's problem; every other game keeps working."""

import sqlite3

import pytest

from db import CorruptGame, GameStatus

from .conftest import fake_state, new_game, playing_game


def damage(db_path, game_id: int, column: str, value) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))


@pytest.mark.parametrize(
    ("column", "value", "reason"),
    [
        ("state", '{"format_version": 1, "turn": ', "its state is not valid JSON"),
        ("state", "[1, 2, 3]", "its state is JSON but not an object"),
        ("config", "not json at all", "its config is not valid JSON"),
        ("state", '{"format_version": 99}', "the engine refused its state (ValueError: unknown format_version 99)"),
        ("state", None, "it is playing but has no state"),
    ],
)
async def test_a_corrupt_game_is_reported_alone(column, value, reason, store, db_path):
    healthy = await playing_game(store, channel_id=1)
    broken = await playing_game(store, channel_id=2)
    damage(db_path, broken.id, column, value)

    with pytest.raises(CorruptGame) as caught:
        await store.get_game(broken.id)
    assert caught.value.game_id == broken.id
    assert reason in caught.value.reason
    assert f"game #{broken.id} cannot be loaded" in str(caught.value)
    with pytest.raises(CorruptGame):
        await store.get_active_game(2)

    # everything else still works, including listing the broken game and cancelling it
    assert (await store.get_game(healthy.id)).state == fake_state()
    assert (await store.get_active_game(1)).id == healthy.id
    assert {g.id for g in await store.list_games()} == {healthy.id, broken.id}
    await store.save_move(healthy.id, healthy.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    await store.cancel_game(broken.id)
    assert (await store.list_games(statuses={GameStatus.CANCELLED}))[0].id == broken.id


async def test_engine_raising_anything_is_a_corrupt_game(open_store):
    def picky_engine(state):
        raise KeyError("kingdoms")

    store = await open_store(decode_state=picky_engine)
    record = await new_game(store)
    await store.start_game(record.id, record.version, config={}, state=fake_state())
    with pytest.raises(CorruptGame, match="KeyError"):
        await store.get_game(record.id)
    assert len(await store.list_games()) == 1


async def test_a_damaged_log_entry_is_reported_for_its_game(store, db_path):
    record = await playing_game(store)
    await store.save_move(record.id, record.version, state=fake_state(1), action={"a": 1}, player_id="1", user_id=1)
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE actions SET action = '{oops' WHERE game_id = ?", (record.id,))
    with pytest.raises(CorruptGame, match="action 1 of its log"):
        await store.get_actions(record.id)
