"""Data and fit of the learned position value (engine/ai/value.py, issue #31), from a seed.

    .venv/bin/python benchmarks/fit_value.py --data /tmp/value.jsonl                # self-play, then fit and report
    .venv/bin/python benchmarks/fit_value.py --data /tmp/value.jsonl --fit-only     # refit the data already there
    .venv/bin/python benchmarks/fit_value.py --data /tmp/value.jsonl --fit-only --write   # and write the weights

Self-play: whole games of Kingdomino with Middle Kingdom and Harmony (the arena's rules), every seat `medium` (hard's
search at a small effort: the better players whose results the value learns), 2, 3 and 4 players, game i with seed
`--seed` + i. At the start of every round (and at the first claim), for every kingdom (those of a deal's last third are not
fitted: the search plays those to the end, `last_valued_round`), its features
(`engine.ai.value.features`, the dominoes to come being what nobody has seen yet), its score now (the model's, as
the search reads it) and the mean result of `--playouts` greedy playouts from there (the search's own judge, the
baseline); at the end its final score. The target is the points still to come (final score minus score now).

Fit: ridge least squares on standardized features (normal equations, pure Python), one table per number of players,
on the games whose index is not a multiple of 5; the games whose index is (a fifth, whole games) are held out and
judged: R^2 and mean absolute error of the points still to come, against two baselines: the score now plus the
average gain of the training positions (`now + mean`), and the greedy playouts' mean.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

from engine import Game, GameConfig
from engine.ai import make_agent
from engine.ai.model import P_FIRST, P_PLACE, Sim
from engine.ai.value import FEATURES, FIXED, features, future_stats, last_valued_round

VARIANTS = frozenset({"middle-kingdom", "harmony"})
RIDGE = 1.0  # on standardized features
VALUE_FILE = Path(__file__).resolve().parent.parent / "engine" / "ai" / "value.py"


def rounds(players: int) -> int:
    """Rounds of a deal of Kingdomino with that many players."""
    return Game.new(GameConfig("kingdomino", tuple(f"p{i}" for i in range(players)), VARIANTS), seed=0).setup.rounds


def round_start(game: Game) -> bool:
    """Whether the decision at hand opens a round: the first claim, or the first placement of a line."""
    d = game.decision()
    if d is None:
        return False
    if d.kind == "first_claim":
        return not any(king is not None for _, king in game.current_line)
    if d.kind != "place":
        return False
    first = next(king for _, king in game.current_line if king is not None)
    return d.king == first


def snapshot(game: Game, rng: random.Random, playouts: int) -> list[dict]:
    """Per kingdom at this point: features, score now, greedy playouts' mean final score."""
    sim = Sim.from_game(game)
    assert sim.phase in (P_FIRST, P_PLACE)
    unseen = game.unseen_dominoes()
    stats = future_stats(unseen)
    now = sim.totals()
    greedy = [0.0] * len(sim.ks)
    for _ in range(playouts):
        world = sim.determinize(game, rng, unseen)
        world.playout()
        for i, t in enumerate(world.totals()):
            greedy[i] += t / playouts
    return [
        {"round": game.round, "ki": ki, "x": features(sim, ki, stats), "now": now[ki], "greedy": greedy[ki]}
        for ki in range(len(sim.ks))
    ]


