"""Pixel-hash goldens: one fixed game state per kind of picture, drawn exactly as before.

The hashes hold for Pillow 13 (with the FreeType it bundles) and Debian's DejaVu Sans; with anything else the test
is skipped, not failed. After an intended change to the pictures, look at them, then regenerate:

    RENDER_UPDATE_GOLDENS=1 .venv/bin/python -m pytest tests/render/test_golden.py

The failure message names a folder holding the pictures as drawn now, to compare by eye.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import PIL
import pytest
from PIL import features

from engine import Place
from render import fonts, render_kingdom, render_remaining, render_score_sheet, render_table

from .helpers import active, config, names_for, open_png, state, steps

GOLDEN = Path(__file__).parent / "golden" / "hashes.json"
UPDATE = os.environ.get("RENDER_UPDATE_GOLDENS") == "1"


def _environment() -> dict[str, str]:
    files = [fonts.FONT_DIR / fonts.FONT_FILES[b] for b in (False, True)]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.read_bytes() if f.exists() else b"missing")
    return {
        "pillow_major": PIL.__version__.split(".")[0],
        "freetype": str(features.version("freetype2")),
        "dejavu_sha256": digest.hexdigest(),
    }


def _pictures() -> dict[str, bytes]:
    """The fixed states: a Queendomino game for 4 halfway through, a placement in it, and a finished game."""
    cfg = config("queendomino", 4)
    game = steps(cfg, seed=2024, n=70)
    while game.decision().kind != "place":
        game.apply(game.legal_actions()[0])
    d = game.decision()
    names = names_for(game)
    places = [a for a in game.legal_actions() if isinstance(a, Place)]
    spots = sorted({(a.row, a.col) for a in places})
    over = state(cfg, seed=2024, fraction=1.0)
    return {
        "table": render_table(game, names, None, active(game)),
        "kingdom_legal_spots": render_kingdom(game, d.kingdom, names, None, legal_spots=spots),
        "kingdom_preview": render_kingdom(game, d.kingdom, names, None, preview=(d.domino, places[0].placement)),
        "score_sheet": render_score_sheet(over, names, None),
        "remaining": render_remaining(game),
    }


def _pixel_hash(data: bytes) -> str:
    im = open_png(data).convert("RGB")
    return hashlib.sha256(f"{im.size}".encode() + im.tobytes()).hexdigest()


def test_pictures_match_their_goldens(tmp_path):
    fonts.set_font_loader(None)
    env = _environment()
    pictures = _pictures()
    hashes = {kind: _pixel_hash(data) for kind, data in pictures.items()}
    if UPDATE:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps({"environment": env, "pictures": hashes}, indent=2) + "\n")
        pytest.skip("goldens regenerated")
    stored = json.loads(GOLDEN.read_text())
    if stored["environment"] != env:
        pytest.skip(f"goldens are for {stored['environment']}, this is {env}")
    changed = [kind for kind, h in hashes.items() if stored["pictures"].get(kind) != h]
    for kind in changed:
        (tmp_path / f"{kind}.png").write_bytes(pictures[kind])
    assert not changed, f"{', '.join(changed)} changed: see {tmp_path}; regenerate as this module's docstring says"
