"""The game service: the one path from a player's choice to a saved move and a new table in the channel.

The cogs translate Discord into calls here; this module talks to the engine, the pictures and the store. Every move
runs under a per-channel lock in this process and saves with the store's version check, so two clicks at once never
corrupt a game: the second one is told that the table changed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
import random
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import discord

from db import results_from_game
from db.errors import CorruptGame, StaleVersion, StoreError
from db.models import ACTIVE_STATUSES, GameRecord, GameStatus, Seat, TurnTimer
from engine import (
    Action,
    BribeDragon,
    Build,
    Claim,
    Event,
    Game,
    GameConfig,
    IllegalAction,
    Skip,
    Tax,
    action_from_dict,
)
from engine.ai import make_agent
from engine.ai.pool import PoolBusy
from engine.config import VARIANTS
from i18n import TERMS, first_supported, term, translate, translate_plural
from i18n import messages as M
from render import clean_name, render_score_sheet, render_table_pictures
from render.alt import chart_alt_text, kingdoms_alt_text, replay_alt_text, sheet_alt_text, table_alt_text
from render.chart import render_score_chart
from render.replay import render_replay

from . import pictures
from .common import (
    UserError,
    breakdown_text,
    clip,
    decision_words,
    domino_words,
    economy_line,
    event_lines,
    game_name,
    kingdom_name,
    mention,
    pings,
    refusal_words,
    score_line,
    seat_name,
    strip_controls,
    their_turn,
    tiebreak_words,
)

log = logging.getLogger(__name__)


class NoGameHere(UserError):
    """There is no game in this channel (the cogs then list the person's games elsewhere in the server)."""


NO_GAME = M.NO_GAME_HERE
UNREADABLE = M.UNREADABLE_HERE
STALE = M.STALE
DEADLINE_LEVEL = "medium"
TABLE_LEASE_SECONDS = 120.0  # how long a process may take to post a table before another one may
TIMER_LEASE_SECONDS = 300.0
REPAIR_GRACE_SECONDS = 10.0  # a game changed this recently is still being shown by whoever moved  # how long a process may take to handle a due timer before another one may
UNKNOWN_CHANNEL = 10003  # Discord's error code for a deleted channel or thread
HARD_BUDGET_SECONDS = 1.0


OPTIONAL_STEPS = ("tax", "build", "dragon")
STEP_OF = {Tax: "tax", Build: "build", BribeDragon: "dragon"}


def skip_optional(game: Game, player: str, until: str | None = None) -> tuple[Game, list[Action]]:
    """A copy of the game with `player`'s optional steps (tax, build, dragon) of this turn skipped, up to the step
    `until` or their end, and the skips that took. It never crosses into the player's next turn (their other king):
    that turn's steps are its own."""
    trial = game.clone()
    turn = turn_key(game)
    skips: list[Action] = []
    while True:
        d = trial.decision()
        if d is None or d.player != player or d.kind not in OPTIONAL_STEPS or d.kind == until:
            break
        if turn_key(trial) != turn:
            break
        try:
            trial.apply(Skip(), by=player)
        except IllegalAction:
            break
        skips.append(Skip())
    return trial, skips


def same_turn_step(trial: Game, game: Game, player: str, kind: str) -> bool:
    """Whether `player` faces step `kind` in `trial`, still in `game`'s turn."""
    d = trial.decision()
    return d is not None and d.player == player and d.kind == kind and turn_key(trial) == turn_key(game)


def utcnow() -> datetime:
    return datetime.now(UTC)


def game_language(rec: GameRecord) -> str:
    """The language of a game's public messages and pictures: chosen at `/game new` (kept in the lobby options
    and, once started, beside the engine's config), else English."""
    return first_supported((rec.config or {}).get("language"))


def turn_key(game: Game) -> int:
    """Identifies a turn (deal, round, position): stable while one player goes through the steps of a turn."""
    return game.deal * 1_000_000 + game.round * 1_000 + game.turn


def quiet_end(settings, now: datetime) -> datetime | None:
    """When the person's quiet hours end, if `now` is inside them (in their time zone); else None."""
    if settings.quiet_start is None or settings.quiet_end is None:
        return None
    zone = ZoneInfo(settings.timezone or "UTC")
    local = now.astimezone(zone)
    minute = local.hour * 60 + local.minute
    start, end = settings.quiet_start, settings.quiet_end
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    if not inside:
        return None
    until = local.replace(hour=end // 60, minute=end % 60, second=0, microsecond=0)
    if until <= local:
        until += timedelta(days=1)
    return until.astimezone(UTC)


def describe(fn, *args, **kwargs) -> str:
    """A picture's alt text (at most 1,024 characters); empty, and logged, if it cannot be made."""
    try:
        return fn(*args, **kwargs)[:1024]
    except Exception:
        log.warning("Could not describe a picture with %s", getattr(fn, "__name__", fn), exc_info=True)
        return ""


def colour_tuple(hex_colour: str | None) -> tuple[int, int, int] | None:
    """`#rrggbb` as a tuple; None when absent or unreadable (the picture then picks the seat's default colour)."""
    h = (hex_colour or "").lstrip("#")
    if len(h) != 6:
        return None
    try:
        return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    except ValueError:
        return None


def names_and_colours(rec: GameRecord) -> tuple[dict[str, str], dict[str, tuple[int, int, int]]]:
    """The names to draw (cleaned, whatever was stored) and the seats' colours."""
    names = {s.player_id: clean_name(s.display_name) for s in rec.seats}
    colours = {s.player_id: c for s in rec.seats if (c := colour_tuple(s.colour)) is not None}
    return names, colours


@dataclass
class MoveOutcome:
    record: GameRecord
    game: Game
    events: list[Event] = field(default_factory=list)
    table_posted: bool = False
    # Sentences for the mover, in the language they are asked for (the mover's, not the table's):
    warning: Callable[[str], str] | None = None  # set when the move is saved but something after it failed
    automatic: list[tuple[str, Callable[[str], str]]] = field(default_factory=list)  # (player, done for them)

    def warning_in(self, lang: str) -> str | None:
        return self.warning(lang) if self.warning is not None else None


def _unattached(*args):
    raise RuntimeError("the game service's views are not attached: call cogs.table.attach(service)")


class GameService:
    """Shared by the cogs: loading games, applying moves, computer seats, posting the table, timers."""

    def __init__(self, bot: discord.Client, store, *, clock: Callable[[], datetime] = utcnow) -> None:
        self.bot = bot
        self.store = store
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self._channels: dict[int, int] = {}  # game id -> its channel id
        self.hard_budget = HARD_BUDGET_SECONDS
        self.story_at_end = True  # the replay and the chart go with the final table
        self.ai_pool = None  # an engine.ai.pool.AIPool when the bot thinks in worker processes (AI_WORKERS > 0)
        self.seeds: random.Random = random.SystemRandom()  # where new games get their seed; tests may fix it
        self._pending: dict[int, list[Event]] = {}  # per game: what happened since its table was last posted
        self._notes: dict[int, list[str]] = {}  # per game: lines for its next table (the start, a deadline)
        self._chains: dict[int, asyncio.Task] = {}  # per game: its computer players at work
        self._corrupt_logged: set[int] = set()
        # How the service shows a game on Discord: given by the cogs (cogs.table.attach), so the service builds no
        # view itself and imports no cog module.
        self.table_view: Callable[[GameRecord, Game], discord.ui.View] = _unattached
        self.turn_view: Callable[[GameRecord, Game], discord.ui.View] = _unattached
        self.lobby_text: Callable[[GameRecord], str] = _unattached
        # This process's name in the store's claims: stable across restarts of the same shards on the same host,
        # so that a restarted process takes back at once what it held when it died (`reclaim`).
        settings = getattr(bot, "settings", None)
        shards = getattr(settings, "shard_ids", None)
        self.owner = f"{socket.gethostname()}:shards={','.join(map(str, shards)) if shards else 'all'}"

    def new_seed(self) -> int:
        return self.seeds.randrange(2**62)

    async def channel_of(self, game_id: int) -> int:
        """The channel of a game (it never changes): read once, then remembered, so a move reads its game once."""
        channel_id = self._channels.get(game_id)
        if channel_id is None:
            channel_id = self._channels[game_id] = (await self.get(game_id)).channel_id
        return channel_id

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # -- loading --------------------------------------------------------------------------------------------------
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

    # -- moves -------------------------------------------------------------------------------------------------
    async def play(
        self,
        game_id: int,
        user_id: int,
        action: Action,
        *,
        expected_version: int | None = None,
        through_optional: bool = False,
    ) -> MoveOutcome:
        """Apply a person's action, save it, and post the table when the turn passes to someone else.

        With `through_optional`, the optional steps of the turn (tax, build, dragon) that come before the action's
        own step are skipped first; a `Skip` then means "done with the optional steps". The computer players who
        act next play in the background, each move under the lock only while it is saved."""
        async with self.lock(await self.channel_of(game_id)):
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
            steps = self._steps(game, player, action) if through_optional else [action]
            return await self._apply_and_continue(rec, game, steps, player, user_id)

    async def undo(self, game_id: int, user_id: int) -> MoveOutcome:
        """Take back the person's last action (and the claim that was then made for them), while nobody acted
        after it. The game is rebuilt from its seed and its log without it; the undone actions stay in the log,
        marked undone, in the same transaction that restores the state."""
        async with self.lock(await self.channel_of(game_id)):
            rec = await self.get(game_id)
            player = str(user_id)
            if rec.status != GameStatus.PLAYING or rec.game is None:
                raise UserError(M.UNDO_NOT_PLAYED)
            actions = await self.store.get_actions(game_id, include_undone=False)
            undo: list = []
            blocker = None
            for record in reversed(actions):
                seat = rec.seat_of(record.player_id or "")
                forced = (
                    record.user_id is None
                    and record.action.get("type") == "claim"
                    and seat is not None
                    and not seat.is_computer
                )
                if forced:  # a last free domino claimed for a person (them, or the next one): it goes back too
                    undo.append(record)
                    continue
                if record.player_id == player:
                    undo.append(record)
                else:
                    blocker = record
                break
            if not undo or undo[-1].user_id != user_id:
                if blocker is not None:
                    who = seat_name(rec.seats, blocker.player_id or "")
                    raise UserError(M.UNDO_SOMEONE_ACTED, name=who)
                raise UserError(M.UNDO_NOTHING)
            keep = actions[: len(actions) - len(undo)]
            replay = Game.new(rec.game.config, rec.game.seed)
            for record in keep:
                replay.apply(action_from_dict(record.action), by=record.player_id)
            version = rec.version
            for n, record in enumerate(undo):
                last = n == len(undo) - 1
                state = replay.to_dict() if last else self._state_without(rec.game, keep, undo[n + 1 :])
                timer = self._timer(rec, replay) if last else None
                try:
                    version = await self.store.undo_last_action(
                        game_id, version, seq=record.seq, state=state, timer=timer
                    )
                except StaleVersion:
                    raise UserError(STALE) from None
            was_theirs = rec.game.decision() is not None and rec.game.decision().player == player  # type: ignore[union-attr]
            self._pending.pop(game_id, None)
            self._notes.pop(game_id, None)
            rec = await self.get(game_id)
            outcome = MoveOutcome(rec, rec.game)  # type: ignore[arg-type]
            if was_theirs and rec.table_message_id is not None:
                # A step of their own turn: the table on screen still names them, and stays.
                await self.store.set_table_message(
                    rec.id, rec.table_channel_id or rec.channel_id, rec.table_message_id, shown_version=rec.version
                )
                return outcome
            name = seat_name(rec.seats, player)
            await self._publish(outcome, note=translate(game_language(rec), M.UNDO_PUBLIC, name=name))
            return outcome

    @staticmethod
    def _state_without(game: Game, keep: list, also: list) -> dict:
        """The state after `keep` and `also` (the undone actions still to be taken back after this one)."""
        replay = Game.new(game.config, game.seed)
        for record in [*keep, *reversed(also)]:
            replay.apply(action_from_dict(record.action), by=record.player_id)
        return replay.to_dict()

    @staticmethod
    def _steps(game: Game, player: str, action: Action) -> list[Action]:
        """The skips of the optional steps that come before `action`'s step, then `action` (a skip: every optional
        step left in this turn)."""
        _, steps = skip_optional(game, player, STEP_OF.get(type(action)))
        if isinstance(action, Skip):
            return steps or [action]
        return [*steps, action]

    async def _apply_and_continue(
        self, rec: GameRecord, game: Game, actions: list[Action], player: str, user_id: int | None, *, note: str = ""
    ) -> MoveOutcome:
        events: list[Event] = []
        outcome = MoveOutcome(rec, game)
        for action in actions:
            try:
                new = game.apply(action, by=player)
            except IllegalAction as error:
                if not events:
                    raise UserError(
                        lambda lang, e=error, g=game, seats=rec.seats: refusal_words(e, g, seats, player, lang)
                    ) from None
                then = game.clone()  # the refusal is worded from the game as it was refused
                outcome.warning = lambda lang, e=error, g=then, seats=rec.seats: refusal_words(
                    e, g, seats, player, lang
                )
                break
            rec = await self._save(rec, game, action, player, user_id, new)
            events.extend(new)
        rec = await self._forced_claims(rec, game, outcome)
        outcome.record = rec
        outcome.events.extend(events)
        await self._after_move(outcome, mover=player, note=note)
        return outcome

    async def _forced_claims(self, rec: GameRecord, game: Game, outcome: MoveOutcome) -> GameRecord:
        """A person with a single free domino to choose from does not have to click it: their king takes it."""
        while not game.is_over:
            d = game.decision()
            assert d is not None
            seat = rec.seat_of(d.player)
            if seat is None or seat.is_computer or d.kind not in ("claim", "first_claim"):
                break
            claims = [a for a in game.legal_actions() if isinstance(a, Claim)]
            if len(claims) != 1:
                break
            events = game.apply(claims[0], by=d.player)
            rec = await self._save(rec, game, claims[0], d.player, None, events)
            rw = game.config.game == "royal-wedding"

            def said(lang: str, domino=claims[0].domino, rw=rw) -> str:
                return translate(lang, M.FORCED_CLAIM, domino=domino_words(domino, with_box=rw, lang=lang))

            outcome.automatic.append((d.player, said))
        return rec

    def _next_seat(self, rec: GameRecord, game: Game) -> Seat | None:
        d = game.decision()
        return rec.seat_of(d.player) if d else None

    async def _after_move(self, outcome: MoveOutcome, *, mover: str | None, note: str = "") -> None:
        """After a saved move: computer players next play in the background (and post the table when they are
        done); a person next gets the table now, unless it is still the mover's turn (the steps of one turn, or a
        second king) and nothing needs saying. The move is saved whatever happens here: a failure becomes a
        warning for the mover, and the repair pass posts the table later."""
        rec, game = outcome.record, outcome.game
        if note:
            self._notes.setdefault(rec.id, []).append(note)
        try:
            nxt = self._next_seat(rec, game)
            if nxt is not None and nxt.is_computer:
                self.schedule_computers(rec.id)
            elif game.is_over or nxt is None or nxt.player_id != mover or self._notes.get(rec.id):
                await self._publish(outcome)
            elif rec.table_message_id is not None:
                # Still the mover's turn (its next step, or their second king): the table on screen still names
                # the right player, so it stays, and counts as current.
                await self.store.set_table_message(
                    rec.id, rec.table_channel_id or rec.channel_id, rec.table_message_id, shown_version=rec.version
                )
        except Exception as error:
            log.exception("Game %s: the move is saved but what follows it failed", outcome.record.id)

            def warning(lang: str, error=error) -> str:
                reason = error.text(lang) if isinstance(error, UserError) else translate(lang, M.TABLE_NOT_UPDATED)
                return translate(lang, M.MOVE_SAVED_BUT, reason=reason)

            outcome.warning = warning

    async def _publish(self, outcome: MoveOutcome, *, note: str = "") -> None:
        """Post the table with everything that happened since the last one: once per version of the game, even
        with several processes (the store hands the posting to one of them)."""
        outcome.record = rec = await self.get(outcome.record.id)
        if not await self.store.claim_table_post(rec.id, rec.version, self.owner, TABLE_LEASE_SECONDS, self.clock()):
            return  # another process, or an earlier call, posts this version's table
        if note:
            self._notes.setdefault(rec.id, []).append(note)
        events = self._pending.get(rec.id, [])
        note = "\n".join(self._notes.get(rec.id, []))
        try:
            await self.post_table(rec, events, note=note)
        except BaseException:
            await self.store.release_table_post(rec.id, rec.version, self.owner)  # the next attempt may try at once
            raise
        self._pending.pop(rec.id, None)
        self._notes.pop(rec.id, None)
        outcome.table_posted = True

    async def _save(
        self, rec: GameRecord, game: Game, action: Action, player: str, user_id: int | None, events: list[Event]
    ) -> GameRecord:
        """Save the move with the version check; returns the record at its new version. Its events wait for the
        next table."""
        results = results_from_game(game) if game.is_over else None
        timer = None if game.is_over else self._timer(rec, game)
        try:
            version = await self.store.save_move(
                rec.id,
                rec.version,
                state=game.to_dict(),
                action=action.to_dict(),
                player_id=player,
                user_id=user_id,
                timer=timer,
                results=results,
            )
        except StaleVersion:
            raise UserError(STALE) from None
        self._pending.setdefault(rec.id, []).extend(events)
        return dataclasses.replace(rec, version=version)

    def _timer(self, rec: GameRecord, game: Game) -> TurnTimer:
        d = game.decision()
        seat = rec.seat_of(d.player) if d else None
        now = self.clock()
        if seat is None:
            return TurnTimer()
        if seat.is_computer:
            # Due at once: computer turns normally follow in the background; if that is cut short (a restart, a
            # failed post), the timer loop picks the game up again.
            return TurnTimer(None, now)
        return TurnTimer(
            now + timedelta(hours=rec.reminder_hours) if rec.reminder_hours else None,
            now + timedelta(hours=rec.deadline_hours) if rec.deadline_hours else None,
        )

    # -- computer players --------------------------------------------------------------------------------------
    def schedule_computers(self, game_id: int) -> asyncio.Task:
        """Let the computer seats play, in the background, until a person must act or the game ends; one chain
        per game. A cancel (or anything else that changes the game) stops it before its next move."""
        task = self._chains.get(game_id)
        if task is None or task.done():
            task = asyncio.create_task(self._computer_chain(game_id), name=f"computers-{game_id}")
            self._chains[game_id] = task
            task.add_done_callback(
                lambda t: self._chains.pop(game_id, None) if self._chains.get(game_id) is t else None
            )
        return task

    def stop_all(self) -> None:
        for game_id in list(self._chains):
            self.stop_computers(game_id)

    def stop_computers(self, game_id: int) -> None:
        task = self._chains.get(game_id)
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    async def idle(self) -> None:
        """Wait until no computer player is thinking or moving (for tests and shutdown)."""
        while self._chains:
            await asyncio.gather(*list(self._chains.values()), return_exceptions=True)

    async def _computer_chain(self, game_id: int) -> None:
        busy = 0.0
        try:
            while True:
                rec = await self.get(game_id)
                game = rec.game
                if game is not None and game.is_over and rec.status == GameStatus.FINISHED:
                    break  # the last move ended it: post the final table
                if rec.status != GameStatus.PLAYING or game is None:
                    return  # cancelled or abandoned meanwhile: nothing to post
                d = game.decision()
                assert d is not None
                seat = rec.seat_of(d.player)
                if seat is None or not seat.is_computer:
                    break
                # Think without the lock: clicks, looks and a cancel go on meanwhile. The record and the game are not
                # kept while the computer thinks (it may wait in the pool's queue for seconds): the move is applied to
                # the game read again at the same version, so a game waiting for a computer player costs the garbage
                # collector only the state the pool holds (benchmarks/bench_load.py).
                channel_id, version, player = rec.channel_id, rec.version, d.player
                thinking = self.computer_action(game, seat.cpu_level or "easy", key=rec.guild_id)
                del rec, game, d, seat
                fresh = events = None  # nor the record of the last move
                try:
                    action = await thinking
                except PoolBusy:  # this server's queue is full: wait for room, fairly with the other servers
                    busy = min(busy * 2, 30.0) if busy else 0.5
                    log.info("Game %s: the computer players' queue is full; trying again in %.1f s", game_id, busy)
                    await asyncio.sleep(busy)
                    continue
                busy = 0.0
                async with self.lock(channel_id):
                    fresh = await self.get(game_id)
                    if fresh.status != GameStatus.PLAYING or fresh.version != version or fresh.game is None:
                        continue  # something changed while thinking: look again
                    game = fresh.game
                    events = game.apply(action, by=player)
                    try:
                        rec = await self._save(fresh, game, action, player, None, events)
                    except UserError:
                        continue  # another process saved first
            async with self.lock(rec.channel_id):
                outcome = MoveOutcome(rec, rec.game)  # type: ignore[arg-type]
                if self._pending.get(game_id) or self._notes.get(game_id) or rec.table_message_id is None:
                    await self._publish(outcome)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Game %s: the computer players could not finish their turns; the timer tries again", game_id)

    async def computer_action(self, game: Game, level: str, *, key: object = None) -> Action:
        """A computer player's choice, computed away from the event loop with a bounded amount of work."""
        options = {"time_budget": self.hard_budget} if level == "hard" else {}
        seed = game.seed + len(game.log)
        if self.ai_pool is not None:  # worker processes: the bot's interpreter never thinks
            # Neither the game nor its state dict is kept here while the move waits in the pool's queue (the pool
            # keeps the state pickled; see _computer_chain).
            choosing = self.ai_pool.choose(game.to_dict(), level, seed, key=key, **options)
            del game
            return action_from_dict(await choosing)
        agent = make_agent(level, seed=seed, **options)
        return await asyncio.to_thread(agent.choose, game.clone())

    # -- starting and ending -------------------------------------------------------------------------------------
    async def start(self, rec: GameRecord) -> MoveOutcome:
        """Turn a lobby into a game (seats in order, teams by consecutive pairs) and post the first table."""
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
        try:
            saved = config.to_dict()
            if options.get("language"):  # the game's language stays beside the engine's config
                saved["language"] = options["language"]
            await self.store.start_game(
                rec.id, rec.version, config=saved, state=game.to_dict(), timer=self._timer(rec, game)
            )
        except StaleVersion:
            raise UserError(STALE) from None
        rec = await self.get(rec.id)
        outcome = MoveOutcome(rec, rec.game)  # type: ignore[arg-type]
        rec = await self._forced_claims(rec, outcome.game, outcome)
        outcome.record = rec
        limit = translate(game_language(rec), M.KINGDOM_LIMIT, size=game.setup.kingdom_size)
        await self._after_move(outcome, mover=None, note=f"{self.setup_words(rec, config)} {limit}")
        return outcome

    # -- the table in the channel --------------------------------------------------------------------------------
    def setup_words(self, rec: GameRecord, config: GameConfig) -> str:
        """`The game begins: Queendomino, 4 players (dynasty).` in the game's language."""
        lang = game_language(rec)
        title = game_name(config.game, lang)
        if config.teams is not None:
            setup = translate_plural(lang, *M.SETUP_TEAMS, len(config.teams), game=title, players=len(config.players))
        else:
            setup = translate_plural(lang, *M.SETUP, len(config.players), game=title)
        if config.variants:
            variants = ", ".join(
                term(lang, v) if lang != "en" and v in TERMS else v for v in VARIANTS if v in config.variants
            )
            setup = translate(lang, M.SETUP_VARIANTS, setup=setup, variants=variants)
        return translate(lang, M.GAME_BEGINS, setup=setup)

    def table_content(self, rec: GameRecord, game: Game, events: list[Event], note: str = "") -> str:
        lang = game_language(rec)
        lines = []
        title = game_name(game.config.game, lang)
        if game.is_over:
            lines.append(translate(lang, M.TABLE_FINAL, game=title))
        elif game.round == 0:
            lines.append(translate(lang, M.TABLE_FIRST_LINE, game=title))
        elif "dynasty" in game.config.variants:
            lines.append(
                translate(
                    lang,
                    M.TABLE_DYNASTY_ROUND,
                    game=title,
                    deal=game.deal + 1,
                    round=game.round,
                    rounds=game.setup.rounds,
                )
            )
        else:
            lines.append(translate(lang, M.TABLE_ROUND, game=title, round=game.round, rounds=game.setup.rounds))
        if note:
            lines.append(note)
        lines.extend(event_lines(events, rec.seats, game, lang)[-12:])
        if game.is_over:
            result = game.result()
            names = " & ".join(seat_name(rec.seats, p) for p in result.winners)
            many = len(result.winners) > 1
            if result.tiebreak:
                line = M.WINNERS_TIEBREAK if many else M.WINNER_TIEBREAK
                lines.append(translate(lang, line, names=names, tiebreak=tiebreak_words(result.tiebreak, lang)))
            else:
                lines.append(translate(lang, M.WINNERS if many else M.WINNER, names=names))
            lines.append(breakdown_text(game, rec.seats, lang))
        else:
            d = game.decision()
            assert d is not None
            lines.append(
                translate(
                    lang,
                    M.YOUR_TURN_TABLE,
                    player=mention(rec.seats, d.player, lang),
                    what=decision_words(game, d, lang),
                )
            )
        lines.append(score_line(game, rec.seats, lang))
        economy = economy_line(game, rec.seats, lang)
        if economy:
            lines.append(economy)
        text = "\n".join(lines)
        return text if len(text) <= 2000 else text[:1999] + "…"

    async def post_table(self, rec: GameRecord, events: list[Event], *, note: str = "") -> discord.Message | None:
        """Send the table picture with the turn's words; take the controls off the previous table."""
        game = rec.game
        assert game is not None
        names, colours = names_and_colours(rec)
        d = game.decision()
        files = []
        lang = game_language(rec)
        # A Royal Wedding table comes as two pictures (render.table.splits), the kingdoms second.
        pngs = await self.picture(
            rec.id, render_table_pictures, game, names, colours, d.player if d else None, lang=lang
        )
        if pngs:
            alts = (
                describe(table_alt_text, game, names, lang=lang),
                describe(kingdoms_alt_text, game, names, lang=lang),
            )
            for png, name, alt in zip(pngs, ("table.png", "kingdoms.png"), alts, strict=False):
                files.append(discord.File(io.BytesIO(png), filename=name, description=alt or None))
        else:
            note = (note + "\n" if note else "") + translate(game_language(rec), M.PICTURE_FAILED)
        if game.is_over:
            sheet = await self.picture(rec.id, render_score_sheet, game, names, colours, lang=lang)
            if sheet is not None:
                alt = describe(sheet_alt_text, game, names, lang=lang)
                files.append(discord.File(io.BytesIO(sheet), filename="scores.png", description=alt or None))
            if self.story_at_end:
                files.extend(await self.story_files(rec, game))
        channel = self.bot.get_partial_messageable(rec.channel_id)
        content = self.table_content(rec, game, events, note)
        to_act = rec.seat_of(d.player) if d else None
        notify = "channel"
        if to_act is not None and to_act.user_id is not None:
            notify = (await self.store.get_user_settings(to_act.user_id)).notify
        ping = to_act.user_id if to_act is not None and notify != "dm" else None
        try:
            message = await channel.send(
                content=content,
                files=files,
                view=self.table_view(rec, game),
                allowed_mentions=pings(ping),
            )
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                await self.abandon_channel(rec.channel_id)
                raise UserError("This channel no longer exists: its game has ended.") from None
            raise
        except discord.Forbidden:
            log.warning("Cannot post the table of game %s in channel %s: missing permissions", rec.id, rec.channel_id)
            raise UserError(
                "I cannot post the table in this channel: I need the Send Messages and Attach Files permissions "
                "(and Send Messages in Threads in a thread)."
            ) from None
        await self._retire_table(rec)
        await self.store.set_table_message(rec.id, rec.channel_id, message.id, shown_version=rec.version)
        if to_act is not None and to_act.user_id is not None and notify in ("dm", "both"):
            rec = dataclasses.replace(rec, table_message_id=message.id, table_channel_id=rec.channel_id)
            await self.notify_by_dm(rec, game, to_act.user_id, kind="turn", fallback=notify == "dm")
        return message

    async def notify_by_dm(self, rec: GameRecord, game: Game, user_id: int, *, kind: str, fallback: bool) -> bool:
        """Tell a person privately that it is their turn: a direct message with the link and the button, once per
        turn (and kind: the turn, each reminder). When Discord refuses it (DMs closed), the channel mention
        stands in, once, with a note. True when the DM went out."""
        if not await self.store.claim_notification(rec.id, turn_key(game), user_id, kind):
            return False
        d = game.decision()
        assert d is not None
        link = self.table_link(rec)
        where = f"<#{rec.channel_id}>"
        lang = game_language(rec)  # no interaction here: the table's language
        values = {"game": game_name(rec.kind, lang), "where": where, "what": decision_words(game, d, lang)}
        text = translate(lang, M.DM_TURN_LINK, link=link, **values) if link else translate(lang, M.DM_TURN, **values)
        try:
            data = await self.bot.http.start_private_message(user_id)
            await self.bot.get_partial_messageable(int(data["id"])).send(
                text, view=self.turn_view(rec, game), allowed_mentions=discord.AllowedMentions.none()
            )
            return True
        except discord.HTTPException as error:
            log.info("Game %s: no DM to user %s (%s); the channel mention stands in", rec.id, user_id, error)
        if fallback:
            channel = self.bot.get_partial_messageable(rec.channel_id)
            try:
                await channel.send(
                    translate(lang, M.DM_REFUSED, player=f"<@{user_id}>", what=values["what"]),
                    view=self.turn_view(rec, game),
                    allowed_mentions=pings(user_id),
                )
            except discord.HTTPException:
                log.warning("Game %s: the turn of user %s could not be told at all", rec.id, user_id)
        return False

    async def story_files(
        self, rec: GameRecord, game: Game, *, replay: bool = True, chart: bool = True, lang: str | None = None
    ) -> list[discord.File]:
        """The game told again: the animated replay and the score chart, with their descriptions, in `lang` (a
        private look passes the viewer's language; by default the game's). Empty (logged) when they cannot be made;
        a game never waits on them."""
        names, colours = names_and_colours(rec)
        log_data = [(p, a.to_dict()) for p, a in game.log]
        config = game.config.to_dict()
        lang = lang or game_language(rec)
        files = []
        if replay:
            made = await pictures.draw(render_replay, config, game.seed, log_data, names, colours, lang=lang)
            if made is not None:
                gif, filename = made
                alt = await asyncio.to_thread(describe, replay_alt_text, game, names, lang=lang)
                files.append(discord.File(io.BytesIO(gif), filename=filename, description=alt or None))
        if chart:
            png = await pictures.draw(render_score_chart, config, game.seed, log_data, names, colours, lang=lang)
            if png is not None:
                alt = await asyncio.to_thread(describe, chart_alt_text, game, names, lang=lang)
                files.append(discord.File(io.BytesIO(png), filename="chart.png", description=alt or None))
        return files

    async def picture(self, game_id: int, render, *args, **kwargs) -> bytes | None:
        """A picture drawn by the picture workers (cogs/pictures.py); None (logged) when it cannot be drawn, so a
        picture never blocks a game: the text goes out alone."""
        return await pictures.draw(render, *args, **kwargs)

    async def _retire_table(self, rec: GameRecord) -> None:
        await strip_controls(self.bot, rec.table_channel_id or rec.channel_id, rec.table_message_id)

    # -- timers ------------------------------------------------------------------------------------------------
    async def run_due(self) -> int:
        """Send due reminders and play for players whose deadline passed; each claimed in the store first, so that
        with several processes each fires once (a claim by a process that died runs out and is taken again).
        Returns how many games were handled."""
        now = self.clock()
        handled = 0
        for summary in await self.store.claim_due(now, self.owner, TIMER_LEASE_SECONDS):
            try:
                await self._handle_due(summary.id, now)
                handled += 1
            except Exception:
                log.exception("Timer of game %s failed", summary.id)
            finally:
                await self.store.release_claim(summary.id, self.owner)
        return handled

    async def expire_lobbies(self) -> list[int]:
        """Close the lobbies that sat unchanged longer than their server allows (a lobby blocks its channel)."""
        now = self.clock()
        closed = []
        hours: dict[int | None, float] = {}
        for summary in await self.store.expired_lobbies(now - timedelta(minutes=1)):
            if summary.guild_id not in hours:
                limits = await self.store.get_guild_settings(summary.guild_id) if summary.guild_id else None
                hours[summary.guild_id] = limits.lobby_expiry_hours if limits else 24.0
            if summary.updated_at > now - timedelta(hours=hours[summary.guild_id]):
                continue
            try:
                await self.store.cancel_game(summary.id, summary.version, reason="expired")
            except StoreError:
                continue  # it changed meanwhile: someone is using it
            closed.append(summary.id)
            channel = self.bot.get_partial_messageable(summary.channel_id)
            if summary.table_message_id is not None:
                try:
                    rec = await self.store.get_game(summary.id)
                    await channel.get_partial_message(summary.table_message_id).edit(
                        content=self.lobby_text(rec)
                        + "\n"
                        + translate(game_language(rec), M.LOBBY_EXPIRED, hours=float(hours[summary.guild_id])),
                        view=None,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                except (discord.HTTPException, StoreError):
                    log.info("Lobby %s expired; its message could not be updated", summary.id)
        return closed

    async def reclaim(self) -> int:
        """At start-up: drop the claims this process's earlier run held (it died holding them)."""
        return await self.store.release_claims_of(self.owner)

    async def repair_tables(self, *, grace: float = REPAIR_GRACE_SECONDS) -> int:
        """Post the table again for every game in play whose latest table message is missing or shows an older
        state (a crash between saving and posting, Discord failing for good): once per game and version across
        processes, with the mention of the player to act. Games whose computer players must act get them going
        instead (they post the table). Returns how many tables were posted."""
        posted = 0
        settled = self.clock() - timedelta(seconds=grace)
        for summary in await self.store.stale_tables():
            if summary.id in self._chains or summary.updated_at > settled:
                continue  # its computers are at work, or a move is being saved and shown right now
            try:
                rec = await self.get(summary.id)
            except UserError:
                continue
            game = rec.game
            finished = rec.status == GameStatus.FINISHED and game is not None and game.is_over
            if (rec.status != GameStatus.PLAYING and not finished) or game is None:
                continue
            nxt = self._next_seat(rec, game)
            if nxt is not None and nxt.is_computer:
                self.schedule_computers(rec.id)
                continue
            try:
                async with self.lock(rec.channel_id):
                    outcome = MoveOutcome(rec, game)
                    note = "" if self._pending.get(rec.id) else translate(game_language(rec), M.TABLE_AGAIN)
                    await self._publish(outcome, note=note)
                    posted += outcome.table_posted
            except Exception:
                log.warning("Game %s: its table could not be posted again yet", rec.id, exc_info=True)
        return posted

    async def _handle_due(self, game_id: int, now: datetime) -> None:
        async with self.lock(await self.channel_of(game_id)):
            rec = await self.get(game_id)
            game = rec.game
            if rec.status != GameStatus.PLAYING or game is None or game.is_over:
                return
            d = game.decision()
            assert d is not None
            seat = rec.seat_of(d.player)
            if seat is not None and seat.is_computer:
                # Computer turns that an earlier call did not finish (a restart, a failed post): resume them.
                self.schedule_computers(rec.id)
                return
            if rec.deadline_at is not None and rec.deadline_at <= now:
                # The absent player's time ran out: a computer player finishes their turn, and says so.
                name = seat_name(rec.seats, d.player)
                before = turn_key(game)
                while not game.is_over and turn_key(game) == before:
                    action = await self.computer_action(game, DEADLINE_LEVEL)
                    events = game.apply(action, by=d.player)
                    try:
                        rec = await self._save(rec, game, action, d.player, None, events)
                    except UserError:  # the player (in another process) moved meanwhile: their move stands
                        log.info("Game %s: the player moved before their deadline was played", rec.id)
                        return
                outcome = MoveOutcome(rec, game)
                note = translate(game_language(rec), M.TIME_RAN_OUT, name=name)
                await self._after_move(outcome, mover=d.player, note=note)
                if outcome.warning:
                    log.warning("Game %s: %s", rec.id, outcome.warning_in("en"))
                return
            if rec.next_reminder_at is not None and rec.next_reminder_at <= now and seat is not None:
                settings = await self.store.get_user_settings(seat.user_id) if seat.user_id else None
                quiet_until = quiet_end(settings, now) if settings else None
                if quiet_until is not None:  # their quiet hours: the reminder waits until they end
                    await self.store.set_turn_timer(
                        rec.id, TurnTimer(quiet_until, rec.deadline_at), expected_version=rec.version
                    )
                    return
                if settings is not None and settings.notify in ("dm", "both"):
                    due = rec.next_reminder_at.isoformat(timespec="seconds")  # one DM per scheduled reminder
                    sent = await self.notify_by_dm(
                        rec, game, seat.user_id, kind=f"reminder {due}", fallback=settings.notify == "dm"
                    )
                    if settings.notify == "dm" or not sent:
                        await self._next_reminder(rec, now)
                        return

                channel = self.bot.get_partial_messageable(rec.channel_id)
                link = self.table_link(rec)
                try:
                    lang = game_language(rec)
                    values = {
                        "player": mention(rec.seats, d.player, lang),
                        "game": game_name(rec.kind, lang),
                        "what": decision_words(game, d, lang),
                    }
                    await channel.send(
                        translate(lang, M.REMINDER_LINK, link=link, **values)
                        if link
                        else translate(lang, M.REMINDER, **values),
                        view=self.turn_view(rec, game),
                        allowed_mentions=pings(seat.user_id),
                    )
                except discord.NotFound as error:
                    if error.code == UNKNOWN_CHANNEL:  # the channel or thread was deleted: its game is over
                        await self.abandon_channel(rec.channel_id)
                        return
                    log.warning("Game %s: reminder not sent: %s", rec.id, error)
                except discord.HTTPException as error:  # still move the timer on, or it would fire every minute
                    log.warning("Game %s: reminder not sent: %s", rec.id, error)
                await self._next_reminder(rec, now)

    async def _next_reminder(self, rec: GameRecord, now: datetime) -> None:
        timer = TurnTimer(now + timedelta(hours=rec.reminder_hours) if rec.reminder_hours else None, rec.deadline_at)
        await self.store.set_turn_timer(rec.id, timer, expected_version=rec.version)

    async def abandon_channel(self, channel_id: int) -> list[int]:
        """The channel or thread was deleted: its game (lobby or in play) ends as abandoned, its timers and
        computer players stop. Returns the games ended."""
        ended = []
        for summary in await self.store.list_games(channel_id=channel_id, statuses=ACTIVE_STATUSES):
            self.stop_computers(summary.id)
            try:
                await self.store.cancel_game(summary.id, reason="abandoned")
            except StoreError as error:
                log.warning("Game %s could not be ended after its channel was deleted: %s", summary.id, error)
                continue
            self._pending.pop(summary.id, None)
            self._notes.pop(summary.id, None)
            log.info("Game %s ended as abandoned: channel %s was deleted", summary.id, channel_id)
            ended.append(summary.id)
        return ended

    def table_link(self, rec: GameRecord) -> str | None:
        """The jump link to the game's latest table message."""
        if rec.table_message_id is None:
            return None
        guild = rec.guild_id if rec.guild_id is not None else "@me"
        return f"https://discord.com/channels/{guild}/{rec.table_channel_id or rec.channel_id}/{rec.table_message_id}"


__all__ = ["STALE", "GameService", "MoveOutcome", "domino_words", "kingdom_name", "turn_key"]
