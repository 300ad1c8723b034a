"""The ladder of benchmarks/bench_ai.py: five levels at four-seat tables, rated by the bot's OpenSkill ladder."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

from engine.ai import LEVELS

spec = importlib.util.spec_from_file_location("bench_ai", Path(__file__).parents[2] / "benchmarks" / "bench_ai.py")
bench = importlib.util.module_from_spec(spec)
sys.modules.setdefault("bench_ai", bench)  # its dataclasses look their module up
spec.loader.exec_module(bench)


def test_every_level_plays_every_seat_once_and_sits_out_once_in_five_games() -> None:
    tables = [bench.table_levels(bench.LADDER, i) for i in range(10)]
    assert set(bench.LADDER.levels) == set(LEVELS) and all(len(t) == 4 == len(set(t)) for t in tables)
    for first in (0, 5):
        five = tables[first : first + 5]
        for level in LEVELS:
            seats = [t.index(level) for t in five if level in t]
            assert sorted(seats) == [0, 1, 2, 3], (level, five)
    # The other matches keep one seat per level.
    hard_easy = next(m for m in bench.MATCHES if m.name == "hard-easy")
    assert Counter(bench.table_levels(hard_easy, 3)) == Counter(hard_easy.levels)


def five_games() -> list[dict]:
    """Five ladder games: expert wins the four it plays, hard the one expert sits out; random is last everywhere."""
    results = []
    for i in range(5):
        levels = bench.table_levels(bench.LADDER, i)
        order = [lv for lv in ("expert", "hard", "medium", "easy", "random") if lv in levels]
        scores = [40 - 10 * order.index(lv) for lv in levels]
        wins = [1.0 if lv == order[0] else 0.0 for lv in levels]
        results.append({"levels": list(levels), "scores": scores, "wins": wins, "times": {"hard": [0.5, 1.0]}})
    return results


def test_the_ladder_rates_each_level_over_the_games_it_played() -> None:
    results = five_games()
    rows = {row[0]: row for row in bench.ladder_rows(results)}
    assert [row[0] for row in bench.ladder_rows(results)] == ["expert", "hard", "medium", "easy", "random"]
    assert rows["expert"][4] == 1.0 and rows["hard"][4] == 0.25 and rows["random"][4] == 0.0
    assert rows["expert"][5] == 40 and rows["hard"][6] == 750.0 and rows["hard"][7] == 1000.0


def test_the_summary_counts_a_level_s_wins_over_the_games_it_played(capsys) -> None:
    bench.summarize(bench.LADDER, five_games())
    out = capsys.readouterr().out
    assert "ladder: kingdomino, 4 players: 5 games" in out
    lines = {line.split()[0]: line.split() for line in out.splitlines()[2:] if line.strip()}
    assert lines["expert"][1:3] == ["4", "100.0%"] and lines["hard"][1:3] == ["4", "25.0%"], out
    assert lines["random"][1:3] == ["4", "0.0%"]
