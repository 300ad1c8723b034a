"""Words and small helpers the cogs share: names, what a player must do, scores in text, errors for players."""

from __future__ import annotations

import logging
import re

import discord

from db.models import Seat
from engine import Decision, Event, Game, building, cell_name, domino
from engine.components import TERRAIN_LETTER

log = logging.getLogger(__name__)

GAME_NAMES = {"kingdomino": "Kingdomino", "queendomino": "Queendomino", "royal-wedding": "Royal Wedding"}
TERRAIN_SYMBOL = {t: letter for t, letter in TERRAIN_LETTER.items()}
NO_PINGS = discord.AllowedMentions.none()
NEEDED_PERMISSIONS = {"view_channel": "View Channel", "send_messages": "Send Messages", "attach_files": "Attach Files"}
THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


class UserError(Exception):
    """A refusal to show the player privately: what is wrong and what would be right. Nothing has changed."""


def pings(*user_ids: int | None) -> discord.AllowedMentions:
    """Mentions that notify exactly these users, and nobody else (never everyone, roles or other users)."""
    users = [discord.Object(id=u) for u in dict.fromkeys(user_ids) if u is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


# Characters that must never reach a stored or drawn name: controls (C0, C1), line and paragraph separators,
# bidirectional overrides and isolates, zero-width characters and the byte-order mark.
_UNSAFE_NAME = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]"
)
NAME_LIMIT = 32


def clean_name(name: str | None, fallback: str = "Player") -> str:
    """A display name fit to store, draw and write: no control, separator, direction or zero-width characters, no
    runs of spaces, at most 32 characters; never empty."""
    text = _UNSAFE_NAME.sub(" ", name or "")
    text = " ".join(text.split())[:NAME_LIMIT].strip()
    return text or fallback


def safe(text: str) -> str:
    """A name (or anything a user typed) made inert for a message: no mention can ping, no markdown can format,
    no link can be clicked."""
    text = discord.utils.escape_mentions(text)
    text = discord.utils.escape_markdown(text, ignore_links=False)
    text = text.replace("://", ":\u200b//").replace("<", "\\<")
    return text


def quote_typed(text: str, limit: int = 24) -> str:
    """A short, inert quote of what a person typed, for a refusal."""
    text = clean_name(text, fallback="")
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    short = short.replace("`", "'")
    return f"`{short}`"


def count(n: int, word: str) -> str:
    """`1 coin`, `3 coins`, `0 knights`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def domino_words(domino_id: str, *, with_box: bool = False) -> str:
    """`23 (W1 F0)`: the number and both squares; the box letter first in Royal Wedding."""
    d = domino(domino_id)
    number = d.id if with_box else str(d.number)
    return f"{number} ({d.squares[0].text} {d.squares[1].text})"


def seat_name(seats: tuple[Seat, ...] | list[Seat], player_id: str) -> str:
    """The seat's name, safe to write into a message."""
    for seat in seats:
        if seat.player_id == player_id:
            return safe(seat.display_name)
    return safe(player_id)


def mention(seats, player_id: str) -> str:
    for seat in seats:
        if seat.player_id == player_id:
            return f"<@{seat.user_id}>" if seat.user_id is not None else f"**{safe(seat.display_name)}** (computer)"
    return player_id


def kingdom_name(game: Game, seats, index: int) -> str:
    return " & ".join(seat_name(seats, p) for p in game.kingdoms[index].players)


def with_names(text: str, seats) -> str:
    """Replace engine player ids in an engine sentence by the players' names."""
    ids = sorted((s.player_id for s in seats), key=len, reverse=True)
    if not ids:
        return text
    pattern = re.compile("|".join(re.escape(i) for i in ids))
    names = {s.player_id: f"**{safe(s.display_name)}**" for s in seats}
    return pattern.sub(lambda m: names[m.group(0)], text)


