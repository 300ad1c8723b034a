"""The table after every move: header, the current and next line, the builders' board, and every kingdom."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image

from engine import BUILD, CLAIM, DRAGON, FIRST_CLAIM, PLACE, TAX, Game, domino
from engine.components import builders_board_spec, building

from . import icons, tiles
from .draw import Box, Draw, encode, kingdom_colour, player_colours, player_names, text, text_width
from .kingdom import GridLayout, draw_kingdom, grid_layout
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

GAP = 16
HEADER_H = 118
TITLE_H = 34  # a section's title inside its panel
PANEL_HEADER = 50
BOARD_FOOTER = 84
SIDE_W = 104  # the stats column beside a kingdom's grid (up to 3 columns of kingdoms)
STATS_H = 34  # the stats row under a kingdom's name (4 columns of kingdoms)
GAME_TITLES = {"kingdomino": "Kingdomino", "queendomino": "Queendomino", "royal-wedding": "Royal Wedding"}


@dataclass(frozen=True)
class TableLayout:
    """Where everything goes on the table picture; `cell_box` finds a kingdom's cell for tests and tools."""

    width: int
    height: int
    columns: int  # kingdoms per row
    entry: int  # height of one domino entry in the lines
    tile: int  # square size in the lines
    lines: Box
    board: Box | None
    panels: tuple[Box, ...]
    grids: tuple[GridLayout, ...]
    side: bool  # stats in a column beside the grid (else in a row under the name)

    def cell_box(self, kingdom_index: int, row: int, col: int) -> Box:
        return self.grids[kingdom_index].cell_box(row, col)


def _columns(n: int) -> int:
    return {1: 1, 2: 2, 3: 3, 4: 2, 5: 3, 6: 3}.get(n, 4)


def table_layout(game: Game) -> TableLayout:
    """The table's geometry for `game` (independent of names, colours and who is active)."""
    n = len(game.kingdoms)
    cols = _columns(n)
    line_size = game.setup.line_size
    entry = 58 if line_size <= 4 else 48
    tile = entry - 10
    qd = game.queendomino_rules
    # Middle band: the lines (two columns of entries) and, for Queendomino rules, the builders' board.
    entry_w = _entry_width(entry, tile)
    lines_w = 2 * entry_w + 3 * GAP
    board_w = 500 if qd else 0
    panel_w = {1: 600, 2: 560, 3: 430, 4: 350}[cols]
    width = max(cols * panel_w + (cols + 1) * GAP, lines_w + board_w + (3 if qd else 2) * GAP)
    panel_w = (width - (cols + 1) * GAP) // cols
    band_h = TITLE_H + line_size * (entry + 6) + 10
    if qd:
        band_h = max(band_h, TITLE_H + 3 * 74 + 2 * 8 + BOARD_FOOTER + 6)
    y = HEADER_H
    if qd:
        lines = (GAP, y, GAP + lines_w, y + band_h)
        board: Box | None = (lines[2] + GAP, y, width - GAP, y + band_h)
    else:
        x0 = (width - lines_w) // 2
        lines, board = (x0, y, x0 + lines_w, y + band_h), None
    y += band_h + GAP
    side = cols <= 3
    grid_h = {1: 520, 2: 440, 3: 380, 4: 300}[cols]
    panel_h = PANEL_HEADER + (0 if side else STATS_H) + grid_h + 12
    panels, grids = [], []
    for i, k in enumerate(game.kingdoms):
        r, c = divmod(i, cols)
        x0 = GAP + c * (panel_w + GAP)
        y0 = y + r * (panel_h + GAP)
        panels.append((x0, y0, x0 + panel_w, y0 + panel_h))
        gy0 = y0 + PANEL_HEADER + (0 if side else STATS_H)
        gx1 = x0 + panel_w - (SIDE_W if side else 8)
        label = 15 if cols <= 3 else 13
        grids.append(grid_layout(k.frame(), (x0 + 4, gy0, gx1, gy0 + grid_h), label_size=label, max_cell=96))
    rows = (n + cols - 1) // cols
    height = y + rows * (panel_h + GAP)
    return TableLayout(width, height, cols, entry, tile, lines, board, tuple(panels), tuple(grids), side)


