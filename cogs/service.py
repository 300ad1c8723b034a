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
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import discord

from db import results_from_game
from db.errors import CorruptGame, StaleVersion, StoreError
from db.models import ACTIVE_STATUSES, ActionRecord, GameRecord, GameStatus, Seat, TurnTimer
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
from render.replay import FILE_NAME as REPLAY_FILE_NAME

from . import pictures
from .common import (
    UserError,
    breakdown_text,
    clip,
    decision_words,
    domino_words,
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
from .notifier import Notifier, TurnNotice, quiet_end, turn_key

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
MAX_TABLE_LINES = 8  # a table's text on a phone: the rest is in its picture and the looks


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


MADE_BY = "made_by"  # a key of a saved action: who made a move saved without a user id
BY_DEADLINE = "deadline"  # ... the turn deadline (a computer played for an absent person)


def made_by_deadline(record: ActionRecord) -> bool:
    return record.action.get(MADE_BY) == BY_DEADLINE


def undo_plan(rec: GameRecord, actions: list[ActionRecord], user_id: int) -> tuple[list[ActionRecord], Game]:
    """What an undo by `user_id` takes back: their last action and the claims then made for a person because a
    single domino was left (newest first), and the game as it was before them. Refused (a UserError saying why)
    when someone acted since (a person, a computer, or the turn deadline for anyone), when they have nothing to
    take back, or when something hidden came into view since (a line drawn, the builders' board refilled, a new
    deal: the engine's `draw_position`): the player would choose again knowing it."""
    player = str(user_id)
    undo: list[ActionRecord] = []
    blocker = None
    for record in reversed(actions):
        if made_by_deadline(record):
            raise UserError(M.UNDO_DEADLINE, name=seat_name(rec.seats, record.player_id or ""))
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
            raise UserError(M.UNDO_SOMEONE_ACTED, name=seat_name(rec.seats, blocker.player_id or ""))
        raise UserError(M.UNDO_NOTHING)
    assert rec.game is not None
    before = Game.new(rec.game.config, rec.game.seed)
    for record in actions[: len(actions) - len(undo)]:
        before.apply(action_from_dict(record.action), by=record.player_id)
    if before.draw_position != rec.game.draw_position:
        raise UserError(M.UNDO_REVEALED)
    return undo, before


def utcnow() -> datetime:
    return datetime.now(UTC)


def game_language(rec: GameRecord) -> str:
    """The language of a game's public messages and pictures: chosen at `/game new` (kept in the lobby options
    and, once started, beside the engine's config), else English."""
    return first_supported((rec.config or {}).get("language"))


def fit_table(
    head: list[str],
    notes: list[str],
    events: list[str],
    tail: list[str],
    *,
    lines: int = MAX_TABLE_LINES,
    chars: int = 2000,
    earlier: Callable[[int], str] | None = None,
) -> str:
    """The table's text within `lines` lines and `chars` characters: `head` and `tail` (the title; the turn line or
    the result, and the scores) whole; then the notes, then the newest events, as many as fit (a note that does not
    fit whole is clipped). When events are left out, `earlier(n)` says how many, in the place of one."""
    room_lines = max(0, lines - len(head) - len(tail))
    room = chars - sum(len(line) + 1 for line in head + tail)
    kept_notes: list[str] = []
    for line in notes[:room_lines]:
        if room <= 1:
            break
        kept_notes.append(clip(line, room - 1))
        room -= len(kept_notes[-1]) + 1
    room_lines -= len(kept_notes)
    kept = _newest(events, room_lines, room)
    if len(kept) < len(events) and earlier is not None and room_lines > 0:
        kept = _newest(events, room_lines - 1, room - len(earlier(len(events))) - 1)
        kept.insert(0, earlier(len(events) - len(kept)))
    text = "\n".join([*head, *kept_notes, *kept, *tail])
    return text if len(text) <= chars else clip(text, chars)  # only a result too long for Discord by itself


def pack_lines(lines: list[str], room: int, sep: str = " · ") -> list[str]:
    """`lines` in at most `room` lines (at least one), in order, consecutive ones joined by `sep` as evenly as they
    go: a final table's breakdown of seven kingdoms still fits the table's lines, every word of it kept."""
    room = max(1, room)
    if len(lines) <= room:
        return lines
    size = -(-len(lines) // room)
    return [sep.join(lines[i : i + size]) for i in range(0, len(lines), size)]


def _newest(events: list[str], lines: int, room: int) -> list[str]:
    """The newest events, in order, within `lines` lines and `room` characters (each with its line break)."""
    kept: list[str] = []
    for line in reversed(events):
        if len(kept) >= lines or room <= len(line) + 1:
            break
        kept.insert(0, line)
        room -= len(line) + 1
    return kept


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
    computers_wait: float = 0.0  # seconds the computer players wait before answering (the mover may undo meanwhile)

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
        # Per channel, while someone holds or awaits it: a lock nobody uses any more goes (the map stays bounded)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._channels: dict[int, int] = {}  # game id -> its channel id
        self.hard_budget = HARD_BUDGET_SECONDS
        # Seconds the computer players wait before answering a person's move that can still be taken back: a
        # misclick can be undone before they act (Settings.computer_delay; 0 in tests).
        self.computer_delay = 0.0
        self.story_at_end = True  # the replay and the chart go with the final table
        self.ai_pool = None  # an engine.ai.pool.AIPool when the bot thinks in worker processes (AI_WORKERS > 0)
        self.seeds: random.Random = random.SystemRandom()  # where new games get their seed; tests may fix it
        self._pending: dict[int, list[Event]] = {}  # per game: what happened since its table was last posted
        self._notes: dict[int, list[str]] = {}  # per game: lines for its next table (the start, a deadline)
        self._chains: dict[int, asyncio.Task] = {}  # per game: its computer players at work
        self._waits: dict[int, asyncio.Event] = {}  # per game: its computers' wait for an undo (set: play now)
        self._undo_offers: dict[int, Callable[[], Awaitable[None]]] = {}  # per game: takes the offered Undo away
        self._corrupt_logged: set[int] = set()
        self.notifier = Notifier(self)  # turn DMs, pings and reminders: decided here, sent outside every lock
        # How the service shows a game on Discord: given by the cogs (cogs.table.attach), so the service builds no
        # view itself and imports no cog module.
        self.table_view: Callable[[GameRecord, Game], discord.ui.View] = _unattached
        self.turn_view: Callable[[GameRecord, Game], discord.ui.View] = _unattached
        self.lobby_text: Callable[[GameRecord], str] = _unattached
        self.history_view: Callable[[int, int, int, str], discord.ui.View] = _unattached  # (game, page, pages, lang)
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
        after it and nothing hidden came into view since (`undo_plan`). The game is rebuilt from its seed and its log
        without it; the undone actions stay in the log, marked undone, in the same transaction that restores the
        state. Computer players waiting to answer the move (`computer_delay`) do not play it."""
        async with self.lock(await self.channel_of(game_id)):
            rec = await self.get(game_id)
            player = str(user_id)
            if rec.status != GameStatus.PLAYING or rec.game is None:
                raise UserError(M.UNDO_NOT_PLAYED)
            actions = await self.store.get_actions(game_id, include_undone=False)
            undo, replay = undo_plan(rec, actions, user_id)
            keep = actions[: len(actions) - len(undo)]
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
            self.stop_computers(game_id)  # their turn is gone with the move (they waited, or thought: nothing saved)
            self._undo_offers.pop(game_id, None)
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
            await self._publish_or_warn(outcome, note=translate(game_language(rec), M.UNDO_PUBLIC, name=name))
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
            for event in events:  # the table says it was the last free one, not a choice (common.event_words)
                if event.kind == "claimed":
                    event.data["forced"] = True
            rec = await self._save(rec, game, claims[0], d.player, None, events)
            rw = game.config.game == "royal-wedding"

            def said(lang: str, domino=claims[0].domino, rw=rw) -> str:
                return translate(lang, M.FORCED_CLAIM, domino=domino_words(domino, with_box=rw, lang=lang))

            outcome.automatic.append((d.player, said))
        return rec

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
                outcome.computers_wait = await self._undo_window(rec, game, mover)
                self.schedule_computers(rec.id, delay=outcome.computers_wait)
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

    async def _publish_or_warn(self, outcome: MoveOutcome, *, note: str = "") -> None:
        """`_publish`, for a change that is saved whatever happens here (an undo): a failure becomes the outcome's
        warning (the repair pass posts the table later), never the answer instead of "done"."""
        try:
            await self._publish(outcome, note=note)
        except Exception as error:
            log.warning("Game %s: saved, but its table could not be posted: %s", outcome.record.id, error)

            def warning(lang: str, error=error) -> str:
                reason = error.text(lang) if isinstance(error, UserError) else translate(lang, M.TABLE_NOT_UPDATED)
                return f"⚠️ {reason}"

            outcome.warning = warning

    async def _save(
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
        """Save the move with the version check; returns the record at its new version. Its events wait for the
        next table. `made_by` marks, in the saved action, who made a move saved without a user id (the deadline)."""
        results = results_from_game(game) if game.is_over else None
        timer = None if game.is_over else self._timer(rec, game)
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
    def schedule_computers(self, game_id: int, *, delay: float = 0.0) -> asyncio.Task:
        """Let the computer seats play, in the background, until a person must act or the game ends; one chain
        per game, which first waits `delay` seconds (an undo meanwhile stops it). A cancel (or anything else that
        changes the game) stops it before its next move."""
        task = self._chains.get(game_id)
        if task is None or task.done():
            if delay > 0:  # waiting from now on (the mover's panel, shown next, offers Undo meanwhile)
                self._waits[game_id] = asyncio.Event()
            task = asyncio.create_task(self._computer_chain(game_id, delay), name=f"computers-{game_id}")
            self._chains[game_id] = task
            task.add_done_callback(
                lambda t: self._chains.pop(game_id, None) if self._chains.get(game_id) is t else None
            )
        return task

    def stop_all(self) -> None:
        self.notifier.stop()
        for game_id in list(self._chains):
            self.stop_computers(game_id)

    def stop_computers(self, game_id: int) -> None:
        task = self._chains.get(game_id)
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        self._undo_offers.pop(game_id, None)
        self._waits.pop(game_id, None)

    async def idle(self) -> None:
        """Wait until no computer player is thinking or moving (for tests and shutdown)."""
        while self._chains:
            await asyncio.gather(*list(self._chains.values()), return_exceptions=True)
        await self.notifier.idle()

    async def _computer_chain(self, game_id: int, delay: float = 0.0) -> None:
        busy = 0.0
        try:
            if delay > 0:  # the person who just moved may take it back meanwhile (`undo` then stops this chain)
                await self._wait_for_undo(game_id, delay)
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
                # Fair between servers, and between members within one: the host's share pays for the thinking.
                thinking = self.computer_action(
                    game, seat.cpu_level or "easy", key=rec.guild_id, member=rec.host_user_id
                )
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

    async def _wait_for_undo(self, game_id: int, delay: float) -> None:
        """The computers' wait while the mover may take their move back: `delay` seconds, or less when the mover
        lets them play now (`end_wait`). Then the Undo offered on the mover's panel is taken away."""
        wait = self._waits.setdefault(game_id, asyncio.Event())
        try:
            await asyncio.wait_for(wait.wait(), delay)
        except TimeoutError:
            pass
        finally:
            if self._waits.get(game_id) is wait:
                del self._waits[game_id]
        withdraw = self._undo_offers.pop(game_id, None)
        if withdraw is not None:
            try:
                await withdraw()
            except Exception:  # the panel may be gone (15 minutes, a dismissed message): the game goes on
                log.info("Game %s: the offered undo could not be taken off its panel", game_id, exc_info=True)

    def waiting_for_undo(self, game_id: int) -> bool:
        """Whether the game's computer players are waiting while a person may take their move back."""
        return game_id in self._waits

    def offer_undo(self, game_id: int, withdraw: Callable[[], Awaitable[None]]) -> None:
        """While the computers wait, a panel offers Undo: `withdraw` takes it away when they start (not after)."""
        if game_id in self._waits:
            self._undo_offers[game_id] = withdraw

    def end_wait(self, game_id: int) -> bool:
        """Let the waiting computer players play now; False when they were not waiting."""
        wait = self._waits.get(game_id)
        if wait is None:
            return False
        wait.set()
        return True

    async def computer_action(self, game: Game, level: str, *, key: object = None, member: object = None) -> Action:
        """A computer player's choice, computed away from the event loop with a bounded amount of work."""
        options = {"time_budget": self.hard_budget} if level == "hard" else {}
        seed = game.seed + len(game.log)
        if self.ai_pool is not None:  # worker processes: the bot's interpreter never thinks
            # Neither the game nor its state dict is kept here while the move waits in the pool's queue (the pool
            # keeps the state pickled; see _computer_chain).
            choosing = self.ai_pool.choose(game.to_dict(), level, seed, key=key, member=member, **options)
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
        """The table's words: the title, the notes (each once), what happened, then whose turn it is (or the result)
        and the scores. At most MAX_TABLE_LINES lines (a final table: with its breakdown) and 2,000 characters: the turn line, its mention and
        the scores are never cut; the oldest events go first, then the notes. The economy (coins, knights, towers)
        is in the picture and `/look`, not here."""
        lang = game_language(rec)
        head = [self._table_title(game, lang)]
        if game.is_over:
            result = game.result()
            names = " & ".join(seat_name(rec.seats, p) for p in result.winners)
            many = len(result.winners) > 1
            if result.tiebreak:
                line = M.WINNERS_TIEBREAK if many else M.WINNER_TIEBREAK
                tail = [translate(lang, line, names=names, tiebreak=tiebreak_words(result.tiebreak, lang))]
            else:
                tail = [translate(lang, M.WINNERS if many else M.WINNER, names=names)]
            # The breakdown is whole, packed into the lines left after the title and the result (with 5-8
            # kingdoms, a tie-break or a Dynasty there would be more than MAX_TABLE_LINES).
            tail += pack_lines(breakdown_text(game, rec.seats, lang).splitlines(), MAX_TABLE_LINES - len(head) - 2)
        else:
            d = game.decision()
            assert d is not None
            who = mention(rec.seats, d.player, lang)
            tail = [translate(lang, M.YOUR_TURN_TABLE, player=who, what=decision_words(game, d, lang))]
        if not game.is_over:  # the final breakdown has the totals
            tail.append(score_line(game, rec.seats, lang))
        notes = list(dict.fromkeys(line for line in note.splitlines() if line.strip()))  # a repeated note once
        return fit_table(
            head,
            notes,
            event_lines(events, rec.seats, game, lang),
            tail,
            earlier=lambda n: translate_plural(lang, *M.EARLIER_EVENTS, n),
        )

    @staticmethod
    def _table_title(game: Game, lang: str) -> str:
        title = game_name(game.config.game, lang)
        if game.is_over:
            return translate(lang, M.TABLE_FINAL, game=title)
        if game.round == 0:
            return translate(lang, M.TABLE_FIRST_LINE, game=title)
        if "dynasty" in game.config.variants:
            return translate(
                lang, M.TABLE_DYNASTY_ROUND, game=title, deal=game.deal + 1, round=game.round, rounds=game.setup.rounds
            )
        return translate(lang, M.TABLE_ROUND, game=title, round=game.round, rounds=game.setup.rounds)

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
        user_id = to_act.user_id if to_act is not None else None
        key, now = turn_key(game), self.clock()
        ping = None
        if user_id is not None:
            settings = await self.store.get_user_settings(user_id)
            ping = user_id if self.notifier.table_ping(rec.id, key, user_id, settings, now) else None
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
        if ping is not None:
            self.notifier.pinged(rec.id, key, ping, now)
        self.notifier.turn_passed(rec.id, None if game.is_over else key)
        if game.is_over:
            pictures.game_over(self, rec)  # the post-game review, worked out at low priority, posted once
        if user_id is not None:  # told outside the lock, by the person's choice (DM, quiet hours...)
            self.notifier.submit(TurnNotice(rec.id, key, user_id))
        return message

    async def story_files(
        self,
        rec: GameRecord,
        game: Game,
        *,
        replay: bool = True,
        chart: bool = True,
        lang: str | None = None,
        asker: pictures.Asker | None = None,
    ) -> list[discord.File]:
        """The game told again: the animated replay and the score chart, with their descriptions, in `lang` (a
        private look passes the viewer's language; by default the game's). Empty (logged) when they cannot be made;
        a game never waits on them. A look passes its `asker`: it waits behind the game's own pictures and may be
        refused with `pictures.PicturesBusy`. A finished game's are drawn once and kept (cogs/pictures.py)."""
        names, colours = names_and_colours(rec)
        log_data = [(p, a.to_dict()) for p, a in game.log]
        config = game.config.to_dict()
        lang = lang or game_language(rec)
        shown = (config, game.seed, log_data, names, colours, lang)
        options = {
            "on_disk": game.is_over,
            "priority": pictures.Priority.HEAVY if asker else pictures.Priority.STORY,
            "asker": asker,
            "lang": lang,
        }
        files = []
        if replay:
            key = pictures.picture_key(rec.id, "replay", *shown)
            gif = await pictures.kept(key, pictures.replay_gif, config, game.seed, log_data, names, colours, **options)
            if gif is not None:
                alt = await asyncio.to_thread(describe, replay_alt_text, game, names, lang=lang)
                files.append(discord.File(io.BytesIO(gif), filename=REPLAY_FILE_NAME, description=alt or None))
        if chart:
            key = pictures.picture_key(rec.id, "chart", *shown)
            png = await pictures.kept(key, render_score_chart, config, game.seed, log_data, names, colours, **options)
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
        telling = []
        for summary in await self.store.claim_due(now, self.owner, TIMER_LEASE_SECONDS):
            try:
                if (task := await self._handle_due(summary.id, now)) is not None:
                    telling.append(task)
                handled += 1
            except Exception:
                log.exception("Timer of game %s failed", summary.id)
            finally:
                await self.store.release_claim(summary.id, self.owner)
        await asyncio.gather(*telling, return_exceptions=True)  # the reminders, sent outside every lock
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
                    again = translate(game_language(rec), M.TABLE_AGAIN)  # said once, however many passes fail
                    note = "" if self._pending.get(rec.id) or again in self._notes.get(rec.id, []) else again
                    await self._publish(outcome, note=note)
                    posted += outcome.table_posted
            except Exception:
                log.warning("Game %s: its table could not be posted again yet", rec.id, exc_info=True)
        await self.notifier.repair()  # notifications whose sender died while sending: once more
        return posted

    async def _handle_due(self, game_id: int, now: datetime) -> asyncio.Task | None:
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
                        rec = await self._save(rec, game, action, d.player, None, events, made_by=BY_DEADLINE)
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
                return await self._remind(rec, game, seat, now)
        return None

    async def _remind(self, rec: GameRecord, game: Game, seat: Seat, now: datetime) -> asyncio.Task | None:
        """A reminder is due: the timer moves on (to the end of the person's quiet hours, if they are in them), and
        the notifier tells them, outside the lock."""
        settings = await self.store.get_user_settings(seat.user_id) if seat.user_id else None
        quiet_until = quiet_end(settings, now) if settings else None
        if quiet_until is not None:  # their quiet hours: the reminder waits until they end
            await self.store.set_turn_timer(
                rec.id, TurnTimer(quiet_until, rec.deadline_at), expected_version=rec.version
            )
            return None
        await self._next_reminder(rec, now)
        if seat.user_id is None:
            return None
        assert rec.next_reminder_at is not None
        return self.notifier.submit(TurnNotice(rec.id, turn_key(game), seat.user_id, "reminder", rec.next_reminder_at))

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
            self.notifier.turn_passed(summary.id, None)
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