def decision_words(game: Game, d: Decision) -> str:
    """What the player to act must do, in words."""
    rw = game.config.game == "royal-wedding"
    if d.kind == "first_claim":
        return "choose a domino of the first line for your king"
    if d.kind == "place":
        return f"place domino {domino_words(d.domino, with_box=rw)}"  # type: ignore[arg-type]
    if d.kind == "tax":
        return "send knights to collect tax, or skip"
    if d.kind == "build":
        return "build a building, or skip"
    if d.kind == "dragon":
        return "bribe the dragon to burn a building, or skip"
    return "choose a domino of the next line"


def score_line(game: Game, seats) -> str:
    totals = game.match_totals() if "dynasty" in game.config.variants else [s.total for s in game.scores()]
    parts = [f"{kingdom_name(game, seats, i)} {t}" for i, t in enumerate(totals)]
    label = "Dynasty totals" if "dynasty" in game.config.variants else "Scores"
    return f"{label}: " + " · ".join(parts)


def economy_line(game: Game, seats) -> str:
    """Coins, knights and towers per kingdom (Queendomino rules), in text."""
    if not game.queendomino_rules:
        return ""
    parts = []
    for i, k in enumerate(game.kingdoms):
        queen = " 👑queen" if game.queen == i else ""
        parts.append(
            f"{kingdom_name(game, seats, i)}: {count(k.coins, 'coin')}, {count(k.knights_reserve, 'knight')} in "
            f"reserve, {count(k.towers, 'tower')}{queen}"
        )
    return "\n".join(parts)


TERRAIN_WORDS = {
    "wheat": "wheat",
    "forest": "forest",
    "lake": "lake",
    "grassland": "grassland",
    "swamp": "swamp",
    "mine": "mine",
    "town": "town",
}
PART_WORDS = {
    "queen": "queen",
    "buildings": "buildings",
    "coins": "coins",
    "middle_kingdom": "Middle Kingdom",
    "harmony": "Harmony",
}


def breakdown_text(game: Game, seats) -> str:
    """Every part of every kingdom's score, one line each: each territory as squares × crowns, then buildings,
    queen, coins and bonuses; the tie-break that decided, and Dynasty totals in a Dynasty."""
    lines = []
    for i, s in enumerate(game.scores()):
        parts = [
            f"{TERRAIN_WORDS.get(t.terrain, t.terrain)} {t.size}×{t.crowns}"
            for t in sorted(s.territories, key=lambda t: -t.points)
            if t.points
        ]
        for name, value in s.parts().items():
            if name in PART_WORDS and value:
                parts.append(f"{PART_WORDS[name]} {value}")
        detail = ", ".join(parts) if parts else "nothing yet"
        lines.append(f"**{kingdom_name(game, seats, i)}**: {points_words(s.total)} ({detail})")
    if game.is_over:
        result = game.result()
        if result.tiebreak:
            lines.append(f"Tie-break: {result.tiebreak}.")
    if "dynasty" in game.config.variants and game.deal_totals:
        for i in range(len(game.kingdoms)):
            games = " + ".join(str(t[i]) for t in game.deal_totals)
            lines.append(f"{kingdom_name(game, seats, i)}, Dynasty games so far: {games}")
    return "\n".join(lines)


def points_words(n: int, *, signed: bool = False) -> str:
    """`1 point`, `+3 points`, `-2 points`, `0 points`."""
    sign = "+" if signed and n > 0 else ""
    return f"{sign}{n} point" if abs(n) == 1 else f"{sign}{n} points"


def event_lines(events: list[Event], seats) -> list[str]:
    return [with_names(e.text, seats) for e in events if e.kind not in ("skipped",)]


def building_words(building_id: str) -> str:
    b = building(building_id)
    return f"{b.name} ({b.effect_text()})"


def cells_words(cells) -> str:
    return " and ".join(cell_name(r, c) for r, c in cells)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def strip_controls(client: discord.Client, channel_id: int, message_id: int | None) -> None:
    """Take the buttons off an earlier message (the table of a past turn, a closed lobby). A deleted or
    uneditable message is left as it is."""
    if message_id is None:
        return
    channel = client.get_partial_messageable(channel_id)
    try:
        await channel.get_partial_message(message_id).edit(view=None)
    except discord.HTTPException:
        log.debug("Could not take the controls off message %s", message_id)
