"""One kingdom, large: coordinates, everything on it, optionally the legal spots and a placement preview."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from engine import BUILD, Game, Placement, ScoreBreakdown, cell_name
from engine.components import TERRAINS
from i18n import NP_, translate, translate_plural
from i18n import messages as M

from . import icons, tiles
from .draw import (
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
from .kingdom import GridLayout, draw_kingdom, grid_layout, preview_score
from .palette import BACKGROUND, GAIN, LEGAL, LOSS, MUTED, PANEL, PANEL_EDGE, PREVIEW, RGB
from .words import EN, delta_words, domino_label, picture_lang, say_plural, terrain_name

# Translators: Drawn on the kingdom picture, after its score in large digits (the number is drawn separately).
POINTS = NP_("point", "points")  # beside the kingdom's score
WIDTH = 900
HEADER = 104
BANNER = 64
GRID = 780
LEGEND = 70
PAD = 24
HEIGHT = HEADER + BANNER + GRID + LEGEND + PAD


def kingdom_layout(game: Game, kingdom_index: int) -> GridLayout:
    """Where each cell of kingdom `kingdom_index` is in `render_kingdom`'s picture (see GridLayout.cell_box)."""
    frame = game.kingdoms[kingdom_index].frame()
    box = (PAD, HEADER + BANNER, WIDTH - PAD, HEADER + BANNER + GRID)
    return grid_layout(frame, box, label_size=22, max_cell=150)


def stats_line(
    im: Image.Image, draw: Draw, game: Game, index: int, x: float, cy: float, size: int, lang: str = EN
) -> float:
    """Coins, knights in reserve, towers and the queen (Queendomino rules) at (x, centre y); returns the end x."""
    k = game.kingdoms[index]
    icon = round(size * 1.5)
    items: list[tuple[str, str]] = [
        ("coin", f"{k.coins}"),
        # Translators: Drawn on the kingdom picture, beside the knight's icon: knights not yet sent (the table's
        # caption too).
        ("knight", translate_plural(lang, "{n} in reserve", "{n} in reserve", k.knights_reserve)),
        ("tower", f"{k.towers}"),
    ]
    for kind, label in items:
        icons.paste(im, kind, x, cy - icon / 2, icon, (210, 210, 214) if kind == "knight" else None)
        x += icon + 4
        x += text(draw, (x, cy), label, size, anchor="lm") + size * 1.1
    if game.queen == index:
        icons.paste(im, "queen", x, cy - icon / 2, icon)
        x += icon + 4
        x += text(draw, (x, cy), translate(lang, M.PIC_HOSTS_QUEEN), size, anchor="lm", fill=(240, 170, 210)) + size
    return x


def _score_summary(lang: str, total: int, parts: list[str], *, over: bool) -> str:
    """The banner's score, explained: `4 points so far: Mine 2 · Coins 2` (what each part of the score is worth)."""
    if not parts:
        return translate(lang, M.PIC_NO_POINTS)
    return translate_plural(lang, *(M.PIC_SCORE_FINAL if over else M.PIC_SCORE_SO_FAR), total, parts=" · ".join(parts))


def _draw_summary(draw: Draw, summary: str, x: float, cy: float, room: float) -> None:
    """The score's parts on one line, at 15 pixels or more, else on two lines (cut at a " · ")."""
    size = fit_size(summary, 20, room, smallest=15)
    if text_width(summary, size) <= round(room) or " · " not in summary:
        text(draw, (x, cy), summary, size, anchor="lm", max_width=room)
        return
    bits = summary.split(" · ")
    cut = min(range(1, len(bits)), key=lambda i: abs(len(" · ".join(bits[:i])) - len(" · ".join(bits[i:]))))
    lines = [" · ".join(bits[:cut]) + " ·", " · ".join(bits[cut:])]
    size = min(fit_size(line, 18, room, smallest=15) for line in lines)
    for i, line in enumerate(lines):
        text(draw, (x, cy + (i - 0.5) * (size + 3)), line, size, anchor="lm", max_width=room)


