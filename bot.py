"""Start-up: settings, logging, the database, the bot object and its extensions. Nothing else."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import sys

import discord
from discord.ext import commands

from cogs import EXTENSIONS
from settings import Settings, SettingsError

log = logging.getLogger("kingdomino")


class KingdominoBot(commands.AutoShardedBot):
    """The bot. It receives its settings and its game store; `setup_hook` loads the cogs and the buttons that must
    keep working across restarts. Commands are synced only on demand (`/admin sync` or `--sync`)."""

    def __init__(
        self, settings: Settings, store, *, sync: str | None = None, freeze_at_ready: bool = False, **options
    ) -> None:
        # Only the guilds intent: servers, channels and threads (a deleted channel ends its game). The bot never reads
        # messages, reactions or typing, and without those intents Discord does not send every message of every
        # server the bot is in (measured in benchmarks/bench_load.py: at 200 games those events were most of the
        # gateway's traffic, and a click's INTERACTION_CREATE queued behind them).
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())  # each message names whom it pings
        if getattr(settings, "shard_count", None) is not None:
            options.setdefault("shard_count", settings.shard_count)
            if settings.shard_ids is not None:
                options.setdefault("shard_ids", list(settings.shard_ids))
        from cogs.board import ActivityTree  # a global sync carries the Activity's Entry Point command

        options.setdefault("tree_cls", ActivityTree)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **options)
        self.settings = settings
        self.store = store
        self.sync_on_start = sync
        self.service = None
        self.board = None  # the web board (web.app.Board) when settings.web_port is set
        self.dynamic_items: tuple[type, ...] = ()
        self.freeze_at_ready = freeze_at_ready  # see on_ready; a process of its own only (not the tests' bots)
        from cogs.shutdown import Doors

        self.doors = Doors(lambda: self.dynamic_items)  # every interaction comes in through it (cogs/shutdown.py)
        self.stopping = asyncio.Event()  # set when a clean stop begins: the loops end after the work they are at
        self.loops: list[asyncio.Task] = []  # the cogs' background loops, which a clean stop waits for
        self._stopped: asyncio.Future | None = None

    async def setup_hook(self) -> None:
        from cogs import pictures
        from cogs.lobby import ComputerSelect, LobbyButton, RematchButton, SwapSelect
        from cogs.privacy import ForgetButton
        from cogs.service import GameService
        from cogs.views import DYNAMIC_ITEMS
        from i18n.commands import CatalogTranslator
        from web.auth import BoardLinks, load_secret
        from web.hub import Hub

        board = None
        if getattr(self.settings, "web_port", None) is not None:  # the board's links, signed with its kept secret
            board = BoardLinks.of(self.settings, load_secret(self.settings))
        self.service = GameService(self, self.store, board=board)
        self.hub = Hub()
        self.hub.listen_to(self.service)  # every change of a game reaches the open boards
        self.service.computer_delay = getattr(self.settings, "computer_delay", 0.0)
        # A finished game's replay and chart are kept beside the SQLite file's place (cogs/pictures.py says why).
        database_path = getattr(self.settings, "database_path", None)
        cache_dir = pictures.cache_dir_beside(database_path)
        pictures.configure(getattr(self.settings, "picture_workers", 0), cache_dir=cache_dir)
        workers = getattr(self.settings, "ai_workers", 0)
        if workers:
            from engine.ai.pool import AIPool

            self.service.ai_pool = AIPool(workers=workers)
            await self.service.ai_pool.start()
        self.dynamic_items = (*DYNAMIC_ITEMS, LobbyButton, ComputerSelect, SwapSelect, RematchButton, ForgetButton)
        self.add_dynamic_items(*self.dynamic_items)
        self.doors.install(self)
        # Discord localizations for every command description, option and choice (names stay English).
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.board = await open_board(self.service, self.hub, self.settings, local=False)
        if self.board is None:
            self.service.board = None  # it could not listen: no "Open the board", no links to it
        if self.sync_on_start == "global":
            synced = await self.tree.sync()
            log.info("Synced %d commands globally", len(synced))
        elif self.sync_on_start == "guild":
            guild = discord.Object(id=self.settings.dev_guild_id)  # checked in main()
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to guild %s", len(synced), guild.id)

    async def close(self) -> None:
        """A clean stop (SIGTERM, Ctrl+C, or whoever closes the bot), once: clicks are answered as a restart, the
        work in flight finishes (bounded by STOP_SECONDS), the board and the workers close (`cogs.shutdown`); then
        the gateway and the HTTP session."""
        if self._stopped is None:
            self._stopped = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopped)

    async def _stop(self) -> None:
        from cogs.shutdown import stop_cleanly

        try:
            await stop_cleanly(self)
        finally:
            await super().close()

    async def on_ready(self) -> None:
        log.info("Logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))
        if self.freeze_at_ready:
            self.freeze_at_ready = False
            freeze_startup_objects()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction, beside discord.py's own dispatch: a click that it would drop without a word (the button
        was taken off its message meanwhile) is answered as out of date."""
        from cogs.views import answer_dropped_click

        await answer_dropped_click(interaction, self.dynamic_items)


