"""What a move means, without saving or showing it: the rules' helpers the game service decides with, and the result
object it hands to whoever shows the game (`Result`).

Nothing here imports Discord or touches the store: the commit path (`cogs.commit`) loads, checks the version,
applies with these helpers and saves; the presenter (`cogs.presenter`) and the notifier show the `Result`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from db.models import ActionRecord, GameRecord, GameStatus, Seat, TurnTimer
from engine import Action, BribeDragon, Build, Claim, Event, Game, IllegalAction, Place, Skip, Tax, action_from_dict
from i18n import first_supported, translate
from i18n import messages as M
from render.kingdom import preview_score, preview_scores

from .words import UserError, seat_name

NO_GAME = M.NO_GAME_HERE
UNREADABLE = M.UNREADABLE_HERE
STALE = M.STALE
DEADLINE_LEVEL = "medium"  # the computer level that finishes the turn of a person whose deadline passed

OPTIONAL_STEPS = ("tax", "build", "dragon")
STEP_OF = {Tax: "tax", Build: "build", BribeDragon: "dragon"}

MADE_BY = "made_by"  # a key of a saved action: who made a move saved without a user id
BY_DEADLINE = "deadline"  # ... the turn deadline (a computer played for an absent person)


class NoGameHere(UserError):
    """There is no game in this channel (the cogs then list the person's games elsewhere in the server)."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def turn_key(game: Game) -> int:
    """Identifies a turn (deal, round, position): stable while one player goes through the steps of a turn."""
    return game.deal * 1_000_000 + game.round * 1_000 + game.turn


def game_language(rec: GameRecord) -> str:
    """The language of a game's public messages and pictures: chosen at `/game new` (kept in the lobby options
    and, once started, beside the engine's config), else English."""
    return first_supported((rec.config or {}).get("language"))


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


def placement_gain(game: Game, kingdom: int, action: Place) -> int:
    """How many points placing the decision's domino this way adds to the kingdom's score right now (the engine's
    scoring of the kingdom alone, as the previews draw it: no copy of the whole game per spot)."""
    d = game.decision()
    assert d is not None and d.domino is not None
    before, after = preview_score(game, kingdom, d.domino, action.placement)
    return after - before


def placement_gains(game: Game, kingdom: int, actions: list[Place]) -> list[int]:
    """`placement_gain` of each of `actions` (the kingdom as it is scored once for all)."""
    d = game.decision()
    assert d is not None and d.domino is not None
    before, afters = preview_scores(game, kingdom, d.domino, [a.placement for a in actions])
    return [after - before for after in afters]


def same_turn_step(trial: Game, game: Game, player: str, kind: str) -> bool:
    """Whether `player` faces step `kind` in `trial`, still in `game`'s turn."""
    d = trial.decision()
    return d is not None and d.player == player and d.kind == kind and turn_key(trial) == turn_key(game)


def steps_for(game: Game, player: str, action: Action) -> list[Action]:
    """The skips of the optional steps that come before `action`'s step, then `action` (a skip: every optional
    step left in this turn)."""
    _, steps = skip_optional(game, player, STEP_OF.get(type(action)))
    if isinstance(action, Skip):
        return steps or [action]
    return [*steps, action]


def forced_claim(rec: GameRecord, game: Game) -> tuple[str, Claim] | None:
    """The claim a person's king makes by itself (a single free domino to choose from), with its player; None when
    the next decision is anything else."""
    if game.is_over:
        return None
    d = game.decision()
    assert d is not None
    seat = rec.seat_of(d.player)
    if seat is None or seat.is_computer or d.kind not in ("claim", "first_claim"):
        return None
    claims = [a for a in game.legal_actions() if isinstance(a, Claim)]
    return (d.player, claims[0]) if len(claims) == 1 else None


def next_seat(rec: GameRecord, game: Game) -> Seat | None:
    d = game.decision()
    return rec.seat_of(d.player) if d else None


def turn_timer(rec: GameRecord, game: Game, now: datetime) -> TurnTimer:
    """The reminder and deadline of the player to act from `now` (a computer: due at once)."""
    seat = next_seat(rec, game)
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


def state_without(game: Game, keep: list[ActionRecord], also: list[ActionRecord]) -> dict:
    """The state after `keep` and `also` (the undone actions still to be taken back after this one)."""
    replay = Game.new(game.config, game.seed)
    for record in [*keep, *reversed(also)]:
        replay.apply(action_from_dict(record.action), by=record.player_id)
    return replay.to_dict()


@dataclass
class Forgetting:
    """How a person leaves one game when they ask to be forgotten (`forget_plan`): what takes their seat (None: it
    goes), who hosts now (None: as before), the game with them renamed (None: not started, or nothing to rename), the
    stored config that goes with it, whether the lobby is cancelled, and the turn's timer."""

    replacement: Seat | None
    host_user_id: int | None
    game: Game | None
    config: dict | None
    cancel: bool = False
    timer: TurnTimer | None = None

    @property
    def computer_took_seat(self) -> bool:
        return self.replacement is not None and self.replacement.is_computer


def forget_plan(
    rec: GameRecord,
    user_id: int,
    *,
    former_id: int,
    level: str,
    now: datetime,
    name: str | None = None,
    host_after: int | None = None,
) -> Forgetting:
    """How `user_id` leaves the game `rec`: in a lobby their seat goes (the next person hosts, or the lobby is
    cancelled when they were alone); in a game in play a computer player of `level` takes their seat, as the
    deadline's does for an absent player, for good; in a game that ended a former player's seat (user id
    `former_id`) keeps their place and result. Their name becomes "a former player" in the game's language, and the
    engine's game (its config, log, kings, kingdoms) names the new seat's player id instead of theirs. (A person who
    leaves a game in play without being forgotten: the computer's seat takes `name`, and `host_after` hosts.)"""
    name = name or translate(game_language(rec), M.FORMER_PLAYER)
    seat = next((s for s in rec.seats if s.user_id == user_id), None)
    host = (host_after or former_id) if rec.host_user_id == user_id else None
    if rec.status == GameStatus.LOBBY:
        others = [s for s in rec.seats if s.user_id is not None and s.user_id != user_id]
        if rec.host_user_id == user_id and others:
            return Forgetting(None, others[0].user_id, None, None)
        return Forgetting(None, host, None, None, cancel=rec.host_user_id == user_id)
    if seat is None:
        return Forgetting(None, host, None, None)
    if rec.status == GameStatus.PLAYING:
        number = 1 + max((int(s.player_id[4:]) for s in rec.seats if s.is_computer), default=0)
        replacement = Seat.computer(number, level, name, seat.colour)
    else:
        replacement = Seat(str(former_id), name, user_id=former_id, colour=seat.colour)
    game = rec.game.clone() if rec.game is not None else None
    config = None
    if game is not None:
        game.rename_player(seat.player_id, replacement.player_id)
        config = {**rec.config, **game.config.to_dict()}  # the game's language stays beside the engine's config
    plan = Forgetting(replacement, host, game, config)
    if rec.status == GameStatus.PLAYING and game is not None:
        seats = tuple(replacement if s is seat else s for s in rec.seats)
        plan.timer = turn_timer(dataclasses.replace(rec, seats=seats), game, now)
    return plan


Words = Callable[[str], str]  # a sentence in the language asked for (the reader's, or the table's)


@dataclass
class Result:
    """What a change of a game did, for whoever shows it: the game as saved (`record`, `game`; `version`), what
    happened (`events`: the mover's; `table_events`: everything saved, for the table), whose turn it is now
    (`to_act`) and whom to tell (`to_notify`), what was done for a person (`automatic`), and, once shown, whether
    a table was posted and what went wrong after the save (`warning`)."""

    record: GameRecord
    game: Game
    events: list[Event] = field(default_factory=list)
    table_events: list[Event] = field(default_factory=list)
    table_posted: bool = False
    # Sentences for the mover, in the language they are asked for (the mover's, not the table's):
    warning: Words | None = None  # set when the move is saved but something after it failed
    automatic: list[tuple[str, Words]] = field(default_factory=list)  # (player, done for them)
    computers_wait: float = 0.0  # seconds the computer players wait before answering (the mover may undo meanwhile)
    # Whether the table on screen showed the game as it was before this change: only then may a step of the same
    # turn leave it there (it names the right player); after a table that could not be posted it names another.
    table_was_current: bool = False

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def to_act(self) -> Seat | None:
        """The seat whose decision the game waits for (None: the game is over)."""
        return next_seat(self.record, self.game)

    @property
    def to_notify(self) -> int | None:
        """The person to tell it is their turn (None: a computer acts next, or nobody)."""
        seat = self.to_act
        return seat.user_id if seat is not None and not seat.is_computer else None

    def warning_in(self, lang: str) -> str | None:
        return self.warning(lang) if self.warning is not None else None


MoveOutcome = Result  # its former name


# What a saved change was (`Change.kind`): a move (a person's, a computer's, the deadline's, a forced claim), a move
# taken back, the start, a change of the lobby (opened, a seat taken or left, the seats or the host changed), the
# game ended before its end (cancelled, expired, abandoned, unreadable, or its forgotten host sat alone), a seat of a
# game in play changing hands (a person forgotten: a computer takes it), a game deleted. And, not a saved change, an
# operation on the game began (`busy`: its lock is held) or ended (`settled`): whatever was to be saved and shown is.
# `wait`: the computer players began or ended their wait for a possible undo (nothing saved: the boards show it)
CHANGE_KINDS = ("move", "undo", "start", "lobby", "cancel", "seat", "deleted", "busy", "settled", "wait")


@dataclass(frozen=True, slots=True)
class Change:
    """What `Commits` announces to its listeners once a change of a game is committed (or an operation on it begins
    and ends): which game, its version now (None when not known), what kind of change (`CHANGE_KINDS`), the record at
    that version as saved (a move: with its game, which later saves of the same operation go on changing: a listener
    that keeps it copies it), the events the change made, who made it (a person's user id) and why a game ended."""

    game_id: int
    kind: str
    version: int | None = None
    record: GameRecord | None = None
    events: tuple[Event, ...] = ()
    by: int | None = None
    reason: str | None = None
