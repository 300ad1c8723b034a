"""Where clicks come in, and a clean stop (SIGTERM or Ctrl+C: a deploy, a restart).

`Doors` sits where discord.py turns the gateway's INTERACTION_CREATE into work (its parser): every click, command
and autocomplete passes it. It notes where the click is (the log context, `cogs.logs`: guild, channel, and the game
of a control's custom id), counts the tasks the click starts (its handlers) until they end, and, once the bot is
stopping, answers instead of dispatching: "restarting, try again in a moment", in the person's language.

`stop_cleanly` is the bot's stop: the doors close (clicks get that answer from then on), the board stops taking
requests and closes its streams (a board's page reconnects to the restarted bot and catches up), the timer loops
end after the work they are at, the computer players finish the move they are at and play no further (the timer
resumes them after the restart), and the clicks already in (their commits, their tables, their answers) and the
direct messages being sent all finish, bounded by `Settings.stop_seconds`; then the workers close. Nothing left
unfinished is lost: a move is saved whole or not at all, a table not posted is posted by the next start's repair
pass, a direct message not sent is sent again (its lease).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

import discord

from i18n import messages as M
from i18n import translate

from . import pictures
from .context import context_of
from .logs import where

log = logging.getLogger(__name__)

EVENT = "INTERACTION_CREATE"
LAST_CALL_SECONDS = 0.5  # the doors stay answering this long at least (STOP_SECONDS / 16 when shorter)


class Doors:
    """The bot's way in for interactions (see the module's docstring). `install` puts it in discord.py's parser."""

    def __init__(self, items: Callable[[], Iterable[type]] = tuple) -> None:
        self.items = items  # the dynamic items, whose custom ids name their game (`gid`)
        self.stopping = False
        self.inside: set[asyncio.Task] = set()  # the work of the clicks that came in, until it ends
        self._answering: set[asyncio.Task] = set()

    def install(self, bot: discord.Client) -> None:
        parsers = bot._connection.parsers  # discord.py's table of gateway events (no public hook runs before it)
        parse = parsers[EVENT]
        parsers[EVENT] = lambda data: self.enter(data, parse, bot)

    def game_of(self, data: dict) -> int | None:
        custom_id = (data.get("data") or {}).get("custom_id")
        if not isinstance(custom_id, str):
            return None
        for item in self.items():
            match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None and match.groupdict().get("gid"):
                return int(match["gid"])
        return None

    def enter(self, data: dict, parse: Callable[[dict], None], bot: discord.Client) -> None:
        """One interaction from the gateway: dispatched (its tasks counted) or, once stopping, answered as such."""
        channel = data.get("channel_id") or (data.get("channel") or {}).get("id")
        guild = data.get("guild_id")
        with where(guild=_int(guild), channel=_int(channel), game=self.game_of(data)):
            if self.stopping:
                interaction = discord.Interaction(data=data, state=bot._connection)  # type: ignore[arg-type]
                task = asyncio.get_running_loop().create_task(answer_while_stopping(interaction))
                self._hold(task, self._answering)
                return
            loop = asyncio.get_running_loop()
            created: list[asyncio.Task] = []
            before = loop.get_task_factory()

            def factory(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> asyncio.Task:
                task = before(loop, coro, **options) if before else asyncio.Task(coro, loop=loop, **options)
                created.append(task)
                return task

            loop.set_task_factory(factory)  # type: ignore[arg-type]
            try:
                parse(data)
            finally:
                loop.set_task_factory(before)
            for task in created:
                self._hold(task, self.inside)

    @staticmethod
    def _hold(task: asyncio.Task, where_kept: set[asyncio.Task]) -> None:
        where_kept.add(task)
        task.add_done_callback(where_kept.discard)

    async def settle(self) -> None:
        """Until every click that came in is done (and the answers sent while stopping)."""
        while pending := [*self.inside, *self._answering]:
            await asyncio.gather(*pending, return_exceptions=True)


def _int(value: object) -> int | None:
    try:
        return int(value) if value is not None else None  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None


async def answer_while_stopping(interaction: discord.Interaction) -> None:
    """A click while the bot stops: "restarting, try again in a moment", privately (an autocomplete: no choices)."""
    ctx = context_of(interaction)
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(translate(ctx.lang, M.RESTARTING), ephemeral=True)
    except discord.HTTPException as error:
        log.info("Interaction %s came while stopping and could not be answered: %s", interaction.id, error)


async def _bounded(what: str, work: Any, seconds: float) -> bool:
    """Await `work` for at most `seconds` (True: it ended); what is still at work then is logged."""
    try:
        async with asyncio.timeout(seconds):
            await work
        return True
    except TimeoutError:
        log.warning(
            "Stopping: %s still at work after %.0f s; closing anyway (it resumes after the restart)", what, seconds
        )
        return False


async def stop_cleanly(bot: Any) -> None:
    """The bot's clean stop (see the module's docstring). Safe on a bot that never finished starting."""
    settings = getattr(bot, "settings", None)
    seconds = float(getattr(settings, "stop_seconds", 8.0))
    doors: Doors | None = getattr(bot, "doors", None)
    service = getattr(bot, "service", None)
    if doors is not None:
        doors.stopping = True
    stopping: asyncio.Event | None = getattr(bot, "stopping", None)
    if stopping is not None:
        stopping.set()
    log.info("Stopping: clicks are answered as a restart; waiting up to %.0f s for the work in flight", seconds)
    deadline = asyncio.get_running_loop().time() + seconds
    board, bot.board = getattr(bot, "board", None), None
    closing_board = asyncio.ensure_future(board.stop()) if board is not None else None
    loops = [t for t in getattr(bot, "loops", ()) if not t.done() and t is not asyncio.current_task()]
    waits = [asyncio.wait([t]) for t in loops]  # they end after the work they are at (`bot.stopping`)
    if doors is not None:
        waits.append(doors.settle())
    if service is not None:
        service.computers.wind_down()
        waits.append(service.computers.idle())
    if await _bounded("clicks, tables and computer moves", asyncio.gather(*waits), seconds) and service is not None:
        left = max(0.5, deadline - asyncio.get_running_loop().time())
        await _bounded("direct messages", service.notifier.idle(), left)
    for task in loops:
        task.cancel()
    await asyncio.gather(*loops, return_exceptions=True)
    if closing_board is not None:
        await closing_board
    # A click Discord delivers just now is still answered ("restarting") before the gateway closes.
    last_call = min(LAST_CALL_SECONDS, seconds / 16)
    await asyncio.sleep(max(0.0, deadline - seconds + last_call - asyncio.get_running_loop().time()))
    if doors is not None:
        await _bounded("answers", doors.settle(), max(last_call, 0.1))
    await _close_workers(bot, service)


async def _close_workers(bot: Any, service: Any) -> None:
    hub = getattr(bot, "hub", None)
    if hub is not None:
        await hub.close()  # the feed of other processes' changes
    if service is None:
        return
    service.stop_all()
    await pictures.aclose()
    if service.ai_pool is not None:
        await service.ai_pool.close(cancel=True)
    with contextlib.suppress(Exception):
        await service.computers.idle()