def render_kingdom(
    game: Game,
    kingdom_index: int,
    names: Mapping[str, str] | None,
    colours: Mapping[str, RGB] | None,
    *,
    legal_spots: list[tuple[int, int]] | None = None,
    preview: tuple[str, Placement] | None = None,
    lang: str = "en",
) -> bytes:
    """One kingdom, large, as PNG bytes, its words in `lang`.

    `legal_spots` marks cells (row, col) with their names; `preview` = (domino id, Placement) draws that domino in
    place, outlined, with the score change the engine gives for it (an illegal placement raises IllegalPlacement).
    """
    return encode(
        kingdom_image(game, kingdom_index, names, colours, legal_spots=legal_spots, preview=preview, lang=lang)
    )


def kingdom_image(
    game: Game,
    kingdom_index: int,
    names: Mapping[str, str] | None,
    colours: Mapping[str, RGB] | None,
    *,
    legal_spots: list[tuple[int, int]] | None = None,
    preview: tuple[str, Placement] | None = None,
    lang: str = "en",
) -> Image.Image:
    """`render_kingdom`'s picture before it is encoded (RGB), for a picture that shows it with others."""
    lang = picture_lang(lang)
    names = player_names(game, names, lang)
    colours = player_colours(game, colours)
    k = game.kingdoms[kingdom_index]
    colour = kingdom_colour(game, kingdom_index, colours)
    score = game.scores()[kingdom_index]
    change = preview_score(game, kingdom_index, *preview) if preview is not None else None

    im = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = Draw(im)
    for i, p in enumerate(k.players):  # the kingdom's colour; a team's two colours side by side
        draw.rectangle((i * WIDTH // len(k.players), 0, (i + 1) * WIDTH // len(k.players) - 1, 10), fill=colours[p])
    _draw_header(im, draw, game, kingdom_index, names, colours, score, lang)

    # Banner: the preview's score change, or the legal spots, or the score so far.
    draw.rounded_rectangle((PAD, HEADER, WIDTH - PAD, HEADER + BANNER - 12), radius=12, fill=PANEL, outline=PANEL_EDGE)
    cy = HEADER + (BANNER - 12) / 2
    if preview is not None and change is not None:
        _draw_preview_banner(draw, game, preview, change, cy, lang)
    elif legal_spots:
        _draw_spots_banner(draw, game, legal_spots, cy, lang)
    else:
        _draw_score_banner(draw, game, score, cy, lang)

    layout = kingdom_layout(game, kingdom_index)
    draw_kingdom(
        im, game, kingdom_index, layout, colour, large=True, legal_spots=legal_spots, preview=preview, lang=lang
    )
    _draw_terrain_legend(im, draw, game, lang)
    return im


def _draw_header(
    im: Image.Image,
    draw: Draw,
    game: Game,
    kingdom_index: int,
    names: Mapping[str, str],
    colours: Mapping[str, RGB],
    score: ScoreBreakdown,
    lang: str,
) -> None:
    """The player(s) in colour with their seat badges (and team mark), the score, the economy."""
    k = game.kingdoms[kingdom_index]
    x = PAD
    points = say_plural(lang, "points", POINTS, score.total)
    score_w = text_width(str(score.total), 44, True) + text_width(points, 18) + 40
    letter = team_letter(game, kingdom_index)
    if letter is not None:
        x += team_mark(im, draw, x, 48, 32, letter, colours[k.players[0]], colours[k.players[-1]]) + 12
    each = (WIDTH - PAD - score_w - x) / len(k.players)
    room = each - 44 * 1.45 - 16
    size = min(fit_size(names[p], 30, room, bold=True, smallest=22) for p in k.players)  # smaller before cut
    shown = fit_names({p: names[p] for p in k.players}, size, room)
    for p in k.players:
        kw = king_token(im, draw, x, 24, 44, colours[p], seat_of(game, p))
        text(draw, (x + kw + 8, 48), shown[p], size, bold=True, anchor="lm", max_width=each - kw - 16)
        x += each
    right = WIDTH - PAD
    right -= text(draw, (right, 56), points, 18, fill=MUTED, anchor="rs") + 8
    text(draw, (right, 56), str(score.total), 44, bold=True, anchor="rs")
    if game.queendomino_rules:
        stats_line(im, draw, game, kingdom_index, PAD + 4, 88, 19, lang)
    else:
        # Translators: Drawn on the kingdom picture (Kingdomino), under the names: crowns and the largest territory.
        crowns = translate_plural(lang, "{n} crown", "{n} crowns", score.total_crowns)
        # Translators: Drawn on the kingdom picture (Kingdomino), under the names: the largest territory's squares.
        largest = translate_plural(
            lang, "largest territory {n} square", "largest territory {n} squares", score.largest_territory
        )
        words = f"{crowns} · {largest}"
        text(draw, (PAD + 4, 88), words, 19, fill=MUTED, anchor="lm", max_width=WIDTH - 2 * PAD - 8)


def _draw_preview_banner(
    draw: Draw, game: Game, preview: tuple[str, Placement], change: tuple[int, int], cy: float, lang: str
) -> None:
    """The banner of a preview: the domino and its cells, the score change and the score before and after."""
    domino_id, placement = preview
    (r0, c0), (r1, c1) = placement.cells
    draw.rectangle((PAD + 14, cy - 12, PAD + 38, cy + 12), outline=PREVIEW, width=4)
    x = PAD + 50
    cells = f"{cell_name(r0, c0)}-{cell_name(r1, c1)}"
    x += text(draw, (x, cy), translate(lang, M.PIC_PREVIEW, domino=domino_label(game.config.game, domino_id), cells=cells), 22, bold=True,
              anchor="lm", max_width=WIDTH - 2 * PAD - 50 - 250)  # fmt: skip
    before, after = change
    delta = after - before
    colour_delta = GAIN if delta > 0 else (LOSS if delta < 0 else MUTED)
    label = delta_words(lang, delta)
    x += 20
    x += text(draw, (x, cy), label, 24, bold=True, fill=colour_delta, anchor="lm")
    text(draw, (x + 12, cy), f"({before} → {after})", 20, fill=MUTED, anchor="lm")


def _draw_spots_banner(draw: Draw, game: Game, legal_spots: list[tuple[int, int]], cy: float, lang: str) -> None:
    """The banner over the legal spots: how many there are (for a first square, or for a building)."""
    draw.rectangle((PAD + 14, cy - 12, PAD + 38, cy + 12), fill=(40, 80, 70), outline=LEGAL, width=3)
    n = len(set(legal_spots))
    d = game.decision()
    building = d is not None and d.kind == BUILD  # the build step: free town squares, not a first square
    words = translate_plural(lang, *(M.PIC_BUILD_SPOTS if building else M.PIC_FIRST_SQUARE_SPOTS), n)
    room = WIDTH - 2 * PAD - 70
    text(draw, (PAD + 50, cy), words, fit_size(words, 21, room, smallest=16), anchor="lm", max_width=room)


def _draw_score_banner(draw: Draw, game: Game, score: ScoreBreakdown, cy: float, lang: str) -> None:
    """The banner of the score so far (or the final score), part by part."""
    parts = [f"{terrain_name(lang, t)} {p}" for t, p in score.terrains.items() if p]
    if score.queen:
        parts.append(translate(lang, M.PIC_QUEEN, points=score.queen))
    if score.building_points:
        parts.append(translate(lang, M.PIC_BUILDINGS, points=score.building_points))
    if score.coins:
        parts.append(translate(lang, M.PIC_COINS, points=score.coins))
    if score.middle_kingdom:
        parts.append(translate(lang, M.PIC_MIDDLE, points=score.middle_kingdom))
    if score.harmony:
        parts.append(translate(lang, M.PIC_HARMONY, points=score.harmony))
    summary = _score_summary(lang, score.total, parts, over=game.is_over)
    room = WIDTH - 2 * PAD - 36
    _draw_summary(draw, summary, PAD + 18, cy, room)


def _draw_terrain_legend(im: Image.Image, draw: Draw, game: Game, lang: str) -> None:
    """Below the grid: the terrain letters, so colour is never needed."""
    ly = HEADER + BANNER + GRID + 16
    terrains = [t for t in TERRAINS if game.queendomino_rules or t != "town"]
    chip = 30
    labels = [terrain_name(lang, t) for t in terrains]
    gap = 18
    size = 17
    while size > 12 and sum(chip + 6 + text_width(w, size) for w in labels) + gap * (len(labels) - 1) > WIDTH - 2 * PAD:
        size -= 1
    widths = [chip + 6 + text_width(w, size) for w in labels]
    x = (WIDTH - (sum(widths) + gap * (len(widths) - 1))) / 2
    for t, w, label in zip(terrains, widths, labels, strict=True):
        im.paste(tiles.terrain_tile(t, 0, chip), (round(x), ly))
        text(draw, (x + chip + 6, ly + chip / 2), label, size, fill=MUTED, anchor="lm")
        x += w + gap
