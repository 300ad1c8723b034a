"""The lobby's rules, for every front end (Discord's lobby message, the web board): how many seats a table has, who
may do what before the start, the seats a join, a leave, a computer player or a swap makes, whether a table can
start. Pure functions of the lobby's record: no Discord, no store, no lock (the game service applies them under its
lock and saves through the commit path). A refusal is a `UserError` that says what is wrong and what would be right.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from db.models import GameRecord, GameStatus, Seat
from engine import GameConfig
from engine.ai import LEVELS, OFFERED_LEVELS
from engine.config import PLAYER_RANGE
from i18n import messages as M
from i18n import translate
from render import PLAYER_COLOURS

from .decide import game_language
from .words import UserError, config_refusal

Naming = Callable[[GameRecord, int], str]  # how a front end names a person in its words (Discord: a mention)


def hex_colour(index: int) -> str:
    r, g, b = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
    return f"#{r:02x}{g:02x}{b:02x}"


def next_colour(seats: Sequence[Seat]) -> str:
    """The first seat colour nobody at the table has."""
    used = {s.colour for s in seats}
    for i in range(len(PLAYER_COLOURS)):
        if hex_colour(i) not in used:
            return hex_colour(i)
    return hex_colour(len(seats))


def bot_name(number: int, level: str, lang: str) -> str:
    """A computer seat's name, in the table's language: `Bot 2 (medium)`."""
    return translate(lang, M.BOT_NAME, number=number, level=translate(lang, M.LEVELS.get(level, level)))


def seats_of(rec: GameRecord) -> int:
    """The lobby's number of seats; refused once it closed (started, cancelled)."""
    if rec.status != GameStatus.LOBBY:
        raise UserError(M.LOBBY_CLOSED)
    return int(rec.config.get("seats", PLAYER_RANGE[rec.kind][1]))


def only_host(rec: GameRecord, user_id: int, message: str, naming: Naming) -> None:
    """Refuse, naming the host, what only the host may do."""
    if user_id != rec.host_user_id:
        host = naming(rec, rec.host_user_id)
        raise UserError(message, host=host) if "{host}" in message else UserError(message)


def joining(rec: GameRecord, user_id: int, name: str) -> Seat:
    """The seat a person takes (the next free one, in the first free colour)."""
    size = seats_of(rec)
    if rec.seat_of(str(user_id)) is not None:
        raise UserError(M.ALREADY_SEATED)
    if len(rec.seats) >= size:
        raise UserError(M.TABLE_FULL, size=size)
    return Seat.human(user_id, name, next_colour(rec.seats))


@dataclass(frozen=True)
class Leaving:
    """What a person's leave does: nobody else is seated (`closes`: the table is cancelled), or the seats are left
    and, when the host left, the next seated person hosts (`new_host`)."""

    closes: bool
    new_host: int | None = None


def leaving(rec: GameRecord, user_id: int) -> Leaving:
    seats_of(rec)
    player = str(user_id)
    if rec.seat_of(player) is None:
        raise UserError(M.NO_SEAT)
    people = [s for s in rec.seats if not s.is_computer and s.player_id != player]
    if not people:  # a table needs a person: the last one to leave closes it
        return Leaving(closes=True)
    return Leaving(closes=False, new_host=people[0].user_id if user_id == rec.host_user_id else None)


def check_level(level: str, *, offered: bool = True) -> None:
    """Refuse a computer level nobody may choose (the menu offers `OFFERED_LEVELS`; a stored seat may hold any of
    `LEVELS`)."""
    allowed = OFFERED_LEVELS if offered else LEVELS
    if level not in allowed:
        raise UserError(M.PICK_MENU_CHOICE)


def with_computer(rec: GameRecord, level: str) -> tuple[list[Seat], Seat]:
    """The seats with a computer player of `level` added, and its seat."""
    size = seats_of(rec)
    check_level(level)
    seats = list(rec.seats)
    if len(seats) >= size:
        raise UserError(M.TABLE_FULL, size=size)
    number = 1 + max((int(s.player_id.split(":")[1]) for s in seats if s.is_computer), default=0)
    seat = Seat.computer(number, level, bot_name(number, level, game_language(rec)), next_colour(seats))
    return [*seats, seat], seat


def computer_seat(rec: GameRecord, player_id: str | None) -> Seat:
    """The computer seat `player_id` (None: the last one added); refused when there is none such."""
    computers = [s for s in rec.seats if s.is_computer]
    if player_id is not None:
        computers = [s for s in computers if s.player_id == player_id]
    if not computers:
        raise UserError(M.NO_COMPUTER)
    return computers[-1]


