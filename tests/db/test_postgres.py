"""What only PostgreSQL has: choosing it from the settings, refusing a bad address without leaking the password,
its migrations, and two processes (two pools) writing one game at the same moment."""

import asyncio
import logging
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from db import SchemaTooNew, SqliteGameStore, StaleVersion, StoreUnavailable, open_store
from db.backup import check_postgres
from db.migrate import LATEST_VERSION, POSTGRES_MIGRATIONS, Migration, migrate_postgres, postgres_migration_lock
from db.postgres import PostgresGameStore, redact_url
from settings import Settings, SettingsError

from .conftest import fake_decode, fake_state, new_game, playing_game

SECRET = "s3cr3t-Pa55"


def with_password(url: str, database: str | None = None, port: int | None = None) -> str:
    parts = urlsplit(url)
    host = f"{parts.hostname}:{port or parts.port}"
    return parts._replace(netloc=f"postgres:{SECRET}@{host}", path=f"/{database or parts.path[1:]}").geturl()


async def versions(url: str) -> list[int]:
    conn = await asyncpg.connect(url)
    try:
        return [r[0] for r in await conn.fetch("SELECT version FROM schema_version ORDER BY version")]
    finally:
        await conn.close()


# Choosing the backend


async def test_open_store_without_url_is_the_sqlite_file_as_before(tmp_path):
    async with await open_store(tmp_path / "games.sqlite3") as store:
        assert isinstance(store, SqliteGameStore)
    async with await open_store(tmp_path / "other.sqlite3", None) as store:
        assert isinstance(store, SqliteGameStore)
    async with await open_store(str(tmp_path / "third.sqlite3"), "  ") as store:
        assert isinstance(store, SqliteGameStore)


async def test_open_store_with_url_is_postgres(tmp_path, pg_url):
    async with await open_store(tmp_path / "unused.sqlite3", pg_url, decode_state=fake_decode) as store:
        assert isinstance(store, PostgresGameStore)
        record = await new_game(store)
        assert (await store.get_game(record.id)).seats == record.seats
    assert not (tmp_path / "unused.sqlite3").exists()
    async with await open_store(pg_url) as store:  # a URL where the path goes works too
        assert isinstance(store, PostgresGameStore)
        assert len(await store.list_games()) == 1


def test_settings_read_database_url_and_never_show_its_password():
    url = f"postgresql://bot:{SECRET}@db.example:5432/kingdomino"
    settings = Settings.from_env({"DISCORD_TOKEN": "x", "DATABASE_URL": f" {url} "})
    assert settings.database_url == url
    assert SECRET not in repr(settings) and SECRET not in str(settings)
    assert "postgresql://bot:***@db.example:5432/kingdomino" in repr(settings)
    assert Settings.from_env({"DISCORD_TOKEN": "x"}).database_url is None
    assert Settings.from_env({"DISCORD_TOKEN": "x", "DATABASE_URL": ""}).database_url is None
    old_style = Settings(token="x", database_path=Path("a.sqlite3"), dev_guild_id=None, log_level=logging.INFO)
    assert old_style.database_url is None


@pytest.mark.parametrize(
    "url",
    [
        f"mysql://bot:{SECRET}@db.example/kingdomino",
        f"postgresql://bot:{SECRET}@db.example:port/kingdomino",
        f"postgresql://bot:{SECRET}@db.example:5432/",
    ],
)
def test_settings_refuse_a_malformed_database_url_without_showing_the_password(url):
    with pytest.raises(SettingsError, match="DATABASE_URL") as caught:
        Settings.from_env({"DISCORD_TOKEN": "x", "DATABASE_URL": url})
    assert SECRET not in str(caught.value)


async def test_an_unreachable_server_is_named_without_the_password(tmp_path):
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"postgresql://bot:{SECRET}@127.0.0.1:{port}/kingdomino"
    with pytest.raises(StoreUnavailable) as caught:
        await open_store(tmp_path / "unused.sqlite3", url, connect_timeout=5)
    message = str(caught.value)
    assert f"127.0.0.1:{port}" in message and '"kingdomino"' in message and "bot" in message
    assert SECRET not in message and SECRET not in repr(caught.value.__cause__)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


async def test_a_missing_database_is_named_without_the_password(tmp_path, pg_url):
    url = with_password(pg_url, database="no_such_database")
    with pytest.raises(StoreUnavailable, match=r'"no_such_database" on 127\.0\.0\.1') as caught:
        await open_store(tmp_path / "unused.sqlite3", url)
    assert "does not exist" in str(caught.value)
    assert SECRET not in str(caught.value)


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bot:{SECRET}@127.0.0.1:notaport/kingdomino",
        f"mysql://bot:{SECRET}@127.0.0.1/kingdomino",
    ],
)
async def test_a_malformed_url_is_refused_without_the_password(tmp_path, url):
    with pytest.raises(StoreUnavailable) as caught:
        await open_store(tmp_path / "unused.sqlite3", url)
    assert SECRET not in str(caught.value)
    assert "***" in str(caught.value)


