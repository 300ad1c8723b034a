"""The table after every move: header, the current and next line, the builders' board, and every kingdom.

Portrait, 1000 pixels wide whatever the player count, so a phone (about 780 pixels across) shows it at 0.78: the
sizes below are chosen so that, at that scale, terrain letters and crowns stay 12 pixels or more and names, scores
and coordinates 14 or more for tables of 2-4 kingdoms (tables of 5-7 kingdoms put three kingdoms in a row and are
smaller; each player then sees their own kingdom large in their turn panel). The lines, then the builders' board,
then the kingdoms two (or three) to a row, each showing its squares and one ring of cells around them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image

from engine import BUILD, CLAIM, DRAGON, FIRST_CLAIM, PLACE, TAX, Game, domino
from engine.components import builders_board_spec, building
from i18n import messages as M
from i18n import translate

from . import icons, tiles
from .draw import (
    Box,
    Draw,
    encode,
    fit_names,
    fit_size,
    king_token,
    kingdom_colour,
    player_colours,
    player_names,
    seat_of,
    team_letter,
    team_mark,
    text,
    text_width,
)
from .kingdom import GridLayout, building_fits, draw_kingdom, game_building_codes, grid_at, label_margin, window
from .palette import (
    BACKGROUND,
    BOX_COLOURS,
    FAINT,
    GOLD,
    MUTED,
    OUTLINE,
    PANEL,
    PANEL_EDGE,
    PANEL_LIGHT,
    RGB,
    TEXT,
    WINNER_ROW,
    ink_on,
    mix,
)
from .words import EN, building_title, domino_label, game_title, picture_lang, say, say_plural, variant_word

WIDTH = 1000
PHONE_WIDTH = 780  # what a phone shows of a picture's width
GAP = 14
TITLE_BAR = 58
HEADER_H = TITLE_BAR + 74
TITLE_H = 38  # a section's title inside its panel
PANEL_HEADER = 60
TEAM_PANEL_HEADER = 96  # a team's two players on two lines
STATS_H = 40  # the stats row under a kingdom's name
BOARD_CARD_H = 108
BOARD_FOOTER = 88
GAME_TITLES = {"kingdomino": "Kingdomino", "queendomino": "Queendomino", "royal-wedding": "Royal Wedding"}

# Font sizes (pixels at full size).
STATUS_SIZE = 24
SECTION_SIZE = 20
LINE_NAME_SIZE = 20
NOTE_SIZE = 18
NAME_SIZE = 22
SCORE_SIZE = 34
STAT_SIZE = 20
LABEL_SIZE = 18  # coordinates
BOARD_NAME_SIZE = 20
BOARD_ITEM_SIZE = 18
TEAM_MARK = 32  # a team's mark: its letter at 16 pixels


MIN_TEXT = 16  # the smallest text on a table: 12.5 pixels when a phone shows it 780 pixels wide
BOX_LEGEND_H = 40  # Royal Wedding: under the lines, what K and Q before a domino's number mean
LEGEND_ROW = 36  # a row of the buildings' legend
MAX_RATIO = 2.0  # a picture's height at most about twice its width
MIN_CELL = 52  # the smallest square a table shrinks to for that: crowns still 12 px on a phone (3 to a row: 38)


@dataclass(frozen=True)
class TableLayout:
    """Where everything goes on the table picture; `cell_box` finds a kingdom's cell for tests and tools.

    `part` is "all" (the whole table in one picture), "top" (header, lines, builders' board) or "kingdoms" (the
    kingdoms under a title bar): a Royal Wedding table comes as the two (see `splits`)."""

    width: int
    height: int
    columns: int  # kingdoms per row
    entry: int  # height of one domino entry in the lines
    tile: int  # square size in the lines
    lines: Box | None
    board: Box | None
    panels: tuple[Box, ...]
    grids: tuple[GridLayout, ...]
    name_size: int  # players' names on their kingdoms
    score_size: int
    header: int  # height of a kingdom's header (names and score)
    part: str = "all"
    legend: Box | None = None  # the buildings shown by their code, with their names
    coded: tuple[str, ...] = ()  # those buildings' ids
    codes: tuple[tuple[str, str], ...] = ()  # building id -> code, for every building

    def cell_box(self, kingdom_index: int, row: int, col: int) -> Box:
        return self.grids[kingdom_index].cell_box(row, col)

    @property
    def phone_scale(self) -> float:
        """How much a phone (780 pixels across) shrinks this picture."""
        return min(1.0, PHONE_WIDTH / self.width)


def _columns(n: int) -> int:
    return 1 if n == 1 else 2 if n <= 4 else 3


def _board_height() -> int:
    return TITLE_H + 2 * BOARD_CARD_H + 10 + BOARD_FOOTER + 8


def splits(game: Game) -> bool:
    """Whether the table comes as two pictures, `top` then `kingdoms`: Royal Wedding's, whose lines (up to 8
    dominoes each), builders' board and up to 7 kingdoms would make one picture up to 1:2.6. The width cannot
    grow (a phone shows 780 pixels of it, and every text must stay 12 pixels there), nor the kingdoms shrink, so
    the table is cut in two, each at most about 1:2."""
    return game.config.game == "royal-wedding"


def table_layout(game: Game, part: str = "all", lang: str = "en") -> TableLayout:
    """The table's geometry for `game` (independent of names, colours and who is active; `lang` decides which
    building names are too long for their squares and are shown by a code the legend explains)."""
    if part not in ("all", "top", "kingdoms"):
        raise ValueError(f"part must be all, top or kingdoms, not {part!r}")
    n = len(game.kingdoms)
    cols = _columns(n)
    width = WIDTH
    compact = n > 4
    entry = 62 if compact else 68
    tile = entry - 12
    lines: Box | None = None
    board: Box | None = None
    if part == "kingdoms":
        y = TITLE_BAR + GAP
    else:
        y = HEADER_H
        # The lines: two columns of entries (this round, next round) across the width; the final ranking at the end.
        rows = (n + 1) // 2 if game.is_over else game.setup.line_size
        boxes = BOX_LEGEND_H if game.config.game == "royal-wedding" and not game.is_over else 0
        lines = (GAP, y, width - GAP, y + TITLE_H + rows * (entry + 6) + 10 + boxes)
        y = lines[3] + GAP
        if game.queendomino_rules and not game.is_over:  # at the end, the ranking and the kingdoms are what matter
            board = (GAP, y, width - GAP, y + _board_height())
            y = board[3] + GAP
    header = TEAM_PANEL_HEADER if game.config.teams else PANEL_HEADER
    name = NAME_SIZE if not compact else 20
    if part == "top":
        return TableLayout(width, y, cols, entry, tile, lines, board, (), (), name, SCORE_SIZE, header, part)
    # Kingdoms: every grid shows its window with one cell size, as large as the widest window allows (three to a
    # row without the ring of empty cells around them, so their squares stay large enough to read).
    panel_w = (width - (cols + 1) * GAP) // cols
    windows = [window(k, 0 if compact else 1) for k in game.kingdoms]
    wrows = max(b - t + 1 for t, _, b, _ in windows)
    wcols = max(r - c + 1 for _, c, _, r in windows)
    label = LABEL_SIZE if not compact else MIN_TEXT
    margin = label_margin(label)
    pad = 8
    cell = min(88, (panel_w - 2 * pad - margin) // wcols)
    # At most about twice as tall as wide: late in a game of 3-4 kingdoms the squares shrink a little (never under
    # MIN_CELL, where the terrain symbols still read at 12 pixels on a phone), keeping room for the legend.
    rows = (n + cols - 1) // cols
    limit = MAX_RATIO * width - (LEGEND_ROW + 16 + GAP if game.queendomino_rules else 0)
    posted = part != "all" or not splits(game)  # a table that splits is posted as its two parts
    while posted and cell > MIN_CELL and y + rows * (header + STATS_H + margin + wrows * cell + pad + GAP) > limit:
        cell -= 1
    grid_h = margin + wrows * cell + pad
    panel_h = header + STATS_H + grid_h
    panels, grids = [], []
    for i in range(n):
        r, c = divmod(i, cols)
        x0 = GAP + c * (panel_w + GAP)
        y0 = y + r * (panel_h + GAP)
        panels.append((x0, y0, x0 + panel_w, y0 + panel_h))
        gy0 = y0 + header + STATS_H
        grids.append(
            grid_at(windows[i], (x0 + pad, gy0, x0 + panel_w - pad, gy0 + grid_h - pad), label_size=label, cell=cell)
        )
    height = y + ((n + cols - 1) // cols) * (panel_h + GAP)
    codes: dict[str, str] = {}
    coded: list[str] = []
    legend: Box | None = None
    if game.queendomino_rules:
        codes = game_building_codes(lang)
        coded = _coded(game, cell, codes, lang)
        if coded:
            rows_ = len(_legend_rows(coded, codes, lang, width - 2 * GAP - 2 * 12))
            legend = (GAP, height, width - GAP, height + rows_ * LEGEND_ROW + 16)
            height = legend[3] + GAP
    return TableLayout(
        width, height, cols, entry, tile, lines, board, tuple(panels), tuple(grids), name, SCORE_SIZE, header, part,
        legend, tuple(coded), tuple(codes.items()),
    )  # fmt: skip


def _coded(game: Game, cell: int, codes: Mapping[str, str], lang: str) -> list[str]:
    """The buildings on the kingdoms whose names do not fit their squares at MIN_TEXT: shown by their codes."""
    found: set[str] = set()
    for k in game.kingdoms:
        for bid, towers in k.buildings.values():
            b = building(bid)
            if not building_fits(building_title(lang, b.name, bid), cell, bool(towers or b.crowns), MIN_TEXT):
                found.add(bid)
    return sorted(found, key=lambda bid: codes[bid])


def _legend_item_width(code: str, name: str) -> float:
    return text_width(code, NOTE_SIZE, True) + 16 + 6 + text_width(name, NOTE_SIZE) + 22


def _legend_rows(coded: list[str], codes: Mapping[str, str], lang: str, room: float) -> list[list[str]]:
    """The coded buildings in rows that fit `room` pixels, after the legend's title."""
    x = text_width(say(lang, "Buildings", M.PIC_COLUMNS["buildings"]) + ":", NOTE_SIZE, True) + 12
    rows: list[list[str]] = [[]]
    for bid in coded:
        w = _legend_item_width(codes[bid], building_title(lang, building(bid).name, bid))
        if rows[-1] and x + w > room:
            rows.append([])
            x = 0
        rows[-1].append(bid)
        x += w
    return rows


