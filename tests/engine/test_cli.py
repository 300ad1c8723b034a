"""`python -m engine`: selfplay and score."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main

from . import independent as ind
from .harness import MODES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "engine" / "examples"


def run(*args, stdin=None):
    """The real command, in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, input=stdin, timeout=120
    )


def call(*args):
    """The command in-process (quicker): (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


# -- score ------------------------------------------------------------------------------------------------------------


def test_score_the_kingdomino_rulebook_example():
    done = run("score", str(EXAMPLES / "kingdomino_21.json"))
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    assert s["total"] == 21 and s["forest"] == 21 and s["lake"] == 0


def test_score_the_queendomino_rulebook_example():
    done = run("score", str(EXAMPLES / "queendomino_71.json"))
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    assert s["total"] == 71
    assert (s["coins"], s["queen"], s["grassland"], s["mine"], s["buildings"]) == (3, 4, 12, 12, 27)


def test_score_reads_stdin_and_accepts_ids_or_names():
    spec = json.loads((EXAMPLES / "queendomino_71.json").read_text())
    spec["buildings"] = [{**b, "name": b["name"].lower().replace(" ", "_")} for b in spec["buildings"]]
    done = run("score", "-", stdin=json.dumps(spec))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 71


@pytest.fixture
def score_of(tmp_path):
    """Score a kingdom spec through the command: (exit code, stdout, stderr)."""

    def score(spec):
        path = tmp_path / "kingdom.json"
        path.write_text(json.dumps(spec))
        return call("score", str(path))

    return score


def test_score_towers_override_the_building_towers(score_of):
    spec = json.loads((EXAMPLES / "queendomino_71.json").read_text())
    for towers, total in ((3, 71), (5, 73), (1, 69), (0, 68)):
        code, out, err = score_of({**spec, "towers": towers})
        assert code == 0, err
        assert json.loads(out)["total"] == total
    no_towers = {k: v for k, v in spec.items() if k != "towers"}
    assert json.loads(score_of(no_towers)[1])["total"] == 71, "each building's own towers by default"


def test_score_variants_knights_and_discards(score_of):
    spec = {
        "game": "queendomino",
        "size": 5,
        "grid": ["CC T0"],
        "buildings": [{"name": "Training Camp", "cell": [0, 1]}],
    }
    assert json.loads(score_of({**spec, "knights": 4})[1])["buildings"] == 4
    spec = {"game": "kingdomino", "size": 5, "grid": ["CC W1"], "variants": ["harmony", "middle-kingdom"]}
    assert json.loads(score_of(spec)[1])["total"] == 1 + 5 + 10
    assert json.loads(score_of({**spec, "discarded": 1})[1])["total"] == 1 + 10


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"game": "kingdomino", "size": 5, "grid": ["CC"], "colour": "red"}, "Unknown key 'colour'"),
        ({"game": "kingdomino", "grid": ["CC"]}, "Missing key 'size'"),
        ({"game": "go", "size": 5, "grid": ["CC"]}, 'Unknown game "go"'),
        ({"game": "kingdomino", "size": 6, "grid": ["CC"]}, "`size` is 5 or 7, not 6"),
        ({"game": "kingdomino", "size": 5, "grid": ["CC W9"]}, "Cannot read cell 'W9'"),
        ({"game": "kingdomino", "size": 5, "grid": ["W0 W1"]}, "exactly one castle"),
        ({"game": "kingdomino", "size": 5, "grid": ["CC"], "coins": 3}, "`coins` has no place in Kingdomino"),
        ({"game": "queendomino", "size": 5, "grid": ["CC"], "coins": -1}, "`coins` must be a whole number"),
        ({"game": "queendomino", "size": 5, "grid": ["CC"], "queen": "yes"}, "`queen` is true or false"),
        ({"game": "queendomino", "size": 5, "grid": ["CC"], "variants": ["turbo"]}, "Unknown variant 'turbo'"),
        (
            {"game": "queendomino", "size": 5, "grid": ["CC T0"], "buildings": [{"name": "Castle", "cell": [0, 1]}]},
            'Unknown building "Castle"',
        ),
        (
            {"game": "queendomino", "size": 5, "grid": ["CC T0"], "buildings": [{"name": "Statue", "cell": [0, 0]}]},
            "not a town square",
        ),
        (
            {"game": "queendomino", "size": 5, "grid": ["CC T0"], "buildings": [{"name": "Statue", "at": [0, 1]}]},
            "Unknown building key 'at'",
        ),
        (
            {
                "game": "queendomino",
                "size": 5,
                "grid": ["CC T0"],
                "buildings": [{"name": "Statue", "cell": [0, 1]}, {"name": "Church", "cell": [0, 1]}],
            },
            "Two buildings on [0, 1]",
        ),
        ({"game": "queendomino", "size": 5, "grid": ["CC T0"], "towers": 2}, "Towers stand on buildings"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_score_errors_are_one_clear_line_and_exit_2(spec, message, score_of):
    code, out, err = score_of(spec)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert message in err


def test_score_file_errors(tmp_path):
    code, _, err = call("score", "/no/such/file.json")
    assert code == 2 and "Cannot read /no/such/file.json" in err
    bad = tmp_path / "not_json.json"
    bad.write_text("{grid:")
    code, _, err = call("score", str(bad))
    assert code == 2 and "is not valid JSON" in err and err.count("\n") == 1


# -- selfplay ---------------------------------------------------------------------------------------------------------


def _selfplay_args(mode, games=2, seed=40):
    game, n, variants, teams = MODES[mode]
    args = ["selfplay", "--game", game, "--players", str(n), "--games", str(games), "--seed", str(seed)]
    if variants:
        args += ["--variant", *variants]
    if teams:
        args.append("--teams")
    return args


def _check_record(record, mode):
    game, n, variants, teams = MODES[mode]
    assert record["game"] == game and record["players"] == [f"p{i + 1}" for i in range(n)]
    assert record["variants"] == sorted(variants) and record["size"] in (5, 7)
    if teams:
        assert record["teams"] == [[f"p{i}", f"p{i + 1}"] for i in range(1, n, 2)]
    else:
        assert record["teams"] is None
    qd = game != "kingdomino"
    size = record["size"]
    totals = []
    for k in record["kingdoms"]:
        rows = [r.split() for r in k["grid"]]
        assert len(rows) <= size and all(len(r) <= size for r in rows)
        # Every domino's squares are where its cells say, in the data file's order.
        for d in k["dominoes"]:
            squares = ind.DOMINOES[f"{d['box']}{d['number']}"]
            for (r, c), (terrain, crowns) in zip(d["cells"], squares, strict=True):
                assert rows[r][c] == f"{terrain[0].upper()}{crowns}"
        filled = sum(1 for r in rows for x in r if x not in ("..", "CC"))
        assert filled == 2 * len(k["dominoes"])
        grid = ind.grid_from_rows(k["grid"], size)
        cr, cc = next((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == "CC")
        buildings = {(r - cr + size - 1, c - cc + size - 1): b["id"] for b in k["buildings"] for r, c in [b["cell"]]}
        assert all(rows[b["cell"][0]][b["cell"][1]] == "T0" for b in k["buildings"])
        assert all(rows[r][c] not in ("..", "CC") for r, c in k["knights"]["placed"])
        assert k["towers"] == sum(b["towers"] for b in k["buildings"])
        expected = ind.score(
            grid,
            size,
            queendomino=qd,
            buildings=buildings,
            towers=k["towers"],
            knights=k["knights"]["reserve"] + len(k["knights"]["placed"]),
            coins=k["coins"],
            queen=k["queen"],
            middle_kingdom="middle-kingdom" in variants,
            harmony="harmony" in variants,
            discards=len(k["discarded"]),
        )
        assert k["score"]["total"] == expected["total"]
        assert (
            sum(
                v
                for key, v in k["score"].items()
                if key not in ("total", "largest_territory", "total_crowns", "leftover_coins")
            )
            == k["score"]["total"]
        )
        totals.append(k["score"]["total"])
    best = [p for k, t in zip(record["kingdoms"], totals, strict=True) if t == max(totals) for p in k["players"]]
    assert set(record["winner"]) <= set(best)
    assert sum(k["queen"] for k in record["kingdoms"]) <= 1


@pytest.mark.parametrize("mode", list(MODES))
def test_selfplay_prints_one_json_game_per_line(mode):
    code, out, err = call(*_selfplay_args(mode))
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 2
    records = [json.loads(line) for line in lines]
    assert [r["seed"] for r in records] == [40, 41]
    for r in records:
        _check_record(r, mode)
    assert "games/s" in err and err.count("\n") == 1


def test_selfplay_is_deterministic_and_takes_agents_per_seat():
    a = call("selfplay", "--game", "queendomino", "--players", "3", "--games", "2", "--seed", "9")[1]
    b = call(
        "selfplay",
        "--game",
        "queendomino",
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "9",
        "--agents",
        "random,random,random",
    )[1]
    assert a == b
    code, _, err = call("selfplay", "--game", "kingdomino", "--players", "2", "--games", "1", "--agents", "random")
    assert code == 0 and "agents random" in err


def test_selfplay_dynasty_reports_every_deal():
    code, out, err = call("selfplay", "--game", "kingdomino", "--players", "3", "--variant", "dynasty,harmony")
    assert code == 0, err
    record = json.loads(out)
    assert record["variants"] == ["dynasty", "harmony"] and len(record["deal_totals"]) == 3
    assert record["totals"] == [sum(t[i] for t in record["deal_totals"]) for i in range(3)]


def test_selfplay_through_python_dash_m():
    done = run("selfplay", "--game", "kingdomino", "--players", "4", "--games", "3", "--seed", "7")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["seed"] for line in done.stdout.splitlines()] == [7, 8, 9]
    assert "selfplay: 3 games of Kingdomino, 4 players" in done.stderr


def test_a_selfplay_kingdom_scores_the_same_through_score(score_of):
    code, out, _ = call(*_selfplay_args("queendomino-4", games=1, seed=3))
    record = json.loads(out)
    for k in record["kingdoms"]:
        spec = {
            "game": record["game"],
            "size": record["size"],
            "grid": k["grid"],
            "buildings": [{"name": b["name"], "cell": b["cell"], "towers": b["towers"]} for b in k["buildings"]],
            "knights": k["knights"]["reserve"] + len(k["knights"]["placed"]),
            "coins": k["coins"],
            "queen": k["queen"],
            "discarded": len(k["discarded"]),
            "variants": record["variants"],
        }
        code, out, err = score_of(spec)
        assert code == 0, err
        assert json.loads(out)["total"] == k["score"]["total"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["selfplay", "--game", "kingdomino", "--players", "5"], "kingdomino takes 2-4 players, not 5"),
        (["selfplay", "--game", "chess", "--players", "2"], "invalid choice: 'chess'"),
        (["selfplay", "--game", "kingdomino", "--players", "4", "--teams"], "Teams are played only in Royal Wedding"),
        (["selfplay", "--game", "royal-wedding", "--players", "7", "--teams"], "7 players cannot pair up"),
        (["selfplay", "--game", "kingdomino", "--players", "3", "--variant", "mighty-duel"], "Mighty Duel"),
        (["selfplay", "--game", "kingdomino", "--players", "2", "--variant", "turbo"], "Unknown variant 'turbo'"),
        (["selfplay", "--game", "kingdomino", "--players", "2", "--agents", "wizard"], "Unknown computer player"),
        (["selfplay", "--game", "kingdomino", "--players", "2", "--games", "0"], "--games must be at least 1"),
        (["selfplay", "--players", "2"], "the following arguments are required: --game"),
        (["dance"], "invalid choice: 'dance'"),
        ([], "the following arguments are required"),
    ],
)
def test_selfplay_errors_are_one_clear_line_and_exit_2(args, message):
    code, out, err = call(*args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert message in err
