"""The `hard` computer player: Monte Carlo evaluation of its options with greedy playouts.

For each decision it lists a few candidate actions (at a placement, each promising placement paired with each
domino it could then claim, as Gedda, Lagerkvist and Butler pair them in "Monte Carlo Methods for the Game
Kingdomino", IEEE CIG 2018), then runs successive halving: every round, each surviving candidate is played to the
end of the game in the same sampled futures (common random numbers), and the worse half is dropped. A playout
samples the hidden future (the order of the lines to come, the building stack) from what nobody has seen, then
every player, this one included, follows the model's greedy policy; the candidate's value is its kingdom's final
score minus the best rival's, with a bonus for winning. Queendomino's economy (coins, knights, buildings, the
queen, the dragon) is played in the playouts and counted in the final scores. The playouts of a decision share a
cache of the greedy placements (keyed by a kingdom's squares and the domino: the same kingdoms and dominoes come
back again and again across candidates and sampled futures): a decision gets 30-60% more playouts for the same
work, in a little less CPU time. `playout_noise` adds uniform noise of up to that many points to the rivals'
claims in the playouts (the same noise for every candidate of a pass), so that their choices are not assumed to be
exactly predictable (3 points by default); the searching player's own playout claims stay greedy unless
`own_noise=True`. `playout_order` makes the playouts' claims weigh the turn order of the next round (off by default).
`place_noise` adds such noise to the rivals' placements in the playouts too, and `playout_shape` makes the playouts'
placements weigh the medium player's shape bonus (both off by default; see engine/README.md for what they did).
`value_depth` ends the playouts that many rounds in and adds each kingdom's learned value (engine/ai/value.py,
fitted on self-play games) to its score there, instead of playing the greedy policy to the end (off by default;
only in Kingdomino with 2-4 players, where weights were fitted; elsewhere the playouts go to the end).
In the last round (no line to come) the playouts read nothing of the sampled future: one pass, one playout per
candidate, gives the exact values and ends the search.

Determinism: how many playouts a decision gets is counted in work units (placement options the playouts looked at, plus
a share per call, per turn and domino of the line, per Queendomino turn, per remembered placement, per playout and
kingdom; see `playout_units`; the shares were fitted to the CPU time of whole games in five modes), which do not depend
on the machine or its load: the budget is `time_budget * UNITS_PER_SECOND` units (times `MODE_SHARE` in 2-player
Kingdomino, whose turns cost less CPU per unit), a rate set so that a search takes at most about its budget on an idle
2-core machine of 2026 (measured in CPU time, see benchmarks/bench_ai.py `--calibrate`). A seed and a position therefore
give the same action anywhere, however busy the machine. The clock is read only as a safety stop against a pathological
slowdown, after every playout: the search ends at `CLOCK_STOP * time_budget` seconds (30 times its budget, and never
before `CLOCK_STOP_MIN`, 3 s, so that `medium`'s tiny budget is not cut short by a busy moment either), which normal use
never reaches; the agent then sets `stopped_by_clock`. `iterations=N` spreads about N playouts over the candidates
instead (at least one per candidate still in the race in each round of halving).
"""

from __future__ import annotations

import math
import random
import time
from itertools import chain
from typing import Any

from ..actions import Action, BribeDragon, Build, Claim, Skip
from ..game import BUILD, CLAIM, DRAGON, FIRST_CLAIM, PLACE, Game
from .greedy import GreedyMediumAgent, claim_values, decision_rng, medium_placements, open_decision
from .model import (
    P_BUILD,
    P_CLAIM,
    P_DRAGON,
    P_FIRST,
    P_OVER,
    P_TAX,
    Sim,
    apply_action,
    place_action,
    unseen_buildings,
)
from .value import last_valued_round, pool_counts, stats_of, value, weights_for, without

