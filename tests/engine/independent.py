"""An independent model of the rules, for checking the engine against.

Written from RULES.md and the data files alone: it reads the JSON data directly and never calls engine.kingdom or
engine.scoring, so a mistake there cannot hide in the expected values.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "engine" / "data"
LETTERS = {"W": "wheat", "F": "forest", "L": "lake", "G": "grassland", "S": "swamp", "M": "mine", "T": "town"}
CASTLE = "castle"
STEPS = {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}

Cell = tuple[int, int]
Grid = dict[Cell, tuple[str, int]]  # cell -> (terrain or "castle", crowns)


def _load(name: str):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


DOMINOES: dict[str, tuple[tuple[str, int], tuple[str, int]]] = {}
for _box, _file in (("K", "kingdomino_tiles.json"), ("Q", "queendomino_tiles.json")):
    for _entry in _load(_file):
        _a, _b = _entry["squares"]
        DOMINOES[f"{_box}{_entry['number']}"] = ((_a["terrain"], _a["crowns"]), (_b["terrain"], _b["crowns"]))

_BUILDINGS_FILE = _load("queendomino_buildings.json")
BUILDINGS: dict[str, dict] = {b["id"]: b for b in _BUILDINGS_FILE["buildings"]}
COSTS: list[int] = _BUILDINGS_FILE["builders_board"]["costs"]


def new_grid(size: int) -> Grid:
    """An empty kingdom in the engine's coordinates: the castle at (size-1, size-1)."""
    return {(size - 1, size - 1): (CASTLE, 0)}


def grid_from_rows(rows: list[str], size: int) -> Grid:
    """Read the text form (`F1 F1 CC ..`) into a grid placed like the engine's (castle at (size-1, size-1))."""
    cells = [row.split() for row in rows]
    (cr, cc) = next((r, c) for r, row in enumerate(cells) for c, x in enumerate(row) if x == "CC")
    grid: Grid = {}
    for r, row in enumerate(cells):
        for c, x in enumerate(row):
            cell = (r - cr + size - 1, c - cc + size - 1)
            if x == "CC":
                grid[cell] = (CASTLE, 0)
            elif x != "..":
                grid[cell] = (LETTERS[x[0]], int(x[1]))
    return grid


def rows_of(grid: Grid) -> list[str]:
    """The text form of a grid over its bounding box."""
    top = min(r for r, _ in grid)
    bottom = max(r for r, _ in grid)
    left = min(c for _, c in grid)
    right = max(c for _, c in grid)
    letter = {v: k for k, v in LETTERS.items()}
    out = []
    for r in range(top, bottom + 1):
        row = []
        for c in range(left, right + 1):
            if (r, c) not in grid:
                row.append("..")
            elif grid[(r, c)][0] == CASTLE:
                row.append("CC")
            else:
                t, k = grid[(r, c)]
                row.append(f"{letter[t]}{k}")
        out.append(" ".join(row))
    return out


def second_cell(cell: Cell, direction: str) -> Cell:
    dr, dc = STEPS[direction]
    return (cell[0] + dr, cell[1] + dc)


def fits(cells, size: int) -> bool:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return max(rows) - min(rows) < size and max(cols) - min(cols) < size


def connects(grid: Grid, squares, cells) -> bool:
    """At least one square touches the castle or a square of its own terrain (not counting the domino itself)."""
    for (terrain, _), (r, c) in zip(squares, cells, strict=True):
        for dr, dc in STEPS.values():
            other = grid.get((r + dr, c + dc))
            if other is not None and other[0] in (CASTLE, terrain):
                return True
    return False


def is_legal(grid: Grid, size: int, domino_id: str, cell: Cell, direction: str) -> bool:
    squares = DOMINOES[domino_id]
    cells = (cell, second_cell(cell, direction))
    if any(c in grid for c in cells):
        return False
    if not fits([*grid, *cells], size):
        return False
    return connects(grid, squares, cells)


