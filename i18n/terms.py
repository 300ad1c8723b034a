"""The game's own words: pieces, terrains, buildings, game and variant names, actions.

Each term has a key (what code uses: `term("cs", "knight", 3)`), its English singular and, for things one counts,
its English plural. In the catalogues a term is the entry with context `term:<key>`, so two terms never share an
entry even when their English words are the same (the dragon piece and the dragon action). Every language's
words come from its rulebook where the rulebook has them: see `glossary/<lang>.md` for each word's source line.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Term:
    key: str
    singular: str
    plural: str | None  # None: a name, never counted (Kingdomino, Harmony, the action "tax")
    group: str

    @property
    def context(self) -> str:
        return f"term:{self.key}"


def _t(group: str, key: str, singular: str, plural: str | None = None) -> Term:
    return Term(key, singular, plural, group)


PIECES = (
    _t("piece", "castle", "castle", "castles"),
    _t("piece", "king", "king", "kings"),
    _t("piece", "domino", "domino", "dominoes"),
    _t("piece", "square", "square", "squares"),
    _t("piece", "kingdom", "kingdom", "kingdoms"),
    _t("piece", "territory", "territory", "territories"),
    _t("piece", "crown", "crown", "crowns"),
    _t("piece", "knight", "knight", "knights"),
    _t("piece", "tower", "tower", "towers"),
    _t("piece", "queen", "queen", "queens"),
    _t("piece", "dragon", "dragon", "dragons"),
    _t("piece", "builders_board", "builders' board", "builders' boards"),
    _t("piece", "coin", "coin", "coins"),
    _t("piece", "building", "building", "buildings"),
    _t("piece", "point", "point", "points"),
    _t("piece", "round", "round", "rounds"),
    _t("piece", "line", "line", "lines"),
)

TERRAIN_TERMS = (
    _t("terrain", "wheat", "wheat field", "wheat fields"),
    _t("terrain", "forest", "forest", "forests"),
    _t("terrain", "lake", "lake", "lakes"),
    _t("terrain", "grassland", "grassland", "grasslands"),
    _t("terrain", "swamp", "swamp", "swamps"),
    _t("terrain", "mine", "mine", "mines"),
    _t("terrain", "town", "town", "towns"),  # Queendomino's red construction terrain
)

# Building id (engine/data/queendomino_buildings.json) -> English name as in that file, and its plural.
# A test checks that every building of the engine's data has its term here.
BUILDING_NAMES = {
    "bakery": ("Bakery", "Bakeries"),
    "sawmill": ("Sawmill", "Sawmills"),
    "fish_market": ("Fish Market", "Fish Markets"),
    "weaver": ("Weaver", "Weavers"),
    "magic_school": ("Magic School", "Magic Schools"),
    "forge": ("Forge", "Forges"),
    "church": ("Church", "Churches"),
    "queens_tower": ("Queen's Tower", "Queen's Towers"),
    "statue": ("Statue", "Statues"),
    "tavern": ("Tavern", "Taverns"),
    "guardtower": ("Guardtower", "Guardtowers"),
    "big_tavern": ("Big Tavern", "Big Taverns"),
    "treasury": ("Treasury", "Treasuries"),
    "fortified_guardhouse": ("Fortified Guardhouse", "Fortified Guardhouses"),
    "travelling_castle": ("Travelling Castle", "Travelling Castles"),
    "training_camp": ("Training Camp", "Training Camps"),
}
BUILDING_TERMS = tuple(_t("building", f"building.{bid}", one, many) for bid, (one, many) in BUILDING_NAMES.items())

GAME_TERMS = (
    _t("game", "kingdomino", "Kingdomino"),
    _t("game", "queendomino", "Queendomino"),
    _t("game", "royal-wedding", "Royal Wedding"),
)

VARIANT_TERMS = (
    _t("variant", "dynasty", "Dynasty"),
    _t("variant", "middle-kingdom", "Middle Kingdom"),
    _t("variant", "harmony", "Harmony"),
    _t("variant", "mighty-duel", "Mighty Duel"),
)

ACTION_TERMS = (
    _t("action", "action.place", "place"),
    _t("action", "action.claim", "choose a domino"),
    _t("action", "action.tax", "collect tax"),
    _t("action", "action.build", "build"),
    _t("action", "action.dragon", "bribe the dragon"),
    _t("action", "action.skip", "skip"),
)

ALL_TERMS: tuple[Term, ...] = PIECES + TERRAIN_TERMS + BUILDING_TERMS + GAME_TERMS + VARIANT_TERMS + ACTION_TERMS
TERMS: dict[str, Term] = {t.key: t for t in ALL_TERMS}

assert len(TERMS) == len(ALL_TERMS), "term keys must be unique"
