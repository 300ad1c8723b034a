"""The score sheet: one row per player or team with every part of the score, the winner, and the tie-break."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image

from engine import Game
from engine.components import TERRAINS, building

from . import icons, tiles
from .draw import Draw, encode, kingdom_colour, player_colours, player_names, text
from .palette import (
    BACKGROUND,
    FAINT,
    GOLD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PANEL_LIGHT,
    RGB,
    TERRAIN_NAMES,
    TEXT,
    WINNER_ROW,
    mix,
)

PAD = 20
NAME_W = 300
COL_W = 78
HEAD_H = 84
COLUMN_HEAD = 70
ROW_H = 66
DETAIL_H = 24
GAME_TITLES = {"kingdomino": "Kingdomino", "queendomino": "Queendomino", "royal-wedding": "Royal Wedding"}
TIEBREAK_WORDS = {
    "largest territory": "the largest territory",
    "most crowns": "the most crowns",
    "leftover coins": "the most coins left over",
}


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    icon: tuple[str, str] | None  # ("tile", terrain) or ("icon", kind)
    width: int = COL_W


def _columns(game: Game, tiebreak: str | None) -> list[Column]:
    qd = game.queendomino_rules
    cols = [Column(t, TERRAIN_NAMES[t], ("tile", t)) for t in TERRAINS if qd or t != "town"]
    if qd:
        cols += [
            Column("queen", "Queen", ("icon", "queen")),
            Column("buildings", "Buildings", ("icon", "building"), 88),
            Column("coins", "Coins", ("icon", "coin")),
        ]
    v = game.config.variants
    if "middle-kingdom" in v:
        cols.append(Column("middle_kingdom", "Middle", ("icon", "castle")))
    if "harmony" in v:
        cols.append(Column("harmony", "Harmony", ("icon", "star")))
    if tiebreak is not None:
        cols.append(Column("largest", "Largest", None))
        cols.append(Column("coins_left", "Coins left", None) if qd else Column("crowns", "Crowns", ("icon", "crown")))
    if game.config.deals > 1:
        cols += [Column(f"game{i}", f"Game {i + 1}", None) for i in range(game.config.deals)]
    cols.append(Column("total", "Total", None, 100))
    return cols


def render_score_sheet(game: Game, names: Mapping[str, str] | None, colours: Mapping[str, RGB] | None) -> bytes:
    """The score sheet as PNG bytes: final when the game is over, else the scores so far.

    One row per kingdom (player or team), best first, with every part of the breakdown; with Dynasty, each game's
    total and the match total. The winner's row is highlighted and the tie-break named when one decided."""
    names = player_names(game, names)
    colours = player_colours(game, colours)
    breakdowns = game.scores()
    over = game.is_over
    result = game.result() if over else None
    order = result.order if result else game.ranking().order
    winners = set(result.winner_kingdoms) if result else set()
    tiebreak = result.tiebreak if result else None
    columns = _columns(game, tiebreak)
    deals = game.config.deals
    match = game.match_totals() if deals > 1 else [b.total for b in breakdowns]
    if result is not None and deals > 1:
        match = list(result.totals)

    details = []
    for b in breakdowns:
        parts = [f"{building(bid).name} {pts}" for bid, pts in b.buildings]
        details.append(" · ".join(parts))
    has_details = any(details)
    row_h = ROW_H + (DETAIL_H if has_details else 0)
    width = PAD * 2 + 56 + NAME_W + sum(c.width for c in columns)
    footer_h = 96
    height = HEAD_H + COLUMN_HEAD + 18 + len(order) * (row_h + 6) + footer_h + PAD
    im = Image.new("RGB", (width, height), BACKGROUND)
    draw = Draw(im)

    # Title.
    draw.rectangle((0, 0, width, HEAD_H - 14), fill=PANEL)
    icons.paste(im, "crown", PAD, 14, 44)
    title = "Final scores" if over else "Scores so far"
    x = PAD + 56
    x += text(draw, (x, 36), title, 32, bold=True, anchor="lm") + 16
    cfg = game.config
    sub = (
        GAME_TITLES[cfg.game] + f" · {len(cfg.players)} players" + (f" in {len(cfg.teams)} teams" if cfg.teams else "")
    )
    if cfg.variants:
        sub += " · " + ", ".join(v.replace("-", " ") for v in sorted(cfg.variants))
    if not over:
        sub += f" · round {game.round} of {game.setup.rounds}"
    text(draw, (x, 38), sub, 18, fill=MUTED, anchor="lm", max_width=width - x - PAD)

    # Column heads: a tile or icon, and the name.
    y = HEAD_H
    x = PAD + 56 + NAME_W
    if deals > 1:  # the breakdown columns are the current (or last) game's
        bx1 = x + sum(c.width for c in columns if not c.key.startswith("game") and c.key != "total")
        shown = min(game.deal + 1, deals)
        text(draw, ((x + bx1) / 2, y + 2), f"Game {shown} in detail", 14, bold=True, fill=MUTED, anchor="mm")
        draw.line((x + 8, y + 12, bx1 - 8, y + 12), fill=PANEL_EDGE, width=2)
        y += 18
    text(
        draw,
        (PAD + 56, y + COLUMN_HEAD / 2),
        "Player" if not cfg.teams else "Team",
        17,
        bold=True,
        fill=MUTED,
        anchor="lm",
    )
    for c in columns:
        cx = x + c.width / 2
        if c.icon is not None:
            kind, what = c.icon
            if kind == "tile":
                im.paste(tiles.terrain_tile(what, 0, 30), (round(cx - 15), y + 6))
            else:
                icons.paste(im, what, cx - 15, y + 6, 30, (214, 214, 218) if what in ("castle",) else None)
            text(draw, (cx, y + 52), c.label, 14, fill=MUTED, anchor="mm", max_width=c.width - 4)
        else:
            bold = c.key == "total"
            text(
                draw,
                (cx, y + COLUMN_HEAD / 2),
                c.label,
                16 if bold else 15,
                bold=True,
                fill=TEXT if bold else MUTED,
                anchor="mm",
                max_width=c.width - 4,
            )
        x += c.width
    draw.line((PAD, y + COLUMN_HEAD - 4, width - PAD, y + COLUMN_HEAD - 4), fill=PANEL_EDGE, width=2)

    # Rows.
    y += COLUMN_HEAD + 2
    for rank, i in enumerate(order, start=1):
        b = breakdowns[i]
        k = game.kingdoms[i]
        winner = i in winners
        box = (PAD, y, width - PAD, y + row_h)
        fill = WINNER_ROW if winner else (PANEL if rank % 2 else PANEL_LIGHT)
        draw.rounded_rectangle(box, radius=10, fill=fill, outline=GOLD if winner else None, width=2)
        draw.rounded_rectangle(
            (PAD + 6, y + 10, PAD + 11, y + ROW_H - 10), radius=2, fill=kingdom_colour(game, i, colours)
        )
        cy = y + ROW_H / 2
        if winner:
            icons.paste(im, "crown", PAD + 16, cy - 17, 34)
        else:
            text(draw, (PAD + 33, cy), str(rank), 22, bold=True, fill=MUTED, anchor="mm")
        # Names, with their kings; teams on two lines.
        nx = PAD + 56
        players = k.players
        line_h = ROW_H / len(players)
        for j, p in enumerate(players):
            ly = y + line_h * (j + 0.5)
            size = 30 if len(players) == 1 else 24
            icons.paste(im, "king", nx, ly - size / 2, size, colours[p])
            text(
                draw,
                (nx + size + 8, ly),
                names[p],
                21 if len(players) == 1 else 18,
                bold=True,
                anchor="lm",
                max_width=NAME_W - size - 24,
            )
        values = _values(game, i, b, match)
        x = PAD + 56 + NAME_W
        for c in columns:
            value = values.get(c.key, 0)
            cx = x + c.width / 2
            if c.key == "total":
                text(draw, (cx, cy), str(value), 28, bold=True, fill=GOLD if winner else TEXT, anchor="mm")
            elif c.key in ("largest", "crowns", "coins_left"):
                decisive = tiebreak is not None and _decides(tiebreak, c.key)
                text(
                    draw,
                    (cx, cy),
                    str(value),
                    20,
                    bold=decisive,
                    fill=GOLD if decisive and winner else MUTED,
                    anchor="mm",
                )
            elif value:
                text(draw, (cx, cy), str(value), 22, bold=True, fill=TEXT, anchor="mm")
            else:
                text(draw, (cx, cy), "–", 20, fill=FAINT, anchor="mm")
            x += c.width
        if has_details and details[i]:
            text(
                draw,
                (PAD + 56, y + ROW_H + DETAIL_H / 2 - 4),
                "Buildings: " + details[i],
                14,
                fill=MUTED,
                anchor="lm",
                max_width=width - 2 * PAD - 70,
            )
        y += row_h + 6

    # Footer: the winner in words, and the tie-break.
    y += 10
    for line, size, colour in _footer(game, names, breakdowns, match, result):
        text(
            draw,
            (PAD + 4, y + size / 2 + 4),
            line,
            size,
            bold=colour == GOLD,
            fill=colour,
            anchor="lm",
            max_width=width - 2 * PAD,
        )
        y += size + 16
    return encode(im.crop((0, 0, width, min(height, y + PAD))))


