"""Many boards on one game cost the bot one read, one shared table and one encoding per view per change, and stay
out of the way of the game's next move: while a move is being shown (its channel's lock is held), the boards draw it
and wait for its end through a single waiter on that lock, not one each (each would take the lock in turn ahead of
the channel's next click)."""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.decide import Change
from tests.e2e.play import start_game
from tests.web.test_view import MODES, position, record
from web import auth
from web.view import game_view, recent_events, table_view

BOARDS = 4
WAIT = 30.0


@pytest.fixture
async def http(local):
    async with aiohttp.ClientSession(base_url=local.board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as s:
        yield s


async def stream(http: aiohttp.ClientSession, gid: int, known: int, got: asyncio.Queue, token: str = "") -> None:
    params = {"v": str(known), **({"s": token} if token else {})}
    async with http.get(f"/api/games/{gid}/events", params=params) as r:
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


async def test_boards_of_a_move_being_shown_wait_for_its_end_on_the_hub_not_in_the_lock(local, http):
    """While a move is saved but not yet shown (its operation holds the game), every board is sent the game as saved,
    offering nothing (`settling`), and waits for the operation's end on the hub's one event: none of them queues for
    the channel's lock (each would otherwise take it in turn ahead of the channel's next click)."""
    async with http.post("/api/games", json={"kind": "kingdomino", "players": 2, "computers": 1}) as r:
        gid = (await r.json())["id"]
    await local.service.idle()
    rec = await local.service.games.get(gid)
    player = rec.game.decision().player
    assert rec.seat_of(player).user_id is not None, "the person's turn"
    hub = local.board.hub
    queues = [asyncio.Queue() for _ in range(BOARDS)]
    tasks = [asyncio.create_task(stream(http, gid, -1, q)) for q in queues]
    try:
        # every board has drawn the game before the move (one still drawing it would see the move under way and
        # wait for its end without drawing it: boards draw one at a time, and their streams open in any order)
        assert {v["version"] for v in await _first_events(queues)} == {rec.version}
        commits = local.service.commits
        async with commits.hold(gid):  # a move under way: saved, its table not yet posted
            game = rec.game.clone()
            action = game.legal_actions()[0]
            saved = await commits.save(rec, game, action, player, None, game.apply(action, by=player))
            drawn = [await asyncio.wait_for(q.get(), WAIT) for q in queues]
            assert len(set(drawn)) == 1, "every board is sent the same event"
            sent = json.loads(drawn[0].split(b"data: ", 1)[1])
            assert sent["version"] == saved.version and sent["settling"] is True and sent["actions"] is None
            event = hub._settled[gid]
            await until(lambda: len(event._waiters) >= BOARDS)  # every board waits for the move's end
            lock = commits._locks[rec.channel_id]
            assert not lock._waiters, "no board queues for the channel's lock"
        after = [await asyncio.wait_for(q.get(), WAIT) for q in queues]
        view = json.loads(after[0].split(b"data: ", 1)[1])
        assert view["version"] == saved.version and not view.get("settling")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_a_board_that_lost_its_stream_on_a_frame_offering_nothing_is_sent_the_settled_state(local, http):
    """A board drawn from a frame sent while a move was under way (offering nothing) that loses its connection
    before the settled frame comes reconnects naming that frame (Last-Event-ID, as a browser does): it is sent the
    settled state at once, not left offering nothing until the game changes again (on a person's turn: never)."""
    async with http.post("/api/games", json={"kind": "kingdomino", "players": 2, "computers": 1}) as r:
        gid = (await r.json())["id"]
    await local.service.idle()
    rec = await local.service.games.get(gid)
    assert rec.seat_of(rec.game.decision().player).user_id is not None, "the person's turn"

    async def first_event(headers: dict) -> tuple[str, dict]:
        async with http.get(f"/api/games/{gid}/events", headers=headers) as r:
            fields = {}
            async for raw in r.content:
                if raw == b"\n" and fields:
                    return fields["id"], json.loads(fields["data"])
                name, _, value = raw.decode().rstrip("\n").partition(": ")
                if name:
                    fields[name] = value
        raise AssertionError("the stream ended without an event")

    async with local.service.commits.hold(gid):  # an operation under way on the person's turn (say, a repair pass)
        shown, drawn = await asyncio.wait_for(first_event({}), WAIT)
    assert drawn["settling"] is True and drawn["actions"] is None
    assert shown == f"{rec.version}-settling"
    # The connection went before the settled frame; the browser reconnects with the last id it was sent.
    again, view = await asyncio.wait_for(first_event({"Last-Event-ID": shown}), WAIT)
    assert again == str(rec.version) and not view.get("settling") and view["actions"]["claim"]


async def test_an_operation_that_saves_nothing_never_takes_the_offer_away_from_a_settled_board(local, http):
    """The person's turn is drawn, offering their moves; then an operation holds the game without saving anything new
    (the computers' chain posting its table, a repair pass) while the board is sent something else (here the
    computers' wait): the board keeps offering the moves. It used to be sent the same version "settling" (nothing
    offered) and then settled again: a flicker in which a tap found nothing to tap."""
    async with http.post("/api/games", json={"kind": "kingdomino", "players": 2, "computers": 1}) as r:
        gid = (await r.json())["id"]
    await local.service.idle()
    rec = await local.service.games.get(gid)
    assert rec.seat_of(rec.game.decision().player).user_id is not None, "the person's turn"
    got: asyncio.Queue = asyncio.Queue()
    task = asyncio.create_task(stream(http, gid, -1, got))
    computers = local.service.computers
    try:
        view = json.loads((await asyncio.wait_for(got.get(), WAIT)).split(b"data: ", 1)[1])
        assert view["version"] == rec.version and not view.get("settling") and view["actions"]["claim"]
        async with local.service.commits.hold(gid):
            computers.waits[gid] = asyncio.Event()
            computers.until[gid] = (time.time() + 30, 30.0)
            local.service.commits.announce(Change(gid, "wait"))
            sent = json.loads((await asyncio.wait_for(got.get(), WAIT)).split(b"data: ", 1)[1])
        assert sent["version"] == rec.version and sent["wait"], "the wait is shown"
        assert not sent.get("settling") and sent["actions"] == view["actions"], "and the moves are still offered"
    finally:
        computers.waits.pop(gid, None)
        computers.until.pop(gid, None)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_version_that_changed_while_a_board_read_it_is_never_offered(local, http, monkeypatch):
    """An operation saves two versions (a move, then the claim it forced); a board reads the first, and by the time it
    would send it the operation is over: that view is already old. The board reads the game again and is sent the
    newest; it used to be sent the old one as settled (the person's moves offered for a moment, then gone: a tap
    then found nothing to tap)."""
    async with http.post("/api/games", json={"kind": "kingdomino", "players": 2, "computers": 1}) as r:
        gid = (await r.json())["id"]
    await local.service.idle()
    rec = await local.service.games.get(gid)
    snapshots = local.board.snapshots
    real, reached, gate = snapshots.stream_view, asyncio.Event(), asyncio.Event()

    async def slow_read(game_id, reader, **options):  # the read of the first version ends after the operation
        view, text = await real(game_id, reader, **options)
        if view["version"] == rec.version + 1:
            reached.set()
            await gate.wait()
        return view, text

    monkeypatch.setattr(snapshots, "stream_view", slow_read)
    got: asyncio.Queue = asyncio.Queue()
    task = asyncio.create_task(stream(http, gid, -1, got))
    try:
        first = json.loads((await asyncio.wait_for(got.get(), WAIT)).split(b"data: ", 1)[1])
        assert first["version"] == rec.version
        commits, game, saved = local.service.commits, rec.game.clone(), rec
        async with commits.hold(gid):
            for _ in range(2):  # the person's move, then the computer's
                player = game.decision().player
                action = game.legal_actions()[0]
                saved = await commits.save(saved, game, action, player, None, game.apply(action, by=player))
                if saved.version == rec.version + 1:
                    await asyncio.wait_for(reached.wait(), WAIT)  # the board has read it
        gate.set()
        sent = json.loads((await asyncio.wait_for(got.get(), WAIT)).split(b"data: ", 1)[1])
        assert sent["version"] == rec.version + 2, "the board is sent the newest version, not the one it read before"
        assert not sent.get("settling")
    finally:
        gate.set()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@settings(max_examples=30)
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


async def _first_events(queues: list[asyncio.Queue]) -> list[dict]:
    return [json.loads((await asyncio.wait_for(q.get(), WAIT)).split(b"data: ", 1)[1]) for q in queues]


async def test_boards_make_their_views_one_at_a_time_and_catch_up_with_the_newest_version(local, http):
    """The boards' work waits its turn (`_rendering`: one view made at a time, a click's answer never queues behind
    all of it); changes heard meanwhile are not lost: each board then draws its game's newest version."""
    games = []
    for _ in range(2):
        async with http.post("/api/games", json={"kind": "kingdomino", "players": 2, "computers": 1}) as r:
            games.append((await r.json())["id"])
    await local.service.idle()
    queues = {gid: [asyncio.Queue() for _ in range(3)] for gid in games}
    tasks = [asyncio.create_task(stream(http, gid, -1, q)) for gid in games for q in queues[gid]]
    board = local.board.snapshots
    try:
        for gid in games:  # every board has drawn its game once
            assert {v["version"] for v in await _first_events(queues[gid])} == {
                (await local.service.games.get(gid)).version
            }
        newest = {}
        async with board._rendering:  # the boards' turn is taken: they wait for it
            for gid in games:
                for _ in range(2):  # two changes in a row: the boards may skip the first, never the second
                    rec = await local.service.games.get(gid)
                    game = rec.game.clone()
                    player = game.decision().player
                    action = game.legal_actions()[0]
                    made = game.apply(action, by=player)  # saved and announced as the commit path does
                    newest[gid] = (await local.service.commits.save(rec, game, action, player, None, made)).version
            # one board per game waits for the turn, the game's others for its view
            await until(lambda: len(board._rendering._waiters or ()) >= len(games))
            assert set(board._drawing) == set(games)
            assert all(q.empty() for qs in queues.values() for q in qs), "nothing is sent before the board's turn"
        for gid in games:
            assert {v["version"] for v in await _first_events(queues[gid])} == {newest[gid]}
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@pytest.mark.e2e
async def test_a_stream_ends_at_its_first_change_after_its_token_expired(fake, bot):
    """A board's session is read once per stream, not at each change, and read again once one of its signed tokens
    expired: the stream of an expired stream token is sent nothing more (the page asks for a new token)."""
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    token = auth.stream_token(bot.board.secret, fake.alice.id, rec.id, seconds=2)
    expiry = auth.expires_at(bot.board.secret, token)
    got: asyncio.Queue = asyncio.Queue()
    async with aiohttp.ClientSession(base_url=bot.board.url) as anonymous:  # no cookie: the token is all it has
        task = asyncio.create_task(stream(anonymous, rec.id, -1, got, token))
        try:
            first = await _first_events([got])
            assert first[0]["version"] == rec.version
            await until(lambda: time.time() > expiry)
            game = rec.game.clone()
            player = game.decision().player
            action = game.legal_actions()[0]
            game.apply(action, by=player)
            await bot.store.save_move(
                rec.id, rec.version, state=game.to_dict(), action=action.to_dict(), player_id=player, user_id=None
            )
            await asyncio.wait_for(task, WAIT)  # the stream ended
            assert got.empty(), "nothing was sent after the token expired"
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


async def test_a_step_of_board_work_lets_whatever_is_ready_run_first_but_not_forever():
    """`after_others`: a step of the boards' work starts in a turn of the loop where nothing else waits (a click's
    answer goes first, all its steps), and still starts when the loop never quiets down."""
    from web.app import after_others

    steps: list[int] = []

    async def answer() -> None:  # a click's answer: a few turns of the loop
        for step in range(5):
            await asyncio.sleep(0)
            steps.append(step)

    task = asyncio.create_task(answer())
    await after_others()
    assert steps == [0, 1, 2, 3, 4] and task.done()

    async def busy() -> None:  # a loop that never quiets down
        while True:
            await asyncio.sleep(0)

    spinner = asyncio.create_task(busy())
    try:
        await asyncio.wait_for(after_others(turns=3), WAIT)  # it goes on all the same
    finally:
        spinner.cancel()


async def test_a_move_saved_here_reaches_the_boards_without_a_read_and_as_a_read_would_show_it(local, http):
    """The commit path hands the game it saved to the boards (`Hub.saved`): they draw it without reading it back
    from the store, and draw what a read would have shown them."""
    async with http.post("/api/games", json={"kind": "kingdomino", "players": 2, "computers": 1}) as r:
        gid = (await r.json())["id"]
    await local.service.idle()
    rec = await local.service.games.get(gid)
    seat = rec.seat_of(rec.game.decision().player)
    assert seat.user_id is not None, "the person's turn"
    reads = local.board.metrics.board_reads
    got: asyncio.Queue = asyncio.Queue()
    task = asyncio.create_task(stream(http, gid, -1, got))
    try:
        assert (await _first_events([got]))[0]["version"] == rec.version
        handed_before = reads.labels(source="handed")._value.get()
        await local.service.play(gid, seat.user_id, rec.game.legal_actions()[0])
        await local.service.idle()  # and the computer player's moves it called for
        newest = (await local.service.games.get(gid)).version
        assert newest > rec.version
        while True:
            sent = (await _first_events([got]))[0]
            if sent["version"] == newest and not sent.get("settling"):
                break
        assert reads.labels(source="handed")._value.get() > handed_before, "drawn from what the commit path saved"
        local.board.snapshots._snapshots.clear()  # forget it and the hand-over: the board reads the game from the store
        local.board.hub.topic(gid).handed = None
        store_before = reads.labels(source="store")._value.get()
        async with http.get(f"/api/games/{gid}") as r:
            read = await r.json()
        assert reads.labels(source="store")._value.get() == store_before + 1
        assert read == sent, "the same view as from the store's copy"
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