def _entry_width(entry: int, tile: int) -> int:
    return 54 + 2 * tile + 12 + (entry - 16) + 8 + 124


# -- header ------------------------------------------------------------------------------------------------------
def _status(game: Game, names: Mapping[str, str]) -> tuple[str | None, str]:
    """(player to act, what they do) in words."""
    d = game.decision()
    if d is None:
        r = game.result()
        who = " & ".join(names[p] for p in r.winners)
        verb = "win" if len(r.winners) > 1 else "wins"
        how = f", by the {r.tiebreak} tie-break" if r.tiebreak and r.tiebreak != "shared" else ""
        return None, f"Game over: {who} {verb} with {r.totals[r.order[0]]} points{how}"
    n = names[d.player]
    words = {
        FIRST_CLAIM: f"{n} chooses a domino of the first line",
        PLACE: f"{n} places domino {d.domino}",
        TAX: f"{n} may send knights to collect tax",
        BUILD: f"{n} may build",
        DRAGON: f"{n} may bribe the dragon",
        CLAIM: f"{n} chooses a domino of the next line",
    }
    return d.player, words.get(d.kind, f"{n}: {d.words}")


def _draw_header(im: Image.Image, draw: Draw, game: Game, layout: TableLayout, names, colours) -> None:
    w = layout.width
    draw.rectangle((0, 0, w, 56), fill=PANEL)
    draw.line((0, 56, w, 56), fill=PANEL_EDGE, width=2)
    icons.paste(im, "crown", GAP, 8, 40)
    x = GAP + 50
    x += text(draw, (x, 29), GAME_TITLES[game.config.game], 30, bold=True, anchor="lm") + 14
    cfg = game.config
    bits = [f"{len(cfg.players)} players" + (f" in {len(cfg.teams)} teams" if cfg.teams else "")]
    bits += [v.replace("-", " ") for v in sorted(cfg.variants)]
    if cfg.deals > 1:
        bits.insert(0, f"game {game.deal + 1} of {cfg.deals}")
    if game.is_over:
        round_text = "Final"
    elif game.round == 0:
        round_text = "Set-up: first line"
    else:
        round_text = f"Round {game.round} of {game.setup.rounds}" + (" · last round" if game.is_last_round else "")
    right = w - GAP - text(draw, (w - GAP, 29), round_text, 24, bold=True, fill=GOLD, anchor="rm") - 24
    text(draw, (x, 31), " · ".join(bits), 18, fill=MUTED, anchor="lm", max_width=right - x)

    # The status bar: who acts and what they do, with their king and colour.
    player, words = _status(game, names)
    colour = colours[player] if player else GOLD
    box = (GAP, 66, w - GAP, HEADER_H - 8)
    draw.rounded_rectangle(box, radius=12, fill=mix(colour, BACKGROUND, 0.78), outline=colour, width=2)
    cy = (box[1] + box[3]) / 2
    tx = GAP + 16
    if player:
        icons.paste(im, "king", GAP + 10, cy - 19, 38, colour)
        tx = GAP + 56
    else:
        icons.paste(im, "crown", GAP + 10, cy - 17, 34)
        tx = GAP + 54
    text(draw, (tx, cy), words, 22, bold=True, anchor="lm", max_width=w - GAP - tx - 16)


# -- the lines ---------------------------------------------------------------------------------------------------
def _badge(draw: Draw, box: Box, domino_id: str, royal: bool) -> None:
    x0, y0, x1, y1 = box
    fill = BOX_COLOURS[domino_id[0]] if royal else PANEL_LIGHT
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=mix(fill, (255, 255, 255), 0.25))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if royal:  # the box's letter too: numbers repeat across the two boxes
        text(draw, (cx, cy), domino_id, 19, bold=True, anchor="mm")
    else:
        text(draw, (cx, cy), domino_id[1:], 22, bold=True, anchor="mm")


