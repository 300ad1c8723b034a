"""Words and small helpers the cogs share: names, what a player must do, scores in text, errors for players."""

from __future__ import annotations

import logging
import re

import discord

from db.models import Seat
from engine import Decision, Event, Game, building, cell_name, domino
from engine.components import TERRAIN_LETTER

log = logging.getLogger(__name__)

TERRAIN_WORDS = {
    "wheat": "wheat",
    "forest": "forest",
    "lake": "lake",
    "grassland": "grassland",
    "swamp": "swamp",
    "mine": "mine",
    "town": "town",
}
PHASE_YOU = {
    "first_claim": "choose a domino of the first line for your king",
    "claim": "choose a domino of the next line",
    "place": "place your domino",
    "tax": "send knights to collect tax, or skip",
    "build": "build a building, or skip",
    "dragon": "bribe the dragon to burn a building, or skip",
}
PHASE_THEY = {
    "first_claim": "choose a domino of the first line for their king",
    "claim": "choose a domino of the next line",
    "place": "place their domino",
    "tax": "decide on tax",
    "build": "decide on building",
    "dragon": "decide on the dragon",
}
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


def safe(text: str) -> str:
    """A name (or anything a user typed) made inert for a message: no mention can ping, no markdown can format,
    no link can be clicked."""
    text = discord.utils.escape_mentions(text)
    text = discord.utils.escape_markdown(text, ignore_links=False)
    text = text.replace("://", ":\u200b//").replace("<", "\\<")
    return text


def quote_typed(text: str, limit: int = 24) -> str:
    """A short, inert quote of what a person typed, for a refusal."""
    text = " ".join("".join(c if c.isprintable() else " " for c in text[:200]).split())
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    short = short.replace("`", "'")
    return f"`{short}`"


