"""Log records that say where they happened: the game, the guild and the channel, wherever there is one.

Where a click or a command enters (bot.py's interaction hook, `cogs.shutdown.Doors`) and where a game's own work
starts (a computer players' chain, a due timer), `where(...)` records the place in a context variable; every task
started from there inherits it (asyncio copies the context into each task), so a line logged deep in the commit path,
the store or the notifier carries it without being handed anything. `WhereFilter` copies it onto each record;
`setup_logging` writes the records as text lines or as one JSON object a line (settings.LOG_FORMAT).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

FIELDS = ("game", "guild", "channel")


@dataclass(frozen=True, slots=True)
class Where:
    game: int | None = None
    guild: int | None = None
    channel: int | None = None


_WHERE: contextvars.ContextVar[Where] = contextvars.ContextVar("kd_log_where", default=Where())  # noqa: B039 (frozen)


def here() -> Where:
    """Where the running code is (what a record logged now would carry)."""
    return _WHERE.get()


def set_where(**place: int | None) -> contextvars.Token[Where]:
    """Record the place (`game`, `guild`, `channel`; None leaves a field as it is) for the rest of this task and the
    tasks it starts; returns the token to undo it (`_WHERE.reset`)."""
    given = {k: v for k, v in place.items() if v is not None}
    unknown = set(given) - set(FIELDS)
    if unknown:
        raise TypeError(f"where() takes {', '.join(FIELDS)}, not {', '.join(sorted(unknown))}")
    return _WHERE.set(replace(_WHERE.get(), **given))


@contextlib.contextmanager
def where(**place: int | None) -> Iterator[None]:
    """The place for the code inside the block (and the tasks it starts), as `set_where`."""
    token = set_where(**place)
    try:
        yield
    finally:
        _WHERE.reset(token)


class WhereFilter(logging.Filter):
    """Copies the place onto each record: `record.game`, `record.guild`, `record.channel` (None where unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        place = _WHERE.get()
        for name in FIELDS:
            if getattr(record, name, None) is None:
                setattr(record, name, getattr(place, name))
        return True


class LineFormatter(logging.Formatter):
    """`2026-12-01 12:00:00,123 INFO cogs.service: the message [game=3 guild=10 channel=20]` (only the known ones)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        place = " ".join(f"{k}={v}" for k in FIELDS if (v := getattr(record, k, None)) is not None)
        if not place:
            return text
        head, newline, rest = text.partition("\n")  # after the message, before a traceback
        return f"{head} [{place}]{newline}{rest}"


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, game, guild, channel (when known), and
    the traceback as `error`."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        elif record.stack_info:
            entry["error"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False)


def handler(log_format: str = "lines", stream=None) -> logging.Handler:
    """A handler writing to `stream` (stderr) in `log_format` ("lines" or "json"), with the place of each record."""
    if log_format not in ("lines", "json"):
        raise ValueError(f"log_format must be lines or json, not {log_format!r}")
    out = logging.StreamHandler(stream or sys.stderr)
    out.setFormatter(JsonFormatter() if log_format == "json" else LineFormatter())
    out.addFilter(WhereFilter())
    return out


def setup_logging(level: int, log_format: str = "lines") -> logging.Handler:
    """The root logger at `level`, writing through `handler(log_format)` alone; discord.py's HTTP chatter above INFO."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    out = handler(log_format)
    root.addHandler(out)
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    return out
