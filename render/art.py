"""The game's pieces, drawn once: every piece is a list of shapes in a unit square (x right, y down, 0..1), plain
data with no Pillow and no SVG in it. Two painters draw them: `render/paint.py` with Pillow for the pictures the bot
posts (through `icons.icon` and `tiles.terrain_tile`), and `render/svg.py` as SVG symbols that the web board defines
once on its page and `<use>`s (issue #45). A test rasterises both at the same size and compares their shapes, so the
two can never drift apart (tests/web/test_art.py).

Shapes: `Poly` (a polygon, its outline drawn inside it, as Pillow does), `Ellipse` (a box), `Rect` (a box, with
rounded corners when `radius`), `Line` (an open polyline with round joins). A colour is an RGB triple or a `Tint`:
the colour a piece is drawn in (a seat's, for kings, knights and castles), mixed a fraction of the way towards
another colour. Widths are in units of the square (0.055: an outline 5.5 % of the piece's size).

Pieces (keys): the seven terrains' grounds `ground-<terrain>` (colour, pattern, bevel) and their symbols
`symbol-<terrain>` (the mark in a square's corner that names it without a letter), `crown`, `king`, `knight`,
`tower`, `coin`, `queen`, `dragon`, `castle`, `building` (any building), `star`, and each of Queendomino's sixteen
buildings `building-<id>` (its own picture: a loaf for the bakery, a mug for the tavern...).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from .palette import BUILDING_INK, BUILDING_PLATE, GOLD, GOLD_DARK, OUTLINE, RGB, TERRAIN_COLOURS, luminance, mix

Point = tuple[float, float]
Box = tuple[float, float, float, float]
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
EDGE = 0.055  # the outline of a piece, a share of its size


@dataclass(frozen=True)
class Tint:
    """The colour the piece is drawn in, mixed a share `t` of the way towards `toward`."""

    t: float = 0.0
    toward: RGB = OUTLINE


Paint = RGB | Tint


@dataclass(frozen=True)
class Poly:
    points: tuple[Point, ...]
    fill: Paint | None
    outline: Paint | None = None
    width: float = EDGE


@dataclass(frozen=True)
class Ellipse:
    box: Box
    fill: Paint | None
    outline: Paint | None = None
    width: float = EDGE


@dataclass(frozen=True)
class Rect:
    box: Box
    fill: Paint
    radius: float = 0.0


@dataclass(frozen=True)
class Line:
    points: tuple[Point, ...]
    colour: Paint
    width: float


Shape = Poly | Ellipse | Rect | Line


@dataclass(frozen=True)
class Piece:
    """A piece: its shapes, the colour it is drawn in when none is given, whether a seat's colour tints it (kings,
    knights, castles), and how many of its first shapes are its ground (a terrain's flat colour), not its figure."""

    key: str
    shapes: tuple[Shape, ...]
    colour: RGB
    tinted: bool = False
    ground: int = 0


def resolve(paint: Paint, colour: RGB) -> RGB:
    """A shape's colour for a piece drawn in `colour`."""
    if isinstance(paint, Tint):
        return mix(colour, paint.toward, paint.t) if paint.t else colour
    return paint


def circle(cx: float, cy: float, r: float, fill: Paint | None, outline: Paint | None = OUTLINE) -> Ellipse:
    return Ellipse((cx - r, cy - r, cx + r, cy + r), fill, outline)


def box_poly(x0: float, y0: float, x1: float, y1: float, fill: Paint, outline: Paint | None = OUTLINE) -> Poly:
    return Poly(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), fill, outline)


def shade(c: RGB, amount: float) -> RGB:
    """Darker (amount < 0) or lighter (amount > 0) version of `c`."""
    return mix(c, WHITE, amount) if amount > 0 else mix(c, BLACK, -amount)


