"""Scoring a kingdom, with a full breakdown, and ranking kingdoms with each game's tie-breaks."""

from __future__ import annotations

from dataclasses import dataclass, field

from .components import TERRAINS, building
from .kingdom import Kingdom, Territory

MIDDLE_KINGDOM_BONUS = 10
HARMONY_BONUS = 5
COINS_PER_POINT = 3


@dataclass(frozen=True)
class TerritoryScore:
    terrain: str
    size: int
    crowns: int  # printed and building crowns, without the queen
    queen: bool
    points: int  # size x crowns (the queen's extra crown is counted in `ScoreBreakdown.queen`)


@dataclass(frozen=True)
class ScoreBreakdown:
    """Every part of a kingdom's score. `total` is the sum of the parts."""

    terrains: dict[str, int]  # points per terrain, all its territories together (queen excluded)
    territories: tuple[TerritoryScore, ...]
    queen: int  # the queen's extra crown on the largest territory
    buildings: tuple[tuple[str, int], ...]  # (building id, points), one entry per building
    coins: int  # points from coins
    middle_kingdom: int
    harmony: int
    total: int
    largest_territory: int
    total_crowns: int
    leftover_coins: int
    queendomino: bool = field(default=False)

    @property
    def territory_points(self) -> int:
        return sum(self.terrains.values())

    @property
    def building_points(self) -> int:
        return sum(p for _, p in self.buildings)

    def parts(self) -> dict[str, int]:
        """The breakdown as flat named parts, in score-sheet order (zero bonuses omitted where not in play)."""
        parts = {t: self.terrains.get(t, 0) for t in TERRAINS if self.queendomino or t != "town"}
        if self.queendomino:
            parts["queen"] = self.queen
            parts["buildings"] = self.building_points
            parts["coins"] = self.coins
        parts["middle_kingdom"] = self.middle_kingdom
        parts["harmony"] = self.harmony
        return parts

    def to_dict(self) -> dict:
        return {
            "total": self.total,
            **self.parts(),
            "building_points": [{"id": b, "points": p} for b, p in self.buildings],
            "territories": [
                {"terrain": t.terrain, "size": t.size, "crowns": t.crowns, "queen": t.queen, "points": t.points}
                for t in self.territories
            ],
            "largest_territory": self.largest_territory,
            "total_crowns": self.total_crowns,
            "leftover_coins": self.leftover_coins,
        }


def score_kingdom(
    kingdom: Kingdom,
    *,
    queendomino: bool,
    hosts_queen: bool = False,
    middle_kingdom: bool = False,
    harmony: bool = False,
    territories: list[Territory] | None = None,
) -> ScoreBreakdown:
    """Score one kingdom as it stands now."""
    territories = kingdom.territories() if territories is None else territories
    queen_territory = None
    if hosts_queen and territories:
        # The queen goes on the largest territory; among equals, the one with the most crowns (her crown is
        # worth the territory's size either way, so the choice never changes the total).
        queen_territory = max(range(len(territories)), key=lambda i: (territories[i].size, territories[i].crowns))
    terrain_points: dict[str, int] = {}
    scored = []
    for i, t in enumerate(territories):
        points = t.size * t.crowns
        terrain_points[t.terrain] = terrain_points.get(t.terrain, 0) + points
        scored.append(TerritoryScore(t.terrain, t.size, t.crowns, i == queen_territory, points))
    queen = territories[queen_territory].size if queen_territory is not None else 0

    buildings = []
    if queendomino:
        per_terrain = {t: 0 for t in TERRAINS}
        for t in territories:
            per_terrain[t.terrain] += 1
        for cell in sorted(kingdom.buildings):
            b = building(kingdom.buildings[cell][0])
            if b.scoring == "fixed":
                points = b.points
            elif b.scoring == "per_territory":
                points = b.points * per_terrain[b.scoring_terrain or ""]
            elif b.scoring == "per_tower":
                points = b.points * kingdom.towers
            elif b.scoring == "per_knight":
                points = b.points * kingdom.knights_owned
            else:
                points = 0
            buildings.append((b.id, points))
    coins = kingdom.coins // COINS_PER_POINT if queendomino else 0

    mk = 0
    if middle_kingdom:
        reach = kingdom.size // 2
        cr, cc = kingdom.castle
        top, left, bottom, right = kingdom.bounds()
        if max(cr - top, bottom - cr, cc - left, right - cc) <= reach:
            mk = MIDDLE_KINGDOM_BONUS
    hb = HARMONY_BONUS if harmony and not kingdom.discarded else 0
    total = sum(terrain_points.values()) + queen + sum(p for _, p in buildings) + coins + mk + hb
    return ScoreBreakdown(
        terrains=terrain_points,
        territories=tuple(scored),
        queen=queen,
        buildings=tuple(buildings),
        coins=coins,
        middle_kingdom=mk,
        harmony=hb,
        total=total,
        largest_territory=max((t.size for t in territories), default=0),
        total_crowns=sum(t.crowns for t in territories) + (1 if queen_territory is not None else 0),
        leftover_coins=kingdom.coins % COINS_PER_POINT if queendomino else 0,
        queendomino=queendomino,
    )


@dataclass(frozen=True)
class Ranking:
    """Kingdoms ranked best first. `winners` are kingdom indices (more than one when the win is shared)."""

    order: tuple[int, ...]
    winners: tuple[int, ...]
    tiebreak: str | None  # what decided the winner when totals tied, or "shared" when nothing did


def rank(totals: list[int], breakdowns: list[ScoreBreakdown], *, queendomino: bool) -> Ranking:
    """Rank kingdoms by total; ties go to the largest territory, then crowns (Kingdomino) or leftover coins
    (Queendomino), else the win is shared."""

    def keys(i: int) -> tuple[int, int, int]:
        b = breakdowns[i]
        return (totals[i], b.largest_territory, b.leftover_coins if queendomino else b.total_crowns)

    order = tuple(sorted(range(len(totals)), key=lambda i: keys(i), reverse=True))
    best = order[0]
    tied_total = [i for i in order if totals[i] == totals[best]]
    tiebreak = None
    if len(tied_total) > 1:
        tied_territory = [i for i in tied_total if keys(i)[:2] == keys(best)[:2]]
        if len(tied_territory) == 1:
            tiebreak = "largest territory"
        else:
            tied_last = [i for i in tied_territory if keys(i) == keys(best)]
            if len(tied_last) == 1:
                tiebreak = "leftover coins" if queendomino else "most crowns"
            else:
                tiebreak = "shared"
        winners = tuple(i for i in order if keys(i) == keys(best))
    else:
        winners = (best,)
    return Ranking(order, winners, tiebreak)
