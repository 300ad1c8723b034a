"""The one path by which a game changes: load, check the version, apply, save, return what happened.

Every writer goes through `Commits`: a person's move and the claims then forced, the computer players, the turn
deadline, an undo, the start, and the lobby (open, join, leave, seats, host, cancel), and the bookkeeping of which
table shows which version. Each save is one transaction of the store that names the version it was computed from
(the state and its action together; `StaleVersion` writes nothing), so two clicks at once never corrupt a game.

The moves run under the game's channel lock (`lock`), which the caller holds across deciding and showing. Nothing
here imports Discord or shows anything: it returns a `cogs.decide.Result` for the presenter and the notifier.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

from db import results_from_game
from db.errors import CorruptGame, StaleVersion, StoreError
from db.models import GameRecord, GameStatus, Seat, TurnTimer
from db.store import KEEP, GameStore
from engine import Action, Event, Game, GameConfig, IllegalAction
from i18n import messages as M
from i18n import translate

from .common import UserError, clip, domino_words, refusal_words, their_turn
from .decide import (
    BY_DEADLINE,
    MADE_BY,
    NO_GAME,
    STALE,
    UNREADABLE,
    NoGameHere,
    Result,
    forced_claim,
    forget_plan,
    state_without,
    steps_for,
    turn_key,
    turn_timer,
    undo_plan,
)

log = logging.getLogger(__name__)

Chooser = Callable[[Game], Awaitable[Action]]


class Commits:
    """Loads games and commits every change to them through the store, with the version check."""

    def __init__(self, store: GameStore, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock
        # Per channel, while someone holds or awaits it: a lock nobody uses any more goes (the map stays bounded)
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._channels: dict[int, int] = {}  # game id -> its channel id
        self._corrupt_logged: set[int] = set()
        self.unshown: dict[int, list[Event]] = {}  # per game: what was saved since its table was last posted

    # -- loading --------------------------------------------------------------------------------------------------
    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self.locks.get(channel_id)
        if lock is None:
            lock = self.locks[channel_id] = asyncio.Lock()
        return lock

    async def channel_of(self, game_id: int) -> int:
        """The channel of a game (it never changes): read once, then remembered, so a move reads its game once."""
        channel_id = self._channels.get(game_id)
        if channel_id is None:
            channel_id = self._channels[game_id] = (await self.get(game_id)).channel_id
        return channel_id

    async def get(self, game_id: int) -> GameRecord:
        try:
            return await self.store.get_game(game_id)
        except CorruptGame as error:
            self._log_corrupt(game_id, error)
            raise UserError(UNREADABLE, error=clip(str(error), 300)) from None
        except StoreError as error:
            raise UserError(str(error)) from None

    def _log_corrupt(self, key: int, error: Exception) -> None:
        """A damaged game is logged as an error once (then briefly): every command of its channel meets it."""
        if key in self._corrupt_logged:
            log.info("Game %s still cannot be read", key)
            return
        self._corrupt_logged.add(key)
        log.error("Game %s cannot be read: %s", key, error)

    async def at_version(self, game_id: int, version: int) -> GameRecord:
        """The game as it was when a control was drawn; refused as out of date if anything changed since."""
        rec = await self.get(game_id)
        if rec.version != version:
            raise UserError(STALE)
        return rec

    async def active(self, channel_id: int, *, playing: bool = False) -> GameRecord:
        try:
            rec = await self.store.get_active_game(channel_id)
        except CorruptGame as error:
            self._log_corrupt(error.game_id, error)
            raise UserError(UNREADABLE, error=clip(str(error), 300)) from None
        if rec is None:
            raise NoGameHere(NO_GAME)
        if playing and rec.status != GameStatus.PLAYING:
            raise UserError(M.NOT_STARTED_YET)
        return rec

    async def latest(self, channel_id: int) -> GameRecord:
        """The active game of the channel, else its most recent finished one (for looking at the end)."""
        summary = await self.store.get_active_summary(channel_id)
        if summary is not None:
            return await self.get(summary.id)
        games = await self.store.list_games(channel_id=channel_id, limit=1)
        if not games:
            raise NoGameHere(NO_GAME)
        return await self.get(games[0].id)

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
        record at its new version. Its events wait for the next table (`unshown`). `made_by` marks, in the saved
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
        self.unshown.setdefault(rec.id, []).extend(events)
        rec = dataclasses.replace(rec, version=version)
        saved = getattr(self.store, "saved", None)  # the web boards' hub (web.hub.WatchedStore), if boards may watch
        if saved is not None:
            saved(rec, game)  # a copy for the open boards: they need not read back what was just written
        return rec

    async def play(
        self, game_id: int, user_id: int, action: Action, *, expected_version: int | None, through_optional: bool
    ) -> Result:
        """A person's action: refused (nothing saved) when the game is not in play, out of date, not theirs or not
        their turn; else applied and saved, then the claims it forces."""
        rec = await self.get(game_id)
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
        fresh = await self.get(game_id)
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
        rec = await self.get(game_id)
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
        self.unshown.pop(game_id, None)
        rec = await self.get(game_id)
        assert rec.game is not None
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
        try:
            timer = turn_timer(rec, game, self.clock())
            await self.store.start_game(rec.id, rec.version, config=saved, state=game.to_dict(), timer=timer)
        except StaleVersion:
            raise UserError(STALE) from None
        rec = await self.get(rec.id)
        assert rec.game is not None
        result = Result(rec, rec.game)
        result.record = await self.forced_claims(rec, result.game, result)
        return result

    # -- the lobby --------------------------------------------------------------------------------------------------
    async def open_lobby(self, **lobby: Any) -> GameRecord:
        """A new lobby (`GameStore.create_game`'s arguments). Raises `ActiveGameExists` when the channel has one."""
        return await self.store.create_game(**lobby)

    async def join(self, rec: GameRecord, seat: Seat) -> GameRecord:
        return await self.store.join_game(rec.id, rec.version, seat)

    async def leave(self, rec: GameRecord, player_id: str) -> GameRecord:
        return await self.store.leave_game(rec.id, rec.version, player_id)

    async def reseat(self, rec: GameRecord, seats: Sequence[Seat]) -> GameRecord:
        return await self.store.set_seats(rec.id, rec.version, seats)

    async def hand_host(self, rec: GameRecord, user_id: int) -> GameRecord:
        return await self.store.set_host(rec.id, rec.version, user_id)

    async def set_options(self, rec: GameRecord, **options: Any) -> GameRecord:
        """Change a lobby's options (`GameStore.set_lobby_options`'s)."""
        return await self.store.set_lobby_options(rec.id, rec.version, **options)

    async def cancel(self, game_id: int, expected_version: int | None = None, *, reason: str = "cancelled") -> int:
        """End a game in its lobby or in play (`expected_version=None`: whatever its version); frees the channel."""
        self.unshown.pop(game_id, None)
        return await self.store.cancel_game(game_id, expected_version, reason=reason)

    # -- a person who asked to be forgotten; a game deleted -------------------------------------------------------------
    async def forget(self, rec: GameRecord, user_id: int, *, former_id: int, level: str) -> Result | None:
        """The person leaves the game `rec` for good (`forget_plan`: a computer player takes their seat in play, a
        former player's seat keeps their result, a lobby loses their seat), their name gone from its seats, log and
        results, with the version check. Returns the game in play afterwards (its turn may now be a computer's),
        else None. The caller holds the channel's lock."""
        plan = forget_plan(rec, user_id, former_id=former_id, level=level, now=self.clock())
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
        if rec.status != GameStatus.PLAYING:
            return None
        fresh = await self.get(rec.id)
        return Result(fresh, fresh.game) if fresh.game is not None else None

    async def delete(self, game_id: int) -> bool:
        """Delete a game and everything kept with it (its server removed the bot long enough ago)."""
        self.unshown.pop(game_id, None)
        self._channels.pop(game_id, None)
        return await self.store.delete_game(game_id)

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
