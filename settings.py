"""The bot's settings: one typed object read from the environment and `.env`."""

from __future__ import annotations

import ipaddress
import logging
import math
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import load_dotenv

DEFAULT_DATABASE_PATH = "data/kingdomino.sqlite3"
DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8080
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DATABASE_URL_SCHEMES = ("postgresql", "postgres")
DEFAULT_COMPUTER_DELAY = 6.0  # seconds: time to take back a misclick before computer players answer it
DEFAULT_BACKUP_EVERY_HOURS = 24.0
DEFAULT_BACKUP_KEEP = 7
DEFAULT_STOP_SECONDS = 8.0  # a stop waits this long for the work in flight (under Docker's 10 s before SIGKILL)
DEFAULT_REMOVED_SERVER_DAYS = 30.0
LOG_FORMATS = ("lines", "json")


class SettingsError(Exception):
    """A setting is missing or malformed; the message says what to do."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: int
    database_url: str | None = None
    """A PostgreSQL database (postgresql://user:password@host:port/name); None: the SQLite file at database_path."""
    ai_workers: int = 0
    """Worker processes in which computer players think; 0: threads of the bot's process (tests)."""
    picture_workers: int = 0
    """Worker processes that draw the pictures; 0: threads of the bot's process (tests)."""
    shard_count: int | None = None
    """How many shards the whole bot runs as (None: one process, Discord's recommended count)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (None: all of them)."""
    computer_delay: float = 0.0
    """Seconds computer players wait before answering a person's move that can still be taken back (0: at once)."""
    web_host: str = DEFAULT_WEB_HOST
    """The address the web board listens on (127.0.0.1: this machine only)."""
    web_port: int | None = None
    """The web board's port (0: any free port); None: no board (the default of a Settings built in code)."""
    web_secret: str | None = None
    """The key that signs the board's session cookies and links; None: one made once and kept beside the database."""
    web_trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (CIDR) of the reverse proxies whose X-Forwarded-For/-Proto the board believes (none)."""
    web_hosts: tuple[str, ...] = ()
    """Host names the board answers besides 127.0.0.1, localhost, ::1 and PUBLIC_URL's (DNS rebinding)."""
    web_max_streams: int | None = None
    """The most live board connections at once in this process; None: from the open-file limit."""
    web_metrics: str = "local"
    """Who may read /metrics: "local" (this machine's addresses), "open", or "token:SECRET" (a bearer token)."""
    activity: str = "auto"
    """The board as a Discord Activity: "auto" (when the application has Activities enabled), "on" or "off"."""
    public_url: str | None = None
    """The board's public HTTPS address (https://board.example.org/): personal links where there is no Activity."""
    discord_client_id: int | None = None
    """The OAuth2 client id for the Activity's sign-in (None: the bot's application id)."""
    discord_client_secret: str | None = None
    """The OAuth2 client secret (Developer Portal, OAuth2): needed by the Activity to learn who plays."""
    backup_dir: Path = Path("data/backups")
    """Where backups go: `python -m db backup`'s, the scheduled ones, the copy before a migration or a restore."""
    backup_every_hours: float = 0.0
    """Hours between the backups the bot takes itself (0: none; the default of a Settings built in code)."""
    backup_keep: int = DEFAULT_BACKUP_KEEP
    """How many scheduled backups are kept (and as many copies taken before migrations)."""
    pg_bin: str | None = None
    """The folder of pg_dump and pg_restore (None: the first new enough on PATH or in /usr/lib/postgresql)."""
    stop_seconds: float = DEFAULT_STOP_SECONDS
    """On SIGTERM or Ctrl+C, how long the bot waits for the moves, tables and computer moves in flight."""
    log_format: str = "lines"
    """Log records as text lines ("lines") or one JSON object a line ("json"), with the game, guild and channel."""
    removed_server_days: float = DEFAULT_REMOVED_SERVER_DAYS
    """Days a server's games are kept after the bot is removed from it (an accidental kick loses nothing)."""

    @property
    def local(self) -> bool:
        """No Discord token: the bot runs the board alone, for local games."""
        return not self.token

    def __repr__(self) -> str:  # never show the token, nor the database password
        return (
            f"Settings(token=<{'set' if self.token else 'unset'}>, database_path={self.database_path!s}, "
            f"database_url={_redacted(self.database_url)}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={logging.getLevelName(self.log_level)}, "
            f"ai_workers={self.ai_workers}, picture_workers={self.picture_workers}, shard_count={self.shard_count}, "
            f"shard_ids={self.shard_ids}, computer_delay={self.computer_delay:g}, "
            f"web_host={self.web_host}, web_port={self.web_port}, web_secret=<{'set' if self.web_secret else 'unset'}>, "
            f"web_trusted_proxies={self.web_trusted_proxies}, web_hosts={self.web_hosts}, "
            f"web_max_streams={self.web_max_streams}, web_metrics={self.web_metrics.split(':')[0]}, "
            f"activity={self.activity}, public_url={self.public_url}, discord_client_id={self.discord_client_id}, "
            f"discord_client_secret=<{'set' if self.discord_client_secret else 'unset'}>, "
            f"backup_dir={self.backup_dir}, backup_every_hours={self.backup_every_hours:g}, "
            f"backup_keep={self.backup_keep}, pg_bin={self.pg_bin}, stop_seconds={self.stop_seconds:g}, "
            f"log_format={self.log_format}, removed_server_days={self.removed_server_days:g})"
        )

    __str__ = __repr__

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, *, dotenv_path: str | Path | None = ".env") -> Settings:
        """Read the settings from `env` (default: the process environment, after loading `.env`)."""
        if env is None:
            if dotenv_path is not None:
                load_dotenv(dotenv_path, override=False)
            env = dict(os.environ)
        token = env.get("DISCORD_TOKEN", "").strip()  # empty: local games on the web board, without Discord
        guild_raw = env.get("DEV_GUILD_ID", "").strip()
        if guild_raw and not guild_raw.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a numeric guild id or empty, not {guild_raw!r}.")
        level_name = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level_name not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level_name!r}.")
        database_url = env.get("DATABASE_URL", "").strip() or None
        if database_url is not None:
            try:
                parts = urlsplit(database_url)
                parts.port  # noqa: B018 - raises ValueError for a port that is not a number
            except ValueError as error:
                raise SettingsError(f"DATABASE_URL {_redacted(database_url)} is malformed: {error}.") from None
            if parts.scheme not in DATABASE_URL_SCHEMES or not parts.path.strip("/"):
                raise SettingsError(
                    "DATABASE_URL must look like postgresql://user:password@host:5432/database (or be empty to use "
                    f"the SQLite file DATABASE_PATH), not {_redacted(database_url)}."
                )
        ai_workers = _workers(env, "AI_WORKERS")
        picture_workers = _workers(env, "PICTURE_WORKERS")
        count_raw = env.get("SHARD_COUNT", "").strip()
        if count_raw and (not count_raw.isdigit() or int(count_raw) < 1):
            raise SettingsError(f"SHARD_COUNT must be a whole number of shards (1 or more), not {count_raw!r}.")
        shard_count = int(count_raw) if count_raw else None
        ids_raw = env.get("SHARD_IDS", "").replace(" ", "").strip(",")
        shard_ids = None
        if ids_raw:
            if shard_count is None:
                raise SettingsError("SHARD_IDS needs SHARD_COUNT: say how many shards the whole bot runs as.")
            parts = ids_raw.split(",")
            if not all(p.isdigit() and int(p) < shard_count for p in parts) or len(set(parts)) != len(parts):
                raise SettingsError(
                    f"SHARD_IDS must list different shard numbers from 0 to {shard_count - 1}, like 0,1; not {ids_raw!r}."
                )
            shard_ids = tuple(int(p) for p in parts)
        delay_raw = env.get("COMPUTER_DELAY", "").strip()
        try:
            computer_delay = float(delay_raw) if delay_raw else DEFAULT_COMPUTER_DELAY
        except ValueError:
            computer_delay = -1.0
        if not 0 <= computer_delay <= 60:
            raise SettingsError(f"COMPUTER_DELAY must be a number of seconds from 0 to 60, like 6; not {delay_raw!r}.")
        web_host, web_port, web_secret = _web(env)
        activity, public_url, client_id, client_secret = _activity(env)
        proxies, hosts, max_streams, metrics = _web_guard(env)
        database_path = Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH)
        return cls(
            token=token,
            database_path=database_path,
            dev_guild_id=int(guild_raw) if guild_raw else None,
            log_level=getattr(logging, level_name),
            database_url=database_url,
            ai_workers=ai_workers,
            picture_workers=picture_workers,
            shard_count=shard_count,
            shard_ids=shard_ids,
            computer_delay=computer_delay,
            web_host=web_host,
            web_port=web_port,
            web_secret=web_secret,
            web_trusted_proxies=proxies,
            web_hosts=hosts,
            web_max_streams=max_streams,
            web_metrics=metrics,
            activity=activity,
            public_url=public_url,
            discord_client_id=client_id,
            discord_client_secret=client_secret,
            **_upkeep(env, database_path),
        )


