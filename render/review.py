"""The post-game review as a picture, 780 pixels wide (a phone shows it at full size): for one player, each of their
costliest decisions (engine/ai/review.py) as a row: the round and the points it cost on average, then the position
at that moment twice, side by side: on the left the move they made, on the right the one the `hard` computer player
would have made. A placement shows the kingdom with the domino in place; a claim, the line of dominoes with the one
chosen outlined; a knight's tax or a building, the kingdom with those cells outlined. The two sides are told apart
by their titles and the words under them (colour carries no meaning of its own).

    png = render_review(config, seed, log, review, player, names, colours, lang="cs")   # review: Review.to_dict()

`action_words(game, action, lang)` is the move in words, as the picture and the text say it."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from engine import DRAGON, Game, GameConfig, action_from_dict, cell_name, domino
from engine.actions import Action, BribeDragon, Build, Claim, Place, Skip, Tax
from engine.ai.review import Review, ReviewItem
from engine.components import building
from i18n import format_number, translate, translate_plural
from i18n import messages as M

from . import icons, tiles
from .draw import Box, Draw, encode, kingdom_colour, player_colours, player_names, text, text_width
from .kingdom import (
    GridLayout,
    building_fits,
    draw_kingdom,
    game_building_codes,
    grid_at,
    icons_above,
    label_margin,
    marked_cells,
    queen_cell,
    window,
)
from .palette import BACKGROUND, BOX_COLOURS, GOLD, MUTED, OUTLINE, PANEL, PANEL_EDGE, PANEL_LIGHT, PREVIEW, RGB, TEXT
from .panels import _head, offer_line
from .words import building_title, direction_word, domino_label, picture_lang

WIDTH = 780
PAD = 16
HEAD = 64
GAP = 16
COLUMN = (WIDTH - 2 * PAD - GAP) // 2
TITLE = 56  # a decision's heading: its number, round and cost
CAPTION = 64  # above each side: whose move, and the move in words
MAX_CELL = 52
LABEL = 14
ITEMS = 3


def action_words(game: Game, action: Action, lang: str = "en") -> str:
    """The move `action` at `game`'s decision, in words: "domino 23 on C4, right", "claim domino 17", ..."""
    d = game.decision()
    kind = game.config.game
    if isinstance(action, Place):
        assert d is not None and d.domino is not None
        return translate(
            lang,
            M.REVIEW_PLACE,
            domino=domino_label(kind, d.domino),
            cell=cell_name(action.row, action.col),
            direction=direction_word(lang, action.direction),
        )
    if isinstance(action, Claim):
        return translate(lang, M.REVIEW_CLAIM, domino=domino_label(kind, action.domino))
    if isinstance(action, Tax):
        cells = [cell_name(r, c) for r, c in action.cells]
        return translate_plural(lang, *M.REVIEW_TAX, len(cells), cells=" + ".join(cells))
    if isinstance(action, Build):
        bid = game.board[action.slot] or ""
        name = building_title(lang, _building_name(bid), bid)
        return translate(lang, M.REVIEW_BUILD, building=name, cell=cell_name(action.row, action.col))
    if isinstance(action, BribeDragon):
        bid = game.board[action.slot] or ""
        return translate(lang, M.REVIEW_DRAGON, building=building_title(lang, _building_name(bid), bid))
    assert isinstance(action, Skip)
    return translate(lang, M.REVIEW_SKIP.get(d.kind if d else "", M.REVIEW_SKIP["tax"]))


def _building_name(building_id: str) -> str:
    return building(building_id).name if building_id else "?"


def round_words(lang: str, number: int) -> str:
    """When a decision was made: "Round 4"; the first claims (round 0): "Set-up"."""
    return translate(lang, M.REVIEW_ROUND, round=number) if number else translate(lang, M.REVIEW_SETUP)


def points_words(lang: str, points: float) -> str:
    """The points a decision cost, like "3.2 points", in `lang` (always one decimal: the form a decimal takes)."""
    return translate(lang, M.REVIEW_POINTS, points=format_number(lang, points, decimals=1))


