"""The game service: the one door through which every front end (Discord's cogs, the web board) and every
background worker changes a game.

It composes the rooms of the house and holds no rules of its own:

- `cogs.games`: reading games (`games`), with the refusals a person is shown;
- `cogs.commit`: the one commit path (`commits`: check the version, apply, save in one transaction, announce the
  change to its listeners) that every writer uses: people, forced claims, computers, deadlines, undo, the start and
  the lobby;
- `cogs.lobbyrules`: the lobby's rules (seats, host, computer players, swaps, can it start), no Discord;
- `cogs.presenter`: a listener of the changes and what shows them (`tables`: Discord's channels, or nothing but the
  board), the table once per version;
- `cogs.notifier`: turn messages, pings and reminders, sent outside every lock;
- `cogs.computers`: the computer players' background chains;
- `cogs.timers`: deadlines, reminders, expired lobbies and the repair pass.

Every operation that changes a game holds its channel (`Commits.hold`) while it decides, saves and shows: two
clicks at once never corrupt a game; the second is told that the table changed. Reads go to `games` directly, the
rooms' own work (a look's pictures, the timers' passes) to the room.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import socket
from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from db.errors import StoreError
from db.models import ACTIVE_STATUSES, GameRecord, GameStatus, new_former_player_id
from db.store import GameStore
from engine import Action, Game, action_from_dict
from engine.ai import BUDGET_FACTORS, make_agent
from i18n import messages as M
from i18n import translate

from . import lobbyrules as rules
from . import pictures
from .commit import Commits, Listener
from .computers import Computers
from .decide import DEADLINE_LEVEL, STALE, Result, game_language, next_seat, undo_plan, utcnow
from .games import Games
from .lobbydoor import LobbyDoor, mention
from .notifier import Notifier
from .presenter import Presenter, Tables
from .tables import DiscordTables
from .tabletext import setup_words
from .timers import Timers
from .words import UserError, seat_name

log = logging.getLogger(__name__)

HARD_BUDGET_SECONDS = 1.0
FORGET_ATTEMPTS = 5  # a game that moves on this often while a person is being forgotten from it: try again later

Words = Callable[[str], str]  # a sentence in the language asked for


class BoardAccess(Protocol):
    """The web board as the Discord side sees it (web/ gives it; None without a board): a person's signed link to a
    game's board, whether the board opens inside Discord (the Activity's sign-in is set up), and its public address
    (None when it has none: /rules then links nowhere)."""

    link_minutes: int
    activity: bool
    public_url: str | None

    def link(self, game_id: int, user_id: int, seat: int | None) -> str | None: ...


class GameService(LobbyDoor):
    """Shared by the cogs and the web board: the door for every change of a game, over the rooms that do the work."""

    def __init__(
        self,
        bot: Any,
        store: GameStore,
        *,
        tables: Callable[[Any], Tables] = DiscordTables,
        board: BoardAccess | None = None,
        naming: rules.Naming = mention,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.bot = bot
        self.clock = clock
        self.board = board
        self.naming = naming  # how this front end names a person in refusals and answers
        self.games = Games(store)
        self.commits = Commits(self.games, lambda: self.clock())
        self.hard_budget = HARD_BUDGET_SECONDS
        # Seconds the computer players wait before answering a person's move that can still be taken back: a
        # misclick can be undone before they act (Settings.computer_delay; 0 in tests).
        self.computer_delay = 0.0
        self.story_at_end = True  # the replay and the chart go with the final table
        self.ai_pool = None  # an engine.ai.pool.AIPool when the bot thinks in worker processes (AI_WORKERS > 0)
        self.seeds: random.Random = random.SystemRandom()  # where new games get their seed; tests may fix it
        self.notifier = Notifier(self)  # turn DMs, pings and reminders: decided here, sent outside every lock
        self.tables = tables(self)  # where its games are shown: Discord's channels, or (local) the board alone
        self.presenter = Presenter(self, self.tables)
        self.commits.listeners.append(self.presenter)
        self.computers = Computers(self)
        self.timers = Timers(self)
        # This process's name in the store's claims: stable across restarts of the same shards on the same host,
        # so that a restarted process takes back at once what it held when it died (`reclaim`).
        settings = getattr(bot, "settings", None)
        shards = getattr(settings, "shard_ids", None)
        self.owner = f"{socket.gethostname()}:shards={','.join(map(str, shards)) if shards else 'all'}"

    def listen(self, listener: Listener) -> None:
        """`listener` hears of every change this service's commit path commits, from now on (once however often it
        asks): the web boards' hub, beside the presenter."""
        if listener not in self.commits.listeners:
            self.commits.listeners.append(listener)

    def new_seed(self) -> int:
        return self.seeds.randrange(2**62)

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
        async with self.commits.hold(game_id):
            result = await self.commits.play(
                game_id, user_id, action, expected_version=expected_version, through_optional=through_optional
            )
            await self.after_move(result, mover=str(user_id))
            return result

    async def undo(self, game_id: int, user_id: int) -> Result:
        """Take back the person's last action (and the claim that was then made for them), while nobody acted
        after it and nothing hidden came into view since (`undo_plan`). Computer players waiting to answer the move
        (`computer_delay`) do not play it."""
        async with self.commits.hold(game_id):
            result, was_theirs = await self.commits.undo(game_id, user_id)
            self.computers.stop(game_id)  # their turn is gone with the move (they waited, or thought: nothing saved)
            rec = result.record
            if was_theirs and rec.table_message_id is not None:
                # A step of their own turn: the table on screen still names them, and stays.
                await self.commits.table_current(rec)
                return result
            name = seat_name(rec.seats, str(user_id))
            note = translate(game_language(rec), M.UNDO_PUBLIC, name=name)
            await self.presenter.publish_or_warn(result, note=note)
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

    def waiting(self, game_id: int) -> dict | None:
        """While the game's computer players wait for a possible undo of the person's move (`computer_delay`): when
        they play (`until`, milliseconds since the epoch) and how long the wait is (`seconds`); else None. What the
        boards show as a countdown with "Play now"."""
        wait = self.computers.wait_of(game_id)
        if wait is None:
            return None
        until, seconds = wait
        return {"until": round(until * 1000), "seconds": seconds}

    def play_now(self, game_id: int) -> bool:
        """The computer players waiting for a possible undo play now (Discord's "Computers, play now"); False when
        they were not waiting."""
        return self.computers.end_wait(game_id)

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
                self.computers.schedule(rec.id, delay=result.computers_wait)
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

    async def start(self, rec: GameRecord) -> Result:
        """Turn a lobby into a game (seats in order, teams by consecutive pairs) and post the first table (the
        caller holds the game)."""
        result = await self.commits.start(rec)
        rec, game = result.record, result.game
        limit = translate(game_language(rec), M.KINGDOM_LIMIT, size=game.setup.kingdom_size)
        await self.after_move(result, mover=None, note=f"{setup_words(rec, game.config)} {limit}")
        return result

    async def end(
        self, game_id: int, *, reason: str, by: int | None = None, expected_version: int | None = None
    ) -> None:
        """End a game before its end (cancelled, expired, abandoned, unreadable): its computers stop, what waited
        for its next table is dropped, the turn buttons of its direct messages go (the caller holds it)."""
        self.computers.stop(game_id)
        await self.commits.cancel(game_id, expected_version, reason=reason, by=by)
        self.notifier.turn_passed(game_id, None)

    async def forget_person(self, user_id: int) -> int:
        """The person asked to be forgotten: they leave every stored game (`Commits.forget`; in a game in play a
        computer player takes their seat and the game goes on), the pictures kept of those games go, then their
        settings and notification records. Returns how many games named them."""
        former = new_former_player_id()  # one for all their games: everyone's ratings come out as before
        games = await self.store.games_of_person(user_id)
        for summary in games:
            for _ in range(FORGET_ATTEMPTS):  # a move saved meanwhile: read the game again
                async with self.commits.hold(summary.id, channel_id=summary.channel_id):
                    rec = await self.games.get(summary.id)
                    try:
                        result = await self.commits.forget(rec, user_id, former_id=former, level=DEADLINE_LEVEL)
                    except UserError as error:
                        if error.message != STALE:
                            raise
                        continue
                    if result is not None:
                        note = translate(game_language(rec), M.PLAYER_REPLACED)
                        await self.after_move(result, mover=None, note=note)
                    break
            else:
                raise UserError(STALE)
            await self.presenter.shown(summary.id)  # its lobby's message, if it had one, no longer names them
            await pictures.forget_game(summary.id)
        await self.store.erase_person(user_id)
        return len(games)

    async def abandon_channel(self, channel_id: int) -> list[int]:
        """The channel or thread was deleted: its game (lobby or in play) ends as abandoned, its timers and
        computer players stop. Returns the games ended."""
        ended = []
        for summary in await self.store.list_games(channel_id=channel_id, statuses=ACTIVE_STATUSES):
            try:
                await self.end(summary.id, reason="abandoned")
            except StoreError as error:
                log.warning("Game %s could not be ended after its channel was deleted: %s", summary.id, error)
                continue
            log.info("Game %s ended as abandoned: channel %s was deleted", summary.id, channel_id)
            ended.append(summary.id)
        return ended

    # -- computer players -----------------------------------------------------------------------------------------
    def stop_all(self) -> None:
        self.notifier.stop()
        for game_id in list(self.computers.chains):
            self.computers.stop(game_id)

    async def idle(self) -> None:
        """Wait until no computer player is thinking or moving and nothing is being told (tests and shutdown)."""
        await self.computers.idle()
        await self.notifier.idle()
        await self.presenter.idle()

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

    async def reclaim(self) -> int:
        """At start-up: drop the claims this process's earlier run held (it died holding them)."""
        return await self.store.release_claims_of(self.owner)
