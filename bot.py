"""Start-up: settings, logging, the database, the bot object and its extensions. Nothing else."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord
from discord.ext import commands

from settings import Settings, SettingsError

log = logging.getLogger("kingdomino")

EXTENSIONS: tuple[str, ...] = ()


class KingdominoBot(commands.Bot):
    """The bot. It receives its settings and its game store; `setup_hook` loads the cogs."""

    def __init__(self, settings: Settings, store: object | None = None, **options: object) -> None:
        intents = discord.Intents.default()  # no privileged intents
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **options)
        self.settings = settings
        self.store = store

    async def setup_hook(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)


async def _main(settings: Settings) -> None:
    async with KingdominoBot(settings) as bot:
        await bot.start(settings.token)


def main() -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=settings.log_level, root=True)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    try:
        asyncio.run(_main(settings))
    except discord.LoginFailure:
        log.error("Discord refused the token in DISCORD_TOKEN: reset it in the Developer Portal and update .env.")
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
