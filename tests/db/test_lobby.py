import pytest

from db import (
    ACTIVE_STATUSES,
    KEEP,
    ActiveGameExists,
    GameNotFound,
    GameStatus,
    Seat,
    SeatConflict,
    StaleVersion,
    WrongStatus,
)

from .conftest import BLUE, GREEN, PINK, YELLOW, fake_state, new_game, playing_game


async def test_create_game_stores_everything(store, clock):
    record = await new_game(store, players=(1, 2))
    assert record.id > 0 and record.version == 1 and record.status is GameStatus.LOBBY
    assert (record.channel_id, record.guild_id, record.host_user_id, record.kind, record.seed) == (
        100,
        10,
        1,
        "kingdomino",
        42,
    )
    assert record.config == {"game": "kingdomino", "variants": []}
    assert record.state is None and record.game is None
    assert [(s.player_id, s.user_id, s.display_name, s.colour, s.seat_order) for s in record.seats] == [
        ("1", 1, "player1", PINK, 0),
        ("2", 2, "player2", YELLOW, 1),
    ]
    assert (record.reminder_hours, record.deadline_hours) == (12, 48)
    assert record.created_at == record.updated_at == clock.now
    assert record == await store.get_game(record.id)
    assert record == await store.get_active_game(100)


async def test_seed_is_chosen_when_not_given(store):
    a = await store.create_game(channel_id=1, guild_id=None, host_user_id=1, kind="kingdomino", config={})
    b = await store.create_game(channel_id=2, guild_id=None, host_user_id=1, kind="kingdomino", config={})
    assert a.seed != b.seed


async def test_second_active_game_in_a_channel_names_the_first(store):
    first = await new_game(store, channel_id=100)
    with pytest.raises(ActiveGameExists) as caught:
        await new_game(store, channel_id=100)
    assert caught.value.existing_game_id == first.id
    assert caught.value.channel_id == 100
    assert f"#{first.id}" in str(caught.value)
    assert len(await store.list_games()) == 1
    # a game in play blocks the channel too; another channel is free
    await store.start_game(first.id, 1, config={}, state=fake_state())
    with pytest.raises(ActiveGameExists):
        await new_game(store, channel_id=100)
    await new_game(store, channel_id=101)


async def test_finished_or_cancelled_games_free_the_channel(store):
    first = await new_game(store)
    await store.cancel_game(first.id, first.version)
    second = await new_game(store)
    assert second.id != first.id
    assert (await store.get_active_game(100)).id == second.id
    assert (await store.get_game(first.id)).status is GameStatus.CANCELLED


async def test_the_database_itself_enforces_one_active_game_per_channel(store, backend):
    await new_game(store, channel_id=100)
    insert = (
        "INSERT INTO games (channel_id, host_user_id, kind, status, version, seed, config, created_at, updated_at)"
        " VALUES (100, 5, 'kingdomino', ?, 1, 1, '{}', 0, 0)"
    )
    with pytest.raises(Exception, match=r"(?i)unique|duplicate key") as caught:
        await backend.execute(insert, "playing")
    assert "games_one_active_per_channel" in str(caught.value) or backend.name == "sqlite"
    for _ in range(3):  # but any number of finished games
        await backend.execute(insert, "finished")


async def test_join_and_leave_keep_the_seat_order(store):
    record = await new_game(store, players=(1,))
    record = await store.join_game(record.id, record.version, Seat.human(2, "Bea", GREEN))
    record = await store.join_game(record.id, record.version, Seat.computer(1, "hard", "Robot", BLUE))
    assert [s.player_id for s in record.seats] == ["1", "2", "cpu:1"]
    assert record.seats[2].is_computer and record.seats[2].user_id is None
    assert record.version == 3
    record = await store.leave_game(record.id, record.version, "2")
    assert [(s.player_id, s.seat_order) for s in record.seats] == [("1", 0), ("cpu:1", 1)]
    assert record.version == 4


async def test_join_needs_the_current_version(store):
    record = await new_game(store, players=(1,))
    await store.join_game(record.id, record.version, Seat.human(2, "Bea"))
    with pytest.raises(StaleVersion) as caught:
        await store.join_game(record.id, record.version, Seat.human(3, "Cid"))
    assert (caught.value.game_id, caught.value.expected, caught.value.actual) == (record.id, 1, 2)
    assert [s.player_id for s in (await store.get_game(record.id)).seats] == ["1", "2"]


