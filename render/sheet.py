"""The score sheet: one row per player or team with every part of the score, the winner, and the tie-break."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image

from engine import Game, Result, ScoreBreakdown
from engine.components import TERRAINS, building
from i18n import TERMS, term, translate
from i18n import messages as M

from . import icons, tiles
from .draw import (
    Draw,
    encode,
    fit_names,
    fit_size,
    king_token,
    player_colours,
    player_names,
    seat_of,
    text,
    text_width,
)
from .palette import (
    BACKGROUND,
    FAINT,
    GOLD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    TERRAIN_NAMES,
    TEXT,
    WINNER_ROW,
    mix,
)
from .words import EN, building_title, game_title, picture_lang, say, say_plural, variant_word

PAD = 16
LABEL_W = 170
COL_W = 78
HEAD_H = 92
PART_H = 40
NAME_SIZE = 19
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


def _columns(game: Game, tiebreak: str | None, lang: str = EN) -> list[Column]:
    def head(key: str, english: str) -> str:
        return say(lang, english, M.PIC_COLUMNS[key])

    def terrain(t: str) -> str:
        word = term(lang, t) if lang != EN and t in TERMS else TERRAIN_NAMES[t]
        return word[:1].upper() + word[1:]

    qd = game.queendomino_rules
    cols = [Column(t, terrain(t), ("tile", t)) for t in TERRAINS if qd or t != "town"]
    if qd:
        cols += [
            Column("queen", head("queen", "Queen"), ("icon", "queen")),
            Column("buildings", head("buildings", "Buildings"), ("icon", "building"), 88),
            Column("coins", head("coins", "Coins"), ("icon", "coin")),
        ]
    v = game.config.variants
    if "middle-kingdom" in v:
        cols.append(Column("middle_kingdom", head("middle_kingdom", "Middle"), ("icon", "castle")))
    if "harmony" in v:
        cols.append(Column("harmony", head("harmony", "Harmony"), ("icon", "star")))
    if tiebreak is not None:
        cols.append(Column("largest", head("largest", "Largest"), None))
        if qd:
            cols.append(Column("coins_left", head("coins_left", "Coins left"), None))
        else:
            cols.append(Column("crowns", head("crowns", "Crowns"), ("icon", "crown")))
    if game.config.deals > 1:
        cols += [
            Column(f"game{i}", say(lang, f"Game {i + 1}", M.PIC_GAME_N, number=i + 1), None)
            for i in range(game.config.deals)
        ]
    cols.append(Column("total", head("total", "Total"), None, 100))
    return cols


@dataclass(frozen=True)
class _Sheet:
    """What the score sheet shows and its layout, worked out once before drawing."""

    game: Game
    lang: str
    names: Mapping[str, str]
    colours: Mapping[str, RGB]
    breakdowns: list[ScoreBreakdown]
    result: Result | None
    order: list[int]  # the kingdoms, best first: one column each
    winners: set[int]
    parts: list[Column]  # one row each
    match: list[int]  # each kingdom's total (over every game with Dynasty)
    details: list[tuple[int, str]]  # per kingdom with buildings: their names and points
    col_w: int
    width: int
    head_h: int
    height: int

    @property
    def tiebreak(self) -> str | None:
        return self.result.tiebreak if self.result else None


def _sheet(game: Game, names: Mapping[str, str] | None, colours: Mapping[str, RGB] | None, lang: str) -> _Sheet:
    lang = picture_lang(lang)
    breakdowns = game.scores()
    result = game.result() if game.is_over else None
    order = list(result.order if result else game.ranking().order)
    parts = _columns(game, result.tiebreak if result else None, lang)
    deals = game.config.deals
    match = game.match_totals() if deals > 1 else [b.total for b in breakdowns]
    if result is not None and deals > 1:
        match = list(result.totals)
    col_w = 150 if len(order) <= 4 else 112
    width = PAD * 2 + LABEL_W + len(order) * col_w
    details = [
        (
            i,
            " · ".join(
                _unbroken(f"{building_title(lang, building(bid).name, bid)} {pts}")
                for bid, pts in breakdowns[i].buildings
            ),
        )
        for i in order
    ]
    details = [(i, d) for i, d in details if d]
    teams = any(len(game.kingdoms[i].players) > 1 for i in order)
    head_h = 156 if teams else 128
    height = HEAD_H + head_h + len(parts) * (PART_H + 2) + 20 + len(details) * 26 * 2 + 150 + PAD
    return _Sheet(
        game=game,
        lang=lang,
        names=player_names(game, names, lang),
        colours=player_colours(game, colours),
        breakdowns=breakdowns,
        result=result,
        order=order,
        winners=set(result.winner_kingdoms) if result else set(),
        parts=parts,
        match=match,
        details=details,
        col_w=col_w,
        width=width,
        head_h=head_h,
        height=height,
    )


def render_score_sheet(
    game: Game, names: Mapping[str, str] | None, colours: Mapping[str, RGB] | None, *, lang: str = "en"
) -> bytes:
    """The score sheet as PNG bytes: final when the game is over, else the scores so far.

    One column per kingdom (player or team), best first, one row per part of the score (each terrain, the queen,
    buildings, coins, bonuses; with Dynasty each game's total), the total last; the tie-break's figures when one
    decided. Narrow enough for a phone: at most 1000 pixels wide (seven kingdoms), 800 for four."""
    s = _sheet(game, names, colours, lang)
    im = Image.new("RGB", (s.width, s.height), BACKGROUND)
    draw = Draw(im)
    _draw_title(im, draw, s)
    for c, i in enumerate(s.order):
        _draw_column_head(im, draw, s, c, i)
    y = HEAD_H + s.head_h
    _draw_rows(im, draw, s, y)
    y += len(s.parts) * (PART_H + 2) + 20
    y = _draw_words(draw, s, y)
    return encode(im.crop((0, 0, s.width, min(s.height, y + PAD))))


def _draw_title(im: Image.Image, draw: Draw, s: _Sheet) -> None:
    """The title band (final or so far; the game, its seats and variants, the round) and Dynasty's game number."""
    game, lang, width = s.game, s.lang, s.width
    draw.rectangle((0, 0, width, HEAD_H - 14), fill=PANEL)
    icons.paste(im, "crown", PAD, 18, 40)
    x = PAD + 52
    over = game.is_over
    title = say(lang, "Final scores", M.PIC_FINAL_SCORES) if over else say(lang, "Scores so far", M.PIC_SCORES_SO_FAR)
    text(draw, (x, 28), title, 28, bold=True, anchor="lm")
    cfg = game.config
    sub = game_title(lang, GAME_TITLES[cfg.game], cfg.game) + ", "
    if cfg.teams:
        sub += say_plural(lang, f"{len(cfg.teams)} teams", M.PIC_TEAMS, len(cfg.teams))
    else:
        sub += say_plural(lang, f"{len(cfg.players)} players", M.PIC_PLAYERS, len(cfg.players))
    if cfg.variants:
        sub += " · " + ", ".join(variant_word(lang, v.replace("-", " "), v) for v in sorted(cfg.variants))
    if not over:
        english = f"round {game.round}/{game.setup.rounds}"
        sub += " · " + say(lang, english, M.PIC_ROUND_OF, round=game.round, rounds=game.setup.rounds)
    text(draw, (x, 58), sub, 17, fill=MUTED, anchor="lm", max_width=width - x - PAD)
    deals = cfg.deals
    if deals > 1:  # the parts are the current (or last) game's; the games' totals follow
        shown_deal = min(game.deal + 1, deals)
        game_n = say(lang, f"Game {shown_deal}", M.PIC_GAME_N, number=shown_deal)
        text(draw, (PAD + 4, HEAD_H + 92), game_n, 20, bold=True, fill=TEXT, anchor="lm")
        text(draw, (PAD + 4, HEAD_H + 114), say(lang, "in detail:", M.PIC_IN_DETAIL), 17, fill=MUTED, anchor="lm")


def _draw_column_head(im: Image.Image, draw: Draw, s: _Sheet, c: int, i: int) -> None:
    """Column `c` (kingdom `i`): its card, rank (a crown for the winner), kings with seat badges, names."""
    game, colours, col_w, y = s.game, s.colours, s.col_w, HEAD_H
    cx0 = PAD + LABEL_W + c * col_w
    winner = i in s.winners
    box = (cx0 + 3, y, cx0 + col_w - 3, y + s.head_h + len(s.parts) * (PART_H + 2) + 6)
    draw.rounded_rectangle(box, radius=12, fill=WINNER_ROW if winner else PANEL,
                           outline=GOLD if winner else PANEL_EDGE, width=2 if winner else 1)  # fmt: skip
    band = game.kingdoms[i].players
    bw = (col_w - 28) / len(band)
    for j, p in enumerate(band):  # the kingdom's colour; a team's two colours side by side
        draw.rounded_rectangle((cx0 + 14 + j * bw, y + 8, cx0 + 14 + (j + 1) * bw - 1, y + 13), radius=2,
                               fill=colours[p])  # fmt: skip

    mid = cx0 + col_w / 2
    if winner:
        icons.paste(im, "crown", mid - 16, y + 20, 32)
    else:
        text(draw, (mid, y + 36), f"#{c + 1}", 22, bold=True, fill=MUTED, anchor="mm")
    players = game.kingdoms[i].players
    shown = fit_names({p: s.names[p] for p in players}, NAME_SIZE, col_w - 14)
    ky = y + 60
    kx = mid - len(players) * 22
    for p in players:
        king_token(im, draw, kx, ky, 36, colours[p], seat_of(game, p))
        kx += 44
    ny = ky + 50
    for p in players:
        text(draw, (mid, ny), shown[p], NAME_SIZE, bold=True, anchor="mm", max_width=col_w - 12)
        ny += 26


def _draw_rows(im: Image.Image, draw: Draw, s: _Sheet, y: int) -> None:
    """From `y` down: a row per part of the score (its icon, its name, each kingdom's figure), the total last."""
    stripe = Image.new("RGBA", (s.width - 2 * PAD, PART_H), (255, 255, 255, 12))
    values = [_values(s.game, i, s.breakdowns[i], s.match) for i in s.order]
    for r, part in enumerate(s.parts):
        ry = y + r * (PART_H + 2)
        total = part.key == "total"
        if total:
            draw.line((PAD, ry - 1, s.width - PAD, ry - 1), fill=PANEL_EDGE, width=2)
        elif r % 2:  # a light veil, so the winner's column keeps its colour
            im.paste(stripe, (PAD, ry), stripe)
        cy = ry + PART_H / 2
        lx = PAD + 4
        if part.icon is not None:
            kind, what = part.icon
            if kind == "tile":
                im.paste(tiles.terrain_tile(what, 0, 30), (lx, round(cy - 15)))
            else:
                icons.paste(im, what, lx, cy - 15, 30, (214, 214, 218) if what == "castle" else None)
        label = part.label
        size = 20 if total else fit_size(label, 18, LABEL_W - 44, smallest=14)  # Spanish "Campo de trigo"
        text(draw, (lx + 38, cy), label, size, bold=total, fill=TEXT if total else MUTED, anchor="lm",
             max_width=LABEL_W - 44)  # fmt: skip
        for c, i in enumerate(s.order):
            mid = PAD + LABEL_W + c * s.col_w + s.col_w / 2
            _draw_figure(draw, s, part.key, values[c].get(part.key, 0), (mid, cy), i in s.winners)


def _draw_figure(draw: Draw, s: _Sheet, key: str, value: int, at: tuple[float, float], winner: bool) -> None:
    """One kingdom's figure for part `key`: the total large, the tie-break's figures gold where they decided."""
    if key == "total":
        text(draw, at, str(value), 30, bold=True, fill=GOLD if winner else TEXT, anchor="mm")
    elif key in ("largest", "crowns", "coins_left"):
        decisive = s.tiebreak is not None and _decides(s.tiebreak, key)
        text(draw, at, str(value), 20, bold=decisive, fill=GOLD if decisive and winner else MUTED, anchor="mm")
    elif value:
        text(draw, at, str(value), 22, bold=True, fill=TEXT, anchor="mm")
    else:
        text(draw, at, "–", 20, fill=FAINT, anchor="mm")


def _draw_words(draw: Draw, s: _Sheet, y: int) -> int:
    """From `y` down: the buildings in detail, then the winner in words and the tie-break; returns the bottom."""
    width = s.width
    for i, words in s.details:
        who = " & ".join(s.names[p] for p in s.game.kingdoms[i].players)
        for line in wrap(f"{who}: {words}", 16, width - 2 * PAD, bold=False):
            text(draw, (PAD + 4, y + 10), line, 16, fill=MUTED, anchor="lm")
            y += 24
    y += 10
    for line, size, colour in _footer(s.game, s.names, s.breakdowns, s.match, s.result, s.lang):
        for part_line in wrap(line, size, width - 2 * PAD, bold=colour == GOLD):
            text(draw, (PAD + 4, y + size / 2 + 4), part_line, size, bold=colour == GOLD, fill=colour, anchor="lm")
            y += size + 10
        y += 6
    return y


def wrap(words: str, size: int, width: float, bold: bool = False) -> list[str]:
    """`words` broken into lines of at most `width` pixels (a word longer than a line is cut when drawn)."""
    lines: list[str] = []
    line = ""
    for word in words.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines[:6]


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


def _footer(game: Game, names, breakdowns, match: list[int], result, lang: str = EN) -> list[tuple[str, int, RGB]]:
    def who(i: int) -> str:
        return " & ".join(names[p] for p in game.kingdoms[i].players)

    if result is None:
        leader = game.ranking().order[0]
        english = f"{who(leader)} leads with {match[leader]} points; the game goes on."
        return [(say_plural(lang, english, M.PIC_LEADS, match[leader], name=who(leader)), 20, TEXT)]
    lines: list[tuple[str, int, RGB]] = []
    winners = list(result.winner_kingdoms)
    best = match[result.order[0]]
    if len(winners) == 1:
        team = len(game.kingdoms[winners[0]].players) > 1
        english = f"{who(winners[0])} {'win' if team else 'wins'} with {best} points."
        pair = M.PIC_TEAM_WINS_WITH if team else M.PIC_WINS_WITH
        lines.append((say_plural(lang, english, pair, best, name=who(winners[0])), 24, GOLD))
    else:
        english = f"{' and '.join(who(i) for i in winners)} share the win with {best} points."
        together = " & ".join(who(i) for i in winners)
        lines.append((say_plural(lang, english, M.PIC_SHARE_WIN, best, names=together), 24, GOLD))
    tied = [i for i in result.order if match[i] == best]
    if result.tiebreak and result.tiebreak != "shared":
        others = ", ".join(who(i) for i in tied if i not in winners)
        words = TIEBREAK_WORDS.get(result.tiebreak, result.tiebreak)
        if lang != EN and result.tiebreak in M.TIEBREAKS:
            words = translate(lang, M.TIEBREAKS[result.tiebreak])
        english = f"Tie on {best} points with {others}: broken by {words}."
        line = say_plural(lang, english, M.PIC_TIE_BROKEN, best, others=others, how=words)
        lines.append((line, 19, mix(TEXT, GOLD, 0.3)))
    elif result.tiebreak == "shared":
        english = "Tied on points, largest territory and the next tie-break: the win is shared."
        lines.append((say(lang, english, M.PIC_TIE_SHARED), 19, MUTED))
    return lines


def _unbroken(words: str) -> str:
    """`words` kept on one line when wrapped (no-break spaces)."""
    return words.replace(" ", "\u00a0")