def _web(env: dict[str, str]) -> tuple[str, int | None, str | None]:
    """WEB_HOST, WEB_PORT (a port, 0 for any free one, or off) and WEB_SECRET."""
    host = env.get("WEB_HOST", "").strip() or DEFAULT_WEB_HOST
    if any(c.isspace() or c in "/?#@" for c in host):
        raise SettingsError(f"WEB_HOST must be an address to listen on, like 127.0.0.1 or 0.0.0.0, not {host!r}.")
    raw = env.get("WEB_PORT", "").strip().lower() or str(DEFAULT_WEB_PORT)
    if raw == "off":
        port = None
    elif raw.isdigit() and int(raw) <= 65535:
        port = int(raw)
    else:
        raise SettingsError(f"WEB_PORT must be a port number (0-65535, 0: any free port) or off, not {raw!r}.")
    secret = env.get("WEB_SECRET", "").strip() or None
    if secret is not None and len(secret) < 32:
        raise SettingsError(
            'WEB_SECRET must be at least 32 characters (e.g. the output of `python -c "import secrets; '
            'print(secrets.token_urlsafe(32))"`), or empty for one made once and kept beside the database.'
        )
    return host, port, secret


def _web_guard(env: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...], int | None, str]:
    """WEB_TRUSTED_PROXIES, WEB_HOSTS, WEB_MAX_STREAMS and WEB_METRICS."""
    proxies = tuple(p for p in env.get("WEB_TRUSTED_PROXIES", "").replace(" ", "").split(",") if p)
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise SettingsError(
                f"WEB_TRUSTED_PROXIES must list addresses or networks like 10.0.0.2 or 10.0.0.0/24, not {proxy!r}."
            ) from None
    hosts = tuple(h.lower() for h in env.get("WEB_HOSTS", "").replace(" ", "").split(",") if h)
    if any(not h or any(c in h for c in "/?#@:") for h in hosts):
        raise SettingsError(f"WEB_HOSTS must list host names like board.example.org, not {env['WEB_HOSTS']!r}.")
    raw = env.get("WEB_MAX_STREAMS", "").strip()
    if raw and (not raw.isdigit() or int(raw) < 1):
        raise SettingsError(f"WEB_MAX_STREAMS must be a number of connections (1 or more), not {raw!r}.")
    metrics = env.get("WEB_METRICS", "").strip() or "local"
    if metrics not in ("local", "open") and not (metrics.startswith("token:") and len(metrics) >= 6 + 16):
        raise SettingsError(
            "WEB_METRICS must be local (this machine only), open, or token:SECRET (a bearer token of 16+ "
            f"characters), not {metrics if not metrics.startswith('token:') else 'token:<too short>'!r}."
        )
    return proxies, hosts, int(raw) if raw else None, metrics