# -- header ------------------------------------------------------------------------------------------------------
def _status(game: Game, names: Mapping[str, str], lang: str = EN) -> tuple[str | None, str]:
    """(player to act, what they do) in words."""
    d = game.decision()
    if d is None:
        r = game.result()
        who = " & ".join(names[p] for p in r.winners)
        verb = "win" if len(r.winners) > 1 else "wins"
        points = r.totals[r.order[0]]
        how = f", by the {r.tiebreak} tie-break" if r.tiebreak and r.tiebreak != "shared" else ""
        english = f"Game over: {who} {verb} with {points} points{how}"
        if how:
            tiebreak = translate(lang, M.TIEBREAKS[r.tiebreak]) if r.tiebreak in M.TIEBREAKS else r.tiebreak
            return None, say_plural(lang, english, M.PIC_GAME_OVER_TIEBREAK, points, names=who, tiebreak=tiebreak)
        pair = M.PIC_GAME_OVER_MANY if len(r.winners) > 1 else M.PIC_GAME_OVER_ONE
        return None, say_plural(lang, english, pair, points, names=who)
    n = names[d.player]
    label = domino_label(game.config.game, d.domino) if d.domino else None
    words = {
        FIRST_CLAIM: f"{n} chooses a domino of the first line",
        PLACE: f"{n} places domino {label}",
        TAX: f"{n} may send knights to collect tax",
        BUILD: f"{n} may build",
        DRAGON: f"{n} may bribe the dragon",
        CLAIM: f"{n} chooses a domino of the next line",
    }
    if d.kind not in words:
        return d.player, f"{n}: {d.words}"
    return d.player, say(lang, words[d.kind], M.PIC_STATUS[d.kind], name=n, domino=label)


