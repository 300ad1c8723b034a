"""Actions: small immutable values with a text form (`place E4 right`) and a JSON form."""

from __future__ import annotations

from dataclasses import dataclass

from .kingdom import Placement, cell_name, parse_cell, parse_direction


@dataclass(frozen=True, slots=True)
class Claim:
    """Put the acting king on a free domino (of the first line at set-up, else of the next line)."""

    domino: str  # domino id, e.g. "K23"

    @property
    def text(self) -> str:
        return f"claim {self.domino}"

    def to_dict(self) -> dict:
        return {"type": "claim", "domino": self.domino}


@dataclass(frozen=True, slots=True)
class Place:
    """Place the domino under the acting king: first printed square on (row, col), the second towards `direction`."""

    row: int
    col: int
    direction: str

    @property
    def placement(self) -> Placement:
        return Placement(self.row, self.col, self.direction)

    @property
    def text(self) -> str:
        return f"place {cell_name(self.row, self.col)} {self.direction}"

    def to_dict(self) -> dict:
        return {"type": "place", "cell": [self.row, self.col], "direction": self.direction}


@dataclass(frozen=True, slots=True)
class Tax:
    """Send one or two knights onto the squares of the domino just placed, collecting coins."""

    cells: tuple[tuple[int, int], ...]

    @property
    def text(self) -> str:
        return "tax " + " ".join(cell_name(r, c) for r, c in self.cells)

    def to_dict(self) -> dict:
        return {"type": "tax", "cells": [list(c) for c in self.cells]}


@dataclass(frozen=True, slots=True)
class Build:
    """Buy the building on builders' board `slot` and put it on the town square at (row, col)."""

    slot: int
    row: int
    col: int

    @property
    def text(self) -> str:
        return f"build {self.slot} {cell_name(self.row, self.col)}"

    def to_dict(self) -> dict:
        return {"type": "build", "slot": self.slot, "cell": [self.row, self.col]}


@dataclass(frozen=True, slots=True)
class BribeDragon:
    """Pay the dragon to burn the building on `slot`."""

    slot: int

    @property
    def text(self) -> str:
        return f"dragon {self.slot}"

    def to_dict(self) -> dict:
        return {"type": "dragon", "slot": self.slot}


@dataclass(frozen=True, slots=True)
class Skip:
    """Pass on the optional step at hand (tax, build or dragon)."""

    @property
    def text(self) -> str:
        return "skip"

    def to_dict(self) -> dict:
        return {"type": "skip"}


Action = Claim | Place | Tax | Build | BribeDragon | Skip


def action_from_dict(data: dict) -> Action:
    kind = data.get("type")
    if kind == "claim":
        return Claim(str(data["domino"]))
    if kind == "place":
        r, c = data["cell"]
        return Place(int(r), int(c), parse_direction(data["direction"]))
    if kind == "tax":
        return Tax(tuple((int(r), int(c)) for r, c in data["cells"]))
    if kind == "build":
        r, c = data["cell"]
        return Build(int(data["slot"]), int(r), int(c))
    if kind == "dragon":
        return BribeDragon(int(data["slot"]))
    if kind == "skip":
        return Skip()
    raise ValueError(f"Unknown action type {kind!r}.")


def parse_action(text: str) -> Action:
    """Read the text form: `claim K23`, `place E4 right`, `tax E4 F4`, `build 3 E4`, `dragon 2`, `skip`."""
    words = text.strip().split()
    if not words:
        raise ValueError("An empty action: try `claim K23`, `place E4 right`, `tax E4`, `build 3 E4`, `skip`.")
    verb, args = words[0].lower(), words[1:]
    try:
        if verb == "claim" and len(args) == 1:
            return Claim(args[0].upper())
        if verb == "place" and len(args) == 2:
            r, c = parse_cell(args[0])
            return Place(r, c, parse_direction(args[1]))
        if verb == "tax" and 1 <= len(args) <= 2:
            return Tax(tuple(parse_cell(a) for a in args))
        if verb == "build" and len(args) == 2:
            r, c = parse_cell(args[1])
            return Build(int(args[0]), r, c)
        if verb == "dragon" and len(args) == 1:
            return BribeDragon(int(args[0]))
        if verb == "skip" and not args:
            return Skip()
    except ValueError as error:
        raise ValueError(f"Cannot read {text!r}: {error}") from None
    raise ValueError(
        f"Cannot read {text!r}: try `claim K23`, `place E4 right`, `tax E4`, `build 3 E4`, `dragon 2` or `skip`."
    )
