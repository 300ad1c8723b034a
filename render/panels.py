"""Small pictures for a player's private turn panel, 780 pixels wide (a phone shows them at full size):

render_placement(game, player, domino_id, cell, names, colours)  # the domino's first square on `cell`, and
                                                                  # where its second square can go, with scores
render_offer(game, player, names, colours)    # the dominoes to claim from, with their numbers
render_tax(game, player, names, colours)      # the domino just placed and what a knight on each square collects
render_dragon(game, player, names, colours)   # what the dragon costs and what burning each building takes away
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from engine import CLAIM, FIRST_CLAIM, Game, Placement, cell_name, domino
from engine.components import builders_board_spec, building
from i18n import messages as M
from i18n import translate, translate_plural

from . import icons, tiles
from .draw import (
    Box,
    Draw,
    encode,
    fit_names,
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
from .kingdom import GridLayout, draw_kingdom, grid_at, label_margin, preview_score, window
from .large import kingdom_image
from .palette import (
    BACKGROUND,
    BOX_COLOURS,
    FAINT,
    GAIN,
    GOLD,
    LEGAL,
    LOSS,
    MUTED,
    OUTLINE,
    PANEL,
    PANEL_EDGE,
    PANEL_LIGHT,
    PREVIEW,
    RGB,
    TEXT,
    mix,
)
from .words import EN, building_title, delta_words, direction_word, domino_label, picture_lang

WIDTH = 780
PAD = 16
HEAD = 64
ARROWS = {"up": "↑", "right": "→", "down": "↓", "left": "←"}


def _canvas(height: int) -> tuple[Image.Image, Draw]:
    im = Image.new("RGB", (WIDTH, height), BACKGROUND)
    return im, Draw(im)


def _head(im: Image.Image, draw: Draw, game: Game, player: str, names, colours, words: str) -> None:
    """A title bar: the player's king with their seat badge, their name, and what the picture is about."""
    draw.rectangle((0, 0, WIDTH, HEAD - 8), fill=PANEL)
    draw.rectangle((0, 0, WIDTH, 4), fill=colours[player])
    kw = king_token(im, draw, PAD, 12, 36, colours[player], seat_of(game, player))
    x = PAD + kw + 10
    index = game.kingdom_of(player)
    letter = team_letter(game, index)
    if letter is not None:  # the team's mark, as on the table
        a, b = (colours[p] for p in game.kingdoms[index].players)
        x += team_mark(im, draw, x, HEAD / 2 - 2, 26, letter, a, b) + 10
    name = fit_names({player: names[player]}, 20, 220)[player]
    x += text(draw, (x, HEAD / 2 - 2), name, 20, bold=True, anchor="lm") + 14
    text(draw, (x, HEAD / 2 - 2), words, 20, fill=MUTED, anchor="lm", max_width=WIDTH - PAD - x)


def _domino_tiles(im: Image.Image, draw: Draw, domino_id: str, x: float, y: float, tile: int) -> None:
    dom = domino(domino_id)
    for i, sq in enumerate(dom.squares):
        im.paste(tiles.terrain_tile(sq.terrain, sq.crowns, tile), (round(x + i * tile), round(y)))
    draw.rectangle((round(x), round(y), round(x) + 2 * tile - 1, round(y) + tile - 1), outline=OUTLINE, width=2)


def _number_badge(draw: Draw, box: Box, domino_id: str, royal: bool) -> None:
    fill = BOX_COLOURS[domino_id[0]] if royal else PANEL_LIGHT
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=mix(fill, (255, 255, 255), 0.25))
    x0, y0, x1, y1 = box
    label = domino_id if royal else domino_id[1:]
    text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), label, 22, bold=True, anchor="mm", max_width=x1 - x0 - 4)