# -- the small pieces (crowns, kings, knights...) ------------------------------------------------------------------
def crown_shapes(x0: float, y0: float, x1: float, y1: float, fill: Paint = GOLD) -> list[Shape]:
    w, h = x1 - x0, y1 - y0

    def at(u: float, v: float) -> Point:
        return (x0 + u * w, y0 + v * h)

    band = mix(fill, GOLD_DARK, 0.45) if not isinstance(fill, Tint) else Tint(0.45, GOLD_DARK)
    shapes: list[Shape] = [
        Poly(
            (at(0.1, 0.9), at(0.04, 0.3), at(0.3, 0.55), at(0.5, 0.12), at(0.7, 0.55), at(0.96, 0.3), at(0.9, 0.9)),
            fill,
            OUTLINE,
        ),
        Poly((at(0.1, 0.72), at(0.9, 0.72), at(0.9, 0.9), at(0.1, 0.9)), band, OUTLINE),
    ]
    for u, v in ((0.04, 0.26), (0.5, 0.1), (0.96, 0.26)):
        cx, cy = at(u, v)
        shapes.append(circle(cx, cy, 0.06 * w, fill, None))
    return shapes


def _crown() -> list[Shape]:
    return crown_shapes(0.04, 0.1, 0.96, 0.9)


def _king() -> list[Shape]:
    dark = Tint(0.35)
    return [
        Ellipse((0.14, 0.82, 0.86, 0.98), dark, OUTLINE),
        Poly(((0.26, 0.9), (0.74, 0.9), (0.62, 0.5), (0.38, 0.5)), Tint(), OUTLINE),
        Ellipse((0.3, 0.46, 0.7, 0.56), dark, OUTLINE),
        circle(0.5, 0.38, 0.13, Tint()),
        *crown_shapes(0.3, 0.02, 0.7, 0.28),
    ]


def _knight() -> list[Shape]:
    body = (
        (0.24, 0.9),
        (0.8, 0.9),
        (0.78, 0.62),
        (0.72, 0.36),
        (0.62, 0.2),
        (0.52, 0.14),
        (0.5, 0.03),
        (0.4, 0.14),
        (0.3, 0.2),
        (0.14, 0.44),
        (0.16, 0.54),
        (0.26, 0.58),
        (0.42, 0.5),
        (0.46, 0.56),
        (0.3, 0.74),
    )
    return [
        Ellipse((0.14, 0.84, 0.86, 0.98), Tint(0.35), OUTLINE),
        Poly(body, Tint(), OUTLINE),
        circle(0.36, 0.3, 0.045, OUTLINE, None),
        Line(((0.62, 0.22), (0.72, 0.4), (0.74, 0.6)), Tint(0.4), 0.05),
    ]


def _tower() -> list[Shape]:
    battlements = (
        (0.16, 0.4),
        (0.16, 0.06),
        (0.32, 0.06),
        (0.32, 0.18),
        (0.42, 0.18),
        (0.42, 0.06),
        (0.58, 0.06),
        (0.58, 0.18),
        (0.68, 0.18),
        (0.68, 0.06),
        (0.84, 0.06),
        (0.84, 0.4),
    )
    dark = Tint(0.6)
    return [
        box_poly(0.26, 0.34, 0.74, 0.96, Tint()),
        Poly(battlements, Tint(), OUTLINE),
        Poly(((0.4, 0.96), (0.4, 0.76), (0.5, 0.68), (0.6, 0.76), (0.6, 0.96)), dark),
        box_poly(0.45, 0.46, 0.55, 0.58, dark, None),
    ]


def _coin() -> list[Shape]:
    return [
        circle(0.5, 0.5, 0.44, Tint()),
        circle(0.5, 0.5, 0.3, Tint(0.25, GOLD_DARK), Tint(0.7, GOLD_DARK)),
        Line(((0.36, 0.36), (0.42, 0.3)), Tint(0.6, WHITE), 0.06),
    ]


def _queen() -> list[Shape]:
    crown = ((0.3, 0.27), (0.28, 0.04), (0.39, 0.16), (0.5, 0.01), (0.61, 0.16), (0.72, 0.04), (0.7, 0.27))
    return [
        Poly(((0.18, 0.96), (0.82, 0.96), (0.6, 0.48), (0.4, 0.48)), Tint(), OUTLINE),
        Poly(((0.34, 0.6), (0.66, 0.6), (0.6, 0.46), (0.4, 0.46)), Tint(0.3, WHITE), OUTLINE),
        circle(0.5, 0.37, 0.12, (246, 214, 186)),
        Poly(crown, GOLD, OUTLINE),
    ]