async def test_seat_conflicts(store):
    record = await new_game(store, players=(1, 2))
    with pytest.raises(SeatConflict, match="already seated"):
        await store.join_game(record.id, record.version, Seat.human(2, "again"))
    with pytest.raises(SeatConflict, match="colour"):
        await store.join_game(record.id, record.version, Seat.human(3, "Cid", PINK))
    with pytest.raises(SeatConflict, match="not seated"):
        await store.leave_game(record.id, record.version, "9")
    with pytest.raises(ValueError, match="user_id"):
        await store.join_game(record.id, record.version, Seat(player_id="x", display_name="nobody"))
    assert (await store.get_game(record.id)).version == record.version  # nothing written


async def test_set_seats_reorders(store):
    record = await new_game(store, players=(1, 2, 3))
    reordered = [record.seats[2], record.seats[0], record.seats[1]]
    record = await store.set_seats(record.id, record.version, reordered)
    assert [(s.player_id, s.seat_order) for s in record.seats] == [("3", 0), ("1", 1), ("2", 2)]


async def test_lobby_options(store):
    record = await new_game(store)
    record = await store.set_lobby_options(
        record.id, record.version, config={"game": "queendomino"}, kind="queendomino"
    )
    assert (record.kind, record.config, record.reminder_hours) == ("queendomino", {"game": "queendomino"}, 12)
    record = await store.set_lobby_options(record.id, record.version, reminder_hours=None, deadline_hours=KEEP)
    assert (record.reminder_hours, record.deadline_hours, record.version) == (None, 48, 3)


async def test_lobby_changes_need_a_lobby(store):
    record = await playing_game(store)
    with pytest.raises(WrongStatus) as caught:
        await store.join_game(record.id, record.version, Seat.human(3, "late"))
    assert caught.value.status == "playing" and caught.value.allowed == ("lobby",)
    with pytest.raises(WrongStatus):
        await store.start_game(record.id, record.version, config={}, state=fake_state())


async def test_unknown_game(store):
    with pytest.raises(GameNotFound, match="#404"):
        await store.get_game(404)
    with pytest.raises(GameNotFound):
        await store.join_game(404, 1, Seat.human(1, "a"))
    with pytest.raises(GameNotFound):
        await store.set_table_message(404, 1, 2)
    with pytest.raises(GameNotFound):
        await store.get_actions(404)
    assert await store.get_active_game(999) is None


async def test_list_games(store):
    a = await new_game(store, channel_id=1, guild_id=10)
    b = await new_game(store, channel_id=2, guild_id=10)
    c = await new_game(store, channel_id=3, guild_id=20)
    await store.cancel_game(b.id)
    b2 = await new_game(store, channel_id=2, guild_id=10)
    assert [g.id for g in await store.list_games()] == [b2.id, c.id, b.id, a.id]
    assert [g.id for g in await store.list_games(statuses=ACTIVE_STATUSES)] == [b2.id, c.id, a.id]
    assert [g.id for g in await store.list_games(guild_id=10, statuses=ACTIVE_STATUSES)] == [b2.id, a.id]
    assert [g.id for g in await store.list_games(statuses={GameStatus.CANCELLED})] == [b.id]
    assert [g.id for g in await store.list_games(channel_id=2)] == [b2.id, b.id]
    assert [g.id for g in await store.list_games(limit=2)] == [b2.id, c.id]
    assert [len(g.seats) for g in await store.list_games()] == [2, 2, 2, 2]


async def test_set_host_hands_the_lobby_over(store, backend):
    record = await new_game(store, players=(1, 2))
    handed = await store.set_host(record.id, record.version, 2)
    assert (handed.host_user_id, handed.version) == (2, record.version + 1)
    before = await backend.dump()
    with pytest.raises(StaleVersion):
        await store.set_host(record.id, record.version, 1)
    game = await playing_game(store, channel_id=5)
    with pytest.raises(WrongStatus):
        await store.set_host(game.id, game.version, 2)
    with pytest.raises(GameNotFound):
        await store.set_host(9999, 1, 2)
    assert (await store.get_game(record.id)).host_user_id == 2
    assert (await backend.dump())["games"][0] == before["games"][0]
