"""`game_versions`: the versions of many games in one read, what a process compares to learn that another one changed
a game its boards watch (db/changes.py). On SQLite and on PostgreSQL."""

from __future__ import annotations

from tests.db.conftest import fake_state, new_game, playing_game


async def test_the_versions_of_the_games_asked_for_that_exist(store):
    lobby = await new_game(store, channel_id=1)
    played = await playing_game(store, channel_id=2)
    await store.save_move(
        played.id, played.version, state=fake_state(1), action={"type": "skip"}, player_id="1", user_id=1
    )
    assert await store.game_versions([lobby.id, played.id, 10**9]) == {lobby.id: 1, played.id: 3}
    assert await store.game_versions([]) == {}


async def test_more_games_than_one_statement_takes(store):
    games = [await new_game(store, channel_id=100 + n, players=(n + 1,)) for n in range(3)]
    asked = [g.id for g in games] + list(range(10**6, 10**6 + 1200))  # past the 500 ids of one IN (...) list
    assert await store.game_versions(asked) == {g.id: 1 for g in games}
