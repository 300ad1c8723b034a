"""Rendering speed and size: median milliseconds and PNG bytes for the pictures the bot sends most.

Targets: a 4-player Queendomino table under 60 ms and 300 KB; an 8-player Royal Wedding table under 150 ms and
1 MB. States come from seeded games played halfway by the random computer player. Run: python benchmarks/bench_render.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, GameConfig, Place
from engine.ai import make_agent
from render import (
    render_dragon,
    render_kingdom,
    render_offer,
    render_placement,
    render_remaining,
    render_score_sheet,
    render_table,
    render_table_pictures,
    render_tax,
)

REPEATS = 30


def halfway(game: str, players: int, teams: bool = False, seed: int = 1, fraction: float = 0.5) -> Game:
    ids = tuple("abcdefgh"[:players])
    pairs = tuple(zip(ids[::2], ids[1::2], strict=True)) if teams else None
    config = GameConfig(game=game, players=ids, teams=pairs)
    full = Game.new(config, seed)
    agent = make_agent("random", seed=seed)
    while not full.is_over:
        full.apply(agent.choose(full))
    return Game.replay(config, seed, full.log[: int(len(full.log) * fraction)])


def measure(label: str, render, limit_ms: float | None = None, limit_kb: float | None = None) -> bool:
    render()  # warm the font, tile and icon caches, as a running bot has them
    times, data = [], b""
    for _ in range(REPEATS):
        start = time.perf_counter()
        data = render()
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    kb = len(data) / 1024
    ok = (limit_ms is None or median < limit_ms) and (limit_kb is None or kb < limit_kb)
    target = f"  (target < {limit_ms:.0f} ms, < {limit_kb:.0f} KB)" if limit_ms else ""
    print(f"{label:<44} median {median:6.1f} ms  {kb:7.1f} KB{target}{'' if ok else '  MISSED'}")
    return ok


def main() -> int:
    names = {
        p: n
        for p, n in zip(
            "abcdefgh", ["Alice", "Bérénice", "Chloé", "Dmitri", "Émile", "François", "Gwen", "Håkon"], strict=True
        )
    }
    qd4 = halfway("queendomino", 4)
    rw8 = halfway("royal-wedding", 8, teams=True)
    rw7 = halfway("royal-wedding", 7)
    kd4 = halfway("kingdomino", 4)
    over = halfway("queendomino", 4, fraction=1.0)
    d = qd4.decision()
    assert d is not None
    ok = measure("table: Queendomino, 4 players", lambda: render_table(qd4, names, None, d.player), 60, 300)
    # A Royal Wedding table is posted as two pictures (render.table.splits): both are measured, their sizes added.
    both = render_table_pictures
    ok &= measure(
        "table: Royal Wedding, 8 in teams (2 pictures)", lambda: b"".join(both(rw8, names, None, "a")), 150, 1024
    )
    ok &= measure(
        "table: Royal Wedding, 7 players (2 pictures)", lambda: b"".join(both(rw7, names, None, "a")), 150, 1024
    )
    measure("table: Kingdomino, 4 players", lambda: render_table(kd4, names, None, "a"))
    measure("kingdom, large", lambda: render_kingdom(qd4, 0, names, None))
    measure("score sheet: Queendomino, 4 players", lambda: render_score_sheet(over, names, None))
    measure("dominoes still to come", lambda: render_remaining(qd4))
    placing = qd4.clone()
    while placing.decision() is not None and placing.decision().kind != "place":
        placing.apply(placing.legal_actions()[0])
    p = placing.decision()
    if p is not None:
        spot = next(a for a in placing.legal_actions() if isinstance(a, Place))
        cell = (spot.row, spot.col)
        measure("panel: placement", lambda: render_placement(placing, p.player, p.domino, cell, names, None))
    measure("panel: offer", lambda: render_offer(qd4, d.player, names, None))
    measure("panel: tax", lambda: render_tax(qd4, d.player, names, None))
    measure("panel: dragon", lambda: render_dragon(qd4, d.player, names, None))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
