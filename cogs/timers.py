"""What happens with time, for the games of one bot process: reminders and deadlines that fall due, lobbies that
expire, and the repair pass that posts again the tables a crash or Discord left missing or out of date.

Each due game is claimed in the store first, so that with several processes each timer fires once (a claim by a
process that died runs out and is taken again). Moves go through the commit path, tables through the presenter,
reminders through the notifier, outside every lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

import discord

from db.errors import StoreError
from db.models import GameRecord, GameStatus, Seat, TurnTimer
from engine import Action, Game
from i18n import messages as M
from i18n import translate

from . import pictures
from .decide import DEADLINE_LEVEL, Result, game_language, next_seat, turn_key, turn_timer
from .lobbytext import lobby_text
from .logs import where
from .notifier import TurnNotice, quiet_end
from .words import UserError, seat_name

if TYPE_CHECKING:
    from .commit import Commits
    from .computers import Computers
    from .games import Games
    from .notifier import Notifier
    from .presenter import Presenter

log = logging.getLogger(__name__)

TIMER_LEASE_SECONDS = 300.0  # how long a process may take to handle a due timer before another one may
REPAIR_GRACE_SECONDS = 10.0  # a game changed this recently is still being shown by whoever moved


class Host(Protocol):
    """What the timers need from the game service."""

    owner: str
    games: Games
    commits: Commits
    presenter: Presenter
    computers: Computers
    notifier: Notifier
    clock: Callable[[], datetime]

    async def computer_action(self, game: Game, level: str, *, key: object = None, member: object = None) -> Action: ...

    async def after_move(self, result: Result, *, mover: str | None, note: str = "") -> None: ...


class Timers:
    def __init__(self, host: Host) -> None:
        self.host = host

    async def run_due(self) -> int:
        """Send due reminders and play for players whose deadline passed; each claimed in the store first, so that
        with several processes each fires once. Returns how many games were handled."""
        host = self.host
        store = host.commits.store
        now = host.clock()
        handled = 0
        telling = []
        for summary in await store.claim_due(now, host.owner, TIMER_LEASE_SECONDS):
            try:
                with where(game=summary.id, guild=summary.guild_id, channel=summary.channel_id):
                    task = await self._handle_due(summary.id, now)
                if task is not None:
                    telling.append(task)
                handled += 1
            except Exception:
                log.exception("Timer of game %s failed", summary.id)
            finally:
                await store.release_claim(summary.id, host.owner)
        await asyncio.gather(*telling, return_exceptions=True)  # the reminders, sent outside every lock
        return handled

    async def _handle_due(self, game_id: int, now: datetime) -> asyncio.Task | None:
        host, commits = self.host, self.host.commits
        async with commits.hold(game_id):
            rec = await host.games.get(game_id)
            game = rec.game
            if rec.status != GameStatus.PLAYING or game is None or game.is_over:
                return None
            seat = next_seat(rec, game)
            if seat is not None and seat.is_computer:
                # Computer turns that an earlier call did not finish (a restart, a failed post): resume them.
                host.computers.schedule(rec.id)
                return None
            if rec.deadline_at is not None and rec.deadline_at <= now:
                await self._deadline(rec, game)
                return None
            if rec.next_reminder_at is not None and rec.next_reminder_at <= now and seat is not None:
                return await self._remind(rec, game, seat, now)
        return None

    async def _deadline(self, rec: GameRecord, game: Game) -> None:
        """The absent player's time ran out: a computer player finishes their turn, and the table says so."""
        d = game.decision()
        assert d is not None
        name = seat_name(rec.seats, d.player)

        async def choose(game: Game) -> Action:
            return await self.host.computer_action(game, DEADLINE_LEVEL)

        result = await self.host.commits.deadline_turn(rec, game, d.player, choose)
        if result is None:
            return
        note = translate(game_language(rec), M.TIME_RAN_OUT, name=name)
        await self.host.after_move(result, mover=d.player, note=note)
        if result.warning:
            log.warning("Game %s: %s", rec.id, result.warning_in("en"))

    async def _remind(self, rec: GameRecord, game: Game, seat: Seat, now: datetime) -> asyncio.Task | None:
        """A reminder is due: the timer moves on (to the end of the person's quiet hours, if they are in them), and
        the notifier tells them, outside the lock."""
        commits = self.host.commits
        settings = await commits.store.get_user_settings(seat.user_id) if seat.user_id else None
        quiet_until = quiet_end(settings, now) if settings else None
        if quiet_until is not None:  # their quiet hours: the reminder waits until they end
            await commits.set_timer(rec, TurnTimer(quiet_until, rec.deadline_at))
            return None
        next_at = now + timedelta(hours=rec.reminder_hours) if rec.reminder_hours else None
        await commits.set_timer(rec, TurnTimer(next_at, rec.deadline_at))
        if seat.user_id is None:
            return None
        assert rec.next_reminder_at is not None  # the reminder due now: one notification per scheduled reminder
        notice = TurnNotice(rec.id, turn_key(game), seat.user_id, "reminder", rec.next_reminder_at)
        return self.host.notifier.submit(notice)

    async def expire_lobbies(self) -> list[int]:
        """Close the lobbies that sat unchanged longer than their server allows (a lobby blocks its channel)."""
        commits = self.host.commits
        now = self.host.clock()
        closed = []
        hours: dict[int | None, float] = {}
        for summary in await commits.store.expired_lobbies(now - timedelta(minutes=1)):
            if summary.guild_id not in hours:
                limits = await commits.store.get_guild_settings(summary.guild_id) if summary.guild_id else None
                hours[summary.guild_id] = limits.lobby_expiry_hours if limits else 24.0
            if summary.updated_at > now - timedelta(hours=hours[summary.guild_id]):
                continue
            try:
                await commits.cancel(summary.id, summary.version, reason="expired")
            except StoreError:
                continue  # it changed meanwhile: someone is using it
            closed.append(summary.id)
            if summary.table_message_id is not None:
                await self._show_expired(summary.id, hours[summary.guild_id])
        return closed

    async def expire_idle_games(self, *, days: float, local_only: bool = True) -> list[int]:
        """End the games in play (of no server: the local board's, with `local_only`) that nobody touched for `days`
        days, as expired: they held their seats and the board's room for nobody."""
        host = self.host
        idle_since = host.clock() - timedelta(days=days)
        ended = []
        for summary in await host.games.store.list_games(statuses={GameStatus.PLAYING}, limit=1000):
            if (local_only and summary.guild_id is not None) or summary.updated_at > idle_since:
                continue
            try:
                async with host.commits.hold(summary.id):
                    host.computers.stop(summary.id)
                    await host.commits.cancel(summary.id, summary.version, reason="expired")
                    host.notifier.turn_passed(summary.id, None)
            except StoreError:
                continue  # it moved meanwhile
            ended.append(summary.id)
        return ended

    async def _show_expired(self, game_id: int, hours: float) -> None:
        try:
            rec = await self.host.commits.store.get_game(game_id)
            text = lobby_text(rec) + "\n" + translate(game_language(rec), M.LOBBY_EXPIRED, hours=float(hours))
            await self.host.presenter.tables.lobby_closed(rec, text)
        except (discord.HTTPException, StoreError):
            log.info("Lobby %s expired; its message could not be updated", game_id)

    async def repair_tables(self, *, grace: float = REPAIR_GRACE_SECONDS) -> int:
        """Post the table again for every game in play whose latest table message is missing or shows an older
        state (a crash between saving and posting, Discord failing for good): once per game and version across
        processes, with the mention of the player to act. Games whose computer players must act get them going
        instead (they post the table). Returns how many tables were posted."""
        host, commits = self.host, self.host.commits
        posted = 0
        settled = host.clock() - timedelta(seconds=grace)
        stale = await commits.store.stale_tables()
        away = set(await commits.store.departed_guilds(host.clock() + timedelta(days=1))) if stale else set()
        for summary in stale:
            if summary.id in host.computers.chains or summary.updated_at > settled:
                continue  # its computers are at work, or a move is being saved and shown right now
            if summary.guild_id in away:
                continue  # the bot was removed from its server: nothing can be posted there
            try:
                rec = await host.games.get(summary.id)
            except UserError:
                continue
            posted += await self._repair(rec)
        await host.notifier.repair()  # notifications whose sender died while sending: once more
        return posted

    async def _repair(self, rec: GameRecord) -> int:
        host = self.host
        game = rec.game
        finished = rec.status == GameStatus.FINISHED and game is not None and game.is_over
        if (rec.status != GameStatus.PLAYING and not finished) or game is None:
            return 0
        nxt = next_seat(rec, game)
        if nxt is not None and nxt.is_computer:
            host.computers.schedule(rec.id)
            return 0
        try:
            async with host.commits.hold(rec.id):
                result = Result(rec, game)
                again = translate(game_language(rec), M.TABLE_AGAIN)  # said once, however many passes fail
                presenter = host.presenter
                waiting = presenter.unshown.get(rec.id) or again in presenter.notes.get(rec.id, [])
                await presenter.publish(result, note="" if waiting else again)
                return int(result.table_posted)
        except Exception:
            log.warning("Game %s: its table could not be posted again yet", rec.id, exc_info=True)
            return 0

    # -- servers the bot was removed from ----------------------------------------------------------------------------
    async def server_removed(self, guild_id: int) -> int:
        """The bot was removed from the guild: its games are kept for a while (an accidental kick loses nothing), their
        computer players stop and their timers wait, since nothing can be posted there. Returns the games paused."""
        host, commits = self.host, self.host.commits
        await commits.store.guild_left(guild_id, host.clock())
        paused = 0
        for summary in await commits.store.list_games(guild_id=guild_id, statuses={GameStatus.PLAYING}):
            host.computers.stop(summary.id)
            async with commits.hold(summary.id, channel_id=summary.channel_id):
                try:
                    await commits.set_timer(await host.games.get(summary.id), TurnTimer())
                    paused += 1
                except (UserError, StoreError) as error:
                    log.info("Game %s: its timer could not wait for its server's return (%s)", summary.id, error)
        log.info("Removed from guild %s: its games are kept, %d in play wait", guild_id, paused)
        return paused

    async def server_back(self, guild_id: int) -> int:
        """The bot is in the guild again before its games were deleted: they go on, their timers run again (a
        computer's turn at once). Returns the games resumed."""
        host, commits = self.host, self.host.commits
        if not await commits.store.guild_returned(guild_id):
            return 0
        resumed = 0
        for summary in await commits.store.list_games(guild_id=guild_id, statuses={GameStatus.PLAYING}):
            async with commits.hold(summary.id, channel_id=summary.channel_id):
                try:
                    rec = await host.games.get(summary.id)
                    if rec.game is not None:
                        await commits.set_timer(rec, turn_timer(rec, rec.game, host.clock()))
                        resumed += 1
                except (UserError, StoreError) as error:
                    log.info("Game %s: its timer could not start again (%s)", summary.id, error)
        log.info("Back in guild %s: %d games in play go on", guild_id, resumed)
        return resumed

    async def forget_removed_servers(self, days: float) -> list[int]:
        """Delete the games (and the settings) of the guilds the bot left more than `days` ago and did not come back
        to. Returns the games deleted."""
        host, commits = self.host, self.host.commits
        deleted: list[int] = []
        for guild_id in await commits.store.departed_guilds(host.clock() - timedelta(days=days)):
            for summary in await commits.store.list_games(guild_id=guild_id):
                host.computers.stop(summary.id)
                async with commits.hold(summary.id, channel_id=summary.channel_id):
                    if await commits.delete(summary.id):
                        deleted.append(summary.id)
                await pictures.forget_game(summary.id)
            await commits.store.forget_guild(guild_id)
            log.info(
                "Guild %s removed the bot over %g days ago: its %d games are deleted", guild_id, days, len(deleted)
            )
        return deleted
