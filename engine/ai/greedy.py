"""The greedy computer players: `easy` (immediate score, a little noise) and `GreedyMediumAgent` (greedy placement
with a look-ahead on claims and a thought-out economy; the judgement the searches (`medium`, `hard`, see search.py)
use to choose which options to simulate). Both answer in a few milliseconds."""

from __future__ import annotations

import random

from ..actions import Action, BribeDragon, Build, Claim, Place, Skip, Tax
from ..game import BUILD, CLAIM, FIRST_CLAIM, PLACE, TAX, Decision, Game
from .model import (
    COIN_VALUE,
    HOLE_PENALTY,
    P_FIRST,
    TOWN,
    FastKingdom,
    Sim,
    apply_action,
    domino_table,
    place_cells,
)


def decision_rng(seed: int, game: Game, level: str) -> random.Random:
    """A generator for one decision, from the agent's seed and the position only (not the agent's history), so the
    same seed in the same state always gives the same action."""
    return random.Random(f"{level}:{seed}:{game.deal}:{len(game.log)}")


def score_now(sim: Sim, ki: int) -> float:
    """Kingdom ki's score as it stands, coins counted to the third of a point (the greedy players' currency)."""
    k = sim.ks[ki]
    total = k.total(queendomino=sim.qd, queen=sim.queen == ki, middle_kingdom=sim.middle_kingdom, harmony=sim.harmony)
    if sim.qd:
        total += (k.coins % 3) / 3
    return total


def score_after_place(sim: Sim, ki: int, a: int, ta: int, ca: int, b: int, tb: int, cb: int) -> float:
    """Kingdom ki's score (as `score_now`) once squares (ta, ca) and (tb, cb) are on cells a and b."""
    k = sim.ks[ki]
    copy = k.copy()
    copy.place(a, ta, ca, b, tb, cb)
    total = copy.total(
        queendomino=sim.qd, queen=sim.queen == ki, middle_kingdom=sim.middle_kingdom, harmony=sim.harmony
    )
    if sim.qd:
        total += (copy.coins % 3) / 3
    return total


def best_immediate(sim: Sim, ki: int, dom: str) -> float:
    """The most kingdom ki's score could rise by placing `dom` now (-1 when it cannot be placed: a discard)."""
    k = sim.ks[ki]
    t0, c0, t1, c1, _ = domino_table()[dom]
    cands = k.placements(t0, c0, t1, c1)
    if not cands:
        return -1.0
    if not (sim.qd or sim.middle_kingdom):
        return float(max(g for g, _, _, _ in cands))
    before = score_now(sim, ki)
    return max(score_after_place(sim, ki, a, t0, c0, b, t1, c1) for _, a, b, _ in cands) - before


def open_decision(game: Game) -> tuple[Decision, list[Action]]:
    """The decision to take now and its legal actions (refused when the game is over)."""
    d = game.decision()
    if d is None:
        raise ValueError("The game is over: there is nothing to choose.")
    return d, game.legal_actions()


def pick(values: list[float], rng: random.Random, noise: float) -> int:
    """Index of the best value after adding uniform noise in [0, noise) (ties broken at random)."""
    best_i, best_v = 0, -1e18
    for i, v in enumerate(values):
        v += rng.random() * noise if noise else rng.random() * 1e-9
        if v > best_v:
            best_i, best_v = i, v
    return best_i


class EasyAgent:
    """Greedy on the immediate score: the placement, tax and building that raise the score most now (coins count a
    third of a point each), the domino whose best placement would raise it most, and never the dragon (it only
    costs). Each option gets uniform noise of up to `noise` points (default 0.5): in Kingdomino, where scores are
    whole numbers, that only breaks ties, after a preference for placements that wall no cell in."""

    name = "easy"

    def __init__(self, seed: int = 0, noise: float = 0.5) -> None:
        self.seed = seed
        self.noise = noise

    def choose(self, game: Game) -> Action:
        d, actions = open_decision(game)
        if len(actions) == 1:
            return actions[0]
        rng = decision_rng(self.seed, game, self.name)
        sim = Sim.from_game(game)
        ki = d.kingdom
        if isinstance(actions[0], Claim):
            values = [best_immediate(sim, ki, a.domino) for a in actions]  # type: ignore[union-attr]
        elif isinstance(actions[0], Place):
            t0, c0, t1, c1, _ = domino_table()[d.domino]  # type: ignore[index]
            k = sim.ks[ki]
            values = []
            for a in actions:
                x, y = place_cells(k, a)  # type: ignore[arg-type]
                # Among placements of equal score, one that walls no cell in (a tie-break, worth under a point).
                tie = 0.5 / (1 + k.holes(x, y))
                values.append(score_after_place(sim, ki, x, t0, c0, y, t1, c1) + tie)
        else:
            values = []
            for a in actions:
                s = sim.copy()
                apply_action(s, a)
                values.append(score_now(s, ki))
        return actions[pick(values, rng, self.noise)]


# -- medium ---------------------------------------------------------------------------------------------------------


def shape_bonus(k: FastKingdom, a: int, ta: int, b: int, tb: int) -> float:
    """Small preferences between placements of equal score: touching squares of the same terrain (territories to
    grow) and a compact kingdom (`FastKingdom.shape_bonus`)."""
    return k.shape_bonus(a, ta, b, tb)