def count(n: int, word: str) -> str:
    """`1 coin`, `3 coins`, `0 knights`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def square_words(square) -> str:
    crowns = " " + "👑" * square.crowns if square.crowns else ""
    return f"{TERRAIN_WORDS.get(square.terrain, square.terrain)}{crowns}"


def domino_words(domino_id: str, *, with_box: bool = False) -> str:
    """`16 (wheat · swamp 👑)`: the number, then both squares in words with their crowns. In Royal Wedding, where
    both boxes are in play, the number carries its box letter (`Q16`), everywhere the same."""
    d = domino(domino_id)
    number = d.id if with_box else str(d.number)
    return f"{number} ({square_words(d.squares[0])} · {square_words(d.squares[1])})"


def domino_number(game: Game, domino_id: str) -> str:
    """How a domino is named in this game: its number, with the box letter only in Royal Wedding."""
    d = domino(domino_id)
    return d.id if game.config.game == "royal-wedding" else str(d.number)


def game_domino_words(game: Game, domino_id: str) -> str:
    return domino_words(domino_id, with_box=game.config.game == "royal-wedding")


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
    """What the player to act must do, in words (to them)."""
    if d.kind == "first_claim":
        return "choose a domino of the first line for your king"
    if d.kind == "place":
        return f"place domino {game_domino_words(game, d.domino)}"  # type: ignore[arg-type]
    if d.kind == "tax":
        return "send knights to collect tax, or skip"
    if d.kind == "build":
        return "build a building, or skip"
    if d.kind == "dragon":
        return "bribe the dragon to burn a building, or skip"
    return "choose a domino of the next line"


def their_turn(game: Game, d: Decision, seats) -> str:
    """Telling someone else whose turn it is, in the third person."""
    what = PHASE_THEY.get(d.kind, d.kind)
    if d.kind == "place":
        what = f"place domino {game_domino_words(game, d.domino)}"  # type: ignore[arg-type]
    return f"It's {seat_name(seats, d.player)}'s turn: they must {what}."


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


def event_words(event: Event, game: Game, seats) -> str | None:
    """One line for the table, in words: names, dominoes by number with their squares, buildings by name, board
    slots counted from 1 as the picture shows them. None for what the table need not say."""
    who = f"**{seat_name(seats, event.player)}**" if event.player else ""
    data = event.data
    kind = event.kind
    if kind == "claimed":
        return f"{who} chose domino {game_domino_words(game, data['domino'])}."
    if kind == "placed":
        return (
            f"{who} placed domino {game_domino_words(game, data['domino'])} on {data['cell']}, second square "
            f"{data['direction']}."
        )
    if kind == "taxed":
        coins = count(data["coins"], "coin")
        knights = "a knight" if data["knights"] == 1 else f"{data['knights']} knights"
        return f"{who} sent {knights} to {' and '.join(data['cells'])} and collected {coins}."
    if kind == "built":
        return f"{who} built the {building(data['building']).name} on {data['cell']} for {count(data['cost'], 'coin')}."
    if kind == "dragon":
        return f"{who} bribed the dragon, which burned the {building(data['building']).name} (slot {data['slot'] + 1})."
    if kind == "queen":
        return f"The queen moves to {who}'s kingdom ({count(data['towers'], 'tower')})."
    if kind == "discarded":
        return f"{who} could not place domino {game_domino_words(game, data['domino'])}: it is discarded."
    if kind == "unclaimed":
        names = ", ".join(domino_number(game, d) for d in data["dominoes"])
        return f"Nobody chose {names}: {'it is' if len(data['dominoes']) == 1 else 'they are'} discarded."
    if kind == "round_end":
        return f"Round {data['round']} is over."
    if kind == "deal_end":
        return f"Game {data['finished']} of the Dynasty is over; game {data['next']} begins."
    if kind in ("game_over", "skipped"):
        return None  # the end has its own lines
    return with_names(event.text, seats)


def event_lines(events: list[Event], seats, game: Game | None = None) -> list[str]:
    if game is None:
        return [with_names(e.text, seats) for e in events if e.kind not in ("skipped",)]
    return [line for e in events if (line := event_words(e, game, seats)) is not None]


def refusal_words(error, game: Game, seats, player: str) -> str:
    """An engine refusal worded for the person who acted: second person, no command syntax, names not ids."""
    code, p = getattr(error, "code", ""), getattr(error, "params", {})
    if code == "not_your_turn":
        return f"It's {seat_name(seats, p['player'])}'s turn: they must {PHASE_THEY.get(p['phase'], p['phase'])}."
    if code in ("wrong_phase", "must_place_first", "cannot_skip"):
        if p.get("player") not in (None, player):
            return f"It's {seat_name(seats, p['player'])}'s turn: they must {PHASE_THEY.get(p.get('phase'), '')}."
        if code == "must_place_first":
            return f"You must place domino {game_domino_words(game, p['domino'])} first."
        if code == "cannot_skip" or p.get("action") == "skip":
            return f"That step cannot be skipped: you must {PHASE_YOU.get(p['phase'], p['phase'])}."
        return f"You must {PHASE_YOU.get(p['phase'], p['phase'])} first."
    if code in ("domino_taken", "domino_not_in_line"):
        free = ", ".join(domino_number(game, d) for d in p.get("free", []))
        what = "already taken" if code == "domino_taken" else "not in the line"
        return f"That domino is {what}: choose a free one ({free})."
    if code == "not_enough_coins":
        return f"You need {count(p['cost'], 'coin')}, you have {count(p['coins'], 'coin')}."
    if code == "knights_per_round":
        return (
            f"At most {p['limit']} knights a round: you already sent {p['sent']} this round, so you can send "
            f"{p['left']} more, not {p['wanted']}."
        )
    if code == "knights_reserve":
        return f"You have {count(p['reserve'], 'knight')} in reserve, not {p['wanted']}."
    if code == "empty_slot":
        return f"Slot {p['slot'] + 1} of the builders' board holds no building: choose another."
    text = with_names(str(error), seats)
    return re.sub(r"^[^:]*\b(place|claim|tax|build|dragon|skip)\b[^:]*: ", "", text)


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
