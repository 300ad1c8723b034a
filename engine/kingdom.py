"""A kingdom: the castle, the placed dominoes, and what stands on them.

Cells are addressed by (row, col) in a square grid of side 2*size-1 with the castle in its centre, so that a
kingdom may grow in any direction. Cell names are stable for the whole game: columns are letters from `A`, rows
numbers from 1 (the castle is `E5` in a 5x5 kingdom, `G7` in a 7x7 one). `legal placement` is decided by exactly
one function here, `placement_problem`, which everything else uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from .components import LETTER_TERRAIN, TERRAIN_LETTER, TERRAINS, Domino, Square, building
from .errors import IllegalPlacement

EMPTY = -1
CASTLE = len(TERRAINS)  # a value beyond every terrain index
TERRAIN_INDEX = {t: i for i, t in enumerate(TERRAINS)}
TOWN = TERRAIN_INDEX["town"]

DIRECTIONS: dict[str, tuple[int, int]] = {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}
DIRECTION_ALIASES = {
    "n": "up",
    "e": "right",
    "s": "down",
    "w": "left",
    "u": "up",
    "r": "right",
    "d": "down",
    "l": "left",
}


def parse_direction(text: str) -> str:
    key = text.strip().lower()
    key = DIRECTION_ALIASES.get(key, key)
    if key not in DIRECTIONS:
        raise ValueError(f"Unknown direction {text!r}: use up, right, down or left.")
    return key


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a domino goes: its first printed square on `cell`, its second one step in `direction`."""

    row: int
    col: int
    direction: str

    @property
    def cells(self) -> tuple[tuple[int, int], tuple[int, int]]:
        dr, dc = DIRECTIONS[self.direction]
        return (self.row, self.col), (self.row + dr, self.col + dc)


@dataclass(frozen=True, slots=True)
class Territory:
    terrain: str
    cells: tuple[tuple[int, int], ...]
    crowns: int  # printed crowns, plus building crowns for towns (the queen is added by scoring)

    @property
    def size(self) -> int:
        return len(self.cells)