def render_review(
    config: dict,
    seed: int,
    log: list,
    review: dict,
    player: str,
    names: Mapping[str, str] | None,
    colours: Mapping[str, RGB] | None,
    *,
    lang: str = "en",
    count: int = ITEMS,
) -> bytes:
    """`player`'s `count` costliest decisions of the game (given as data: its config's dict, seed and log of (player,
    action dict) pairs, and its review's dict), each beside the move hard would have made. Words in `lang`."""
    lang = picture_lang(lang)
    game = Game.replay(GameConfig.from_dict(config), seed, [(p, action_from_dict(a)) for p, a in log])
    names = player_names(game, names, lang)
    colours = player_colours(game, colours)
    items = Review.from_dict(review).worst(player, count)
    rows = [_row(game, item, colours, lang) for item in items]
    height = HEAD + sum(r.height for r in rows) + PAD + (0 if rows else 60)
    im = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = Draw(im)
    _head(im, draw, game, player, names, colours, translate(lang, M.PIC_REVIEW_HEAD))
    if not rows:
        text(draw, (PAD, HEAD + 30), translate(lang, M.PIC_REVIEW_NONE), 18, fill=MUTED, anchor="lm",
             max_width=WIDTH - 2 * PAD)  # fmt: skip
    y = HEAD
    for number, row in enumerate(rows, 1):
        row.draw(im, number, y)
        y += row.height
    return encode(im)


class _Row:
    """One decision's row: heading, then the two sides."""

    def __init__(self, position: Game, item: ReviewItem, colours: Mapping[str, RGB], lang: str) -> None:
        self.position, self.item, self.colours, self.lang = position, item, colours, lang
        self.body = _body_height(position, item, lang)
        self.height = TITLE + CAPTION + self.body + GAP

    def draw(self, im: Image.Image, number: int, y: int) -> None:
        draw = Draw(im)
        item, lang = self.item, self.lang
        head = translate(lang, M.PIC_REVIEW_ITEM, number=number, when=round_words(lang, item.round))
        text(draw, (PAD, y + 22), head, 20, bold=True, anchor="lm", max_width=WIDTH / 2)
        cost = translate(lang, M.PIC_REVIEW_COST, points=points_words(lang, item.points))
        text(draw, (WIDTH - PAD, y + 22), cost, 20, bold=True, fill=GOLD, anchor="rm", max_width=WIDTH / 2 - PAD)
        draw.line((PAD, y + TITLE - 10, WIDTH - PAD, y + TITLE - 10), fill=PANEL_EDGE, width=2)
        sides = ((M.PIC_REVIEW_YOURS, item.played), (M.PIC_REVIEW_BETTER, item.better))
        for i, (title, action) in enumerate(sides):
            x0 = PAD + i * (COLUMN + GAP)
            top = y + TITLE
            box = (x0, top, x0 + COLUMN, top + CAPTION + self.body)
            draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=PREVIEW if i else PANEL_EDGE, width=2)
            text(draw, (x0 + 12, top + 18), translate(lang, title), 18, bold=True, fill=MUTED, anchor="lm",
                 max_width=COLUMN - 24)  # fmt: skip
            words = action_words(self.position, action, lang)
            text(draw, (x0 + 12, top + 44), words, 18, bold=True, fill=TEXT, anchor="lm", max_width=COLUMN - 24)
            body = (x0 + 8, top + CAPTION, x0 + COLUMN - 8, top + CAPTION + self.body - 8)
            _draw_body(im, self.position, item, action, body, self.colours, lang)


def _row(game: Game, item: ReviewItem, colours: Mapping[str, RGB], lang: str) -> _Row:
    position = Game.replay(game.config, game.seed, game.log[: item.index])
    return _Row(position, item, colours, lang)


# -- the two sides -----------------------------------------------------------------------------------------------
def _cells(action: Action, position: Game) -> list[tuple[int, int]]:
    """The kingdom cells an action marks."""
    if isinstance(action, Place):
        return list(action.placement.cells)
    if isinstance(action, Tax):
        return list(action.cells)
    if isinstance(action, Build):
        return [(action.row, action.col)]
    return []