def _decides(tiebreak: str, key: str) -> bool:
    return {"largest territory": "largest", "most crowns": "crowns", "leftover coins": "coins_left"}.get(
        tiebreak
    ) == key


def _values(game: Game, index: int, b, match: list[int]) -> dict[str, int]:
    values = dict(b.parts())
    values["largest"] = b.largest_territory
    values["crowns"] = b.total_crowns
    values["coins_left"] = b.leftover_coins
    for d, totals in enumerate(game.deal_totals):
        values[f"game{d}"] = totals[index]
    if not game.is_over and game.config.deals > 1:
        values[f"game{game.deal}"] = b.total
    values["total"] = match[index]
    return values


def _footer(game: Game, names, breakdowns, match: list[int], result) -> list[tuple[str, int, RGB]]:
    def who(i: int) -> str:
        return " & ".join(names[p] for p in game.kingdoms[i].players)

    if result is None:
        leader = game.ranking().order[0]
        return [(f"{who(leader)} leads with {match[leader]} points; the game goes on.", 20, TEXT)]
    lines: list[tuple[str, int, RGB]] = []
    winners = list(result.winner_kingdoms)
    best = match[result.order[0]]
    if len(winners) == 1:
        lines.append(
            (
                f"{who(winners[0])} {'win' if len(game.kingdoms[winners[0]].players) > 1 else 'wins'} with {best} points.",
                24,
                GOLD,
            )
        )
    else:
        lines.append((f"{' and '.join(who(i) for i in winners)} share the win with {best} points.", 24, GOLD))
    tied = [i for i in result.order if match[i] == best]
    if result.tiebreak and result.tiebreak != "shared":
        others = [who(i) for i in tied if i not in winners]
        words = TIEBREAK_WORDS.get(result.tiebreak, result.tiebreak)
        lines.append((f"Tie on {best} points with {', '.join(others)}: broken by {words}.", 19, mix(TEXT, GOLD, 0.3)))
    elif result.tiebreak == "shared":
        lines.append(("Tied on points, largest territory and the next tie-break: the win is shared.", 19, MUTED))
    return lines
