"""Every picture drawn in a language, with a recording of the text it drew: for the language tests and for looking.

with recording() as drawn: png = render_offer(..., lang="cs")   # drawn: a list of Drawn, one per text() call
pictures(lang) -> {name: (bytes, [Drawn, ...])}                   # every picture of three real mid-game states
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from dataclasses import dataclass

from engine import Place
from render import draw as draw_module
from render import (
    render_dragon,
    render_kingdom,
    render_offer,
    render_placement,
    render_remaining,
    render_score_sheet,
    render_table,
    render_tax,
)
from render.chart import render_score_chart
from render.replay import frame_drawer, replay_steps

from .helpers import names_for, sample_states

# The modules that draw text with `from .draw import text`: each gets the recording.
MODULES = ("chart", "kingdom", "large", "panels", "remaining", "replay", "sheet", "table")

# Kingdomino with 2 players, Queendomino with 4, Royal Wedding with 8 in teams (seeds as the goldens).


@dataclass(frozen=True)
class Drawn:
    """One text() call: what was asked, what was drawn (cut to max_width), where, and the picture's width."""

    asked: str
    shown: str
    size: int
    bold: bool
    x: float
    y: float
    anchor: str
    width: float
    max_width: float | None
    picture_width: int

    @property
    def left(self) -> float:
        return {"l": self.x, "m": self.x - self.width / 2, "r": self.x - self.width}.get(self.anchor[0], self.x)

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def top(self) -> float:
        a = self.anchor[1] if len(self.anchor) > 1 else "a"
        return {"a": self.y, "t": self.y, "m": self.y - self.size / 2}.get(a, self.y - self.size)

    @property
    def bottom(self) -> float:
        return self.top + self.size

    @property
    def cut(self) -> bool:
        return self.shown != draw_module._drawable_line(self.asked)


@contextlib.contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Record every text() the render modules draw while inside the block."""
    drawn: list[Drawn] = []
    real = draw_module.text

    def text(draw, xy, s, size, *, bold=False, fill=None, anchor="la", max_width=None):
        kwargs = {"bold": bold, "anchor": anchor, "max_width": max_width}
        if fill is not None:
            kwargs["fill"] = fill
        width = real(draw, xy, s, size, **kwargs)
        shown = draw_module._fitted(s, size, bold, None if max_width is None else round(max_width))
        drawn.append(Drawn(s, shown, size, bold, xy[0], xy[1], anchor, width, max_width, draw.image.width))
        return width

    modules = [importlib.import_module(f"render.{m}") for m in MODULES]
    for m in modules:
        m.text = text  # type: ignore[attr-defined]
    try:
        yield drawn
    finally:
        for m in modules:
            m.text = real  # type: ignore[attr-defined]


def pictures(key: str, lang: str) -> dict[str, tuple[bytes, list[Drawn]]]:
    """Every picture of game `key` in `lang`, each with the text it drew. Replay: one frame (mid-game) and the last."""
    out: dict[str, tuple[bytes, list[Drawn]]] = {}
    found = sample_states(key)
    place = found["place"]
    d = place.decision()
    names = names_for(place)
    places = [a for a in place.legal_actions() if isinstance(a, Place)]
    spots = sorted({(a.row, a.col) for a in places})
    busiest = max(spots, key=lambda c: (sum(1 for a in places if (a.row, a.col) == c), c))
    preview = (d.domino, places[0].placement)

    def take(name: str, fn, *args, **kwargs) -> None:
        with recording() as drawn:
            data = fn(*args, **kwargs, lang=lang)
        out[name] = (data, drawn)

    take("table", render_table, place, names, None, d.player)
    take("kingdom", render_kingdom, place, d.kingdom, names, None, legal_spots=spots)
    take("kingdom_preview", render_kingdom, place, d.kingdom, names, None, preview=preview)
    take("kingdom_over", render_kingdom, found["over"], 0, names, None)
    take("placement", render_placement, place, d.player, d.domino, busiest, names, None)
    take("offer", render_offer, found["claim"], found["claim"].decision().player, names, None)
    take("remaining", render_remaining, place)
    take("score_sheet", render_score_sheet, found["over"], names, None)
    over = found["over"]
    log = [(p, a.to_dict()) for p, a in over.log]
    take("chart", render_score_chart, over.config, over.seed, log, names, None)
    if "tax" in found:
        take("tax", render_tax, found["tax"], found["tax"].decision().player, names, None)
    if "dragon" in found:
        take("dragon", render_dragon, found["dragon"], found["dragon"].decision().player, names, None)
    steps = replay_steps(over.config, over.seed, log)
    draw = frame_drawer(steps, names, None, lang=lang)
    for label, i in (("replay_start", 0), ("replay_mid", len(steps) // 2), ("replay_end", len(steps) - 1)):
        with recording() as drawn:
            frame = draw(i)
        out[label] = (_png(frame), drawn)
    return out


def _png(im) -> bytes:
    import io

    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()
