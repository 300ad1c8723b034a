"""Drawing one kingdom's grid: the frame of usable cells with coordinates, squares, castle, knights, buildings with
their towers, the queen, and optionally legal spots and a placement preview. Used by the table and the large view.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine import Game, Kingdom, Placement, cell_name, domino, score_kingdom
from engine.components import building, building_types

from . import fonts, icons, tiles
from .draw import Box, Draw, text, text_width
from .palette import EMPTY_CELL, EMPTY_EDGE, LEGAL, MUTED, OUTLINE, PANEL_EDGE, PREVIEW, RGB, mix
from .words import building_title


@dataclass(frozen=True)
class GridLayout:
    """Where a kingdom's cells are in a picture: the frame (top, left, bottom, right), inclusive, drawn from
    pixel (x, y) with square cells of `cell` pixels; coordinates go above and to the left."""

    top: int
    left: int
    bottom: int
    right: int
    x: int
    y: int
    cell: int
    label_size: int

    @property
    def rows(self) -> int:
        return self.bottom - self.top + 1

    @property
    def cols(self) -> int:
        return self.right - self.left + 1

    def contains(self, row: int, col: int) -> bool:
        return self.top <= row <= self.bottom and self.left <= col <= self.right

    def cell_box(self, row: int, col: int) -> Box:
        """Pixel box (x0, y0, x1, y1), ends exclusive, of cell (row, col)."""
        x0 = self.x + (col - self.left) * self.cell
        y0 = self.y + (row - self.top) * self.cell
        return (x0, y0, x0 + self.cell, y0 + self.cell)

    def cell_centre(self, row: int, col: int) -> tuple[int, int]:
        x0, y0, x1, y1 = self.cell_box(row, col)
        return ((x0 + x1) // 2, (y0 + y1) // 2)

    @property
    def grid_box(self) -> Box:
        return (self.x, self.y, self.x + self.cols * self.cell, self.y + self.rows * self.cell)


def label_margin(label_size: int) -> int:
    return round(label_size * 1.5) + 2


def grid_layout(frame: tuple[int, int, int, int], box: Box, *, label_size: int, max_cell: int) -> GridLayout:
    """Fit the frame's cells, with their coordinates, centred in `box`."""
    top, left, bottom, right = frame
    rows, cols = bottom - top + 1, right - left + 1
    margin = label_margin(label_size)
    x0, y0, x1, y1 = box
    cell = max(8, min((x1 - x0 - margin) // cols, (y1 - y0 - margin) // rows, max_cell))
    width, height = margin + cols * cell, margin + rows * cell
    x = x0 + (x1 - x0 - width) // 2 + margin
    y = y0 + (y1 - y0 - height) // 2 + margin
    return GridLayout(top, left, bottom, right, x, y, cell, label_size)


def window(kingdom: Kingdom, ring: int = 1) -> tuple[int, int, int, int]:
    """The cells the table shows of a kingdom: its squares and `ring` rings of cells around them, within its frame.
    (The turn panel's large view shows the whole frame, where squares could still go.)"""
    top, left, bottom, right = kingdom.bounds()
    ft, fl, fb, fr = kingdom.frame()
    return (max(ft, top - ring), max(fl, left - ring), min(fb, bottom + ring), min(fr, right + ring))


def grid_at(frame: tuple[int, int, int, int], box: Box, *, label_size: int, cell: int) -> GridLayout:
    """The frame's cells at a given `cell` size, with their coordinates, centred in `box`."""
    top, left, bottom, right = frame
    margin = label_margin(label_size)
    x0, y0, x1, y1 = box
    width, height = margin + (right - left + 1) * cell, margin + (bottom - top + 1) * cell
    x = x0 + (x1 - x0 - width) // 2 + margin
    y = y0 + (y1 - y0 - height) // 2 + margin
    return GridLayout(top, left, bottom, right, x, y, cell, label_size)


@lru_cache(maxsize=256)
def building_tile(
    name: str, size: int, icons_above: bool = True, code: str | None = None, least: int = 0
) -> Image.Image:
    """A building on a `size`-pixel town square: a warm plate with the building's name in up to three lines, below
    its towers or crowns (`icons_above`) or using the whole square. With `least`, the name is drawn only at `least`
    pixels or more (see `building_fits`), else its short `code` (which a legend explains) as large as it fits."""
    from .palette import BUILDING_INK, BUILDING_PLATE

    im = Image.new("RGB", (size, size), BUILDING_PLATE)
    draw = Draw(im)
    b = max(2, size // 20)
    draw.rectangle((0, 0, size - 1, size - 1), outline=mix(BUILDING_PLATE, OUTLINE, 0.5), width=b)
    room_top = round(size * 0.3) if icons_above else b
    height = size - room_top - b
    if least and code is not None and not building_fits(name, size, icons_above, least):
        room = size - 2 * b - 2
        font_size = max(least, min(round(height * 0.8), 30))
        while font_size > least and text_width(code, font_size, True) > room:
            font_size -= 1
        cy = room_top + (size - b - room_top) / 2
        text(draw, (size / 2, cy), code, font_size, bold=True, fill=BUILDING_INK, anchor="mm")
        return im
    font_size, rows = building_lines(name, size, height)
    step = font_size * 1.08
    y = room_top + (size - b - room_top - step * len(rows)) / 2 + step / 2
    for row in rows:
        text(draw, (size / 2, y), row, font_size, bold=True, fill=BUILDING_INK, anchor="mm")
        y += step
    return im


fonts.on_font_change(building_tile.cache_clear)

# Where a long word may break, so a building's name can be drawn larger on a small square (other words: `hyphenate`).
_BREAKS = {"Guardhouse": ("Guard-", "house"), "Guardtower": ("Guard-", "tower"), "Travelling": ("Travel-", "ling")}
_VOWELS = set("aeiouyăâîáéíóúůýěAEIOUYĂÂÎÁÉÍÓÚŮÝĚ")


def _onset(pair: str) -> bool:
    """A stop or f/v followed by l or r starts a syllable whole in Czech, Romanian and Spanish (Po-kladna,
    Ta-bla, ha-blar): the break goes before the pair, not inside it (Pok-ladna)."""
    return len(pair) == 2 and pair[0].lower() in "bcdfgkptv" and pair[1] in "lr"


def hyphenate(word: str) -> tuple[str, ...]:
    """`word` as one break, ("Pescă-", "ria"), for a building's name in any of the bot's languages: the break nearest
    the middle leaving at least 2 letters on each side, before a consonant between two vowels (Pescă-ria, Teso-rería),
    else between two consonants between vowels (Tkal-covna, Taver-na); a word of fewer than 6 letters, or with no such
    place, stays whole."""
    if word in _BREAKS:
        return _BREAKS[word]
    n = len(word)
    if n < 6 or not word.isalpha():
        return (word,)
    vowel = [ch in _VOWELS for ch in word]
    middle = n / 2
    for pattern in ((True, False, True), (True, False, False, True)):  # V|CV, then VC|CV
        k = len(pattern)
        offset = 1 if k == 3 else 2  # where the break falls inside the pattern
        places = []
        for i in range(n - k + 1):
            if tuple(vowel[i : i + k]) != pattern:
                continue
            cut = i + offset - (k == 4 and _onset(word[i + 1 : i + 3]))  # V|CLV: the pair stays together
            if 2 <= cut <= n - 2:
                places.append(cut)
        if places:
            cut = min(places, key=lambda p: (abs(p - middle), p))
            return (word[:cut] + "-", word[cut:])
    return (word,)


def building_fits(name: str, size: int, icons_above: bool, least: int) -> bool:
    """Whether the building's name fits on its `size`-pixel square at `least` pixels or more."""
    b = max(2, size // 20)
    room_top = round(size * 0.3) if icons_above else b
    font_size, rows = building_lines(name, size, size - room_top - b)
    return font_size >= least and rows != [_initials(name)]


def _initials(name: str) -> str:
    return "".join(w[0] for w in name.split() if w[0].isalpha()).upper()[:3]


def building_codes(names: dict[str, str]) -> dict[str, str]:
    """A short code of one or two letters for each building (id -> its name in the table's language), different
    for every building: the initials of a name of two words or more (`TC` Training Camp), else its first letter and
    the next letter that makes it unique (`Ba` Bakery, `Bo`...). Given every building of the game, sorted by id, the
    codes stay the same all game long."""
    codes: dict[str, str] = {}
    used: set[str] = set()
    for bid in sorted(names):
        letters = [ch for ch in names[bid] if ch.isalpha()]
        words = [w for w in names[bid].split() if w[:1].isalpha()]
        candidates = []
        if len(words) >= 2:
            candidates.append(words[0][0].upper() + words[1][0].upper())
        if letters:
            candidates += [letters[0].upper() + ch.lower() for ch in letters[1:]]
            candidates += [letters[0].upper() + str(i) for i in range(2, 10)]
        code = next((c for c in candidates if c.casefold() not in used), bid[:2])
        used.add(code.casefold())
        codes[bid] = code
    return codes


@cache
def game_building_codes(lang: str) -> dict[str, str]:
    """Every building's code in `lang` (`building_codes` over all the buildings of the box, so the same all game
    long): the table's legend, the review's and the web board's labels use these."""
    return building_codes({bid: building_title(lang, b.name, bid) for bid, b in building_types().items()})


def building_lines(name: str, size: int, height: float | None = None) -> tuple[int, list[str]]:
    """(font size, lines) for a building's name on a `size`-pixel square, `height` pixels of it free: the largest
    font at which the name fits in up to three lines inside the plate's border, its words whole (or broken where
    _BREAKS says) at 10 px or more; else the largest with long words broken (`hyphenate`: Pescă-ria, Tkal-covna), down
    to 9 px; else its initials."""
    height = size * 0.68 if height is None else height
    room = size - 2 * max(2, size // 20) - 2  # inside the plate's border, a pixel each side
    top = max(9, round(size * 0.24))
    whole = [w for word in name.split() for w in _BREAKS.get(word, (word,))]
    broken = [w for word in name.split() for w in hyphenate(word)]
    for words, smallest in ((whole, 10), (broken, 9)):
        splits = _splits(words)
        for font_size in range(top, smallest - 1, -1):
            fitting = [
                rows
                for rows in splits
                if font_size * 1.08 * len(rows) <= height and max(text_width(r, font_size, True) for r in rows) <= room
            ]
            if fitting:
                return font_size, min(fitting, key=len)
    return max(9, round(size * 0.22)), [_initials(name)]


def _splits(words: list[str]) -> list[list[str]]:
    """Every way to set `words` in one, two or three rows."""
    splits: list[list[str]] = [[_join(words)]]
    n = len(words)
    for i in range(1, n):
        splits.append([_join(words[:i]), _join(words[i:])])
        for j in range(i + 1, n):
            splits.append([_join(words[:i]), _join(words[i:j]), _join(words[j:])])
    return splits


def _join(words: list[str]) -> str:
    return " ".join(words).replace("- ", "")


@lru_cache(maxsize=64)
def castle_tile(size: int, colour: RGB) -> Image.Image:
    im = Image.new("RGB", (size, size), mix(colour, (30, 30, 36), 0.55))
    draw = Draw(im)
    b = max(2, size // 14)
    draw.rectangle((0, 0, size - 1, size - 1), outline=colour, width=b)
    s = round(size * 0.74)
    icons.paste(im, "castle", (size - s) / 2, (size - s) / 2 + size * 0.02, s, colour)
    return im


@lru_cache(maxsize=32)
def legal_overlay(size: int) -> Image.Image:
    im = Image.new("RGBA", (size, size), (*LEGAL, 70))
    draw = Draw(im)
    w = max(2, size // 18)
    draw.rectangle((0, 0, size - 1, size - 1), outline=(*LEGAL, 255), width=w)
    return im


def _glow(im: Image.Image, box: Box, colour: RGB, spread: int) -> None:
    """A soft halo around `box` (drawn outside it)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0 + 2 * spread, y1 - y0 + 2 * spread
    halo = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(halo)
    for i in range(spread):
        alpha = round(230 * ((i + 1) / spread) ** 1.6)
        draw.rounded_rectangle((i, i, w - 1 - i, h - 1 - i), radius=spread - i + 2, outline=(*colour, alpha), width=1)
    im.paste(halo, (x0 - spread, y0 - spread), halo)


def queen_cell(game: Game, index: int) -> tuple[int, int] | None:
    """The cell where the queen is drawn: on the hosting kingdom's largest territory, as the scoring puts her."""
    if game.queen != index:
        return None
    k = game.kingdoms[index]
    territories = k.territories()
    if not territories:
        return k.castle
    scored = score_kingdom(k, queendomino=True, hosts_queen=True, territories=territories)
    for t, s in zip(territories, scored.territories, strict=True):
        if s.queen:
            # The least busy square of her territory: no building, no knight, few crowns.
            knights = set(k.knights_placed)
            return min(
                t.cells,
                key=lambda c: (c in k.buildings, c in knights, k.square(*c).crowns if k.square(*c) else 0, c),
            )
    return k.castle  # pragma: no cover - scoring always places her when there is a territory


def preview_score(game: Game, index: int, domino_id: str, placement: Placement) -> tuple[int, int]:
    """(score now, score with the domino placed) for kingdom `index`, scored by the engine.

    Raises engine.IllegalPlacement when the placement breaks the rules."""
    before, (after,) = preview_scores(game, index, domino_id, [placement])
    return before, after


def preview_scores(game: Game, index: int, domino_id: str, placements: list[Placement]) -> tuple[int, list[int]]:
    """(score now, the score with the domino placed each way) for kingdom `index`: `preview_score` for many
    placements, the kingdom as it is scored once.

    Raises engine.IllegalPlacement when a placement breaks the rules."""
    k = game.kingdoms[index]
    v = game.config.variants
    options = {
        "queendomino": game.queendomino_rules,
        "hosts_queen": game.queen == index,
        "middle_kingdom": "middle-kingdom" in v,
        "harmony": "harmony" in v,
    }
    dom = domino(domino_id)
    afters = []
    for placement in placements:
        after = k.clone()
        after.place(dom, placement)
        afters.append(score_kingdom(after, **options).total)
    return score_kingdom(k, **options).total, afters


def draw_kingdom(
    im: Image.Image,
    game: Game,
    index: int,
    layout: GridLayout,
    colour: RGB,
    *,
    large: bool = False,
    legal_spots: list[tuple[int, int]] | None = None,
    preview: tuple[str, Placement] | None = None,
    lang: str = "en",
    codes: dict[str, str] | None = None,
    least: int = 0,
) -> set[str]:
    """Draw kingdom `index` of `game` into `im` at `layout` (building names in `lang`). With `codes` and `least`, a
    building whose name does not fit at `least` pixels shows its code; returns the ids of the buildings so shown."""
    k: Kingdom = game.kingdoms[index]
    draw = Draw(im)
    _draw_frame(draw, layout)
    _draw_squares(im, k, layout, colour)
    _draw_domino_edges(draw, k, layout)
    queen = queen_cell(game, index)
    coded = _draw_buildings(im, draw, k, layout, lang, codes, least, marked_cells(k, queen))
    _draw_knights_and_queen(im, k, queen, layout, colour)
    if legal_spots:
        _draw_legal_spots(im, draw, layout, legal_spots)
    if preview is not None:
        _draw_preview(im, draw, layout, preview)
    return coded


def _draw_frame(draw: Draw, layout: GridLayout) -> None:
    """The grid's frame and its coordinates: the engine's stable cell names (column letter, row number)."""
    gx0, gy0, gx1, gy1 = layout.grid_box
    pad = max(3, layout.cell // 10)
    draw.rounded_rectangle((gx0 - pad, gy0 - pad, gx1 + pad - 1, gy1 + pad - 1), radius=pad + 2, fill=PANEL_EDGE)
    ls = layout.label_size
    for c in range(layout.left, layout.right + 1):
        x0, _, x1, _ = layout.cell_box(layout.top, c)
        text(draw, ((x0 + x1) / 2, gy0 - pad - 2), chr(ord("A") + c), ls, bold=True, fill=MUTED, anchor="ms")
    for r in range(layout.top, layout.bottom + 1):
        _, y0, _, y1 = layout.cell_box(r, layout.left)
        text(draw, (gx0 - pad - 4, (y0 + y1) / 2), str(r + 1), ls, bold=True, fill=MUTED, anchor="rm")


def _draw_squares(im: Image.Image, k: Kingdom, layout: GridLayout, colour: RGB) -> None:
    """Every cell of the window: the castle, a terrain square (plain where a building will stand), or empty."""
    s = layout.cell
    empty = tiles.empty_tile(s, EMPTY_CELL, EMPTY_EDGE)
    for r in range(layout.top, layout.bottom + 1):
        for c in range(layout.left, layout.right + 1):
            box = layout.cell_box(r, c)
            if k.is_castle(r, c):
                im.paste(castle_tile(s, colour), box[:2])
                continue
            sq = k.square(r, c)
            if sq is None:
                im.paste(empty, box[:2])
            else:
                im.paste(tiles.terrain_tile(sq.terrain, sq.crowns, s, (r, c) not in k.buildings), box[:2])


def _draw_domino_edges(draw: Draw, k: Kingdom, layout: GridLayout) -> None:
    """Dominoes as units: a dark edge around each placed domino."""
    edge = max(1, layout.cell // 22)
    for _, (a, b) in k.placed:
        x0, y0, _, _ = layout.cell_box(min(a[0], b[0]), min(a[1], b[1]))
        _, _, x1, y1 = layout.cell_box(max(a[0], b[0]), max(a[1], b[1]))
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=OUTLINE, width=edge)


def _draw_buildings(
    im: Image.Image,
    draw: Draw,
    k: Kingdom,
    layout: GridLayout,
    lang: str,
    codes: dict[str, str] | None,
    least: int,
    marked: set[tuple[int, int]],
) -> set[str]:
    """Buildings with their towers (or crowns); returns the ids of those shown by their code. On a `marked` cell (a
    knight or the queen stands there too) the name leaves the top band to them, and crowns go to its left."""
    s = layout.cell
    coded: set[str] = set()
    for (r, c), (bid, towers) in k.buildings.items():
        x0, y0, _, _ = layout.cell_box(r, c)
        b = building(bid)
        name = building_title(lang, b.name, bid)
        above = icons_above(towers, b.crowns, (r, c) in marked)
        code = codes.get(bid) if codes else None
        im.paste(building_tile(name, s, above, code, least if code else 0), (x0, y0))
        if code is not None and least and not building_fits(name, s, above, least):
            coded.add(bid)
        small = band_icon(s)
        if towers:
            for i in range(min(towers, 2)):
                icons.paste(im, "tower", x0 + 2 + i * small * 0.7, y0 + 2, small)
            if towers > 2:
                size = max(least, small - 2, 9)
                text(draw, (x0 + 4 + small * 1.7, y0 + 2), f"{towers}", size, bold=True, fill=OUTLINE)
        elif b.crowns:
            left = x0 + 2 if (r, c) in marked else x0 + (s - small * b.crowns) / 2
            for i in range(b.crowns):
                icons.paste(im, "crown", left + i * small, y0 + 2, small)
    return coded


def band_icon(cell: int) -> int:
    """The size of the icons in a building's top band (towers, crowns, a knight, the queen) on a `cell`-pixel square."""
    return max(8, round(cell * 0.28))


def icons_above(towers: int, crowns: int, marked: bool) -> bool:
    """Whether a building's name leaves the top band of its square to icons: its towers or crowns, or a knight or
    the queen standing on it (`marked`), which would otherwise cover the name."""
    return bool(towers or crowns or marked)


def marked_cells(k: Kingdom, queen: tuple[int, int] | None) -> set[tuple[int, int]]:
    """The cells of kingdom `k` where a knight or the queen (at `queen`: `queen_cell`) stands."""
    return set(k.knights_placed) | ({queen} if queen is not None else set())


def _draw_knights_and_queen(
    im: Image.Image, k: Kingdom, qc: tuple[int, int] | None, layout: GridLayout, colour: RGB
) -> None:
    """The knights sent to tax, in the kingdom's colour, and the queen where she stands (`qc`: `queen_cell`)."""
    s = layout.cell
    small = band_icon(s)
    for r, c in k.knights_placed:
        x0, y0, x1, _ = layout.cell_box(r, c)
        if (r, c) in k.buildings:  # in the building's top band, above its name
            icons.paste(im, "knight", x1 - small - 2, y0 + 2, small, colour)
        else:
            size = round(s * 0.42)
            icons.paste(im, "knight", x1 - size - 1, y0 + 1, size, colour)
    if qc is not None and layout.contains(*qc):
        x0, y0, x1, _ = layout.cell_box(*qc)
        if qc in k.buildings:  # every square of her territory is built on: in the top band, left of a knight
            beside = small * 0.75 if qc in k.knights_placed else 0
            icons.paste(im, "queen", x1 - small - 2 - beside, y0 + 2, small)
        else:
            size = round(s * 0.5)
            icons.paste(im, "queen", x0 + (s - size) / 2 + s * 0.06, y0 + s * 0.2, size)


def _draw_legal_spots(im: Image.Image, draw: Draw, layout: GridLayout, legal_spots: list[tuple[int, int]]) -> None:
    """The cells where the domino's first square may go: veiled, each with its name."""
    s = layout.cell
    overlay = legal_overlay(s)
    size = max(10, round(s * 0.26))
    for r, c in legal_spots:
        if not layout.contains(r, c):
            continue
        x0, y0, x1, y1 = layout.cell_box(r, c)
        im.paste(overlay, (x0, y0), overlay)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        name = cell_name(r, c)
        tw = text_width(name, size, True)
        draw.rounded_rectangle(
            (cx - tw / 2 - 4, cy - size * 0.7, cx + tw / 2 + 4, cy + size * 0.7), radius=4, fill=(14, 40, 34)
        )
        text(draw, (cx, cy), name, size, bold=True, fill=LEGAL, anchor="mm")


def _draw_preview(im: Image.Image, draw: Draw, layout: GridLayout, preview: tuple[str, Placement]) -> None:
    """The domino `preview` = (domino id, Placement) in place, glowing and outlined."""
    s = layout.cell
    domino_id, placement = preview
    d = domino(domino_id)
    cells = placement.cells
    for (r, c), sq in zip(cells, d.squares, strict=True):
        im.paste(tiles.terrain_tile(sq.terrain, sq.crowns, s), layout.cell_box(r, c)[:2])
    (ra, ca), (rb, cb) = cells
    x0, y0, _, _ = layout.cell_box(min(ra, rb), min(ca, cb))
    _, _, x1, y1 = layout.cell_box(max(ra, rb), max(ca, cb))
    _glow(im, (x0, y0, x1, y1), PREVIEW, max(8, s // 4))
    w = max(3, s // 14)
    draw.rectangle((x0 - w, y0 - w, x1 + w - 1, y1 + w - 1), outline=PREVIEW, width=w)
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=OUTLINE, width=max(1, w // 2))