def self_play(players: int, index: int, seed: int, playouts: int) -> list[dict]:
    """One self-play game; its positions with their targets."""
    config = GameConfig("kingdomino", tuple(f"p{i}" for i in range(players)), VARIANTS)
    game = Game.new(config, seed=seed + index)
    agents = {p: make_agent("medium", seed=1000 * (seed + index) + i) for i, p in enumerate(config.players)}
    rng = random.Random(f"value:{seed}:{index}")
    rows: list[dict] = []
    while not game.is_over:
        if round_start(game):
            rows.extend(snapshot(game, rng, playouts))
        d = game.decision()
        assert d is not None
        game.apply(agents[d.player].choose(game), by=d.player)
    final = game.match_totals()
    for row in rows:
        row.update(players=players, game=index, final=final[row["ki"]])
    return rows


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small and well conditioned)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows: list[dict]) -> list[float]:
    """Ridge weights (in the features' own units) of the points still to come, on standardized features; the
    weights of `FIXED` are set, not fitted (their part is taken out of the target, their feature out of the fit)."""
    n, k = len(rows), len(FEATURES)
    fixed = [FIXED.get(name) for name in FEATURES]
    xs = [[0.0 if f is not None else v for v, f in zip(r["x"], fixed, strict=True)] for r in rows]
    ys = [r["final"] - r["now"] - sum(f * v for v, f in zip(r["x"], fixed, strict=True) if f is not None) for r in rows]
    mean = [sum(x[j] for x in xs) / n for j in range(k)]
    sd = [max(1e-9, (sum((x[j] - mean[j]) ** 2 for x in xs) / n) ** 0.5) for j in range(k)]
    mean[0], sd[0] = 0.0, 1.0  # the bias stays as it is
    zs = [[(x[j] - mean[j]) / sd[j] for j in range(k)] for x in xs]
    a = [[sum(z[i] * z[j] for z in zs) + (RIDGE if i == j and i else 0.0) for j in range(k)] for i in range(k)]
    b = [sum(z[i] * y for z, y in zip(zs, ys, strict=True)) for i in range(k)]
    w = solve(a, b)
    out = [w[j] / sd[j] for j in range(k)]
    out[0] = w[0] - sum(w[j] * mean[j] / sd[j] for j in range(1, k))
    return [out[j] if f is None else f for j, f in enumerate(fixed)]


def quality(pred: list[float], true: list[float]) -> tuple[float, float]:
    """(R^2, mean absolute error) of predictions."""
    mean = sum(true) / len(true)
    ss = sum((t - mean) ** 2 for t in true)
    res = sum((t - p) ** 2 for t, p in zip(true, pred, strict=True))
    return 1 - res / ss, sum(abs(t - p) for t, p in zip(true, pred, strict=True)) / len(true)


def margins(rows: list[dict], pred: list[float]) -> tuple[list[float], list[float], float]:
    """Per kingdom and position: the predicted final margin over the best other kingdom (final score now plus the
    prediction), the true one, and the share of positions whose winner is predicted."""
    by_pos: dict[tuple, list[tuple[dict, float]]] = {}
    for r, p in zip(rows, pred, strict=True):
        by_pos.setdefault((r["game"], r["round"]), []).append((r, r["now"] + p))
    guess, true, right = [], [], 0
    for pos in by_pos.values():
        for r, p in pos:
            guess.append(p - max(q for o, q in pos if o is not r))
            true.append(r["final"] - max(o["final"] for o, _ in pos if o is not r))
        right += max(pos, key=lambda x: x[1])[0]["final"] == max(o["final"] for o, _ in pos)
    return guess, true, right / len(by_pos)


