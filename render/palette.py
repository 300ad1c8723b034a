"""Colours: one palette for every picture. Colour never carries meaning alone (terrains have letters and
patterns, players have names), but the colours are chosen to stay apart for most colour-blind players too."""

from __future__ import annotations

RGB = tuple[int, int, int]

# Okabe & Ito's colour-blind-safe set, reordered so the first four (the usual player counts) are the most apart,
# with their black swapped for a light grey that shows on the dark table, and their orange (too near vermillion and
# yellow for deuteranopes) for a violet, and their blue (too near sky blue at eight players) for an indigo: simulated
# for protanopia, deuteranopia and tritanopia (Machado 2009), every two of the eight stay at least 18 CIELAB units
# apart, and 40 with normal colour vision. Every king also carries its seat number, so colour is never
# needed to tell players apart.
PLAYER_COLOURS: tuple[RGB, ...] = (
    (230, 97, 1),  # vermillion
    (86, 180, 233),  # sky blue
    (240, 228, 66),  # yellow
    (204, 121, 167),  # reddish purple
    (40, 156, 84),  # green (Okabe & Ito's bluish green, less blue: tritanopes confused it with sky blue)
    (150, 45, 255),  # violet
    (90, 90, 180),  # indigo (a plain blue read as a second sky blue beside seat 2)
    (226, 226, 226),  # light grey
)

TERRAIN_COLOURS: dict[str, RGB] = {
    "wheat": (233, 193, 62),
    "forest": (36, 104, 58),
    "lake": (50, 124, 196),
    "grassland": (134, 194, 84),
    "swamp": (131, 113, 80),
    "mine": (74, 70, 78),
    "town": (160, 110, 172),
}
TERRAIN_NAMES: dict[str, str] = {
    "wheat": "Wheat",
    "forest": "Forest",
    "lake": "Lake",
    "grassland": "Grassland",
    "swamp": "Swamp",
    "mine": "Mine",
    "town": "Town",
}

BACKGROUND: RGB = (24, 28, 36)
PANEL: RGB = (35, 41, 52)
PANEL_LIGHT: RGB = (46, 53, 66)
PANEL_EDGE: RGB = (60, 69, 84)
EMPTY_CELL: RGB = (43, 50, 62)
EMPTY_EDGE: RGB = (54, 62, 76)
TEXT: RGB = (240, 242, 246)
MUTED: RGB = (152, 162, 180)
FAINT: RGB = (104, 114, 132)
GOLD: RGB = (246, 196, 64)
GOLD_DARK: RGB = (150, 102, 16)
OUTLINE: RGB = (16, 18, 24)
WINNER_ROW: RGB = (74, 62, 28)
PREVIEW: RGB = (255, 236, 120)
LEGAL: RGB = (120, 240, 200)
BOX_COLOURS: dict[str, RGB] = {"K": (64, 116, 190), "Q": (168, 84, 150)}
BUILDING_PLATE: RGB = (236, 222, 196)
BUILDING_INK: RGB = (70, 40, 30)
GAIN: RGB = (120, 220, 120)
LOSS: RGB = (240, 120, 110)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """`a` moved a fraction `t` of the way towards `b`."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def luminance(c: RGB) -> float:
    return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255


def ink_on(c: RGB) -> RGB:
    """Dark or light text, whichever reads better on `c`."""
    return (20, 22, 28) if luminance(c) > 0.5 else (250, 250, 252)
