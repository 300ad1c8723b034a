"""The shared art (render/art.py) as SVG: one `<symbol>` per piece, for the web board to define once on its page and
`<use>`. Kings, knights and castles take the seat's colour from the `<use>` (`color="#e66101"`: `currentColor`).

An outline is drawn inside its shape, as Pillow draws it: a stroke twice as wide, clipped to the shape. A colour mixed
towards another (`Tint(0.35)`: a seat's colour, darker) is the seat's colour with the other laid over it at that
opacity: the same mix, for any colour the `<use>` gives.

Besides the pieces, a few symbols the board composes squares with (`board_symbols`); where each goes on a square
(the symbol's plate, the crowns, knights, the queen, a building's picture and towers) is the board's layout
(web/static/board.js).
"""

from __future__ import annotations

from functools import cache

from . import art
from .art import Ellipse, Line, Piece, Poly, Rect, Shape, Tint
from .palette import BUILDING_PLATE, OUTLINE, RGB, mix

UNIT = 100  # a symbol's viewBox is 0 0 100 100

SYMBOL_PAD = 0.1  # a terrain's symbol inside its plate, a share of the plate's side


def _n(v: float) -> str:
    text = f"{v * UNIT:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _hex(c: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def _d(shape: Shape) -> str:
    """A shape's outline as path data (a line: its points; a box with round corners: arcs at its corners)."""
    if isinstance(shape, Line | Poly):
        head, *rest = shape.points
        d = f"M{_n(head[0])},{_n(head[1])}" + "".join(f"L{_n(x)},{_n(y)}" for x, y in rest)
        return d if isinstance(shape, Line) else d + "Z"
    x0, y0, x1, y1 = shape.box
    if isinstance(shape, Ellipse):
        rx, ry, cy = (x1 - x0) / 2, (y1 - y0) / 2, (y0 + y1) / 2
        arc = f"A{_n(rx)},{_n(ry)} 0 1 0 "
        return f"M{_n(x0)},{_n(cy)}{arc}{_n(x1)},{_n(cy)}{arc}{_n(x0)},{_n(cy)}Z"
    r = min(shape.radius, (x1 - x0) / 2, (y1 - y0) / 2)
    if not r:
        return f"M{_n(x0)},{_n(y0)}H{_n(x1)}V{_n(y1)}H{_n(x0)}Z"
    arc = f"A{_n(r)},{_n(r)} 0 0 1 "
    return (
        f"M{_n(x0 + r)},{_n(y0)}H{_n(x1 - r)}{arc}{_n(x1)},{_n(y0 + r)}V{_n(y1 - r)}{arc}{_n(x1 - r)},{_n(y1)}"
        f"H{_n(x0 + r)}{arc}{_n(x0)},{_n(y1 - r)}V{_n(y0 + r)}{arc}{_n(x0 + r)},{_n(y0)}Z"
    )


