"""Boards hear moves made by another process on the same database (another shard): on PostgreSQL through NOTIFY, on
SQLite through a poll of the watched games' versions. Each "process" here is its own store (own connections) and
its own hub or board server: they share nothing but the database. Every test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from cogs.decide import Change
from db import Seat, open_store
from db.changes import ListeningFeed, PollingFeed, parse_payload
from settings import Settings
from web import streams as board_streams
from web.hub import Hub

WAIT = 30.0  # a bound on each wait for a condition (it fails the test), never a pause
STATE = {"format_version": 1, "turn": 0}


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The shared database: a SQLite file, or a fresh PostgreSQL database on the test server."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
async def stores(location: str) -> AsyncIterator[Callable[..., Any]]:
    """Opens stores on the shared database (each with its own connections, as a process has); closes them all."""
    opened: list[Any] = []

    async def opener() -> Any:
        store = await open_store(location, None, decode_state=None)  # the states here are opaque JSON
        opened.append(store)
        return store

    yield opener
    for store in opened:
        await store.close()


async def until(hub: Hub, game_id: int, condition: Callable[[], bool]) -> None:
    """Wait (woken by the hub, never by a clock) until `condition()` holds for a watched game."""
    while not condition():
        await asyncio.wait_for(hub.topic(game_id).changed.wait(), WAIT)


async def playing(store: Any) -> int:
    rec = await store.create_game(
        channel_id=1,
        guild_id=None,
        host_user_id=11,
        kind="kingdomino",
        config={},
        seats=[Seat.human(11, "Ana", "#e91e63"), Seat.human(12, "Bo", "#2196f3")],
        seed=7,
    )
    await store.start_game(rec.id, rec.version, config={}, state=STATE)
    return rec.id


async def move(store: Any, game_id: int, version: int, turn: int) -> int:
    return await store.save_move(
        game_id, version, state={**STATE, "turn": turn}, action={"type": "skip"}, player_id="11", user_id=11
    )


async def announced(hub: Hub, store: Any, game_id: int, version: int, turn: int) -> int:
    """A move saved by this process's commit path: the write between the announcements that the operation began and
    ended, and the move's own (as `cogs.commit.Commits` makes them)."""
    hub.heard(Change(game_id, "busy"))
    try:
        saved = await move(store, game_id, version, turn)
        hub.heard(Change(game_id, "move", saved))
        return saved
    finally:
        hub.heard(Change(game_id, "settled"))


async def test_a_write_in_one_process_wakes_the_watchers_of_another_once(stores):
    hubs = [Hub(), Hub()]
    first, second = await stores(), await stores()
    for hub, store in zip(hubs, (first, second), strict=True):
        hub.follow(store)
    try:
        assert isinstance(hubs[0].feed, PollingFeed | ListeningFeed)
        assert hubs[0].feed._task is None, "nothing runs before a board opens"
        gid = await playing(first)  # version 2
        topics = [hub.watch(gid) for hub in hubs]
        for hub, topic in zip(hubs, topics, strict=True):
            await until(hub, gid, lambda t=topic: t.seen == 2)  # each feed has looked once
        woken = [topic.version for topic in topics]
        assert await announced(hubs[0], first, gid, 2, 1) == 3  # the first process moves: the second hears it
        await until(hubs[1], gid, lambda: topics[1].seen == 3)
        assert await announced(hubs[1], second, gid, 3, 2) == 4  # and the other way round
        await until(hubs[0], gid, lambda: topics[0].seen == 4)
        await until(hubs[1], gid, lambda: topics[1].seen == 4)
        # Each hub woke its boards once per move: its own write, heard again through the feed, wakes nobody twice.
        assert [topic.version - before for topic, before in zip(topics, woken, strict=True)] == [2, 2]
    finally:
        for hub in hubs:
            await hub.close()


