"""A whole position as text, like a chess FEN: for tests, logs and bug reports.

    text = to_text(game)          # every field of the state, one per line, a picture of each kingdom
    game = from_text(text)        # the same game: from_text(to_text(g)).to_dict() == g.to_dict()

A position reads like this (a Queendomino game, 2 players, in its first round; `|` lines are pictures of the
kingdoms, written for people and ignored when read back):

    kingdomino position 1
    game: queendomino
    players: ann bob
    teams: -
    variants: -
    seed: 7
    deal: 0
    deal totals: -
    round: 1
    phase: place
    turn: 0
    kings: ann>0 bob>1 bob>1 ann>0
    first claim order: 0 1 2 3
    current line: Q3=1 Q9=0 Q17=3 Q30=2
    next line: Q2=- Q11=- Q25=- Q40=-
    ...
    kingdom: ann
      size: 5
      placed: Q3 E4 right
      ...
      | .. .. ..
      | Q0 W1 CC

Lists are separated by spaces (`-` for none); a domino in a line is `ID=king` (`-`: not claimed); cells are named
as everywhere (`E5`); `hidden ...` lines hold what no player sees (the lines to come, the building stack) and the
log lists `player action` lines. Player ids may not hold spaces or `=`, `>`, `+`, `,`.
"""

from __future__ import annotations

import re
from typing import Any

from .actions import parse_action
from .game import FORMAT_VERSION, Game
from .kingdom import DIRECTIONS, Kingdom, cell_name, parse_cell

HEADER = f"kingdomino position {FORMAT_VERSION}"
_PLAIN = re.compile(r"[^\s=>+,]+")
_WAY = {delta: name for name, delta in DIRECTIONS.items()}


class PositionError(ValueError):
    """A text that is not a position: says which line and what was expected."""


# -- writing ---------------------------------------------------------------------------------------------------------
def to_text(game: Game, *, log: bool = True) -> str:
    """`game` as text (with its log of actions unless `log=False`; from_text then gives a game with an empty log)."""
    d = game.to_dict()
    for player in d["config"]["players"]:
        if not _PLAIN.fullmatch(player):
            raise ValueError(f"Player id {player!r} cannot be written in a position: no spaces or = > + , in ids.")
    cfg = d["config"]
    teams = " ".join("+".join(t) for t in cfg["teams"]) if "teams" in cfg else "-"
    lines = [
        HEADER,
        f"game: {cfg['game']}",
        f"players: {_words(cfg['players'])}",
        f"teams: {teams}",
        f"variants: {_words(cfg['variants'])}",
        f"seed: {d['seed']}",
        f"deal: {d['deal']}",
        "deal totals: " + (", ".join(_words(t) for t in d["deal_totals"]) or "-"),
        f"round: {d['round']}",
        f"phase: {d['phase']}",
        f"turn: {d['turn']}",
        "kings: " + _words(f"{p}>{k}" for p, k in d["kings"]),
        f"first claim order: {_words(d['first_claim_order'])}",
        f"current line: {_slots(d['current_line'])}",
        f"next line: {_slots(d['next_line'])}",
        f"revealed: {_words(d['revealed'])}",
        f"removed: {_words(d['removed'])}",
        "board: " + _words("-" if b is None else b for b in d["board"]),
        f"burned: {_words(d['burned'])}",
        f"dragon slot: {_maybe(d['dragon_slot'])}",
        f"queen: {_maybe(d['queen'])}",
        f"knights supply: {d['knights_supply']}",
        f"towers supply: {d['towers_supply']}",
        "placed this turn: " + (_cells(d["placed_this_turn"]) if d["placed_this_turn"] else "-"),
        "hidden lines to come: " + (", ".join(_words(line) for line in d["lines_to_come"]) or "-"),
        f"hidden stack: {_words(d['stack'])}",
    ]
    for kingdom, data in zip(game.kingdoms, d["kingdoms"], strict=True):
        lines += _kingdom_lines(kingdom, data)
    if log:
        lines.append("log:")
        lines += [f"  {player} {action.text}" for player, action in game.log]
    return "\n".join(lines) + "\n"


def _kingdom_lines(kingdom: Kingdom, data: dict) -> list[str]:
    placed = []
    for dom, ((r0, c0), (r1, c1)) in data["placed"]:
        placed.append(f"{dom} {cell_name(r0, c0)} {_WAY[(r1 - r0, c1 - c0)]}")
    buildings = [f"{cell_name(r, c)} {bid} {towers}" for r, c, bid, towers in data["buildings"]]
    lines = [
        f"kingdom: {_words(data['players'])}",
        f"  size: {data['size']}",
        "  placed: " + (", ".join(placed) or "-"),
        f"  discarded: {_words(data['discarded'])}",
        "  buildings: " + (", ".join(buildings) or "-"),
        f"  knights: {data['knights_reserve']} in reserve, sent {data['knights_sent_this_round']} this round",
        "  knights placed: " + (_cells(data["knights_placed"]) or "-"),
        f"  coins: {data['coins']}",
    ]
    return lines + [f"  | {row}" for row in kingdom.text_rows()]


