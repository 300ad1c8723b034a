"""Owner tools: command sync on demand (never on every start), and the timer loop: tables posted again where they
are missing or out of date (at start-up, then every minute), reminders and deadlines, lobbies that expire."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from i18n import messages as M
from i18n import translate, translate_plural

from .checks import checked
from .context import context_of
from .views import guarded

SCOPES = {"guild": lambda lang: "guild", "global": lambda lang: "global"}

log = logging.getLogger(__name__)
TIMER_PERIOD_SECONDS = 60.0


class AdminCog(commands.Cog):
    admin = app_commands.Group(name="admin", description="Bot owner tools")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._timer_task: asyncio.Task | None = None

    async def cog_load(self) -> None:
        self._timer_task = asyncio.create_task(self._timer_loop(), name="kingdomino-timers")
        loops = getattr(self.bot, "loops", None)
        if loops is not None:
            loops.append(self._timer_task)  # a clean stop lets the pass at work end (cogs/shutdown.py)

    async def cog_unload(self) -> None:
        if self._timer_task:
            self._timer_task.cancel()

    async def _timer_loop(self) -> None:
        stopping = getattr(self.bot, "stopping", None) or asyncio.Event()
        waits = [asyncio.ensure_future(self.bot.wait_until_ready()), asyncio.ensure_future(stopping.wait())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
        if stopping.is_set():
            return
        service = self.bot.service  # type: ignore[attr-defined]
        try:  # at start-up: what this process held when it stopped is taken back, and its tables posted at once
            await service.reclaim()
            await service.timers.repair_tables(grace=0)
        except Exception:
            log.exception("The start-up repair failed; the periodic pass tries again")
        while not self.bot.is_closed():
            service = self.bot.service  # type: ignore[attr-defined]
            for work in (service.timers.repair_tables, service.timers.run_due, service.timers.expire_lobbies):
                if stopping.is_set():
                    return  # a clean stop: the pass ends here, the next start's pass does the rest
                try:
                    await work()
                except Exception:
                    log.exception("%s failed; trying again next period", work.__name__)
            try:
                async with asyncio.timeout(TIMER_PERIOD_SECONDS):  # read before each wait: tests shorten it
                    await stopping.wait()
                return
            except TimeoutError:
                pass

    @admin.command(name="sync", description="Publish the slash commands (bot owner only)")
    @app_commands.describe(
        scope="guild: this server now (or DEV_GUILD_ID); global: every server (may take up to an hour)"
    )
    @app_commands.choices(
        scope=[app_commands.Choice(name="guild", value="guild"), app_commands.Choice(name="global", value="global")]
    )
    async def sync(self, interaction: discord.Interaction, scope: str) -> None:
        ctx = context_of(interaction)

        async def work():
            checked(scope, SCOPES, "scope")
            lang = ctx.lang
            if not await self.bot.is_owner(interaction.user):
                await interaction.response.send_message(translate(lang, M.ONLY_OWNER_SYNC), ephemeral=True)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            if scope == "global":
                synced = await self.bot.tree.sync()
                text = translate_plural(lang, *M.SYNCED_GLOBAL, len(synced))
            else:
                guild_id = self.bot.settings.dev_guild_id or interaction.guild_id  # type: ignore[attr-defined]
                if guild_id is None:
                    await interaction.followup.send(translate(lang, M.SYNC_WHERE), ephemeral=True)
                    return
                guild = discord.Object(id=guild_id)
                self.bot.tree.copy_global_to(guild=guild)
                synced = await self.bot.tree.sync(guild=guild)
                text = translate_plural(lang, *M.SYNCED_GUILD, len(synced), guild=guild_id)
            await interaction.followup.send(text, ephemeral=True)

        await guarded(ctx, work())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog(bot))
