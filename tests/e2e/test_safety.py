"""Abuse and safety through the fake Discord, as an ordinary member would try it: hostile names, pings, long typed
values, made-up menu values, tables without a person, rematch spam, cancels while computers think."""

from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image

from tests.e2e.play import TURN, latest_table, open_lobby, play_game, play_turn, start_game

pytestmark = pytest.mark.e2e
CH = "kingdomino"


async def _private(reply):
    message = await reply.wait_message()
    assert message.ephemeral, "a refusal or a look is private"
    return message.content


def _sent_messages(fake):
    """Every message the bot posted or edited, with the mentions it allowed."""
    return [
        r
        for r in fake.requests
        if r.method in ("POST", "PATCH") and "/messages" in r.path and isinstance(r.json, dict) and "content" in r.json
    ]


async def test_a_hostile_nickname_cannot_ping_link_or_reformat(fake, bot):
    # A member whose display name tries to ping Bob and everyone, carry a masked link and make a heading.
    # (Discord allows 32 characters in a name: the ping and the link come from two members.)
    hostile = fake.add_user(f"<@{fake.bob.id}> @everyone")
    linker = fake.add_user("[click](https://example.com) # big")
    odd = fake.add_user("line\u2029break\u202eevil\u200bname\nx")
    await start_game(fake, fake.alice, CH, [hostile, linker, odd], game="kingdomino", players=4)
    rec = await bot.store.get_active_game(fake.channel(CH).id)
    stored = {s.user_id: s.display_name for s in rec.seats}
    assert stored[odd.id] == "Line breakevilname x", "separators, direction and zero-width characters are removed"
    people = {str(u.id): u for u in (fake.alice, hostile, linker, odd)}
    rng = random.Random(3)
    for _ in range(4):
        rec = await bot.store.get_active_game(fake.channel(CH).id)
        await play_turn(fake, people[rec.game.decision().player], CH, rng)
    await fake.settle()

    seated = {fake.alice.id, hostile.id, linker.id, odd.id}
    for request in _sent_messages(fake):
        allowed = request.json.get("allowed_mentions")
        assert allowed is not None, f"{request.short_path} names whom it pings"
        assert allowed.get("parse", []) == [], "never parse: users/everyone/roles"
        assert {int(u) for u in allowed.get("users", [])} <= seated, "only players are ever pinged"
        assert len(allowed.get("users", [])) <= 1, "a message pings at most the player to act"
        content = request.json["content"] or ""
        # Bob's id appears only escaped (a zero-width space after @), the link is broken, nothing is a heading.
        assert f"<@{fake.bob.id}>" not in content
        assert "@everyone" not in content
        assert "](https://" not in content and "https://example.com" not in content
    table = latest_table(fake, CH)
    assert "Scores:" in table.content and "\\[click](https:\u200b//" in table.content
    # The pictures still draw, with every name.
    image = Image.open(io.BytesIO(table.attachments[0].data))
    assert image.size[0] > 500
    look = await (await fake.slash(hostile, CH, "look", "kingdom")).wait_message()
    assert look.attachments and "@\u200beveryone" in look.content


async def test_a_turn_takes_few_taps(fake, bot):
    """Counts the clicks of whole turns, and checks that the steps with one choice are not asked."""
    clicks = {"n": 0}
    real_click, real_select = fake.click, fake.select

    async def click(*args, **kwargs):
        clicks["n"] += 1
        return await real_click(*args, **kwargs)

    async def select(*args, **kwargs):
        clicks["n"] += 1
        return await real_select(*args, **kwargs)

    fake.click, fake.select = click, select
    await start_game(fake, fake.alice, CH, [fake.bob], game="queendomino", players=2)
    people = {str(u.id): u for u in (fake.alice, fake.bob)}
    rng = random.Random(5)
    per_turn = []
    for _ in range(16):
        rec = await bot.store.get_active_game(fake.channel(CH).id)
        if rec.game.round < 2:
            await play_turn(fake, people[rec.game.decision().player], CH, rng, prefer_optional=False)
            continue
        before = clicks["n"]
        await play_turn(fake, people[rec.game.decision().player], CH, rng, prefer_optional=False)
        per_turn.append(clicks["n"] - before)
    # Open the panel, cell, direction, confirm, done with the optional steps, claim: at most 6 taps for one king
    # (a player with two kings in a row plays both in one panel).
    per_turn.sort()
    assert per_turn and per_turn[len(per_turn) // 2] <= 7 and max(per_turn) <= 14, per_turn
    print(f"\ntaps per Queendomino turn (2 players, optional steps skipped): {per_turn}")


async def test_the_last_free_domino_is_claimed_for_the_player(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob, fake.carol], game="kingdomino", players=3)
    people = {str(u.id): u for u in (fake.alice, fake.bob, fake.carol)}
    rng = random.Random(2)
    told = []
    for _ in range(6):
        rec = await bot.store.get_active_game(fake.channel(CH).id)
        panel = await play_turn(fake, people[rec.game.decision().player], CH, rng)
        shown = [h.get("content") or "" for h in panel.history] + [panel.content]  # each step of the panel
        told += [line for text in shown for line in text.splitlines() if "the last free one" in line]
    assert told, "the player is told in their panel that their king took the last free domino"
    actions = await bot.store.get_actions(rec.id)
    auto = [a for a in actions if a.action["type"] in ("claim", "first_claim") and a.user_id is None]
    assert auto, "forced claims are in the log, by nobody's click"


