"""A failure between any two statements of a write leaves the old state or the new one, never a mix.

The store calls its `on_step` hook before every statement of a write transaction. Raising from it simulates an error
half-way; `os._exit` from it (in a child process) simulates the bot dying half-way.
"""

import asyncio
import os
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from db import Seat, SeatResult, SqliteGameStore, StoreBusy, TurnTimer

from .conftest import START, dump, fake_decode, fake_state, new_game, playing_game

ROOT = Path(__file__).resolve().parents[2]


class Boom(Exception):
    pass


class StepSwitch:
    """The store's step hook: records the steps, and raises at the chosen one."""

    def __init__(self) -> None:
        self.fail_at: int | None = None
        self.steps: list[str] = []

    def __call__(self, step: str) -> None:
        self.steps.append(step)
        if self.fail_at is not None and len(self.steps) - 1 == self.fail_at:
            raise Boom(step)


Operation = Callable[[SqliteGameStore, int, int], Awaitable[object]]

OPERATIONS: dict[str, Operation] = {
    "create_game": lambda s, gid, v: new_game(s, channel_id=999),
    "join_game": lambda s, gid, v: s.join_game(gid, v, Seat.human(3, "Cid")),
    "leave_game": lambda s, gid, v: s.leave_game(gid, v, "2"),
    "set_seats": lambda s, gid, v: s.set_seats(gid, v, [Seat.human(2, "Bea"), Seat.human(1, "Ann")]),
    "set_lobby_options": lambda s, gid, v: s.set_lobby_options(gid, v, config={"x": 1}, reminder_hours=None),
    "start_game": lambda s, gid, v: s.start_game(gid, v, config={}, state=fake_state(), timer=TurnTimer(START, START)),
    "cancel_game": lambda s, gid, v: s.cancel_game(gid, v),
    "set_table_message": lambda s, gid, v: s.set_table_message(gid, 1, 2),
}
IN_PLAY: dict[str, Operation] = {
    "save_move": lambda s, gid, v: s.save_move(
        gid, v, state=fake_state(5), action={"a": 1}, player_id="1", user_id=1, timer=TurnTimer(START, None)
    ),
    "save_final_move": lambda s, gid, v: s.save_move(
        gid,
        v,
        state=fake_state(6),
        action={"a": 2},
        player_id="1",
        user_id=1,
        results=[SeatResult("1", 30, True), SeatResult("2", 20, False)],
    ),
    "finish_game": lambda s, gid, v: s.finish_game(
        gid, v, state=fake_state(7), results=[SeatResult("1", 30, True), SeatResult("2", 20, False)]
    ),
    "set_turn_timer": lambda s, gid, v: s.set_turn_timer(gid, TurnTimer(START, START), expected_version=v),
}


@pytest.mark.parametrize("name", [*OPERATIONS, *IN_PLAY])
async def test_failure_between_any_two_statements_changes_nothing(name, open_store, db_path):
    operation = {**OPERATIONS, **IN_PLAY}[name]
    switch = StepSwitch()
    store = await open_store(on_step=switch)
    await new_game(store, channel_id=1)  # a bystander that must never change
    record = await (playing_game if name in IN_PLAY else new_game)(store, players=(1, 2))

    # a first run tells the operation's steps and its outcome; then the database is rebuilt for each failure
    before = dump(db_path)
    switch.steps.clear()
    await operation(store, record.id, record.version)
    steps = list(switch.steps)
    after = dump(db_path)
    assert after != before and steps[-1] == "commit" and len(steps) >= 2
    await store.close()

    for fail_at, step in enumerate(steps):
        db_path.unlink()
        for suffix in ("-wal", "-shm"):
            Path(f"{db_path}{suffix}").unlink(missing_ok=True)
        switch = StepSwitch()
        store = await open_store(on_step=switch)
        await new_game(store, channel_id=1)
        record = await (playing_game if name in IN_PLAY else new_game)(store, players=(1, 2))
        assert dump(db_path) == before
        switch.steps.clear()
        switch.fail_at = fail_at
        with pytest.raises(Boom, match=step):
            await operation(store, record.id, record.version)
        assert dump(db_path) == before, f"{name} left a mix after failing at {step}"
        # the store is still usable, and the operation goes through when retried
        switch.fail_at = None
        await operation(store, record.id, record.version)
        assert dump(db_path) == after  # the fake clock stands still, so even the timestamps match
        await store.close()


CHILD = """
import asyncio, os, sys
sys.path.insert(0, {root!r})
from db import SeatResult, SqliteGameStore

def crash(step):
    if step == {step!r}:
        os._exit(17)

async def main():
    store = await SqliteGameStore.open({path!r}, decode_state=None, on_step=crash)
    await store.save_move(
        {game_id}, {version}, state={{"format_version": 1, "turn": 99}}, action={{"final": True}},
        player_id="1", user_id=1, results=[SeatResult("1", 30, True), SeatResult("2", 20, False)],
    )
    await store.close()

asyncio.run(main())
"""


@pytest.mark.parametrize("step", ["update_game", "insert_action", "insert_results", "commit", None])
async def test_the_bot_dying_mid_save_leaves_old_or_new_state(step, open_store, db_path):
    store = await open_store()
    record = await playing_game(store, players=(1, 2))
    await store.close()
    before = dump(db_path)

    script = CHILD.format(root=str(ROOT), path=str(db_path), step=step, game_id=record.id, version=record.version)
    child = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=60)

    async with await SqliteGameStore.open(db_path, decode_state=fake_decode) as store:
        game = await store.get_game(record.id)
        log = await store.get_actions(record.id)
        if step is None:  # no crash: the whole move is there
            assert child.returncode == 0, child.stderr
            assert (game.version, game.status, game.state["turn"], len(log)) == (
                record.version + 1,
                "finished",
                99,
                1,
            )
            assert len(await store.user_stats(1)) == 1
        else:
            assert child.returncode == 17, child.stderr
            assert dump(db_path) == before
            assert (game.version, game.status, log) == (record.version, "playing", [])
            # and play goes on from the old state
            await store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    assert os.path.exists(db_path)


@pytest.mark.parametrize("step", ["update_game", "insert_action", "commit"])
async def test_a_task_cancelled_mid_save_leaves_old_or_new_state(step, open_store, db_path):
    armed = False

    def cancel_at(name: str) -> None:
        if armed and name == step:
            asyncio.current_task().cancel()

    store = await open_store(on_step=cancel_at)
    record = await playing_game(store)
    before = dump(db_path)
    armed = True
    with pytest.raises(asyncio.CancelledError):
        await asyncio.create_task(
            store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)
        )
    armed = False
    game = await store.get_game(record.id)
    log = await store.get_actions(record.id)
    if step == "commit":  # the COMMIT was already on its way to SQLite when the task was cancelled
        assert (game.version, game.state["turn"], len(log)) == (record.version + 1, 1, 1)
    else:
        assert dump(db_path) == before
    # the connection was not left inside a transaction
    await store.cancel_game(record.id, game.version)


async def test_a_writer_holding_the_lock_too_long_is_reported(open_store, db_path):
    store = await open_store(busy_timeout=0.05)
    record = await playing_game(store)
    before = dump(db_path)
    blocker = sqlite3.connect(db_path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreBusy, match="locked"):
            await store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    finally:
        blocker.close()
    assert dump(db_path) == before
    await store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)