class _Writer:
    """The SVG of one piece's shapes, as few elements as draw them alike: shapes of one flat colour in a row become one
    path (a board draws hundreds of squares; each element of a symbol is cloned into every `<use>` of it)."""

    def __init__(self, piece: Piece) -> None:
        self.piece = piece
        self.out: list[str] = []
        self.clips = 0
        self.pending: tuple[str, list[str]] | None = None  # (the attributes of a path being gathered, its parts)

    def paints(self, paint) -> list[tuple[str, float]]:
        """[(colour, opacity)] to lay one over the other for `paint`."""
        if isinstance(paint, Tint):
            if not self.piece.tinted:
                return [(_hex(art.resolve(paint, self.piece.colour)), 1.0)]
            layers = [("currentColor", 1.0)]
            if paint.t:
                layers.append((_hex(paint.toward), paint.t))
            return layers
        return [(_hex(paint), 1.0)]

    def path(self, attributes: str, d: str, merge: bool) -> None:
        if merge and self.pending is not None and self.pending[0] == attributes:
            self.pending[1].append(d)
            return
        self.flush()
        if merge:
            self.pending = (attributes, [d])
        else:
            self.out.append(f'<path d="{d}" {attributes}/>')

    def flush(self) -> None:
        if self.pending is not None:
            attributes, parts = self.pending
            self.out.append(f'<path d="{"".join(parts)}" {attributes}/>')
            self.pending = None

    def shape(self, shape: Shape) -> None:
        d = _d(shape)
        if isinstance(shape, Line):
            for colour, opacity in self.paints(shape.colour):
                extra = f' stroke-opacity="{opacity:g}"' if opacity < 1 else ""
                style = f'fill="none" stroke="{colour}" stroke-width="{_n(shape.width)}" stroke-linejoin="round"'
                self.path(style + extra, d, opacity == 1)
            return
        fill = shape.fill
        outline, width = (None, 0.0) if isinstance(shape, Rect) else (shape.outline, shape.width)
        if fill is not None:
            for colour, opacity in self.paints(fill):
                extra = f' fill-opacity="{opacity:g}"' if opacity < 1 else ""
                self.path(f'fill="{colour}"{extra}', d, opacity == 1)
        if outline is not None:  # drawn inside the shape, as Pillow draws it: twice as wide, clipped to the shape
            self.flush()
            self.clips += 1
            clip = f"{self.piece.key}-c{self.clips}"
            self.out.append(f'<clipPath id="{clip}"><path d="{d}"/></clipPath>')
            for colour, opacity in self.paints(outline):
                extra = f' stroke-opacity="{opacity:g}"' if opacity < 1 else ""
                style = f'fill="none" stroke="{colour}" stroke-width="{_n(2 * width)}" clip-path="url(#{clip})"'
                self.path(style + extra, d, False)


def piece_svg(piece: Piece) -> str:
    """The piece's shapes as SVG elements in a 100x100 box."""
    writer = _Writer(piece)
    for shape in piece.shapes:
        writer.shape(shape)
    writer.flush()
    return "".join(writer.out)


def symbol(piece: Piece) -> str:
    return f'<symbol id="{piece.key}" viewBox="0 0 {UNIT} {UNIT}">{piece_svg(piece)}</symbol>'


def _use(key: str, x: float, y: float, side: float) -> str:
    return f'<use href="#{key}" x="{_n(x)}" y="{_n(y)}" width="{_n(side)}" height="{_n(side)}"/>'


def board_symbols() -> list[str]:
    """The board's own symbols, made of the pieces: each terrain's symbol on its plate (`emblem-<terrain>`, drawn in
    a square's top left corner), the castle's square in a seat's colour (`square-castle`) and a built square's warm
    plate (`plate-building`)."""
    out = []
    pad = SYMBOL_PAD
    for t in art.TERRAINS:
        _, plate = art.symbol_inks(t)
        out.append(
            f'<symbol id="emblem-{t}" viewBox="0 0 {UNIT} {UNIT}"><rect width="100" height="100" rx="16" '
            f'fill="{_hex(plate)}"/>{_use(f"symbol-{t}", pad, pad, 1 - 2 * pad)}</symbol>'
        )
    # The castle's square: the seat's colour, darkened, framed in it; the castle flies the seat's flag.
    out.append(
        f'<symbol id="square-castle" viewBox="0 0 {UNIT} {UNIT}"><rect width="100" height="100" fill="currentColor"/>'
        f'<rect width="100" height="100" fill="#1e1e24" fill-opacity="0.55"/>'
        f'<rect x="3.5" y="3.5" width="93" height="93" fill="none" stroke="currentColor" stroke-width="7"/>'
        f"{_use('castle', 0.13, 0.15, 0.74)}</symbol>"
    )
    edge = _hex(mix(BUILDING_PLATE, OUTLINE, 0.5))
    out.append(
        f'<symbol id="plate-building" viewBox="0 0 {UNIT} {UNIT}"><rect x="2.5" y="2.5" width="95" height="95" '
        f'fill="{_hex(BUILDING_PLATE)}" stroke="{edge}" stroke-width="5"/></symbol>'
    )
    return out


@cache
def sprite() -> str:
    """Every piece and board square as one hidden `<svg>` of symbols, to put once in the page."""
    symbols = [symbol(p) for p in art.pieces().values()] + board_symbols()
    return (
        '<svg class="sprite" aria-hidden="true" focusable="false">'  # in HTML: no namespace to name
        f"<defs>{''.join(symbols)}</defs></svg>"
    )