def _draw_header(im: Image.Image, draw: Draw, game: Game, layout: TableLayout, names, colours, lang: str = EN) -> None:
    _draw_title_bar(im, draw, game, layout, lang)
    w = layout.width
    # The status bar: who acts and what they do, with their king and colour.
    player, words = _status(game, fit_names(names, STATUS_SIZE, 380), lang)
    colour = colours[player] if player else GOLD
    box = (GAP, TITLE_BAR + 10, w - GAP, HEADER_H - 8)
    draw.rounded_rectangle(box, radius=12, fill=mix(colour, BACKGROUND, 0.78), outline=colour, width=2)
    cy = (box[1] + box[3]) / 2
    if player:
        tx = GAP + 12 + king_token(im, draw, GAP + 10, cy - 21, 40, colour, seat_of(game, player)) + 10
    else:
        icons.paste(im, "crown", GAP + 10, cy - 17, 34)
        tx = GAP + 54
    text(draw, (tx, cy), words, STATUS_SIZE, bold=True, anchor="lm", max_width=w - GAP - tx - 12)


def _draw_title_bar(im: Image.Image, draw: Draw, game: Game, layout: TableLayout, lang: str = EN) -> None:
    """The game's name, the players (and teams) and variants, and the round."""
    w = layout.width
    draw.rectangle((0, 0, w, TITLE_BAR), fill=PANEL)
    draw.line((0, TITLE_BAR, w, TITLE_BAR), fill=PANEL_EDGE, width=2)
    icons.paste(im, "crown", GAP, 10, 38)
    x = GAP + 48
    title = game_title(lang, GAME_TITLES[game.config.game], game.config.game)
    x += text(draw, (x, TITLE_BAR / 2), title, 28, bold=True, anchor="lm") + 12
    cfg = game.config
    if game.is_over:
        round_text = say(lang, "Final", M.PIC_FINAL)
    elif game.round == 0:
        round_text = say(lang, "Set-up", M.PIC_SETUP_FIRST_LINE)
    else:
        english = f"Round {game.round}/{game.setup.rounds}" + (" · last" if game.is_last_round else "")
        msgid = M.PIC_ROUND_LAST if game.is_last_round else M.PIC_ROUND
        round_text = say(lang, english, msgid, round=game.round, rounds=game.setup.rounds)
    right = w - GAP - text(draw, (w - GAP, TITLE_BAR / 2), round_text, 24, bold=True, fill=GOLD, anchor="rm") - 16
    players = f"{len(cfg.players)} players" + (f", {len(cfg.teams)} teams" if cfg.teams else "")
    if cfg.teams:
        bits = [say_plural(lang, players, M.PIC_PLAYERS_TEAMS, len(cfg.teams), players=len(cfg.players))]
    else:
        bits = [say_plural(lang, players, M.PIC_PLAYERS, len(cfg.players))]
    bits += [variant_word(lang, v.replace("-", " "), v) for v in sorted(cfg.variants)]
    if cfg.deals > 1:
        bits.insert(
            0, say(lang, f"game {game.deal + 1} of {cfg.deals}", M.PIC_DEAL, deal=game.deal + 1, deals=cfg.deals)
        )
    text(draw, (x, TITLE_BAR / 2 + 1), " · ".join(bits), NOTE_SIZE, fill=MUTED, anchor="lm", max_width=right - x)


# -- the lines ---------------------------------------------------------------------------------------------------
def _badge(draw: Draw, box: Box, domino_id: str, royal: bool) -> None:
    x0, y0, x1, y1 = box
    fill = BOX_COLOURS[domino_id[0]] if royal else PANEL_LIGHT
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=mix(fill, (255, 255, 255), 0.25))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if royal:  # the box's letter too: numbers repeat across the two boxes
        text(draw, (cx, cy), domino_id, 21, bold=True, anchor="mm", max_width=x1 - x0 - 4)
    else:
        text(draw, (cx, cy), domino_id[1:], 24, bold=True, anchor="mm")


def _entry_width(layout: TableLayout) -> int:
    x0, _, x1, _ = layout.lines
    return (x1 - x0 - 3 * GAP) // 2


def _player_mark(im, draw, game: Game, player: str, x: float, y: float, size: int, colours) -> float:
    """A king with the seat badge, and the team mark in team games; returns the width drawn."""
    w = king_token(im, draw, x, y, size, colours[player], seat_of(game, player))
    letter = team_letter(game, game.kingdom_of(player))
    if letter is not None:
        a, b = (colours[p] for p in game.kingdoms[game.kingdom_of(player)].players)
        w += 6 + team_mark(im, draw, x + w + 6, y + size / 2, TEAM_MARK, letter, a, b)
    return w