def _dragon() -> list[Shape]:
    wing = ((0.36, 0.46), (0.36, 0.02), (0.5, 0.16), (0.64, 0.0), (0.7, 0.18), (0.9, 0.1), (0.72, 0.5))
    body = (
        (0.04, 0.34),  # snout
        (0.14, 0.24),
        (0.22, 0.22),
        (0.24, 0.1),  # horn
        (0.3, 0.24),
        (0.36, 0.3),
        (0.44, 0.46),
        (0.64, 0.5),
        (0.8, 0.44),
        (0.9, 0.3),
        (0.98, 0.32),  # tail tip
        (0.9, 0.4),
        (0.86, 0.56),
        (0.72, 0.68),
        (0.7, 0.9),  # back leg
        (0.6, 0.9),
        (0.58, 0.72),
        (0.46, 0.72),
        (0.42, 0.9),  # front leg
        (0.32, 0.9),
        (0.34, 0.64),
        (0.26, 0.44),
        (0.14, 0.42),
        (0.04, 0.42),
    )
    return [
        Poly(wing, Tint(0.35, (255, 200, 120)), OUTLINE),
        Poly(body, Tint(), OUTLINE),
        circle(0.19, 0.3, 0.03, (255, 230, 90), None),
        Poly(((0.02, 0.37), (-0.0, 0.33), (0.04, 0.38)), (255, 150, 40), None),
    ]


def _turret(x0: float, x1: float, y0: float) -> tuple[Point, ...]:
    m = (x1 - x0) / 3
    return (
        (x0, 0.94),
        (x0, y0),
        (x0 + m * 0.9, y0),
        (x0 + m * 0.9, y0 + 0.07),
        (x1 - m * 0.9, y0 + 0.07),
        (x1 - m * 0.9, y0),
        (x1, y0),
        (x1, 0.94),
    )


CASTLE_STONE: RGB = (214, 210, 200)


def _castle() -> list[Shape]:
    stone = CASTLE_STONE
    door = mix(stone, OUTLINE, 0.65)
    return [
        Poly(_turret(0.06, 0.32, 0.42), stone, OUTLINE),
        Poly(_turret(0.68, 0.94, 0.42), stone, OUTLINE),
        Poly(_turret(0.28, 0.72, 0.3), stone, OUTLINE),
        Line(((0.5, 0.3), (0.5, 0.02)), OUTLINE, 0.04),
        Poly(((0.5, 0.0), (0.86, 0.1), (0.5, 0.2)), Tint(), OUTLINE),
        Poly(((0.42, 0.94), (0.42, 0.72), (0.5, 0.64), (0.58, 0.72), (0.58, 0.94)), door, None),
        box_poly(0.16, 0.56, 0.22, 0.66, door, None),
        box_poly(0.78, 0.56, 0.84, 0.66, door, None),
    ]


def _building() -> list[Shape]:
    walls = (240, 228, 204)
    door = mix(walls, OUTLINE, 0.6)
    return [
        box_poly(0.18, 0.46, 0.82, 0.94, walls),
        Poly(((0.08, 0.5), (0.5, 0.1), (0.92, 0.5)), Tint(), OUTLINE),
        Poly(((0.42, 0.94), (0.42, 0.72), (0.5, 0.66), (0.58, 0.72), (0.58, 0.94)), door, None),
        box_poly(0.26, 0.58, 0.36, 0.68, door, None),
        box_poly(0.64, 0.58, 0.74, 0.68, door, None),
    ]


def _star() -> list[Shape]:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        r = 0.46 if i % 2 == 0 else 0.2
        pts.append((0.5 + r * math.cos(a), 0.53 + r * math.sin(a)))
    return [Poly(tuple(pts), Tint(), OUTLINE)]


