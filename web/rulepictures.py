"""The rules page's pictures: the board's own pieces (the art's symbols that render/svg.py defines and the page carries,
`<use>`d as the board does), composed into dominoes, small kingdoms and legends. The examples are the engine's: a
pictured placement is one the engine accepts or refuses (`Kingdom.placement_refusal`), a pictured kingdom's worth
is the engine's territories (`Kingdom.territories`), the builders' board's costs its data."""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cache

from cogs.rulebook import Table
from cogs.words import terrain_word
from engine.components import Domino, Square, builders_board_spec
from engine.kingdom import Kingdom, Placement
from i18n import messages as M
from i18n import term, translate, translate_plural
from render.palette import BOX_COLOURS, LEGAL, LOSS, PLAYER_COLOURS

U = 100  # a square, in SVG units (as on the board)
EMBLEM = (5, 5, 40)  # the terrain's symbol on its plate, top left (web/static/board.js's EMBLEM)
CROWN_Y, CROWN_SIZE, CROWN_GAP = 70, 26, 2  # crowns in a row along the bottom (board.js's CROWN)
SEAT = "#{:02x}{:02x}{:02x}".format(*PLAYER_COLOURS[0])
OK, NO = ("#{:02x}{:02x}{:02x}".format(*c) for c in (LEGAL, LOSS))
EMPTY, EDGE = "#2b323e", "#3c4554"


def use(key: str, x: float, y: float, size: float, colour: str | None = None) -> str:
    tint = f' color="{colour}"' if colour else ""
    return f'<use href="#{key}" x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}"{tint}/>'


def square(x: float, y: float, terrain: str, crowns: int) -> str:
    """A square as the board draws it: its ground, its terrain's symbol top left, its crowns along the bottom."""
    out = use("ground-" + terrain, x, y, U) + use("emblem-" + terrain, x + EMBLEM[0], y + EMBLEM[1], EMBLEM[2])
    total = crowns * CROWN_SIZE + (crowns - 1) * CROWN_GAP
    cx = x + (U - total) / 2
    for _ in range(crowns):
        out += use("crown", cx, y + CROWN_Y, CROWN_SIZE)
        cx += CROWN_SIZE + CROWN_GAP
    return out


def svg(width: float, height: float, body: str, cls: str, label: str | None = None) -> str:
    """An inline picture; named for screen readers when `label` says what it shows, else hidden from them."""
    named = f'role="img" aria-label="{html.escape(label)}"' if label else 'aria-hidden="true"'
    return f'<svg class="{cls}" viewBox="0 0 {width:g} {height:g}" {named} focusable="false">{body}</svg>'


def domino_svg(squares: tuple[tuple[str, int], ...], frame: str = "#101218", cls: str = "pic domino") -> str:
    body = "".join(square(i * U, 0, t, c) for i, (t, c) in enumerate(squares))
    body += f'<rect x="2" y="2" width="196" height="96" rx="5" fill="none" stroke="{frame}" stroke-width="4"/>'
    return svg(2 * U, U, body, cls)


def icon(key: str, colour: str | None = None) -> str:
    return svg(U, U, use(key, 0, 0, U, colour), "pic")


def built(building_id: str, cls: str = "pic") -> str:
    """A building on its warm plate, as a built town square shows it."""
    return svg(U, U, use("plate-building", 0, 0, U) + use("building-" + building_id, 12, 12, 76), cls)


# -- the icons beside the summary's and the sections' items ---------------------------------------------------------------
def boxes() -> str:
    """Royal Wedding: a domino of each box, framed in its box's colour."""
    q, k = ("#{:02x}{:02x}{:02x}".format(*BOX_COLOURS[b]) for b in "QK")
    body = "".join(square(i * U, 0, t, c) for i, (t, c) in enumerate((("town", 0), ("lake", 1))))
    body += f'<rect x="3" y="3" width="194" height="94" rx="6" fill="none" stroke="{q}" stroke-width="6"/>'
    body += "".join(square(i * U, 110, t, c) for i, (t, c) in enumerate((("wheat", 1), ("forest", 0))))
    body += f'<rect x="3" y="113" width="194" height="94" rx="6" fill="none" stroke="{k}" stroke-width="6"/>'
    return svg(2 * U, 210, body, "pic domino tall")


def steps() -> str:
    """Queendomino's optional steps: a knight, a building, the dragon."""
    body = use("knight", 0, 0, U, SEAT) + use("plate-building", 105, 5, 90) + use("building-forge", 115, 15, 70)
    return svg(2 * U, 2 * U, body + use("dragon", 50, 100, U), "pic")


def castle_and_domino() -> str:
    """Where a domino goes: beside the castle, and a forest beside a forest."""
    body = use("square-castle", 0, 0, U, SEAT) + square(U, 0, "forest", 0) + square(2 * U, 0, "lake", 1)
    body += square(U, U, "forest", 1) + square(2 * U, U, "grassland", 0)
    return svg(3 * U, 2 * U, body, "pic wide")


