"""A learned value of a kingdom's position (issue #31): how many more points a kingdom should still score, from a
few numbers read off the search model's state (`Sim`, `FastKingdom`), by a linear model fitted on the final scores
of self-play games (`benchmarks/fit_value.py` regenerates the data and the weights from a seed).

`hard` can end its playouts `value_depth` rounds in and add each kingdom's learned value instead of playing the
greedy policy to the end (`HardAgent(value_depth=N)`, off by default): a greedy playout to the end judges a
kingdom's future with a biased model (every player greedy), where a value fitted on games of better players (the
`medium` search) is less biased, and cheaper.

The features (`features`), for one kingdom at one point of a deal, at most `len(FEATURES)` numbers:
- the placements it has left (`R`, its dominoes still to place, those claimed and those to come), the empty cells
  of its frame still usable (`E`), the empty cells no domino can fill any more (`H`: no empty neighbour), the
  squares it can still place (`Q = min(2R, E - H)`) and the squares it lacks room for (`deficit`);
- the crowns of its territories that can still grow (an empty cell next to them): their sum and the largest, each
  alone and times `R` (a square added to a territory of `C` crowns gains `C`);
- what the dominoes to come offer it: per terrain, the crowns per domino to come times the size of its largest
  territory of that terrain that can still grow, plus one (`pull`: a crowned square there gains that), and the share
  of the squares to come of each terrain times the crowns of that territory (`cpull`); each alone and times `R`;
- its claimed dominoes not placed yet: the greedy placement's value of each in the kingdom as it stands, and how
  many have nowhere to go (a discard);
- the Middle Kingdom bonus still in reach (and times `R`); Harmony still in reach (and times `R`, and whether a hole,
  a lack of room or a claimed domino with nowhere to go already dooms it: its 5 points lost, a weight set by hand,
  `FIXED`); its territory points now; `R` squared; the crowns per domino to come (and
  times `R`).

The weights (`WEIGHTS`, per number of players) are a committed constant table written by the fitting script; the
standard Kingdomino rules and its variants (Middle Kingdom, Harmony) only: Queendomino's economy and Royal Wedding's
lines are not modelled, and `hard` plays its playouts to the end there whatever `value_depth` says.
"""

from __future__ import annotations

from .model import CASTLE, EMPTY, P_FIRST, P_PLACE, FastKingdom, Sim, domino_table

FEATURES: tuple[str, ...] = (
    "bias",
    "R",
    "E",
    "H",
    "Q",
    "deficit",
    "crowns_open",
    "crowns_open_max",
    "R*crowns_open",
    "R*crowns_open_max",
    "pull",
    "R*pull",
    "cpull",
    "R*cpull",
    "claimed",
    "claimed_none",
    "mk",
    "mk*R",
    "harmony",
    "harmony*R",
    "harmony*doomed",
    "pts",
    "R*R",
    "crowns_per_domino",
    "R*crowns_per_domino",
)

# Weights not fitted but known: a kingdom that still holds Harmony but has a hole, less room than squares to place,
# or a claimed domino with nowhere to go will discard a domino (24 squares to place, 24 cells), so it will lose
# Harmony's 5 points. Self-play games between good players almost never show it (a handful of positions in
# thousands), so a fit could not learn it.
FIXED: dict[str, float] = {"harmony*doomed": -5.0}

N_TERRAINS = CASTLE  # the terrains a square can have (7, the town included)


def pool_counts(doms: list[str]) -> tuple[list[int], list[int], int]:
    """Of the dominoes `doms`: per terrain, the crowns and the squares; and how many dominoes."""
    table = domino_table()
    crowns = [0] * N_TERRAINS
    squares = [0] * N_TERRAINS
    for dom in doms:
        t0, c0, t1, c1, _ = table[dom]
        crowns[t0] += c0
        crowns[t1] += c1
        squares[t0] += 1
        squares[t1] += 1
    return crowns, squares, len(doms)


def without(counts: tuple[list[int], list[int], int], doms: list[str]) -> tuple[list[int], list[int], int]:
    """`pool_counts` of a pool once the dominoes `doms` (drawn from it) are taken out."""
    crowns, squares, n = pool_counts(doms)
    return (
        [a - b for a, b in zip(counts[0], crowns, strict=True)],
        [a - b for a, b in zip(counts[1], squares, strict=True)],
        counts[2] - n,
    )


def future_stats(doms: list[str]) -> tuple[list[float], list[float], float]:
    """Of the dominoes `doms` (those nobody has seen yet): per terrain, the crowns per domino and the share of the
    squares; and the crowns per domino in all."""
    return stats_of(pool_counts(doms))