def test_redact_url():
    assert redact_url(f"postgresql://bot:{SECRET}@h:1/d") == "postgresql://bot:***@h:1/d"
    assert redact_url("postgresql://bot@h/d") == "postgresql://bot@h/d"


# Migrations


async def test_a_fresh_database_reaches_the_newest_schema_and_reopening_applies_nothing(pg_url):
    async with await PostgresGameStore.open(pg_url, decode_state=fake_decode) as store:
        await new_game(store)
    assert await versions(pg_url) == list(range(1, LATEST_VERSION + 1))
    conn = await asyncpg.connect(pg_url)
    try:
        indexes = {r[0] for r in await conn.fetch("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")}
        types = dict(
            await conn.fetch(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'games' "
                "AND column_name IN ('config', 'state', 'id', 'channel_id')"
            )
        )
    finally:
        await conn.close()
    assert "games_one_active_per_channel" in indexes
    assert types == {"config": "jsonb", "state": "jsonb", "id": "bigint", "channel_id": "bigint"}
    async with await PostgresGameStore.open(pg_url) as store:
        assert len(await store.list_games()) == 1
    assert await versions(pg_url) == list(range(1, LATEST_VERSION + 1))


async def test_several_processes_migrating_at_once_apply_each_migration_once(pg_url):
    stores = await asyncio.gather(*(PostgresGameStore.open(pg_url) for _ in range(4)))
    for store in stores:
        await store.close()
    assert await versions(pg_url) == list(range(1, LATEST_VERSION + 1))


async def test_a_process_opening_while_another_migrates_waits_and_copies_nothing(pg_url, tmp_path):
    """The other process is half-way (schema version 1 of several, the migration lock held): the opener must not
    take the half-migrated database for an old one and copy it (here the copy would fail: no pg_dump at that path);
    it waits for the lock and finds the newest schema."""
    other = await asyncpg.connect(pg_url)
    try:
        assert await migrate_postgres(other, location="test", target=1, clock_ms=lambda: 0) == 1
        async with postgres_migration_lock(other):
            opening = asyncio.create_task(
                PostgresGameStore.open(pg_url, backup_dir=tmp_path / "backups", pg_bin=tmp_path / "no-pg-dump-here")
            )
            while not await other.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            ):  # the opener is waiting for the lock (a condition, not a clock)
                assert not opening.done(), opening.result()
                await asyncio.sleep(0.01)
            assert await migrate_postgres(other, location="test", clock_ms=lambda: 0) == LATEST_VERSION
        store = await opening
        await store.close()
    finally:
        await other.close()
    assert await versions(pg_url) == list(range(1, LATEST_VERSION + 1))
    assert not (tmp_path / "backups").exists()


async def test_a_database_newer_than_the_code_is_refused(pg_url):
    async with await PostgresGameStore.open(pg_url):
        pass
    conn = await asyncpg.connect(pg_url)
    await conn.execute("INSERT INTO schema_version VALUES ($1, 'from_the_future', 0)", LATEST_VERSION + 1)
    await conn.close()
    with pytest.raises(SchemaTooNew) as caught:
        await PostgresGameStore.open(with_password(pg_url))
    assert (caught.value.database_version, caught.value.code_version) == (LATEST_VERSION + 1, LATEST_VERSION)
    assert "newer bot" in str(caught.value) and "127.0.0.1" in str(caught.value)
    assert SECRET not in str(caught.value)


async def test_a_database_at_migration_1_with_data_is_upgraded_and_keeps_it(pg_url, pg_bin, tmp_path):
    """...and a pg_dump of it, taken before the schema changed, is kept (checked: schema version 1, its games)."""
    conn = await asyncpg.connect(pg_url)
    try:
        assert await migrate_postgres(conn, location="test", target=1, clock_ms=lambda: 0) == 1
        await conn.execute(
            """
            INSERT INTO games (id, guild_id, channel_id, host_user_id, kind, status, version, seed, config, state,
                               created_at, updated_at)
            VALUES (7, 10, 100, 1, 'kingdomino', 'playing', 5, 42, '{"game": "kingdomino"}',
                    '{"format_version": 1, "turn": 3}', 1000, 2000),
                   (8, 10, 101, 1, 'kingdomino', 'cancelled', 2, 42, '{}', NULL, 1000, 2000);
            SELECT setval(pg_get_serial_sequence('games', 'id'), 8);
            INSERT INTO seats (game_id, seat_order, player_id, user_id, display_name, colour, cpu_level)
            VALUES (7, 0, '1', 1, 'Ann', '#e91e63', NULL), (7, 1, 'cpu:1', NULL, 'Robot', '#2196f3', 'hard');
            INSERT INTO actions (game_id, seq, player_id, user_id, action, created_at)
            VALUES (7, 1, '1', 1, '{"type": "claim"}', 1500);
            """
        )
    finally:
        await conn.close()
    assert await versions(pg_url) == [1]
    backups = tmp_path / "backups"
    async with await PostgresGameStore.open(
        pg_url, decode_state=fake_decode, backup_dir=backups, pg_bin=pg_bin
    ) as store:
        assert await versions(pg_url) == list(range(1, LATEST_VERSION + 1))
        [copy] = list(backups.iterdir())
        assert copy.name.startswith(f"before-v{LATEST_VERSION}-") and copy.suffix == ".dump"
        checked = await check_postgres(copy, pg_bin)
        assert (checked.schema_version, checked.games) == (1, 2)  # the database as it was, before the change
        game = await store.get_game(7)
        assert (game.version, game.status, game.game, game.config) == (
            5,
            "playing",
            {"format_version": 1, "turn": 3},
            {"game": "kingdomino"},
        )
        assert [(s.player_id, s.cpu_level) for s in game.seats] == [("1", None), ("cpu:1", "hard")]
        assert [(a.action, a.undone) for a in await store.get_actions(7)] == [({"type": "claim"}, False)]
        assert (await store.get_game(8)).end_reason == "cancelled"
        await store.save_move(
            7, 5, state={"format_version": 1, "turn": 4}, action={"type": "place"}, player_id="1", user_id=1
        )
        assert (await new_game(store, channel_id=555)).id == 9