ICONS = {
    "domino": lambda: domino_svg((("wheat", 1), ("forest", 0))),
    "domino-town": lambda: domino_svg((("town", 0), ("wheat", 1))),
    "boxes": boxes,
    "king": lambda: icon("king", SEAT),
    "steps": steps,
    "queen": lambda: icon("queen"),
    "castle": castle_and_domino,
    "crown": lambda: icon("crown"),
    "knight": lambda: icon("knight", SEAT),
    "tower": lambda: icon("tower"),
    "coin": lambda: icon("coin"),
    "dragon": lambda: icon("dragon"),
    "building": lambda: built("statue"),
    "building-crown": lambda: built("queens_tower"),
}


@cache
def item_picture(key: str | None) -> str:
    """The small picture beside a summary's or a section's item (none for None)."""
    return ICONS[key]() if key else ""


# -- small kingdoms: the placing examples, the scored example, the Middle Kingdom -------------------------------------------
GRID_LETTERS = {"W": "wheat", "F": "forest", "L": "lake", "G": "grassland", "S": "swamp", "M": "mine", "T": "town"}


def cells(rows: tuple[str, ...]) -> dict[tuple[int, int], tuple[str, int] | None]:
    """A kingdom's text form (`CC` the castle, `..` empty, a letter and crowns) by cell; None for the castle."""
    out: dict[tuple[int, int], tuple[str, int] | None] = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row.split()):
            if cell == "CC":
                out[(r, c)] = None
            elif cell != "..":
                out[(r, c)] = (GRID_LETTERS[cell[0]], int(cell[1]))
    return out


def kingdom_svg(rows: tuple[str, ...], extra: str = "", label: str | None = None, cls: str = "kingdom") -> str:
    height, width = len(rows), len(rows[0].split())
    body = "".join(
        f'<rect x="{c * U + 2}" y="{r * U + 2}" width="{U - 4}" height="{U - 4}" rx="6" fill="{EMPTY}" stroke="{EDGE}" '
        f'stroke-width="3"/>'
        for r in range(height)
        for c in range(width)
    )
    for (r, c), sq in cells(rows).items():
        body += use("square-castle", c * U, r * U, U, SEAT) if sq is None else square(c * U, r * U, *sq)
    return svg(width * U, height * U, body + extra, cls, label)


def engine_kingdom(rows: tuple[str, ...], size: int = 5) -> tuple[Kingdom, tuple[int, int]]:
    """The engine's kingdom of a text form, and the offset from the text's cells to the kingdom's."""
    k = Kingdom.from_text(list(rows), size)
    castle = next(rc for rc, sq in cells(rows).items() if sq is None)
    return k, (k.castle[0] - castle[0], k.castle[1] - castle[1])


@dataclass(frozen=True)
class PlacingExample:
    """A domino set down on a small kingdom: the engine says whether it may go there (`refusal`: None, or its code)."""

    rows: tuple[str, ...]
    squares: tuple[tuple[str, int], tuple[str, int]]
    cell: tuple[int, int]  # the first square's cell in `rows`
    direction: str
    caption: str  # msgid

    def refusal(self) -> str | None:
        k, (dr, dc) = engine_kingdom(self.rows)
        domino = Domino("K", 0, tuple(Square(t, c) for t, c in self.squares))  # type: ignore[arg-type]
        found = k.placement_refusal(domino, Placement(self.cell[0] + dr, self.cell[1] + dc, self.direction))
        return None if found is None else found[0]

    def picture(self, lang: str) -> str:
        (r0, c0) = self.cell
        dr, dc = {"right": (0, 1), "down": (1, 0), "left": (0, -1), "up": (-1, 0)}[self.direction]
        placed = ((r0, c0), (r0 + dr, c0 + dc))
        body = "".join(square(c * U, r * U, *sq) for (r, c), sq in zip(placed, self.squares, strict=True))
        top, left = min(r for r, _ in placed), min(c for _, c in placed)
        h, w = (2, 1) if dr else (1, 2)
        colour = OK if self.refusal() is None else NO
        body += (
            f'<rect x="{left * U + 4}" y="{top * U + 4}" width="{w * U - 8}" height="{h * U - 8}" rx="8" fill="none" '
            f'stroke="{colour}" stroke-width="8"/>'
        )
        return kingdom_svg(self.rows, body, translate(lang, self.caption))