def _words(items: Any) -> str:
    return " ".join(str(i) for i in items) or "-"


def _maybe(value: int | None) -> str:
    return "-" if value is None else str(value)


def _slots(line: list) -> str:
    return _words(f"{dom}={_maybe(king)}" for dom, king in line)


def _cells(cells: list) -> str:
    return " ".join(cell_name(r, c) for r, c in cells)


# -- reading ---------------------------------------------------------------------------------------------------------
def from_text(text: str) -> Game:
    """The game a position describes. Raises PositionError (a ValueError) naming the line at fault."""
    rows = [row.rstrip() for row in text.strip("\n").splitlines()]
    if not rows or rows[0].strip() != HEADER:
        raise PositionError(f"line 1: expected {HEADER!r}, the first line of a position (got {rows[:1]}).")
    fields: dict[str, str] = {}
    kingdoms: list[dict[str, str]] = []
    log: list[str] | None = None
    for number, row in enumerate(rows[1:], start=2):
        if not row.strip() or row.lstrip().startswith("|"):
            continue
        if log is not None:
            log.append(row.strip())
            continue
        key, sep, value = row.strip().partition(":")
        if not sep:
            raise PositionError(f"line {number}: expected 'name: value', got {row.strip()!r}.")
        if key == "log":
            log = []
        elif key == "kingdom":
            kingdoms.append({"players": value.strip()})
        elif row.startswith("  ") and kingdoms:
            kingdoms[-1][key] = value.strip()
        else:
            fields[key] = value.strip()
    try:
        return _game(fields, kingdoms, log or [])
    except PositionError:
        raise
    except (KeyError, ValueError, IndexError) as error:
        raise PositionError(f"not a readable position: {type(error).__name__}: {error}") from None


def _game(f: dict[str, str], kingdoms: list[dict[str, str]], log: list[str]) -> Game:
    config: dict[str, Any] = {"game": f["game"], "players": _list(f["players"]), "variants": _list(f["variants"])}
    if f["teams"] != "-":
        config["teams"] = [team.split("+") for team in _list(f["teams"])]
    kings = [king.split(">") for king in _list(f["kings"])]
    state = {
        "format_version": FORMAT_VERSION,
        "config": config,
        "seed": int(f["seed"]),
        "log": [],
        "deal": int(f["deal"]),
        "deal_totals": [[int(x) for x in _list(t)] for t in _groups(f["deal totals"])],
        "kingdoms": [_kingdom(k) for k in kingdoms],
        "kings": [[p, int(k)] for p, k in kings],
        "lines_to_come": [_list(line) for line in _groups(f["hidden lines to come"])],
        "current_line": _line(f["current line"]),
        "next_line": _line(f["next line"]),
        "first_claim_order": [int(k) for k in _list(f["first claim order"])],
        "turn": int(f["turn"]),
        "phase": f["phase"],
        "round": int(f["round"]),
        "removed": _list(f["removed"]),
        "revealed": _list(f["revealed"]),
        "board": [None if b == "-" else b for b in f["board"].split()] if f["board"] != "-" else [],
        "stack": _list(f["hidden stack"]),
        "burned": _list(f["burned"]),
        "dragon_slot": _int_or_none(f["dragon slot"]),
        "queen": _int_or_none(f["queen"]),
        "knights_supply": int(f["knights supply"]),
        "towers_supply": int(f["towers supply"]),
        "placed_this_turn": [list(parse_cell(c)) for c in _list(f["placed this turn"])] or None,
    }
    game = Game.from_dict(state)
    for entry in log:
        player, _, action = entry.partition(" ")
        game.log.append((player, parse_action(action)))
    return game


def _kingdom(k: dict[str, str]) -> dict:
    placed = []
    for item in _groups(k["placed"]):
        dom, cell, way = item.split()
        r, c = parse_cell(cell)
        dr, dc = DIRECTIONS[way]
        placed.append([dom, [[r, c], [r + dr, c + dc]]])
    buildings = []
    for item in _groups(k["buildings"]):
        cell, bid, towers = item.split()
        buildings.append([*parse_cell(cell), bid, int(towers)])
    knights = re.fullmatch(r"(\d+) in reserve, sent (\d+) this round", k["knights"])
    if knights is None:
        raise PositionError(f"knights: expected 'N in reserve, sent M this round', got {k['knights']!r}.")
    return {
        "size": int(k["size"]),
        "players": _list(k["players"]),
        "placed": placed,
        "discarded": _list(k["discarded"]),
        "buildings": buildings,
        "knights_reserve": int(knights[1]),
        "knights_placed": [list(parse_cell(c)) for c in _list(k["knights placed"])],
        "knights_sent_this_round": int(knights[2]),
        "coins": int(k["coins"]),
    }


def _list(value: str) -> list[str]:
    return [] if value == "-" else value.split()


def _groups(value: str) -> list[str]:
    return [] if value == "-" else [g.strip() for g in value.split(",")]


def _line(value: str) -> list[list]:
    return [[dom, _int_or_none(king)] for dom, king in (slot.split("=") for slot in _list(value))]


def _int_or_none(value: str) -> int | None:
    return None if value == "-" else int(value)