def _activity(env: dict[str, str]) -> tuple[str, str | None, int | None, str | None]:
    """ACTIVITY (auto, on or off), PUBLIC_URL, DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET."""
    activity = env.get("ACTIVITY", "").strip().lower() or "auto"
    if activity not in ("auto", "on", "off"):
        raise SettingsError(f"ACTIVITY must be auto, on or off, not {activity!r}.")
    public_url = env.get("PUBLIC_URL", "").strip() or None
    if public_url is not None:
        parts = urlsplit(public_url)
        if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment:
            raise SettingsError(
                f"PUBLIC_URL must be the board's address, like https://board.example.org/, not {public_url!r}."
            )
        public_url = public_url.rstrip("/") + "/"
    raw_id = env.get("DISCORD_CLIENT_ID", "").strip()
    if raw_id and not raw_id.isdigit():
        raise SettingsError(f"DISCORD_CLIENT_ID must be the application's id (digits only), not {raw_id!r}.")
    secret = env.get("DISCORD_CLIENT_SECRET", "").strip() or None
    return activity, public_url, int(raw_id) if raw_id else None, secret


def _number(env: dict[str, str], name: str, default: float, low: float, high: float, example: str) -> float:
    raw = env.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # nan too
        raise SettingsError(f"{name} must be a number from {low:g} to {high:g}, like {example}; not {raw!r}.")
    return value


