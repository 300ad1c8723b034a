"""The READMEs' examples run (as python-chess runs its README): every `>>>` block of README.md and
engine/README.md is a doctest, every `$ command` line of their code blocks runs and succeeds (its stated result
checked where the text gives one), and every `make` target the README names exists."""

from __future__ import annotations

import doctest
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
READMES = ("README.md", "engine/README.md")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(name: str) -> list[tuple[int, str, str]]:
    """(line number, language, text) of every fenced code block of a README."""
    text = (ROOT / name).read_text()
    return [(text[: m.start()].count("\n") + 1, m[1], m[2]) for m in FENCE.finditer(text)]


def doctest_blocks() -> list[tuple[str, int, str]]:
    return [(name, line, code) for name in READMES for line, _, code in blocks(name) if ">>> " in code]


def commands() -> list[tuple[str, int, str]]:
    found = []
    for name in READMES:
        for line, _, code in blocks(name):
            for offset, row in enumerate(code.splitlines(), start=1):
                if row.startswith("$ python -m "):
                    found.append((name, line + offset, row[2:]))
    return found


def test_the_readmes_have_examples_to_run() -> None:
    assert {name for name, _, _ in doctest_blocks()} == {"engine/README.md"}
    assert len(commands()) >= 5


@pytest.mark.parametrize(("name", "line", "code"), doctest_blocks(), ids=lambda v: str(v)[:30])
def test_the_python_examples_give_what_they_show(name: str, line: int, code: str) -> None:
    test = doctest.DocTestParser().get_doctest(code, {}, f"{name}:{line}", name, line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


@pytest.mark.parametrize(("name", "line", "command"), commands(), ids=lambda v: str(v)[:60])
def test_the_command_line_examples_run(name: str, line: int, command: str, tmp_path: Path) -> None:
    """Each `$ python -m ...` line, run from a scratch folder (its files named from the repository root)."""
    words, _, comment = command.partition("  #")
    args = shlex.split(words)
    out_file = None
    if ">" in args:
        out_file = tmp_path / args[args.index(">") + 1]
        args = args[: args.index(">")]
    args = [sys.executable, *args[1:]]
    args = [str(ROOT / a) if a.startswith("engine/examples/") else a for a in args]
    run = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, f"{name}:{line}: {command}\n{run.stderr}"
    output = run.stdout
    if out_file is not None:
        out_file.write_text(output)
    if args[3] == "selfplay":
        games = [json.loads(row) for row in output.splitlines()]
        assert len(games) == int(args[args.index("--games") + 1]) and all(g["winner"] for g in games)
    if args[3] == "score":  # the comment says the total: "... score example: 71" or "7 forests x 3 crowns"
        product = re.search(r"(\d+) \w+ x (\d+) crowns", comment)
        expected = int(product[1]) * int(product[2]) if product else int(re.findall(r"\d+", comment)[-1])
        assert json.loads(output)["total"] == expected, comment


def test_the_make_targets_the_readme_names_exist() -> None:
    named = []
    for _, language, code in blocks("README.md"):
        if language == "sh":
            named += re.findall(r"^make (\w+)", code, re.M)
    assert named == ["run", "test"]
    for target in named:
        dry = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert dry.returncode == 0, dry.stderr
