"""A failure between any two statements of a write leaves the old state or the new one, never a mix.

The store calls its `on_step` hook before every statement of a write transaction. Raising from it simulates an error
half-way; `os._exit` from it (in a child process) simulates the bot dying half-way.
"""

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from db import GameStore, Seat, SeatResult, StoreBusy, TurnTimer

from .conftest import START, fake_decode, fake_state, new_game, playing_game

ROOT = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def hold_write_lock(backend, game_id: int):
    """Another process in the middle of writing the game: SQLite's write lock, or PostgreSQL's lock on its row."""
    if backend.name == "sqlite":
        blocker = sqlite3.connect(backend.path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            yield
        finally:
            blocker.close()
        return
    import asyncpg

    blocker = await asyncpg.connect(backend.url)
    try:
        async with blocker.transaction():
            await blocker.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            yield
    finally:
        await blocker.close()


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


Operation = Callable[[GameStore, int, int], Awaitable[object]]

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
async def test_failure_between_any_two_statements_changes_nothing(name, open_store, backend):
    operation = {**OPERATIONS, **IN_PLAY}[name]
    switch = StepSwitch()
    store = await open_store(on_step=switch)
    await new_game(store, channel_id=1)  # a bystander that must never change
    record = await (playing_game if name in IN_PLAY else new_game)(store, players=(1, 2))

    # a first run tells the operation's steps and its outcome; then the database is rebuilt for each failure
    before = await backend.dump()
    switch.steps.clear()
    await operation(store, record.id, record.version)
    steps = list(switch.steps)
    after = await backend.dump()
    assert after != before and steps[-1] == "commit" and len(steps) >= 2
    await store.close()

    for fail_at, step in enumerate(steps):
        await backend.reset()
        switch = StepSwitch()
        store = await open_store(on_step=switch)
        await new_game(store, channel_id=1)
        record = await (playing_game if name in IN_PLAY else new_game)(store, players=(1, 2))
        assert await backend.dump() == before
        switch.steps.clear()
        switch.fail_at = fail_at
        with pytest.raises(Boom, match=step):
            await operation(store, record.id, record.version)
        assert await backend.dump() == before, f"{name} left a mix after failing at {step}"
        # the store is still usable, and the operation goes through when retried
        switch.fail_at = None
        await operation(store, record.id, record.version)
        # the fake clock stands still, so even the timestamps match; PostgreSQL never hands out an id twice, even
        # one of a rolled back insert, so ids are compared by rank
        assert renumbered(await backend.dump()) == renumbered(after)
        await store.close()


GAME_TABLES = ("games", "seats", "actions", "results", "table_claims", "notifications")  # game id first


def renumbered(rows: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """The dump with game ids replaced by their rank, 1, 2, 3..."""
    rank = {game_id: n for n, game_id in enumerate(sorted(row[0] for row in rows["games"]), start=1)}
    return {
        table: sorted(((rank[r[0]], *r[1:]) for r in table_rows), key=repr) if table in GAME_TABLES else table_rows
        for table, table_rows in rows.items()
    }


CHILD = """
import asyncio, os, sys
sys.path.insert(0, {root!r})
from db import SeatResult, open_store

def crash(step):
    if step == {step!r}:
        os._exit(17)

async def main():
    store = await open_store({path!r}, decode_state=None, on_step=crash)
    await store.save_move(
        {game_id}, {version}, state={{"format_version": 1, "turn": 99}}, action={{"final": True}},
        player_id="1", user_id=1, results=[SeatResult("1", 30, True), SeatResult("2", 20, False)],
    )
    await store.close()

asyncio.run(main())
"""


@pytest.mark.parametrize("step", ["update_game", "insert_action", "insert_results", "commit", None])
async def test_the_bot_dying_mid_save_leaves_old_or_new_state(step, open_store, backend):
    store = await open_store()
    record = await playing_game(store, players=(1, 2))
    await store.close()
    before = await backend.dump()

    script = CHILD.format(root=str(ROOT), path=backend.location, step=step, game_id=record.id, version=record.version)
    child = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=60)

    async with await backend.open(decode_state=fake_decode) as store:
        game = await store.get_game(record.id)
        log = await store.get_actions(record.id)
        if step is None:  # no crash: the whole move is there
            assert child.returncode == 0, child.stderr
            assert (game.version, game.status, game.game["turn"], len(log)) == (
                record.version + 1,
                "finished",
                99,
                1,
            )
            assert len(await store.user_stats(1)) == 1
        else:
            assert child.returncode == 17, child.stderr
            assert await backend.dump() == before
            assert (game.version, game.status, log) == (record.version, "playing", [])
            # and play goes on from the old state
            await store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)