def _draw_line(im, draw, game: Game, layout: TableLayout, x0: int, y0: int, line, title: str, empty: str, names,
               colours, *, current: bool, lang: str = EN) -> None:  # fmt: skip
    entry, tile = layout.entry, layout.tile
    width = _entry_width(layout)
    text(draw, (x0 + 4, y0 + TITLE_H / 2), title, SECTION_SIZE, bold=True, fill=MUTED, anchor="lm")
    y = y0 + TITLE_H
    if not line:
        draw.rounded_rectangle((x0, y, x0 + width, y + entry), radius=10, outline=PANEL_EDGE, width=2)
        text(draw, (x0 + width / 2, y + entry / 2), empty, NOTE_SIZE, fill=FAINT, anchor="mm", max_width=width - 20)
        return
    d = game.decision()
    royal = game.config.game == "royal-wedding"
    mark = (entry - 22) * 1.45 + (6 + TEAM_MARK * 1.5 if game.config.teams else 0)
    room = width - 64 - 2 * tile - 10 - mark - 16
    placed = "✓"  # the domino is placed: a tick on it, not a word beside the name, so the name keeps its room
    # One size for every name in the lines, down to MIN_TEXT before any is cut ("Bot 2 (me…" told nothing).
    name_size = min(fit_size(n, LINE_NAME_SIZE, room, bold=True, smallest=MIN_TEXT) for n in names.values())
    shown = fit_names(names, name_size, room)
    for i, (domino_id, king_index) in enumerate(line):
        acting = (
            d is not None
            and d.king == king_index
            and ((current and d.kind in (PLACE, TAX, BUILD, DRAGON, FIRST_CLAIM)) or (not current and d.kind == CLAIM))
        )
        done = current and d is not None and d.kind != FIRST_CLAIM and i < game.turn
        box = (x0, y, x0 + width, y + entry)
        fill = mix(PANEL_LIGHT, (255, 255, 255), 0.06) if acting else PANEL_LIGHT
        king = game.kings[king_index] if king_index is not None else None
        edge = colours[king.player] if acting and king else PANEL_EDGE
        draw.rounded_rectangle(box, radius=10, fill=fill, outline=edge, width=3 if acting else 1)
        _badge(draw, (x0 + 6, y + 6, x0 + 58, y + entry - 6), domino_id, royal)
        dom = domino(domino_id)
        tx = x0 + 64
        ty = y + (entry - tile) // 2
        for sq in dom.squares:
            im.paste(tiles.terrain_tile(sq.terrain, sq.crowns, tile), (tx, ty))
            tx += tile
        draw.rectangle((x0 + 64, ty, tx - 1, ty + tile - 1), outline=OUTLINE, width=2)
        kx = tx + 10
        end = x0 + width - 8
        if done:
            veil = Image.new("RGBA", (kx - x0, entry + 1), (*BACKGROUND, 150))
            im.paste(veil, (x0, y), veil)
            mid = (x0 + 64 + tx) / 2  # over the placed domino, whose veil dims it
            draw.ellipse(
                (mid - 17, y + entry / 2 - 17, mid + 17, y + entry / 2 + 17), fill=PANEL, outline=MUTED, width=2
            )
            text(draw, (mid, y + entry / 2 + 1), placed, 24, bold=True, fill=TEXT, anchor="mm")
        if king is not None:
            size = entry - 22
            kw = _player_mark(im, draw, game, king.player, kx, y + 9, size, colours)
            nx = kx + kw + 8
            text(draw, (nx, y + entry / 2), shown[king.player], name_size, bold=acting,
                 fill=MUTED if done else TEXT, anchor="lm", max_width=end - nx)  # fmt: skip
        else:
            text(draw, (kx + 6, y + entry / 2), say(lang, "free", M.PIC_FREE), NOTE_SIZE, fill=FAINT, anchor="lm")
        y += entry + 6


def _draw_lines(im, draw, game: Game, layout: TableLayout, names, colours, lang: str = EN) -> None:
    x0, y0, _x1, _y1 = layout.lines
    draw.rounded_rectangle(layout.lines, radius=14, fill=PANEL, outline=PANEL_EDGE)
    left = x0 + GAP
    right = left + _entry_width(layout) + GAP
    if game.is_over:
        _draw_ranking(im, draw, game, layout, names, colours, lang)
        return
    if game.round == 0:
        first = say(lang, "First line: claim a domino", M.PIC_FIRST_LINE_CLAIM)
        _draw_line(im, draw, game, layout, left, y0, game.current_line, first, "", names,
                   colours, current=True, lang=lang)  # fmt: skip
        nxt, note = (
            say(lang, "Next line", M.PIC_NEXT_LINE),
            say(lang, "Drawn once every king is placed", M.PIC_NEXT_LINE_NOTE),
        )
        _draw_line(im, draw, game, layout, right, y0, [], nxt, note, names,
                   colours, current=False, lang=lang)  # fmt: skip
        return
    now = say(lang, f"This round ({game.round})", M.PIC_THIS_ROUND, round=game.round)
    empty = say(lang, "No dominoes left", M.PIC_NO_DOMINOES_LEFT)
    _draw_line(im, draw, game, layout, left, y0, game.current_line, now, empty, names, colours,
               current=True, lang=lang)  # fmt: skip
    if game.next_line:
        nxt = say(lang, f"Next round ({game.round + 1})", M.PIC_NEXT_ROUND_N, round=game.round + 1)
    else:
        nxt = say(lang, "Next round", M.PIC_NEXT_ROUND)
    last = say(lang, "Last round: no next line", M.PIC_LAST_ROUND_NO_NEXT)
    _draw_line(im, draw, game, layout, right, y0, game.next_line, nxt, last, names, colours,
               current=False, lang=lang)  # fmt: skip
    if game.config.game == "royal-wedding":
        _draw_box_legend(draw, layout, lang)


def _draw_box_legend(draw: Draw, layout: TableLayout, lang: str) -> None:
    """Royal Wedding plays both boxes, whose dominoes have the same numbers: the letter before a number is its box."""
    x0, _, x1, y1 = layout.lines
    cy = y1 - BOX_LEGEND_H / 2 - 4
    x = x0 + GAP
    for letter, english, msgid in (
        ("K", "a domino from the Kingdomino box", M.PIC_BOX_KINGDOMINO),
        ("Q", "a domino from the Queendomino box", M.PIC_BOX_QUEENDOMINO),
    ):
        fill = BOX_COLOURS[letter]
        draw.rounded_rectangle(
            (x, cy - 14, x + 30, cy + 14), radius=6, fill=fill, outline=mix(fill, (255, 255, 255), 0.25)
        )
        text(draw, (x + 15, cy), letter, NOTE_SIZE, bold=True, anchor="mm")
        x += 38
        room = (x1 - x0) / 2 - 38 - GAP
        x += text(draw, (x, cy), say(lang, english, msgid), NOTE_SIZE, fill=MUTED, anchor="lm", max_width=room) + 28


