"""A lobby's words: who sits at the table, its options, whether it is open (no Discord here)."""

from __future__ import annotations

from db.models import GameRecord, GameStatus, Seat
from engine.config import PLAYER_RANGE
from i18n import messages as M
from i18n import translate

from .decide import game_language
from .words import game_name, safe


def seat_label(seat: Seat, lang: str = "en") -> str:
    """A seat in the lobby: the person's mention, or a computer's name (`Bot 1 (medium)`, which says its level)
    marked with a robot."""
    if seat.is_computer:
        name = safe(seat.display_name)
        level = translate(lang, M.LEVELS[seat.cpu_level]) if seat.cpu_level in M.LEVELS else seat.cpu_level
        return f"🤖 {name}" if level and level in name else f"🤖 {name} ({level})"
    return f"<@{seat.user_id}>"


def lobby_text(rec: GameRecord) -> str:
    lang = game_language(rec)
    opts = rec.config
    size = opts.get("seats", PLAYER_RANGE[rec.kind][1]) if rec.status == GameStatus.LOBBY else len(rec.seats)
    variants = [translate(lang, M.VARIANT_OPTIONS[v]) for v in opts.get("variants", ()) if v in M.VARIANT_OPTIONS]
    lines = [
        translate(
            lang,
            M.LOBBY_TITLE,
            game=game_name(rec.kind, lang),
            host=f"<@{rec.host_user_id}>",
            taken=len(rec.seats),
            size=size,
        )
    ]
    if opts.get("teams"):
        lines.append(translate(lang, M.LOBBY_TEAMS))
        for t in range(0, len(rec.seats), 2):  # the seats, numbered as the host's swap list numbers them
            pair = rec.seats[t : t + 2]
            members = " & ".join(f"{t + n}. {seat_label(s, lang)}" for n, s in enumerate(pair, 1))
            if len(pair) != 2:
                members += " & " + translate(lang, M.LOBBY_FREE_SEAT)
            lines.append(translate(lang, M.LOBBY_TEAM, number=t // 2 + 1, members=members))
    if variants:
        lines.append(translate(lang, M.LOBBY_VARIANTS, variants="; ".join(variants)))
    if opts.get("hints"):  # who sits down agrees: the board may show anyone a good move, and the game is not rated
        lines.append(translate(lang, M.WEB_HINTS_TABLE))
    if rec.reminder_hours and rec.deadline_hours:
        reminder, deadline = f"{rec.reminder_hours:g}", f"{rec.deadline_hours:g}"
        lines.append(translate(lang, M.LOBBY_REMINDER_DEADLINE, reminder=reminder, deadline=deadline))
    elif rec.reminder_hours:
        lines.append(translate(lang, M.LOBBY_REMINDER, hours=f"{rec.reminder_hours:g}"))
    elif rec.deadline_hours:
        lines.append(translate(lang, M.LOBBY_DEADLINE, hours=f"{rec.deadline_hours:g}"))
    if not opts.get("teams"):  # in teams, the team lines list the seats
        lines.extend(f"{i}. {seat_label(s, lang)}" for i, s in enumerate(rec.seats, 1))
    if rec.status == GameStatus.LOBBY:
        lines.append(translate(lang, M.LOBBY_OPEN))
    elif rec.status == GameStatus.CANCELLED:
        lines.append(translate(lang, M.LOBBY_CANCELLED))
    else:
        lines.append(translate(lang, M.LOBBY_STARTED))
    return "\n".join(lines)
