"""The bot without Discord: `make run` with no DISCORD_TOKEN plays local games on the board.

The game service runs as with Discord, on the same store, with a client that has no connection; it is built with
`BoardOnly` as the place its games are shown: the board is the table, so a table "posted" goes nowhere and counts as
shown at once, and words name people by their seat's name. Everything else (the moves, the version checks, the log,
the computer players, the timers) is the service's own."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

from cogs.words import seat_name
from db.backup import BOT_LEASE_PREFIX, BOT_LEASE_RENEW_SECONDS, BOT_LEASE_SECONDS
from db.models import GameRecord

log = logging.getLogger(__name__)
TIMER_PERIOD_SECONDS = 5.0
IDLE_DAYS = 7.0  # a local game in play that nobody touched this long ends (expired), freeing the board's room
_message_ids = itertools.count(1)


class NullMessage:
    def __init__(self, message_id: int | None = None) -> None:
        self.id = message_id if message_id is not None else next(_message_ids)

    async def edit(self, **_: Any) -> NullMessage:
        return self


class NullChannel:
    """A channel that takes every message and shows it to nobody."""

    async def send(self, *_: Any, **__: Any) -> NullMessage:
        return NullMessage()

    def get_partial_message(self, message_id: int) -> NullMessage:
        return NullMessage(message_id)


class NullHTTP:
    async def start_private_message(self, user_id: int) -> dict:
        return {"id": user_id}


class LocalClient:
    """What the game service asks of its Discord client, without Discord."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        self.http = NullHTTP()
        self.user = None

    def get_partial_messageable(self, channel_id: int) -> NullChannel:
        return NullChannel()

    def is_closed(self) -> bool:
        return False


class BoardOnly:
    """Where a local game is shown (`cogs.presenter.Tables`): on the board only, which draws the game itself. A table
    "posted" is a message id of nobody's (so the store knows this version is shown and the repair pass leaves it)."""

    def __init__(self, host: Any = None) -> None:
        pass

    async def post_table(self, rec: GameRecord, game: Any, events: list, *, note: str, ping: int | None) -> int:
        return next(_message_ids)

    async def post_lobby(self, rec: GameRecord, note: str) -> None:
        return None

    async def show_lobby(self, rec: GameRecord) -> None:
        return None

    async def lobby_closed(self, rec: GameRecord, text: str) -> None:
        return None

    async def cancelled(self, rec: GameRecord, by: int | None) -> None:
        return None


def seat_naming(rec: GameRecord, user_id: int) -> str:
    """How the local board's words name a person: their seat's name at the table."""
    return seat_name(rec.seats, str(user_id))


class LocalBot:
    """The game service, the board and the timers, without Discord (`start_local`)."""

    def __init__(self, service: Any, board: Any, timers: asyncio.Task) -> None:
        self.service, self.board, self.timers = service, board, timers

    async def close(self) -> None:
        from cogs import pictures

        self.timers.cancel()
        await asyncio.gather(self.timers, return_exceptions=True)  # its lease on the database is dropped
        self.service.stop_all()
        await self.board.stop()
        await self.board.hub.close()
        await self.service.idle()
        await pictures.aclose()  # a review at work is given up (the board starts it again when asked)
        if self.service.ai_pool is not None:
            await self.service.ai_pool.close(cancel=True)


async def start_local(settings: Any, store: Any, *, timer_period: float = TIMER_PERIOD_SECONDS) -> LocalBot:
    """The game service over `store` with a null poster, the board on the settings' address, and the timers."""
    from cogs import pictures
    from cogs.service import GameService

    from .app import start_board
    from .hub import Hub

    hub = Hub()
    from .auth import BoardLinks, load_secret

    links = BoardLinks.of(settings, load_secret(settings))
    service = GameService(LocalClient(settings), store, tables=BoardOnly, board=links, naming=seat_naming)
    hub.listen_to(service)
    service.computer_delay = getattr(settings, "computer_delay", 0.0)  # time to take a misclick back, as in Discord
    # The pictures as the bot has them: a finished game's kept beside the database, the post-game review worked out
    # in the review lane's own process (nice +15) when there are picture workers (PICTURE_WORKERS, one per core
    # unless set). Only the review lane works here (the board draws the tables itself): one process a lane is enough,
    # started when first needed.
    cache_dir = pictures.cache_dir_beside(getattr(settings, "database_path", None))
    pictures.configure(min(getattr(settings, "picture_workers", 0), 1), cache_dir=cache_dir, warm=False)
    if settings.ai_workers:
        from engine.ai.pool import AIPool

        service.ai_pool = AIPool(workers=settings.ai_workers)
        await service.ai_pool.start()
    board = await start_board(service, hub, settings, local=True)
    timers = asyncio.create_task(timer_loop(service, timer_period), name="local-timers")
    return LocalBot(service, board, timers)


async def timer_loop(service: Any, period: float = TIMER_PERIOD_SECONDS) -> None:
    """What the admin cog's loop does with Discord: resume computer players and deadlines after a restart, and end
    what nobody uses: a lobby nobody started (after a day, as the bot's default), a game nobody touched for a week.
    Like the bot, it holds a lease on the database while it runs (`python -m db restore` refuses to replace it)."""
    timers = service.timers
    lease = BOT_LEASE_PREFIX + service.owner

    async def expire() -> None:
        await timers.expire_lobbies()
        await timers.expire_idle_games(days=IDLE_DAYS)

    async def renew() -> None:
        await service.store.take_lease(lease, service.owner, BOT_LEASE_SECONDS)

    try:
        try:
            await renew()
            await service.reclaim()
            await timers.repair_tables(grace=0)
        except Exception:
            log.exception("The start-up repair failed; the periodic pass tries again")
        renew_every = max(1, int(BOT_LEASE_RENEW_SECONDS // max(period, 0.001)))
        for turn in itertools.count():
            passes = [timers.repair_tables, timers.run_due]
            if turn % 12 == 0:  # every minute or so
                passes.append(expire)
            if turn % renew_every == 0:
                passes.append(renew)
            for work in passes:
                try:
                    await work()
                except Exception:
                    log.exception("%s failed; trying again next period", work.__name__)
            await asyncio.sleep(period)
    finally:  # stopped: the database is no longer in use by this process
        try:
            await service.store.drop_lease(lease, service.owner)
        except Exception as error:
            log.info("The board's lease could not be dropped (it runs out by itself): %s", error)
