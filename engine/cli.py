"""The engine's command line, for people and scripts; the rules stay in the modules it calls.

    python -m engine selfplay --game kingdomino --players 2 --games 100 --seed 1
    python -m engine score engine/examples/queendomino_71.json

`selfplay` prints one JSON object per game on stdout and a summary on stderr; `score` prints a kingdom's score
breakdown. Every error is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections import Counter
from typing import TextIO

from .components import building, building_types
from .config import GAMES, VARIANTS, GameConfig
from .errors import EngineError
from .game import Game
from .kingdom import Kingdom
from .scoring import ScoreBreakdown, score_kingdom

EXIT_ERROR = 2
SCORE_KEYS = ("game", "size", "grid", "buildings", "towers", "knights", "coins", "queen", "discarded", "variants")
BUILDING_KEYS = ("name", "cell", "towers")
QUEENDOMINO_ONLY = ("buildings", "towers", "knights", "coins", "queen")


class CliError(Exception):
    """A mistake in the command or its input: reported on one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{message} (see: {self.prog} --help)")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m engine",
        description="The Kingdomino / Queendomino / Royal Wedding rules engine.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{selfplay,score}")

    play = commands.add_parser(
        "selfplay",
        help="play whole games between computer players; one JSON line per game",
        description="Play whole games between computer players (random legal actions unless --agents says "
        "otherwise) and print one JSON object per game on stdout, a summary on stderr.",
    )
    play.add_argument("--game", required=True, choices=GAMES)
    play.add_argument("--players", required=True, type=int, help="number of players, ids p1..pN")
    play.add_argument("--teams", action="store_true", help="Royal Wedding teams: p1+p2, p3+p4, ...")
    play.add_argument(
        "--variant",
        action="extend",
        nargs="+",
        default=[],
        metavar="V",
        help=f"one or more of: {', '.join(VARIANTS)} (repeat or comma-separate)",
    )
    play.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    play.add_argument("--seed", type=int, default=0, help="game k (from 0) uses seed S+k (default 0)")
    play.add_argument(
        "--agents",
        default="random",
        help="computer player per seat, comma-separated (one name for every seat; default random)",
    )

    score = commands.add_parser(
        "score",
        help="score one kingdom given as JSON",
        description="Score one kingdom read from a JSON file ('-' for stdin) and print the breakdown as JSON. "
        f"Keys: {', '.join(SCORE_KEYS)}.",
    )
    score.add_argument("file", help="a JSON file, or - for stdin")
    return parser


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        args = _parser().parse_args(argv)
        if args.command == "selfplay":
            return selfplay(args, stdout, stderr)
        return score(args.file, stdout)
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        return 1
    except (CliError, EngineError, ValueError, OSError) as error:
        message = " ".join(str(error).split())
        print(f"error: {message}", file=stderr)
        return EXIT_ERROR


# -- selfplay -----------------------------------------------------------------------------------------------------


def _config(args: argparse.Namespace) -> GameConfig:
    players = tuple(f"p{i + 1}" for i in range(args.players))
    teams = None
    if args.teams:
        if args.players % 2:
            raise CliError(f"--teams pairs players in seat order: {args.players} players cannot pair up.")
        teams = tuple(zip(players[0::2], players[1::2], strict=True))
    variants = frozenset(v.strip() for group in args.variant for v in group.split(",") if v.strip())
    return GameConfig(args.game, players, variants, teams)


