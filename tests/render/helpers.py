"""Game states for the render tests: seeded games played by the random computer player, stopped where asked."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image

from engine import Game, GameConfig
from engine.ai import make_agent
from render.palette import RGB

NAMES = ("Alice", "Bérénice", "Chloé", "Dmitri", "Émile", "François", "Gwen", "Håkon")

# Every mode at every player count the engine accepts: (game, players, teams, variants).
MODES = [
    ("kingdomino", 2, False, ()),
    ("kingdomino", 3, False, ()),
    ("kingdomino", 4, False, ()),
    ("kingdomino", 3, False, ("three-player-four-dominoes",)),
    ("kingdomino", 2, False, ("mighty-duel",)),
    ("kingdomino", 4, False, ("dynasty", "middle-kingdom", "harmony")),
    ("queendomino", 2, False, ()),
    ("queendomino", 3, False, ("harmony",)),
    ("queendomino", 4, False, ()),
    ("royal-wedding", 3, False, ()),
    ("royal-wedding", 4, False, ()),
    ("royal-wedding", 5, False, ()),
    ("royal-wedding", 6, False, ()),
    ("royal-wedding", 7, False, ()),
    ("royal-wedding", 6, True, ()),
    ("royal-wedding", 8, True, ()),
]


def mode_id(mode: tuple) -> str:
    game, players, teams, variants = mode
    return f"{game}-{players}{'-teams' if teams else ''}{''.join('-' + v for v in variants)}"


def config(game: str, players: int, teams: bool = False, variants: tuple[str, ...] = ()) -> GameConfig:
    ids = tuple(f"p{i + 1}" for i in range(players))
    pairs = tuple(zip(ids[::2], ids[1::2], strict=True)) if teams else None
    return GameConfig(game=game, players=ids, variants=frozenset(variants), teams=pairs)


@cache
def _log(cfg: GameConfig, seed: int) -> tuple:
    game = Game.new(cfg, seed)
    agent = make_agent("random", seed=seed)
    while not game.is_over:
        game.apply(agent.choose(game))
    return tuple(game.log)


# The three seeded games the golden pictures and the language checks draw.
SAMPLE_GAMES = {
    "kd2": (config("kingdomino", 2), 11),
    "qd4": (config("queendomino", 4), 5),
    "rw8": (config("royal-wedding", 8, True), 3),
}


@cache
def sample_states(key: str) -> dict[str, Game]:
    """States of one of SAMPLE_GAMES: the first decision of each kind past a third of the game, and the end."""
    cfg, seed = SAMPLE_GAMES[key]
    log = _log(cfg, seed)
    found: dict[str, Game] = {}
    game = Game.new(cfg, seed)
    for i, (_, action) in enumerate(log):
        kind = game.decision().kind
        if kind not in found and i > len(log) // 3:
            found[kind] = game.clone()
        game.apply(action)
    found["over"] = game
    return found


def state(cfg: GameConfig, seed: int, fraction: float) -> Game:
    """The game `fraction` of the way through (0: the start, 1: over) when every seat plays at random."""
    log = _log(cfg, seed)
    return Game.replay(cfg, seed, list(log[: round(len(log) * fraction)]))


def steps(cfg: GameConfig, seed: int, n: int) -> Game:
    """The game after `n` random moves."""
    return Game.replay(cfg, seed, list(_log(cfg, seed)[:n]))


def names_for(game: Game) -> dict[str, str]:
    return {p: NAMES[i % len(NAMES)] for i, p in enumerate(game.players)}


def active(game: Game) -> str | None:
    d = game.decision()
    return d.player if d else None


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def near(a: RGB | tuple, b: RGB, tolerance: int = 10) -> bool:
    """Colours equal within `tolerance` per channel (the pictures are stored with a 256-colour palette)."""
    return all(abs(int(x) - int(y)) <= tolerance for x, y in zip(a[:3], b, strict=True))


def largest_difference(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int] | None = None) -> int:
    """The largest per-channel difference between two RGB pictures (in `box`). Each picture has its own 256-colour
    palette, so identical drawings can differ by a few levels."""
    from PIL import ImageChops

    if box is not None:
        a, b = a.crop(box), b.crop(box)
    return max(high for _, high in ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getextrema())
