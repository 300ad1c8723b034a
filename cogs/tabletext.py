"""The table's words and the pictures' descriptions: what a posted table says, worked out without Discord.

`table_content` is the text of a table message (title, notes, events, whose turn or the result, scores) within
Discord's limits; `setup_words` the line that opens a game; `describe` a picture's alt text.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from db.models import GameRecord
from engine import Event, Game, GameConfig
from engine.config import VARIANTS
from i18n import TERMS, term, translate, translate_plural
from i18n import messages as M
from render import clean_name

from .decide import game_language
from .words import (
    breakdown_text,
    clip,
    decision_words,
    event_lines,
    game_name,
    mention,
    score_line,
    seat_name,
    tiebreak_words,
)

log = logging.getLogger(__name__)

MAX_TABLE_LINES = 8  # a table's text on a phone: the rest is in its picture and the looks


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


def setup_words(rec: GameRecord, config: GameConfig) -> str:
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


def table_content(rec: GameRecord, game: Game, events: list[Event], note: str = "") -> str:
    """The table's words: the title, the notes (each once), what happened, then whose turn it is (or the result)
    and the scores. At most MAX_TABLE_LINES lines (a final table: with its breakdown) and 2,000 characters: the turn line, its mention and
    the scores are never cut; the oldest events go first, then the notes. The economy (coins, knights, towers)
    is in the picture and `/look`, not here."""
    lang = game_language(rec)
    head = [table_title(game, lang)]
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


def table_title(game: Game, lang: str) -> str:
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


def table_link(rec: GameRecord) -> str | None:
    """The jump link to the game's latest table message."""
    if rec.table_message_id is None:
        return None
    guild = rec.guild_id if rec.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{rec.table_channel_id or rec.channel_id}/{rec.table_message_id}"