def _frame(position: Game, item: ReviewItem) -> tuple[int, int, int, int]:
    """The kingdom's cells both sides show: its squares, a ring around them, and both moves' cells."""
    d = position.decision()
    assert d is not None
    k = position.kingdoms[d.kingdom]
    top, left, bottom, right = window(k)
    for r, c in _cells(item.played, position) + _cells(item.better, position):
        top, left, bottom, right = min(top, r), min(left, c), max(bottom, r), max(right, c)
    return top, left, bottom, right


def _shows(item: ReviewItem) -> str:
    """What both sides draw: the line to claim from, the builders' board (the dragon), or the kingdom."""
    if isinstance(item.played, Claim):
        return "line"
    return "board" if item.kind == DRAGON else "kingdom"


def _layout(position: Game, item: ReviewItem, box: Box) -> GridLayout:
    top, left, bottom, right = _frame(position, item)
    cols, rows = right - left + 1, bottom - top + 1
    x0, y0, x1, _ = box
    cell = min(MAX_CELL, (x1 - x0 - label_margin(LABEL)) // cols)
    height = label_margin(LABEL) + rows * cell + 8
    return grid_at((top, left, bottom, right), (x0, y0, x1, y0 + height), label_size=LABEL, cell=cell)


def _body_height(position: Game, item: ReviewItem, lang: str) -> int:
    if _shows(item) == "line":
        return _offer_height(len(offer_line(position)))
    if _shows(item) == "board":
        return len(position.board) * (BOARD_ROW + 6) + 8
    layout = _layout(position, item, (0, 0, COLUMN - 16, 10_000))
    return layout.grid_box[3] + 16 + LEGEND_LINE * len(_legend(position, item, layout.cell, lang))


def _draw_body(im: Image.Image, position: Game, item: ReviewItem, action: Action, box: Box, colours, lang: str) -> None:
    if _shows(item) == "line":
        assert isinstance(action, Claim)
        _draw_offer(im, position, action, box)
        return
    if _shows(item) == "board":
        _draw_board(im, position, action, box, lang)
        return
    d = position.decision()
    assert d is not None
    layout = _layout(position, item, box)
    colour = kingdom_colour(position, d.kingdom, colours)
    preview = (d.domino, action.placement) if isinstance(action, Place) and d.domino else None
    codes = game_building_codes(lang)
    draw_kingdom(im, position, d.kingdom, layout, colour, preview=preview, lang=lang, codes=codes, least=MIN_TEXT)
    legend = _legend(position, item, layout.cell, lang)
    y = layout.grid_box[3] + 16
    for line in legend:  # the buildings shown by their codes, with their names
        text(Draw(im), (box[0] + 4, y + LEGEND_LINE / 2), line, MIN_TEXT + 2, fill=MUTED, anchor="lm",
             max_width=box[2] - box[0] - 8)  # fmt: skip
        y += LEGEND_LINE
    if preview is None:
        draw = Draw(im)
        w = max(3, layout.cell // 12)
        for r, c in _cells(action, position):
            x0, y0, x1, y1 = layout.cell_box(r, c)
            draw.rectangle((x0 - w, y0 - w, x1 + w - 1, y1 + w - 1), outline=PREVIEW, width=w)
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=OUTLINE, width=max(1, w // 2))


MIN_TEXT = 12  # no text smaller on a phone (the picture is drawn at a phone's width)
LEGEND_LINE = 22


def _legend(position: Game, item: ReviewItem, cell: int, lang: str) -> list[str]:
    """Lines of "code: name" for the kingdom's buildings whose names do not fit their squares."""
    d = position.decision()
    assert d is not None
    codes = game_building_codes(lang)
    coded = []
    marked = marked_cells(position.kingdoms[d.kingdom], queen_cell(position, d.kingdom))
    for at, (bid, towers) in position.kingdoms[d.kingdom].buildings.items():
        b = building(bid)
        above = icons_above(towers, b.crowns, at in marked)
        if not building_fits(building_title(lang, b.name, bid), cell, above, MIN_TEXT):
            coded.append(bid)
    items = sorted(f"{codes[bid]}: {building_title(lang, building(bid).name, bid)}" for bid in set(coded))
    lines, line = [], ""
    for entry in items:
        joined = f"{line} · {entry}" if line else entry
        if line and text_width(joined, MIN_TEXT + 2) > COLUMN - 24:
            lines.append(line)
            joined = entry
        line = joined
    return [*lines, line] if line else lines


# -- a claim: the line of dominoes, the chosen one outlined -------------------------------------------------------
CARD_W = (COLUMN - 16 - 8) // 2
CARD_H = 96


def _offer_height(dominoes: int) -> int:
    return ((dominoes + 1) // 2) * (CARD_H + 8) + 8


def _draw_offer(im: Image.Image, position: Game, action: Claim, box: Box) -> None:
    draw = Draw(im)
    x0, y0, _, _ = box
    royal = position.config.game == "royal-wedding"
    tile = min(44, (CARD_W - 12) // 2)
    for i, (domino_id, king) in enumerate(offer_line(position)):
        r, c = divmod(i, 2)
        cx, cy = x0 + c * (CARD_W + 8), y0 + r * (CARD_H + 8)
        chosen = domino_id == action.domino
        card = (cx, cy, cx + CARD_W, cy + CARD_H)
        draw.rounded_rectangle(card, radius=8, fill=PANEL_LIGHT if king is None else BACKGROUND,
                               outline=PREVIEW if chosen else PANEL_EDGE, width=5 if chosen else 1)  # fmt: skip
        label = domino_label(position.config.game, domino_id)
        badge = BOX_COLOURS[domino_id[0]] if royal else PANEL
        draw.rounded_rectangle((cx + 8, cy + 8, cx + 62, cy + 34), radius=6, fill=badge)
        text(draw, (cx + 35, cy + 21), label, 18, bold=True, anchor="mm", max_width=50)
        if chosen:
            text(draw, (cx + CARD_W - 10, cy + 21), "✓", 20, bold=True, fill=PREVIEW, anchor="rm")
        tx = cx + (CARD_W - 2 * tile) / 2
        for j, sq in enumerate(domino(domino_id).squares):
            im.paste(tiles.terrain_tile(sq.terrain, sq.crowns, tile), (round(tx + j * tile), cy + 42))
        draw.rectangle((round(tx), cy + 42, round(tx) + 2 * tile - 1, cy + 42 + tile - 1), outline=OUTLINE, width=2)
        if king is not None:  # taken before this choice: veiled
            veil = Image.new("RGBA", (CARD_W - 2, CARD_H - 2), (*BACKGROUND, 150))
            im.paste(veil, (cx + 1, cy + 1), veil)


# -- the dragon: the builders' board, the building burned outlined -------------------------------------------------
BOARD_ROW = 40


def _draw_board(im: Image.Image, position: Game, action: Action, box: Box, lang: str) -> None:
    draw = Draw(im)
    x0, y0, x1, _ = box
    burned = action.slot if isinstance(action, BribeDragon) else None
    for slot, bid in enumerate(position.board):
        y = y0 + slot * (BOARD_ROW + 6)
        chosen = slot == burned
        draw.rounded_rectangle((x0, y, x1, y + BOARD_ROW), radius=8, fill=PANEL_LIGHT,
                               outline=PREVIEW if chosen else PANEL_EDGE, width=5 if chosen else 1)  # fmt: skip
        text(draw, (x0 + 20, y + BOARD_ROW / 2), str(slot + 1), 18, bold=True, fill=MUTED, anchor="mm")
        name = building_title(lang, _building_name(bid), bid) if bid else "—"
        text(draw, (x0 + 40, y + BOARD_ROW / 2), name, 18, bold=chosen, anchor="lm", max_width=x1 - x0 - 80)
        if chosen:
            icons.paste(im, "dragon", x1 - 38, y + 6, 28)
