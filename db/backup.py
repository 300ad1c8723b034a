"""Backups of the game store, and putting one back: `python -m db backup [PATH]` and `python -m db restore PATH`
(`db/__main__.py`), the bot's scheduled copies (cogs/upkeep.py) and the copy taken before a schema migration.

- SQLite: SQLite's online backup API copies the file page by page in one read transaction, so the copy is whole and
  consistent even while a bot writes (copying the file itself could tear it between two pages of one save). The copy
  is a single file (rollback journal, not WAL) and is checked before it is kept: `PRAGMA integrity_check`, its
  schema version and its games counted. Restoring runs the same API the other way, into the database file, under
  SQLite's own locks (its WAL file included), after a copy of the database it replaces is kept aside.
- PostgreSQL: `pg_dump` (custom format) of the whole database, read back whole by `pg_restore` as the check
  (every block of it, then the schema version and the games counted from its data). `pg_dump` must be as new as the
  server: `PG_BIN` names its folder, else the first new enough of PATH's and /usr/lib/postgresql/*/bin. Restoring
  keeps a dump of the database it replaces aside, drops its tables and `pg_restore`s the backup in one transaction.

A restore is refused while a bot uses the database: each bot process holds a lease in the store ("bot:<its name>",
renewed every half minute while it runs, dropped when it stops cleanly; one killed outright holds it at most
`BOT_LEASE_SECONDS` longer).

Files are named `<kind>-<UTC time>.sqlite3` (SQLite) or `.dump` (PostgreSQL): `manual`, `scheduled`, `before-vN`
(the copy taken before migrating to schema version N), `before-restore`. `prune` keeps the newest of a kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit

from db.errors import StoreError
from db.migrate import LATEST_VERSION

SQLITE_SUFFIX = ".sqlite3"
POSTGRES_SUFFIX = ".dump"
BOT_LEASE_PREFIX = "bot:"
BOT_LEASE_SECONDS = 90.0  # a running bot renews its lease every BOT_LEASE_RENEW_SECONDS
BOT_LEASE_RENEW_SECONDS = 30.0
_NAME = re.compile(r"^(?P<kind>[a-z0-9-]+)-(?P<at>\d{8}-\d{6}(?:-\d+)?)(?:\.sqlite3|\.dump)$")


class BackupError(StoreError):
    """A backup or a restore could not be done (or checked): the message says why and what to do."""


@dataclass(frozen=True)
class Backup:
    """A backup file, checked: which database it is of, its schema version and how many games it holds."""

    path: Path
    database: str  # "SQLite" or "PostgreSQL"
    schema_version: int
    games: int

    @property
    def size(self) -> int:
        return self.path.stat().st_size

    def describe(self) -> str:
        return (
            f"{self.path} ({self.database}, {self.games} games, schema version {self.schema_version}, "
            f"{self.size / 1e6:.1f} MB, checked)"
        )


def backup_path(folder: Path, kind: str, postgres: bool, now: datetime | None = None) -> Path:
    """A new file in `folder` for a backup of `kind`: `<kind>-<UTC time>` and the database's suffix; never one
    that exists."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    suffix = POSTGRES_SUFFIX if postgres else SQLITE_SUFFIX
    path = folder / f"{kind}-{stamp}{suffix}"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{kind}-{stamp}-{n}{suffix}"
    return path


def prune(folder: Path, kind: str, keep: int) -> list[Path]:
    """Remove all but the newest `keep` backups of `kind` in `folder` (files this module named only); returns those
    removed."""
    found = sorted(
        (p for p in folder.glob(f"{kind}-*") if (m := _NAME.match(p.name)) and m.group("kind") == kind),
        key=lambda p: p.name,
    )
    removed = found[: max(0, len(found) - keep)]
    for path in removed:
        with contextlib.suppress(OSError):
            path.unlink()
    return removed