@pytest.mark.parametrize("step", ["update_game", "insert_action", "commit"])
async def test_a_task_cancelled_mid_save_leaves_old_or_new_state(step, open_store, backend):
    """The save's task is cancelled while its transaction is at `step`. PostgreSQL's transaction runs on the event
    loop and is rolled back (except once its COMMIT is on its way); SQLite's runs whole on the store's writer thread,
    so it finishes before the cancelled caller goes on. Either way the database holds all of the move or none."""
    armed = False
    loop = asyncio.get_running_loop()
    saving: asyncio.Task | None = None
    on_loop = None

    def cancel_at(name: str) -> None:
        nonlocal on_loop
        if armed and name == step:
            on_loop = threading.get_ident() == loop_thread
            if on_loop:
                saving.cancel()
            else:
                loop.call_soon_threadsafe(saving.cancel)
                time.sleep(0.05)  # the cancellation reaches the caller while the transaction is still running

    loop_thread = threading.get_ident()
    store = await open_store(on_step=cancel_at)
    record = await playing_game(store)
    before = await backend.dump()
    armed = True
    saving = asyncio.create_task(
        store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    )
    with pytest.raises(asyncio.CancelledError):
        await saving
    armed = False
    if step == "commit" and on_loop:
        # The COMMIT was on its way when the caller was cancelled: it lands a moment later, on its own connection.
        # Wait for it (a read before it lands sees the old move, and one just after sees the new one).
        deadline = loop.time() + 60
        while (await store.get_game(record.id)).version == record.version and loop.time() < deadline:
            await asyncio.sleep(0.01)
    game = await store.get_game(record.id)
    log = await store.get_actions(record.id)
    if step == "commit" or not on_loop:  # the transaction was past the point of no return when cancelled
        assert (game.version, game.game["turn"], len(log)) == (record.version + 1, 1, 1)
    else:
        assert await backend.dump() == before
    assert on_loop == (backend.name == "postgres")
    # the connection was not left inside a transaction
    await store.cancel_game(record.id, game.version)


async def test_a_save_cancelled_before_it_starts_never_happens(open_store, backend):
    """A save still queued behind another write when its caller is cancelled is dropped whole."""
    # On SQLite the first save holds the writer thread at its first step until the second is cancelled: otherwise, on
    # a busy machine, the thread could take the second save before the cancellation (which then lets it end whole).
    # PostgreSQL's saves run on the event loop, where the order below is the order things happen.
    loop_thread = threading.get_ident()
    armed, cancelled = False, threading.Event()

    def hold_first(name: str) -> None:
        if armed and threading.get_ident() != loop_thread:
            assert cancelled.wait(timeout=60), "the second save was never cancelled"

    store = await open_store(on_step=hold_first)
    record = await playing_game(store)
    other = await playing_game(store, channel_id=101)
    before = await backend.dump()
    armed = True
    first = asyncio.create_task(
        store.save_move(other.id, other.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    )
    second = asyncio.create_task(
        store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    )
    await asyncio.sleep(0)  # both asked for
    second.cancel()
    cancelled.set()
    await first
    with pytest.raises(asyncio.CancelledError):
        await second
    assert (await store.get_game(record.id)).version == record.version
    assert await store.get_actions(record.id) == []
    assert (await store.get_game(other.id)).version == other.version + 1
    assert before != await backend.dump()
    # and the store goes on
    await store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)


async def test_a_writer_holding_the_lock_too_long_is_reported(open_store, backend):
    store = await open_store(busy_timeout=0.05)
    record = await playing_game(store)
    before = await backend.dump()
    async with hold_write_lock(backend, record.id):
        with pytest.raises(StoreBusy, match="locked"):
            await store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)
    assert await backend.dump() == before
    await store.save_move(record.id, record.version, state=fake_state(1), action={}, player_id="1", user_id=1)


async def test_a_save_cancelled_at_any_moment_leaves_old_or_new_state_and_a_clean_connection(open_store, backend):
    """Cancelled after 0, 1, 2... turns of the event loop (so at every await of the save, BEGIN included): the game
    is the old one or the new one, the store goes on, and no connection goes back to the pool mid-transaction (which
    asyncpg reports through the loop's exception handler)."""
    loop = asyncio.get_running_loop()
    reported: list[str] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: reported.append(str(context.get("message"))))
    try:
        store = await open_store()
        record = await playing_game(store)
        for turns in range(40):
            version = (await store.get_game(record.id)).version
            saving = asyncio.create_task(
                store.save_move(record.id, version, state=fake_state(turns), action={}, player_id="1", user_id=1)
            )
            for _ in range(turns):
                await asyncio.sleep(0)
            saving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await saving
            # A save cancelled while its COMMIT is on the wire may still commit a moment later (the server has the
            # COMMIT; the client stopped waiting and dropped the connection), so two reads can straddle it: read until
            # the game and its log agree, which they must once nothing is in flight.
            for _ in range(6000):  # up to a minute: a busy machine may take more than the usual moment
                game = await store.get_game(record.id)
                log = await store.get_actions(record.id)
                if len(log) == game.version - record.version:
                    break
                await asyncio.sleep(0.01)
            assert game.version in (version, version + 1)
            assert len(log) == game.version - record.version  # one action per saved move, never half of one
        await asyncio.sleep(0.05)  # the pool resets released connections in the background
        assert not [m for m in reported if "active transaction" in m], reported
        await store.save_move(record.id, game.version, state=fake_state(99), action={}, player_id="1", user_id=1)
    finally:
        loop.set_exception_handler(previous)