# Effort per second of budget, in work units (see `playout_units`): a unit took about 0.6-0.8 microseconds of CPU
# here, Kingdomino the most (it sets this rate: at most 0.92-0.98 s of CPU per move on the idle machine at 1.15 M,
# 1.02 s at 1.2 M; Queendomino and Royal Wedding about a quarter less, `--calibrate`). The shares below come from a
# least-squares fit of the CPU time of 236 decisions of whole games (Kingdomino 4, Queendomino 2 and 4, Royal Wedding
# 6 and teams of 8) to the work, turns and playouts they counted: a placement option looked at ~0.7 us, a turn ~6 us
# in Kingdomino (3 times less than it was charged, so late-game decisions got half the playouts their CPU allowed),
# ~12 us with Royal Wedding's lines of 8, ~17-25 us with Queendomino's economy (its share then raised by hand until
# Queendomino's CPU per move was at most Kingdomino's); a playout ~25-75 us, more with more kingdoms. On 2026-11-28
# the model got cheaper at the same work (the same moves for the same work): a unit's CPU time fell to 0.79-0.82 of
# what it was in Kingdomino, 0.88-0.91 in Queendomino and Royal Wedding (the same decisions timed side by side), so
# the rate went from 1.15 M to 1.38 M units a second (x 1.2): about the CPU of before per move, 20% more work.
UNITS_PER_SECOND = 1_380_000
SETUP_UNITS = 4_000  # reading the game and choosing the candidates
TURN_UNITS = 2
LINE_UNITS = 2  # per domino of the line, per turn (the claim looks at each)
QUEENDOMINO_TURN_UNITS = 35  # the economy's steps (tax, build, dragon) of a turn, and their policy
PLAYOUT_UNITS = 20
KINGDOM_UNITS = 10  # per kingdom, per playout (copying it, scoring it)
CLOCK_STOP = 30.0  # safety stop: the search ends after this many times its budget in seconds, whatever the count
CLOCK_STOP_MIN = 3.0  # ... but never before this many seconds
MAX_PLACEMENTS = 10  # placements kept (by the medium player's judgement) before pairing them with claims
MAX_CLAIMS = 5  # claims kept on long lines (Royal Wedding's lines of 8)
WIN_BONUS = 10.0  # value of winning a playout, on top of the score margin
# Noise on the playouts' claims, in points: rivals that are assumed to claim exactly as the model would make the
# search over-fit them. Measured against three easy players (Kingdomino, 4 players, same seeds): 0 -> 79%, 3 -> 89%
# of 38 games at half the budget; 66% -> 78% of 60-80 games at 0.15 s (1 point: no change; 2-4.5: better).
PLAYOUT_NOISE = 3.0
# Whether the searching player's own claims in the playouts get that noise too. Without (its own playout claims
# greedy, the rivals' noisy), against three easy players on the same 64 seeds: 79.7% -> 87.5%; with the unit charges
# below, 84.0% -> 85.8% of the same 200 games (86.5% at 1.15 M units a second).
OWN_NOISE = False
# Share of a budget that a claim following the turn's placement gets (the placement gets the rest of the two).
# Measured (Kingdomino + Middle Kingdom + Harmony, 2 players, 0.1 s, hard with 0.5 vs hard with 1, 2026-11-25):
# 54.2% (44-65%) of 83 games, score margin +0.1 +- 2.4 points: no gain shown, so the default stays 1.
CLAIM_SHARE = 1.0
# Share of the budget by mode (game, players), for modes whose turns the unit charges (fitted on 4-player Kingdomino,
# Queendomino and Royal Wedding) make cheaper than the rest. 2-player Kingdomino, CPU a turn (placement and claim)
# against 4 players at the same budget and load: 0.74-0.78 s against 0.91-0.97 s in the arena (../shared/ai-arena,
# 2026-11-25, 0.81); 1.83 s against 2.00 s a budget on 2026-11-27 (load 10-15, 2 games of each at 0.1 and 0.3 s
# against easy players, 0.92). With 1.15 a 2-player turn costs about what a 4-player one does.
MODE_SHARE = {("kingdomino", 2): 1.15}
# Weight of the medium player's shape bonus (`FastKingdom.shape_bonus`: squares that touch their terrain, a compact
# kingdom) in the playouts' placements, which otherwise break ties between placements of equal points by cell
# number (0: off, the default; see engine/README.md for what it was measured to do).
PLAYOUT_SHAPE = 0.0
# Noise on the rivals' placements in the playouts, in points (as `PLAYOUT_NOISE` on their claims; 0: greedy, the
# default): rivals whose placements are not exactly predictable. It needs the claims' noise generator.
PLACE_NOISE = 0.0
# Rounds after which the playouts stop and add each kingdom's learned value (engine/ai/value.py) instead of playing
# on to the end of the deal (0: to the end, the default; only where weights were fitted: Kingdomino, 2-4 players).
VALUE_DEPTH = 0
MAX_VALUE_DEPTH = 12
# Work units of one kingdom's learned value, and with it what a shorter playout costs beyond its units (its copy and
# reading of the sampled future weigh more against its few turns). The value alone took 32-38 us of CPU a kingdom
# against 0.77-0.90 us a unit of full playouts (42 units, 2-5 of them its greedy placements, counted apart), but
# at 38 a decision with `value_depth=1` took 1.17 times the CPU of one without (93 decisions of rounds 0-4 of 2-player
# Kingdomino with Middle Kingdom and Harmony at 0.1 s, both timed side by side, alternating, 2026-11-28, load 2-7);
# 61 gave 0.95, 75 0.85, 55 0.98: hence 55 (benchmarks/value_cpu.py). With `value_depth=2`, 55 gave 0.98 too (62
# decisions; 30 gave 1.05). Such timings vary by 5-10% from run to run under load.
VALUE_UNITS = 55