def _draw_line(
    im: Image.Image,
    draw: Draw,
    game: Game,
    layout: TableLayout,
    x0: int,
    y0: int,
    line: list[list],
    title: str,
    empty: str,
    names: Mapping[str, str],
    colours: Mapping[str, RGB],
    *,
    current: bool,
) -> None:
    entry, tile = layout.entry, layout.tile
    width = _entry_width(entry, tile)
    text(draw, (x0 + 4, y0 + TITLE_H / 2), title, 19, bold=True, fill=MUTED, anchor="lm")
    y = y0 + TITLE_H
    if not line:
        draw.rounded_rectangle((x0, y, x0 + width, y + entry), radius=10, outline=PANEL_EDGE, width=2)
        text(draw, (x0 + width / 2, y + entry / 2), empty, 17, fill=FAINT, anchor="mm", max_width=width - 20)
        return
    d = game.decision()
    royal = game.config.game == "royal-wedding"
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
        _badge(draw, (x0 + 6, y + 5, x0 + 54, y + entry - 5), domino_id, royal)
        dom = domino(domino_id)
        tx = x0 + 62
        ty = y + (entry - tile) // 2
        for sq in dom.squares:
            im.paste(tiles.terrain_tile(sq.terrain, sq.crowns, tile), (tx, ty))
            tx += tile
        draw.rectangle((x0 + 62, ty, tx - 1, ty + tile - 1), outline=OUTLINE, width=2)
        kx = tx + 12
        end = x0 + width - 8
        if done:
            veil = Image.new("RGBA", (kx - x0, entry + 1), (*BACKGROUND, 150))
            im.paste(veil, (x0, y), veil)
            end -= text(draw, (end, y + entry / 2), "placed", 14, fill=MUTED, anchor="rm") + 6
        if king is not None:
            size = entry - 16
            icons.paste(im, "king", kx, y + 7, size, colours[king.player])
            text(
                draw,
                (kx + size + 8, y + entry / 2),
                names[king.player],
                18,
                bold=acting,
                fill=MUTED if done else TEXT,
                anchor="lm",
                max_width=end - (kx + size + 8),
            )
        else:
            text(draw, (kx + 6, y + entry / 2), "free", 17, fill=FAINT, anchor="lm")
        y += entry + 6


def _draw_lines(im, draw, game: Game, layout: TableLayout, names, colours) -> None:
    x0, y0, _x1, _y1 = layout.lines
    draw.rounded_rectangle(layout.lines, radius=14, fill=PANEL, outline=PANEL_EDGE)
    entry_w = _entry_width(layout.entry, layout.tile)
    left = x0 + GAP
    right = left + entry_w + GAP
    over = game.is_over
    if over:
        _draw_ranking(im, draw, game, layout, names, colours)
        return
    if game.round == 0:
        _draw_line(
            im,
            draw,
            game,
            layout,
            left,
            y0,
            game.current_line,
            "First line: claim a domino",
            "",
            names,
            colours,
            current=True,
        )
        _draw_line(
            im,
            draw,
            game,
            layout,
            right,
            y0,
            [],
            "Next line",
            "Drawn once every king is placed",
            names,
            colours,
            current=False,
        )
        return
    now = f"This round ({game.round})"
    _draw_line(
        im, draw, game, layout, left, y0, game.current_line, now, "No dominoes left", names, colours, current=True
    )
    nxt = f"Next round ({game.round + 1})" if game.next_line else "Next round"
    _draw_line(
        im,
        draw,
        game,
        layout,
        right,
        y0,
        game.next_line,
        nxt,
        "Last round: no next line",
        names,
        colours,
        current=False,
    )


