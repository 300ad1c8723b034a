"""The golden playthroughs (tests/engine/playthrough.py) tie the two copies of the rules together: each file is
replayed through the engine, which must write it again byte for byte, and through the computer players' model,
which must agree at every decision on whose turn and which step it is, on the legal placements, claims, buildings
and dragon, and on every kingdom's score."""

from __future__ import annotations

import difflib

import pytest

from engine import BribeDragon, Build, Game, parse_action
from engine.ai.model import (
    P_BUILD,
    P_CLAIM,
    P_DRAGON,
    P_FIRST,
    P_OVER,
    P_PLACE,
    P_TAX,
    Sim,
    apply_action,
    domino_table,
    place_cells,
)

from .playthrough import FOLDER, MODES, Step, path_of, read, write

PHASES = {P_FIRST: "first_claim", P_PLACE: "place", P_TAX: "tax", P_BUILD: "build", P_DRAGON: "dragon"}
PHASES[P_CLAIM] = "claim"
REGENERATE = "python -m tests.engine.playthrough"


def test_every_mode_has_its_golden_file_and_no_other() -> None:
    assert sorted(p.stem for p in FOLDER.glob("*.txt")) == sorted(MODES), f"run `{REGENERATE}`"


@pytest.mark.parametrize("name", sorted(MODES))
def test_the_engine_plays_the_golden_game_again(name: str) -> None:
    text = path_of(name).read_text()
    mode, steps = read(text)
    again = write(mode, [(s.player, s.action) for s in steps])
    if again != text:
        diff = "\n".join(
            list(difflib.unified_diff(text.splitlines(), again.splitlines(), "golden", "now", lineterm=""))[:40]
        )
        pytest.fail(
            f"{name}: the engine no longer plays its golden game (if the rules changed on purpose, run "
            f"`{REGENERATE} {name}` and read the diff):\n{diff}"
        )


@pytest.mark.parametrize("name", sorted(MODES))
def test_the_model_plays_the_golden_game_alike(name: str) -> None:
    mode, steps = read(path_of(name).read_text())
    start = Game.new(mode.config, mode.seed)
    sim = _with_true_future(start)
    for number, step in enumerate(steps, start=1):
        where = f"{name}, decision {number}"
        _agree(sim, start, step, where)
        apply_action(sim, step.action)
        _discard_what_cannot_be_placed(sim)
        assert sim.totals() == step.scores, f"{where}: scores after {step.action.text}"
    assert sim.phase == P_OVER, f"{name}: the model's game is not over where the engine's is"


def _with_true_future(game: Game) -> Sim:
    """The model at the game's start, with the real hidden future (a test may read it; the players never do)."""
    sim = Sim.from_game(game)
    sim.future = [line[:] for line in game.lines_to_come]
    sim.stack = game.stack[:]
    sim.first_order = game.first_claim_order[:]
    sim.turn = 0
    return sim


def _discard_what_cannot_be_placed(sim: Sim) -> None:
    """The engine discards an unplaceable domino by itself; the model waits to be told."""
    while sim.phase == P_PLACE:
        t0, c0, t1, c1, _ = domino_table()[sim.cur_dom[sim.turn]]
        if sim.ks[sim.king_k[sim.acting_king()]].placements(t0, c0, t1, c1):
            return
        sim.discard()


def _agree(sim: Sim, start: Game, step: Step, where: str) -> None:
    king = sim.acting_king()
    assert (PHASES[sim.phase], king) == (step.kind, step.king), f"{where}: step and king"
    assert start.kings[king].player == step.player, f"{where}: player"
    ki = sim.king_k[king]
    if sim.phase == P_PLACE:
        k = sim.ks[ki]
        t0, c0, t1, c1, _ = domino_table()[sim.cur_dom[sim.turn]]
        model = {frozenset((a, b)) if (t0, c0) == (t1, c1) else (a, b) for _, a, b, _ in k.placements(t0, c0, t1, c1)}
        legal = set()
        for text in step.legal:
            a, b = place_cells(k, parse_action(text))  # type: ignore[arg-type]
            legal.add(frozenset((a, b)) if (t0, c0) == (t1, c1) else (a, b))
        assert model == legal, f"{where}: legal placements"
    elif sim.phase in (P_CLAIM, P_FIRST):
        doms, kings = (sim.cur_dom, sim.cur_king) if sim.phase == P_FIRST else (sim.nxt_dom, sim.nxt_king)
        free = [f"claim {d}" for d, owner in zip(doms, kings, strict=True) if owner < 0]
        assert sorted(free) == sorted(step.legal), f"{where}: dominoes free to claim"
    elif sim.phase == P_BUILD:
        slots = sorted({a.slot for a in map(parse_action, step.legal) if isinstance(a, Build)})
        affordable = [s for s, b in enumerate(sim.board) if b is not None and sim.cost_of(s, ki) <= sim.ks[ki].coins]
        assert slots == (affordable if sim.ks[ki].free_towns else []), f"{where}: buildings within reach"
    elif sim.phase == P_DRAGON:
        slots = sorted(a.slot for a in map(parse_action, step.legal) if isinstance(a, BribeDragon))
        assert bool(slots) == bool(sim.dragon_allowed(ki)), f"{where}: the dragon"