def stats_of(counts: tuple[list[int], list[int], int]) -> tuple[list[float], list[float], float]:
    """`future_stats` from `pool_counts`."""
    crowns, squares, n = counts
    n = max(1, n)
    return [c / n for c in crowns], [s / (2 * n) for s in squares], sum(crowns) / n


def pending(sim: Sim, ki: int) -> tuple[int, list[str]]:
    """Kingdom ki's placements left in the deal (`R`), and its claimed dominoes not placed yet."""
    kings = [king for king, k in enumerate(sim.king_k) if k == ki]
    claimed: list[str] = []
    if sim.phase == P_FIRST:
        # The first line: every king places once in the first round (claimed or not yet).
        claimed = [d for d, king in zip(sim.cur_dom, sim.cur_king, strict=True) if king in kings]
        left = len(kings)
    else:
        left = 0
        for i, (dom, king) in enumerate(zip(sim.cur_dom, sim.cur_king, strict=True)):
            if king in kings and (i > sim.turn or (i == sim.turn and sim.phase == P_PLACE)):
                claimed.append(dom)
                left += 1
        if sim.nxt_dom:
            left += len(kings)
            claimed.extend(d for d, king in zip(sim.nxt_dom, sim.nxt_king, strict=True) if king in kings)
    left += len(kings) * max(0, sim.rounds - sim.lines_drawn())
    return left, claimed


def features(sim: Sim, ki: int, stats: tuple[list[float], list[float], float]) -> list[float]:
    """The numbers `FEATURES` names, for kingdom ki of `sim`; `stats`: `future_stats` of the dominoes to come.
    The greedy placements of its claimed dominoes are looked up as the playouts do (`Sim.best_placement`: the
    search's cache when set, and their work counted in the kingdom's `work`)."""
    k = sim.ks[ki]
    empty, holes, open_ids = empty_cells(k)
    left, claimed = pending(sim, ki)
    room = empty - holes
    squares = min(2 * left, room)
    deficit = max(0, 2 * left - room)
    crowns_open, crowns_max, biggest, richest = open_territories(k, open_ids)
    crowns_per, share, per_domino = stats
    pull = sum(crowns_per[t] * (biggest[t] + 1) for t in range(N_TERRAINS))
    cpull = sum(share[t] * richest[t] for t in range(N_TERRAINS))
    gained, nowhere = 0.0, 0
    centre = sim.middle_kingdom and k.inside
    for dom in claimed:
        found = sim.best_placement(k, dom, centre)
        if found is None:
            nowhere += 1
        else:
            gained += found[0]
    mk = 1.0 if centre else 0.0
    harmony = 1.0 if sim.harmony and not k.discarded else 0.0
    doomed = 1.0 if holes or deficit or nowhere else 0.0
    return [
        1.0,
        left,
        empty,
        holes,
        squares,
        deficit,
        crowns_open,
        crowns_max,
        left * crowns_open,
        left * crowns_max,
        pull,
        left * pull,
        cpull,
        left * cpull,
        gained,
        nowhere,
        mk,
        mk * left,
        harmony,
        harmony * left,
        harmony * doomed,
        k.pts,
        left * left,
        per_domino,
        left * per_domino,
    ]


def empty_cells(k: FastKingdom) -> tuple[int, int, set[int]]:
    """The empty cells of k's frame, those of them no domino can fill any more (no empty neighbour), and the
    territories with an empty cell next to them (that can still grow)."""
    terr, tid, W = k.terr, k.tid, k.W
    empty = holes = 0
    open_ids: set[int] = set()
    for r in range(k.fr0, k.fr1 + 1):
        base = r * W
        for p in range(base + k.fc0, base + k.fc1 + 1):
            if terr[p] != EMPTY:
                continue
            empty += 1
            free = False
            for q in (p - 1, p + 1, p - W, p + W):
                tq = terr[q]
                if tq == EMPTY:
                    free = True
                elif 0 <= tq < CASTLE:
                    open_ids.add(tid[q])
            if not free:
                holes += 1
    return empty, holes, open_ids


def open_territories(k: FastKingdom, open_ids: set[int]) -> tuple[int, int, list[int], list[int]]:
    """Of k's territories `open_ids`: their crowns in all, the most crowns of one, and per terrain the size of the
    largest and the crowns of the richest."""
    crowns_open = crowns_max = 0
    biggest = [0] * N_TERRAINS
    richest = [0] * N_TERRAINS
    if not open_ids:
        return crowns_open, crowns_max, biggest, richest
    terr, tid, W = k.terr, k.tid, k.W
    terrain_of: dict[int, int] = {}
    for r in range(k.min_r, k.max_r + 1):
        base = r * W
        for p in range(base + k.min_c, base + k.max_c + 1):
            t = terr[p]
            if 0 <= t < CASTLE and tid[p] in open_ids:
                terrain_of.setdefault(tid[p], t)
    for i, t in terrain_of.items():
        c = k.t_crowns[i]
        crowns_open += c
        crowns_max = max(crowns_max, c)
        biggest[t] = max(biggest[t], k.t_size[i])
        richest[t] = max(richest[t], c)
    return crowns_open, crowns_max, biggest, richest