# -- terrains: the ground (colour, pattern, bevel) and the symbol --------------------------------------------------
TERRAINS = ("wheat", "forest", "lake", "grassland", "swamp", "mine", "town")
PATTERN_W = 0.035  # a pattern's strokes
BEVEL = 0.035  # the light and dark edges that make a square read as a tile


def _wheat_pattern(ink: RGB) -> list[Shape]:  # stalks with ears
    out: list[Shape] = []
    for x in (0.16, 0.33, 0.71, 0.88):
        out.append(Line(((x, 0.9), (x - 0.03, 0.42)), ink, PATTERN_W))
        for k in range(3):
            y = 0.44 + k * 0.1
            out.append(Line(((x - 0.03, y), (x - 0.09, y - 0.07)), ink, PATTERN_W))
            out.append(Line(((x - 0.03, y), (x + 0.03, y - 0.07)), ink, PATTERN_W))
    return out


def _forest_pattern(ink: RGB) -> list[Shape]:  # little fir trees
    trees = ((0.24, 0.42, 0.18), (0.74, 0.34, 0.2), (0.5, 0.86, 0.16), (0.18, 0.82, 0.14), (0.84, 0.8, 0.15))
    out: list[Shape] = [
        Poly(((x, y - s), (x - s * 0.7, y + s * 0.6), (x + s * 0.7, y + s * 0.6)), ink, None) for x, y, s in trees
    ]
    return out + [Line(((x, y + s * 0.6), (x, y + s * 0.9)), ink, PATTERN_W) for x, y, s in trees]  # the trunks


def _lake_pattern(ink: RGB) -> list[Shape]:  # waves
    out: list[Shape] = []
    for y in (0.32, 0.7, 0.88):
        pts = tuple((0.08 + i * 0.07, y + (0.035 if i % 2 else -0.035)) for i in range(13))
        out.append(Line(pts, ink, PATTERN_W))
    return out


def _grassland_pattern(ink: RGB) -> list[Shape]:  # tufts
    out: list[Shape] = []
    for x, y in ((0.24, 0.45), (0.64, 0.36), (0.36, 0.72), (0.8, 0.64), (0.16, 0.9), (0.62, 0.9), (0.88, 0.9)):
        for dx in (-0.06, 0.0, 0.06):
            out.append(Line(((x, y), (x + dx, y - 0.1 + abs(dx) * 0.6)), ink, PATTERN_W))
    return out


def _swamp_pattern(ink: RGB, ink2: RGB) -> list[Shape]:  # reeds over still water
    reeds = (0.2, 0.34, 0.68, 0.82)
    out: list[Shape] = [Line(((0.1, y), (0.9, y)), ink2, PATTERN_W) for y in (0.66, 0.84)]
    out += [Line(((x, 0.76), (x, 0.36)), ink, PATTERN_W) for x in reeds]
    return out + [Ellipse((x - 0.035, 0.3, x + 0.035, 0.46), ink, None) for x in reeds]


def _mine_pattern(ink: RGB) -> list[Shape]:  # rocks and ore
    out: list[Shape] = []
    for x, y, s in ((0.2, 0.44, 0.06), (0.76, 0.38, 0.07), (0.3, 0.72, 0.05), (0.66, 0.7, 0.06), (0.86, 0.6, 0.04),
                    (0.14, 0.88, 0.05), (0.5, 0.84, 0.05), (0.82, 0.88, 0.06)):  # fmt: skip
        out.append(
            Poly(((x - s, y), (x - s * 0.3, y - s), (x + s, y - s * 0.6), (x + s * 0.8, y + s * 0.7)), ink, None)
        )
    for x, y in ((0.34, 0.36), (0.7, 0.86)):
        out.append(Ellipse((x - 0.03, y - 0.03, x + 0.03, y + 0.03), (226, 190, 90), None))
    return out


def _town_pattern(ink: RGB, ink2: RGB) -> list[Shape]:  # roofs and walls
    houses = ((0.24, 0.5), (0.77, 0.44), (0.5, 0.82))
    out: list[Shape] = [Rect((x - 0.1, y, x + 0.1, y + 0.12), ink2) for x, y in houses]  # walls, then their roofs
    return out + [Poly(((x - 0.14, y + 0.01), (x, y - 0.12), (x + 0.14, y + 0.01)), ink, None) for x, y in houses]


