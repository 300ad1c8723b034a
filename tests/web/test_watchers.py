"""Many boards on one game cost the bot one read, one shared table and one encoding per view per change, and stay
out of the way of the game's next move: while a move is being shown (its channel's lock is held), the boards draw it
and wait for its end through a single waiter on that lock, not one each (each would take the lock in turn ahead of
the channel's next click)."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.web.test_view import MODES, position, record
from web.view import game_view, recent_events, table_view

BOARDS = 4
WAIT = 30.0


@pytest.fixture
async def http(local):
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
        yield s


async def stream(http: aiohttp.ClientSession, gid: int, known: int, got: asyncio.Queue) -> None:
    async with http.get(f"/api/games/{gid}/events", params={"v": str(known)}) as r:
        event: list[bytes] = []
        async for raw in r.content:
            if raw == b"\n":  # the end of an event (or of a keep-alive comment)
                if event:
                    await got.put(b"".join(event))
                event = []
            elif not raw.startswith(b":"):
                event.append(raw)


async def until(condition) -> None:
    """Wait until `condition()` holds (checked every 10 ms; the test fails after WAIT seconds)."""

    async def check() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(check(), WAIT)


async def test_boards_of_a_move_being_shown_wait_for_it_through_one_waiter(local, http):
    async with http.post("/api/games", json={"kind": "kingdomino", "players": 2, "computers": 1}) as r:
        gid = (await r.json())["id"]
    await local.service.idle()
    rec = await local.service.get(gid)
    player = rec.game.decision().player
    assert rec.seat_of(player).user_id is not None, "the person's turn"
    entered: list[int] = []
    settled = local.board._settled

    async def counted(game_id: int, lock: asyncio.Lock) -> None:
        entered.append(game_id)
        await settled(game_id, lock)

    local.board._settled = counted
    queues = [asyncio.Queue() for _ in range(BOARDS)]
    tasks = [asyncio.create_task(stream(http, gid, rec.version, q)) for q in queues]
    try:
        await until(lambda: local.board.hub.topic(gid).watchers >= BOARDS)
        lock = local.service.lock(rec.channel_id)
        async with lock:  # a move under way in the channel: saved, its table not yet posted
            game = rec.game.clone()
            action = game.legal_actions()[0]
            game.apply(action, by=player)
            version = await local.service.store.save_move(
                gid, rec.version, state=game.to_dict(), action=action.to_dict(), player_id=player, user_id=None
            )
            drawn = [await asyncio.wait_for(q.get(), WAIT) for q in queues]
            assert len(set(drawn)) == 1, "every board is sent the same event"
            sent = json.loads(drawn[0].split(b"data: ", 1)[1])
            assert sent["version"] == version and sent["settling"] is True and sent["actions"] is None
            await until(lambda: len(entered) >= BOARDS and lock._waiters)  # every board waits for the move's end
            assert len(lock._waiters) == 1, "one waiter for all the boards"
        after = [await asyncio.wait_for(q.get(), WAIT) for q in queues]
        view = json.loads(after[0].split(b"data: ", 1)[1])
        assert view["version"] == version and not view.get("settling")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@settings(max_examples=30, deadline=None)
@given(mode=st.integers(0, len(MODES) - 1), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_every_viewer_of_a_version_shares_one_table_and_sees_what_it_would_alone(mode, seed, steps):
    """The board makes the part of a game's view that every viewer sees alike once per version (`table_view`) and
    adds each viewer's own (their turn, their actions): a viewer's view from the shared part is the one made for
    them alone, whoever was served before them."""
    game, seats = position(mode, seed, steps)
    rec = record(game, seats)
    events = recent_events(game)
    table = table_view(rec, "en", events)
    viewers = [(), *((s.user_id,) for s in seats)]
    for viewer in viewers:
        shared = game_view(rec, viewer, "en", events, table)
        alone = game_view(rec, viewer, "en", events)
        assert json.dumps(shared, sort_keys=True) == json.dumps(alone, sort_keys=True), viewer
    assert json.dumps(table, sort_keys=True) == json.dumps(table_view(rec, "en", events), sort_keys=True)
