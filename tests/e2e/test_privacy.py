"""A person's data, through the fake Discord (issue 48): `/settings my-data` lists exactly what the store holds about
them and nobody else's; after `/settings forget-me` (confirmed with its button) no table, log, rating, setting or
picture text of any stored game names them, the other players' results and ratings are unchanged, and a game in play
goes on with a computer player in their seat. A server that removed the bot keeps its games for the period, then
they are deleted."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from datetime import timedelta
from typing import Any

import pytest

from cogs.look import leaderboard_games
from db import results_from_game
from db.models import GameStatus, Seat
from db.ratings import compute_ratings
from engine import Game, GameConfig, action_from_dict
from engine.ai import make_agent
from tests.e2e.play import latest_table, play_turn, start_game

pytestmark = pytest.mark.e2e
CH = "kingdomino"


async def finished_game(store, *, channel_id: int, guild_id: int, seats: list[Seat], seed: int) -> int:
    """A finished Kingdomino game saved straight through the store as the bot saves one: each person's moves with
    their user id, the last with the results."""
    rec = await store.create_game(
        channel_id=channel_id, guild_id=guild_id, host_user_id=seats[0].user_id, kind="kingdomino",
        config={"language": "cs" if seed % 2 else "en"}, seats=seats, seed=seed,
    )  # fmt: skip
    game = Game.new(GameConfig("kingdomino", tuple(s.player_id for s in seats)), seed)
    config = {**game.config.to_dict(), "language": "cs" if seed % 2 else "en"}
    version = await store.start_game(rec.id, rec.version, config=config, state=game.to_dict())
    while not game.is_over:
        player = game.decision().player
        action = make_agent("easy", seed=len(game.log)).choose(game)
        game.apply(action, by=player)
        seat = next(s for s in seats if s.player_id == player)
        version = await store.save_move(
            rec.id, version, state=game.to_dict(), action=action.to_dict(), player_id=player, user_id=seat.user_id,
            results=results_from_game(game) if game.is_over else None,
        )  # fmt: skip
    return rec.id


async def every_row(bot) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the bot's database, read behind its back."""
    location = bot.settings.database_url
    if location is None:
        with sqlite3.connect(bot.settings.database_path) as conn:
            conn.row_factory = sqlite3.Row
            names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            return {t: [dict(r) for r in conn.execute(f"SELECT * FROM {t}")] for t in names}
    import asyncpg

    conn = await asyncpg.connect(location)
    try:
        names = [r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return {t: [dict(r) for r in await conn.fetch(f'SELECT * FROM "{t}"')] for t in names}
    finally:
        await conn.close()


def naming(rows: dict[str, list[dict[str, Any]]], *needles: str) -> list[str]:
    """The rows (table: row) whose text holds any of `needles`."""
    return [
        f"{t}: {r}" for t, table in rows.items() for r in table if any(n in json.dumps(r, default=str) for n in needles)
    ]


async def ladder(bot, guild_id: int) -> dict[str, tuple[float, float, int, int]]:
    finished = await bot.store.finished_results(guild_id, "kingdomino")
    rows = compute_ratings(leaderboard_games(finished)).get("kingdomino", [])
    return {r.player: (round(r.mu, 9), round(r.sigma, 9), r.games, r.wins) for r in rows}


async def my_data(fake, user) -> dict | None:
    reply = await fake.slash(user, "general", "settings", "my-data")
    message = await reply.wait_message()
    assert message.ephemeral
    if not message.attachments:
        assert "keeps nothing about you" in message.content, message.content
        return None
    assert "/settings forget-me" in message.content
    [file] = message.attachments
    assert file.filename == "my-data.json"
    return json.loads(file.data)


async def test_my_data_lists_exactly_theirs_and_forget_me_erases_it(fake, bot, backend):
    alice, bob, carol = fake.alice, fake.bob, fake.carol
    store, guild = bot.store, fake.guild_id
    general = fake.channel("general")
    await (await fake.slash(alice, "general", "settings", "notify", options={"how": "dm"})).wait_message()
    await (await fake.slash(bob, "general", "settings", "notify", options={"how": "both"})).wait_message()
    people = [Seat.human(alice.id, "Alice Liddell"), Seat.human(bob.id, "Bob Builder"), Seat.human(carol.id, "Carol")]
    shared = await finished_game(store, channel_id=general.id, guild_id=guild, seats=people, seed=1)
    await finished_game(store, channel_id=424242, guild_id=guild, seats=[people[2], people[0]], seed=2)
    others = await finished_game(store, channel_id=434343, guild_id=guild, seats=[people[1], people[2]], seed=4)
    # a game in play in #kingdomino, hosted by Alice, with Bob: a few turns by clicks
    await start_game(fake, alice, CH, [bob], game="kingdomino", players=2)
    rng = random.Random(7)
    clickers = {str(alice.id): alice, str(bob.id): bob}
    for _ in range(3):
        rec = await store.get_active_game(fake.channel(CH).id)
        await play_turn(fake, clickers[rec.game.decision().player], CH, rng)
    await fake.settle()
    playing = (await store.get_active_game(fake.channel(CH).id)).id
    # a kept picture of the finished game Alice played (its replay: it shows the names)
    replay = await fake.slash(carol, "general", "look", "replay")
    assert (await replay.wait_message()).attachments
    kept = bot.settings.database_path.parent / "pictures"
    assert any(p.name.startswith(f"{shared}-") for p in kept.iterdir())

    # my-data: exactly what the store holds about Alice, nobody else's
    data = await my_data(fake, alice)
    rows = await every_row(bot)
    aid = alice.id
    assert data["user_id"] == str(aid)
    assert data["settings"]["notify"] == "dm"
    assert sorted((g["game_id"], g["seat"]["player_id"], g["seat"]["name"]) for g in data["games"]) == sorted(
        (r["game_id"], r["player_id"], r["display_name"]) for r in rows["seats"] if r["user_id"] == aid
    )
    assert {g["game_id"] for g in data["games"]} == {shared, playing} | {g["game_id"] for g in data["games"]} - {others}
    assert sorted((m["game_id"], m["seq"]) for m in data["moves"]) == sorted(
        (r["game_id"], r["seq"]) for r in rows["actions"] if r["user_id"] == aid or r["player_id"] == str(aid)
    )
    assert sorted(data["hosted_games"]) == sorted(r["id"] for r in rows["games"] if r["host_user_id"] == aid)
    assert sorted((n["game_id"], n["turn_key"], n["kind"]) for n in data["notifications"]) == sorted(
        (r["game_id"], r["turn_key"], r["kind"]) for r in rows["notifications"] if r["user_id"] == aid
    )
    assert data["notifications"], "Alice is told of her turns by direct message: those records are hers"
    results = {g["game_id"]: g["result"] for g in data["games"] if g["result"]}
    assert results[shared]["score"] == next(
        r["score"] for r in rows["results"] if r["game_id"] == shared and r["player_id"] == str(aid)
    )
    text = json.dumps(data)
    for stranger in (bob, carol):
        assert str(stranger.id) not in text, f"{stranger.name}'s id is in Alice's data"
    assert "Bob Builder" not in text and '"Carol"' not in text and others not in {g["game_id"] for g in data["games"]}

    # forget-me: asked first (the question is Alice's alone to see), then her button
    before_ladder = await ladder(bot, guild)
    before_results = {(r["game_id"], r["player_id"]): r["score"] for r in rows["results"] if r["player_id"] != str(aid)}
    asked = await (await fake.slash(alice, "general", "settings", "forget-me")).wait_message()
    assert asked.ephemeral and "a former player" in asked.content and asked.button_labels == ["Erase my data"]
    done = await fake.click(alice, asked, "Erase my data")
    await fake.wait_until(lambda: "Done" in fake.message(asked.id).content, what="forget-me done")
    assert "3 stored games" in fake.message(asked.id).content and not fake.message(asked.id).buttons
    assert done.response_type == 6
    await bot.service.idle()
    await fake.settle()

    # nothing in the store names her: no table, log, result, seat, setting or notification
    rows = await every_row(bot)
    assert naming(rows, str(aid), "Alice Liddell", "alice") == []
    assert await my_data(fake, alice) is None
    # the other players' results and ratings are as they were; her entry is gone from the ladder
    after_results = {(r["game_id"], r["player_id"]): r["score"] for r in rows["results"]}
    assert {k: v for k, v in after_results.items() if k in before_results} == before_results
    after_ladder = await ladder(bot, guild)
    assert {k: v for k, v in after_ladder.items() if k != str(aid) and not k.startswith("-")} == {
        k: v for k, v in before_ladder.items() if k != str(aid)
    }
    [former] = [k for k in after_ladder if k.startswith("-")]
    assert after_ladder[former] == before_ladder[str(aid)], "her games still count for the others' ratings"
    board = await (await fake.slash(bob, "general", "stats", "leaderboard")).wait_message()
    assert f"<@{aid}>" not in board.content and former not in board.content and f"<@{bob.id}>" in board.content
    # the finished game's looks and kept pictures no longer name her ("a former player" in its language)
    assert not any(p.name.startswith(f"{shared}-") for p in kept.iterdir())
    history = await (await fake.slash(carol, "general", "look", "history")).wait_message()
    assert "Alice" not in history.content, history.content
    assert "bývalý hráč" in history.content, 'her name is "a former player" in the game\'s language (Czech here)'
    again = await fake.slash(carol, "general", "look", "replay")
    replayed = await again.wait_message()
    assert all("Alice" not in (a.description or "") for a in replayed.attachments)

    # the game in play goes on with a computer player in her seat
    rec = await store.get_game(playing)
    seat = next(s for s in rec.seats if s.is_computer)
    assert (seat.display_name, seat.cpu_level, rec.status) == ("a former player", "medium", GameStatus.PLAYING)
    assert "took their seat" in latest_table(fake, CH).content or "takes their seat" in latest_table(fake, CH).content
    moved = len(rec.game.log)
    for _ in range(2):
        await bot.service.idle()
        rec = await store.get_active_game(fake.channel(CH).id)
        if rec is None:
            break
        assert rec.game.decision().player == str(bob.id), "the computer plays her turns by itself"
        await play_turn(fake, bob, CH, rng)
    await bot.service.idle()
    rec = await store.get_game(playing)
    assert len(rec.game.log) > moved + 2
    assert any(p == seat.player_id for p, _ in rec.game.log[moved:]), "the computer played in her seat"
    replay = Game.new(GameConfig.from_dict(rec.config), rec.seed)
    for entry in await store.get_actions(playing):
        replay.apply(action_from_dict(entry.action), by=entry.player_id)
    assert replay.to_dict() == rec.game.to_dict(), "the game is its log replayed, under the new seat"


async def eventually(read, wanted, *, tries: int = 500) -> None:
    """Until `await read()` gives `wanted` (what the bot does on a gateway event, it does in a task of its own)."""
    for _ in range(tries):
        if (got := await read()) == wanted:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"still {got!r}, not {wanted!r}")