async def test_nobody_is_left_with_a_table_of_computers(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="kingdomino", players=3, computers=2)
    assert "Leave at least one seat" not in lobby.content
    # The host leaves: nobody else is seated, so the table closes rather than starting without a person.
    text = await _private(await fake.click(fake.alice, lobby, "Leave"))
    assert "it is closed" in text
    assert await bot.store.get_active_game(fake.channel(CH).id) is None

    lobby = await open_lobby(fake, fake.alice, CH, game="kingdomino", players=4, computers=1)
    await (await fake.click(fake.bob, lobby, "Join")).wait_message()
    text = await _private(await fake.click(fake.alice, lobby, "Leave"))
    assert f"<@{fake.bob.id}> is the host now" in text
    rec = await bot.store.get_active_game(fake.channel(CH).id)
    assert rec.host_user_id == fake.bob.id and all(s.user_id != fake.alice.id for s in rec.seats)
    # Alice is no longer host: she cannot start it; Bob can.
    assert "Only the host" in await _private(await fake.click(fake.alice, lobby, "Start"))
    assert "started" in await _private(await fake.click(fake.bob, lobby, "Start"))


async def test_made_up_menu_values_and_long_typed_values_are_refused(fake, bot):
    lobby = await open_lobby(fake, fake.alice, CH, game="kingdomino", players=3)
    cpu = lobby.component("Computer players (host only)", types=(3,))
    # A modified client sends a value the menu never offered.
    text = await _private(await fake.select(fake.alice, lobby, cpu["custom_id"], ["insane"], client_checks=False))
    assert "Pick one of the menu's choices" in text
    rec = await bot.store.get_active_game(fake.channel(CH).id)
    assert len(rec.seats) == 1, "nothing was added"
    await (await fake.click(fake.bob, lobby, "Join")).wait_message()
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    await fake.settle()
    rec = await bot.store.get_active_game(fake.channel(CH).id)
    mover = {str(u.id): u for u in (fake.alice, fake.bob)}[rec.game.decision().player]
    for names, options in (
        (("claim",), {"domino": "9" * 3000}),
        (("place",), {"cell": "E" * 3000, "direction": "up"}),
        (("tax",), {"knights": "A1 " * 1000}),
    ):
        reply = await fake.slash(mover, CH, "play", *names, options=options, client_checks=False)
        message = await reply.wait_message()
        assert message.ephemeral and len(message.content) <= 2000 and "9" * 30 not in message.content
    after = await bot.store.get_active_game(fake.channel(CH).id)
    assert after.version == rec.version