async def test_the_listener_connects_again_and_catches_up(stores, location):
    if "://" not in location:
        pytest.skip("SQLite has no listening connection: it polls")
    import asyncpg

    hub = Hub()
    first = await stores()
    hub.follow(await stores())  # the hub follows the second process's store
    feed = hub.feed
    try:
        gid = await playing(first)
        topic = hub.watch(gid)
        await until(hub, gid, lambda: topic.seen == 2)
        assert feed.listening.is_set() and feed.connections == 1
        # The connection is cut, and no new one may open until the move below is saved: its notice is lost.
        gate = asyncio.Event()
        connect = feed._connect

        async def gated() -> Any:
            await gate.wait()
            return await connect()

        feed._connect = gated
        admin = await asyncpg.connect(location)
        try:
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", feed.server_pid)
        finally:
            await admin.close()
        while feed.listening.is_set():  # the feed saw the connection go
            await asyncio.sleep(0.01)
        assert await move(first, gid, 2, 1) == 3
        assert topic.seen == 2, "nobody could hear it"
        gate.set()
        await until(hub, gid, lambda: topic.seen == 3)  # read when the new connection listens
        assert feed.connections == 2
        assert await move(first, gid, 3, 2) == 4  # and the new connection hears the next one
        await until(hub, gid, lambda: topic.seen == 4)
    finally:
        await hub.close()


def test_notices_that_are_not_ours_are_ignored():
    assert parse_payload("12:7") == (12, 7)
    for bad in ("", "12", "12:", ":7", "a:7", "12:-1", "12:7:1"):
        assert parse_payload(bad) is None, bad


# -- the whole way: two board servers (two bots without Discord) on one database --------------------------------------
def board_settings(tmp_path: Path, name: str, location: str) -> Settings:
    return Settings(
        token="",
        database_path=Path(location) if "://" not in location else tmp_path / f"{name}.sqlite3",
        database_url=location if "://" in location else None,
        dev_guild_id=None,
        log_level=logging.INFO,
        web_port=0,
        web_secret="s" * 40,  # one secret: a person's cookie holds on both servers, as behind one address
    )


async def test_a_move_on_one_server_shows_on_the_other_servers_board(tmp_path, location, monkeypatch):
    from web.local import start_local

    monkeypatch.setattr(board_streams, "KEEPALIVE_SECONDS", 3600.0)  # no quiet-spell re-read: only the feed can tell
    bots, opened = [], []
    try:
        for name in ("one", "two"):
            settings = board_settings(tmp_path, name, location)
            store = await open_store(settings.database_path, settings.database_url)
            opened.append(store)
            bots.append(await start_local(settings, store, timer_period=3600.0))
        one, two = bots
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            body = {"kind": "kingdomino", "players": 2, "computers": 1, "level": "random"}
            async with http.post(one.board.url + "api/games", json=body) as r:
                gid = (await r.json())["id"]
            await one.service.idle()  # the computer has moved if it was first
            async with http.get(f"{one.board.url}api/games/{gid}") as r:
                view = await r.json()
            assert view["turn"]["you"], view["status_line"]
            # A board open on the second server, showing this version: it gets nothing until the game changes.
            heard: asyncio.Queue[int] = asyncio.Queue()
            stream = asyncio.create_task(listen(http, f"{two.board.url}api/games/{gid}/events", view["version"], heard))
            while two.board.hub.version_of(gid) < 0:
                await asyncio.sleep(0.01)
            claim = {"type": "claim", "domino": view["actions"]["claim"][0]}
            async with http.post(
                f"{one.board.url}api/games/{gid}/act", json={"version": view["version"], "action": claim}
            ) as r:
                answer = await r.json()
            assert answer["ok"], answer
            assert answer["version"] > view["version"]
            got = await asyncio.wait_for(heard.get(), WAIT)
            while got < answer["version"]:  # a version written in between (the table shown, a timer) may come first
                got = await asyncio.wait_for(heard.get(), WAIT)
            stream.cancel()
    finally:
        for bot in bots:
            await bot.close()
        for store in opened:
            await store.close()


async def listen(http: aiohttp.ClientSession, url: str, known: int, heard: asyncio.Queue[int]) -> None:
    """Read a board's live stream, putting each version it is sent."""
    async with http.get(url, params={"v": str(known)}, timeout=aiohttp.ClientTimeout(total=None)) as r:
        async for raw in r.content:
            line = raw.decode().strip()
            if line.startswith("data: "):
                await heard.put(json.loads(line[6:])["version"])
