"""The dominoes not seen yet: how many squares of each terrain, and how many crowns, are still to come."""

from __future__ import annotations

from PIL import Image

from engine import Game, domino
from engine.components import BOX_NAMES, TERRAINS
from i18n import messages as M
from i18n import translate, translate_plural

from . import icons, tiles
from .draw import Draw, encode, fit_size, text, text_width
from .palette import BACKGROUND, FAINT, MUTED, PANEL, PANEL_EDGE, TERRAIN_COLOURS, TEXT
from .words import game_title, picture_lang, terrain_name

WIDTH = 540
PAD = 18
ROW = 44
HEAD = 86


def unseen_counts(game: Game) -> dict[str, tuple[int, int]]:
    """terrain -> (squares, crowns) among `game.unseen_dominoes()`, for the terrains of the boxes in play."""
    counts = {t: [0, 0] for t in TERRAINS if "Q" in game.setup.boxes or t != "town"}
    for domino_id in game.unseen_dominoes():
        for sq in domino(domino_id).squares:
            counts[sq.terrain][0] += 1
            counts[sq.terrain][1] += sq.crowns
    return {t: (s, c) for t, (s, c) in counts.items()}


def render_remaining(game: Game, *, lang: str = "en") -> bytes:
    """A small picture of the dominoes nobody has seen yet: squares and crowns per terrain, as PNG bytes (words in
    `lang`)."""
    lang = picture_lang(lang)
    unseen = game.unseen_dominoes()
    counts = unseen_counts(game)
    to_come = sum(len(line) for line in game.lines_to_come)
    rows = len(counts)
    footer = 58
    height = HEAD + rows * ROW + footer + PAD
    im = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = Draw(im)
    draw.rounded_rectangle((6, 6, WIDTH - 7, height - 7), radius=16, fill=PANEL, outline=PANEL_EDGE)

    n = len(unseen)
    title_w = text(draw, (PAD + 4, 34), translate(lang, M.PIC_STILL_TO_COME), 26, bold=True, anchor="lm")
    # Translators: Drawn on /look remaining's picture, beside its title.
    unseen_words = translate_plural(lang, "{n} domino unseen", "{n} dominoes unseen", n)
    text(draw, (WIDTH - PAD - 4, 34), unseen_words, 19, fill=MUTED, anchor="rm",
         max_width=WIDTH - 2 * PAD - 8 - title_w - 16)  # fmt: skip
    if to_come < n:
        # Translators: Drawn on /look remaining's picture, under the title (a game of 2 or 3 players leaves dominoes
        # out).
        note = translate_plural(lang, "{drawn} of them will be drawn; the other {n} is out of this game",
                                "{drawn} of them will be drawn; the other {n} are out of this game", n - to_come,
                                drawn=to_come)  # fmt: skip
    else:
        note = translate(lang, M.PIC_STILL_TO_COME_NOTE)
    text(draw, (PAD + 4, 66), note, 15, fill=FAINT, anchor="lm", max_width=WIDTH - 2 * PAD)

    most = max((s for s, _ in counts.values()), default=0) or 1
    y = HEAD
    tile = ROW - 8
    labels = {t: terrain_name(lang, t) for t in counts}
    widest = max(text_width(w, 18) for w in labels.values())
    name_w = min(170, max(118, round(widest) + 14))  # a longer name takes room from the bars
    label_size = min(fit_size(w, 18, name_w - 4, smallest=14) for w in labels.values())
    bar_x0 = PAD + tile + 12 + name_w
    bar_x1 = WIDTH - PAD - 150
    for terrain, (squares, crowns) in counts.items():
        cy = y + ROW / 2
        im.paste(tiles.terrain_tile(terrain, 0, tile), (PAD + 4, y + 4))
        text(draw, (PAD + tile + 14, cy), labels[terrain], label_size, fill=TEXT if squares else FAINT, anchor="lm",
             max_width=name_w - 4)  # fmt: skip
        draw.rounded_rectangle((bar_x0, cy - 9, bar_x1, cy + 9), radius=9, fill=BACKGROUND)
        if squares:
            x1 = bar_x0 + max(18, (bar_x1 - bar_x0) * squares / most)
            draw.rounded_rectangle((bar_x0, cy - 9, x1, cy + 9), radius=9, fill=TERRAIN_COLOURS[terrain])
        text(draw, (bar_x1 + 12, cy), f"{squares}", 20, bold=True, fill=TEXT if squares else FAINT, anchor="lm")
        text(
            draw,
            (bar_x1 + 44, cy),
            # Translators: Drawn on /look remaining's picture: 'squares', abbreviated, after a number in a narrow
            # column.
            translate(lang, "sq."),
            14,
            fill=MUTED,
            anchor="lm",
            max_width=WIDTH - PAD - 66 - bar_x1 - 44,
        )
        icons.paste(im, "crown", WIDTH - PAD - 62, cy - 13, 26)
        text(draw, (WIDTH - PAD - 30, cy), f"{crowns}", 20, bold=True, fill=TEXT if crowns else FAINT, anchor="lm")
        y += ROW

    y += 8
    draw.line((PAD, y, WIDTH - PAD, y), fill=PANEL_EDGE, width=1)
    total_crowns = sum(c for _, c in counts.values())
    icons.paste(im, "crown", PAD + 4, y + 12, 28)
    x = PAD + 40
    # Translators: Drawn on /look remaining's picture: the crowns still to come.
    crowns_words = translate_plural(lang, "{n} crown in all", "{n} crowns in all", total_crowns)
    x += text(draw, (x, y + 26), crowns_words, 18, bold=True, anchor="lm") + 20
    if len(game.setup.boxes) > 1:
        per_box = {box: sum(1 for d in unseen if d[0] == box) for box in game.setup.boxes}
        words = " · ".join(f"{game_title(lang, BOX_NAMES[b], BOX_NAMES[b].lower())} {c}" for b, c in per_box.items())
        room = WIDTH - x - PAD
        text(draw, (WIDTH - PAD - 4, y + 26), words, fit_size(words, 15, room), fill=MUTED, anchor="rm", max_width=room)
    return encode(im)
