import sqlite3

import aiosqlite
import pytest

from db import SchemaTooNew, SqliteGameStore, StoreError
from db.backup import check_sqlite
from db.migrate import LATEST_VERSION, MIGRATIONS, migrate, split_statements

from .conftest import SqliteBackend, fake_decode, new_game


@pytest.fixture
def backend(db_path) -> SqliteBackend:
    """This module tests the SQLite files themselves; test_postgres.py does the same for PostgreSQL."""
    return SqliteBackend(db_path)


def table_names(path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")}


def versions(path) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]


def test_migrations_are_numbered_from_one_without_gaps():
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert LATEST_VERSION >= 2
    for migration in MIGRATIONS:
        assert migration.statements, migration.name


def test_split_statements_respects_strings_comments_and_triggers():
    script = """
        -- a comment; with a semicolon
        CREATE TABLE a (x TEXT DEFAULT 'semi;colon'); CREATE TABLE b (y);
        CREATE TRIGGER t AFTER INSERT ON a BEGIN INSERT INTO b VALUES (1); DELETE FROM b; END;
        -- trailing comment
    """
    statements = split_statements(script)
    assert len(statements) == 3
    assert statements[2].startswith("CREATE TRIGGER") and statements[2].endswith("END;")
    with pytest.raises(ValueError, match="incomplete"):
        split_statements("CREATE TABLE a (x); CREATE TABLE b (")


async def test_fresh_database_reaches_newest_schema_in_wal_mode(store, db_path):
    assert versions(db_path) == list(range(1, LATEST_VERSION + 1))
    assert {"games", "seats", "actions", "results", "games_one_active_per_channel"} <= table_names(db_path)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopening_applies_nothing_new(open_store, db_path):
    store = await open_store()
    await new_game(store)
    await store.close()
    before = versions(db_path)
    store = await open_store()
    assert versions(db_path) == before
    assert not (db_path.parent / "backups").exists()  # nothing to migrate, so no copy (nor for the new file)
    assert len(await store.list_games()) == 1


async def test_database_at_migration_1_with_data_is_upgraded_and_keeps_it(db_path):
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await migrate(conn, location=str(db_path), target=1, clock_ms=lambda: 0) == 1
        # a game written by the version-1 bot: a lobby and a finished game with its log
        await conn.executescript(
            """
            INSERT INTO games (id, guild_id, channel_id, host_user_id, kind, status, version, seed, config, state,
                               created_at, updated_at)
            VALUES (7, 10, 100, 1, 'kingdomino', 'playing', 5, 42, '{"game": "kingdomino"}',
                    '{"format_version": 1, "turn": 3}', 1000, 2000);
            INSERT INTO seats (game_id, seat_order, player_id, user_id, display_name, colour, cpu_level)
            VALUES (7, 0, '1', 1, 'Ann', '#e91e63', NULL), (7, 1, 'cpu:1', NULL, 'Robot', '#2196f3', 'hard');
            INSERT INTO actions (game_id, seq, player_id, user_id, action, created_at)
            VALUES (7, 1, '1', 1, '{"type": "claim"}', 1500);
            """
        )
    assert versions(db_path) == [1]
    assert "results" not in table_names(db_path)

    async with await SqliteGameStore.open(db_path, decode_state=fake_decode) as store:
        assert versions(db_path) == list(range(1, LATEST_VERSION + 1))
        # a copy taken before the schema changed, beside the file: the database as it was (version 1, its game)
        [copy] = list((db_path.parent / "backups").iterdir())
        assert copy.name.startswith(f"before-v{LATEST_VERSION}-") and copy.suffix == ".sqlite3"
        checked = check_sqlite(copy)
        assert (checked.schema_version, checked.games) == (1, 1)
        assert versions(copy) == [1] and "results" not in table_names(copy)
        game = await store.get_game(7)
        assert (game.version, game.status, game.game, game.config) == (
            5,
            "playing",
            {"format_version": 1, "turn": 3},
            {"game": "kingdomino"},
        )
        assert [(s.player_id, s.display_name, s.cpu_level) for s in game.seats] == [
            ("1", "Ann", None),
            ("cpu:1", "Robot", "hard"),
        ]
        assert [a.action for a in await store.get_actions(7)] == [{"type": "claim"}]
        # and the new schema works on the old data
        await store.save_move(
            7, 5, state={"format_version": 1, "turn": 4}, action={"type": "place"}, player_id="1", user_id=1
        )
        await store.finish_game(7, 6, state={"format_version": 1, "turn": 5}, results=[])
        assert (await store.get_game(7)).status == "finished"


async def test_database_newer_than_the_code_is_refused(db_path, open_store):
    store = await open_store()
    await store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (?, 'from_the_future', 0)", (LATEST_VERSION + 1,))
    with pytest.raises(SchemaTooNew) as caught:
        await SqliteGameStore.open(db_path)
    assert caught.value.database_version == LATEST_VERSION + 1
    assert caught.value.code_version == LATEST_VERSION
    assert f"schema version {LATEST_VERSION + 1}" in str(caught.value)
    assert "newer bot" in str(caught.value)


async def test_a_file_that_is_not_a_database_is_refused_clearly(tmp_path):
    path = tmp_path / "notes.sqlite3"
    path.write_text("these are not the tables you are looking for " * 100)
    with pytest.raises(StoreError, match="cannot be opened as a SQLite database"):
        await SqliteGameStore.open(path)


async def test_a_failing_migration_leaves_the_last_complete_version(db_path):
    from db.migrate import Migration

    broken = (*MIGRATIONS[:1], Migration(2, "broken", "CREATE TABLE ok (x); CREATE TABLE games (x);"))
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        with pytest.raises(sqlite3.OperationalError, match="already exists"):
            await migrate(conn, location=str(db_path), clock_ms=lambda: 0, migrations=broken)
    assert versions(db_path) == [1]
    assert "ok" not in table_names(db_path)


async def test_missing_directory_is_created(tmp_path):
    path = tmp_path / "data" / "deeper" / "games.sqlite3"
    async with await SqliteGameStore.open(path):
        pass
    assert path.exists()
