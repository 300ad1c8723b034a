"""The game service: the one door through which the cogs and the web board change and show a game.

It composes the rooms of the house and holds no rules of its own:

- `cogs.decide`: what a move means (the rules' helpers, the `Result` of a change), no Discord, no store;
- `cogs.commit`: the one commit path (load, check the version, apply, save in one transaction, return the result)
  that every writer uses: people, forced claims, computers, deadlines, undo, the start and the lobby;
- `cogs.presenter`: a result becomes the table message in its channel (once per version);
- `cogs.notifier`: turn messages, pings and reminders, sent outside every lock;
- `cogs.computers`: the computer players' background chains;
- `cogs.timers`: deadlines, reminders, expired lobbies and the repair pass.

A move runs under its channel's lock (`lock`): decide and save, then show. Two clicks at once never corrupt a game:
the second is told that the table changed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import socket
import weakref
from collections.abc import Awaitable, Callable
from datetime import datetime

import discord

from db.errors import StoreError
from db.models import ACTIVE_STATUSES, GameRecord, GameStatus, new_former_player_id
from db.store import GameStore
from engine import Action, Event, Game, action_from_dict
from engine.ai import BUDGET_FACTORS, make_agent
from i18n import messages as M
from i18n import translate

from . import pictures
from .commit import Commits
from .common import UserError, domino_words, kingdom_name, seat_name
from .computers import Computers
from .controls import history_view, table_view, turn_view
from .decide import (
    BY_DEADLINE,
    DEADLINE_LEVEL,
    MADE_BY,
    OPTIONAL_STEPS,
    STALE,
    MoveOutcome,
    NoGameHere,
    Result,
    game_language,
    made_by_deadline,
    next_seat,
    same_turn_step,
    skip_optional,
    turn_key,
    undo_plan,
    utcnow,
)
from .lobbytext import lobby_text
from .notifier import Notifier
from .presenter import Presenter
from .tabletext import describe, fit_table, names_and_colours, pack_lines, setup_words, table_content, table_link
from .timers import REPAIR_GRACE_SECONDS, Timers

log = logging.getLogger(__name__)

HARD_BUDGET_SECONDS = 1.0
FORGET_ATTEMPTS = 5  # a game that moves on this often while a person is being forgotten from it: try again later


class GameService:
    """Shared by the cogs and the web board: loading games, moves, computer seats, the table, timers."""

    def __init__(self, bot: discord.Client, store: GameStore, *, clock: Callable[[], datetime] = utcnow) -> None:
        self.bot = bot
        self.clock = clock
        self.commits = Commits(store, lambda: self.clock())
        self.hard_budget = HARD_BUDGET_SECONDS
        # Seconds the computer players wait before answering a person's move that can still be taken back: a
        # misclick can be undone before they act (Settings.computer_delay; 0 in tests).
        self.computer_delay = 0.0
        self.story_at_end = True  # the replay and the chart go with the final table
        self.ai_pool = None  # an engine.ai.pool.AIPool when the bot thinks in worker processes (AI_WORKERS > 0)
        self.seeds: random.Random = random.SystemRandom()  # where new games get their seed; tests may fix it
        self.notifier = Notifier(self)  # turn DMs, pings and reminders: decided here, sent outside every lock
        self.presenter = Presenter(self)
        self.computers = Computers(self)
        self.timers = Timers(self)
        # This process's name in the store's claims: stable across restarts of the same shards on the same host,
        # so that a restarted process takes back at once what it held when it died (`reclaim`).
        settings = getattr(bot, "settings", None)
        shards = getattr(settings, "shard_ids", None)
        self.owner = f"{socket.gethostname()}:shards={','.join(map(str, shards)) if shards else 'all'}"

    @property
    def store(self) -> GameStore:
        return self.commits.store

    @property
    def _locks(self) -> weakref.WeakValueDictionary[int, asyncio.Lock]:
        return self.commits.locks

    @property
    def _chains(self) -> dict[int, asyncio.Task]:
        return self.computers.chains

    def new_seed(self) -> int:
        return self.seeds.randrange(2**62)

    # -- loading (the commit path's) ------------------------------------------------------------------------------
    def lock(self, channel_id: int) -> asyncio.Lock:
        return self.commits.lock(channel_id)

    async def channel_of(self, game_id: int) -> int:
        return await self.commits.channel_of(game_id)

    async def get(self, game_id: int) -> GameRecord:
        return await self.commits.get(game_id)

    async def at_version(self, game_id: int, version: int) -> GameRecord:
        return await self.commits.at_version(game_id, version)

    async def active(self, channel_id: int, *, playing: bool = False) -> GameRecord:
        return await self.commits.active(channel_id, playing=playing)

    async def latest(self, channel_id: int) -> GameRecord:
        return await self.commits.latest(channel_id)

    # -- moves ----------------------------------------------------------------------------------------------------
    async def play(
        self,
        game_id: int,
        user_id: int,
        action: Action,
        *,
        expected_version: int | None = None,
        through_optional: bool = False,
    ) -> Result:
        """Apply a person's action, save it, and post the table when the turn passes to someone else.

        With `through_optional`, the optional steps of the turn (tax, build, dragon) that come before the action's
        own step are skipped first; a `Skip` then means "done with the optional steps". The computer players who
        act next play in the background, each move under the lock only while it is saved."""
        async with self.lock(await self.channel_of(game_id)):
            result = await self.commits.play(
                game_id, user_id, action, expected_version=expected_version, through_optional=through_optional
            )
            await self.after_move(result, mover=str(user_id))
            return result

    async def undo(self, game_id: int, user_id: int) -> Result:
        """Take back the person's last action (and the claim that was then made for them), while nobody acted
        after it and nothing hidden came into view since (`undo_plan`). Computer players waiting to answer the move
        (`computer_delay`) do not play it."""
        async with self.lock(await self.channel_of(game_id)):
            result, was_theirs = await self.commits.undo(game_id, user_id)
            self.stop_computers(game_id)  # their turn is gone with the move (they waited, or thought: nothing saved)
            self.presenter.forget(game_id)
            rec = result.record
            if was_theirs and rec.table_message_id is not None:
                # A step of their own turn: the table on screen still names them, and stays.
                await self.commits.table_current(rec)
                return result
            name = seat_name(rec.seats, str(user_id))
            note = translate(game_language(rec), M.UNDO_PUBLIC, name=name)
            await self.presenter.publish_or_warn(result, note=note)
            return result

    async def start(self, rec: GameRecord) -> Result:
        """Turn a lobby into a game (seats in order, teams by consecutive pairs) and post the first table (the
        caller holds the channel's lock)."""
        result = await self.commits.start(rec)
        rec, game = result.record, result.game
        limit = translate(game_language(rec), M.KINGDOM_LIMIT, size=game.setup.kingdom_size)
        await self.after_move(result, mover=None, note=f"{setup_words(rec, game.config)} {limit}")
        return result

    async def undo_refusal(self, rec: GameRecord, user_id: int) -> UserError | None:
        """Why an undo by `user_id` would be refused now (the same rules as `undo`), or None when it would be done:
        a panel offers Undo only then."""
        if rec.status != GameStatus.PLAYING or rec.game is None:
            return UserError(M.UNDO_NOT_PLAYED)
        actions = await self.store.get_actions(rec.id, include_undone=False)
        try:  # it replays the game (milliseconds in a long one): away from the event loop
            await asyncio.to_thread(undo_plan, rec, actions, user_id)
        except UserError as refusal:
            return refusal
        return None

    async def _undo_window(self, rec: GameRecord, game: Game, mover: str | None) -> float:
        """How long the computer players wait before answering `mover`'s move: `computer_delay` when a person moved
        and may still take it back, else 0 (their move drew a new line: nothing to wait for)."""
        seat = rec.seat_of(mover) if mover is not None else None
        if self.computer_delay <= 0 or seat is None or seat.is_computer or seat.user_id is None:
            return 0.0
        refusal = await self.undo_refusal(dataclasses.replace(rec, game=game), seat.user_id)
        return self.computer_delay if refusal is None else 0.0

    async def after_move(self, result: Result, *, mover: str | None, note: str = "") -> None:
        """After a saved change: computer players next play in the background (and post the table when they are
        done); a person next gets the table now, unless it is still the mover's turn (the steps of one turn, or a
        second king) and nothing needs saying. The move is saved whatever happens here: a failure becomes a
        warning for the mover, and the repair pass posts the table later."""
        rec, game = result.record, result.game
        self.presenter.note(rec.id, note)
        try:
            nxt = next_seat(rec, game)
            if nxt is not None and nxt.is_computer:
                result.computers_wait = await self._undo_window(rec, game, mover)
                self.schedule_computers(rec.id, delay=result.computers_wait)
            elif (
                game.is_over
                or nxt is None
                or nxt.player_id != mover
                or self.presenter.notes.get(rec.id)
                or not result.table_was_current
            ):
                await self.presenter.publish(result)
            else:
                # Still the mover's turn (its next step, or their second king), and the table on screen showed the
                # game before this step: it still names the right player, so it stays, and counts as current.
                await self.commits.table_current(rec)
        except Exception as error:
            log.exception("Game %s: the move is saved but what follows it failed", result.record.id)

            def warning(lang: str, error=error) -> str:
                reason = error.text(lang) if isinstance(error, UserError) else translate(lang, M.TABLE_NOT_UPDATED)
                return translate(lang, M.MOVE_SAVED_BUT, reason=reason)

            result.warning = warning

    # -- computer players -----------------------------------------------------------------------------------------
    def schedule_computers(self, game_id: int, *, delay: float = 0.0) -> asyncio.Task:
        return self.computers.schedule(game_id, delay=delay)

    def stop_computers(self, game_id: int) -> None:
        self.computers.stop(game_id)

    def stop_all(self) -> None:
        self.notifier.stop()
        for game_id in list(self.computers.chains):
            self.computers.stop(game_id)

    async def idle(self) -> None:
        """Wait until no computer player is thinking or moving (for tests and shutdown)."""
        await self.computers.idle()
        await self.notifier.idle()

    def waiting_for_undo(self, game_id: int) -> bool:
        """Whether the game's computer players are waiting while a person may take their move back."""
        return self.computers.waiting_for_undo(game_id)

    def offer_undo(self, game_id: int, withdraw: Callable[[], Awaitable[None]]) -> None:
        """While the computers wait, a panel offers Undo: `withdraw` takes it away when they start (not after)."""
        self.computers.offer_undo(game_id, withdraw)

    def end_wait(self, game_id: int) -> bool:
        """Let the waiting computer players play now; False when they were not waiting."""
        return self.computers.end_wait(game_id)

    async def computer_action(self, game: Game, level: str, *, key: object = None, member: object = None) -> Action:
        """A computer player's choice, computed away from the event loop with a bounded amount of work. An unknown
        level is refused (ValueError), never played as another."""
        factor = BUDGET_FACTORS.get(level)
        options = {"time_budget": self.hard_budget * factor} if factor is not None else {}
        seed = game.seed + len(game.log)
        if self.ai_pool is not None:  # worker processes: the bot's interpreter never thinks
            # Neither the game nor its state dict is kept here while the move waits in the pool's queue (the pool
            # keeps the state pickled; see cogs.computers).
            choosing = self.ai_pool.choose(game.to_dict(), level, seed, key=key, member=member, **options)
            del game
            return action_from_dict(await choosing)
        agent = make_agent(level, seed=seed, **options)
        return await asyncio.to_thread(agent.choose, game.clone())

    # -- showing (the presenter's) --------------------------------------------------------------------------------
    async def post_table(self, rec: GameRecord, events: list[Event], *, note: str = "") -> discord.Message | None:
        """Send the table picture with the turn's words; take the controls off the previous table."""
        return await self.presenter.post_table(rec, events, note=note)

    async def story_files(self, rec: GameRecord, game: Game, **options) -> list[discord.File]:
        """The replay and the score chart (`Presenter.story_files`)."""
        return await self.presenter.story_files(rec, game, **options)

    async def picture(self, game_id: int, render, *args, **kwargs) -> bytes | None:
        """A picture drawn by the picture workers (cogs/pictures.py); None (logged) when it cannot be drawn, so a
        picture never blocks a game: the text goes out alone."""
        return await pictures.draw(render, *args, **kwargs)

    def table_content(self, rec: GameRecord, game: Game, events: list[Event], note: str = "") -> str:
        return table_content(rec, game, events, note)

    def table_link(self, rec: GameRecord) -> str | None:
        return table_link(rec)

    table_view = staticmethod(table_view)
    turn_view = staticmethod(turn_view)
    history_view = staticmethod(history_view)
    lobby_text = staticmethod(lobby_text)

    # -- timers (the timers') -------------------------------------------------------------------------------------
    async def run_due(self) -> int:
        return await self.timers.run_due()

    async def expire_lobbies(self) -> list[int]:
        return await self.timers.expire_lobbies()

    async def repair_tables(self, *, grace: float = REPAIR_GRACE_SECONDS) -> int:
        return await self.timers.repair_tables(grace=grace)

    async def reclaim(self) -> int:
        """At start-up: drop the claims this process's earlier run held (it died holding them)."""
        return await self.store.release_claims_of(self.owner)

    async def forget_person(self, user_id: int) -> int:
        """The person asked to be forgotten: they leave every stored game (`Commits.forget`; in a game in play
        a computer player takes their seat and the game goes on), the pictures kept of those games go, then their
        settings and notification records. Returns how many games named them."""
        former = new_former_player_id()  # one for all their games: everyone's ratings come out as before
        games = await self.store.games_of_person(user_id)
        for summary in games:
            for _ in range(FORGET_ATTEMPTS):  # a move saved meanwhile: read the game again
                async with self.lock(summary.channel_id):
                    rec = await self.get(summary.id)
                    try:
                        result = await self.commits.forget(rec, user_id, former_id=former, level=DEADLINE_LEVEL)
                    except UserError as error:
                        if error.message != STALE:
                            raise
                        continue
                    if result is not None:
                        note = translate(game_language(rec), M.PLAYER_REPLACED)
                        await self.after_move(result, mover=None, note=note)
                    elif rec.status == GameStatus.LOBBY:
                        await self.presenter.lobby_changed(await self.get(rec.id))
                    break
            else:
                raise UserError(STALE)
            await pictures.forget_game(summary.id)
        await self.store.erase_person(user_id)
        return len(games)

    async def abandon_channel(self, channel_id: int) -> list[int]:
        """The channel or thread was deleted: its game (lobby or in play) ends as abandoned, its timers and
        computer players stop. Returns the games ended."""
        ended = []
        for summary in await self.store.list_games(channel_id=channel_id, statuses=ACTIVE_STATUSES):
            self.stop_computers(summary.id)
            try:
                await self.commits.cancel(summary.id, reason="abandoned")
            except StoreError as error:
                log.warning("Game %s could not be ended after its channel was deleted: %s", summary.id, error)
                continue
            self.presenter.forget(summary.id)
            self.notifier.turn_passed(summary.id, None)
            log.info("Game %s ended as abandoned: channel %s was deleted", summary.id, channel_id)
            ended.append(summary.id)
        return ended


__all__ = [
    "BY_DEADLINE",
    "MADE_BY",
    "OPTIONAL_STEPS",
    "STALE",
    "GameService",
    "MoveOutcome",
    "NoGameHere",
    "Result",
    "describe",
    "domino_words",
    "fit_table",
    "game_language",
    "kingdom_name",
    "made_by_deadline",
    "names_and_colours",
    "pack_lines",
    "same_turn_step",
    "skip_optional",
    "turn_key",
    "undo_plan",
    "utcnow",
]