def _draw_ranking(im, draw, game: Game, layout: TableLayout, names, colours) -> None:
    """At the end, the lines' place shows the final ranking."""
    x0, y0, _, _ = layout.lines
    result = game.result()
    entry = layout.entry
    width = _entry_width(layout.entry, layout.tile)
    per_column = max(1, (len(result.order) + 1) // 2) if len(result.order) > 4 else len(result.order)
    text(draw, (x0 + GAP + 4, y0 + TITLE_H / 2), "Final ranking", 19, bold=True, fill=MUTED, anchor="lm")
    for rank, i in enumerate(result.order, start=1):
        col, row = divmod(rank - 1, per_column)
        bx = x0 + GAP + col * (width + GAP)
        by = y0 + TITLE_H + row * (entry + 6)
        winner = i in result.winner_kingdoms
        draw.rounded_rectangle(
            (bx, by, bx + width, by + entry),
            radius=10,
            fill=WINNER_ROW if winner else PANEL_LIGHT,
            outline=GOLD if winner else PANEL_EDGE,
            width=2 if winner else 1,
        )
        cy = by + entry / 2
        if winner:
            icons.paste(im, "crown", bx + 10, cy - 16, 32)
        else:
            text(draw, (bx + 26, cy), str(rank), 22, bold=True, fill=MUTED, anchor="mm")
        score_w = text(
            draw,
            (bx + width - 12, cy),
            str(result.totals[i]),
            24,
            bold=True,
            fill=GOLD if winner else TEXT,
            anchor="rm",
        )
        players = game.kingdoms[i].players
        x = bx + 50
        room = (bx + width - 24 - score_w - x) / len(players)
        for p in players:
            size = entry - 20
            icons.paste(im, "king", x, cy - size / 2, size, colours[p])
            text(draw, (x + size + 6, cy), names[p], 18, bold=True, anchor="lm", max_width=room - size - 10)
            x += room


# -- the builders' board -----------------------------------------------------------------------------------------
def building_items(building_id: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
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
    if b.coins_per_knight_on_tax:
        effect += [("text", "tax"), ("icon", "coin"), ("text", f"+{b.coins_per_knight_on_tax}/"), ("icon", "knight")]
    if b.coins_per_tower_on_tax:
        effect += [("text", "tax"), ("icon", "coin"), ("text", f"+{b.coins_per_tower_on_tax}/"), ("icon", "tower")]
    points: list[tuple[str, str]] = []
    unit = "pt" if b.points == 1 else "pts"
    if b.scoring == "fixed":
        points = [("icon", "star"), ("text", f"{b.points} {unit}")]
    elif b.scoring == "per_territory":
        points = [
            ("icon", "star"),
            ("text", f"{b.points} {unit} per"),
            ("tile", b.scoring_terrain or "town"),
            ("text", "area"),
        ]
    elif b.scoring == "per_tower":
        points = [("icon", "star"), ("text", f"{b.points} {unit} per"), ("icon", "tower")]
    elif b.scoring == "per_knight":
        points = [("icon", "star"), ("text", f"{b.points} {unit} per"), ("icon", "knight")]
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


def _draw_board(im, draw, game: Game, layout: TableLayout, names, colours) -> None:
    assert layout.board is not None
    x0, y0, x1, y1 = layout.board
    draw.rounded_rectangle(layout.board, radius=14, fill=PANEL, outline=PANEL_EDGE)
    text(draw, (x0 + GAP, y0 + TITLE_H / 2), "Builders' board", 19, bold=True, fill=MUTED, anchor="lm")
    text(draw, (x1 - GAP, y0 + TITLE_H / 2), f"{len(game.stack)} buildings in the stack", 16, fill=FAINT, anchor="rm")
    spec = builders_board_spec()
    slots = len(game.board)
    cols = 3 if x1 - x0 >= 680 else 2
    rows = (slots + cols - 1) // cols
    footer = BOARD_FOOTER
    gx0, gy0 = x0 + GAP, y0 + TITLE_H
    cw = (x1 - x0 - GAP * 2 - (cols - 1) * 10) // cols
    ch = (y1 - footer - gy0 - (rows - 1) * 8) // rows
    for slot, bid in enumerate(game.board):
        r, c = divmod(slot, cols)
        bx, by = gx0 + c * (cw + 10), gy0 + r * (ch + 8)
        box = (bx, by, bx + cw, by + ch)
        cost = spec.costs[slot]
        dragon = game.dragon_slot == slot
        if bid is None:
            draw.rounded_rectangle(
                box, radius=10, outline=PANEL_EDGE, width=2, fill=BACKGROUND if not dragon else (58, 30, 30)
            )
        else:
            draw.rounded_rectangle(box, radius=10, fill=PANEL_LIGHT, outline=mix(PANEL_EDGE, (255, 255, 255), 0.1))
        # Cost: a coin with the price.
        coin = min(48, ch - 20)
        cy = by + ch / 2
        icons.paste(im, "coin", bx + 8, cy - coin / 2, coin)
        text(draw, (bx + 8 + coin / 2, cy + 1), str(cost), round(coin * 0.5), bold=True, fill=(70, 44, 0), anchor="mm")
        tx = bx + 8 + coin + 10
        room = bx + cw - tx - 8
        if bid is None:
            if dragon:
                icons.paste(im, "dragon", tx, cy - 26, 52)
                text(draw, (tx + 58, cy), "burned", 17, bold=True, fill=(240, 150, 130), anchor="lm")
            else:
                text(draw, (tx, cy), "sold this round", 16, fill=FAINT, anchor="lm", max_width=room)
            continue
        b = building(bid)
        effect, points = building_items(bid)
        roomy = ch >= 110
        size = 18 if roomy else 15
        both = [*effect, ("gap", ""), *points] if effect and points else effect or points
        if _items_width(both, size) <= room and ch < 90:
            rows_items = [both]
        else:
            rows_items = [items for items in (effect, points) if items]
        for items in rows_items:
            while size > 11 and _items_width(items, size) > room:
                size -= 1
        step = 30 if roomy else 24
        block = 22 + step * len(rows_items)
        ty = by + (ch - block) / 2
        name_size = 21 if roomy else 17
        while name_size > 13 and text_width(b.name, name_size, True) > room:
            name_size -= 1
        text(draw, (tx, ty + 10), b.name, name_size, bold=True, anchor="lm", max_width=room)
        for i, items in enumerate(rows_items):
            _draw_items(im, draw, items, tx, ty + 22 + step / 2 + i * step, size, MUTED if items is points else TEXT)
    # Footer: the dragon and the queen.
    fy = y1 - footer + 6
    draw.line((x0 + GAP, fy - 4, x1 - GAP, fy - 4), fill=PANEL_EDGE)
    if game.dragon_slot is None:
        icons.paste(im, "dragon", x0 + GAP, fy, 36)
        text(
            draw,
            (x0 + GAP + 44, fy + 18),
            f"Dragon in its cave: {spec.dragon_bribe} coin burns a building",
            16,
            fill=MUTED,
            anchor="lm",
            max_width=x1 - x0 - 80,
        )
    else:
        icons.paste(im, "dragon", x0 + GAP, fy, 36)
        text(
            draw,
            (x0 + GAP + 44, fy + 18),
            f"The dragon flew this round (slot {game.dragon_slot + 1})",
            16,
            fill=MUTED,
            anchor="lm",
            max_width=x1 - x0 - 80,
        )
    qy = fy + 38
    icons.paste(im, "queen", x0 + GAP, qy, 36)
    if game.queen is None:
        words = "Queen: no host yet (most towers)"
        fill = MUTED
    else:
        host = " & ".join(names[p] for p in game.kingdoms[game.queen].players)
        words = f"Queen hosted by {host}: builds for {spec.queen_discount} less"
        fill = TEXT
    text(draw, (x0 + GAP + 44, qy + 18), words, 16, fill=fill, anchor="lm", max_width=x1 - x0 - 80)


# -- kingdoms ----------------------------------------------------------------------------------------------------
def _draw_panel(im, draw, game: Game, index: int, layout: TableLayout, names, colours, active, score, match) -> None:
    box = layout.panels[index]
    x0, y0, x1, y1 = box
    k = game.kingdoms[index]
    colour = kingdom_colour(game, index, colours)
    is_active = active is not None and active in k.players
    if is_active:
        ac = colours[active]
        for i in range(6, 0, -1):
            draw.rounded_rectangle(
                (x0 - i, y0 - i, x1 + i, y1 + i), radius=14 + i, outline=mix(BACKGROUND, ac, 0.9 - i * 0.13), width=1
            )
        draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=ac, width=4)
    else:
        draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=PANEL_EDGE, width=1)
    # The kingdom's colour as a strip down the left edge of the header.
    draw.rounded_rectangle((x0 + 10, y0 + 12, x0 + 16, y0 + PANEL_HEADER - 6), radius=3, fill=colour)

    # Score, right-aligned.
    right = x1 - 14
    cy = y0 + PANEL_HEADER / 2 + 3
    if match is not None:
        right -= text(draw, (right, cy + 9), f"match {match}", 14, fill=MUTED, anchor="rs") + 8
    right -= text(draw, (right, cy + 9), "pts", 15, fill=MUTED, anchor="rs") + 5
    right -= text(draw, (right, cy + 9), str(score), 30, bold=True, anchor="rs") + 14
    # Names with their kings.
    x = x0 + 24
    players = k.players
    room = right - x
    each = room / len(players)
    for p in players:
        pc = colours[p]
        size = 34
        icons.paste(im, "king", x, cy - size / 2 - 2, size, pc)
        bold = True
        nx = x + size + 4
        w = text(
            draw,
            (nx, cy),
            names[p],
            21 if len(players) == 1 else 18,
            bold=bold,
            anchor="lm",
            max_width=each - size - 14,
        )
        if is_active and p == active and len(players) > 1:
            draw.line((nx, cy + 14, nx + w, cy + 14), fill=pc, width=3)
        x += each
    if is_active:
        tag = "TO PLAY"
        tw = text_width(tag, 13, True)
        tx0 = x0 + 24
        draw.rounded_rectangle((tx0, y0 - 11, tx0 + tw + 18, y0 + 11), radius=11, fill=colours[active], outline=OUTLINE)
        text(draw, (tx0 + 9 + tw / 2, y0), tag, 13, bold=True, fill=ink_on(colours[active]), anchor="mm")

    grid = layout.grids[index]
    draw_kingdom(im, game, index, grid, colour)

    # Stats: coins, knights in reserve, towers, the queen (Queendomino rules); crowns and largest territory otherwise.
    items = _stats(game, index)
    if layout.side:
        sx = x1 - SIDE_W + 8
        sy = y0 + PANEL_HEADER + 20
        for kind, value, caption in items:
            icons.paste(im, kind, sx, sy, 30, (214, 214, 218) if kind == "knight" else None)
            text(draw, (sx + 36, sy + 15), value, 22, bold=True, anchor="lm")
            text(draw, (sx, sy + 40), caption, 13, fill=MUTED, anchor="lm", max_width=SIDE_W - 12)
            sy += 66
    else:
        sx = x0 + 22
        sy = y0 + PANEL_HEADER + STATS_H / 2 - 4
        for kind, value, caption in items:
            icons.paste(im, kind, sx, sy - 12, 24, (214, 214, 218) if kind == "knight" else None)
            sx += 28
            if value:
                sx += text(draw, (sx, sy), value, 18, bold=True, anchor="lm") + 4
            short = {"coin": "", "tower": "", "knight": "reserve", "queen": "host"}.get(kind, caption)
            if short:
                sx += text(draw, (sx, sy + 1), short, 13, fill=MUTED, anchor="lm") + 4
            sx += 12


