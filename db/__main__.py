"""`python -m db backup [PATH]`, `python -m db restore PATH` and `python -m db move-to-postgres [URL]`: the bot's
database, as the settings name it (`DATABASE_PATH`, or `DATABASE_URL` for PostgreSQL; `.env` is read as the bot
reads it), backed up, put back (`db.backup` says how), or copied from SQLite into PostgreSQL (`db.move`). Each prints
what it did; a failure says why and exits with 1."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from db.backup import BackupError, backup_path, pg_tools, restore, take_backup
from db.postgres import redact_url


def _target(path: str | None, folder: Path, postgres: bool) -> Path:
    """The backup's file: PATH itself, a new file in PATH when it is a folder, else a new file in the backup folder."""
    if path is None:
        return backup_path(folder, "manual", postgres)
    target = Path(path)
    if target.is_dir() or path.endswith(("/", "\\")):
        return backup_path(target, "manual", postgres)
    if target.exists():
        raise BackupError(f"{target} exists: name a new file, or a folder to put the backup in")
    return target


def _where(settings) -> str:
    if settings.database_url:
        return f"the PostgreSQL database {redact_url(settings.database_url)}"
    return f"the SQLite database {settings.database_path}"


async def _backup(settings, path: str | None) -> None:
    postgres = bool(settings.database_url)
    target = _target(path, settings.backup_dir, postgres)
    made = await take_backup(settings.database_path, settings.database_url, target, pg_bin=settings.pg_bin)
    if postgres:
        tool = pg_tools(settings.pg_bin) / "pg_dump"
        print(f"Backed up {_where(settings)} with {tool} (pg_dump, custom format): {made.describe()}")
    else:
        print(f"Backed up {_where(settings)} with SQLite's online backup API: {made.describe()}")


async def _restore(settings, path: str, force: bool) -> None:
    source = Path(path)
    restored, aside = await restore(
        settings.database_path,
        settings.database_url,
        source,
        settings.backup_dir,
        pg_bin=settings.pg_bin,
        force=force,
    )
    how = "pg_restore" if settings.database_url else "SQLite's backup API"
    print(
        f"Restored {source} ({restored.games} games, schema version {restored.schema_version}) into "
        f"{_where(settings)} with {how}."
    )
    if aside is not None:
        print(f"The database it replaced is kept at {aside.describe()}.")


async def _move(settings, url: str | None, force: bool) -> None:
    from db.move import sqlite_to_postgres

    target = url or settings.database_url
    if not target:
        raise BackupError("name the PostgreSQL database: python -m db move-to-postgres postgresql://user@host/name")
    copied = await sqlite_to_postgres(Path(settings.database_path), target, force=force)
    print(
        f"Copied {settings.database_path} into the PostgreSQL database {redact_url(target)}: "
        + ", ".join(f"{n} {table}" for table, n in copied.items())
        + ". Set DATABASE_URL to it and start the bot; the SQLite file is unchanged."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m db", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    backup = commands.add_parser("backup", help="a consistent, checked copy of the database, while the bot runs")
    backup.add_argument("path", nargs="?", help="the backup file, or a folder (default: BACKUP_DIR)")
    put_back = commands.add_parser("restore", help="put a backup back (the bot must be stopped)")
    put_back.add_argument("path", help="the backup file")
    put_back.add_argument(
        "--force", action="store_true", help="restore even though a bot's lease is live (only when no bot runs)"
    )
    move = commands.add_parser("move-to-postgres", help="copy the SQLite database into an empty PostgreSQL one")
    move.add_argument("url", nargs="?", help="the PostgreSQL database (default: DATABASE_URL)")
    move.add_argument("--force", action="store_true", help="even though a bot's lease is live (only when none runs)")
    args = parser.parse_args(argv)
    from settings import Settings, SettingsError

    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        if args.command == "backup":
            asyncio.run(_backup(settings, args.path))
        elif args.command == "restore":
            asyncio.run(_restore(settings, args.path, args.force))
        else:
            asyncio.run(_move(settings, args.url, args.force))
    except BackupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