def _candidates(grid: Grid, size: int, domino_id: str):
    """Every placement of the domino on the table, legal or not, tested with the plain rules, one at a time."""
    n = 2 * size - 1
    top, bottom = min(r for r, _ in grid), max(r for r, _ in grid)
    left, right = min(c for _, c in grid), max(c for _, c in grid)
    squares = DOMINOES[domino_id]
    for r in range(n):
        for c in range(n):
            for d, (dr, dc) in STEPS.items():
                r2, c2 = r + dr, c + dc
                if not (0 <= r2 < n and 0 <= c2 < n) or (r, c) in grid or (r2, c2) in grid:
                    continue
                if max(bottom, r, r2) - min(top, r, r2) >= size or max(right, c, c2) - min(left, c, c2) >= size:
                    continue
                if connects(grid, squares, ((r, c), (r2, c2))):
                    yield (r, c, d)


def all_legal(grid: Grid, size: int, domino_id: str) -> set[tuple[int, int, str]]:
    """Brute force over every cell of the table and every direction."""
    return set(_candidates(grid, size, domino_id))


def any_legal(grid: Grid, size: int, domino_id: str) -> bool:
    return next(_candidates(grid, size, domino_id), None) is not None


def put(grid: Grid, domino_id: str, cell: Cell, direction: str) -> tuple[Cell, Cell]:
    cells = (cell, second_cell(cell, direction))
    for c, square in zip(cells, DOMINOES[domino_id], strict=True):
        grid[c] = square
    return cells


def territories(grid: Grid, buildings: dict[Cell, str] | None = None) -> list[dict]:
    """Each territory: terrain, cells (set), crowns (printed, plus crown buildings standing in a town)."""
    buildings = buildings or {}
    seen: set[Cell] = set()
    result = []
    for start, (terrain, _) in grid.items():
        if terrain == CASTLE or start in seen:
            continue
        cells = {start}
        todo = [start]
        while todo:
            r, c = todo.pop()
            for dr, dc in STEPS.values():
                nb = (r + dr, c + dc)
                if nb not in cells and grid.get(nb, ("", 0))[0] == terrain:
                    cells.add(nb)
                    todo.append(nb)
        seen |= cells
        crowns = sum(grid[c][1] for c in cells)
        crowns += sum(BUILDINGS[buildings[c]]["crowns"] for c in cells if c in buildings)
        result.append({"terrain": terrain, "cells": cells, "crowns": crowns})
    return result


def territory_size(grid: Grid, cell: Cell) -> int:
    for t in territories(grid):
        if cell in t["cells"]:
            return len(t["cells"])
    raise AssertionError(f"no territory at {cell}")


def score(
    grid: Grid,
    size: int,
    *,
    queendomino: bool,
    buildings: dict[Cell, str] | None = None,
    towers: int = 0,
    knights: int = 0,
    coins: int = 0,
    queen: bool = False,
    middle_kingdom: bool = False,
    harmony: bool = False,
    discards: int = 0,
) -> dict:
    """The score sheet of one kingdom: the parts and `total`."""
    buildings = buildings or {}
    terrs = territories(grid, buildings)
    sheet: dict[str, int] = {}
    for t in terrs:
        sheet[t["terrain"]] = sheet.get(t["terrain"], 0) + len(t["cells"]) * t["crowns"]
    # Her extra crown on the largest territory is worth that territory's size, whichever one of equals she picks.
    sheet["queen"] = max((len(t["cells"]) for t in terrs), default=0) if queen else 0
    building_points = 0
    if queendomino:
        for bid in buildings.values():
            s = BUILDINGS[bid]["scoring"]
            if s["kind"] == "fixed":
                building_points += s["points"]
            elif s["kind"] == "per_territory":
                building_points += s["points"] * sum(1 for t in terrs if t["terrain"] == s["terrain"])
            elif s["kind"] == "per_tower":
                building_points += s["points"] * towers
            elif s["kind"] == "per_knight":
                building_points += s["points"] * knights
    sheet["buildings"] = building_points
    sheet["coins"] = coins // 3 if queendomino else 0
    castle = (size - 1, size - 1)
    reach = {5: 2, 7: 3}[size]
    centred = all(abs(r - castle[0]) <= reach and abs(c - castle[1]) <= reach for r, c in grid)
    sheet["middle_kingdom"] = 10 if middle_kingdom and centred else 0
    sheet["harmony"] = 5 if harmony and discards == 0 else 0
    sheet["total"] = sum(sheet.values())
    sheet["largest"] = max((len(t["cells"]) for t in terrs), default=0)
    sheet["crowns"] = sum(t["crowns"] for t in terrs)
    return sheet