def _draw_ranking(im, draw, game: Game, layout: TableLayout, names, colours, lang: str = EN) -> None:
    """At the end, the lines' place shows the final ranking, two kingdoms to a row."""
    x0, y0, _, _ = layout.lines
    result = game.result()
    entry = layout.entry
    width = _entry_width(layout)
    title = say(lang, "Final ranking", M.PIC_FINAL_RANKING)
    text(draw, (x0 + GAP + 4, y0 + TITLE_H / 2), title, SECTION_SIZE, bold=True, fill=MUTED, anchor="lm")
    for rank, i in enumerate(result.order, start=1):
        row, col = divmod(rank - 1, 2)
        bx = x0 + GAP + col * (width + GAP)
        by = y0 + TITLE_H + row * (entry + 6)
        winner = i in result.winner_kingdoms
        draw.rounded_rectangle((bx, by, bx + width, by + entry), radius=10, fill=WINNER_ROW if winner else PANEL_LIGHT,
                               outline=GOLD if winner else PANEL_EDGE, width=2 if winner else 1)  # fmt: skip
        cy = by + entry / 2
        if winner:
            icons.paste(im, "crown", bx + 10, cy - 16, 32)
        else:
            text(draw, (bx + 26, cy), str(rank), 24, bold=True, fill=MUTED, anchor="mm")
        score_w = text(draw, (bx + width - 12, cy), str(result.totals[i]), 28, bold=True,
                       fill=GOLD if winner else TEXT, anchor="rm")  # fmt: skip
        players = game.kingdoms[i].players
        x = bx + 50
        room = (bx + width - 24 - score_w - x) / len(players)
        size = entry - 24
        name_size = min(
            fit_size(names[p], LINE_NAME_SIZE, room - size - 20, bold=True, smallest=MIN_TEXT) for p in players
        )
        shown = fit_names({p: names[p] for p in players}, name_size, room - size - 20)
        for p in players:
            kw = king_token(im, draw, x, cy - size / 2, size, colours[p], seat_of(game, p))
            text(draw, (x + kw + 6, cy), shown[p], name_size, bold=True, anchor="lm", max_width=room - kw - 10)
            x += room


# -- the builders' board -----------------------------------------------------------------------------------------
def building_items(building_id: str, lang: str = EN) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """A building's effect as icon/text items: (what it gives when built or at tax, how it scores).

    Items are ("icon", kind), ("tile", terrain) or ("text", words)."""
    b = building(building_id)
    effect: list[tuple[str, str]] = []
    if b.knights:
        effect += [("icon", "knight"), ("text", f"+{b.knights}")]
    if b.towers:
        effect += [("icon", "tower"), ("text", f"+{b.towers}")]
    if b.crowns:
        effect += [("icon", "crown")] * b.crowns
    tax = say(lang, "tax", M.PIC_TAX)
    if b.coins_per_knight_on_tax:
        effect += [("text", tax), ("icon", "coin"), ("text", f"+{b.coins_per_knight_on_tax}/"), ("icon", "knight")]
    if b.coins_per_tower_on_tax:
        effect += [("text", tax), ("icon", "coin"), ("text", f"+{b.coins_per_tower_on_tax}/"), ("icon", "tower")]
    points: list[tuple[str, str]] = []
    unit = "pt" if b.points == 1 else "pts"
    per = say_plural(lang, f"{b.points} {unit} per", M.PIC_POINTS_PER, b.points)
    if b.scoring == "fixed":
        points = [("icon", "star"), ("text", say_plural(lang, f"{b.points} {unit}", M.PIC_POINTS_SHORT, b.points))]
    elif b.scoring == "per_territory":
        points = [
            ("icon", "star"),
            ("text", per),
            ("tile", b.scoring_terrain or "town"),
            ("text", say(lang, "area", M.PIC_AREA)),
        ]
    elif b.scoring == "per_tower":
        points = [("icon", "star"), ("text", per), ("icon", "tower")]
    elif b.scoring == "per_knight":
        points = [("icon", "star"), ("text", per), ("icon", "knight")]
    return effect, points


def _items_width(items, size: int) -> float:
    w = 0.0
    for kind, value in items:
        w += (text_width(value, size) if kind == "text" else 6 if kind == "gap" else size + 4) + 4
    return w


def _draw_items(im, draw, items, x: float, cy: float, size: int, colour: RGB = TEXT) -> float:
    icon = size + 4
    for kind, value in items:
        if kind == "text":
            x += text(draw, (x, cy), value, size, fill=colour, anchor="lm") + 4
        elif kind == "gap":
            x += 10
        elif kind == "tile":
            im.paste(tiles.terrain_tile(value, 0, icon), (round(x), round(cy - icon / 2)))
            x += icon + 4
        else:
            icons.paste(im, value, x, cy - icon / 2, icon, (214, 214, 218) if value == "knight" else None)
            x += icon + 4
    return x


def _draw_board(im, draw, game: Game, layout: TableLayout, names, colours, lang: str = EN) -> None:
    """The builders' board: slots numbered 1..6 in reading order (the engine's slot index + 1; slot 1 lies next to
    the stack and costs most), each with its cost in a coin, the building's name, what it gives and how it scores."""
    assert layout.board is not None
    x0, y0, x1, _ = layout.board
    draw.rounded_rectangle(layout.board, radius=14, fill=PANEL, outline=PANEL_EDGE)
    title = say(lang, "Builders' board", M.PIC_BUILDERS_BOARD)
    text(draw, (x0 + GAP, y0 + TITLE_H / 2), title, SECTION_SIZE, bold=True, fill=MUTED, anchor="lm")
    stack = say_plural(lang, f"{len(game.stack)} buildings in the stack", M.PIC_STACK, len(game.stack))
    text(draw, (x1 - GAP, y0 + TITLE_H / 2), stack, NOTE_SIZE, fill=FAINT, anchor="rm")
    cols = 3
    gx0, gy0 = x0 + GAP, y0 + TITLE_H
    cw = (x1 - x0 - GAP * 2 - (cols - 1) * 10) // cols
    ch = BOARD_CARD_H
    for slot, bid in enumerate(game.board):
        r, c = divmod(slot, cols)
        bx, by = gx0 + c * (cw + 10), gy0 + r * (ch + 10)
        _draw_board_slot(im, draw, game, slot, bid, (bx, by, bx + cw, by + ch), lang)
    _draw_board_footer(im, draw, game, layout.board, names, lang)