def pattern_inks(terrain: str) -> tuple[RGB, RGB]:
    """The two inks of a terrain's pattern: a little darker on light grounds, lighter on dark ones."""
    base = TERRAIN_COLOURS[terrain]
    light = luminance(base) > 0.45
    return shade(base, -0.22 if light else 0.16), shade(base, -0.12 if light else 0.1)


def _ground(terrain: str) -> list[Shape]:
    """A terrain square's ground: its colour, its pattern (which leaves the middle clear, so the colour shows there
    plainly), and a bevel, light at the top left and dark at the bottom right."""
    base = TERRAIN_COLOURS[terrain]
    ink, ink2 = pattern_inks(terrain)
    pattern = {
        "wheat": lambda: _wheat_pattern(ink),
        "forest": lambda: _forest_pattern(ink),
        "lake": lambda: _lake_pattern(ink),
        "grassland": lambda: _grassland_pattern(ink),
        "swamp": lambda: _swamp_pattern(ink, ink2),
        "mine": lambda: _mine_pattern(ink),
        "town": lambda: _town_pattern(ink, ink2),
    }[terrain]()
    b = BEVEL
    return [
        Rect((0.0, 0.0, 1.0, 1.0), base),
        *pattern,
        Poly(((0, 0), (1, 0), (1 - b, b), (b, b), (b, 1 - b), (0, 1)), shade(base, 0.22), None),
        Poly(((1, 1), (0, 1), (b, 1 - b), (1 - b, 1 - b), (1 - b, b), (1, 0)), shade(base, -0.25), None),
    ]


def symbol_inks(terrain: str) -> tuple[RGB, RGB]:
    """(ink, plate) of a terrain's symbol: dark on a light ground, light on a dark one; the plate under it is the
    ground pushed away from the ink, and the symbol's holes (the snow on the mine, the town's door) are plate."""
    base = TERRAIN_COLOURS[terrain]
    ink = (20, 22, 28) if luminance(base) > 0.45 else (250, 250, 252)
    plate = mix(base, BLACK if ink[0] > 128 else WHITE, 0.3)
    return ink, plate


SYMBOL_W = 0.13


def _symbol(terrain: str) -> list[Shape]:
    """A terrain's symbol, the same in every language: wheat an ear, forest a fir, lake two waves, grassland a tuft,
    swamp reeds, mine a mountain, town a house."""
    ink, paper = symbol_inks(terrain)
    w = SYMBOL_W
    if terrain == "wheat":
        out: list[Shape] = [Line(((0.5, 1.0), (0.5, 0.12)), ink, w)]
        for v in (0.22, 0.44, 0.66):
            out += [Ellipse((0.16, v, 0.46, v + 0.2), ink, None), Ellipse((0.54, v, 0.84, v + 0.2), ink, None)]
        return [*out, Ellipse((0.38, 0.0, 0.62, 0.26), ink, None)]
    if terrain == "forest":
        return [Poly(((0.5, 0.0), (0.08, 0.74), (0.92, 0.74)), ink, None), Rect((0.4, 0.7, 0.6, 1.0), ink)]
    if terrain == "lake":
        return [
            Line(tuple((u / 8, v + (0.12 if i % 2 else -0.12)) for i, u in enumerate(range(9))), ink, w)
            for v in (0.3, 0.72)
        ]
    if terrain == "grassland":
        tufts = (((0.06, 0.18), 0.26, 0.46), ((0.5, 0.0), 0.4, 0.6), ((0.94, 0.18), 0.54, 0.74))
        return [Poly((apex, (a, 1.0), (b, 1.0)), ink, None) for apex, a, b in tufts]
    if terrain == "swamp":
        out = [Line(((0.0, 0.94), (1.0, 0.94)), ink, w)]
        for u, top in ((0.3, 0.0), (0.7, 0.22)):
            out += [Line(((u, 0.94), (u, top + 0.1)), ink, w), Rect((u - 0.12, top, u + 0.12, top + 0.42), ink, 0.1)]
        return out
    if terrain == "mine":
        return [
            Poly(((0.0, 1.0), (0.36, 0.08), (0.58, 0.56), (0.74, 0.34), (1.0, 1.0)), ink, None),
            Poly(((0.36, 0.08), (0.27, 0.32), (0.45, 0.32)), paper, None),  # snow on the peak
        ]
    house = ((0.04, 0.46), (0.5, 0.02), (0.96, 0.46), (0.86, 0.46), (0.86, 1.0), (0.14, 1.0), (0.14, 0.46))
    return [Poly(house, ink, None), Rect((0.4, 0.62, 0.6, 1.0), paper)]