async def test_rematch_seats_only_who_asks_pings_nobody_and_works_once(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    await play_game(fake, bot, CH, {str(u.id): u for u in (fake.alice, fake.bob)}, seed=4)
    final = latest_table(fake, CH)
    mark = fake.mark()
    assert "Your table is open" in await _private(await fake.click(fake.bob, final, "Rematch"))
    rec = await bot.store.get_active_game(fake.channel(CH).id)
    assert [s.user_id for s in rec.seats] == [fake.bob.id], "only the person who asked is seated"
    posted = [r for r in fake.requests[mark:] if r.method == "POST" and r.path.endswith("/messages")]
    assert posted and all(not (r.json.get("allowed_mentions") or {}).get("users") for r in posted)
    # Alice takes her seat with the same button; a third click is refused.
    assert "joined" in await _private(await fake.click(fake.alice, final, "Rematch"))
    assert "already have a seat" in await _private(await fake.click(fake.alice, final, "Rematch"))
    await (await fake.slash(fake.bob, CH, "game", "cancel")).wait_message()
    await fake.settle()
    assert "already used" in await _private(await fake.click(fake.alice, final, "Rematch"))
    assert await bot.store.get_active_game(fake.channel(CH).id) is None


async def test_a_cancel_stops_computers_at_once(fake, bot, monkeypatch):
    real = bot.service.computer_action
    thinking, release = asyncio.Event(), asyncio.Event()

    async def slow(game, level, **kwargs):  # a computer that thinks until the test lets it go on
        thinking.set()
        await release.wait()
        return await real(game, level, **kwargs)

    monkeypatch.setattr(bot.service, "computer_action", slow)
    lobby = await open_lobby(fake, fake.alice, CH, game="kingdomino", players=4, computers=3, computer_level="easy")
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()
    rec = await bot.store.get_active_game(fake.channel(CH).id)
    channel_id, rng = fake.channel(CH).id, random.Random(5)
    while not thinking.is_set():  # alice plays until a computer is at work
        if (await bot.store.get_active_game(channel_id)).game.decision().player == str(fake.alice.id):
            await bot.service.idle()  # the table that names her is posted (no computer works on her turn)
            await play_turn(fake, fake.alice, CH, rng)
        else:
            await fake.wait_until(thinking.is_set, what="a computer at work")
    reply = await fake.slash(fake.alice, CH, "game", "cancel")
    # Answered while a computer still thinks (a cancel that waited for the computers would never be answered here).
    assert "cancelled" in (await reply.wait_message()).content
    cancelled = await bot.store.get_game(rec.id)
    assert cancelled.status == "cancelled"
    release.set()
    await bot.service.idle()
    await fake.settle()
    assert (await bot.store.get_game(rec.id)).version == cancelled.version, "no computer moved after the cancel"
    tables = [m for m in fake.messages_in(CH) if any(a.filename == "table.png" for a in m.attachments)]
    assert all(TURN not in m.button_labels for m in tables), "no table invites a turn after the cancel"


async def test_server_commands_are_not_offered_in_direct_messages(fake, bot):
    commands = {c["name"]: c for c in fake.commands_for(None)}
    for name in ("game", "play", "look", "stats"):
        command = commands[name]
        assert command["dm_permission"] is False or command["contexts"] == [0], f"/{name} is offered in DMs"
    # /rules needs no server: it stays available everywhere.
    assert commands["rules"]["dm_permission"] is not False


async def _damage(bot, game_id: int) -> None:
    """Write a seat colour the store refuses, behind the bot's back (as a bad migration or a hand edit would)."""
    settings = bot.settings
    if getattr(settings, "database_url", None):
        import asyncpg

        conn = await asyncpg.connect(settings.database_url)
        try:
            await conn.execute("UPDATE seats SET colour = 'pink' WHERE game_id = $1 AND seat_order = 0", game_id)
        finally:
            await conn.close()
    else:
        import sqlite3

        with sqlite3.connect(settings.database_path) as conn:
            conn.execute("UPDATE seats SET colour = 'pink' WHERE game_id = ? AND seat_order = 0", (game_id,))


async def test_a_game_that_cannot_be_read_says_so_and_can_be_closed(fake, harness, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    rec = await bot.store.get_active_game(fake.channel(CH).id)
    await _damage(bot, rec.id)
    for names in (("look", "table"), ("play", "panel"), ("game", "join")):
        text = await _private(await fake.slash(fake.carol, CH, *names))
        assert "cannot be read" in text and "/game cancel" in text, (names, text)
    text = await _private(await fake.click(fake.bob, latest_table(fake, CH), TURN))
    assert "cannot be read" in text
    # Not everyone may close it; the host may, and the channel is free again.
    assert "Only the host or a member with Manage Channels" in await _private(
        await fake.slash(fake.carol, CH, "game", "cancel")
    )
    assert "it is closed" in await _private(await fake.slash(fake.alice, CH, "game", "cancel"))
    summary = (await bot.store.list_games(channel_id=fake.channel(CH).id, limit=1))[0]
    assert summary.status == "cancelled" and summary.end_reason == "unreadable"
    lobby = await open_lobby(fake, fake.carol, CH, game="kingdomino", players=2)
    assert "Join" in lobby.button_labels
    errors = harness.take_logged_errors()
    assert len(errors) == 1 and "colour 'pink'" in errors[0], "logged once, naming the damaged field"
    fake.take_violations()


async def test_limits_per_member_and_lobbies_that_expire(fake, bot):
    from datetime import timedelta

    from cogs.decide import utcnow

    text = await _private(
        await fake.slash(fake.alice, CH, "settings", "server", options={"lobbies_per_member": 1, "games_per_member": 2})
    )
    assert "Only members with Manage Server" in text
    text = await _private(
        await fake.slash(
            fake.owner,
            CH,
            "settings",
            "server",
            options={"lobbies_per_member": 1, "games_per_member": 2, "lobby_expiry_hours": 2.0},
        )
    )
    assert "open tables one member may host at once: 1" in text
    await open_lobby(fake, fake.alice, CH, game="kingdomino", players=3)
    from tests.e2e.test_finding import _thread

    thread = await _thread(fake, "second")
    refused = await _private(await fake.slash(fake.alice, thread.name, "game", "new", options={"game": "kingdomino"}))
    assert "You already host 1 open table" in refused
    assert await bot.store.get_active_game(thread.id) is None
    # The lobby nobody starts closes after the server's 2 hours, and frees the channel.
    later = utcnow() + timedelta(hours=2, minutes=5)
    bot.service.clock = lambda: later
    closed = await bot.service.timers.expire_lobbies()
    assert len(closed) == 1 and await bot.store.get_active_game(fake.channel(CH).id) is None
    summary = (await bot.store.list_games(channel_id=fake.channel(CH).id, limit=1))[0]
    assert summary.end_reason == "expired"
    await fake.settle()
    assert "Nobody started this table within 2 h" in fake.message(closed and fake.messages_in(CH)[0].id).content or any(
        "Nobody started this table within 2 h" in m.content for m in fake.messages_in(CH)
    )


async def test_a_deleted_thread_ends_its_game_and_its_timers(fake, bot):
    from tests.e2e.test_finding import _thread

    thread = await _thread(fake, "doomed")
    await start_game(fake, fake.carol, thread.name, [fake.alice], game="kingdomino", players=2, reminder_hours=1.0)
    rec = await bot.store.get_active_game(thread.id)
    await fake.delete_channel(thread.name)
    await fake.wait_until(lambda: True)
    for _ in range(3000):  # until the bot has ended it (up to a minute: a busy machine may take more than a second)
        summary = (await bot.store.list_games(channel_id=thread.id, limit=1))[0]
        if summary.status != "playing":
            break
        await asyncio.sleep(0.02)
    assert summary.status == "cancelled" and summary.end_reason == "abandoned"
    from datetime import timedelta

    from cogs.decide import utcnow

    later = utcnow() + timedelta(hours=5)
    bot.service.clock = lambda: later
    assert await bot.service.timers.run_due() == 0, "no timer fires for it any more"
    assert rec.id == summary.id


async def test_a_game_waiting_for_a_computer_player_keeps_no_engine_game_alive(fake, bot):
    """While a computer's move waits in the AI pool's queue (seconds, when the pool is busy), the bot keeps only the
    state the pool was given: the record and the engine game it was read from are let go (every object kept is
    scanned by each full garbage collection, a pause of the event loop). The move is then applied to the game read
    again at the same version, and the game goes on."""
    import gc
    import weakref

    from engine.ai import make_agent

    service = bot.service
    channel_id = fake.channel(CH).id
    read: list[weakref.ref] = []
    get = service.games.get

    async def get_and_watch(game_id):
        rec = await get(game_id)
        if rec.game is not None:
            read.append(weakref.ref(rec.game))
        return rec

    class WaitingPool:  # the AI pool's interface: a state in, an action's dict out
        def __init__(self) -> None:
            self.asked = asyncio.Event()
            self.go = asyncio.Event()

        async def choose(self, state, level, seed, *, key, **options):  # keeps the state pickled, as AIPool's
            import pickle

            from engine import Game as EngineGame

            packed = pickle.dumps(state)
            del state
            self.asked.set()
            await self.go.wait()
            return make_agent(level, seed=seed).choose(EngineGame.from_dict(pickle.loads(packed))).to_dict()

        async def choose_action(self, game, level, seed, *, key, **options):  # as AIPool's
            from engine import action_from_dict

            return action_from_dict(await self.choose(game.to_dict(), level, seed, key=key, **options))

    pool = WaitingPool()
    service.games.get, service.ai_pool = get_and_watch, pool
    try:
        lobby = await open_lobby(fake, fake.alice, CH, game="kingdomino", players=2, computers=1, computer_level="easy")
        await (await fake.click(fake.alice, lobby, "Start")).wait_message()
        rec = await bot.store.get_active_game(channel_id)
        while rec.game.decision() is not None and rec.seat_of(rec.game.decision().player).is_computer is False:
            await play_turn(fake, fake.alice, CH, random.Random(1))
            await fake.settle()
            rec = await get(rec.id)
        del rec
        await asyncio.wait_for(pool.asked.wait(), 10)
        gc.collect()
        alive = [ref() for ref in read if ref() is not None]
        assert alive == [], f"{len(alive)} engine games are kept while the computer thinks"
        del alive
        states = [o for o in gc.get_objects() if isinstance(o, dict) and o.get("format_version") and "kingdoms" in o]
        assert states == [], "the game's state dict is kept while the computer thinks (the pool keeps it pickled)"
        before = (await bot.store.get_active_game(channel_id)).version
        pool.go.set()
        await service.idle()
        assert (await bot.store.get_active_game(channel_id)).version > before, "the computer's move was saved"
    finally:
        pool.go.set()
        service.games.get, service.ai_pool = get, None