def _draw_board_slot(im: Image.Image, draw: Draw, game: Game, slot: int, bid: str | None, box: Box, lang: str) -> None:
    """One slot of the builders' board in `box`: its number, its cost in a coin, and its building (name, what it
    gives, how it scores), or what left it empty (sold, or burned by the dragon)."""
    bx, by, bx1, by1 = box
    cw, ch = bx1 - bx, by1 - by
    dragon = game.dragon_slot == slot
    if bid is None:
        draw.rounded_rectangle(box, radius=10, outline=PANEL_EDGE, width=2,
                               fill=BACKGROUND if not dragon else (58, 30, 30))  # fmt: skip
    else:
        draw.rounded_rectangle(box, radius=10, fill=PANEL_LIGHT, outline=mix(PANEL_EDGE, (255, 255, 255), 0.1))
    _slot_tab(draw, bx, by, slot + 1)
    # Cost: a coin with the price, under the slot number.
    coin = 46
    cy = by + ch - coin / 2 - 8
    icons.paste(im, "coin", bx + 8, cy - coin / 2, coin)
    text(draw, (bx + 8 + coin / 2, cy + 1), str(builders_board_spec().costs[slot]), 24, bold=True, fill=(70, 44, 0),
         anchor="mm")  # fmt: skip
    tx = bx + 8 + coin + 10
    room = bx + cw - tx - 8
    if bid is None:
        mid = by + ch / 2
        if dragon:
            icons.paste(im, "dragon", tx, mid - 26, 52)
            burned = say(lang, "burned", M.PIC_BURNED)
            text(draw, (tx + 58, mid), burned, BOARD_NAME_SIZE, bold=True, fill=(240, 150, 130), anchor="lm")
        else:
            sold = say(lang, "sold this round", M.PIC_SOLD)
            text(draw, (tx, mid), sold, NOTE_SIZE, fill=FAINT, anchor="lm", max_width=room)
        return
    b = building(bid)
    effect, points = building_items(bid, lang)
    name = building_title(lang, b.name, bid)
    rows_items = [items for items in (effect, points) if items]
    size = BOARD_ITEM_SIZE
    for items in rows_items:
        while size > MIN_TEXT and _items_width(items, size) > room:
            size -= 1
    name_size = BOARD_NAME_SIZE
    while name_size > MIN_TEXT and text_width(name, name_size, True) > room:  # 17 fits every English name
        name_size -= 1
    text(draw, (tx, by + 20), name, name_size, bold=True, anchor="lm", max_width=room)
    for i, items in enumerate(rows_items):
        _draw_items(im, draw, items, tx, by + 52 + i * 30, size, MUTED if items is points else TEXT)


def _draw_board_footer(
    im: Image.Image, draw: Draw, game: Game, board: Box, names: Mapping[str, str], lang: str
) -> None:
    """Under the slots of `board`: the dragon (in its cave, or what it burned) and the queen's host."""
    x0, _, x1, y1 = board
    spec = builders_board_spec()
    fy = y1 - BOARD_FOOTER
    draw.line((x0 + GAP, fy - 2, x1 - GAP, fy - 2), fill=PANEL_EDGE)
    icons.paste(im, "dragon", x0 + GAP, fy + 4, 36)
    if game.dragon_slot is None:
        words = say(lang, f"Dragon in its cave: {spec.dragon_bribe} coin burns a building", M.PIC_DRAGON_CAVE)
    else:
        english = f"The dragon flew this round: it burned slot {game.dragon_slot + 1}"
        words = say(lang, english, M.PIC_DRAGON_FLEW, slot=game.dragon_slot + 1)
    text(draw, (x0 + GAP + 44, fy + 22), words, NOTE_SIZE, fill=MUTED, anchor="lm", max_width=x1 - x0 - 80)
    qy = fy + 44
    icons.paste(im, "queen", x0 + GAP, qy, 36)
    if game.queen is None:
        words, fill = say(lang, "Queen: no host yet (most towers)", M.PIC_QUEEN_NO_HOST), MUTED
    else:
        host = " & ".join(names[p] for p in game.kingdoms[game.queen].players)
        english = f"Queen hosted by {host}: builds for {spec.queen_discount} less"
        words, fill = say(lang, english, M.PIC_QUEEN_HOST, host=host), TEXT
    text(draw, (x0 + GAP + 44, qy + 18), words, NOTE_SIZE, fill=fill, anchor="lm", max_width=x1 - x0 - 80)


def _slot_tab(draw: Draw, x: float, y: float, number: int) -> None:
    """The slot's number on a square tab (a square, not a disc, so it is never read as the coin's price)."""
    draw.rounded_rectangle((x + 8, y + 8, x + 8 + 46, y + 8 + 34), radius=6, fill=BACKGROUND, outline=PANEL_EDGE)
    text(draw, (x + 8 + 23, y + 8 + 17), str(number), 22, bold=True, fill=TEXT, anchor="mm")


# -- kingdoms ----------------------------------------------------------------------------------------------------
def _score_in_stats(layout: TableLayout) -> bool:
    """Three kingdoms to a row: the score goes on the stats row, so the names have the header's whole width."""
    return layout.columns >= 3


