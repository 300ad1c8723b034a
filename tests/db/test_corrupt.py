"""One damaged game is reported as that game's problem; every other game keeps working."""

import pytest

from db import CorruptGame, GameStatus, Seat

from .conftest import fake_state, new_game, playing_game

NOT_JSON = "PostgreSQL's jsonb holds only valid JSON"


async def damage(backend, game_id: int, column: str, value) -> None:
    table, column = column.split(".") if "." in column else ("games", column)
    key = "id" if table == "games" else "game_id"
    if table == "seats":  # the first seat
        await backend.execute(f"UPDATE seats SET {column} = ? WHERE game_id = ? AND seat_order = 0", value, game_id)
    else:
        await backend.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", value, game_id)


@pytest.mark.parametrize(
    ("column", "value", "reason"),
    [
        ("state", '{"format_version": 1, "turn": ', "its state is not valid JSON"),
        ("state", "[1, 2, 3]", "its state is JSON but not an object"),
        ("config", "not json at all", "its config is not valid JSON"),
        ("config", '"a string"', "its config is JSON but not an object"),
        ("state", '{"format_version": 99}', "the engine refused its state (ValueError: unknown format_version 99)"),
        ("state", None, "it is playing but has no state"),
        ("kind", "chess", "its kind 'chess' is not one of"),
        ("seats.colour", "pink", "its seat 0 has colour 'pink', not a colour like '#rrggbb'"),
        ("seats.colour", "#12345", "its seat 0 has colour '#12345'"),
        ("seats.player_id", "42", "its seat 0 has player id '42' for user 1"),
    ],
)
async def test_a_corrupt_game_is_reported_alone(column, value, reason, store, backend):
    if backend.name == "postgres" and "not valid JSON" in reason:
        pytest.skip(NOT_JSON)
    healthy = await playing_game(store, channel_id=1)
    broken = await playing_game(store, channel_id=2)
    await damage(backend, broken.id, column, value)

    with pytest.raises(CorruptGame) as caught:
        await store.get_game(broken.id)
    assert caught.value.game_id == broken.id
    assert reason in caught.value.reason
    assert caught.value.field == column
    assert f"game #{broken.id} cannot be loaded" in str(caught.value)
    with pytest.raises(CorruptGame):
        await store.get_active_game(2)

    # everything else still works, including listing the broken game and cancelling it
    assert (await store.get_game(healthy.id)).game == fake_state()
    assert (await store.get_active_game(1)).id == healthy.id
    assert {g.id for g in await store.list_games()} == {healthy.id, broken.id}
    assert (await store.get_active_summary(2)).id == broken.id  # what the bot says "cannot be read" about
    await store.save_move(healthy.id, healthy.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    await store.cancel_game(broken.id, reason="unreadable")
    cancelled = (await store.list_games(statuses={GameStatus.CANCELLED}))[0]
    assert (cancelled.id, cancelled.end_reason) == (broken.id, "unreadable")
    assert await store.get_active_summary(2) is None


async def test_engine_raising_anything_is_a_corrupt_game(open_store):
    def picky_engine(state):
        raise KeyError("kingdoms")

    store = await open_store(decode_state=picky_engine)
    record = await new_game(store)
    await store.start_game(record.id, record.version, config={}, state=fake_state())
    with pytest.raises(CorruptGame, match="KeyError"):
        await store.get_game(record.id)
    assert len(await store.list_games()) == 1


async def test_a_damaged_log_entry_is_reported_for_its_game(store, backend):
    if backend.name == "postgres":
        pytest.skip(NOT_JSON)
    record = await playing_game(store)
    await store.save_move(record.id, record.version, state=fake_state(1), action={"a": 1}, player_id="1", user_id=1)
    await backend.execute("UPDATE actions SET action = '{oops' WHERE game_id = ?", record.id)
    with pytest.raises(CorruptGame, match="action 1 of its log"):
        await store.get_actions(record.id)


async def test_a_computer_seat_with_an_unknown_level_is_reported(store, backend):
    record = await new_game(store, players=(1,))
    await store.join_game(record.id, record.version, Seat.computer(1, "easy", "Robot"))
    await backend.execute("UPDATE seats SET cpu_level = 'greedy' WHERE game_id = ? AND seat_order = 1", record.id)
    with pytest.raises(CorruptGame, match="computer level 'greedy'") as caught:
        await store.get_game(record.id)
    assert caught.value.field == "seats.cpu_level"
    summary = await store.get_active_summary(100)
    assert summary.seats[1].cpu_level == "greedy"  # the summary shows it as stored, without judging
    await store.cancel_game(record.id, reason="unreadable")


@pytest.mark.parametrize(
    "seat",
    [
        Seat.human(3, "Cid", "pink"),
        Seat.computer(1, "greedy", "Robot"),
        Seat.computer(1, "grandmaster", "Robot"),  # a level no agent plays ("expert" was one, before it was built)
        Seat(player_id="7", display_name="Eve", user_id=8),
        Seat(player_id="robot", display_name="Robot", cpu_level="easy"),
    ],
)
async def test_bad_seat_values_are_refused_before_anything_is_written(seat, store, backend):
    record = await new_game(store, players=(1,))
    before = await backend.dump()
    with pytest.raises(ValueError, match="seat"):
        await store.join_game(record.id, record.version, seat)
    with pytest.raises(ValueError, match="seat"):
        await store.set_seats(record.id, record.version, [*record.seats, seat])
    with pytest.raises(ValueError, match="seat"):
        await new_game_with(store, seat)
    assert await backend.dump() == before


async def new_game_with(store, seat):
    return await store.create_game(
        channel_id=555, guild_id=1, host_user_id=1, kind="kingdomino", config={}, seats=[seat]
    )


async def test_an_unknown_kind_is_refused(store):
    with pytest.raises(ValueError, match="kind must be one of"):
        await store.create_game(channel_id=1, guild_id=1, host_user_id=1, kind="chess", config={})
    record = await new_game(store)
    with pytest.raises(ValueError, match="kind must be one of"):
        await store.set_lobby_options(record.id, record.version, kind="chess")
    assert (await store.get_game(record.id)).kind == "kingdomino"
    assert [g.id for g in await store.list_games()] == [record.id]