# -- Queendomino's buildings, each its own picture ----------------------------------------------------------------
BROWN: RGB = (150, 96, 52)
WOOD: RGB = (176, 120, 66)
STEEL: RGB = (150, 156, 166)
ALE: RGB = (236, 178, 48)
FOAM: RGB = (250, 248, 240)


def _bakery() -> list[Shape]:  # a loaf
    return [
        Ellipse((0.08, 0.3, 0.92, 0.86), (214, 150, 72), OUTLINE),
        *(Line(((x, 0.44), (x + 0.12, 0.68)), BROWN, 0.05) for x in (0.28, 0.44, 0.6)),
    ]


def _sawmill() -> list[Shape]:  # a log under a saw blade
    teeth = []
    for i in range(24):
        a = i * math.pi / 12
        r = 0.3 if i % 2 == 0 else 0.24
        teeth.append((0.5 + r * math.cos(a), 0.36 + r * math.sin(a)))
    return [
        Poly(tuple(teeth), STEEL, OUTLINE),
        circle(0.5, 0.36, 0.07, (90, 94, 102), None),
        Rect((0.08, 0.66, 0.92, 0.94), WOOD, 0.08),
        circle(0.8, 0.8, 0.1, (214, 170, 110)),
    ]


def _fish_market() -> list[Shape]:  # a fish
    return [
        Poly(((0.62, 0.5), (0.94, 0.26), (0.94, 0.74)), (70, 130, 196), OUTLINE),
        Ellipse((0.06, 0.28, 0.7, 0.72), (98, 164, 226), OUTLINE),
        circle(0.22, 0.44, 0.045, OUTLINE, None),
        Line(((0.36, 0.32), (0.42, 0.5), (0.36, 0.68)), (60, 110, 170), 0.04),
    ]


def _weaver() -> list[Shape]:  # a spool of thread
    thread: RGB = (120, 190, 84)
    return [
        Rect((0.14, 0.08, 0.86, 0.22), WOOD, 0.04),
        Rect((0.24, 0.2, 0.76, 0.8), thread),
        *(Line(((0.24, y), (0.76, y + 0.08)), mix(thread, OUTLINE, 0.35), 0.04) for y in (0.3, 0.46, 0.62)),
        Rect((0.14, 0.78, 0.86, 0.92), WOOD, 0.04),
    ]


def _magic_school() -> list[Shape]:  # a wizard's hat with a star
    hat: RGB = (112, 70, 170)
    return [
        Poly(((0.5, 0.04), (0.8, 0.74), (0.2, 0.74)), hat, OUTLINE),
        Ellipse((0.06, 0.68, 0.94, 0.92), mix(hat, OUTLINE, 0.3), OUTLINE),
        *_star_at(0.5, 0.48, 0.14, GOLD),
    ]


def _star_at(cx: float, cy: float, r: float, fill: RGB) -> list[Shape]:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return [Poly(tuple(pts), fill, None)]


def _forge() -> list[Shape]:  # an anvil under sparks
    anvil = ((0.06, 0.36), (0.86, 0.36), (0.94, 0.3), (0.94, 0.5), (0.68, 0.56), (0.62, 0.74), (0.78, 0.92),
             (0.22, 0.92), (0.38, 0.74), (0.34, 0.56), (0.16, 0.52))  # fmt: skip
    return [
        Poly(anvil, (84, 88, 98), OUTLINE),
        *(
            Line(((x, 0.24), (x + dx, 0.06)), (255, 170, 40), 0.05)
            for x, dx in ((0.4, -0.08), (0.52, 0.0), (0.64, 0.08))
        ),
    ]


