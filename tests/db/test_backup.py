"""Backups you can restore (issue 48): a backup taken while 50 games are being played restores to a database where
every game replays from its log to its stored state, on SQLite and on PostgreSQL (with the test server's own
pg_dump); `python -m db backup` and `restore`; a restore refused while a bot uses the database; a damaged or too new
backup refused; the scheduled backups' pruning."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cogs import commit, decide
from cogs.games import Games
from db import open_store
from db.backup import (
    BackupError,
    backup_path,
    check_postgres,
    check_sqlite,
    prune,
    restore,
    take_backup,
)
from db.migrate import LATEST_VERSION
from db.models import GameStatus, Seat, UserSettings
from db.store import GameStore
from engine import Game, GameConfig, action_from_dict

ROOT = Path(__file__).resolve().parents[2]
GAMES = 50
MOVES = 24  # each game's moves at most: the load goes on while the backup is taken, then stops
BACKUP_AFTER = 300  # saves across all games before the backup starts


async def play_load(store: GameStore, backup) -> tuple[object, dict[int, int]]:
    """`GAMES` two-player games played at once through the commit path, as bench_load.py's people do (moves chosen
    at random); once `BACKUP_AFTER` moves are saved, `backup()` runs while the games go on. Returns what `backup`
    returned and how many actions each game has at the end."""
    commits = commit.Commits(Games(store), decide.utcnow)
    saved = 0
    started = asyncio.Event()

    async def one_game(n: int) -> int:
        nonlocal saved
        seats = (Seat.human(1000 + 2 * n, f"Ann {n}", "#ff0000"), Seat.human(1001 + 2 * n, f"Bob {n}", "#00ff00"))
        rec = await commits.open_lobby(
            channel_id=9000 + n, guild_id=1, host_user_id=seats[0].user_id, kind="kingdomino",
            config={"seats": 2, "variants": [], "teams": False}, seats=seats, seed=n,
        )  # fmt: skip
        result = await commits.start(rec)
        rng = random.Random(n)
        moves = 0
        while not result.game.is_over and moves < MOVES:
            seat = result.to_act
            action = rng.choice(result.game.legal_actions())
            result = await commits.play(
                rec.id, seat.user_id, action, expected_version=result.version, through_optional=False
            )
            moves += 1
            saved += 1
            if saved >= BACKUP_AFTER:
                started.set()
            await asyncio.sleep(0)  # the other games, and the backup, go on between two moves
        return rec.id

    async def backing_up():
        await started.wait()
        return await backup()

    *ids, made = await asyncio.gather(*(one_game(n) for n in range(GAMES)), backing_up())
    return made, {gid: len(await store.get_actions(gid)) for gid in ids}


async def check_every_game_replays(store: GameStore, live: dict[int, int]) -> int:
    """Every game of the restored `store` is its log replayed, at the version its log says, and a prefix of the game
    as it went on afterwards (`live`: its actions at the end). Returns the actions restored."""
    restored = await store.list_games()
    assert {g.id for g in restored} == set(live), "the same games"
    actions = 0
    for summary in restored:
        rec = await store.get_game(summary.id)
        log = await store.get_actions(rec.id)
        assert [a.seq for a in log] == list(range(1, len(log) + 1))
        assert len(log) <= live[rec.id]
        if rec.status == GameStatus.LOBBY:
            assert not log
            continue
        replay = Game.new(GameConfig.from_dict(rec.config), rec.seed)
        for entry in log:
            replay.apply(action_from_dict(entry.action), by=entry.player_id)
        assert replay.to_dict() == rec.game.to_dict(), f"game {rec.id}: its state is its log replayed"
        assert rec.version == 2 + len(log), f"game {rec.id}: version {rec.version} for {len(log)} actions"
        actions += len(log)
    return actions


async def test_a_sqlite_backup_taken_under_load_restores_every_game(tmp_path):
    live_path, restored_path = tmp_path / "live.sqlite3", tmp_path / "restored.sqlite3"
    store = await open_store(live_path, synchronous="NORMAL")
    try:
        target = backup_path(tmp_path / "backups", "manual", postgres=False)
        made, live = await play_load(store, lambda: take_backup(live_path, None, target))
    finally:
        await store.close()
    assert made.path == target and made.database == "SQLite" and made.schema_version == LATEST_VERSION
    assert made.games == GAMES
    restored, aside = await restore(restored_path, None, target, tmp_path / "backups")
    assert aside is None and restored.games == GAMES  # nothing was there to keep aside
    store = await open_store(restored_path)
    try:
        actions = await check_every_game_replays(store, live)
    finally:
        await store.close()
    assert 0 < actions < sum(live.values()), "a snapshot taken while the games went on"


async def test_a_postgres_backup_taken_under_load_restores_every_game(tmp_path, pg_bin, pg_database_factory):
    live_url, restored_url = await pg_database_factory(), await pg_database_factory()
    store = await open_store(tmp_path / "unused", live_url)
    try:
        target = backup_path(tmp_path / "backups", "manual", postgres=True)
        made, live = await play_load(store, lambda: take_backup(tmp_path / "unused", live_url, target, pg_bin=pg_bin))
    finally:
        await store.close()
    assert made.path == target and made.database == "PostgreSQL" and made.games == GAMES
    assert made.schema_version == LATEST_VERSION
    empty = await open_store(tmp_path / "unused", restored_url)  # the database restored into holds a game already
    await empty.create_game(channel_id=1, guild_id=1, host_user_id=1, kind="kingdomino", config={})
    assert await empty.take_lease("bot:elsewhere", "elsewhere", 90)  # a bot uses it
    with pytest.raises(BackupError, match="a bot is using the database: elsewhere"):
        await restore(tmp_path / "unused", restored_url, target, tmp_path / "kept", pg_bin=pg_bin)
    assert not (tmp_path / "kept").exists() and len(await empty.list_games()) == 1, "nothing changed"
    await empty.drop_lease("bot:elsewhere", "elsewhere")  # it stopped cleanly
    await empty.close()
    restored, aside = await restore(tmp_path / "unused", restored_url, target, tmp_path / "kept", pg_bin=pg_bin)
    assert restored.games == GAMES
    assert aside is not None and (await check_postgres(aside.path, pg_bin)).games == 1, "the replaced one, kept aside"
    store = await open_store(tmp_path / "unused", restored_url)
    try:
        actions = await check_every_game_replays(store, live)
    finally:
        await store.close()
    assert 0 < actions < sum(live.values()), "a snapshot taken while the games went on"


def run_db(*args: str, database: Path, backups: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_PATH": str(database), "BACKUP_DIR": str(backups), "DATABASE_URL": ""}
    return subprocess.run(
        [sys.executable, "-m", "db", *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
    )


async def test_the_command_line_backs_up_and_restores_and_keeps_the_replaced_file(tmp_path):
    database, backups = tmp_path / "data" / "kd.sqlite3", tmp_path / "data" / "backups"
    store = await open_store(database)
    first = await store.create_game(channel_id=1, guild_id=1, host_user_id=1, kind="kingdomino", config={})
    await store.close()
    made = run_db("backup", database=database, backups=backups)
    assert made.returncode == 0, made.stderr
    assert "SQLite's online backup API" in made.stdout and "1 games" in made.stdout
    [copy] = list(backups.iterdir())
    assert copy.name.startswith("manual-") and str(copy) in made.stdout
    assert check_sqlite(copy).games == 1
    named = run_db("backup", str(tmp_path / "mine.sqlite3"), database=database, backups=backups)
    assert named.returncode == 0 and (tmp_path / "mine.sqlite3").is_file()
    again = run_db("backup", str(tmp_path / "mine.sqlite3"), database=database, backups=backups)
    assert again.returncode == 1 and "exists" in again.stderr, "never over an existing file"

    store = await open_store(database)  # after the backup: a second game, and a bot holding its lease
    await store.create_game(channel_id=2, guild_id=1, host_user_id=1, kind="kingdomino", config={})
    assert await store.take_lease("bot:host:shards=all", "host:shards=all", 90)
    refused = run_db("restore", str(copy), database=database, backups=backups)
    assert refused.returncode == 1 and "a bot is using the database" in refused.stderr
    assert "host:shards=all" in refused.stderr
    assert len(await store.list_games()) == 2, "nothing changed"
    await store.drop_lease("bot:host:shards=all", "host:shards=all")  # the bot stopped cleanly
    await store.close()
    done = run_db("restore", str(copy), database=database, backups=backups)
    assert done.returncode == 0, done.stderr
    assert "Restored" in done.stdout and "kept at" in done.stdout
    [aside] = [p for p in backups.iterdir() if p.name.startswith("before-restore-")]
    assert check_sqlite(aside).games == 2, "the replaced database is kept aside, whole"
    store = await open_store(database)
    assert [g.id for g in await store.list_games()] == [first.id]
    await store.close()


async def test_a_damaged_or_too_new_backup_is_refused_and_nothing_changes(tmp_path):
    database = tmp_path / "kd.sqlite3"
    store = await open_store(database)
    await store.create_game(channel_id=1, guild_id=1, host_user_id=1, kind="kingdomino", config={})
    await store.close()
    good = (await take_backup(database, None, tmp_path / "good.sqlite3")).path
    damaged = tmp_path / "damaged.sqlite3"
    with sqlite3.connect(good) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'seats'").fetchone()[0]
    data = bytearray(good.read_bytes())
    start = (root - 1) * page_size
    data[start : start + 12] = b"\xff" * 12  # the seats table's page header overwritten
    damaged.write_bytes(bytes(data))
    with pytest.raises(BackupError, match=r"integrity check|not a readable backup"):
        await restore(database, None, damaged, tmp_path / "backups")
    newer = tmp_path / "newer.sqlite3"
    newer.write_bytes(good.read_bytes())
    with sqlite3.connect(newer) as conn:
        conn.execute("INSERT INTO schema_version VALUES (?, 'from_the_future', 0)", (LATEST_VERSION + 1,))
    with pytest.raises(BackupError, match="upgrade the bot first"):
        await restore(database, None, newer, tmp_path / "backups")
    with pytest.raises(BackupError, match="not a file"):
        await restore(database, None, tmp_path / "missing.sqlite3", tmp_path / "backups")
    assert not (tmp_path / "backups").exists(), "nothing was kept aside: nothing was replaced"
    assert check_sqlite(database, read_only=False).games == 1


def test_prune_keeps_the_newest_of_a_kind_and_nothing_else(tmp_path):
    names = [f"scheduled-2026120{d}-120000.sqlite3" for d in range(1, 6)]
    others = ["before-v5-20261201-120000.sqlite3", "manual-20261201-120000.sqlite3", "notes.txt"]
    for name in names + others:
        (tmp_path / name).write_text("x")
    removed = prune(tmp_path, "scheduled", 2)
    assert sorted(p.name for p in removed) == names[:3]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[3:] + others)


async def test_a_sqlite_database_moves_to_postgres_whole(tmp_path, pg_database_factory):
    """`python -m db move-to-postgres URL`: every game, its log and results, the settings, copied; the games replay
    on PostgreSQL as on SQLite, and new games get new ids. Refused into a database that holds games."""
    database, url = tmp_path / "kd.sqlite3", await pg_database_factory()
    store = await open_store(database, synchronous="NORMAL")
    try:
        _, live = await play_load(store, lambda: asyncio.sleep(0))
        await store.set_user_settings(UserSettings(1000, notify="dm", timezone="Europe/Madrid"))
        assert await store.claim_notification(next(iter(live)), 1, 1000, "turn", sent=True)
    finally:
        await store.close()
    env = {**os.environ, "DATABASE_PATH": str(database), "DATABASE_URL": "", "BACKUP_DIR": str(tmp_path / "b")}
    moved = subprocess.run(
        [sys.executable, "-m", "db", "move-to-postgres", url], capture_output=True, text=True, cwd=ROOT, env=env,
        timeout=120,
    )  # fmt: skip
    assert moved.returncode == 0, moved.stderr
    assert f"{GAMES} games" in moved.stdout and "the SQLite file is unchanged" in moved.stdout
    store = await open_store(tmp_path / "unused", url)
    try:
        await check_every_game_replays(store, live)
        assert await store.get_user_settings(1000) == UserSettings(1000, notify="dm", timezone="Europe/Madrid")
        assert len((await store.person_data(1000)).notifications) == 1
        new = await store.create_game(channel_id=1, guild_id=1, host_user_id=1, kind="kingdomino", config={})
        assert new.id > max(live)
    finally:
        await store.close()
    again = subprocess.run(
        [sys.executable, "-m", "db", "move-to-postgres", url], capture_output=True, text=True, cwd=ROOT, env=env,
        timeout=120,
    )  # fmt: skip
    assert again.returncode == 1 and "already holds games" in again.stderr