def medium_placements(sim: Sim, ki: int, dom: str) -> list[tuple[float, int, int]]:
    """(value, cell of square 0, cell of square 1) for every placement of `dom` in kingdom ki, best first: the
    immediate score change, minus HOLE_PENALTY per cell walled in, plus `shape_bonus`."""
    k = sim.ks[ki]
    t0, c0, t1, c1, _ = domino_table()[dom]
    cands = k.placements(t0, c0, t1, c1)
    exact = sim.qd or sim.middle_kingdom
    before = score_now(sim, ki) if exact else 0.0
    out = []
    for g, a, b, _ in cands:
        value = score_after_place(sim, ki, a, t0, c0, b, t1, c1) - before if exact else float(g)
        value += shape_bonus(k, a, t0, b, t1) - HOLE_PENALTY * k.holes(a, b)
        out.append((value, a, b))
    out.sort(key=lambda x: -x[0])
    return out


def kings_to_claim_after(sim: Sim) -> list[int]:
    """Kings that will still claim from the next line after the acting king this round (in order)."""
    if sim.phase == P_FIRST:
        return []  # unknown order
    return [king for king in sim.cur_king[sim.turn + 1 :] if king >= 0]


class GreedyMediumAgent:
    """Greedy placement with tie-breaks that keep the kingdom fillable; claims weigh the domino's best placement,
    the turn order it gives next round, and what it would give the opponents who choose after; a simple economy
    (knights kept for large territories, buildings valued over the rest of the game, the dragon against a rival's
    best purchase)."""

    name = "greedy-medium"
    order_weight = 1.5  # points for choosing first in the next line rather than last
    deny_weight = 0.3  # share of an opponent's gain from a domino that counts against leaving it

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: Game) -> Action:
        d, actions = open_decision(game)
        if len(actions) == 1:
            return actions[0]
        rng = decision_rng(self.seed, game, self.name)
        sim = Sim.from_game(game)
        ki = d.kingdom
        if d.kind == PLACE:
            best = medium_placements(sim, ki, d.domino)[0]  # type: ignore[arg-type]
            k = sim.ks[ki]
            for a in actions:
                if place_cells(k, a) == (best[1], best[2]):  # type: ignore[arg-type]
                    return a
            raise AssertionError("the model's placement is not among the engine's")  # pragma: no cover
        if d.kind in (CLAIM, FIRST_CLAIM):
            doms = [a.domino for a in actions]  # type: ignore[union-attr]
            values = claim_values(sim, ki, doms, self.order_weight, self.deny_weight)
            return actions[pick(values, rng, 0)]
        if d.kind == TAX:
            return tax_choice(sim, actions)
        if d.kind == BUILD:
            return build_choice(sim, ki, actions)
        return dragon_choice(sim, ki, actions)


def claim_values(sim: Sim, ki: int, doms: list[str], order_weight: float, deny_weight: float) -> list[float]:
    table = domino_table()
    line = sim.cur_dom if sim.phase == P_FIRST else sim.nxt_dom
    later = kings_to_claim_after(sim)
    rivals = sorted({sim.king_k[king] for king in later if sim.king_k[king] != ki})
    values = []
    for dom in doms:
        placements = medium_placements(sim, ki, dom)
        value = placements[0][0] if placements else -3.0
        t0, c0, t1, c1, _ = table[dom]
        if sim.qd and placements:
            value += ((t0 == TOWN) + (t1 == TOWN)) * sim.town_site_value(sim.ks[ki])
        position = line.index(dom)
        if len(line) > 1:
            value += order_weight * (len(line) - 1 - position) / (len(line) - 1)
        if rivals:
            threat = 0.0
            for r in rivals:
                g = max((g for g, _, _, _ in sim.ks[r].placements(t0, c0, t1, c1)), default=0)
                threat = max(threat, g)
            value += deny_weight * threat / len(rivals) ** 0.5
        values.append(value)
    return values


def tax_choice(sim: Sim, actions: list[Action]) -> Action:
    cells = sim.policy_tax()
    k = sim.ks[sim.king_k[sim.acting_king()]]
    want = sorted(k.rowcol(p) for p in cells)
    for a in actions:
        if isinstance(a, Tax) and sorted(a.cells) == want:
            return a
    return Skip()


def build_choice(sim: Sim, ki: int, actions: list[Action]) -> Action:
    choice = sim.policy_build()
    if choice is None:
        return Skip()
    slot, cell = choice
    k = sim.ks[ki]
    r, c = k.rowcol(cell)
    action = Build(slot, r, c)
    return action if action in actions else Skip()


def dragon_choice(sim: Sim, ki: int, actions: list[Action]) -> Action:
    """Burn the building a rival choosing before our next turn wants most, when it is worth much more to them than
    to us and we will not buy it ourselves this round."""
    rivals = []
    for king in sim.cur_king[sim.turn + 1 :]:
        if king >= 0 and sim.king_k[king] != ki and sim.king_k[king] not in rivals:
            rivals.append(sim.king_k[king])
    best, best_slot = 4.0, -1
    for slot, bid in enumerate(sim.board):
        if bid is None:
            continue
        ours = sim.building_value(ki, bid)
        for r in rivals:
            if sim.cost_of(slot, r) > sim.ks[r].coins or not sim.ks[r].free_towns:
                continue
            theirs = sim.building_value(r, bid) - sim.cost_of(slot, r) * COIN_VALUE
            if theirs - 0.5 * ours > best:
                best, best_slot = theirs - 0.5 * ours, slot
    if best_slot >= 0 and BribeDragon(best_slot) in actions:
        return BribeDragon(best_slot)
    return Skip()
