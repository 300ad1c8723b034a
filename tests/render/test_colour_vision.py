"""The eight player colours stay apart for colour-blind players too (simulated), and on the dark table."""

from __future__ import annotations

import itertools

from render.palette import PANEL, PLAYER_COLOURS

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
SIMULATIONS = {
    "normal": None,
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.01182, 0.04294, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.3039)),
}


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _seen(colour, matrix) -> tuple[float, float, float]:
    lin = [_linear(c) for c in colour]
    if matrix is not None:
        lin = [min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True)))) for row in matrix]
    return _lab(lin)


def _distance(a, b) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def test_every_two_player_colours_stay_apart_for_every_kind_of_colour_vision():
    for vision, matrix in SIMULATIONS.items():
        seen = [_seen(c, matrix) for c in PLAYER_COLOURS]
        for (i, a), (j, b) in itertools.combinations(enumerate(seen), 2):
            assert _distance(a, b) >= 18, f"seats {i + 1} and {j + 1} look alike with {vision}"


def test_every_two_player_colours_are_far_apart_with_normal_colour_vision():
    """Eight seats at one table: no two colours read as shades of one (sky blue and blue once did, 37 apart)."""
    seen = [_seen(c, None) for c in PLAYER_COLOURS]
    for (i, a), (j, b) in itertools.combinations(enumerate(seen), 2):
        assert _distance(a, b) >= 40, f"seats {i + 1} and {j + 1} look like two shades of one colour"


def test_player_colours_show_on_the_dark_panels():
    for colour in PLAYER_COLOURS:
        assert _seen(colour, None)[0] - _seen(PANEL, None)[0] >= 20, f"{colour} is too dark on the table"