# -- SQLite --------------------------------------------------------------------------------------------------------
def copy_sqlite(source: str | Path, target: Path) -> Backup:
    """A consistent copy of the SQLite database `source` (a bot may be writing to it) at `target`, checked; the
    copy is written beside `target` first and takes its name only once checked."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(source, timeout=30.0)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # all pages in one step: one read transaction, one snapshot
                dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            finally:
                dst.close()
        finally:
            src.close()
        checked = check_sqlite(partial)
        os.replace(partial, target)
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"the SQLite database {source} could not be copied to {target}: {error}") from error
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return Backup(target, checked.database, checked.schema_version, checked.games)


def check_sqlite(path: str | Path, *, read_only: bool = True) -> Backup:
    """Check a SQLite backup (or, not `read_only`, a database in WAL mode): SQLite's integrity check, its schema
    version (at most this code's), its games counted. Raises BackupError saying what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path} is not a file")
    try:
        conn = sqlite3.connect(_read_only(path), uri=True) if read_only else sqlite3.connect(path, timeout=30.0)
        try:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(f"{path} fails SQLite's integrity check: {'; '.join(problems[:5])}")
            version = int(conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])
            games = int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise BackupError(f"{path} is not a readable backup of the bot's SQLite database: {error}") from error
    _check_version(path, version)
    return Backup(path, "SQLite", version, games)


def _read_only(path: Path) -> str:
    return path.resolve().as_uri() + "?mode=ro"


def _check_version(path: Path, version: int) -> None:
    if version < 1:
        raise BackupError(f"{path} holds no schema: it is not a backup of the bot's database")
    if version > LATEST_VERSION:
        raise BackupError(
            f"{path} is at schema version {version}, newer than this bot's {LATEST_VERSION}: upgrade the bot first"
        )


def restore_sqlite(backup: Path, database: Path) -> Backup:
    """Put the checked `backup` into the SQLite file `database` (SQLite's backup API, under its locks; the WAL mode
    comes back when the bot opens it). The caller kept the replaced database aside first."""
    checked = check_sqlite(backup)
    database.parent.mkdir(parents=True, exist_ok=True)
    try:
        src = sqlite3.connect(_read_only(backup), uri=True)
        try:
            dst = sqlite3.connect(database, timeout=30.0)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as error:
        raise BackupError(f"{backup} could not be restored into {database}: {error}") from error
    restored = check_sqlite(database, read_only=False)
    if (restored.schema_version, restored.games) != (checked.schema_version, checked.games):
        raise BackupError(f"{database} does not hold what {backup} holds after the restore")
    return restored


