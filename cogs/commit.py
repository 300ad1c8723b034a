"""The one path by which a game changes: load, check the version, apply, save, return what happened.

Every writer goes through `Commits`: a person's move and the claims then forced, the computer players, the turn
deadline, an undo, the start, and the lobby (open, join, leave, seats, host, cancel), and the bookkeeping of which
table shows which version. Each save is one transaction of the store that names the version it was computed from
(the state and its action together; `StaleVersion` writes nothing), so two clicks at once never corrupt a game.

The changes run under the game's channel lock (`hold`), which the caller (the game service) holds across deciding and
showing. Each committed change is announced (`Change`) to the listeners: the presenter and the web boards' hub hear
of every change the same way, whoever made it. Nothing here imports Discord or shows anything: it returns a
`cogs.decide.Result` for the presenter and the notifier.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from db import results_from_game
from db.errors import StaleVersion
from db.models import GameRecord, GameStatus, Seat, TurnTimer
from db.store import KEEP, GameStore
from engine import Action, Event, Game, GameConfig, IllegalAction
from i18n import messages as M
from i18n import translate

from .decide import (
    BY_DEADLINE,
    MADE_BY,
    STALE,
    Change,
    Result,
    forced_claim,
    forget_plan,
    state_without,
    steps_for,
    turn_key,
    turn_timer,
    undo_plan,
)
from .games import Games
from .words import UserError, domino_words, refusal_words, their_turn

log = logging.getLogger(__name__)

Chooser = Callable[[Game], Awaitable[Action]]


class Listener(Protocol):
    """Who hears of the changes `Commits` saves: the presenter (what waits for the next table, the lobby's message)
    and the web boards' hub. `heard` is called in the order of the changes, right after each is committed (and when
    an operation on a game begins and ends); it must not block: I/O goes into a task of the listener's own."""

    def heard(self, change: Change) -> None: ...