# -- placing: the second square ----------------------------------------------------------------------------------
def placement_layout(game: Game, kingdom_index: int, cell: tuple[int, int]) -> GridLayout:
    """Where each cell is in `render_placement`'s picture: the kingdom's squares, the chosen cell and the cells
    around it, within the kingdom's frame."""
    k = game.kingdoms[kingdom_index]
    top, left, bottom, right = window(k)
    ft, fl, fb, fr = k.frame()
    r, c = cell
    frame = (
        max(ft, min(top, r - 1)),
        max(fl, min(left, c - 1)),
        min(fb, max(bottom, r + 1)),
        min(fr, max(right, c + 1)),
    )
    rows, cols = frame[2] - frame[0] + 1, frame[3] - frame[1] + 1
    label = 18
    size = min(84, (WIDTH - 2 * PAD - label_margin(label)) // cols)
    height = label_margin(label) + rows * size
    return grid_at(frame, (PAD, HEAD + 70, WIDTH - PAD, HEAD + 70 + height), label_size=label, cell=size)


# Translators: Drawn on the placement picture of the turn panel (private), above the kingdom.
def render_placement(
    game: Game,
    player: str,
    domino_id: str,
    cell: tuple[int, int],
    names: Mapping[str, str] | None,
    colours: Mapping[str, RGB] | None,
    *,
    lang: str = "en",
) -> bytes:
    """The player's kingdom with `domino_id`'s first square on `cell` (row, col) and, on each cell where its second
    square may legally go, that square faintly with its direction and the score change the engine gives; words in
    `lang`."""
    lang = picture_lang(lang)
    names = player_names(game, names, lang)
    colours = player_colours(game, colours)
    index = game.kingdom_of(player)
    k = game.kingdoms[index]
    dom = domino(domino_id)
    options = [p for p in k.legal_placements(dom) if (p.row, p.col) == tuple(cell)]
    layout = placement_layout(game, index, cell)
    rows_h = 34 * max(1, len(options))
    height = layout.grid_box[3] + 16 + rows_h + PAD
    im, draw = _canvas(height)
    _head(
        im,
        draw,
        game,
        player,
        names,
        colours,
        translate(lang, "places domino {domino}", domino=domino_label(game.config.game, domino_id)),
    )

    # The domino, then what the picture asks.
    y = HEAD + 6
    _domino_tiles(im, draw, domino_id, PAD, y, 52)
    where = cell_name(*cell)
    if options:
        words = translate(lang, "First square on {cell}: where does the second go?", cell=where)
    else:
        words = translate(lang, "No legal spot from {cell}", cell=where)
    text(draw, (PAD + 116, y + 26), words, 20, bold=True, anchor="lm", max_width=WIDTH - PAD * 2 - 116)

    draw_kingdom(im, game, index, layout, kingdom_colour(game, index, colours), lang=lang)
    results = _draw_second_squares(im, draw, game, index, layout, domino_id, cell, options)
    _draw_second_square_words(draw, results, layout.grid_box[3] + 16, lang)
    return encode(im)


def _draw_second_squares(
    im: Image.Image,
    draw: Draw,
    game: Game,
    index: int,
    layout: GridLayout,
    domino_id: str,
    cell: tuple[int, int],
    options: list[Placement],
) -> list[tuple[Placement, int, int, int]]:
    """On the kingdom: the first square on `cell`, outlined, and each legal second square faintly with its direction
    and score change. Returns per option (placement, change, score before, score after)."""
    dom = domino(domino_id)
    s = layout.cell
    first = dom.squares[0]
    x0, y0, x1, y1 = layout.cell_box(*cell)
    im.paste(tiles.terrain_tile(first.terrain, first.crowns, s), (x0, y0))
    w = max(3, s // 16)
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=PREVIEW, width=w)  # inside: the neighbours keep their edges
    second = dom.squares[1]
    ghost = tiles.terrain_tile(second.terrain, second.crowns, s).convert("RGBA")
    ghost.putalpha(150)
    results = []
    for p in options:
        before, after = preview_score(game, index, domino_id, p)
        results.append((p, after - before, before, after))
        (r2, c2) = p.cells[1]
        if not layout.contains(r2, c2):
            continue
        bx0, by0, bx1, by1 = layout.cell_box(r2, c2)
        im.paste(ghost, (bx0, by0), ghost)
        draw.rectangle((bx0, by0, bx1 - 1, by1 - 1), outline=LEGAL, width=max(2, s // 20))
        label = f"{ARROWS[p.direction]} {after - before:+d}"
        lw = text_width(label, 18, True)
        cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
        draw.rounded_rectangle((cx - lw / 2 - 6, cy - 14, cx + lw / 2 + 6, cy + 14), radius=6, fill=(14, 40, 34))
        text(draw, (cx, cy), label, 18, bold=True, fill=LEGAL, anchor="mm")
    return results


# Translators: Drawn on the placement picture: one line per direction the second square can take. {direction}: a
# direction word.
def _draw_second_square_words(draw: Draw, results: list[tuple[Placement, int, int, int]], y: float, lang: str) -> None:
    """From `y` down, in words too: each direction with its score (or, with none, to pick another cell)."""
    for p, delta, before, after in results:
        colour = GAIN if delta > 0 else LOSS if delta < 0 else MUTED
        x = PAD + 4
        r2, c2 = p.cells[1]
        way = translate(lang, "{direction}: second square on {cell}", direction=direction_word(lang, p.direction),
                        cell=cell_name(r2, c2))  # fmt: skip
        x += text(draw, (x, y + 15), f"{ARROWS[p.direction]} {way}", 18, anchor="lm") + 12
        x += text(draw, (x, y + 15), delta_words(lang, delta), 18, bold=True, fill=colour, anchor="lm") + 10
        text(draw, (x, y + 15), f"({before} → {after})", 16, fill=MUTED, anchor="lm")
        y += 34
    if not results:
        text(draw, (PAD + 4, y + 15), translate(lang, "Pick another cell."), 18, fill=MUTED, anchor="lm")


# -- claiming: the dominoes on offer -----------------------------------------------------------------------------
def offer_line(game: Game) -> list[list]:
    """The line a claim is made from: the current line during set-up, else the next line."""
    d = game.decision()
    if d is not None and d.kind == FIRST_CLAIM:
        return game.current_line
    if d is not None and d.kind == CLAIM:
        return game.next_line
    return game.next_line or game.current_line


def render_offer(
    game: Game, player: str, names: Mapping[str, str] | None, colours: Mapping[str, RGB] | None, *, lang: str = "en"
) -> bytes:
    """The dominoes of the line to claim from, four to a row, each with its number, squares and crowns; the ones
    already claimed show their king. The panel's buttons carry the same numbers. Words in `lang`."""
    return encode(offer_image(game, player, names, colours, lang=lang))


# Translators: Drawn on the turn panel's picture of the next line: a caption after the player's name, and a note. {n}:
# the free dominoes.
def offer_image(
    game: Game, player: str, names: Mapping[str, str] | None, colours: Mapping[str, RGB] | None, *, lang: str = "en"
) -> Image.Image:
    """`render_offer`'s picture before it is encoded (RGB)."""
    lang = picture_lang(lang)
    names = player_names(game, names, lang)
    colours = player_colours(game, colours)
    line = offer_line(game)
    royal = game.config.game == "royal-wedding"
    per_row = 4
    rows = max(1, (len(line) + per_row - 1) // per_row)
    card_w = (WIDTH - 2 * PAD - (per_row - 1) * 10) // per_row
    card_h = 152
    tile = min(72, (card_w - 16) // 2)
    im, draw = _canvas(HEAD + 40 + rows * (card_h + 10) + PAD)
    free = sum(1 for _, king in line if king is None)
    _head(im, draw, game, player, names, colours, translate(lang, "chooses a domino"))
    note = translate_plural(lang, "{n} free: a lower number plays earlier next round",
                            "{n} free: a lower number plays earlier next round", free)  # fmt: skip
    text(draw, (PAD + 4, HEAD + 16), note, 18, fill=MUTED, anchor="lm", max_width=WIDTH - 2 * PAD)
    shown = fit_names(names, 18, card_w - 60)
    for i, (domino_id, king_index) in enumerate(line):
        r, c = divmod(i, per_row)
        x0 = PAD + c * (card_w + 10)
        y0 = HEAD + 40 + r * (card_h + 10)
        taken = king_index is not None
        draw.rounded_rectangle((x0, y0, x0 + card_w, y0 + card_h), radius=10,
                               fill=PANEL if taken else PANEL_LIGHT, outline=PANEL_EDGE if taken else GOLD,
                               width=1 if taken else 2)  # fmt: skip
        _number_badge(draw, (x0 + card_w / 2 - 36, y0 + 8, x0 + card_w / 2 + 36, y0 + 40), domino_id, royal)
        tx = x0 + (card_w - 2 * tile) / 2
        _domino_tiles(im, draw, domino_id, tx, y0 + 46, tile)
        cy = y0 + 46 + tile + 18
        if taken:
            veil = Image.new("RGBA", (card_w - 2, tile + 44), (*BACKGROUND, 140))
            im.paste(veil, (x0 + 1, y0 + 1), veil)
            p = game.kings[king_index].player
            kw = king_token(im, draw, x0 + 8, cy - 14, 28, colours[p], seat_of(game, p))
            text(draw, (x0 + 12 + kw, cy), shown[p], 18, fill=MUTED, anchor="lm", max_width=card_w - kw - 20)
        else:
            text(draw, (x0 + card_w / 2, cy), translate(lang, M.PIC_FREE), 18, bold=True, fill=GOLD, anchor="mm",
                 max_width=card_w - 8)  # fmt: skip
    return im


# -- tax: what each knight would collect -------------------------------------------------------------------------
def render_tax(
    game: Game, player: str, names: Mapping[str, str] | None, colours: Mapping[str, RGB] | None, *, lang: str = "en"
) -> bytes:
    """The two squares of the domino just placed, each with what a knight sent there collects now (the size of
    its territory, plus what the buildings add), and the knights in reserve. Words in `lang`."""
    return encode(tax_image(game, player, names, colours, lang=lang))


# Translators: Drawn on the turn panel's tax picture: captions and notes (short: they share a row with icons). {size}:
# a territory's squares; {extra}: coins from buildings.
def tax_image(
    game: Game, player: str, names: Mapping[str, str] | None, colours: Mapping[str, RGB] | None, *, lang: str = "en"
) -> Image.Image:
    """`render_tax`'s picture before it is encoded (RGB)."""
    lang = picture_lang(lang)
    names = player_names(game, names, lang)
    colours = player_colours(game, colours)
    index = game.kingdom_of(player)
    k = game.kingdoms[index]
    cells = list(game.placed_this_turn or ())
    im, draw = _canvas(HEAD + 250)
    _head(im, draw, game, player, names, colours, translate(lang, "may send knights to collect tax"))
    y = HEAD + 8
    icons.paste(im, "knight", PAD, y, 32, (214, 214, 218))
    x = PAD + 38
    reserve = translate_plural(lang, "{n} in reserve", "{n} in reserve", k.knights_reserve)
    x += text(draw, (x, y + 16), reserve, 20, bold=True, anchor="lm", max_width=WIDTH // 2 - x) + 24
    icons.paste(im, "coin", x, y, 32)
    now = translate_plural(lang, "{n} coin now", "{n} coins now", k.coins)
    text(draw, (x + 38, y + 16), now, 20, bold=True, anchor="lm", max_width=WIDTH - PAD - x - 38)
    tile = 110
    y = HEAD + 56
    for i, (r, c) in enumerate(cells[:2]):
        x0 = PAD + i * (WIDTH - 2 * PAD) // 2
        sq = k.square(r, c)
        if sq is not None:
            im.paste(tiles.terrain_tile(sq.terrain, sq.crowns, tile), (x0, y))
        draw.rectangle((x0, y, x0 + tile - 1, y + tile - 1), outline=OUTLINE, width=2)
        coins = game.tax_coins(index, (r, c))
        size = k.territory_size_at(r, c)
        tx = x0 + tile + 14
        room = (WIDTH - 2 * PAD) // 2 - tile - 24
        knight = translate(lang, "Knight on {cell}", cell=cell_name(r, c))
        text(draw, (tx, y + 16), knight, 20, bold=True, anchor="lm", max_width=room)
        icons.paste(im, "coin", tx, y + 38, 34)
        text(draw, (tx + 40, y + 55), f"+{coins}", 30, bold=True, fill=GOLD, anchor="lm")
        if coins > size:
            note = translate(lang, "territory of {size}, buildings +{extra}", size=size, extra=coins - size)
        else:
            note = translate(lang, "territory of {size}", size=size)
        text(draw, (tx, y + 96), note, 16, fill=MUTED, anchor="lm", max_width=room)
    if len(cells) == 2:
        both = sum(game.tax_coins(index, c) for c in cells)
        if k.knights_reserve == 0:
            words = translate(lang, "No knight in reserve")
        elif k.knights_reserve >= 2:
            words = translate_plural(lang, "Both knights: +{n} coin", "Both knights: +{n} coins", both)
        else:
            words = translate(lang, "One knight in reserve: pick one square")
        text(draw, (PAD + 4, y + tile + 36), words, 20, bold=True, fill=TEXT, anchor="lm", max_width=WIDTH - 2 * PAD)
    return im


# -- the dragon: what it costs and what it burns -----------------------------------------------------------------
def render_dragon(
    game: Game, player: str, names: Mapping[str, str] | None, colours: Mapping[str, RGB] | None, *, lang: str = "en"
) -> bytes:
    """What bribing the dragon costs, and for each building on the builders' board (slots numbered 1-6 as on the
    table): its price and which other players could afford it now, so what burning it takes from whom. Words in
    `lang`."""
    return encode(dragon_image(game, player, names, colours, lang=lang))


# Translators: Drawn on the turn panel's dragon picture: a caption after the player's name, and a note under each
# building. {coins}: the coins the player has. {names}: the players who could still buy that building.
def dragon_image(
    game: Game, player: str, names: Mapping[str, str] | None, colours: Mapping[str, RGB] | None, *, lang: str = "en"
) -> Image.Image:
    """`render_dragon`'s picture before it is encoded (RGB)."""
    lang = picture_lang(lang)
    names = player_names(game, names, lang)
    colours = player_colours(game, colours)
    index = game.kingdom_of(player)
    k = game.kingdoms[index]
    spec = builders_board_spec()
    slots = [(slot, bid) for slot, bid in enumerate(game.board) if bid is not None]
    row_h = 62
    im, draw = _canvas(HEAD + 64 + max(1, len(slots)) * (row_h + 6) + PAD)
    _head(im, draw, game, player, names, colours, translate(lang, "may bribe the dragon"))
    y = HEAD + 4
    icons.paste(im, "dragon", PAD, y, 44)
    refusal = game.dragon_refusal(index)
    why = None
    if refusal is not None:
        code, params, english = refusal
        why = english if lang == EN or code not in M.REFUSALS else translate(lang, M.REFUSALS[code], **params)
    words = why or translate_plural(lang, "{n} coin (you have {coins}) burns one building of the board",
                                    "{n} coins (you have {coins}) burns one building of the board",
                                    spec.dragon_bribe, coins=k.coins)  # fmt: skip
    text(draw, (PAD + 54, y + 22), words, 19, bold=why is None, fill=TEXT if why is None else MUTED, anchor="lm",
         max_width=WIDTH - PAD * 2 - 54)  # fmt: skip
    y = HEAD + 60
    others = [i for i in range(len(game.kingdoms)) if i != index]
    for slot, bid in slots:
        draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + row_h), radius=10, fill=PANEL_LIGHT, outline=PANEL_EDGE)
        draw.rounded_rectangle((PAD + 8, y + 12, PAD + 46, y + row_h - 12), radius=6, fill=BACKGROUND,
                               outline=PANEL_EDGE)  # fmt: skip
        text(draw, (PAD + 27, y + row_h / 2), str(slot + 1), 22, bold=True, anchor="mm")
        icons.paste(im, "coin", PAD + 54, y + row_h / 2 - 18, 36)
        text(draw, (PAD + 72, y + row_h / 2 + 1), str(spec.costs[slot]), 19, bold=True, fill=(70, 44, 0), anchor="mm")
        x = PAD + 100
        buyers = [i for i in others if game.kingdoms[i].coins >= game.cost_of(slot, i)]
        text(draw, (x, y + 20), building_title(lang, building(bid).name, bid), 20, bold=True, anchor="lm",
             max_width=WIDTH - 2 * PAD - 110 - 6 - 38 * min(6, len(buyers)))  # fmt: skip
        if buyers:
            who = ", ".join(" & ".join(names[p] for p in game.kingdoms[i].players) for i in buyers)
            note = translate(lang, "burning it takes it from {names}", names=who)
        else:
            note = translate(lang, "nobody else can pay for it now")
        text(draw, (x, y + 44), note, 16, fill=MUTED, anchor="lm", max_width=WIDTH - 2 * PAD - 110 - 6)
        bx = WIDTH - PAD - 12
        for i in reversed(buyers[:6]):
            p = game.kingdoms[i].players[0]
            bx -= 38
            king_token(im, draw, bx, y + 6, 26, colours[p], seat_of(game, p))
        y += row_h + 6
    if not slots:
        text(draw, (PAD + 4, y + 20), translate(lang, "The builders' board is empty."), 18, fill=FAINT, anchor="lm")
    return im


# -- confirming a placement and choosing the next domino in one tap ----------------------------------------------
def _stacked(a: Image.Image, b: Image.Image) -> Image.Image:
    """Two pictures one above the other, centred on the wider one's width (neither is scaled: their words keep
    their size)."""
    width = max(a.width, b.width)
    im = Image.new("RGB", (width, a.height + b.height), BACKGROUND)
    im.paste(a, ((width - a.width) // 2, 0))
    im.paste(b, ((width - b.width) // 2, a.height))
    return im


def render_steps(
    top: str,
    game: Game,
    player: str,
    kingdom_index: int,
    claim_game: Game | None,
    names: Mapping[str, str] | None,
    colours: Mapping[str, RGB] | None,
    *,
    lang: str = "en",
) -> bytes:
    """The picture of the optional steps' panel: `top` ("tax": `render_tax`'s, "dragon": `render_dragon`'s,
    "kingdom": the kingdom `kingdom_index`), above the dominoes to take next when `claim_game` (the game with the steps
    skipped) is given; drawn, stacked, then encoded once."""
    if top == "tax":
        im = tax_image(game, player, names, colours, lang=lang)
    elif top == "dragon":
        im = dragon_image(game, player, names, colours, lang=lang)
    else:
        im = kingdom_image(game, kingdom_index, names, colours, lang=lang)
    if claim_game is not None:
        im = _stacked(im, offer_image(claim_game, player, names, colours, lang=lang))
    return encode(im)


def render_confirm(
    game: Game,
    kingdom_index: int,
    preview: tuple[str, Placement],
    claim_game: Game,
    player: str,
    names: Mapping[str, str] | None,
    colours: Mapping[str, RGB] | None,
    *,
    lang: str = "en",
) -> bytes:
    """The preview of a placement (`preview`: the domino and where it goes) above the dominoes the player chooses
    from next (`claim_game`: the game once the placement is made): the panel that confirms both in one tap. Both are
    drawn, stacked, then encoded once (not each encoded, read back and encoded again: a third of the work)."""
    top = kingdom_image(game, kingdom_index, names, colours, preview=preview, lang=lang)
    return encode(_stacked(top, offer_image(claim_game, player, names, colours, lang=lang)))
