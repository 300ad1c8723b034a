"""Pillow's painter of the shared art (render/art.py): a piece's shapes drawn into a box of a picture."""

from __future__ import annotations

from collections.abc import Iterable

from PIL import ImageDraw

from .art import Ellipse, Line, Piece, Poly, Rect, Shape, resolve
from .palette import RGB


def paint(
    draw: ImageDraw.ImageDraw,
    shapes: Piece | Iterable[Shape],
    x: float,
    y: float,
    scale: float,
    colour: RGB | None = None,
    *,
    edge_min: int = 1,
) -> None:
    """Draw `shapes` (a piece's, or some of them) with the unit square at (x, y), `scale` pixels wide, in `colour`
    (default: the piece's own). Outlines are at least `edge_min` pixels wide (a supersampled picture passes its
    factor: one pixel once scaled down), strokes at least one."""
    if isinstance(shapes, Piece):
        colour = colour or shapes.colour
        shapes = shapes.shapes
    tint = colour or (200, 200, 200)

    def at(u: float, v: float) -> tuple[float, float]:
        return (x + u * scale, y + v * scale)

    for shape in shapes:
        if isinstance(shape, Poly):
            outline = resolve(shape.outline, tint) if shape.outline is not None else None
            width = max(edge_min, round(shape.width * scale)) if outline else 0
            fill = resolve(shape.fill, tint) if shape.fill is not None else None
            draw.polygon([at(*p) for p in shape.points], fill=fill, outline=outline, width=width)
        elif isinstance(shape, Ellipse):
            outline = resolve(shape.outline, tint) if shape.outline is not None else None
            width = max(edge_min, round(shape.width * scale)) if outline else 0
            fill = resolve(shape.fill, tint) if shape.fill is not None else None
            (a, b), (c, d) = at(*shape.box[:2]), at(*shape.box[2:])
            if outline is None:
                draw.ellipse((a, b, c, d), fill=fill)
            else:
                draw.ellipse((a, b, c, d), fill=fill, outline=outline, width=width)
        elif isinstance(shape, Rect):
            box = [at(*shape.box[:2]), at(*shape.box[2:])]
            if shape.radius:
                draw.rounded_rectangle(box, radius=shape.radius * scale, fill=resolve(shape.fill, tint))
            else:
                draw.rectangle(box, fill=resolve(shape.fill, tint))
        elif isinstance(shape, Line):
            width = max(1, round(shape.width * scale))
            draw.line([at(*p) for p in shape.points], fill=resolve(shape.colour, tint), width=width, joint="curve")