def selfplay(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from .ai import make_agent  # the computer players live beside the rules, not in them

    if args.games < 1:
        raise CliError("--games must be at least 1.")
    cfg = _config(args)
    names = [n.strip() for n in args.agents.split(",")]
    if len(names) == 1:
        names *= len(cfg.players)
    if len(names) != len(cfg.players):
        raise CliError(f"--agents names {len(names)} computer players for {len(cfg.players)} seats.")
    for name in set(names):
        make_agent(name, seed=0)  # an unknown name fails here, before any game
    wins: Counter = Counter()
    shared = 0
    total_points = 0
    kingdoms = 0
    started = time.perf_counter()
    for k in range(args.games):
        seed = args.seed + k
        game = Game.new(cfg, seed)
        agents = {p: make_agent(names[i], seed=seed * 1000 + i) for i, p in enumerate(cfg.players)}
        while not game.is_over:
            d = game.decision()
            game.apply(agents[d.player].choose(game), by=d.player)
        record = game_record(game, seed)
        stdout.write(json.dumps(record, separators=(",", ":")) + "\n")
        result = game.result()
        if len(result.winner_kingdoms) > 1:
            shared += 1
        wins.update(result.winners)
        total_points += sum(result.totals)
        kingdoms += len(result.totals)
    elapsed = time.perf_counter() - started
    tally = ", ".join(f"{p} {wins[p]}" for p in cfg.players)
    agents = names[0] if len(set(names)) == 1 else ",".join(names)
    print(
        f"selfplay: {args.games} game{'s' if args.games > 1 else ''} of {cfg.describe()} "
        f"(seeds {args.seed}-{args.seed + args.games - 1}, agents {agents}) in {elapsed:.2f} s: "
        f"{args.games / elapsed:.1f} games/s; wins {tally} ({shared} shared); "
        f"mean score {total_points / kingdoms:.1f}",
        file=stderr,
    )
    return 0


def game_record(game: Game, seed: int) -> dict:
    """One finished game as plain JSON data (cells relative to each kingdom's bounding box)."""
    cfg = game.config
    result = game.result()
    scores = game.scores()
    record = {
        "game": cfg.game,
        "players": list(cfg.players),
        "teams": [list(t) for t in cfg.teams] if cfg.teams else None,
        "variants": sorted(cfg.variants),
        "seed": seed,
        "size": cfg.setup.kingdom_size,
        "winner": list(result.winners),
        "tiebreak": result.tiebreak,
        "kingdoms": [_kingdom_record(k, scores[i], game.queen == i) for i, k in enumerate(game.kingdoms)],
    }
    if cfg.deals > 1:
        record["deal_totals"] = game.deal_totals
        record["totals"] = list(result.totals)
    return record


def _kingdom_record(k: Kingdom, s: ScoreBreakdown, queen: bool) -> dict:
    top, left, _, _ = k.bounds()

    def rel(cell) -> list[int]:
        return [cell[0] - top, cell[1] - left]

    return {
        "players": list(k.players),
        "grid": k.text_rows(),
        "dominoes": [{"box": d[0], "number": int(d[1:]), "cells": [rel(a), rel(b)]} for d, (a, b) in k.placed],
        "discarded": [{"box": d[0], "number": int(d[1:])} for d in k.discarded],
        "buildings": [
            {"name": building(b).name, "id": b, "cell": rel(cell), "towers": towers}
            for cell, (b, towers) in sorted(k.buildings.items())
        ],
        "knights": {"reserve": k.knights_reserve, "placed": [rel(c) for c in k.knights_placed]},
        "towers": k.towers,
        "coins": k.coins,
        "queen": queen,
        "score": {
            "total": s.total,
            **s.parts(),
            "largest_territory": s.largest_territory,
            "total_crowns": s.total_crowns,
            "leftover_coins": s.leftover_coins,
        },
    }


# -- score --------------------------------------------------------------------------------------------------------


def score(path: str, stdout: TextIO) -> int:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    except OSError as error:
        raise CliError(f"Cannot read {path}: {error.strerror}.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise CliError(f"{path} is not valid JSON: {error}.") from None
    breakdown = score_spec(data)
    stdout.write(json.dumps(breakdown.to_dict(), indent=2) + "\n")
    return 0


def _int(data: dict, key: str, default: int = 0) -> int:
    value = data.get(key, default)
    if type(value) is not int or value < 0:
        raise CliError(f"`{key}` must be a whole number, 0 or more, not {json.dumps(value)}.")
    return value


def _building_id(name: object) -> str:
    if isinstance(name, str):
        wanted = name.strip().lower()
        for b in building_types().values():
            if wanted in (b.id, b.name.lower()):
                return b.id
    known = ", ".join(sorted(b.name for b in building_types().values()))
    raise CliError(f"Unknown building {json.dumps(name)}: use an id or one of {known}.")


def score_spec(data: object) -> ScoreBreakdown:
    """Score a kingdom described as in `python -m engine score` (see README.md)."""
    if not isinstance(data, dict):
        raise CliError("The kingdom must be a JSON object.")
    unknown = sorted(set(data) - set(SCORE_KEYS))
    if unknown:
        raise CliError(f"Unknown key {unknown[0]!r}: the keys are {', '.join(SCORE_KEYS)}.")
    for key in ("game", "size", "grid"):
        if key not in data:
            raise CliError(f"Missing key {key!r}: give at least game, size and grid.")
    game = data["game"]
    if game not in GAMES:
        raise CliError(f"Unknown game {json.dumps(game)}: choose one of {', '.join(GAMES)}.")
    queendomino = game != "kingdomino"
    if not queendomino:
        extra = [k for k in QUEENDOMINO_ONLY if k in data]
        if extra:
            raise CliError(f"`{extra[0]}` has no place in Kingdomino: use queendomino or royal-wedding.")
    size = data["size"]
    if size not in (5, 7) or type(size) is not int:
        raise CliError(f"`size` is 5 or 7, not {json.dumps(size)}.")
    grid = data["grid"]
    if isinstance(grid, str):
        grid = grid.splitlines()
    if not isinstance(grid, list) or not all(isinstance(r, str) for r in grid):
        raise CliError('`grid` is a list of rows like "F1 F1 CC .." (or one string with a row per line).')
    kingdom = Kingdom.from_text(grid, size)
    rows = [r.split() for r in grid if r.strip()]
    castle_r, castle_c = next((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x.upper() == "CC")

    buildings = data.get("buildings", [])
    if not isinstance(buildings, list):
        raise CliError('`buildings` is a list of {"name": ..., "cell": [row, col]}.')
    for entry in buildings:
        if not isinstance(entry, dict):
            raise CliError('Each building is an object: {"name": ..., "cell": [row, col]}.')
        bad = sorted(set(entry) - set(BUILDING_KEYS))
        if bad:
            raise CliError(f"Unknown building key {bad[0]!r}: the keys are {', '.join(BUILDING_KEYS)}.")
        bid = _building_id(entry.get("name"))
        cell = entry.get("cell")
        if not (isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)):
            raise CliError(f"The {building(bid).name}'s `cell` must be [row, col] in the grid, not {json.dumps(cell)}.")
        r, c = cell
        if not (0 <= r < len(rows) and 0 <= c < len(rows[0])) or rows[r][c].upper() != "T0":
            raise CliError(f"The {building(bid).name} stands on [{r}, {c}], which is not a town square of the grid.")
        where = (r - castle_r + size - 1, c - castle_c + size - 1)
        if where in kingdom.buildings:
            raise CliError(f"Two buildings on [{r}, {c}]: one building per town square.")
        towers = _int(entry, "towers", building(bid).towers)
        kingdom.buildings[where] = [bid, towers]

    if "towers" in data:
        _spread_towers(kingdom, _int(data, "towers"))
    kingdom.knights_reserve = _int(data, "knights")
    kingdom.coins = _int(data, "coins")
    kingdom.discarded = ["?"] * _int(data, "discarded")
    queen = data.get("queen", False)
    if not isinstance(queen, bool):
        raise CliError(f"`queen` is true or false, not {json.dumps(queen)}.")
    variants = data.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise CliError("`variants` is a list of names.")
    for v in variants:
        if v not in VARIANTS:
            raise CliError(f"Unknown variant {v!r}: choose among {', '.join(VARIANTS)}.")
    return score_kingdom(
        kingdom,
        queendomino=queendomino,
        hosts_queen=queen,
        middle_kingdom="middle-kingdom" in variants,
        harmony="harmony" in variants,
    )


def _spread_towers(kingdom: Kingdom, towers: int) -> None:
    """Make the kingdom's tower count `towers`: extra towers go on the first building, missing ones come off the
    buildings in order (towers only ever stand on buildings)."""
    if towers and not kingdom.buildings:
        raise CliError("Towers stand on buildings: list the kingdom's buildings to give it towers.")
    cells = sorted(kingdom.buildings)
    excess = towers - kingdom.towers
    if excess > 0:
        kingdom.buildings[cells[0]][1] += excess
    for cell in cells:
        if excess >= 0:
            break
        take = min(-excess, kingdom.buildings[cell][1])
        kingdom.buildings[cell][1] -= take
        excess += take