def _panel_name_room(game: Game, layout: TableLayout) -> float:
    """The width a name gets on a kingdom's header: the same on every kingdom, so names are cut once for the whole
    table (and two cut names never read the same)."""
    x0, _, x1, _ = layout.panels[0]
    room = x1 - x0 - 20 - 12 - 12 - 4
    if not _score_in_stats(layout):
        room -= text_width("888", layout.score_size, True) + text_width("pts", NOTE_SIZE)
        if game.config.deals > 1:
            room -= text_width("match 888", NOTE_SIZE) + 8
    if game.config.teams:
        room -= TEAM_MARK * 1.5 + 8  # the team's mark
    size = 38 if not game.config.teams else 32
    return room - size * 1.45 - 6 - 8


def _draw_panel(
    im, draw, game: Game, index: int, layout: TableLayout, shown, colours, active, score, match, lang: str = EN
) -> None:
    """One kingdom: header (kings, names as `shown`, score), stats, and the grid."""
    x0, y0, x1, _ = layout.panels[index]
    h = layout.header
    k = game.kingdoms[index]
    is_active = active is not None and active in k.players
    _draw_panel_frame(draw, layout.panels[index], h, k.players, colours, active if is_active else None)
    right = _draw_panel_score(draw, layout, index, score, match, lang)
    _draw_panel_names(im, draw, game, index, layout, shown, colours, active if is_active else None, right)
    if is_active:
        tag = say(lang, "TO PLAY", M.PIC_TO_PLAY)
        tw = text_width(tag, MIN_TEXT, True)
        tx0 = x0 + 22
        draw.rounded_rectangle((tx0, y0 - 13, tx0 + tw + 18, y0 + 13), radius=13, fill=colours[active], outline=OUTLINE)
        text(draw, (tx0 + 9 + tw / 2, y0), tag, MIN_TEXT, bold=True, fill=ink_on(colours[active]), anchor="mm")
    _draw_panel_stats(im, draw, game, index, layout, lang)
    draw.line((x0 + 12, y0 + h - 2, x1 - 12, y0 + h - 2), fill=PANEL_EDGE)
    colour = kingdom_colour(game, index, colours)
    draw_kingdom(im, game, index, layout.grids[index], colour, lang=lang, codes=dict(layout.codes), least=MIN_TEXT)


def _draw_panel_frame(
    draw: Draw, box: Box, h: int, players: tuple[str, ...], colours: Mapping[str, RGB], active: str | None
) -> None:
    """The kingdom's card (glowing in the colour of `active`, the player to act, when one of its own) and its colour
    (both colours for a team) as a strip down the left edge of the header, `h` high."""
    x0, y0, x1, y1 = box
    if active is not None:
        ac = colours[active]
        for i in range(6, 0, -1):
            draw.rounded_rectangle((x0 - i, y0 - i, x1 + i, y1 + i), radius=14 + i,
                                   outline=mix(BACKGROUND, ac, 0.9 - i * 0.13), width=1)  # fmt: skip
        draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=ac, width=4)
    else:
        draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=PANEL_EDGE, width=1)
    strip_h = (h - 20) / len(players)
    for i, p in enumerate(players):
        draw.rounded_rectangle((x0 + 8, y0 + 12 + i * strip_h, x0 + 14, y0 + 12 + (i + 1) * strip_h - 2), radius=3,
                               fill=colours[p])  # fmt: skip


def _draw_panel_score(draw: Draw, layout: TableLayout, index: int, score: int, match: int | None, lang: str) -> float:
    """The score, right-aligned: in the header, or on the stats row when three kingdoms share a row. Returns where
    the header's names must end."""
    _, y0, x1, _ = layout.panels[index]
    h = layout.header
    right = x1 - 12
    cy = y0 + h / 2 + 2
    in_stats = _score_in_stats(layout)
    base = y0 + h + STATS_H / 2 + 8 if in_stats else cy + 12
    score_right = right
    if match is not None:
        words = say(lang, f"match {match}", M.PIC_MATCH, points=match)
        score_right -= text(draw, (score_right, base), words, NOTE_SIZE, fill=MUTED, anchor="rs") + 8
    score_right -= text(draw, (score_right, base), say(lang, "pts", M.PIC_PTS), NOTE_SIZE, fill=MUTED, anchor="rs") + 4
    size = layout.score_size if not in_stats else 26
    score_right -= text(draw, (score_right, base), str(score), size, bold=True, anchor="rs") + 12
    return right if in_stats else score_right


def _draw_panel_names(
    im: Image.Image,
    draw: Draw,
    game: Game,
    index: int,
    layout: TableLayout,
    shown: Mapping[str, str],
    colours: Mapping[str, RGB],
    active: str | None,
    right: float,
) -> None:
    """Names (as `shown`, ending by `right`) with their kings (and the team's mark), a team's players on two lines;
    in a team, the player to act (`active`) underlined."""
    x0, y0, _, _ = layout.panels[index]
    h = layout.header
    players = game.kingdoms[index].players
    cy = y0 + h / 2 + 2
    x = x0 + 20
    letter = team_letter(game, index)
    if letter is not None:
        x += team_mark(im, draw, x, cy, TEAM_MARK, letter, colours[players[0]], colours[players[-1]]) + 8
    size = 38 if len(players) == 1 else 32
    line_h = (h - 8) / len(players)
    for i, p in enumerate(players):
        ly = y0 + 6 + line_h * (i + 0.5)
        kw = king_token(im, draw, x, ly - size / 2 - 2, size, colours[p], seat_of(game, p))
        nx = x + kw + 6
        w = text(draw, (nx, ly), shown[p], layout.name_size, bold=True, anchor="lm", max_width=right - nx - 8)
        if active is not None and p == active and len(players) > 1:
            draw.line((nx, ly + 14, nx + w, ly + 14), fill=colours[p], width=3)


