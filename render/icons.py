"""Small drawn icons: crowns, kings, knights, towers, coins, the queen, the dragon, castles and buildings.

Each is drawn with polygons and ellipses at four times its size and scaled down (smooth edges), then cached:
an icon is an RGBA image to paste with itself as the mask. Shapes are given in a unit square.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from .palette import GOLD, GOLD_DARK, OUTLINE, RGB, mix

SS = 4  # supersampling factor
Point = tuple[float, float]


class _Pen:
    """Draws unit-square shapes onto a supersampled RGBA canvas."""

    def __init__(self, size: int) -> None:
        self.px = size * SS
        self.image = Image.new("RGBA", (self.px, self.px), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)
        self.line = max(SS, round(self.px * 0.055))  # outline width

    def p(self, pts: Sequence[Point]) -> list[tuple[float, float]]:
        return [(x * self.px, y * self.px) for x, y in pts]

    def poly(self, pts: Sequence[Point], fill: RGB, outline: RGB | None = OUTLINE) -> None:
        self.draw.polygon(self.p(pts), fill=fill, outline=outline, width=self.line if outline else 0)

    def ellipse(self, x0: float, y0: float, x1: float, y1: float, fill: RGB, outline: RGB | None = OUTLINE) -> None:
        (a, b), (c, d) = self.p([(x0, y0), (x1, y1)])
        self.draw.ellipse((a, b, c, d), fill=fill, outline=outline, width=self.line if outline else 0)

    def circle(self, cx: float, cy: float, r: float, fill: RGB, outline: RGB | None = OUTLINE) -> None:
        self.ellipse(cx - r, cy - r, cx + r, cy + r, fill, outline)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: RGB, outline: RGB | None = OUTLINE) -> None:
        self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], fill, outline)

    def stroke(self, pts: Sequence[Point], fill: RGB, width: float) -> None:
        self.draw.line(self.p(pts), fill=fill, width=max(1, round(width * self.px)), joint="curve")

    def done(self, size: int) -> Image.Image:
        return self.image.resize((size, size), Image.Resampling.LANCZOS)


def _crown_shape(pen: _Pen, x0: float, y0: float, x1: float, y1: float, fill: RGB = GOLD) -> None:
    w, h = x1 - x0, y1 - y0

    def at(u: float, v: float) -> Point:
        return (x0 + u * w, y0 + v * h)

    pen.poly(
        [at(0.1, 0.9), at(0.04, 0.3), at(0.3, 0.55), at(0.5, 0.12), at(0.7, 0.55), at(0.96, 0.3), at(0.9, 0.9)], fill
    )
    pen.poly([at(0.1, 0.72), at(0.9, 0.72), at(0.9, 0.9), at(0.1, 0.9)], mix(fill, GOLD_DARK, 0.45))
    for u, v in ((0.04, 0.26), (0.5, 0.1), (0.96, 0.26)):
        cx, cy = at(u, v)
        pen.circle(cx, cy, 0.06 * w, fill, None)


def crown(pen: _Pen, colour: RGB) -> None:
    _crown_shape(pen, 0.04, 0.1, 0.96, 0.9)


def king(pen: _Pen, colour: RGB) -> None:
    dark = mix(colour, OUTLINE, 0.35)
    pen.ellipse(0.14, 0.82, 0.86, 0.98, dark)
    pen.poly([(0.26, 0.9), (0.74, 0.9), (0.62, 0.5), (0.38, 0.5)], colour)
    pen.ellipse(0.3, 0.46, 0.7, 0.56, dark)
    pen.circle(0.5, 0.38, 0.13, colour)
    _crown_shape(pen, 0.3, 0.02, 0.7, 0.28)


def knight(pen: _Pen, colour: RGB) -> None:
    pen.ellipse(0.14, 0.84, 0.86, 0.98, mix(colour, OUTLINE, 0.35))
    body = [
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
    ]
    pen.poly(body, colour)
    pen.circle(0.36, 0.3, 0.045, OUTLINE, None)
    pen.stroke([(0.62, 0.22), (0.72, 0.4), (0.74, 0.6)], mix(colour, OUTLINE, 0.4), 0.05)


def tower(pen: _Pen, colour: RGB) -> None:
    stone = colour
    pen.rect(0.26, 0.34, 0.74, 0.96, stone)
    pen.poly(
        [
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
        ],
        stone,
    )
    dark = mix(stone, OUTLINE, 0.6)
    pen.poly([(0.4, 0.96), (0.4, 0.76), (0.5, 0.68), (0.6, 0.76), (0.6, 0.96)], dark, None)
    pen.rect(0.45, 0.46, 0.55, 0.58, dark, None)


def coin(pen: _Pen, colour: RGB) -> None:
    pen.circle(0.5, 0.5, 0.44, colour)
    pen.circle(0.5, 0.5, 0.3, mix(colour, GOLD_DARK, 0.25), mix(colour, GOLD_DARK, 0.7))
    pen.stroke([(0.36, 0.36), (0.42, 0.3)], mix(colour, (255, 255, 255), 0.6), 0.06)


def queen(pen: _Pen, colour: RGB) -> None:
    dress = colour
    pen.poly([(0.18, 0.96), (0.82, 0.96), (0.6, 0.48), (0.4, 0.48)], dress)
    pen.poly([(0.34, 0.6), (0.66, 0.6), (0.6, 0.46), (0.4, 0.46)], mix(dress, (255, 255, 255), 0.3))
    pen.circle(0.5, 0.37, 0.12, (246, 214, 186))
    pts = [(0.3, 0.27), (0.28, 0.04), (0.39, 0.16), (0.5, 0.01), (0.61, 0.16), (0.72, 0.04), (0.7, 0.27)]
    pen.poly(pts, GOLD)


def dragon(pen: _Pen, colour: RGB) -> None:
    wing = [(0.36, 0.46), (0.36, 0.02), (0.5, 0.16), (0.64, 0.0), (0.7, 0.18), (0.9, 0.1), (0.72, 0.5)]
    pen.poly(wing, mix(colour, (255, 200, 120), 0.35))
    body = [
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
    ]
    pen.poly(body, colour)
    pen.circle(0.19, 0.3, 0.03, (255, 230, 90), None)
    pen.poly([(0.02, 0.37), (-0.0, 0.33), (0.04, 0.38)], (255, 150, 40), None)


def castle(pen: _Pen, colour: RGB) -> None:
    stone = (214, 210, 200)

    def turret(x0: float, x1: float, y0: float) -> list[Point]:
        m = (x1 - x0) / 3
        return [
            (x0, 0.94),
            (x0, y0),
            (x0 + m * 0.9, y0),
            (x0 + m * 0.9, y0 + 0.07),
            (x1 - m * 0.9, y0 + 0.07),
            (x1 - m * 0.9, y0),
            (x1, y0),
            (x1, 0.94),
        ]

    pen.poly(turret(0.06, 0.32, 0.42), stone)
    pen.poly(turret(0.68, 0.94, 0.42), stone)
    pen.poly(turret(0.28, 0.72, 0.3), stone)
    pen.stroke([(0.5, 0.3), (0.5, 0.02)], OUTLINE, 0.04)
    pen.poly([(0.5, 0.0), (0.86, 0.1), (0.5, 0.2)], colour)
    door = mix(stone, OUTLINE, 0.65)
    pen.poly([(0.42, 0.94), (0.42, 0.72), (0.5, 0.64), (0.58, 0.72), (0.58, 0.94)], door, None)
    pen.rect(0.16, 0.56, 0.22, 0.66, door, None)
    pen.rect(0.78, 0.56, 0.84, 0.66, door, None)


def building_icon(pen: _Pen, colour: RGB) -> None:
    walls = (240, 228, 204)
    pen.rect(0.18, 0.46, 0.82, 0.94, walls)
    pen.poly([(0.08, 0.5), (0.5, 0.1), (0.92, 0.5)], colour)
    door = mix(walls, OUTLINE, 0.6)
    pen.poly([(0.42, 0.94), (0.42, 0.72), (0.5, 0.66), (0.58, 0.72), (0.58, 0.94)], door, None)
    pen.rect(0.26, 0.58, 0.36, 0.68, door, None)
    pen.rect(0.64, 0.58, 0.74, 0.68, door, None)


def star(pen: _Pen, colour: RGB) -> None:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        r = 0.46 if i % 2 == 0 else 0.2
        pts.append((0.5 + r * math.cos(a), 0.53 + r * math.sin(a)))
    pen.poly(pts, colour)


_SHAPES: dict[str, tuple[Callable[[_Pen, RGB], None], RGB]] = {
    "crown": (crown, GOLD),
    "king": (king, (200, 200, 200)),
    "knight": (knight, (200, 200, 200)),
    "tower": (tower, (196, 192, 182)),
    "coin": (coin, GOLD),
    "queen": (queen, (196, 64, 140)),
    "dragon": (dragon, (206, 58, 44)),
    "castle": (castle, (200, 200, 200)),
    "building": (building_icon, (186, 78, 58)),
    "star": (star, GOLD),
}
ICONS = tuple(_SHAPES)


@lru_cache(maxsize=1024)
def icon(kind: str, size: int, colour: RGB | None = None) -> Image.Image:
    """An RGBA icon `size` pixels square. `colour` tints kings, knights, castle flags and the like."""
    draw, default = _SHAPES[kind]
    size = max(4, int(size))
    pen = _Pen(size)
    draw(pen, tuple(colour) if colour else default)  # type: ignore[arg-type]
    return pen.done(size)


def paste(target: Image.Image, kind: str, x: float, y: float, size: int, colour: RGB | None = None) -> None:
    """Paste an icon with its top-left corner at (x, y)."""
    im = icon(kind, size, colour)
    target.paste(im, (round(x), round(y)), im)