def last_valued_round(rounds: int) -> int:
    """The last round at whose start the value is asked: the last third of a deal (at least its last two rounds) is
    played to the end, where a greedy playout of dominoes mostly known judges better than the learned value (see
    engine/README.md) and costs little."""
    return rounds - max(2, rounds // 3)


def weights_for(sim: Sim) -> tuple[float, ...] | None:
    """The fitted weights for this sim's mode, or None where none were fitted (Queendomino, Royal Wedding's lines,
    other player counts, the larger kingdoms)."""
    if sim.qd or sim.line_size > 4 or sim.ks[0].size != 5:
        return None
    return WEIGHTS.get(len(sim.ks))


def value(sim: Sim, ki: int, stats: tuple[list[float], list[float], float], weights: tuple[float, ...]) -> float:
    """The points kingdom ki should still score in this deal, by the learned model."""
    return sum(w * f for w, f in zip(weights, features(sim, ki, stats), strict=True))


# Fitted by benchmarks/fit_value.py (see engine/README.md for the data and the fit's quality); per number of
# players, the weights of FEATURES in order.
WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (
        13.836001943875775,  # bias
        0.6441467154412385,  # R
        -0.058831551300803184,  # E
        -0.4364137993157168,  # H
        0.32190487759548075,  # Q
        -0.4364137993164291,  # deficit
        1.1810850917746214,  # crowns_open
        -1.4752163175971222,  # crowns_open_max
        -0.3418746001316576,  # R*crowns_open
        0.2998691424357706,  # R*crowns_open_max
        -0.0439808112396532,  # pull
        -0.3482484658712854,  # R*pull
        -12.098628829019331,  # cpull
        2.10322970594094,  # R*cpull
        0.749527182983076,  # claimed
        -2.110485808540626,  # claimed_none
        0.0,  # mk
        0.6441467154408718,  # mk*R
        -4.668352465666238,  # harmony
        0.6211783899546263,  # harmony*R
        -5.0,  # harmony*doomed
        0.058411406601526814,  # pts
        -0.014634954733211537,  # R*R
        -3.310512841830877,  # crowns_per_domino
        0.29422938407676447,  # R*crowns_per_domino
    ),
    3: (
        1.7082650520898994,  # bias
        0.4868313103079471,  # R
        0.01326372468064628,  # E
        0.0,  # H
        0.24341565515395416,  # Q
        0.0,  # deficit
        -1.1664151913149863,  # crowns_open
        2.4362631728220587,  # crowns_open_max
        0.09115469128029323,  # R*crowns_open
        -0.1346052363833249,  # R*crowns_open_max
        -4.055304900554996,  # pull
        1.021468246148815,  # R*pull
        7.871860215135789,  # cpull
        -0.5975897538634566,  # R*cpull
        0.9083561641538511,  # claimed
        0.0,  # claimed_none
        0.0,  # mk
        0.4868313103079087,  # mk*R
        0.7359879715225396,  # harmony
        -0.2656409548298829,  # harmony*R
        -5.0,  # harmony*doomed
        -0.10977094756759903,  # pts
        0.06784749734811314,  # R*R
        3.4887197459526593,  # crowns_per_domino
        -0.235469261811116,  # R*crowns_per_domino
    ),
    4: (
        6.09911465297801,  # bias
        0.7368811633276909,  # R
        -0.09593063877517487,  # E
        0.0,  # H
        0.3684405816639673,  # Q
        0.0,  # deficit
        -0.053531408055782076,  # crowns_open
        -0.0024285746433798895,  # crowns_open_max
        -0.06874374805577307,  # R*crowns_open
        -0.01855394230073268,  # R*crowns_open_max
        -1.7468272494311539,  # pull
        0.567681301987009,  # R*pull
        0.5288412076485214,  # cpull
        0.7099314568018188,  # R*cpull
        0.6821361711336414,  # claimed
        0.0,  # claimed_none
        0.0,  # mk
        0.7368811633279341,  # mk*R
        0.0,  # harmony
        0.7368811633279332,  # harmony*R
        -5.0,  # harmony*doomed
        -0.19467430032587565,  # pts
        0.0815227712611732,  # R*R
        7.421981827644069,  # crowns_per_domino
        -1.5826991177980758,  # R*crowns_per_domino
    ),
}
