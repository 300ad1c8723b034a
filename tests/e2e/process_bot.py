"""The project's bot in its own OS process, for e2e tests with several bot processes (`bot_processes` fixture).

    bot_processes("tests.e2e.process_bot:build", env={"SHARD_IDS": "0", "SHARD_COUNT": "2", "DATABASE_URL": url})

`build` reads the bot's settings from the environment exactly as `bot.py` does (`Settings.from_env`, without
`.env`): SHARD_IDS, SHARD_COUNT, DATABASE_URL (else the SQLite file DATABASE_PATH), AI_WORKERS and PICTURE_WORKERS
(default 0: the computer players think and the pictures are drawn in threads). Test-only knobs:

    KD_TIMER_PERIOD_SECONDS   the timer loop's period (cogs.admin.TIMER_PERIOD_SECONDS, 60 s in production)
    KD_SEEDS                  new games take their seeds from random.Random(KD_SEEDS), so runs repeat
"""

from __future__ import annotations

import contextlib
import os
import random
import sys

from discord.ext import commands

GUILD_READY_TIMEOUT = 0.01  # as tests/e2e/conftest.py: discord.py's wait after the last GUILD_CREATE


async def build(stack: contextlib.AsyncExitStack) -> commands.Bot:
    from bot import KingdominoBot
    from db import open_store
    from settings import Settings

    env = dict(os.environ)
    env.setdefault("DISCORD_TOKEN", env.get("FAKEDISCORD_TOKEN", "fake-token"))
    env.setdefault("AI_WORKERS", "0")
    env.setdefault("PICTURE_WORKERS", "0")
    env.setdefault("COMPUTER_DELAY", "0")  # computers answer at once (a test that needs the wait sets it)
    env.setdefault("BACKUP_EVERY_HOURS", "0")  # no scheduled backups (a test that wants them sets it)
    settings = Settings.from_env(env, dotenv_path=None)
    period = env.get("KD_TIMER_PERIOD_SECONDS", "").strip()
    seeds = env.get("KD_SEEDS")
    store = await open_store(settings.database_path, settings.database_url)
    stack.push_async_callback(store.close)
    bot = KingdominoBot(settings, store, guild_ready_timeout=GUILD_READY_TIMEOUT, freeze_at_ready=True)
    setup_hook = bot.setup_hook

    async def setup_hook_for_tests() -> None:
        await setup_hook()  # loads the cogs: load_extension executes cogs.admin afresh, so patch it only now
        if period:
            sys.modules["cogs.admin"].TIMER_PERIOD_SECONDS = float(period)  # read before each sleep of the loop
        if seeds is not None:
            bot.service.seeds = random.Random(seeds)  # type: ignore[attr-defined]

    bot.setup_hook = setup_hook_for_tests  # type: ignore[method-assign]
    return bot