def without_computer(rec: GameRecord, player_id: str | None = None) -> tuple[list[Seat], Seat]:
    """The seats without a computer player (`player_id`, or the last one added), and the seat removed."""
    seats_of(rec)
    seat = computer_seat(rec, player_id)
    return [s for s in rec.seats if s is not seat], seat


def with_level(rec: GameRecord, player_id: str, level: str) -> tuple[list[Seat], Seat]:
    """The seats with computer `player_id` playing at `level` (its name says its level), and its new seat."""
    seats_of(rec)
    check_level(level)
    old = computer_seat(rec, player_id)
    number = int(old.player_id.split(":")[1])
    seat = Seat.computer(number, level, bot_name(number, level, game_language(rec)), old.colour)
    return [seat if s is old else s for s in rec.seats], seat


def swapped(seats: Sequence[Seat], pair: tuple[str, ...]) -> list[Seat]:
    """The seats with the two players of `pair` exchanged (refused, saying why, when they are not two seated)."""
    if len(pair) != 2 or pair[0] == pair[1]:
        raise UserError(M.PICK_TWO_SEATS)
    index = {s.player_id: i for i, s in enumerate(seats)}
    if not all(p in index for p in pair):
        raise UserError(M.PLAYER_LEFT_MEANWHILE)
    i, j = index[pair[0]], index[pair[1]]
    seats = list(seats)
    seats[i], seats[j] = seats[j], seats[i]
    return seats


def new_host(rec: GameRecord, user_id: int) -> int:
    """The person to hand the host's role to: a person seated at the table."""
    seats_of(rec)
    seat = rec.seat_of(str(user_id))
    if seat is None or seat.is_computer:
        raise UserError(M.HOST_MUST_BE_SEATED)
    return user_id


def teams_of(players: tuple[str, ...], teams: bool) -> tuple[tuple[str, ...], ...] | None:
    """Teams of two by consecutive seats (partners sit side by side), or None."""
    return tuple(players[i : i + 2] for i in range(0, len(players), 2)) if teams else None


def check_can_start(rec: GameRecord, user_id: int, naming: Naming) -> None:
    """Refuse, saying why, a start by someone else than the seated host, or of a table that cannot start as it is."""
    seats_of(rec)
    only_host(rec, user_id, M.ONLY_HOST_START, naming)
    if rec.seat_of(str(user_id)) is None:
        raise UserError(M.SEAT_FIRST)
    if not any(not s.is_computer for s in rec.seats):
        raise UserError(M.NEEDS_A_PERSON)
    players = tuple(s.player_id for s in rec.seats)
    try:
        GameConfig(
            rec.kind,
            players,
            frozenset(rec.config.get("variants", ())),
            teams_of(players, bool(rec.config.get("teams"))),
        )
    except ValueError as error:
        raise UserError(lambda lang, e=error: translate(lang, M.CANNOT_START, reason=config_refusal(e, lang))) from None


def may_cancel(rec: GameRecord, user_id: int, *, manages: bool) -> None:
    """The host, or a member who may manage the channel (`manages`), ends a game in its lobby or in play."""
    if rec.status not in (GameStatus.LOBBY, GameStatus.PLAYING):
        raise UserError(M.ALREADY_OVER)
    if user_id != rec.host_user_id and not manages:
        raise UserError(M.ONLY_HOST_CANCEL)


def check_table(kind: str, size: int, variants: Sequence[str], *, teams: bool) -> None:
    """Check a table's options with placeholder players, so that an impossible table is refused at once."""
    placeholder = tuple(f"seat{i}" for i in range(size))
    try:
        GameConfig(kind, placeholder, frozenset(variants), teams_of(placeholder, teams))
    except ValueError as error:
        raise UserError(
            lambda lang, e=error: translate(lang, M.TABLE_IMPOSSIBLE, reason=config_refusal(e, lang))
        ) from None


def check_hours(**hours: float | None) -> None:
    """Refuse a reminder or deadline outside 0.5-720 hours (discord.py does not re-check declared ranges)."""
    for label, value in hours.items():
        if value is not None and not 0.5 <= value <= 720:
            raise UserError(  # the option as the reader's client names it
                lambda lang, label=label: translate(
                    lang, M.HOURS_RANGE, option=translate(lang, label, context="slash-option")
                )
            )
