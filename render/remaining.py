"""The dominoes not seen yet: how many squares of each terrain, and how many crowns, are still to come."""

from __future__ import annotations

from PIL import Image

from engine import Game, domino
from engine.components import BOX_NAMES, TERRAINS

from . import icons, tiles
from .draw import Draw, encode, text
from .palette import BACKGROUND, FAINT, MUTED, PANEL, PANEL_EDGE, TERRAIN_COLOURS, TERRAIN_NAMES, TEXT

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


def render_remaining(game: Game) -> bytes:
    """A small picture of the dominoes nobody has seen yet: squares and crowns per terrain, as PNG bytes."""
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
    text(draw, (PAD + 4, 34), "Still to come", 26, bold=True, anchor="lm")
    text(draw, (WIDTH - PAD - 4, 34), f"{n} domino{'es' if n != 1 else ''} unseen", 19, fill=MUTED, anchor="rm")
    if to_come < n:
        note = f"{to_come} of them will be drawn; the other {n - to_come} are out of this game"
    else:
        note = "Squares and crowns on the dominoes not revealed yet"
    text(draw, (PAD + 4, 66), note, 15, fill=FAINT, anchor="lm", max_width=WIDTH - 2 * PAD)

    most = max((s for s, _ in counts.values()), default=0) or 1
    y = HEAD
    tile = ROW - 8
    name_w = 118
    bar_x0 = PAD + tile + 12 + name_w
    bar_x1 = WIDTH - PAD - 150
    for terrain, (squares, crowns) in counts.items():
        cy = y + ROW / 2
        im.paste(tiles.terrain_tile(terrain, 0, tile), (PAD + 4, y + 4))
        text(draw, (PAD + tile + 14, cy), TERRAIN_NAMES[terrain], 18, fill=TEXT if squares else FAINT, anchor="lm")
        draw.rounded_rectangle((bar_x0, cy - 9, bar_x1, cy + 9), radius=9, fill=BACKGROUND)
        if squares:
            x1 = bar_x0 + max(18, (bar_x1 - bar_x0) * squares / most)
            draw.rounded_rectangle((bar_x0, cy - 9, x1, cy + 9), radius=9, fill=TERRAIN_COLOURS[terrain])
        text(draw, (bar_x1 + 12, cy), f"{squares}", 20, bold=True, fill=TEXT if squares else FAINT, anchor="lm")
        text(draw, (bar_x1 + 44, cy), "sq.", 14, fill=MUTED, anchor="lm")
        icons.paste(im, "crown", WIDTH - PAD - 62, cy - 13, 26)
        text(draw, (WIDTH - PAD - 30, cy), f"{crowns}", 20, bold=True, fill=TEXT if crowns else FAINT, anchor="lm")
        y += ROW

    y += 8
    draw.line((PAD, y, WIDTH - PAD, y), fill=PANEL_EDGE, width=1)
    total_crowns = sum(c for _, c in counts.values())
    icons.paste(im, "crown", PAD + 4, y + 12, 28)
    x = PAD + 40
    x += text(draw, (x, y + 26), f"{total_crowns} crowns in all", 18, bold=True, anchor="lm") + 20
    if len(game.setup.boxes) > 1:
        per_box = {box: sum(1 for d in unseen if d[0] == box) for box in game.setup.boxes}
        words = " · ".join(f"{BOX_NAMES[b]} {c}" for b, c in per_box.items())
        text(draw, (WIDTH - PAD - 4, y + 26), words, 15, fill=MUTED, anchor="rm", max_width=WIDTH - x - PAD)
    return encode(im)
