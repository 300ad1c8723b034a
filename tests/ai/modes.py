"""Every mode the computer players must handle, as game configurations."""

from __future__ import annotations

from engine import GameConfig


def players(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(n))


MODES: dict[str, GameConfig] = {
    "kingdomino-2": GameConfig("kingdomino", players(2)),
    "kingdomino-3": GameConfig("kingdomino", players(3)),
    "kingdomino-3-four-dominoes": GameConfig("kingdomino", players(3), frozenset({"three-player-four-dominoes"})),
    "kingdomino-4-bonuses": GameConfig("kingdomino", players(4), frozenset({"middle-kingdom", "harmony"})),
    "mighty-duel": GameConfig("kingdomino", players(2), frozenset({"mighty-duel"})),
    "kingdomino-4-dynasty": GameConfig("kingdomino", players(4), frozenset({"dynasty"})),
    "queendomino-2": GameConfig("queendomino", players(2)),
    "queendomino-3": GameConfig("queendomino", players(3), frozenset({"harmony"})),
    "queendomino-4": GameConfig("queendomino", players(4), frozenset({"middle-kingdom"})),
    "royal-wedding-3": GameConfig("royal-wedding", players(3)),
    "royal-wedding-4": GameConfig("royal-wedding", players(4)),
    "royal-wedding-5": GameConfig("royal-wedding", players(5)),
    "royal-wedding-7": GameConfig("royal-wedding", players(7)),
    "royal-wedding-6-teams": GameConfig("royal-wedding", players(6), teams=(("p0", "p3"), ("p1", "p4"), ("p2", "p5"))),
    "royal-wedding-8-teams": GameConfig(
        "royal-wedding", players(8), teams=(("p0", "p4"), ("p1", "p5"), ("p2", "p6"), ("p3", "p7"))
    ),
}
