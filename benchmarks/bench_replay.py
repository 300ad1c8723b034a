"""Replay and score chart: build time and size for whole games, from the short (Kingdomino, 2 players, 24 dominoes)
to the long (Royal Wedding, 8 players in teams: 96 turns; Kingdomino Dynasty: three deals, 144 turns).

Targets: a long game's replay in under 3 s and under 2 MB (Discord takes 8 MB at the least), a chart under 300 ms.
Games are played by the `easy` computer player (greedy: kingdoms as full as people make them). Times are medians
of REPEATS builds in CPU time of this process (the work runs on one core), plus the wall time of the whole run. Run: python benchmarks/bench_replay.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, GameConfig
from engine.ai import make_agent
from render.chart import render_score_chart
from render.replay import render_replay, replay_steps

REPEATS = 3
NAMES = ("Alice", "Bérénice", "Chloé", "Dmitri", "Émile", "François", "Gwen", "Håkon")
CASES = [
    # label, game, players, teams, variants, long
    ("Kingdomino, 2 players", "kingdomino", 2, False, (), False),
    ("Queendomino, 4 players", "queendomino", 4, False, (), False),
    ("Royal Wedding, 4 players (7x7)", "royal-wedding", 4, False, (), True),
    ("Royal Wedding, 7 players", "royal-wedding", 7, False, (), True),
    ("Royal Wedding, 8 players in teams", "royal-wedding", 8, True, (), True),
    ("Kingdomino, 4 players, Dynasty", "kingdomino", 4, False, ("dynasty",), True),
]


def played(game: str, players: int, teams: bool, variants: tuple[str, ...], seed: int = 1) -> tuple[GameConfig, Game]:
    ids = tuple(f"p{i + 1}" for i in range(players))
    pairs = tuple(zip(ids[::2], ids[1::2], strict=True)) if teams else None
    config = GameConfig(game=game, players=ids, variants=frozenset(variants), teams=pairs)
    g = Game.new(config, seed)
    agent = make_agent("easy", seed=seed)
    while not g.is_over:
        g.apply(agent.choose(g))
    return config, g


def median_ms(build) -> tuple[float, object]:
    """Median CPU milliseconds of `build()` (the process's own time: on a busy machine wall time mostly measures
    the neighbours; the work is single-threaded, so this is what one worker core spends) and its last result."""
    times, result = [], None
    for _ in range(REPEATS):
        start = time.process_time()
        result = build()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), result


def main() -> int:
    ok = True
    wall = time.perf_counter()
    render_replay(GameConfig("kingdomino", ("a", "b")), 1, [])  # warm the font, tile and icon caches
    print(f"{'game':<36} {'turns':>5} {'replay':>9} {'size':>9} {'steps':>8} {'chart':>8} {'size':>8}")
    for label, game, players, teams, variants, long in CASES:
        config, g = played(game, players, teams, variants)
        log = [(p, a.to_dict()) for p, a in g.log]  # as the store gives it
        names = {p: NAMES[i] for i, p in enumerate(config.players)}
        steps_ms, steps = median_ms(lambda config=config, log=log: replay_steps(config.to_dict(), 1, log))
        replay_ms, (data, _) = median_ms(
            lambda config=config, log=log, names=names: render_replay(config, 1, log, names)
        )
        chart_ms, chart = median_ms(
            lambda config=config, log=log, names=names: render_score_chart(config, 1, log, names)
        )
        kb, chart_kb = len(data) / 1024, len(chart) / 1024
        missed = (long and (replay_ms > 3000 or kb > 2048)) or chart_ms > 300
        ok = ok and not missed
        print(
            f"{label:<36} {len(steps) - 1:>5} {replay_ms:>6.0f} ms {kb:>6.0f} KB {steps_ms:>5.0f} ms "
            f"{chart_ms:>5.0f} ms {chart_kb:>5.0f} KB{'  MISSED' if missed else ''}"
        )
    print("replay: GIF 780 px wide, one frame per turn; steps: the engine's replay alone (included in replay)")
    print(f"CPU times; wall time of the whole run {time.perf_counter() - wall:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