def cell_name(row: int, col: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_cell(text: str) -> tuple[int, int]:
    """`E5` -> (4, 4). Also accepts `4,4` (row, col)."""
    t = text.strip().upper()
    if "," in t:
        r, c = t.split(",", 1)
        return int(r), int(c)
    if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
        raise ValueError(f"Cannot read cell {text!r}: write a column letter and a row number, like E5.")
    return int(t[1:]) - 1, ord(t[0]) - ord("A")


class Kingdom:
    """One player's or one team's kingdom. Mutated only by the game; read by everyone."""

    __slots__ = (
        "buildings",
        "coins",
        "crowns",
        "discarded",
        "knights_placed",
        "knights_reserve",
        "knights_sent_this_round",
        "max_c",
        "max_r",
        "min_c",
        "min_r",
        "n",
        "placed",
        "players",
        "size",
        "terr",
    )

    def __init__(self, size: int, players: tuple[str, ...] = ()) -> None:
        self.size = size
        self.n = 2 * size - 1
        self.players = tuple(players)
        self.terr: list[int] = [EMPTY] * (self.n * self.n)
        self.crowns: list[int] = [0] * (self.n * self.n)
        c = size - 1
        self.terr[c * self.n + c] = CASTLE
        self.min_r = self.max_r = self.min_c = self.max_c = c
        self.placed: list[tuple[str, tuple[tuple[int, int], tuple[int, int]]]] = []  # (domino id, cells)
        self.discarded: list[str] = []  # dominoes this kingdom had to discard (no legal placement)
        self.buildings: dict[tuple[int, int], list] = {}  # cell -> [building id, towers]
        self.knights_reserve = 0
        self.knights_placed: list[tuple[int, int]] = []
        self.knights_sent_this_round = 0  # at most KNIGHTS_PER_ROUND, whatever the number of the kingdom's turns
        self.coins = 0

    # -- reading -----------------------------------------------------------------------------------------------
    @property
    def castle(self) -> tuple[int, int]:
        return (self.size - 1, self.size - 1)

    def square(self, row: int, col: int) -> Square | None:
        """The square on a cell, or None for an empty cell or the castle."""
        if not (0 <= row < self.n and 0 <= col < self.n):
            return None
        t = self.terr[row * self.n + col]
        if t in (EMPTY, CASTLE):
            return None
        return Square(TERRAINS[t], self.crowns[row * self.n + col])

    def is_empty(self, row: int, col: int) -> bool:
        return 0 <= row < self.n and 0 <= col < self.n and self.terr[row * self.n + col] == EMPTY

    def is_castle(self, row: int, col: int) -> bool:
        return (row, col) == self.castle

    @property
    def towers(self) -> int:
        return sum(b[1] for b in self.buildings.values())

    @property
    def knights_owned(self) -> int:
        return self.knights_reserve + len(self.knights_placed)

    def bounds(self) -> tuple[int, int, int, int]:
        """(top, left, bottom, right) of the occupied cells, castle included, inclusive."""
        return self.min_r, self.min_c, self.max_r, self.max_c

    def frame(self) -> tuple[int, int, int, int]:
        """(top, left, bottom, right), inclusive: every cell where a square could still go, plus the occupied ones."""
        s = self.size - 1
        return (
            max(0, self.max_r - s),
            max(0, self.max_c - s),
            min(self.n - 1, self.min_r + s),
            min(self.n - 1, self.min_c + s),
        )

    def free_town_cells(self) -> list[tuple[int, int]]:
        """Town squares with no building: where a building may go."""
        n = self.n
        return [(i // n, i % n) for i, t in enumerate(self.terr) if t == TOWN and (i // n, i % n) not in self.buildings]

    # -- placement: the one function that decides -------------------------------------------------------------
    def placement_problem(self, domino: Domino, placement: Placement) -> str | None:
        """None if `domino` may go at `placement`, else a sentence saying why not."""
        refusal = self.placement_refusal(domino, placement)
        return None if refusal is None else refusal[2]

    def placement_refusal(self, domino: Domino, placement: Placement) -> tuple[str, dict, str] | None:
        """None if `domino` may go at `placement`, else (code, params, English sentence) saying why not."""
        if placement.direction not in DIRECTIONS:
            return (
                "bad_direction",
                {"direction": str(placement.direction)},
                f"Unknown direction {placement.direction!r}: use up, right, down or left.",
            )
        (r0, c0), (r1, c1) = placement.cells
        n = self.n
        for r, c in ((r0, c0), (r1, c1)):
            if not (0 <= r < n and 0 <= c < n):
                name = cell_name(r, c) if r >= 0 and c >= 0 else None
                return "outside_table", {"cell": name}, f"{name or 'That cell'} is outside the table."
        terr = self.terr
        for r, c in ((r0, c0), (r1, c1)):
            t = terr[r * n + c]
            if t != EMPTY:
                what = "the castle" if t == CASTLE else "already taken"
                code = "cell_is_castle" if t == CASTLE else "cell_taken"
                return code, {"cell": cell_name(r, c)}, f"{cell_name(r, c)} is {what}: both squares need empty cells."
        height = max(self.max_r, r0, r1) - min(self.min_r, r0, r1) + 1
        width = max(self.max_c, c0, c1) - min(self.min_c, c0, c1) + 1
        if height > self.size or width > self.size:
            side = "tall" if height > self.size else "wide"
            return (
                "too_" + side,
                {"cells": max(height, width), "size": self.size},
                f"That would make the kingdom {max(height, width)} cells {side}: it must fit in {self.size}x{self.size}.",
            )
        for (r, c), sq in (((r0, c0), domino.squares[0]), ((r1, c1), domino.squares[1])):
            want = TERRAIN_INDEX[sq.terrain]
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    t = terr[rr * n + cc]
                    if t in (CASTLE, want):
                        return None
        return "not_connected", {}, "That spot is not connected to the castle or to a square of the same terrain."

    def legal_placements(self, domino: Domino) -> list[Placement]:
        """Every legal placement of `domino`, each orientation once (first square's cell, direction)."""
        n = self.n
        terr = self.terr
        top, left, bottom, right = self.frame()
        # Cells next to something: a legal placement puts at least one square on such a cell.
        frontier = set()
        for r in range(top, bottom + 1):
            base = r * n
            for c in range(left, right + 1):
                if terr[base + c] != EMPTY:
                    continue
                if (
                    (r > 0 and terr[base - n + c] != EMPTY)
                    or (r < n - 1 and terr[base + n + c] != EMPTY)
                    or (c > 0 and terr[base + c - 1] != EMPTY)
                    or (c < n - 1 and terr[base + c + 1] != EMPTY)
                ):
                    frontier.add((r, c))
        seen: set[tuple[int, int, str]] = set()
        result = []
        for r, c in frontier:
            for name, (dr, dc) in DIRECTIONS.items():
                # The frontier cell holds the first square, or the second one (then the first is one step back).
                for p in (Placement(r, c, name), Placement(r - dr, c - dc, name)):
                    key = (p.row, p.col, p.direction)
                    if key in seen:
                        continue
                    seen.add(key)
                    if self.placement_problem(domino, p) is None:
                        result.append(p)
        result.sort(key=lambda p: (p.row, p.col, p.direction))
        return result

    def can_place(self, domino: Domino) -> bool:
        return bool(self.legal_placements(domino))

    def place(self, domino: Domino, placement: Placement) -> None:
        """Put the domino down; raises IllegalPlacement (and changes nothing) where the rules forbid it."""
        refusal = self.placement_refusal(domino, placement)
        if refusal is not None:
            raise IllegalPlacement(refusal[2], refusal[0], refusal[1])
        cells = placement.cells
        for (r, c), sq in zip(cells, domino.squares, strict=True):
            self.terr[r * self.n + c] = TERRAIN_INDEX[sq.terrain]
            self.crowns[r * self.n + c] = sq.crowns
            self.min_r, self.max_r = min(self.min_r, r), max(self.max_r, r)
            self.min_c, self.max_c = min(self.min_c, c), max(self.max_c, c)
        self.placed.append((domino.id, cells))

    # -- territories ----------------------------------------------------------------------------------------
    def territory_at(self, row: int, col: int) -> Territory | None:
        for t in self.territories():
            if (row, col) in t.cells:
                return t
        return None

    def territory_size_at(self, row: int, col: int) -> int:
        """Number of squares in the territory containing (row, col); 0 for empty or castle."""
        n = self.n
        terr = self.terr
        want = terr[row * n + col]
        if want in (EMPTY, CASTLE):
            return 0
        seen = {row * n + col}
        stack = [row * n + col]
        while stack:
            i = stack.pop()
            r, c = divmod(i, n)
            for j, ok in ((i - n, r > 0), (i + n, r < n - 1), (i - 1, c > 0), (i + 1, c < n - 1)):
                if ok and j not in seen and terr[j] == want:
                    seen.add(j)
                    stack.append(j)
        return len(seen)

    def territories(self) -> list[Territory]:
        """Maximal orthogonally connected groups of one terrain (the castle belongs to none)."""
        n = self.n
        terr = self.terr
        crowns = self.crowns
        seen = [False] * (n * n)
        result = []
        top, left, bottom, right = self.bounds()
        for r0 in range(top, bottom + 1):
            for c0 in range(left, right + 1):
                i0 = r0 * n + c0
                t = terr[i0]
                if seen[i0] or t in (EMPTY, CASTLE):
                    continue
                seen[i0] = True
                stack = [i0]
                cells = []
                crown_sum = 0
                while stack:
                    i = stack.pop()
                    r, c = divmod(i, n)
                    cells.append((r, c))
                    crown_sum += crowns[i]
                    if t == TOWN and (r, c) in self.buildings:
                        crown_sum += building(self.buildings[(r, c)][0]).crowns
                    for j, ok in ((i - n, r > 0), (i + n, r < n - 1), (i - 1, c > 0), (i + 1, c < n - 1)):
                        if ok and not seen[j] and terr[j] == t:
                            seen[j] = True
                            stack.append(j)
                result.append(Territory(TERRAINS[t], tuple(sorted(cells)), crown_sum))
        return result

    # -- text form --------------------------------------------------------------------------------------------
    def text_rows(self, frame: tuple[int, int, int, int] | None = None) -> list[str]:
        """Rows of two-letter cells over the bounding box (or `frame`): `F1 F1 CC ..`."""
        top, left, bottom, right = frame or self.bounds()
        rows = []
        for r in range(top, bottom + 1):
            cells = []
            for c in range(left, right + 1):
                t = self.terr[r * self.n + c]
                if t == EMPTY:
                    cells.append("..")
                elif t == CASTLE:
                    cells.append("CC")
                else:
                    cells.append(f"{TERRAIN_LETTER[TERRAINS[t]]}{self.crowns[r * self.n + c]}")
            rows.append(" ".join(cells))
        return rows

    def text(self) -> str:
        return "\n".join(self.text_rows())

    @classmethod
    def from_text(cls, text: str | list[str], size: int, players: tuple[str, ...] = ()) -> Kingdom:
        """Build a kingdom from its text form (for tests, the `score` command and bug reports).

        Squares are set directly, without dominoes or placement rules; exactly one `CC` marks the castle.
        """
        rows = [r.split() for r in (text.splitlines() if isinstance(text, str) else text) if r.strip()]
        if not rows:
            raise ValueError("An empty grid: a kingdom has at least its castle (CC).")
        width = len(rows[0])
        if any(len(r) != width for r in rows):
            raise ValueError("Every row of the grid must have the same number of cells.")
        if len(rows) > size or width > size:
            raise ValueError(f"The grid is {len(rows)}x{width}: it must fit in {size}x{size}.")
        castles = [(r, c) for r, row in enumerate(rows) for c, cell in enumerate(row) if cell.upper() == "CC"]
        if len(castles) != 1:
            raise ValueError(f"The grid must hold exactly one castle (CC), not {len(castles)}.")
        k = cls(size, players)
        cr, cc = castles[0]
        off_r, off_c = (size - 1) - cr, (size - 1) - cc
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                cell = cell.upper()
                if cell in ("CC", ".."):
                    continue
                if len(cell) != 2 or cell[0] not in LETTER_TERRAIN or cell[1] not in "0123":
                    raise ValueError(f"Cannot read cell {cell!r}: use a terrain letter (WFLGSMT) and 0-3 crowns.")
                terrain = LETTER_TERRAIN[cell[0]]
                crowns = int(cell[1])
                if terrain == "town" and crowns:
                    raise ValueError("Town squares carry no printed crowns.")
                gr, gc = r + off_r, c + off_c
                k.terr[gr * k.n + gc] = TERRAIN_INDEX[terrain]
                k.crowns[gr * k.n + gc] = crowns
                k.min_r, k.max_r = min(k.min_r, gr), max(k.max_r, gr)
                k.min_c, k.max_c = min(k.min_c, gc), max(k.max_c, gc)
        return k

    def grid_to_cell(self, row: int, col: int) -> tuple[int, int]:
        """A cell of the bounding-box text form -> the kingdom's (row, col)."""
        return row + self.min_r, col + self.min_c

    # -- copying and serialising --------------------------------------------------------------------------------
    def clone(self) -> Kingdom:
        k = Kingdom.__new__(Kingdom)
        k.size, k.n, k.players = self.size, self.n, self.players
        k.terr, k.crowns = self.terr[:], self.crowns[:]
        k.min_r, k.max_r, k.min_c, k.max_c = self.min_r, self.max_r, self.min_c, self.max_c
        k.placed = self.placed[:]
        k.discarded = self.discarded[:]
        k.buildings = {cell: b[:] for cell, b in self.buildings.items()}
        k.knights_reserve = self.knights_reserve
        k.knights_placed = self.knights_placed[:]
        k.knights_sent_this_round = self.knights_sent_this_round
        k.coins = self.coins
        return k

    def to_dict(self) -> dict:
        return {
            "size": self.size,
            "players": list(self.players),
            "placed": [[d, [list(a), list(b)]] for d, (a, b) in self.placed],
            "discarded": list(self.discarded),
            "buildings": [[r, c, b[0], b[1]] for (r, c), b in sorted(self.buildings.items())],
            "knights_reserve": self.knights_reserve,
            "knights_placed": [list(c) for c in self.knights_placed],
            "knights_sent_this_round": self.knights_sent_this_round,
            "coins": self.coins,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Kingdom:
        from .components import domino as domino_by_id

        k = cls(int(data["size"]), tuple(data["players"]))
        for domino_id, (a, b) in data["placed"]:
            d = domino_by_id(domino_id)
            cells = (tuple(a), tuple(b))
            for (r, c), sq in zip(cells, d.squares, strict=True):
                if k.terr[r * k.n + c] != EMPTY:
                    raise ValueError(f"Saved kingdom puts two squares on {cell_name(r, c)}.")
                k.terr[r * k.n + c] = TERRAIN_INDEX[sq.terrain]
                k.crowns[r * k.n + c] = sq.crowns
                k.min_r, k.max_r = min(k.min_r, r), max(k.max_r, r)
                k.min_c, k.max_c = min(k.min_c, c), max(k.max_c, c)
            k.placed.append((domino_id, cells))  # type: ignore[arg-type]
        k.discarded = list(data["discarded"])
        k.buildings = {(int(r), int(c)): [bid, int(t)] for r, c, bid, t in data["buildings"]}
        k.knights_reserve = int(data["knights_reserve"])
        k.knights_placed = [tuple(c) for c in data["knights_placed"]]  # type: ignore[misc]
        k.knights_sent_this_round = int(data.get("knights_sent_this_round", 0))  # absent from older states
        k.coins = int(data["coins"])
        return k