def sqlite_bot_leases(database: Path) -> list[str]:
    """The bot processes holding a live lease on the SQLite file (none: the file or the table is missing)."""
    if not database.is_file():
        return []
    now = int(datetime.now(UTC).timestamp() * 1000)
    try:
        conn = sqlite3.connect(database, timeout=10.0)  # the file may be in WAL mode without its -shm: not ?mode=ro
        try:
            rows = conn.execute(
                "SELECT name, owner FROM leases WHERE lease_until > ? AND substr(name, 1, ?) = ?",
                (now, len(BOT_LEASE_PREFIX), BOT_LEASE_PREFIX),
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.OperationalError as error:
        if "no such table" in str(error):
            return []
        raise BackupError(f"{database} cannot be read: {error}") from error
    return [f"{owner} ({name})" for name, owner in rows]


# -- PostgreSQL -----------------------------------------------------------------------------------------------------
def libpq(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, and the environment that gives the password to pg_dump and pg_restore (never
    on their command line, where any user of the machine could read it)."""
    parts = urlsplit(url)
    env = dict(os.environ)
    if parts.password is not None:
        env["PGPASSWORD"] = unquote(parts.password)
        host = parts.netloc.rsplit("@", 1)[1]
        user = parts.username or ""
        parts = parts._replace(netloc=f"{user}@{host}" if user else host)
    return parts.geturl().replace("postgres://", "postgresql://", 1), env


def _major(tool: Path) -> int | None:
    try:
        out = subprocess.run([str(tool), "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d+)(?:\.\d+)?", out)
    return int(match.group(1)) if match else None


def pg_tools(pg_bin: str | Path | None = None, server_major: int | None = None) -> Path:
    """The folder of a `pg_dump` and `pg_restore` that can dump a server of version `server_major`: `pg_bin` if
    given, else the first new enough on PATH or in /usr/lib/postgresql/*/bin (newest first)."""
    if pg_bin:
        folders = [Path(pg_bin)]
    else:
        folders = []
        on_path = shutil.which("pg_dump")
        if on_path:
            folders.append(Path(on_path).resolve().parent)
        installed = glob.glob("/usr/lib/postgresql/*/bin")
        folders += [Path(p) for p in sorted(installed, key=lambda p: _version_key(p), reverse=True)]
    seen = []
    for folder in folders:
        dump, restore = folder / "pg_dump", folder / "pg_restore"
        if not (dump.is_file() and restore.is_file()):
            continue
        major = _major(dump)
        seen.append(f"{folder} ({major})")
        if major is not None and (server_major is None or major >= server_major):
            return folder
    wanted = f"version {server_major} or newer" if server_major else "pg_dump and pg_restore"
    found = f"; found {', '.join(seen)}" if seen else ""
    raise BackupError(
        f"a PostgreSQL backup needs pg_dump and pg_restore, {wanted}{found}: install the PostgreSQL client tools "
        f"of the server's version (Debian: apt-get install postgresql-client-{server_major or 'N'}) or set PG_BIN "
        "to their folder"
    )


def _version_key(path: str) -> int:
    digits = re.findall(r"/(\d+)/bin$", path)
    return int(digits[0]) if digits else 0


async def _server_major(url: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=30)
    try:
        return conn.get_server_version().major
    finally:
        await conn.close()


async def _run(args: Sequence[str], env: dict[str, str], what: str) -> str:
    process = await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env
    )
    out, err = await process.communicate()
    if process.returncode != 0:
        raise BackupError(
            f"{what} failed ({Path(args[0]).name} exited with {process.returncode}): {err.decode().strip()}"
        )
    return out.decode()


async def _copy_rows(tools: Path, dump: Path, table: str) -> list[str]:
    """The rows of `table` in a custom-format dump, as COPY text lines."""
    text = await _run(
        [str(tools / "pg_restore"), "--data-only", f"--table={table}", "--file=-", str(dump)],
        dict(os.environ),
        f"reading {table} from {dump}",
    )
    rows, inside = [], False
    for line in text.splitlines():
        if line.startswith("COPY "):
            inside = True
        elif inside and line == "\\.":
            inside = False
        elif inside:
            rows.append(line)
    return rows


async def check_postgres(dump: Path, pg_bin: str | Path | None = None) -> Backup:
    """Check a PostgreSQL backup: pg_restore reads it whole (every block), its schema version and its games are
    read from its data."""
    if not dump.is_file():
        raise BackupError(f"{dump} is not a file")
    tools = pg_tools(pg_bin)
    await _run([str(tools / "pg_restore"), "--file=" + os.devnull, str(dump)], dict(os.environ), f"reading {dump}")
    versions = [int(line.split("\t", 1)[0]) for line in await _copy_rows(tools, dump, "schema_version")]
    games = len(await _copy_rows(tools, dump, "games"))
    version = max(versions, default=0)
    _check_version(dump, version)
    return Backup(dump, "PostgreSQL", version, games)


async def copy_postgres(url: str, target: Path, pg_bin: str | Path | None = None) -> Backup:
    """A pg_dump of the database at `url` at `target` (one snapshot, while bots write), checked; the dump takes its
    name only once checked."""
    tools = pg_tools(pg_bin, await _server_major(url))
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    address, env = libpq(url)
    try:
        await _run(
            [str(tools / "pg_dump"), "--format=custom", "--no-owner", "--no-privileges", f"--file={partial}", address],
            env,
            "pg_dump",
        )
        checked = await check_postgres(partial, tools)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return Backup(target, checked.database, checked.schema_version, checked.games)


async def postgres_bot_leases(url: str) -> list[str]:
    """The bot processes holding a live lease on the PostgreSQL database."""
    import asyncpg

    conn = await asyncpg.connect(url, timeout=30)
    try:
        if await conn.fetchval("SELECT to_regclass('public.leases')") is None:
            return []
        now = int(datetime.now(UTC).timestamp() * 1000)
        rows = await conn.fetch(
            "SELECT name, owner FROM leases WHERE lease_until > $1 AND substr(name, 1, $2) = $3",
            now,
            len(BOT_LEASE_PREFIX),
            BOT_LEASE_PREFIX,
        )
    finally:
        await conn.close()
    return [f"{r['owner']} ({r['name']})" for r in rows]


async def restore_postgres(dump: Path, url: str, pg_bin: str | Path | None = None) -> Backup:
    """Replace the database at `url` by the checked `dump`: its tables dropped, the dump restored in one transaction
    (all or nothing). The caller kept the replaced database aside first."""
    import asyncpg

    checked = await check_postgres(dump, pg_bin)
    tools = pg_tools(pg_bin, await _server_major(url))
    conn = await asyncpg.connect(url, timeout=30)
    try:
        tables = [r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        if tables:
            await conn.execute("DROP TABLE IF EXISTS " + ", ".join(f'"{t}"' for t in tables) + " CASCADE")
    finally:
        await conn.close()
    address, env = libpq(url)
    await _run(
        [str(tools / "pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
         f"--dbname={address}", str(dump)],
        env,
        f"restoring {dump}",
    )  # fmt: skip
    conn = await asyncpg.connect(url, timeout=30)
    try:
        version = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
        games = int(await conn.fetchval("SELECT COUNT(*) FROM games"))
    finally:
        await conn.close()
    if (version, games) != (checked.schema_version, checked.games):
        raise BackupError(f"the database does not hold what {dump} holds after the restore")
    return Backup(dump, "PostgreSQL", version, games)


# -- either ---------------------------------------------------------------------------------------------------------
async def take_backup(
    database_path: str | Path,
    database_url: str | None,
    target: Path,
    *,
    pg_bin: str | Path | None = None,
) -> Backup:
    """A checked backup of the bot's database (PostgreSQL when `database_url` is set, else the SQLite file) at
    `target`."""
    if database_url:
        return await copy_postgres(database_url, target, pg_bin)
    source = Path(database_path)
    if not source.is_file():
        raise BackupError(f"there is no SQLite database at {source} (DATABASE_PATH)")
    return await asyncio.to_thread(copy_sqlite, source, target)


async def restore(
    database_path: str | Path,
    database_url: str | None,
    backup: Path,
    folder: Path,
    *,
    pg_bin: str | Path | None = None,
    force: bool = False,
) -> tuple[Backup, Backup | None]:
    """Put `backup` back as the bot's database, refused while a bot uses it (unless `force`). The database it
    replaces is first backed up in `folder` ("before-restore"). Returns what was restored and the copy kept aside
    (None: there was no database to replace)."""
    postgres = bool(database_url)
    checked = await check_postgres(backup, pg_bin) if postgres else await asyncio.to_thread(check_sqlite, backup)
    database = Path(database_path)
    if postgres:
        assert database_url is not None
        running = await postgres_bot_leases(database_url)
    else:
        running = await asyncio.to_thread(sqlite_bot_leases, database)
    if running and not force:
        raise BackupError(
            f"a bot is using the database: {', '.join(running)}. Stop it first; the lease of a bot that was killed "
            f"runs out within {BOT_LEASE_SECONDS:.0f} s (--force restores anyway: only when no bot runs)"
        )
    aside = None
    if postgres or database.is_file():
        aside = await take_backup(
            database, database_url, backup_path(folder, "before-restore", postgres), pg_bin=pg_bin
        )
    if postgres:
        assert database_url is not None
        restored = await restore_postgres(backup, database_url, pg_bin)
    else:
        restored = await asyncio.to_thread(restore_sqlite, backup, database)
    return Backup(backup, checked.database, restored.schema_version, restored.games), aside


__all__ = [
    "BOT_LEASE_PREFIX",
    "BOT_LEASE_RENEW_SECONDS",
    "BOT_LEASE_SECONDS",
    "Backup",
    "BackupError",
    "backup_path",
    "check_postgres",
    "check_sqlite",
    "copy_postgres",
    "copy_sqlite",
    "pg_tools",
    "prune",
    "restore",
    "take_backup",
]
