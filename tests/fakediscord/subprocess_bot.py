"""Run a bot in its own OS process against a fake Discord served by another process (the test's).

    python -m tests.fakediscord.subprocess_bot --base-url http://127.0.0.1:PORT --factory package.module:function \
        [--token TOKEN] [--extension tests.e2e.harness_cog ...] [--sync] [--no-identify-delay]

It points discord.py at the fake exactly as the in-process harness does (`server.point_discord_at`), builds the
bot with the factory (the same `BotFactory` signature as `BotRunner`'s: it gets an AsyncExitStack for clean-ups and
returns a bot or an awaitable of one; it reads whatever it needs, e.g. SHARD_IDS, from the environment), logs in,
loads the extensions, syncs the command tree if asked, connects (reconnecting like a production bot) and runs
until SIGTERM/SIGINT (clean close) or SIGKILL.

On stdout it writes one line per fact the test needs, each a marker and JSON:
    FAKEDISCORD-READY {"shards": [0], "guilds": [...]}      after on_ready
    FAKEDISCORD-ERROR {"logger": ..., "message": ...}       each record logged at ERROR or above
`runner.BotProcess` starts, stops, kills and restarts such processes and collects those lines.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import inspect
import json
import logging
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any

READY = "FAKEDISCORD-READY"
ERROR = "FAKEDISCORD-ERROR"


def _emit(marker: str, data: dict[str, Any]) -> None:
    sys.stdout.write(f"{marker} {json.dumps(data)}\n")
    sys.stdout.flush()


class _ErrorLines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message += f" -- {type(error).__name__}: {error}"
        _emit(ERROR, {"logger": record.name, "message": message})


def _wait_for_eof(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    while os.read(0, 4096):  # not sys.stdin: its lock would abort the interpreter at exit
        pass
    loop.call_soon_threadsafe(stop.set)


def load_factory(spec: str) -> Any:
    """`package.module:function` -> the function."""
    module_name, _, attribute = spec.partition(":")
    if not attribute:
        raise SystemExit(f"--factory must be module:function, not {spec!r}")
    return getattr(importlib.import_module(module_name), attribute)


async def run(args: argparse.Namespace) -> int:
    from discord.ext import commands

    from .runner import no_identify_delay
    from .wire import point_discord_at

    point_discord_at(args.base_url)
    stack = contextlib.AsyncExitStack()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if args.exit_with_stdin:  # the test process died (its end of our stdin closed): do not linger
        threading.Thread(target=_wait_for_eof, args=(loop, stop), daemon=True).start()
    async with stack:
        built = load_factory(args.factory)(stack)
        bot: commands.Bot = await built if inspect.isawaitable(built) else built
        if args.no_identify_delay:
            no_identify_delay(bot)
        try:
            await bot.login(args.token)
            for extension in args.extension:
                await bot.load_extension(extension)
            if args.sync:
                await bot.tree.sync()
            connection = asyncio.create_task(bot.connect(reconnect=True), name="subprocess-bot-connect")
            ready = asyncio.create_task(bot.wait_until_ready())
            await asyncio.wait({ready, connection}, return_when="FIRST_COMPLETED")
            if ready.done():
                shards = sorted(bot.shards) if isinstance(bot, commands.AutoShardedBot) else [bot.shard_id or 0]
                _emit(READY, {"shards": shards, "guilds": sorted(g.id for g in bot.guilds)})
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({stopping, connection}, return_when="FIRST_COMPLETED")
            if connection.done():
                connection.result()  # raises what ended the connection
                return 1
        except Exception:
            logging.getLogger("fakediscord.subprocess").exception("the bot process failed")
            return 1
        finally:
            await bot.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", required=True, help="the fake's http://127.0.0.1:PORT")
    parser.add_argument("--factory", required=True, help="module:function building the bot")
    parser.add_argument("--token", default=os.environ.get("FAKEDISCORD_TOKEN", "fake-token"))
    parser.add_argument("--extension", action="append", default=[], help="an extension to load (repeatable)")
    parser.add_argument("--sync", action="store_true", help="sync the command tree after login")
    parser.add_argument("--no-identify-delay", action="store_true", help="skip discord.py's 5 s before re-IDENTIFY")
    parser.add_argument("--exit-with-stdin", action="store_true", help="close the bot when stdin reaches its end")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger().addHandler(_ErrorLines())
    return asyncio.run(run(args))


def example_bot(stack: contextlib.AsyncExitStack) -> Any:
    """A factory for tests of the harness: an AutoShardedBot with the shards in SHARD_IDS ("0,1") of SHARD_COUNT."""
    import discord
    from discord.ext import commands

    ids = [int(i) for i in os.environ.get("SHARD_IDS", "0").split(",") if i.strip()]
    count = int(os.environ.get("SHARD_COUNT", "1"))
    return commands.AutoShardedBot(
        command_prefix="!",
        intents=discord.Intents.default(),
        shard_ids=ids,
        shard_count=count,
        guild_ready_timeout=0.01,
    )


if __name__ == "__main__":
    sys.exit(main())