def _upkeep(env: dict[str, str], database_path: Path) -> dict:
    """BACKUP_DIR (default: backups beside the database), BACKUP_EVERY_HOURS, BACKUP_KEEP, PG_BIN, STOP_SECONDS,
    LOG_FORMAT and REMOVED_SERVER_DAYS."""
    folder = env.get("BACKUP_DIR", "").strip()
    keep_raw = env.get("BACKUP_KEEP", "").strip()
    if keep_raw and (not keep_raw.isdigit() or int(keep_raw) < 1):
        raise SettingsError(f"BACKUP_KEEP must be how many backups to keep (1 or more), like 7; not {keep_raw!r}.")
    pg_bin = env.get("PG_BIN", "").strip() or None
    if pg_bin is not None and not (Path(pg_bin) / "pg_dump").is_file():
        raise SettingsError(f"PG_BIN must be the folder holding pg_dump and pg_restore; {pg_bin} has no pg_dump.")
    log_format = env.get("LOG_FORMAT", "").strip().lower() or "lines"
    if log_format not in LOG_FORMATS:
        raise SettingsError(f"LOG_FORMAT must be lines or json, not {log_format!r}.")
    return {
        "backup_dir": Path(folder) if folder else database_path.parent / "backups",
        "backup_every_hours": _number(env, "BACKUP_EVERY_HOURS", DEFAULT_BACKUP_EVERY_HOURS, 0, 24 * 365, "24"),
        "backup_keep": int(keep_raw) if keep_raw else DEFAULT_BACKUP_KEEP,
        "pg_bin": pg_bin,
        "stop_seconds": _number(env, "STOP_SECONDS", DEFAULT_STOP_SECONDS, 0, 600, "8"),
        "log_format": log_format,
        "removed_server_days": _number(env, "REMOVED_SERVER_DAYS", DEFAULT_REMOVED_SERVER_DAYS, 0, 3650, "30"),
    }


def _workers(env: dict[str, str], name: str) -> int:
    """A number of worker processes: empty means one per core, 0 means threads of the bot's process."""
    raw = env.get(name, "").strip()
    if raw and not raw.isdigit():
        raise SettingsError(f"{name} must be a number of processes (0 for threads), not {raw!r}.")
    return int(raw) if raw else (os.cpu_count() or 1)


def _redacted(url: str | None) -> str | None:
    """The URL with its password as ***."""
    if url is None:
        return None
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        return parts._replace(netloc=f"{parts.username or ''}:***@{parts.netloc.rsplit('@', 1)[1]}").geturl()
    except ValueError:
        return "<unparsable URL>"