def _church() -> list[Shape]:  # a chapel with a cross
    walls: RGB = (232, 222, 204)
    roof: RGB = (120, 80, 150)
    door = mix(walls, OUTLINE, 0.6)
    return [
        box_poly(0.2, 0.5, 0.8, 0.94, walls),
        Poly(((0.12, 0.54), (0.5, 0.26), (0.88, 0.54)), roof, OUTLINE),
        Line(((0.5, 0.28), (0.5, 0.02)), OUTLINE, 0.06),
        Line(((0.4, 0.1), (0.6, 0.1)), OUTLINE, 0.06),
        Poly(((0.42, 0.94), (0.42, 0.74), (0.5, 0.66), (0.58, 0.74), (0.58, 0.94)), door, None),
    ]


def _queens_tower() -> list[Shape]:  # a slender tower under a crown
    stone: RGB = (214, 170, 200)
    return [
        box_poly(0.32, 0.36, 0.68, 0.96, stone),
        Poly(((0.5, 0.6), (0.44, 0.68), (0.44, 0.8), (0.56, 0.8), (0.56, 0.68)), mix(stone, OUTLINE, 0.6), None),
        *crown_shapes(0.2, 0.02, 0.8, 0.36),
    ]


def _statue() -> list[Shape]:  # a figure on a plinth
    marble: RGB = (206, 206, 214)
    return [
        box_poly(0.22, 0.76, 0.78, 0.96, mix(marble, OUTLINE, 0.25)),
        Poly(((0.34, 0.78), (0.66, 0.78), (0.6, 0.36), (0.4, 0.36)), marble, OUTLINE),
        circle(0.5, 0.24, 0.1, marble),
        Line(((0.6, 0.42), (0.78, 0.2)), marble, 0.07),
    ]


def _mug(x: float, y: float, s: float) -> list[Shape]:
    def at(u: float, v: float) -> Point:
        return (x + u * s, y + v * s)

    return [
        Ellipse((*at(0.62, 0.3), *at(0.98, 0.74)), None, OUTLINE, 0.09 * s),
        Poly((at(0.1, 0.2), at(0.74, 0.2), at(0.7, 1.0), at(0.14, 1.0)), ALE, OUTLINE, EDGE * s / 0.8),
        Ellipse((*at(0.02, 0.0), *at(0.82, 0.32)), FOAM, OUTLINE, EDGE * s / 0.8),
    ]


def _tavern() -> list[Shape]:  # a mug of ale
    return _mug(0.14, 0.1, 0.8)


def _big_tavern() -> list[Shape]:  # two mugs
    return [*_mug(0.02, 0.04, 0.56), *_mug(0.4, 0.38, 0.58)]


def _guardtower() -> list[Shape]:  # a watchtower with a banner
    return [
        Line(((0.5, 0.14), (0.5, 0.0)), OUTLINE, 0.04),
        Poly(((0.5, 0.0), (0.8, 0.06), (0.5, 0.12)), (200, 60, 50), None),
        *_tower_at(0.14, 0.14, 0.72),
    ]


def _tower_at(x: float, y: float, s: float) -> list[Shape]:
    stone: RGB = (196, 192, 182)
    out: list[Shape] = []
    for shape in _tower():
        if isinstance(shape, Poly):
            pts = tuple((x + u * s, y + v * s) for u, v in shape.points)
            fill = resolve(shape.fill, stone) if shape.fill is not None else None
            out.append(Poly(pts, fill, shape.outline, shape.width * s))
    return out


def _treasury() -> list[Shape]:  # a chest with a lock
    return [
        box_poly(0.08, 0.42, 0.92, 0.92, WOOD),
        Poly(((0.08, 0.42), (0.14, 0.16), (0.86, 0.16), (0.92, 0.42)), mix(WOOD, WHITE, 0.15), OUTLINE),
        box_poly(0.08, 0.4, 0.92, 0.5, GOLD),
        box_poly(0.42, 0.44, 0.58, 0.66, GOLD),
        circle(0.5, 0.56, 0.03, OUTLINE, None),
    ]