async def test_a_failing_migration_leaves_the_last_complete_version(pg_url):
    broken = (
        *POSTGRES_MIGRATIONS[:1],
        Migration(2, "broken", "CREATE TABLE ok (x INTEGER); CREATE TABLE games (x INT);"),
    )
    conn = await asyncpg.connect(pg_url)
    try:
        with pytest.raises(asyncpg.DuplicateTableError):
            await migrate_postgres(conn, location="test", clock_ms=lambda: 0, migrations=broken)
        assert await conn.fetchval("SELECT to_regclass('ok')") is None
    finally:
        await conn.close()
    assert await versions(pg_url) == [1]


# Two processes


async def test_two_pools_saving_one_game_at_the_same_moment_one_wins(pg_url, clock):
    """Both saves wait on the game's row, held by a third connection, then go at once: one commits, the other sees
    the new version in its check and is refused with StaleVersion, writing nothing."""
    first = await PostgresGameStore.open(pg_url, decode_state=fake_decode, clock=clock)
    second = await PostgresGameStore.open(pg_url, decode_state=fake_decode, clock=clock)
    try:
        record = await playing_game(first)
        blocker = await asyncpg.connect(pg_url)
        transaction = blocker.transaction()
        await transaction.start()
        await blocker.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", record.id)
        saves = [
            asyncio.create_task(
                store.save_move(
                    record.id, record.version, state=fake_state(1, by=n), action={"by": n}, player_id="1", user_id=1
                )
            )
            for n, store in enumerate((first, second))
        ]
        await asyncio.sleep(0.3)
        assert not any(task.done() for task in saves)  # both are waiting on the row
        await transaction.rollback()
        await blocker.close()
        outcomes = await asyncio.gather(*saves, return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["StaleVersion", "int"], outcomes
        loser = next(o for o in outcomes if isinstance(o, StaleVersion))
        assert (loser.expected, loser.actual) == (record.version, record.version + 1)
        game = await second.get_game(record.id)
        log = await first.get_actions(record.id)
        assert len(log) == 1 and game.game["by"] == log[0].action["by"]
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize(("ci", "outcome"), [("true", "Failed"), ("", "Skipped")])
def test_without_a_server_ci_fails_loudly_and_a_developer_skips(monkeypatch, ci, outcome):
    from tests.conftest import _unavailable

    monkeypatch.setenv("CI", ci)
    with pytest.raises(BaseException) as caught:
        _unavailable("no binaries")
    assert type(caught.value).__name__ == outcome
    assert "no binaries" in str(caught.value)


async def test_a_lost_connection_is_a_store_error_and_the_next_call_reconnects(pg_url, clock):
    store = await PostgresGameStore.open(pg_url, decode_state=fake_decode, clock=clock, min_connections=2)
    try:
        record = await playing_game(store)
        admin = await asyncpg.connect(pg_url)
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        await admin.close()
        outcomes = []
        for turn in range(1, 4):
            try:
                game = await store.get_game(record.id)
                outcomes.append(
                    await store.save_move(
                        record.id, game.version, state=fake_state(turn), action={}, player_id="1", user_id=1
                    )
                )
            except StoreUnavailable as error:
                assert "lost the connection" in str(error) and "127.0.0.1" in str(error)
                outcomes.append("lost")
        assert outcomes[-1] != "lost"  # the pool came back by itself
        game = await store.get_game(record.id)
        assert len(await store.get_actions(record.id)) == game.version - record.version
    finally:
        await store.close()


async def test_pg_url_is_a_new_empty_database_each_time(pg_url, pg_database_factory):
    other = await pg_database_factory()
    assert other != pg_url
    for url in (pg_url, other):
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == []
        finally:
            await conn.close()


async def test_a_bad_argument_is_not_mistaken_for_a_lost_connection(pg_url):
    async with await PostgresGameStore.open(pg_url) as store:
        with pytest.raises(asyncpg.DataError):
            await store.get_game("seven")  # type: ignore[arg-type]
        assert await store.list_games() == []
