"""The game's components: terrains, squares, dominoes, buildings and the builders' board, read from data files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

TERRAINS: tuple[str, ...] = ("wheat", "forest", "lake", "grassland", "swamp", "mine", "town")
TERRAIN_LETTER: dict[str, str] = {
    "wheat": "W",
    "forest": "F",
    "lake": "L",
    "grassland": "G",
    "swamp": "S",
    "mine": "M",
    "town": "T",
}
LETTER_TERRAIN: dict[str, str] = {v: k for k, v in TERRAIN_LETTER.items()}

KINGDOMINO_BOX = "K"
QUEENDOMINO_BOX = "Q"
BOX_NAMES = {KINGDOMINO_BOX: "Kingdomino", QUEENDOMINO_BOX: "Queendomino"}


@dataclass(frozen=True, slots=True)
class Square:
    terrain: str
    crowns: int

    @property
    def text(self) -> str:
        """Two-letter text form: terrain letter and crowns, e.g. `F1`."""
        return f"{TERRAIN_LETTER[self.terrain]}{self.crowns}"


@dataclass(frozen=True, slots=True)
class Domino:
    box: str
    number: int
    squares: tuple[Square, Square]

    @property
    def id(self) -> str:
        """Unique across both boxes: `K23` or `Q23`."""
        return f"{self.box}{self.number}"

    @property
    def crowns(self) -> int:
        return self.squares[0].crowns + self.squares[1].crowns

    def __str__(self) -> str:
        return f"{self.id}[{self.squares[0].text} {self.squares[1].text}]"


@dataclass(frozen=True, slots=True)
class BuildingType:
    id: str
    name: str
    copies: int
    knights: int  # gained into the reserve when built
    towers: int  # put on the building when built
    coins_per_knight_on_tax: int
    coins_per_tower_on_tax: int
    crowns: int  # crowns for the town territory it stands in
    scoring: str  # fixed, per_territory, per_tower, per_knight, none
    points: int
    scoring_terrain: str | None
    immediate_verified: bool

    def effect_text(self) -> str:
        """A short English summary of what the building does, for players."""
        parts = []
        if self.knights:
            parts.append(f"+{self.knights} knight{'s' if self.knights > 1 else ''}")
        if self.towers:
            parts.append(f"+{self.towers} tower{'s' if self.towers > 1 else ''}")
        if self.coins_per_knight_on_tax:
            parts.append("tax +1 coin per knight owned")
        if self.coins_per_tower_on_tax:
            parts.append("tax +1 coin per tower")
        if self.crowns:
            parts.append(f"{self.crowns} crown{'s' if self.crowns > 1 else ''} in its town")
        if self.scoring == "fixed":
            parts.append(f"{self.points} points")
        elif self.scoring == "per_territory":
            parts.append(f"{self.points} points per {self.scoring_terrain} territory")
        elif self.scoring == "per_tower":
            parts.append(f"{self.points} point per tower")
        elif self.scoring == "per_knight":
            parts.append(f"{self.points} point per knight")
        return ", ".join(parts) or "no effect"


@dataclass(frozen=True, slots=True)
class BuildersBoardSpec:
    costs: tuple[int, ...]
    queen_discount: int
    cost_floor: int
    dragon_bribe: int
    knights_supply: int
    towers_supply: int
    start_knights: int
    start_coins: int


def _read(name: str) -> object:
    return json.loads(resources.files("engine.data").joinpath(name).read_text(encoding="utf-8"))


def _dominoes(box: str, name: str) -> tuple[Domino, ...]:
    result = []
    for entry in _read(name):
        squares = tuple(Square(s["terrain"], int(s["crowns"])) for s in entry["squares"])
        assert len(squares) == 2
        result.append(Domino(box, int(entry["number"]), squares))  # type: ignore[arg-type]
    return tuple(sorted(result, key=lambda d: d.number))


@cache
def kingdomino_dominoes() -> tuple[Domino, ...]:
    return _dominoes(KINGDOMINO_BOX, "kingdomino_tiles.json")


@cache
def queendomino_dominoes() -> tuple[Domino, ...]:
    return _dominoes(QUEENDOMINO_BOX, "queendomino_tiles.json")


@cache
def dominoes_by_id() -> dict[str, Domino]:
    return {d.id: d for d in (*kingdomino_dominoes(), *queendomino_dominoes())}


def domino(domino_id: str) -> Domino:
    return dominoes_by_id()[domino_id]


@cache
def building_types() -> dict[str, BuildingType]:
    data = _read("queendomino_buildings.json")
    result = {}
    for b in data["buildings"]:  # type: ignore[index]
        scoring = b["scoring"]
        result[b["id"]] = BuildingType(
            id=b["id"],
            name=b["name"],
            copies=int(b["copies"]),
            knights=int(b["immediate"]["knights"]),
            towers=int(b["immediate"]["towers"]),
            coins_per_knight_on_tax=int(b["permanent"]["coins_per_knight_on_tax"]),
            coins_per_tower_on_tax=int(b["permanent"]["coins_per_tower_on_tax"]),
            crowns=int(b["crowns"]),
            scoring=scoring["kind"],
            points=int(scoring.get("points", 0)),
            scoring_terrain=scoring.get("terrain"),
            immediate_verified=bool(b["immediate_verified"]),
        )
    return result


def building(building_id: str) -> BuildingType:
    return building_types()[building_id]


@cache
def builders_board_spec() -> BuildersBoardSpec:
    data = _read("queendomino_buildings.json")
    board, supplies = data["builders_board"], data["supplies"]  # type: ignore[index]
    return BuildersBoardSpec(
        costs=tuple(int(c) for c in board["costs"]),
        queen_discount=int(board["queen_discount"]),
        cost_floor=int(board["cost_floor"]),
        dragon_bribe=int(board["dragon_bribe"]),
        knights_supply=int(supplies["knights"]),
        towers_supply=int(supplies["towers"]),
        start_knights=int(supplies["start_knights"]),
        start_coins=int(supplies["start_coins"]),
    )


def building_stack() -> list[str]:
    """Every building card (32), by id, in data order; the game shuffles it."""
    return [b.id for b in building_types().values() for _ in range(b.copies)]