def _fortified_guardhouse() -> list[Shape]:  # a shield with a cross
    shield = ((0.14, 0.08), (0.86, 0.08), (0.86, 0.5), (0.5, 0.96), (0.14, 0.5))
    return [
        Poly(shield, (70, 110, 180), OUTLINE),
        Line(((0.5, 0.16), (0.5, 0.82)), GOLD, 0.1),
        Line(((0.22, 0.4), (0.78, 0.4)), GOLD, 0.1),
    ]


def _travelling_castle() -> list[Shape]:  # a castle on wheels
    out: list[Shape] = []
    for shape in _castle():
        if isinstance(shape, Poly):
            pts = tuple((0.08 + u * 0.84, 0.0 + v * 0.74) for u, v in shape.points)
            fill = resolve(shape.fill, (200, 60, 50)) if shape.fill is not None else None
            out.append(Poly(pts, fill, shape.outline, shape.width * 0.84))
    return [*out, circle(0.28, 0.82, 0.13, WOOD), circle(0.72, 0.82, 0.13, WOOD)]


def _training_camp() -> list[Shape]:  # a target with an arrow
    return [
        circle(0.46, 0.54, 0.4, (236, 236, 236)),
        circle(0.46, 0.54, 0.27, (200, 60, 50)),
        circle(0.46, 0.54, 0.12, (236, 236, 236)),
        Line(((0.46, 0.54), (0.94, 0.06)), (90, 60, 40), 0.06),
        Poly(((0.94, 0.06), (0.76, 0.1), (0.9, 0.24)), (90, 60, 40), None),
    ]


BUILDING_DRAWINGS = {
    "bakery": _bakery,
    "sawmill": _sawmill,
    "fish_market": _fish_market,
    "weaver": _weaver,
    "magic_school": _magic_school,
    "forge": _forge,
    "church": _church,
    "queens_tower": _queens_tower,
    "statue": _statue,
    "tavern": _tavern,
    "guardtower": _guardtower,
    "big_tavern": _big_tavern,
    "treasury": _treasury,
    "fortified_guardhouse": _fortified_guardhouse,
    "travelling_castle": _travelling_castle,
    "training_camp": _training_camp,
}
BUILDING_GROUND = (BUILDING_PLATE, BUILDING_INK)  # a built square: a warm plate, its edge ink


# -- the pieces ---------------------------------------------------------------------------------------------------
_ICONS: dict[str, tuple] = {
    # key: (shapes, colour when none is given, tinted by a seat's colour)
    "crown": (_crown, GOLD, False),
    "king": (_king, (200, 200, 200), True),
    "knight": (_knight, (200, 200, 200), True),
    "tower": (_tower, (196, 192, 182), False),
    "coin": (_coin, GOLD, False),
    "queen": (_queen, (196, 64, 140), False),
    "dragon": (_dragon, (206, 58, 44), False),
    "castle": (_castle, (200, 200, 200), True),
    "building": (_building, (186, 78, 58), False),
    "star": (_star, GOLD, False),
}
ICONS = tuple(_ICONS)


@cache
def pieces() -> dict[str, Piece]:
    """Every piece by key."""
    out: dict[str, Piece] = {}
    for key, (make, colour, tinted) in _ICONS.items():
        out[key] = Piece(key, tuple(make()), colour, tinted)
    for t in TERRAINS:
        out[f"ground-{t}"] = Piece(f"ground-{t}", tuple(_ground(t)), TERRAIN_COLOURS[t], ground=1)
        out[f"symbol-{t}"] = Piece(f"symbol-{t}", tuple(_symbol(t)), symbol_inks(t)[0])
    for bid, make in BUILDING_DRAWINGS.items():
        out[f"building-{bid}"] = Piece(f"building-{bid}", tuple(make()), BUILDING_PLATE)
    return out


def piece(key: str) -> Piece:
    return pieces()[key]