def freeze_startup_objects() -> int:
    """Move every object alive now (the modules, the cogs, the command tree, the servers' cache at start: about 65,000
    objects) out of the garbage collector's reach: a full collection, which pauses the event loop, then scans only
    what the bot made since (benchmarks/bench_load.py prints both counts and the pauses). Returns how many objects
    were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


async def open_board(service, hub, settings: Settings, *, local: bool):
    """Start the web board on the settings' address (None when WEB_PORT is off). A port in use is logged and the bot
    runs on without the board (with Discord), or stops saying so (without: the board is all there is)."""
    if getattr(settings, "web_port", None) is None:
        return None
    from web.app import start_board

    try:
        board = await start_board(service, hub, settings, local=local)
    except OSError as error:
        if local:
            raise SystemExit(
                f"error: the board cannot listen on {settings.web_host}:{settings.web_port}: {error}. "
                "Set WEB_PORT to a free port in .env."
            ) from None
        log.warning(
            "The web board cannot listen on %s:%s (%s); the bot runs without it",
            settings.web_host,
            settings.web_port,
            error,
        )
        return None
    log.info("The web board is at %s", board.url)
    return board


async def run_local(settings: Settings, store) -> None:
    """No Discord token: the game service with a null poster, the board, and the timers, until stopped."""
    import signal

    from web.local import start_local

    if settings.web_port is None:
        raise SystemExit(
            "error: DISCORD_TOKEN is not set and WEB_PORT is off: there is nothing to run. Set WEB_PORT to play "
            "locally on the board, or copy .env.example to .env and set DISCORD_TOKEN."
        )
    try:
        local = await start_local(settings, store)
    except OSError as error:
        raise SystemExit(
            f"error: the board cannot listen on {settings.web_host}:{settings.web_port}: {error}. "
            "Set WEB_PORT to a free port in .env."
        ) from None
    print(f"No DISCORD_TOKEN: local games on the board at {local.board.url} (Ctrl+C stops).", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await local.close()


async def _main(settings: Settings, sync: str | None) -> None:
    from db import open_store
    from db.errors import StoreError

    try:  # a database that needs a migration is first copied to BACKUP_DIR (db/backup.py)
        store = await open_store(
            settings.database_path, settings.database_url, backup_dir=settings.backup_dir, pg_bin=settings.pg_bin
        )
    except StoreError as error:  # names host and database, never the password
        log.error("The database cannot be opened: %s", error)
        raise SystemExit(1) from None
    try:
        if settings.local:
            await run_local(settings, store)
            return
        async with KingdominoBot(settings, store, sync=sync, freeze_at_ready=True) as bot:
            stop_on_signals(bot)
            await bot.start(settings.token)
    finally:
        await store.close()


def stop_on_signals(bot: KingdominoBot) -> None:
    """SIGTERM (a deploy, `docker stop`, systemd) and Ctrl+C stop the bot cleanly (`KingdominoBot.close`); the
    process then exits with 0."""
    import signal

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda sig=sig: _stop_for(bot, sig))


def _stop_for(bot: KingdominoBot, sig: int) -> None:
    log.info("Signal %s: stopping cleanly", getattr(sig, "name", sig))
    bot.stop_task = asyncio.ensure_future(bot.close())  # held until it ends


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the Kingdomino bot.")
    parser.add_argument(
        "--sync",
        choices=("guild", "global"),
        help="publish the slash commands once at start: to DEV_GUILD_ID (instant) or globally (up to an hour)",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.sync and settings.local:
        print("error: --sync needs DISCORD_TOKEN: copy .env.example to .env and set it.", file=sys.stderr)
        return 2
    if args.sync == "guild" and settings.dev_guild_id is None:
        print("error: --sync guild needs DEV_GUILD_ID in .env (or use --sync global).", file=sys.stderr)
        return 2
    from cogs.logs import setup_logging

    setup_logging(settings.log_level, settings.log_format)  # lines or JSON, each with its game, guild and channel
    try:
        asyncio.run(_main(settings, args.sync))
    except discord.LoginFailure:
        log.error("Discord refused the token in DISCORD_TOKEN: reset it in the Developer Portal and update .env.")
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
