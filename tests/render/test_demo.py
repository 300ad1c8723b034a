"""`python -m render demo` writes every kind of picture for a seeded random game."""

from __future__ import annotations

import pytest

from render.__main__ import main

from .helpers import open_png

EXPECTED = {
    "table_start.png",
    "table_middle.png",
    "table_end.png",
    "kingdom_legal.png",
    "kingdom_preview.png",
    "placement.png",
    "offer.png",
    "score_sheet.png",
    "remaining.png",
}


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "kingdomino", "--players", "4"],
        ["--game", "queendomino", "--players", "2", "--variant", "harmony"],
        ["--game", "royal-wedding", "--players", "8", "--teams"],
    ],
    ids=["kingdomino-4", "queendomino-2", "royal-wedding-teams-8"],
)
def test_demo_writes_every_picture(tmp_path, capsys, args):
    assert main(["demo", *args, "--seed", "7", "--out", str(tmp_path)]) == 0
    written = {p.name for p in tmp_path.iterdir()}
    queendomino_rules = args[1] != "kingdomino"
    assert written - EXPECTED == ({"tax.png", "dragon.png"} & written if queendomino_rules else set())
    assert written >= EXPECTED
    for name in written:
        assert open_png((tmp_path / name).read_bytes()).width > 300
    assert str(tmp_path / "table_end.png") in capsys.readouterr().out


def test_demo_refuses_a_configuration_the_engine_refuses(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", "--game", "royal-wedding", "--players", "8", "--seed", "1", "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "teams" in capsys.readouterr().err