# The middle rung (`MediumAgent`): hard's search with a tiny effort, over fewer placements. Kingdomino, 4 players,
# against three easy (200 games each, the same seeds): 0.03 s with 5 placements 49%, with 3 46.5%.
MEDIUM_WORK = 57_500  # work units of a medium decision (0.05 s at the 1.15 M units a second of its tuning)
MEDIUM_BUDGET = MEDIUM_WORK / UNITS_PER_SECOND  # the same work, so the same moves, whatever the rate
MEDIUM_PLACEMENTS = 5
# The rung above hard (`ExpertAgent`): the same search with three times the effort. Against the paper's MCE_FG_R at
# 1 s a move (2 players, Kingdomino + Middle Kingdom + Harmony, the same 100 deals): hard 74/100, expert 83/100, within
# the noise; head to head and in the 4-player ladder no better than hard, so the lobby does not offer it (engine.ai
# OFFERED_LEVELS; benchmarks/search_regret.py: hard already finds what its playouts can tell).
EXPERT_FACTOR = 3.0


class HardAgent:
    """Monte Carlo search with a fixed effort per decision: `time_budget` (default 1) is the effort in seconds of an
    idle machine, counted in work units; `iterations` fixes the number of playouts instead; `max_placements`
    placements (ranked by the medium player) are searched, each paired with the claim that would follow it unless
    `pair_claims=False`; `playout_noise` (points of noise on the playouts' claims, default 3) and `playout_order`
    (weight of the turn order in the playouts' claims, default 0) and `playout_shape` (weight of the shape bonus in
    the playouts' placements, default 0) and `place_noise` (points of noise on the rivals' playout placements,
    default 0) shape the playout policy; `value_depth` (rounds, default 0: off) ends the playouts that many rounds
    in, each kingdom then judged by its learned value (engine/ai/value.py) instead of played to the end."""

    name = "hard"

    def __init__(
        self,
        seed: int = 0,
        time_budget: float = 1.0,
        iterations: int | None = None,
        win_bonus: float = WIN_BONUS,
        max_placements: int = MAX_PLACEMENTS,
        pair_claims: bool = True,
        playout_order: float = 0.0,
        playout_noise: float = PLAYOUT_NOISE,
        own_noise: bool = OWN_NOISE,
        claim_share: float = CLAIM_SHARE,
        playout_shape: float = PLAYOUT_SHAPE,
        place_noise: float = PLACE_NOISE,
        value_depth: int = VALUE_DEPTH,
    ) -> None:
        if time_budget <= 0:
            raise ValueError("The time budget must be positive (seconds per decision).")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1 (playouts per decision).")
        self.seed = seed
        self.win_bonus = win_bonus
        self.max_placements = max_placements
        self.pair_claims = pair_claims  # at a placement, search (placement, next claim) pairs rather than placements
        self.playout_order = playout_order
        self.playout_noise = playout_noise
        self.own_noise = own_noise  # whether this player's own claims in the playouts get the noise too
        if not 0 < claim_share < 2:
            raise ValueError("claim_share must be above 0 and below 2 (share of a budget for the claim).")
        self.claim_share = claim_share
        if not 0 <= playout_shape <= 2:
            raise ValueError("playout_shape must be between 0 and 2 (weight of the shape bonus in the playouts).")
        self.playout_shape = playout_shape
        if not 0 <= place_noise <= 10:
            raise ValueError(
                "place_noise must be between 0 and 10 (points of noise on the rivals' playout placements)."
            )
        self.place_noise = place_noise
        if isinstance(value_depth, bool) or not isinstance(value_depth, int) or not 0 <= value_depth <= MAX_VALUE_DEPTH:
            raise ValueError(
                f"value_depth must be a whole number of rounds from 0 (off) to {MAX_VALUE_DEPTH}, not {value_depth!r}."
            )
        self.value_depth = value_depth
        self.time_budget = float(time_budget)
        self.iterations = iterations
        self.last_playouts = 0  # playouts run for the last decision (for benchmarks)
        self.candidates_last = 0  # candidates searched for the last decision
        self.stopped_by_clock = False  # whether the last decision hit the safety stop (never in normal use)

    def choose(self, game: Game) -> Action:
        deadline = time.perf_counter() + max(CLOCK_STOP_MIN, self.time_budget * CLOCK_STOP)
        d, actions = open_decision(game)
        self.last_playouts = self.candidates_last = 0
        self.stopped_by_clock = False
        if len(actions) == 1:
            return actions[0]
        base = self.playout_model(game, d.kingdom)
        cands = self.candidates(game, base, d.kind, d.kingdom, actions)
        self.candidates_last = len(cands)
        if len(cands) == 1:
            return cands[0][0]
        rng = decision_rng(self.seed, game, self.name)
        search = _Search(game, base, cands, rng, d.kingdom, deadline, self.win_bonus, self.value_depth)
        alive = list(range(len(cands)))
        rounds = max(1, math.ceil(math.log2(len(cands))))
        share = self.budget_share(base, d.kind) * MODE_SHARE.get((game.config.game, len(game.kingdoms)), 1.0)
        budget = self.time_budget * UNITS_PER_SECOND * share - SETUP_UNITS  # work units
        for r in range(rounds):
            if self.iterations is not None:
                passes = max(1, self.iterations // (rounds * len(alive)))
            else:
                # A first pass measures what a playout costs (a tiny budget may end it before every candidate).
                if r == 0 and (not search.run_pass(alive, stop_at=budget) or search.exact):
                    break
                left = (budget - search.spent) / (search.spent / search.playouts)  # playouts the budget allows
                passes = int(left / (rounds - r) / len(alive)) - (1 if r == 0 else 0)
                if r and passes < 1:
                    break  # the budget is spent: the leaders so far stay in the race
                passes = max(0, passes)
            if not all(search.run_pass(alive) and not search.exact for _ in range(passes)):
                break
            if r < rounds - 1:
                alive.sort(key=lambda i: -search.sums[i] / search.counts[i])
                alive = alive[: max(1, (len(alive) + 1) // 2)]
        self.last_playouts = search.playouts
        self.stopped_by_clock = search.clock_stop
        alive = [i for i in alive if search.counts[i]] or [0]
        most = max(search.counts[i] for i in alive)
        best = max(
            (i for i in alive if search.counts[i] == most), key=lambda i: search.sums[i] / max(1, search.counts[i])
        )
        return cands[best][0]

    def playout_model(self, game: Game, kingdom: int) -> Sim:
        """The model of the position whose copies the playouts play, with this agent's playout policy (the noise on
        the rivals' claims and placements, the turn order's weight, the shape bonus) for the searching `kingdom`."""
        base = Sim.from_game(game)
        base.order_weight, base.noise = self.playout_order, self.playout_noise
        base.quiet = -1 if self.own_noise else kingdom
        base.shape = self.playout_shape
        base.place_noise = self.place_noise
        base.cache = {}  # the playouts' greedy placements, for this decision
        return base

    def budget_share(self, base: Sim, kind: str) -> float:
        """The share of `time_budget` this decision gets: a turn that places, then claims among several dominoes
        searches twice (the (placement, claim) pairs, then the claim alone); `claim_share` of a budget goes to the
        claim and the rest of the turn's two budgets to the placement, whose search the claim's mostly repeats."""
        if kind == CLAIM:
            return self.claim_share
        if kind == PLACE and self.pair_claims and sum(king < 0 for king in base.nxt_king) > 1:
            return 2.0 - self.claim_share
        return 1.0

    def candidates(self, game: Game, base: Sim, kind: str, ki: int, actions: list[Action]) -> list[tuple]:
        """(engine action, steps to apply to a sim) for each option worth simulating."""
        if kind == PLACE:
            return self.place_candidates(base, ki, actions)
        if kind in (CLAIM, FIRST_CLAIM):
            doms = [a.domino for a in actions]  # type: ignore[union-attr]
            if len(doms) > MAX_CLAIMS:
                doms = top_claims(base, ki, doms)
            return [(Claim(dom), [_apply(Claim(dom))]) for dom in doms]
        if kind == BUILD:
            # One cell per building: where the policy would put it (the cell matters only for crowns).
            seen = set()
            out: list[tuple] = [(Skip(), [_apply(Skip())])]
            for a in actions:
                if isinstance(a, Build) and a.slot not in seen:
                    seen.add(a.slot)
                    cell = base.town_cell_for(ki, base.board[a.slot])  # type: ignore[arg-type]
                    r, c = base.ks[ki].rowcol(cell)
                    chosen = Build(a.slot, r, c)
                    out.append((chosen, [_apply(chosen)]))
            return out
        if kind == DRAGON:
            return [(a, [_apply(a)]) for a in actions if isinstance(a, BribeDragon | Skip)]
        return [(a, [_apply(a)]) for a in actions]

    def place_candidates(self, base: Sim, ki: int, actions: list[Action]) -> list[tuple]:
        k = base.ks[ki]
        ranked = medium_placements(base, ki, base.cur_dom[base.turn])[: self.max_placements]
        places = [place_action(k, a, b) for _, a, b in ranked]
        legal = set(actions)
        places = [p for p in places if p in legal]
        # The claims open after this placement (the line does not depend on it).
        doms = [dom for dom, king in zip(base.nxt_dom, base.nxt_king, strict=True) if king < 0]
        if len(doms) > MAX_CLAIMS:
            doms = top_claims(base, ki, doms)
        out: list[tuple] = []
        for p in places:
            if not doms or not self.pair_claims:
                out.append((p, [_apply(p)]))
                continue
            for dom in doms:
                out.append((p, [_apply(p), _finish_turn, _claim(dom)]))
        return out


class MediumAgent(HardAgent):
    """The middle rung: the same search as `hard` with a tiny fixed effort (`MEDIUM_BUDGET`, a few hundredths of a
    second of an idle machine, counted in work units like hard's) over fewer options (`MEDIUM_PLACEMENTS` placements,
    each paired with the claims that could follow). It sees a little of where the game goes (a handful of sampled
    futures per option), where the greedy judgement alone (`GreedyMediumAgent`) only weighs the next placement, and
    answers in well under a tenth of a second."""

    name = "medium"

    def __init__(
        self,
        seed: int = 0,
        time_budget: float = MEDIUM_BUDGET,
        max_placements: int = MEDIUM_PLACEMENTS,
        **options: Any,
    ) -> None:
        super().__init__(seed, time_budget=time_budget, max_placements=max_placements, **options)


class ExpertAgent(HardAgent):
    """`hard` with `EXPERT_FACTOR` times its effort a decision (its `time_budget` is three seconds of an idle machine,
    counted in work units like hard's: about 2 s of CPU a move on average). Not offered to people: it has not shown
    itself stronger than hard (engine/README.md); a stored seat of this level still plays, and the benchmarks and the
    arena seat it."""

    name = "expert"

    def __init__(self, seed: int = 0, time_budget: float = EXPERT_FACTOR, **options: Any) -> None:
        super().__init__(seed, time_budget=time_budget, **options)


class _Search:
    """The playouts of one decision: each pass samples one future and plays every given candidate in it."""

    def __init__(
        self,
        game: Game,
        base: Sim,
        cands: list[tuple],
        rng,
        me: int,
        deadline: float,
        win_bonus: float,
        value_depth: int = 0,
    ) -> None:
        self.game, self.base, self.cands, self.rng, self.me, self.deadline = game, base, cands, rng, me, deadline
        self.win_bonus = win_bonus
        self.prior = [sum(t[i] for t in game.deal_totals) for i in range(len(game.kingdoms))]
        # What the sampled futures are drawn from (the same every pass).
        self.unseen = game.unseen_dominoes()
        self.stack = unseen_buildings(game) if base.qd else None
        self.sums = [0.0] * len(cands)
        self.counts = [0] * len(cands)
        self.spent = 0.0
        self.playouts = 0
        # In the last round (no line to come, no claim left) a playout reads nothing of the sampled future (lines,
        # stack, first claims) and draws no noise: one pass gives every candidate its exact value.
        self.last_round = base.phase != P_FIRST and not base.nxt_dom and base.lines_drawn() >= base.rounds
        self.clock_stop = False
        # Truncated playouts (`value_depth`): the round they stop at, the weights, and what is still unseen now.
        self.weights = weights_for(base) if value_depth else None
        self.stop_round = base.round + value_depth if self.weights is not None else None
        self.pool = pool_counts(self.unseen) if self.weights is not None else None

    @property
    def exact(self) -> bool:
        """Whether the values found so far are exact (the last round, after a first pass)."""
        return self.last_round and self.playouts > 0

    def run_pass(self, alive: list[int], stop_at: float | None = None) -> bool:
        """One sampled future for every candidate in `alive`; False when the clock ran out (safety stop, then
        `clock_stop` is set) or, with `stop_at`, when the effort spent reached it."""
        world = self.base.determinize(self.game, self.rng, self.unseen, self.stack)
        me, prior = self.me, self.prior
        noise = _Replay(random.Random(self.rng.getrandbits(32))) if world.noise else None
        for i in alive:
            s = world.copy()
            if noise is not None:
                s.rng = noise.again()  # the same noise for every candidate (common random numbers)
            for step in self.cands[i][1]:
                step(s)
            if self.stop_round is None:
                s.playout()
                totals = [t + p for t, p in zip(s.totals(), prior, strict=True)]
            else:
                totals = self.truncated(s, world)
            self.spent += playout_units(s, world)
            self.playouts += 1
            mine = totals[me]
            best_other = max(t for k, t in enumerate(totals) if k != me)
            value = mine - best_other
            if mine > best_other:
                value += self.win_bonus
            elif mine == best_other:
                value += self.win_bonus / 2
            self.sums[i] += value
            self.counts[i] += 1
            if time.perf_counter() > self.deadline:
                self.clock_stop = True
                return False
            if stop_at is not None and self.spent >= stop_at:
                return False
        return True

    def truncated(self, s: Sim, world: Sim) -> list[float]:
        """Play `s` on to the start of round `stop_round` (to the end if that is in the deal's last third), then each
        kingdom's score there plus its learned value. The dominoes still unseen there: those unseen at the decision but for the lines drawn since. The
        features' work (their greedy placements) is counted in the kingdoms' work, their reading in VALUE_UNITS."""
        s.playout(self.stop_round)
        if s.phase != P_OVER and s.round > last_valued_round(s.rounds):
            s.playout()  # the last third of the deal: played to the end (see `last_valued_round`)
        totals = [t + p for t, p in zip(s.totals(), self.prior, strict=True)]
        if s.phase == P_OVER:
            return totals
        drawn = world.future[: len(world.future) - len(s.future)]
        stats = stats_of(without(self.pool, [dom for line in drawn for dom in line]))
        self.spent += VALUE_UNITS * len(s.ks)
        return [t + value(s, ki, stats, self.weights) for ki, t in enumerate(totals)]


class _Replay:
    """One generator's `random()` sequence, replayed from its start for each candidate of a pass (the values drawn
    are kept, so a replay costs far less than seeding a new generator)."""

    __slots__ = ("drawn", "source")

    def __init__(self, source: random.Random) -> None:
        self.drawn: list[float] = []
        self.source = source

    def again(self) -> _Draws:
        """A generator whose `random()` gives the source's sequence from its first value."""
        return _Draws(chain(self.drawn, self._more()).__next__)

    def _more(self):
        drawn, draw = self.drawn, self.source.random
        while True:
            value = draw()
            drawn.append(value)
            yield value


class _Draws:
    """What the playout policy reads of a generator: `random()`."""

    __slots__ = ("random",)

    def __init__(self, random) -> None:
        self.random = random


def playout_units(after: Sim, before: Sim) -> float:
    """The effort a playout took, in work units: placement options looked at (with a share per call), plus a share
    per turn (more with longer lines and with Queendomino's economy) and per playout (more with more kingdoms).
    About 0.6-0.8 microseconds of CPU each on the machine this was tuned on, whatever the mode."""
    work = sum(k.work for k in after.ks) - sum(k.work for k in before.ks)
    per_turn = TURN_UNITS + LINE_UNITS * after.line_size + (QUEENDOMINO_TURN_UNITS if after.qd else 0)
    return work + per_turn * (after.turns - before.turns) + PLAYOUT_UNITS + KINGDOM_UNITS * len(after.ks)


def top_claims(sim: Sim, ki: int, doms: list[str]) -> list[str]:
    values = claim_values(sim, ki, doms, GreedyMediumAgent.order_weight, GreedyMediumAgent.deny_weight)
    ranked = sorted(zip(values, doms, strict=True), key=lambda x: -x[0])
    return [dom for _, dom in ranked[:MAX_CLAIMS]]


def _apply(action: Action):
    def step(sim: Sim) -> None:
        apply_action(sim, action)

    return step


def _finish_turn(sim: Sim) -> None:
    """Play the optional steps (tax, build, dragon) of the turn with the policy, up to the claim."""
    while sim.phase in (P_TAX, P_BUILD, P_DRAGON):
        sim.policy_step()


def _claim(dom: str):
    def step(sim: Sim) -> None:
        if sim.phase == P_CLAIM:
            sim.claim(dom)

    return step