async def paused_timer(bot, game_id: int) -> bool:
    rec = await bot.store.get_game(game_id)
    return rec.next_reminder_at is None and rec.deadline_at is None


async def test_a_removed_servers_games_are_kept_for_the_period_then_deleted(fake, bot):
    other = await fake.add_guild("Elsewhere")
    channel = other.channels["kingdomino"]
    await start_game(fake, fake.bob, channel, [fake.carol], game="kingdomino", players=2, deadline_hours=1)
    rec = await bot.store.get_active_game(channel.id)
    await bot.store.set_guild_settings(
        (await bot.store.get_guild_settings(other.id)).__class__(other.id, max_lobbies_per_member=3)
    )
    service, days = bot.service, 30.0
    real_clock = service.clock
    await fake.remove_bot(other)
    await eventually(lambda: bot.store.departed_guilds(real_clock() + timedelta(days=1)), [other.id])
    await eventually(lambda: paused_timer(bot, rec.id), True)
    paused = await bot.store.get_game(rec.id)
    assert (paused.next_reminder_at, paused.deadline_at) == (None, None), "its timers wait while the bot is away"

    service.clock = lambda: real_clock() + timedelta(days=days - 1)
    try:
        assert await service.timers.forget_removed_servers(days) == []
        assert (await bot.store.get_game(rec.id)).status == GameStatus.PLAYING, "kept within the period"
        service.clock = real_clock
        await fake.add_bot_back(other)  # back in time: the game goes on
        await eventually(lambda: bot.store.departed_guilds(real_clock() + timedelta(days=365)), [])
        await eventually(lambda: paused_timer(bot, rec.id), False)  # its deadline runs again
        await fake.remove_bot(other)
        await eventually(lambda: bot.store.departed_guilds(real_clock() + timedelta(days=365)), [other.id])
        service.clock = lambda: real_clock() + timedelta(days=days + 1)
        deleted = await service.timers.forget_removed_servers(days)
    finally:
        service.clock = real_clock
    assert deleted == [rec.id]
    assert await bot.store.list_games(guild_id=other.id) == []
    assert (await bot.store.get_guild_settings(other.id)).max_lobbies_per_member == 2, "its settings went too"
    assert await bot.store.list_games(guild_id=fake.guild_id) == [], "nothing else"
