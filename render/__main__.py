"""`python -m render demo ...`: play a seeded game with random legal moves and write every kind of picture.

    python -m render demo --game queendomino --players 4 --seed 7 --out /tmp/qd4
    python -m render demo --game royal-wedding --players 8 --teams --seed 3 --out /tmp/rw8
    python -m render demo --game queendomino --players 4 --lang cs --out /tmp/qd4-cs   # the words in Czech

Writes table_start.png, table_middle.png, table_end.png, kingdom_legal.png (the kingdom of the player placing a
domino halfway through, with the legal spots), kingdom_preview.png (the placement the random player then makes,
with its score change), placement.png (the turn panel's picture for that move's first cell), offer.png (the next
claim's dominoes), score_sheet.png and remaining.png (the dominoes unseen halfway through); with Queendomino's
rules also tax.png and dragon.png, for the first such decisions from halfway on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine import PLACE, ConfigError, Game, GameConfig, Place
from engine.ai import make_agent

from . import (
    render_dragon,
    render_kingdom,
    render_offer,
    render_placement,
    render_remaining,
    render_score_sheet,
    render_table,
    render_tax,
)

DEMO_NAMES = ("Alice", "Bérénice", "Chloé", "Dmitri Alexandrovich Karamazov", "Émile", "François", "Gwen", "Håkon")


def demo_config(game: str, players: int, teams: bool, variants: list[str]) -> GameConfig:
    ids = tuple(f"p{i + 1}" for i in range(players))
    pairs = tuple(zip(ids[::2], ids[1::2], strict=True)) if teams else None
    return GameConfig(game=game, players=ids, variants=frozenset(variants), teams=pairs)


def play_demo(config: GameConfig, seed: int) -> Game:
    """A whole game played by the random computer player for every seat."""
    game = Game.new(config, seed)
    agent = make_agent("random", seed=seed)
    while not game.is_over:
        game.apply(agent.choose(game))
    return game


def write_demo(config: GameConfig, seed: int, out: Path, lang: str = "en") -> list[Path]:
    names = {p: DEMO_NAMES[i % len(DEMO_NAMES)] for i, p in enumerate(config.players)}
    final = play_demo(config, seed)
    log = final.log
    half = len(log) // 2
    middle = Game.replay(config, seed, log[:half])
    # The first placement from halfway on: its kingdom with the legal spots, then the move actually made.
    at = half
    placing = middle.clone()
    while placing.decision() is not None and placing.decision().kind != PLACE:  # type: ignore[union-attr]
        placing.apply(log[at][1])
        at += 1
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)

    start = Game.new(config, seed)
    save("table_start.png", render_table(start, names, None, _active(start), lang=lang))
    save("table_middle.png", render_table(middle, names, None, _active(middle), lang=lang))
    save("table_end.png", render_table(final, names, None, None, lang=lang))
    d = placing.decision()
    if d is not None:
        actions = placing.legal_actions()
        spots = sorted({(a.row, a.col) for a in actions if isinstance(a, Place)})
        save("kingdom_legal.png", render_kingdom(placing, d.kingdom, names, None, legal_spots=spots, lang=lang))
        move = log[at][1]
        assert isinstance(move, Place) and d.domino is not None
        save(
            "kingdom_preview.png",
            render_kingdom(placing, d.kingdom, names, None, preview=(d.domino, move.placement), lang=lang),
        )
        save(
            "placement.png", render_placement(placing, d.player, d.domino, (move.row, move.col), names, None, lang=lang)
        )
    # The first claim, tax and dragon decisions from halfway on.
    later = middle.clone()
    seen: set[str] = set()
    panels = {
        "claim": ("offer.png", render_offer),
        "tax": ("tax.png", render_tax),
        "dragon": ("dragon.png", render_dragon),
    }
    for _, action in log[half:]:
        here = later.decision()
        if here is not None and here.kind in panels and here.kind not in seen:
            seen.add(here.kind)
            name, draw = panels[here.kind]
            save(name, draw(later, here.player, names, None, lang=lang))
        later.apply(action)
    save("score_sheet.png", render_score_sheet(final, names, None, lang=lang))
    save("remaining.png", render_remaining(middle, lang=lang))
    return written


def _active(game: Game) -> str | None:
    d = game.decision()
    return d.player if d else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a seeded random game and write its pictures")
    demo.add_argument("--game", required=True, choices=("kingdomino", "queendomino", "royal-wedding"))
    demo.add_argument("--players", type=int, required=True)
    demo.add_argument("--teams", action="store_true", help="Royal Wedding in teams of two (6 or 8 players)")
    demo.add_argument("--variant", action="append", default=[], help="a variant; repeat for several")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--out", type=Path, required=True, help="directory for the PNG files")
    demo.add_argument("--lang", default="en", help="the pictures' language: en, ro, es, cs (or en-XA)")
    args = parser.parse_args(argv)
    try:
        config = demo_config(args.game, args.players, args.teams, args.variant)
    except ConfigError as error:
        parser.error(str(error))
    for path in write_demo(config, args.seed, args.out, args.lang):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
