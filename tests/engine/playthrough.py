"""Golden playthroughs: whole games written down decision by decision, replayed through both copies of the rules.

Each file in tests/engine/playthroughs/ is one self-played game of one mode (the idea of OpenSpiel's
integration_tests/playthroughs): a header (the configuration and the seed), then for every decision its kind,
player and king, every legal action, the action taken, the events it caused and every kingdom's score; at the end
the result and each kingdom's score sheet. tests/engine/test_playthroughs.py replays each file through the engine
(`engine/game.py`: the text it writes must be the file, byte for byte) and through the computer players' model
(`engine/ai/model.py`: the same decisions, the same legal placements and claims, the same scores).

Regenerate them (after a deliberate change of the rules, and read the diff):

    python -m tests.engine.playthrough            # every mode
    python -m tests.engine.playthrough queendomino-2
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from engine import PLACE, Action, Game, GameConfig, parse_action
from engine.ai import make_agent

FOLDER = Path(__file__).parent / "playthroughs"


@dataclass(frozen=True)
class Mode:
    config: GameConfig
    seed: int
    agents: tuple[str, ...]  # the level of each seat, in turn


def _players(n: int) -> tuple[str, ...]:
    return tuple(f"p{i + 1}" for i in range(n))


MODES: dict[str, Mode] = {
    "kingdomino-2": Mode(GameConfig("kingdomino", _players(2)), 11, ("medium", "random")),
    "kingdomino-3": Mode(GameConfig("kingdomino", _players(3), frozenset({"harmony"})), 12, ("easy", "random")),
    "kingdomino-4-middle-kingdom": Mode(
        GameConfig("kingdomino", _players(4), frozenset({"middle-kingdom", "harmony"})), 13, ("medium", "random")
    ),
    "kingdomino-3-four-dominoes": Mode(
        GameConfig("kingdomino", _players(3), frozenset({"three-player-four-dominoes"})), 14, ("medium", "easy")
    ),
    "mighty-duel": Mode(GameConfig("kingdomino", _players(2), frozenset({"mighty-duel"})), 15, ("medium", "random")),
    "queendomino-2": Mode(GameConfig("queendomino", _players(2)), 21, ("medium", "random")),
    "queendomino-3": Mode(GameConfig("queendomino", _players(3)), 22, ("medium", "easy", "random")),
    "queendomino-4": Mode(GameConfig("queendomino", _players(4), frozenset({"middle-kingdom"})), 23, ("medium",)),
    "royal-wedding-5": Mode(GameConfig("royal-wedding", _players(5)), 31, ("medium", "random")),
    "royal-wedding-teams-6": Mode(
        GameConfig("royal-wedding", _players(6), teams=(("p1", "p2"), ("p3", "p4"), ("p5", "p6"))),
        32,
        ("medium", "easy", "random"),
    ),
}


def play(mode: Mode) -> list[tuple[str, Action]]:
    """The actions of the game the mode's agents play (what a new golden file records)."""
    game = Game.new(mode.config, mode.seed)
    agents = {p: make_agent(mode.agents[i % len(mode.agents)], seed=mode.seed + i) for i, p in enumerate(game.players)}
    while not game.is_over:
        d = game.decision()
        game.apply(agents[d.player].choose(game), by=d.player)
    return list(game.log)


def write(mode: Mode, actions: list[tuple[str, Action]]) -> str:
    """The playthrough text of `actions` played from the mode's seed, as the engine plays them."""
    cfg = mode.config
    teams = " ".join("+".join(t) for t in cfg.teams) if cfg.teams else "-"
    out = [
        f"game: {cfg.game}",
        f"players: {' '.join(cfg.players)}",
        f"teams: {teams}",
        f"variants: {' '.join(sorted(cfg.variants)) or '-'}",
        f"seed: {mode.seed}",
    ]
    game = Game.new(cfg, mode.seed)
    for number, (player, action) in enumerate(actions, start=1):
        d = game.decision()
        assert d is not None, f"decision {number}: the game is already over"
        out.append("")
        out.append(f"decision {number}: {d.kind} by {d.player}, king {d.king}, domino {d.domino or '-'}")
        out.append(legal_line(d.kind, game.legal_actions()))
        out.append(f"action: {player} {action.text}")
        for event in game.apply(action, by=player):
            out.append(f"event: {event.kind} {json.dumps(event.params, sort_keys=True)}")
        out.append("scores: " + " ".join(str(s.total) for s in game.scores()))
    assert game.is_over, "the playthrough ends before the game does"
    result = game.result()
    out.append("")
    out.append(f"result: winners {' '.join(result.winners)}; totals {' '.join(map(str, result.totals))}")
    out.append(f"tiebreak: {result.tiebreak or '-'}")
    for i, sheet in enumerate(game.scores()):
        out.append(f"sheet {i}: {json.dumps(sheet.to_dict(), sort_keys=True)}")
    return "\n".join(out) + "\n"


def legal_line(kind: str, actions: list[Action]) -> str:
    """Every legal action; placements grouped by cell (`E4 down right`) to keep the files readable."""
    if kind != PLACE:
        return "legal: " + ", ".join(a.text for a in actions)
    cells: dict[str, list[str]] = {}
    for a in actions:
        _, cell, way = a.text.split()
        cells.setdefault(cell, []).append(way)
    return "legal place: " + ", ".join(f"{cell} {' '.join(ways)}" for cell, ways in cells.items())


@dataclass
class Step:
    kind: str
    player: str
    king: int
    legal: list[str]  # action texts
    action: Action
    scores: list[int]


def read(text: str) -> tuple[Mode, list[Step]]:
    """The mode (configuration and seed) and the steps of a playthrough file."""
    blocks = text.strip("\n").split("\n\n")
    head = dict(line.split(": ", 1) for line in blocks[0].splitlines())
    teams = tuple(tuple(t.split("+")) for t in head["teams"].split()) if head["teams"] != "-" else None
    variants = frozenset(head["variants"].split()) if head["variants"] != "-" else frozenset()
    cfg = GameConfig(head["game"], tuple(head["players"].split()), variants, teams)
    steps = []
    for block in blocks[1:]:
        lines = block.splitlines()
        if not lines[0].startswith("decision "):
            continue
        kind, _, rest = lines[0].split(": ", 1)[1].partition(" by ")
        player, king = rest.split(", ")[0], int(rest.split(", ")[1].split()[1])
        steps.append(Step(kind, player, king, _legal(lines[1]), _action(lines[2]), _scores(lines[-1])))
    return Mode(cfg, int(head["seed"]), ()), steps


def _legal(line: str) -> list[str]:
    label, _, items = line.partition(": ")
    if label == "legal place":
        return [f"place {cell} {way}" for item in items.split(", ") for cell, *ways in [item.split()] for way in ways]
    return items.split(", ")


def _action(line: str) -> Action:
    return parse_action(line.split(" ", 2)[2])


def _scores(line: str) -> list[int]:
    return [int(x) for x in line.removeprefix("scores: ").split()]


def path_of(name: str) -> Path:
    return FOLDER / f"{name}.txt"


def regenerate(names: list[str]) -> None:
    FOLDER.mkdir(exist_ok=True)
    for name in names:
        mode = MODES[name]
        path_of(name).write_text(write(mode, play(mode)))
        print(f"wrote {path_of(name)}")


if __name__ == "__main__":
    wanted = sys.argv[1:] or sorted(MODES)
    unknown = [n for n in wanted if n not in MODES]
    if unknown:
        sys.exit(f"error: unknown mode {', '.join(unknown)}: choose among {', '.join(sorted(MODES))}")
    regenerate(wanted)