class Commits:
    """Commits every change to a game through the store, with the version check, and announces it."""

    def __init__(self, games: Games, clock: Callable[[], datetime]) -> None:
        self.games = games
        self.store: GameStore = games.store
        self.clock = clock
        # Per channel, while someone holds or awaits it: a lock nobody uses any more goes (the map stays bounded)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.listeners: list[Listener] = []

    # -- announcing -----------------------------------------------------------------------------------------------
    def announce(self, change: Change) -> None:
        """Tell every listener of `change`; a listener that fails is logged, never the writer's failure (the change
        is committed)."""
        for listener in self.listeners:
            try:
                listener.heard(change)
            except Exception:
                log.exception("Game %s: a listener failed to hear of a %s", change.game_id, change.kind)

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int, *, channel_id: int | None = None) -> AsyncIterator[None]:
        """Hold the game's channel while an operation decides, saves and shows (two clicks at once never interleave;
        the second sees the first's result). The listeners hear that it began (`busy`) and that it ended
        (`settled`), so that a board can draw a move as saved while it offers nothing until everything of it is.
        (`channel_id`: the game's channel, when it is known without reading the game: one that cannot be read.)"""
        if channel_id is None:
            channel_id = await self.games.channel_of(game_id)
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        async with lock:
            self.announce(Change(game_id, "busy"))
            try:
                yield
            finally:
                self.announce(Change(game_id, "settled"))

    def held(self) -> int:
        """How many channels are held or awaited now (the map of locks stays bounded: tests)."""
        return len(self._locks)

    # -- moves (the caller holds the channel's lock) ---------------------------------------------------------------
    async def save(
        self,
        rec: GameRecord,
        game: Game,
        action: Action,
        player: str,
        user_id: int | None,
        events: list[Event],
        *,
        made_by: str | None = None,
    ) -> GameRecord:
        """Save the move (its action and the state after it, one transaction) with the version check; returns the
        record at its new version, announced with its events (the presenter keeps them for the next table). `made_by`
        marks, in the saved
        action, who made a move saved without a user id (the deadline)."""
        results = results_from_game(game) if game.is_over else None
        timer = None if game.is_over else turn_timer(rec, game, self.clock())
        try:
            version = await self.store.save_move(
                rec.id,
                rec.version,
                state=game.to_dict(),
                action={**action.to_dict(), MADE_BY: made_by} if made_by else action.to_dict(),
                player_id=player,
                user_id=user_id,
                timer=timer,
                results=results,
            )
        except StaleVersion:
            raise UserError(STALE) from None
        rec = dataclasses.replace(rec, version=version, game=game)
        self.announce(Change(rec.id, "move", version, rec, tuple(events), by=user_id))
        return rec

    async def play(
        self, game_id: int, user_id: int, action: Action, *, expected_version: int | None, through_optional: bool
    ) -> Result:
        """A person's action: refused (nothing saved) when the game is not in play, out of date, not theirs or not
        their turn; else applied and saved, then the claims it forces."""
        rec = await self.games.get(game_id)
        if rec.status != GameStatus.PLAYING or rec.game is None:
            raise UserError(M.NOT_PLAYED_ANY_MORE if rec.status != "lobby" else STALE)
        if expected_version is not None and rec.version != expected_version:
            raise UserError(STALE)
        game = rec.game
        player = str(user_id)
        if rec.seat_of(player) is None:
            raise UserError(M.NOT_PLAYING)
        d = game.decision()
        assert d is not None
        if d.player != player:
            raise UserError(lambda lang, g=game, d=d, seats=rec.seats: their_turn(g, d, seats, lang))
        steps = steps_for(game, player, action) if through_optional else [action]
        return await self.apply(rec, game, steps, player, user_id)

    async def apply(
        self, rec: GameRecord, game: Game, actions: list[Action], player: str, user_id: int | None
    ) -> Result:
        """Apply and save `actions` one by one (a refusal of the first: nothing saved; of a later one: the warning),
        then the claims they force."""
        result = Result(
            rec, game, table_was_current=rec.table_message_id is not None and rec.table_version == rec.version
        )
        for action in actions:
            try:
                new = game.apply(action, by=player)
            except IllegalAction as error:
                if not result.events:
                    raise UserError(
                        lambda lang, e=error, g=game, seats=rec.seats: refusal_words(e, g, seats, player, lang)
                    ) from None
                then = game.clone()  # the refusal is worded from the game as it was refused
                result.warning = lambda lang, e=error, g=then, seats=rec.seats: refusal_words(e, g, seats, player, lang)
                break
            rec = await self.save(rec, game, action, player, user_id, new)
            result.events.extend(new)
            result.table_events.extend(new)
        result.record = await self.forced_claims(rec, game, result)
        return result

    async def forced_claims(self, rec: GameRecord, game: Game, result: Result) -> GameRecord:
        """A person with a single free domino to choose from does not have to click it: their king takes it."""
        while (forced := forced_claim(rec, game)) is not None:
            player, claim = forced
            events = game.apply(claim, by=player)
            for event in events:  # the table says it was the last free one, not a choice (common.event_words)
                if event.kind == "claimed":
                    event.data["forced"] = True
            rec = await self.save(rec, game, claim, player, None, events)
            result.table_events.extend(events)
            rw = game.config.game == "royal-wedding"

            def said(lang: str, domino=claim.domino, rw=rw) -> str:
                return translate(lang, M.FORCED_CLAIM, domino=domino_words(domino, with_box=rw, lang=lang))

            result.automatic.append((player, said))
        return rec

    async def computer_move(self, game_id: int, version: int, player: str, action: Action) -> GameRecord | None:
        """A computer player's `action`, chosen at `version`: saved if the game is still there (else None: look
        again)."""
        fresh = await self.games.get(game_id)
        if fresh.status != GameStatus.PLAYING or fresh.version != version or fresh.game is None:
            return None  # something changed while thinking
        events = fresh.game.apply(action, by=player)
        try:
            return await self.save(fresh, fresh.game, action, player, None, events)
        except UserError:
            return None  # another process saved first

    async def deadline_turn(self, rec: GameRecord, game: Game, player: str, choose: Chooser) -> Result | None:
        """The absent `player`'s time ran out: a computer player finishes their turn (each move marked as the
        deadline's). None when the player (in another process) moved meanwhile: their move stands."""
        before = turn_key(game)
        while not game.is_over and turn_key(game) == before:
            action = await choose(game)
            events = game.apply(action, by=player)
            try:
                rec = await self.save(rec, game, action, player, None, events, made_by=BY_DEADLINE)
            except UserError:
                log.info("Game %s: the player moved before their deadline was played", rec.id)
                return None
        return Result(rec, game)

    async def undo(self, game_id: int, user_id: int) -> tuple[Result, bool]:
        """Take back the person's last action (and the claims then made for them), while `undo_plan` allows it; the
        undone actions stay in the log, marked undone, each in the transaction that restores the state before it.
        Returns the result and whether the game waited for that person before (a step of their own turn), with the
        table on screen showing that."""
        rec = await self.games.get(game_id)
        if rec.status != GameStatus.PLAYING or rec.game is None:
            raise UserError(M.UNDO_NOT_PLAYED)
        actions = await self.store.get_actions(game_id, include_undone=False)
        undo, replay = undo_plan(rec, actions, user_id)
        keep = actions[: len(actions) - len(undo)]
        version = rec.version
        for n, record in enumerate(undo):
            last = n == len(undo) - 1
            state = replay.to_dict() if last else state_without(rec.game, keep, undo[n + 1 :])
            timer = turn_timer(rec, replay, self.clock()) if last else None
            try:
                version = await self.store.undo_last_action(game_id, version, seq=record.seq, state=state, timer=timer)
            except StaleVersion:
                raise UserError(STALE) from None
        d = rec.game.decision()
        # Their own turn, and the table on screen showed it (not an older table left by a post that failed).
        was_theirs = d is not None and d.player == str(user_id) and rec.table_version == rec.version
        rec = await self.games.get(game_id)
        assert rec.game is not None
        self.announce(Change(game_id, "undo", rec.version, rec, by=user_id))
        return Result(rec, rec.game), was_theirs

    async def start(self, rec: GameRecord) -> Result:
        """Turn a lobby into a game (seats in order, teams by consecutive pairs), then the claims it forces."""
        options = rec.config
        players = tuple(s.player_id for s in rec.seats)
        teams = None
        if options.get("teams"):
            teams = tuple(players[i : i + 2] for i in range(0, len(players), 2))
        try:
            config = GameConfig(rec.kind, players, frozenset(options.get("variants", ())), teams)
        except ValueError as error:
            raise UserError(M.CANNOT_START, reason=str(error)) from None
        game = Game.new(config, rec.seed)
        saved = config.to_dict()
        if options.get("language"):  # the game's language stays beside the engine's config
            saved["language"] = options["language"]
        if options.get("hints"):  # a table opened with hints: the board offers them, the game is not rated
            saved["hints"] = True
        try:
            timer = turn_timer(rec, game, self.clock())
            await self.store.start_game(rec.id, rec.version, config=saved, state=game.to_dict(), timer=timer)
        except StaleVersion:
            raise UserError(STALE) from None
        rec = await self.games.get(rec.id)
        assert rec.game is not None
        self.announce(Change(rec.id, "start", rec.version, rec))
        result = Result(rec, rec.game)
        result.record = await self.forced_claims(rec, result.game, result)
        return result

    # -- the lobby (the caller holds the channel's lock, but to open one) ----------------------------------------------
    def _lobby_changed(self, rec: GameRecord, by: int | None = None) -> GameRecord:
        self.announce(Change(rec.id, "lobby", rec.version, rec, by=by))
        return rec

    async def open_lobby(self, **lobby: Any) -> GameRecord:
        """A new lobby (`GameStore.create_game`'s arguments). Raises `ActiveGameExists` when the channel has one."""
        rec = await self.store.create_game(**lobby)
        return self._lobby_changed(rec, lobby.get("host_user_id"))

    async def join(self, rec: GameRecord, seat: Seat) -> GameRecord:
        return self._lobby_changed(await self.store.join_game(rec.id, rec.version, seat), seat.user_id)

    async def leave(self, rec: GameRecord, player_id: str, by: int | None = None) -> GameRecord:
        return self._lobby_changed(await self.store.leave_game(rec.id, rec.version, player_id), by)

    async def reseat(self, rec: GameRecord, seats: Sequence[Seat], by: int | None = None) -> GameRecord:
        return self._lobby_changed(await self.store.set_seats(rec.id, rec.version, seats), by)

    async def hand_host(self, rec: GameRecord, user_id: int, by: int | None = None) -> GameRecord:
        return self._lobby_changed(await self.store.set_host(rec.id, rec.version, user_id), by)

    async def set_options(self, rec: GameRecord, by: int | None = None, **options: Any) -> GameRecord:
        """Change a lobby's options (`GameStore.set_lobby_options`'s)."""
        return self._lobby_changed(await self.store.set_lobby_options(rec.id, rec.version, **options), by)

    async def cancel(
        self, game_id: int, expected_version: int | None = None, *, reason: str = "cancelled", by: int | None = None
    ) -> int:
        """End a game in its lobby or in play (`expected_version=None`: whatever its version); frees the channel."""
        version = await self.store.cancel_game(game_id, expected_version, reason=reason)
        self.announce(Change(game_id, "cancel", version, by=by, reason=reason))
        return version

    # -- a person who asked to be forgotten; a game deleted -------------------------------------------------------------
    async def forget(
        self,
        rec: GameRecord,
        user_id: int,
        *,
        former_id: int,
        level: str,
        name: str | None = None,
        host_after: int | None = None,
    ) -> Result | None:
        """The person leaves the game `rec` for good (`forget_plan`: a computer player takes their seat in play, a
        former player's seat keeps their result, a lobby loses their seat), their name gone from its seats, log and
        results, with the version check. Returns the game in play afterwards (its turn may now be a computer's),
        else None. The caller holds the channel's lock."""
        plan = forget_plan(
            rec, user_id, former_id=former_id, level=level, now=self.clock(), name=name, host_after=host_after
        )
        try:
            await self.store.forget_player(
                rec.id,
                rec.version,
                user_id=user_id,
                replacement=plan.replacement,
                host_user_id=KEEP if plan.host_user_id is None else plan.host_user_id,
                config=KEEP if plan.config is None else plan.config,
                state=KEEP if plan.game is None else plan.game.to_dict(),
                timer=plan.timer,
                cancel=plan.cancel,
            )
        except StaleVersion:
            raise UserError(STALE) from None
        fresh = await self.games.get(rec.id)
        if plan.cancel:  # their lobby, where nobody else sat: it is cancelled (the lobby's message says so)
            self.announce(Change(rec.id, "cancel", fresh.version, reason="forgotten"))
        else:
            kind = "lobby" if rec.status == GameStatus.LOBBY else "seat"
            self.announce(Change(rec.id, kind, fresh.version, fresh))
        if rec.status != GameStatus.PLAYING:
            return None
        return Result(fresh, fresh.game) if fresh.game is not None else None

    async def delete(self, game_id: int) -> bool:
        """Delete a game and everything kept with it (its server removed the bot long enough ago)."""
        deleted = await self.store.delete_game(game_id)
        self.games.forget(game_id)
        self.announce(Change(game_id, "deleted"))
        return deleted

    # -- bookkeeping: which table shows which version, the turn's timer -----------------------------------------------
    async def table_shown(self, rec: GameRecord, channel_id: int | None, message_id: int | None) -> None:
        """The message `message_id` shows the game at `rec.version` (None, None: no message; a lobby's message: no
        version shown)."""
        shown = rec.version if rec.status != GameStatus.LOBBY else None
        await self.store.set_table_message(rec.id, channel_id, message_id, shown_version=shown)

    async def table_current(self, rec: GameRecord) -> None:
        """The table on screen still names the right player (a step of the same turn): it counts as current."""
        assert rec.table_message_id is not None
        channel_id = rec.table_channel_id or rec.channel_id
        await self.store.set_table_message(rec.id, channel_id, rec.table_message_id, shown_version=rec.version)

    async def set_timer(self, rec: GameRecord, timer: TurnTimer) -> None:
        """Reschedule the reminder and deadline, only if the game has not moved since `rec`."""
        await self.store.set_turn_timer(rec.id, timer, expected_version=rec.version)