def report(players: int, train: list[dict], test: list[dict], w: list[float]) -> None:
    true = [r["final"] - r["now"] for r in test]
    gain = sum(r["final"] - r["now"] for r in train) / len(train)
    games = len({r["game"] for r in test})
    print(f"\n{players} players: {len(train)} positions to fit, {len(test)} held out ({games} games)")
    print("  held out: the points still to come (R^2, mean absolute error), the final margin over the best other")
    print("  kingdom (R^2, MAE), the share of positions whose winner it names")
    print(f"  {'':24} {'R^2':>6} {'MAE':>6} {'margin R^2':>10} {'MAE':>6} {'winner':>6}")
    learned = [sum(a * b for a, b in zip(w, r["x"], strict=True)) for r in test]
    for name, pred in (
        ("now + mean gain", [gain] * len(test)),
        ("greedy playouts (mean)", [r["greedy"] - r["now"] for r in test]),
        ("learned value", learned),
    ):
        r2, mae = quality(pred, true)
        m2, mmae = quality(*margins(test, pred)[:2])
        print(f"  {name:24} {r2:6.3f} {mae:6.2f} {m2:10.3f} {mmae:6.2f} {margins(test, pred)[2]:6.1%}")
    by_round: dict[int, list[tuple[dict, float]]] = {}
    for r, p in zip(test, learned, strict=True):
        by_round.setdefault(r["round"], []).append((r, p))
    cells = [
        f"{rd}: {sum(abs(r['greedy'] - r['final']) for r, _ in rs) / len(rs):.1f}/"
        f"{sum(abs(r['now'] + p - r['final']) for r, p in rs) / len(rs):.1f}"
        for rd, rs in sorted(by_round.items())
    ]
    print("  MAE of the points to come by round (greedy / learned): " + ", ".join(cells))


def write_weights(tables: dict[int, list[float]]) -> None:
    """Replace the WEIGHTS table in engine/ai/value.py."""
    body = "".join(
        f"    {players}: (\n"
        + "".join(f"        {w!r},  # {name}\n" for name, w in zip(FEATURES, ws, strict=True))
        + "    ),\n"
        for players, ws in sorted(tables.items())
    )
    text = VALUE_FILE.read_text()
    text, n = re.subn(
        r"WEIGHTS: dict\[int, tuple\[float, \.\.\.\]\] = \{.*?\n\}\n|WEIGHTS: dict\[int, tuple\[float, \.\.\.\]\] = \{\}\n",
        "WEIGHTS: dict[int, tuple[float, ...]] = {\n" + body + "}\n",
        text,
        flags=re.S,
    )
    assert n == 1, "WEIGHTS table not found"
    VALUE_FILE.write_text(text)
    print(f"\nweights written to {VALUE_FILE}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="JSON lines of positions (appended to)")
    parser.add_argument("--seed", type=int, default=31000, help="seed of the first game (default 31000)")
    parser.add_argument(
        "--games",
        type=int,
        nargs=3,
        default=(250, 50, 120),
        metavar=("G2", "G3", "G4"),
        help="games with 2, 3 and 4 players (default 250 50 120)",
    )
    parser.add_argument("--first", type=int, default=0, help="index of the first game (to go on with a run)")
    parser.add_argument("--playouts", type=int, default=4, help="greedy playouts per position, the baseline")
    parser.add_argument("--fit-only", action="store_true", help="fit the data already in --data")
    parser.add_argument("--write", action="store_true", help="write the weights into engine/ai/value.py")
    args = parser.parse_args()
    if not args.fit_only:
        start = time.perf_counter()
        with args.data.open("a") as out:
            # Game i of every player count in turn, so that a run cut short still has some of each.
            for index in range(args.first, max(args.games)):
                for players, games in zip((2, 3, 4), args.games, strict=True):
                    if index < games:
                        for row in self_play(players, index, args.seed + 1000 * players, args.playouts):
                            out.write(json.dumps(row) + "\n")
                        out.flush()
                print(f"game {index} of each ({time.perf_counter() - start:.0f} s)", flush=True)
    rows = [json.loads(line) for line in args.data.read_text().splitlines()]
    # The positions of a deal's last third are left out: the search plays those to the end (`last_valued_round`).
    rows = [r for r in rows if r["round"] <= last_valued_round(rounds(r["players"]))]
    tables = {}
    for players in sorted({r["players"] for r in rows}):
        mine = [r for r in rows if r["players"] == players]
        train = [r for r in mine if r["game"] % 5]
        test = [r for r in mine if not r["game"] % 5]
        if train and test:
            report(players, train, test, fit(train))
        tables[players] = fit(mine)
        sys.stdout.flush()
    if args.write:
        write_weights(tables)  # fitted on every game, the held-out ones included


if __name__ == "__main__":
    main()
