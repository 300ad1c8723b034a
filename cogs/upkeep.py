"""Running the bot for real: what it does on its own besides the games' timers (cogs/admin.py).

- It holds a lease in the store while it runs ("bot:<its name>", renewed every half minute, dropped at a clean
  stop), so `python -m db restore` refuses to replace the database under it.
- It takes the scheduled backups (`BACKUP_EVERY_HOURS`, `BACKUP_DIR`, `BACKUP_KEEP`; db/backup.py): one process per
  period, the one that takes the store's "backup" lease for the period.
- When it is removed from a server, that server's games are kept (`REMOVED_SERVER_DAYS`, 30 by default), waiting; back
  in the server within that time, they go on; after it, they are deleted (cogs/timers.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord.ext import commands

from db.backup import BOT_LEASE_PREFIX, BOT_LEASE_RENEW_SECONDS, BOT_LEASE_SECONDS, backup_path, prune, take_backup
from db.errors import StoreError

log = logging.getLogger(__name__)

UPKEEP_PERIOD_SECONDS = BOT_LEASE_RENEW_SECONDS
REMOVED_CHECK_SECONDS = 3600.0  # how often the games of servers left long enough ago are looked for
BACKUP_RETRY_SECONDS = 600.0  # a scheduled backup that failed is tried again after this


async def rest(bot: Any, seconds: float) -> bool:
    """Sleep `seconds`, or less when the bot starts stopping: True when it does."""
    stopping: asyncio.Event = bot.stopping
    try:
        async with asyncio.timeout(seconds):
            await stopping.wait()
    except TimeoutError:
        return False
    return True


class UpkeepCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.task: asyncio.Task | None = None
        self.next_backup_try = 0.0
        self.next_removed_check = 0.0

    @property
    def service(self) -> Any:
        return self.bot.service  # type: ignore[attr-defined]

    @property
    def lease(self) -> str:
        return BOT_LEASE_PREFIX + self.service.owner

    async def cog_load(self) -> None:
        loops = getattr(self.bot, "loops", None)
        if loops is None or getattr(self.bot, "service", None) is None:
            return  # not the bot (the catalogue's extractor loads every cog into a bare one)
        self.task = asyncio.create_task(self._loop(), name="kingdomino-upkeep")
        loops.append(self.task)  # a clean stop waits for it

    async def cog_unload(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _loop(self) -> None:
        store = self.service.store
        try:
            await self._renew()  # at once: the database is in use from now on
            if not await self._ready():
                return
            while True:
                await self._renew()
                await self._removed_servers()
                await self._scheduled_backup()
                if await rest(self.bot, UPKEEP_PERIOD_SECONDS):
                    return
        finally:  # a clean stop (or a cancel): the database is no longer in use by this process
            try:
                await store.drop_lease(self.lease, self.service.owner)
            except Exception as error:  # closing anyway
                log.info("The bot's lease could not be dropped (it runs out by itself): %s", error)

    async def _renew(self) -> None:
        try:
            await self.service.store.take_lease(self.lease, self.service.owner, BOT_LEASE_SECONDS)
        except StoreError as error:
            log.warning("The bot's lease on the database could not be renewed: %s", error)

    async def _ready(self) -> bool:
        """Until the bot is ready (True), or stopping first (False)."""
        waits = [asyncio.ensure_future(self.bot.wait_until_ready()), asyncio.ensure_future(self.bot.stopping.wait())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
        return not self.bot.stopping.is_set()

    async def _removed_servers(self) -> None:
        loop = asyncio.get_running_loop()
        if loop.time() < self.next_removed_check:
            return
        self.next_removed_check = loop.time() + REMOVED_CHECK_SECONDS
        days = float(getattr(self.bot.settings, "removed_server_days", 30.0))  # type: ignore[attr-defined]
        try:
            await self.service.timers.forget_removed_servers(days)
        except Exception:
            log.exception("The games of servers that removed the bot could not be deleted; trying again later")

    async def _scheduled_backup(self) -> None:
        settings = self.bot.settings  # type: ignore[attr-defined]
        hours = float(getattr(settings, "backup_every_hours", 0.0))
        loop = asyncio.get_running_loop()
        if hours <= 0 or loop.time() < self.next_backup_try:
            return
        store, owner = self.service.store, self.service.owner
        if not await store.take_lease("backup", owner, hours * 3600):
            return  # taken this period, by this process or another
        postgres = bool(settings.database_url)
        target = backup_path(settings.backup_dir, "scheduled", postgres)
        try:
            made = await take_backup(settings.database_path, settings.database_url, target, pg_bin=settings.pg_bin)
        except Exception as error:
            log.warning("The scheduled backup failed (trying again in %.0f min): %s", BACKUP_RETRY_SECONDS / 60, error)
            self.next_backup_try = loop.time() + BACKUP_RETRY_SECONDS
            await store.drop_lease("backup", owner)
            return
        removed = await asyncio.to_thread(prune, settings.backup_dir, "scheduled", settings.backup_keep)
        log.info("Scheduled backup: %s (%d older ones removed)", made.describe(), len(removed))

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.service.timers.server_removed(guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.service.timers.server_back(guild.id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(UpkeepCog(bot))
