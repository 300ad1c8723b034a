"""Golden pictures: the table (780 pixels wide, as a phone shows it; Royal Wedding's two pictures; a Czech one),
the large kingdom, the placement panel, the score sheet (and the other turn panels) for Kingdomino with 2 players,
Queendomino with 4 and Royal Wedding with 8 in teams (4 of them computers), compared with the PNG files in
tests/render/golden/ pixel by pixel, with a tolerance: each picture is stored with its own 256-colour palette, and
another FreeType may smooth edges a little differently. The comparison needs Debian's DejaVu Sans (the goldens were
drawn with it); without it the test is skipped.

After an intended change to the pictures, look at them, then regenerate:

    RENDER_UPDATE_GOLDENS=1 .venv/bin/python -m pytest tests/render/test_golden.py

A failure writes the pictures as drawn now, and a map of the differing pixels, to a folder it names.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path

import PIL
import pytest
from PIL import Image, ImageChops, features

from engine import Place
from render import (
    fonts,
    render_dragon,
    render_kingdom,
    render_offer,
    render_placement,
    render_score_sheet,
    render_table,
    render_table_pictures,
    render_tax,
)
from render.draw import encode

from .helpers import SAMPLE_GAMES, names_for, sample_states

GOLDEN = Path(__file__).parent / "golden"
ENVIRONMENT = GOLDEN / "environment.json"
UPDATE = os.environ.get("RENDER_UPDATE_GOLDENS") == "1"
TOLERANCE = 48  # per channel: palette rounding and anti-aliasing
MOST_PIXELS = 0.002  # the share of pixels allowed to differ by more than that
PHONE = 780


def _phone(data: bytes) -> bytes:
    """The picture as a phone shows it, 780 pixels wide (the tables are 1000)."""
    im = Image.open(io.BytesIO(data)).convert("RGB")
    return encode(im.resize((PHONE, round(im.height * PHONE / im.width)), Image.Resampling.LANCZOS))


def _pictures() -> dict[str, bytes]:
    """Every golden picture; the tables as a phone shows them (`_780`), Royal Wedding's as its two pictures, with
    four computers among the eight, and a Czech table."""
    out: dict[str, bytes] = {}
    for key in SAMPLE_GAMES:
        states = sample_states(key)
        place = states["place"]
        d = place.decision()
        names = names_for(place)
        if key == "rw8":
            names.update({p: f"Bot {i} (medium)" for i, p in enumerate(place.players[1::2], start=1)})
        places = [a for a in place.legal_actions() if isinstance(a, Place)]
        spots = sorted({(a.row, a.col) for a in places})
        busiest = max(spots, key=lambda c: (sum(1 for a in places if (a.row, a.col) == c), c))
        tables = render_table_pictures(place, names, None, d.player)
        for part, data in zip(("table", "kingdoms"), tables, strict=False):
            out[f"{key}_{part}_780"] = _phone(data)
        if key == "qd4":
            out["qd4_cs_table_780"] = _phone(render_table(place, names, None, d.player, lang="cs"))
        out[f"{key}_kingdom"] = render_kingdom(place, d.kingdom, names, None, legal_spots=spots)
        out[f"{key}_placement"] = render_placement(place, d.player, d.domino, busiest, names, None)
        out[f"{key}_score_sheet"] = render_score_sheet(states["over"], names, None)
        if key == "qd4":
            for kind, fn in (("tax", render_tax), ("dragon", render_dragon), ("claim", render_offer)):
                out[f"{key}_{kind}"] = fn(states[kind], states[kind].decision().player, names, None)
    return out


def _environment() -> dict[str, str]:
    """What the pixels depend on besides the code: Pillow, its FreeType and raqm, and the font files."""
    digest = hashlib.sha256()
    for f in (fonts.FONT_DIR / fonts.FONT_FILES[b] for b in (False, True)):
        digest.update(f.read_bytes() if f.exists() else b"missing")
    return {
        "pillow": PIL.__version__,
        "freetype": str(features.version("freetype2")),
        "raqm": str(features.version("raqm")),
        "dejavu_sha256": digest.hexdigest(),
    }


def _rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _differing(a: Image.Image, b: Image.Image) -> tuple[float, Image.Image]:
    diff = ImageChops.difference(a, b)
    worst = Image.eval(diff, lambda v: 255 if v > TOLERANCE else 0).convert("L")
    worst = worst.point(lambda v: 255 if v else 0)
    histogram = worst.histogram()
    return histogram[255] / (a.width * a.height), worst


def test_pictures_match_their_goldens(tmp_path):
    if not (fonts.FONT_DIR / fonts.FONT_FILES[True]).exists():
        pytest.skip("the goldens are drawn with DejaVu Sans (fonts-dejavu-core)")
    fonts.set_font_loader(None)
    pictures = _pictures()
    if UPDATE:
        ENVIRONMENT.write_text(json.dumps(_environment(), indent=2) + "\n")
        for old in GOLDEN.glob("*.png"):
            old.unlink()
        for name, data in pictures.items():
            Image.open(io.BytesIO(data)).save(GOLDEN / f"{name}.png", optimize=True)
        pytest.skip("goldens regenerated")
    stored = json.loads(ENVIRONMENT.read_text())
    if stored != _environment():  # another FreeType moves glyph edges by a pixel: too many pixels to compare
        pytest.skip(f"goldens drawn with {stored}, this is {_environment()}")
    problems = []
    for name, data in pictures.items():
        path = GOLDEN / f"{name}.png"
        now = _rgb(data)
        if not path.exists():
            problems.append(f"{name}: no golden")
            continue
        want = Image.open(path).convert("RGB")
        if want.size != now.size:
            problems.append(f"{name}: {now.size} instead of {want.size}")
        else:
            share, worst = _differing(want, now)
            if share <= MOST_PIXELS:
                continue
            problems.append(f"{name}: {share:.2%} of the pixels differ")
            worst.save(tmp_path / f"{name}_diff.png")
        now.save(tmp_path / f"{name}.png")
    assert not problems, f"{'; '.join(problems)}: see {tmp_path}; regenerate as this module's docstring says"


def test_goldens_are_small_palette_pictures():
    files = sorted(GOLDEN.glob("*.png"))
    assert len(files) == 17
    for path in files:
        with Image.open(path) as im:
            assert im.mode == "P", f"{path.name} is not a palette PNG"
    assert sum(p.stat().st_size for p in files) < 1_200_000