def _draw_panel_stats(im: Image.Image, draw: Draw, game: Game, index: int, layout: TableLayout, lang: str) -> None:
    """Stats: coins, knights in reserve, towers, the queen (Queendomino rules); crowns and largest territory
    otherwise."""
    x0, y0, x1, _ = layout.panels[index]
    sx = x0 + 20
    sy = y0 + layout.header + STATS_H / 2 - 4
    compact = x1 - x0 < 400
    for kind, value, caption in _stats(game, index, lang):
        icons.paste(im, kind, sx, sy - 14, 28, (214, 214, 218) if kind == "knight" else None)
        sx += 32
        if value:
            sx += text(draw, (sx, sy), value, STAT_SIZE, bold=True, anchor="lm") + 5
        reserve = say(lang, "in reserve", M.PIC_CAPTIONS["in reserve"])
        host = say(lang, "host", M.PIC_CAPTIONS["host"], context="queen")
        short = {"coin": "", "tower": "", "knight": "" if compact else reserve, "queen": "" if compact else host}.get(
            kind, caption
        )
        if compact and kind == "star":
            short = say(lang, "largest", M.PIC_COLUMNS["largest"])
        if short:
            sx += text(draw, (sx, sy + 1), short, NOTE_SIZE, fill=MUTED, anchor="lm") + 4
        sx += 16


def _draw_legend(im: Image.Image, draw: Draw, layout: TableLayout, lang: str) -> None:
    """The buildings drawn by their code on the kingdoms, each with its name."""
    from .palette import BUILDING_INK, BUILDING_PLATE

    assert layout.legend is not None
    x0, y0, x1, _ = layout.legend
    draw.rounded_rectangle(layout.legend, radius=14, fill=PANEL, outline=PANEL_EDGE)
    codes = dict(layout.codes)
    rows = _legend_rows(list(layout.coded), codes, lang, x1 - x0 - 2 * 12)
    title = say(lang, "Buildings", M.PIC_COLUMNS["buildings"]) + ":"
    x = x0 + 12 + text(draw, (x0 + 12, y0 + 8 + LEGEND_ROW / 2), title, NOTE_SIZE, bold=True, fill=MUTED, anchor="lm")
    x += 12
    for r, row in enumerate(rows):
        cy = y0 + 8 + LEGEND_ROW * (r + 0.5)
        if r:
            x = x0 + 12
        for bid in row:
            code = codes[bid]
            cw = text_width(code, NOTE_SIZE, True) + 16
            draw.rounded_rectangle((x, cy - 14, x + cw, cy + 14), radius=5, fill=BUILDING_PLATE)
            text(draw, (x + cw / 2, cy), code, NOTE_SIZE, bold=True, fill=BUILDING_INK, anchor="mm")
            name = building_title(lang, building(bid).name, bid)
            x += cw + 6 + text(draw, (x + cw + 6, cy), name, NOTE_SIZE, fill=TEXT, anchor="lm") + 22


def _stats(game: Game, index: int, lang: str = EN) -> list[tuple[str, str, str]]:
    def caption(english: str) -> str:
        return say(lang, english, M.PIC_CAPTIONS[english])

    k = game.kingdoms[index]
    if game.queendomino_rules:
        items = [
            ("coin", str(k.coins), caption("coins")),
            ("knight", str(k.knights_reserve), caption("in reserve")),
            ("tower", str(k.towers), caption("towers")),
        ]
        if game.queen == index:
            items.append(("queen", "", caption("queen's host")))
        return items
    territories = k.territories()
    crowns = sum(t.crowns for t in territories)
    largest = max((t.size for t in territories), default=0)
    crowns_word = say_plural(lang, "crowns", M.PIC_CROWNS_CAPTION, crowns)  # "1 crown", "2 crowns"
    return [("crown", str(crowns), crowns_word), ("star", str(largest), caption("largest area"))]


# -- the picture -------------------------------------------------------------------------------------------------
def _draw(game: Game, names, colours, active, lang: str, part: str) -> bytes:
    layout = table_layout(game, part, lang)
    im = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    draw = Draw(im)
    if part == "kingdoms":
        _draw_title_bar(im, draw, game, layout, lang)
    else:
        _draw_header(im, draw, game, layout, names, colours, lang)
        _draw_lines(im, draw, game, layout, names, colours, lang)
        if layout.board is not None:
            _draw_board(im, draw, game, layout, names, colours, lang)
    if part != "top":
        scores = [s.total for s in game.scores()]
        match = game.match_totals() if game.config.deals > 1 and game.deal_totals else None
        shown = fit_names(names, layout.name_size, _panel_name_room(game, layout))
        for i in range(len(game.kingdoms)):
            _draw_panel(im, draw, game, i, layout, shown, colours, active, scores[i], match[i] if match else None, lang)
        if layout.legend is not None:
            _draw_legend(im, draw, layout, lang)
    return encode(im)


def render_table(
    game: Game,
    names: Mapping[str, str] | None,
    colours: Mapping[str, RGB] | None = None,
    active: str | None = None,
    *,
    lang: str = "en",
    part: str = "all",
) -> bytes:
    """The whole table as PNG bytes, 1000 pixels wide: header with round and phase, both lines, the builders' board
    (Queendomino rules), and every kingdom with its name(s), seat badge, colour and score; `active`'s kingdom is
    highlighted. `part`: "all", or "top" / "kingdoms" for the two pictures of a table that `splits`."""
    names = player_names(game, names, lang)
    colours = player_colours(game, colours)
    return _draw(game, names, colours, active, picture_lang(lang), part)


def render_table_pictures(
    game: Game,
    names: Mapping[str, str] | None,
    colours: Mapping[str, RGB] | None = None,
    active: str | None = None,
    *,
    lang: str = "en",
) -> list[bytes]:
    """The table as the pictures to post: one, or two (the lines and the board, then the kingdoms) for a table that
    `splits`, each at most about twice as tall as wide."""
    if not splits(game):
        return [render_table(game, names, colours, active, lang=lang)]
    return [render_table(game, names, colours, active, lang=lang, part=p) for p in ("top", "kingdoms")]
