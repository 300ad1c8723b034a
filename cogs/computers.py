"""The computer players of the games of one bot process: one background chain per game plays their moves, each
saved through the commit path, until a person must act or the game ends; then the table is posted.

A chain thinks without the game's lock (clicks, looks and a cancel go on meanwhile) and saves under it, at the
version it thought at (else it looks again). After a person's move that can still be taken back, it first waits
(`computer_delay`): an undo meanwhile stops it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from db.models import GameStatus
from engine import Action, Game
from engine.ai.pool import PoolBusy

from .decide import Change, Result
from .logs import set_where

if TYPE_CHECKING:
    from .commit import Commits
    from .games import Games
    from .presenter import Presenter

log = logging.getLogger(__name__)


class Host(Protocol):
    """What the computer players need from the game service (its seam: tests replace `computer_action`)."""

    games: Games
    commits: Commits
    presenter: Presenter

    async def computer_action(self, game: Game, level: str, *, key: object = None, member: object = None) -> Action: ...


class Computers:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.chains: dict[int, asyncio.Task] = {}  # per game: its computer players at work
        self.waits: dict[int, asyncio.Event] = {}  # per game: its computers' wait for an undo (set: play now)
        self.until: dict[int, tuple[float, float]] = {}  # per game waiting: (when they play, epoch s; the wait's s)
        self.undo_offers: dict[int, Callable[[], Awaitable[None]]] = {}  # per game: takes the offered Undo away
        self.stopping = False  # the bot stops: no chain starts another move (`wind_down`)

    def schedule(self, game_id: int, *, delay: float = 0.0) -> asyncio.Task:
        """Let the computer seats play, in the background, until a person must act or the game ends; one chain
        per game, which first waits `delay` seconds (an undo meanwhile stops it). A cancel (or anything else that
        changes the game) stops it before its next move."""
        task = self.chains.get(game_id)
        if task is None or task.done():
            if delay > 0:  # waiting from now on (the mover's panel, shown next, offers Undo meanwhile)
                self.waits[game_id] = asyncio.Event()
                self.until[game_id] = (time.time() + delay, delay)
                self.host.commits.announce(Change(game_id, "wait"))  # the boards say so, with a countdown
            task = asyncio.create_task(self._chain(game_id, delay), name=f"computers-{game_id}")
            self.chains[game_id] = task
            task.add_done_callback(lambda t: self.chains.pop(game_id, None) if self.chains.get(game_id) is t else None)
        return task

    def stop(self, game_id: int) -> None:
        task = self.chains.get(game_id)
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        self.undo_offers.pop(game_id, None)
        self.waits.pop(game_id, None)
        self.until.pop(game_id, None)

    def wind_down(self) -> None:
        """The bot stops: each chain ends after the move it is at and starts no other (the timer resumes them after
        the restart), and their waits for an undo end now."""
        self.stopping = True
        for wait in self.waits.values():
            wait.set()

    async def idle(self) -> None:
        """Wait until no computer player is thinking or moving."""
        while self.chains:
            await asyncio.gather(*list(self.chains.values()), return_exceptions=True)

    async def _chain(self, game_id: int, delay: float = 0.0) -> None:
        commits = self.host.commits
        set_where(game=game_id)  # this task's log lines name the game
        try:
            if delay > 0:  # the person who just moved may take it back meanwhile (`undo` then stops this chain)
                await self._wait_for_undo(game_id, delay)
            busy = 0.0
            while True:
                if self.stopping:
                    return  # the move in flight is saved; the next start's repair pass resumes the others
                try:
                    if not await self._one_move(game_id):
                        break
                    busy = 0.0
                except PoolBusy:  # this server's queue is full: wait for room, fairly with the other servers
                    busy = min(busy * 2, 30.0) if busy else 0.5
                    log.info("Game %s: the computer players' queue is full; trying again in %.1f s", game_id, busy)
                    await asyncio.sleep(busy)
            rec = await self.host.games.get(game_id)
            if rec.status not in (GameStatus.PLAYING, GameStatus.FINISHED) or rec.game is None:
                return  # cancelled or abandoned meanwhile: nothing to post
            async with commits.hold(game_id):
                if self.host.presenter.has_news(game_id) or rec.table_message_id is None:
                    await self.host.presenter.publish(Result(rec, rec.game))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Game %s: the computer players could not finish their turns; the timer tries again", game_id)

    async def _one_move(self, game_id: int) -> bool:
        """One computer move, if a computer is to act (True: look again); False when a person acts next or the
        game is over (or no longer in play)."""
        commits = self.host.commits
        rec = await self.host.games.get(game_id)
        set_where(guild=rec.guild_id, channel=rec.channel_id)
        game = rec.game
        if rec.status != GameStatus.PLAYING or game is None or game.is_over:
            return False
        d = game.decision()
        assert d is not None
        seat = rec.seat_of(d.player)
        if seat is None or not seat.is_computer or seat.cpu_level is None:
            return False
        # Think without the lock: clicks, looks and a cancel go on meanwhile. The record and the game are not
        # kept while the computer thinks (it may wait in the pool's queue for seconds): the move is applied to
        # the game read again at the same version, so a game waiting for a computer player costs the garbage
        # collector only the state the pool holds (benchmarks/bench_load.py).
        version, player = rec.version, d.player
        # Fair between servers, and between members within one: the host's share pays for the thinking.
        thinking = self.host.computer_action(game, seat.cpu_level, key=rec.guild_id, member=rec.host_user_id)
        del rec, game, d, seat
        action = await thinking
        async with commits.hold(game_id):
            await commits.computer_move(game_id, version, player, action)
        return True

    async def _wait_for_undo(self, game_id: int, delay: float) -> None:
        """The computers' wait while the mover may take their move back: `delay` seconds, or less when the mover
        lets them play now (`end_wait`). Then the Undo offered on the mover's panel is taken away."""
        wait = self.waits.setdefault(game_id, asyncio.Event())
        try:
            async with asyncio.timeout(delay):  # not wait_for: see web.hub.wait_changed
                await wait.wait()
        except TimeoutError:
            pass
        finally:
            if self.waits.get(game_id) is wait:
                del self.waits[game_id]
                self.until.pop(game_id, None)
                self.host.commits.announce(Change(game_id, "wait"))  # they play now: the boards' countdown ends
        withdraw = self.undo_offers.pop(game_id, None)
        if withdraw is not None:
            try:
                await withdraw()
            except Exception:  # the panel may be gone (15 minutes, a dismissed message): the game goes on
                log.info("Game %s: the offered undo could not be taken off its panel", game_id, exc_info=True)

    def waiting_for_undo(self, game_id: int) -> bool:
        return game_id in self.waits

    def wait_of(self, game_id: int) -> tuple[float, float] | None:
        """While the game's computers wait for a possible undo: (when they play, in seconds since the epoch; how
        long the wait is), else None."""
        return self.until.get(game_id) if game_id in self.waits else None

    def offer_undo(self, game_id: int, withdraw: Callable[[], Awaitable[None]]) -> None:
        if game_id in self.waits:
            self.undo_offers[game_id] = withdraw

    def end_wait(self, game_id: int) -> bool:
        wait = self.waits.get(game_id)
        if wait is None:
            return False
        wait.set()
        return True