def _stats(game: Game, index: int) -> list[tuple[str, str, str]]:
    k = game.kingdoms[index]
    if game.queendomino_rules:
        items = [
            ("coin", str(k.coins), "coins"),
            ("knight", str(k.knights_reserve), "in reserve"),
            ("tower", str(k.towers), "towers"),
        ]
        if game.queen == index:
            items.append(("queen", "", "queen's host"))
        return items
    territories = k.territories()
    crowns = sum(t.crowns for t in territories)
    largest = max((t.size for t in territories), default=0)
    return [("crown", str(crowns), "crowns"), ("star", str(largest), "largest area")]


# -- the picture -------------------------------------------------------------------------------------------------
def render_table(
    game: Game,
    names: Mapping[str, str] | None,
    colours: Mapping[str, RGB] | None = None,
    active: str | None = None,
) -> bytes:
    """The whole table as PNG bytes: header with round and phase, both lines, the builders' board (Queendomino
    rules), and every kingdom with its name(s), colour and score; `active`'s kingdom is highlighted."""
    names = player_names(game, names)
    colours = player_colours(game, colours)
    layout = table_layout(game)
    im = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    draw = Draw(im)
    _draw_header(im, draw, game, layout, names, colours)
    _draw_lines(im, draw, game, layout, names, colours)
    if layout.board is not None:
        _draw_board(im, draw, game, layout, names, colours)
    scores = [s.total for s in game.scores()]
    match = game.match_totals() if game.config.deals > 1 and game.deal_totals else None
    for i in range(len(game.kingdoms)):
        _draw_panel(im, draw, game, i, layout, names, colours, active, scores[i], match[i] if match else None)
    return encode(im)