BASE = ("CC W1 W0", "F0 L0 ..", ".. .. ..")
PLACING = (
    PlacingExample(BASE, (("forest", 1), ("mine", 0)), (2, 0), "right", M.RULES_FIGURE_YES),
    PlacingExample(BASE, (("swamp", 0), ("mine", 1)), (1, 2), "down", M.RULES_FIGURE_NO),
)
SCORED = (
    "W1 W0 W0 L1 L0",
    "F0 F1 CC L0 L0",
    "F0 S0 G1 G0 M2",
    "S2 S0 G0 G0 M0",
    "S0 W0 W0 F0 F0",
)
MIDDLE = (
    "F0 F1 L0 L1 W0",
    "G0 G0 L0 W0 W1",
    "G1 S0 CC W0 M2",
    "S1 S0 F0 F0 M0",
    "W0 W0 F1 L0 L0",
)


def placing_figure(lang: str) -> str:
    out = []
    for example in PLACING:
        out.append(f"<figure>{example.picture(lang)}<figcaption>{html.escape(translate(lang, example.caption))}"
                   "</figcaption></figure>")  # fmt: skip
    return '<div class="figures">' + "".join(out) + "</div>"


def score_figure(lang: str) -> str:
    """The example kingdom, and what each of its territories is worth, worked out by the engine."""
    k, _ = engine_kingdom(SCORED)
    territories = sorted(k.territories(), key=lambda t: (-t.size * t.crowns, -t.size, t.terrain))
    lines = []
    for t in territories:
        words = translate(
            lang, M.RULES_SCORE_LINE, terrain=terrain_word(t.terrain, lang), squares=t.size, crowns=t.crowns,
            points=t.size * t.crowns,
        )  # fmt: skip
        lines.append(f"<li>{icon_small('emblem-' + t.terrain)}<span>{html.escape(words)}</span></li>")
    total = sum(t.size * t.crowns for t in territories)
    lines.append(f'<li class="total">{html.escape(translate_plural(lang, *M.RULES_SCORE_TOTAL, total))}</li>')
    caption = html.escape(translate(lang, M.RULES_SCORE_EXAMPLE))
    return (
        f'<figure class="scored"><figcaption>{caption}</figcaption>{kingdom_svg(SCORED)}'
        f'<ul class="worth">{"".join(lines)}</ul></figure>'
    )


def icon_small(key: str) -> str:
    return svg(U, U, use(key, 0, 0, U), "mini")


def middle_figure() -> str:
    """The Middle Kingdom: the castle in the centre of its 5x5."""
    return kingdom_svg(MIDDLE, cls="kingdom small")


def pieces_figure(t: Table, lang: str) -> str:
    """The legend: each piece and terrain drawn as on the board, with its name."""
    found = [
        (svg(U, U, use("square-castle", 0, 0, U, SEAT), "mini"), term(lang, "castle")),
        (icon_small("king").replace("<use ", f'<use color="{SEAT}" ', 1), term(lang, "king")),
        (domino_svg((("lake", 0), ("grassland", 1)), cls="mini domino"), term(lang, "domino")),
        (icon_small("crown"), term(lang, "crown")),
    ]
    terrains = ("wheat", "forest", "lake", "grassland", "swamp", "mine")
    queen_rules = t.game != "kingdomino"
    terrains += ("town",) if queen_rules else ()
    found += [(svg(U, U, square(0, 0, terrain, 0), "mini"), term(lang, terrain)) for terrain in terrains]
    if queen_rules:
        found += [
            (icon_small("knight").replace("<use ", f'<use color="{SEAT}" ', 1), term(lang, "knight")),
            (icon_small("coin"), term(lang, "coin")),
            (icon_small("tower"), term(lang, "tower")),
            (built("bakery", "mini"), term(lang, "building")),
            (icon_small("queen"), term(lang, "queen")),
            (icon_small("dragon"), term(lang, "dragon")),
        ]
    items = "".join(f"<li>{pic}<span>{html.escape(capital(name))}</span></li>" for pic, name in found)
    return f'<ul class="legend">{items}</ul>'


def builders_figure(lang: str) -> str:
    """The builders' board: six buildings over their slots' costs (the data's)."""
    shown = ("travelling_castle", "church", "guardtower", "training_camp", "queens_tower", "bakery")
    costs = builders_board_spec().costs
    slots = "".join(
        f'<li>{built(b, "mini")}<span class="cost">{icon_small("coin")}<b>{cost}</b></span>'
        f'<span class="sr">{html.escape(term(lang, "building." + b))}</span></li>'
        for b, cost in zip(shown, costs, strict=True)
    )
    return f'<ol class="builders-row" aria-label="{html.escape(capital(term(lang, "builders_board")))}">{slots}</ol>'


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def figure(key: str, t: Table, lang: str) -> str:
    """A whole-width picture of a section."""
    if key == "pieces":
        return pieces_figure(t, lang)
    if key == "builders":
        return builders_figure(lang)
    if key == "placing":
        return placing_figure(lang)
    if key == "score":
        return score_figure(lang)
    raise KeyError(key)
