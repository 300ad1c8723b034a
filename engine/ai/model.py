"""A fast private model of a game, for the computer players' evaluations and look-ahead.

Why a second model: a search plays thousands of simulated turns per second, which the engine, built for clear
rules and readable errors, is not made for (one `legal_actions()` costs about as much as a whole simulated turn
here). The model is filled only from what every player can see through the engine's public API (kingdoms, lines,
the builders' board, coins, knights, the queen, the dragon) and never reads the hidden order of the lines or of the
building stack: `Sim.determinize` samples a future from `game.unseen_dominoes()` and from the buildings not yet
seen. The tests in tests/ai/test_model.py hold it to the engine: same legal placements, same scores, and whole
games played in both give the same result.

The model works on a padded grid (a border of `BORDER` cells around the engine's `n x n` grid) so that
neighbour look-ups need no bounds checks. A cell is an index `p = (row + 1) * W + (col + 1)`. Empty cells that
fell outside the 5x5 (7x7) frame are marked `BLOCKED`, so "empty" always means "still usable".
"""

from __future__ import annotations

import random
from functools import cache

from ..actions import Action, BribeDragon, Build, Claim, Place, Skip, Tax
from ..components import (
    TERRAINS,
    builders_board_spec,
    building_types,
    kingdomino_dominoes,
    queendomino_dominoes,
)
from ..game import BUILD, CLAIM, DRAGON, FIRST_CLAIM, KNIGHTS_PER_ROUND, OVER, PLACE, TAX, Game, building_cost

EMPTY = -1
BLOCKED = -2
BORDER = -3
CASTLE = len(TERRAINS)  # 7
TOWN = TERRAINS.index("town")
ALL_TERRAINS = (1 << len(TERRAINS)) - 1

# Phases, as small ints for speed.
P_FIRST, P_PLACE, P_TAX, P_BUILD, P_DRAGON, P_CLAIM, P_OVER = range(7)
PHASE_OF = {FIRST_CLAIM: P_FIRST, PLACE: P_PLACE, TAX: P_TAX, BUILD: P_BUILD, DRAGON: P_DRAGON, CLAIM: P_CLAIM}
PHASE_OF[OVER] = P_OVER

MIDDLE_KINGDOM = 10  # the Middle Kingdom bonus
HOLE_PENALTY = 2.0  # points a placement loses, in the greedy policy, for each cell it walls in for good
CALL_UNITS = 10  # work units a call of `placements` costs on top of the options it looks at (see search.py)
CACHE_UNITS = 2  # work units of a greedy placement found in a search's cache (see `Sim.best_placement`)
SHAPE_UNITS = 1  # work units per placement the shaped playout policy weighs (see `best_placement`)
MAX_SHAPE_BONUS = 1.5  # the most `FastKingdom.shape_bonus` gives: 3 neighbours a square, 0.25 each
COIN_VALUE = 0.36  # what a coin is worth to the economy policy while the game runs (1/3 point at the end)


@cache
def domino_table() -> dict[str, tuple[int, int, int, int, int]]:
    """id -> (terrain 0, crowns 0, terrain 1, crowns 1, number), terrains as indices into TERRAINS."""
    table = {}
    for d in (*kingdomino_dominoes(), *queendomino_dominoes()):
        s0, s1 = d.squares
        table[d.id] = (TERRAINS.index(s0.terrain), s0.crowns, TERRAINS.index(s1.terrain), s1.crowns, d.number)
    return table


DOMINOES = domino_table()


@cache
def building_costs(hosts_queen: bool) -> tuple[int, ...]:
    """Per slot of the builders' board, what a building there costs (`building_cost`) to the queen's host or not."""
    return tuple(building_cost(slot, hosts_queen) for slot in range(len(builders_board_spec().costs)))


# Building kinds (scoring), as ints.
B_NONE, B_FIXED, B_PER_TERRITORY, B_PER_TOWER, B_PER_KNIGHT = range(5)
_KIND = {"none": B_NONE, "fixed": B_FIXED, "per_territory": B_PER_TERRITORY, "per_tower": B_PER_TOWER}
_KIND["per_knight"] = B_PER_KNIGHT


@cache
def building_table() -> dict[str, tuple[int, int, int, int, int, int, int, int]]:
    """id -> (knights, towers, coins per knight on tax, coins per tower on tax, crowns, kind, points, terrain)."""
    table = {}
    for b in building_types().values():
        terrain = TERRAINS.index(b.scoring_terrain) if b.scoring_terrain else -1
        table[b.id] = (
            b.knights,
            b.towers,
            b.coins_per_knight_on_tax,
            b.coins_per_tower_on_tax,
            b.crowns,
            _KIND[b.scoring],
            b.points,
            terrain,
        )
    return table


_ZOBRIST = random.Random(20261123)
# Random 64-bit keys of a square (cell, terrain, crowns) and of a building's crowns on a cell: a kingdom's `key` is
# the exclusive or of those it holds, so that two kingdoms with the same squares and buildings' crowns (and therefore
# the same placements and gains) have the same key (see `Sim.best_placement`).
SQUARE_KEYS = [_ZOBRIST.getrandbits(64) for _ in range(15 * 15 * 8 * 4)]
CROWN_KEYS = [_ZOBRIST.getrandbits(64) for _ in range(15 * 15 * 4)]


@cache
def centre_box(size: int) -> bytes:
    """Per model cell: 1 if a square there keeps the castle in the centre (Middle Kingdom), else 0."""
    W = 2 * size + 1
    reach = size // 2
    return bytes(1 if abs(p // W - size) <= reach and abs(p % W - size) <= reach else 0 for p in range(W * W))


class FastKingdom:
    """One kingdom in the model: terrain grid, territories kept up to date on each placement, and the economy."""

    __slots__ = (
        "W",
        "adj",
        "buildings",
        "coins",
        "discarded",
        "fc0",
        "fc1",
        "fr0",
        "fr1",
        "free_towns",
        "frontier",
        "inside",
        "key",
        "kplaced",
        "kres",
        "ksent",
        "max_c",
        "max_r",
        "min_c",
        "min_r",
        "n_terr",
        "pts",
        "size",
        "t_crowns",
        "t_size",
        "terr",
        "tid",
        "towers",
        "version",
        "work",
    )

    def __init__(self, size: int) -> None:
        self.size = size
        n = 2 * size - 1
        W = n + 2
        self.W = W
        self.terr = [BORDER] * (W * W)
        for r in range(1, n + 1):
            for c in range(1, n + 1):
                self.terr[r * W + c] = EMPTY
        self.tid = [-1] * (W * W)
        self.adj = [0] * (W * W)  # per empty cell: bit mask of the terrains next to it (all bits next to the castle)
        castle = size * W + size
        self.terr[castle] = CASTLE
        self.frontier: set[int] = set()
        for q in (castle - 1, castle + 1, castle - W, castle + W):
            self.adj[q] = ALL_TERRAINS
            self.frontier.add(q)
        self.min_r = self.max_r = self.min_c = self.max_c = size
        self.inside = True  # whether the castle is in the centre of the squares' frame (see `centred`)
        self.fr0, self.fr1, self.fc0, self.fc1 = 1, n, 1, n
        self.t_size: list[int] = []
        self.t_crowns: list[int] = []
        self.pts = 0  # territory points: sum of size x crowns (building crowns included, queen excluded)
        self.n_terr = [0] * len(TERRAINS)  # territories per terrain
        self.version = 0
        self.work = 0  # placement options looked at so far: the search's measure of effort (see search.py)
        self.coins = 0
        self.kres = 0  # knights in reserve
        self.kplaced = 0  # knights sent out (still owned)
        self.ksent = 0  # knights sent this round (at most KNIGHTS_PER_ROUND)
        self.towers = 0
        self.buildings: list[tuple[int, str]] = []  # (cell, building id)
        self.free_towns: list[int] = []
        self.discarded = False
        self.key = 0  # see SQUARE_KEYS

    def copy(self) -> FastKingdom:
        k = FastKingdom.__new__(FastKingdom)
        k.size, k.W = self.size, self.W
        k.terr, k.tid, k.adj = self.terr[:], self.tid[:], self.adj[:]
        k.frontier = set(self.frontier)
        k.min_r, k.max_r, k.min_c, k.max_c = self.min_r, self.max_r, self.min_c, self.max_c
        k.inside = self.inside
        k.fr0, k.fr1, k.fc0, k.fc1 = self.fr0, self.fr1, self.fc0, self.fc1
        k.t_size, k.t_crowns = self.t_size[:], self.t_crowns[:]
        k.pts, k.n_terr, k.version, k.work = self.pts, self.n_terr[:], self.version, self.work
        k.coins, k.kres, k.kplaced, k.towers = self.coins, self.kres, self.kplaced, self.towers
        k.ksent = self.ksent
        k.buildings, k.free_towns = self.buildings[:], self.free_towns[:]
        k.discarded = self.discarded
        k.key = self.key
        return k

    # -- cells ------------------------------------------------------------------------------------------------
    def cell(self, row: int, col: int) -> int:
        """Engine (row, col) -> model cell."""
        return (row + 1) * self.W + col + 1

    def rowcol(self, p: int) -> tuple[int, int]:
        """Model cell -> engine (row, col)."""
        r, c = divmod(p, self.W)
        return r - 1, c - 1

    @property
    def castle(self) -> int:
        return self.size * self.W + self.size

    # -- placing ----------------------------------------------------------------------------------------------
    def place(self, a: int, ta: int, ca: int, b: int, tb: int, cb: int) -> None:
        """Put a square of terrain ta with ca crowns on cell a, and one of (tb, cb) on b (a legal placement)."""
        self._put_all(((a, ta, ca), (b, tb, cb)))
        self.version += 1

    def _put(self, p: int, t: int, c: int) -> None:
        self._put_all(((p, t, c),))

    def _put_all(self, squares: tuple[tuple[int, int, int], ...]) -> None:
        """Put each (cell, terrain, crowns) in turn, keeping the territories, frontier and frame up to date."""
        terr, tid, W = self.terr, self.tid, self.W
        frontier, adj = self.frontier, self.adj
        ts, tc = self.t_size, self.t_crowns
        for p, t, c in squares:
            terr[p] = t
            self.key ^= SQUARE_KEYS[(p * 8 + t) * 4 + c]
            frontier.discard(p)
            bit = 1 << t
            first = -1  # the first territory of terrain t next to p
            ids = None  # all of them (in the order met), when there are several
            for q in (p - 1, p + 1, p - W, p + W):
                tq = terr[q]
                if tq == t:
                    i = tid[q]
                    if first < 0:
                        first = i
                    elif i != first:
                        if ids is None:
                            ids = [first, i]
                        elif i not in ids:
                            ids.append(i)
                elif tq == EMPTY:
                    adj[q] |= bit
                    frontier.add(q)
            if first < 0:
                tid[p] = len(ts)
                ts.append(1)
                tc.append(c)
                self.n_terr[t] += 1
                self.pts += c
            elif ids is None:
                size, crowns = ts[first], tc[first]
                self.pts += (size + 1) * (crowns + c) - size * crowns
                ts[first] = size + 1
                tc[first] = crowns + c
                tid[p] = first
            else:
                self._merge(p, t, c, ids)
            if t == TOWN:
                self.free_towns.append(p)
            r = p // W
            col = p - r * W
            grown = True  # whether the squares' bounding box grows
            if r < self.min_r:
                self.min_r = r
            elif r > self.max_r:
                self.max_r = r
            else:
                grown = False
            if col < self.min_c:
                self.min_c = col
                grown = True
            elif col > self.max_c:
                self.max_c = col
                grown = True
            if grown:
                self._shrink_frame()
                reach, centre = self.size // 2, self.size
                self.inside = (
                    max(centre - self.min_r, self.max_r - centre, centre - self.min_c, self.max_c - centre) <= reach
                )

    def _merge(self, p: int, t: int, c: int, ids: list[int]) -> None:
        """Square (t, c) on cell p joins the territories `ids` (several) into the largest (the first of them if tied)."""
        tid, ts, tc, W = self.tid, self.t_size, self.t_crowns, self.W
        keep = max(ids, key=ts.__getitem__)
        size, crowns, old = 1, c, 0
        for i in ids:
            size += ts[i]
            crowns += tc[i]
            old += ts[i] * tc[i]
        self.pts += size * crowns - old
        gone = [i for i in ids if i != keep]
        for r in range(self.min_r, self.max_r + 1):
            base = r * W
            for q in range(base + self.min_c, base + self.max_c + 1):
                if tid[q] in gone:
                    tid[q] = keep
        for i in gone:
            ts[i] = 0
            tc[i] = 0
        self.n_terr[t] -= len(gone)
        ts[keep] = size
        tc[keep] = crowns
        tid[p] = keep

    def _shrink_frame(self) -> None:
        s = self.size - 1
        fr0, fr1 = self.max_r - s, self.min_r + s
        fc0, fc1 = self.max_c - s, self.min_c + s
        W, terr, frontier = self.W, self.terr, self.frontier
        rows = [*range(self.fr0, fr0), *range(fr1 + 1, self.fr1 + 1)]
        cols = [*range(self.fc0, fc0), *range(fc1 + 1, self.fc1 + 1)]
        for r in rows:
            for p in range(r * W + self.fc0, r * W + self.fc1 + 1):
                if terr[p] == EMPTY:
                    terr[p] = BLOCKED
                    frontier.discard(p)
        for c in cols:
            for r in range(self.fr0, self.fr1 + 1):
                p = r * W + c
                if terr[p] == EMPTY:
                    terr[p] = BLOCKED
                    frontier.discard(p)
        self.fr0, self.fr1, self.fc0, self.fc1 = fr0, fr1, fc0, fc1

    # -- evaluating placements ----------------------------------------------------------------------------------
    def gain1(self, p: int, t: int, c: int) -> int:
        """Territory points gained by a lone square (t, c) on empty cell p."""
        if not self.adj[p] & (1 << t):
            return c
        terr, tid, ts, tc, W = self.terr, self.tid, self.t_size, self.t_crowns, self.W
        size, crowns, old = 1, c, 0
        seen = []
        for q in (p - 1, p + 1, p - W, p + W):
            if terr[q] == t:
                i = tid[q]
                if i not in seen:
                    seen.append(i)
                    s = ts[i]
                    size += s
                    crowns += tc[i]
                    old += s * tc[i]
        return size * crowns - old

    def gain2(self, a: int, b: int, t: int, ca: int, cb: int) -> int:
        """Territory points gained by two adjacent squares of one terrain t on empty cells a and b."""
        terr, tid, ts, tc, W = self.terr, self.tid, self.t_size, self.t_crowns, self.W
        size, crowns, old = 2, ca + cb, 0
        seen = []
        for p in (a, b):
            for q in (p - 1, p + 1, p - W, p + W):
                if terr[q] == t:
                    i = tid[q]
                    if i not in seen:
                        seen.append(i)
                        s = ts[i]
                        size += s
                        crowns += tc[i]
                        old += s * tc[i]
        return size * crowns - old

    def placements(self, t0: int, c0: int, t1: int, c1: int) -> list[tuple[int, int, int, bool]]:
        """Every legal placement as (territory points gained, cell of square 0, cell of square 1, _).

        The last field is always False (kept for callers that unpack four values). Each orientation appears once;
        when both squares are identical only one of the two mirror orientations is listed.
        """
        return [(g, a, b, False) for g, a, b in self._options(t0, c0, t1, c1, None)]

    def pairs(self) -> list[tuple[int, int, int, int]]:
        """The pairs of empty cells a domino could cover, as (a, terrains next to a, b, terrains next to b), a on
        the frontier, in the order `placements` lists them (each pair once, whatever the domino)."""
        terr, adj, W = self.terr, self.adj, self.W
        out = []
        for a in self.frontier:
            adja = adj[a]
            for b in (a + 1, a - 1, a + W, a - W):
                if terr[b] != EMPTY:
                    continue
                adjb = adj[b]
                if adjb and b < a:
                    continue  # this pair is listed from b's side
                out.append((a, adja, b, adjb))
        return out

    def _options(
        self, t0: int, c0: int, t1: int, c1: int, box: bytes | None, pairs: list | None = None
    ) -> list[tuple[int, int, int]]:
        """`placements` as (points, cell of square 0, cell of square 1), in the same order; with `box`
        (`centre_box`), a placement with a square outside the box loses the Middle Kingdom bonus. `pairs`: this
        kingdom's `pairs()` as it stands, when the caller has them (several dominoes against one kingdom)."""
        if pairs is None:
            pairs = self.pairs()
        b0, b1 = 1 << t0, 1 << t1
        out = []
        if t0 == t1:
            gain2 = self.gain2
            sym = c0 == c1
            for a, adja, b, adjb in pairs:
                if adja & b0 or adjb & b0:
                    off = box is not None and not (box[a] and box[b])
                    g = gain2(a, b, t0, c0, c1)
                    out.append((g - MIDDLE_KINGDOM if off else g, a, b))
                    if not sym:
                        g = gain2(a, b, t0, c1, c0)
                        out.append((g - MIDDLE_KINGDOM if off else g, b, a))
        else:
            # Gains of a lone square on each cell of the frontier (an empty cell next to a square of terrain t
            # is one), for either square: computed once for the up to four placements that use the cell.
            gain1, adj = self.gain1, self.adj
            g0, g1 = {}, {}
            for a in self.frontier:
                adja = adj[a]
                g0[a] = gain1(a, t0, c0) if adja & b0 else c0
                g1[a] = gain1(a, t1, c1) if adja & b1 else c1
            for a, adja, b, adjb in pairs:
                off = box is not None and not (box[a] and box[b])
                # square 0 on a, square 1 on b
                if adja & b0 or adjb & b1:
                    g = g0[a] + (g1[b] if adjb & b1 else c1)
                    out.append((g - MIDDLE_KINGDOM if off else g, a, b))
                # square 1 on a, square 0 on b
                if adja & b1 or adjb & b0:
                    g = g1[a] + (g0[b] if adjb & b0 else c0)
                    out.append((g - MIDDLE_KINGDOM if off else g, b, a))
        self.work += len(self.frontier) + len(out) + CALL_UNITS
        return out

    def holes(self, a: int, b: int) -> int:
        """Empty cells that placing squares on a and b would wall in for good (no empty neighbour left)."""
        terr, W = self.terr, self.W
        count = 0
        for p in (a, b):
            for x in (p - 1, p + 1, p - W, p + W):
                if x in (a, b) or terr[x] != EMPTY:
                    continue
                for y in (x - 1, x + 1, x - W, x + W):
                    if y != a and y != b and terr[y] == EMPTY:
                        break
                else:
                    count += 1
        return count

    def best_placement(
        self,
        t0: int,
        c0: int,
        t1: int,
        c1: int,
        centre: bool = False,
        pairs: list | None = None,
        shape: float = 0.0,
    ) -> tuple[float, int, int] | None:
        """The greedy policy's placement: most territory points, minus HOLE_PENALTY per walled-in cell, and, with
        `centre` (Middle Kingdom in play and still within reach), minus the bonus for leaving the centre box; with
        `shape`, plus `shape` times `shape_bonus` (the medium player's preference for squares that touch their
        terrain and for a compact kingdom), which also breaks the ties between placements of equal points.
        `pairs`: see `_options`."""
        cands = self._options(t0, c0, t1, c1, centre_box(self.size) if centre else None, pairs)
        if not cands:
            return None
        floor = max(cands)[0] - 2 * HOLE_PENALTY
        near = [c for c in cands if c[0] >= floor]
        near.sort(reverse=True)
        best_value, best_a, best_b = -1e9, -1, -1
        holes = self.holes
        if shape:
            reach = shape * MAX_SHAPE_BONUS  # the most a bonus can add: a placement below best - reach cannot win
            weighed = 0
            for g, a, b in near:
                if g + reach <= best_value:
                    break
                weighed += 1
                v = g - HOLE_PENALTY * holes(a, b) + shape * self.shape_bonus(a, t0, b, t1)
                if v > best_value:
                    best_value, best_a, best_b = v, a, b
            self.work += weighed * SHAPE_UNITS
            return best_value, best_a, best_b
        for g, a, b in near:
            if g <= best_value:
                break
            v = g - HOLE_PENALTY * holes(a, b)
            if v > best_value:
                best_value, best_a, best_b = v, a, b
        return best_value, best_a, best_b

    def shape_bonus(self, a: int, ta: int, b: int, tb: int) -> float:
        """Small preferences between placements of squares (ta on cell a, tb on b): 0.25 a point for each square
        of the same terrain they touch (territories to grow), 0.05 for any other square (a compact kingdom)."""
        terr, W = self.terr, self.W
        bonus = 0.0
        for p, t in ((a, ta), (b, tb)):
            for q in (p - 1, p + 1, p - W, p + W):
                tq = terr[q]
                if tq == t:
                    bonus += 0.25
                elif tq >= 0:
                    bonus += 0.05
        return bonus

    # -- economy and score ---------------------------------------------------------------------------------------
    @property
    def knights_owned(self) -> int:
        return self.kres + self.kplaced

    def knights_allowed(self) -> int:
        """Knights this kingdom may still send this round (reserve, within the round's allowance)."""
        return max(0, min(self.kres, KNIGHTS_PER_ROUND - self.ksent))

    def tax_coins(self, p: int) -> int:
        coins = self.t_size[self.tid[p]]
        if self.buildings:
            table = building_table()
            owned = self.kres + self.kplaced
            for _, bid in self.buildings:
                row = table[bid]
                coins += row[2] * owned + row[3] * self.towers
        return coins

    def building_points(self) -> int:
        if not self.buildings:
            return 0
        table = building_table()
        points = 0
        for _, bid in self.buildings:
            _, _, _, _, _, kind, pts, terrain = table[bid]
            if kind == B_FIXED:
                points += pts
            elif kind == B_PER_TERRITORY:
                points += pts * self.n_terr[terrain]
            elif kind == B_PER_TOWER:
                points += pts * self.towers
            elif kind == B_PER_KNIGHT:
                points += pts * (self.kres + self.kplaced)
        return points

    def largest(self) -> int:
        return max(self.t_size, default=0)

    def centred(self) -> bool:
        """Whether the castle is in the centre of the kingdom (Middle Kingdom), as far as its squares tell yet."""
        return self.inside

    def total(self, *, queendomino: bool, queen: bool, middle_kingdom: bool, harmony: bool) -> int:
        total = self.pts
        if queendomino:
            total += self.building_points() + self.coins // 3
            if queen:
                total += self.largest()
        if middle_kingdom and self.centred():
            total += MIDDLE_KINGDOM
        if harmony and not self.discarded:
            total += 5
        return total

    # -- from the engine --------------------------------------------------------------------------------------------
    @classmethod
    def from_engine(cls, kingdom) -> FastKingdom:
        """The model of an engine Kingdom, read through its public reading methods."""
        k = cls(kingdom.size)
        n = 2 * kingdom.size - 1
        # Place squares in an order that keeps every one connected, so that _put maintains the territories:
        # any order works for territories (they are merged as they meet), and the frame is recomputed at the end.
        squares = []
        for r in range(n):
            for c in range(n):
                sq = kingdom.square(r, c)
                if sq is not None:
                    squares.append((k.cell(r, c), TERRAINS.index(sq.terrain), sq.crowns))
        for p, t, c in squares:
            k._put(p, t, c)
        for (r, c), (bid, towers) in sorted(kingdom.buildings.items()):
            p = k.cell(r, c)
            k.free_towns.remove(p)
            k.buildings.append((p, bid))
            k.towers += towers
            crowns = building_table()[bid][4]
            if crowns:
                i = k.tid[p]
                k.pts += k.t_size[i] * crowns
                k.t_crowns[i] += crowns
                k.key ^= CROWN_KEYS[p * 4 + crowns]
        k.kres = kingdom.knights_reserve
        k.kplaced = len(kingdom.knights_placed)
        k.ksent = kingdom.knights_sent_this_round
        k.coins = kingdom.coins
        k.discarded = bool(kingdom.discarded)
        return k


class Sim:
    """A game in the model, from a decision point to the end of the deal, with the greedy policy built in."""

    __slots__ = (
        "board",
        "boxes",
        "cache",
        "cur_dom",
        "cur_king",
        "dragon",
        "first_order",
        "future",
        "harmony",
        "k_supply",
        "king_k",
        "ks",
        "line_size",
        "middle_kingdom",
        "noise",
        "nxt_dom",
        "nxt_king",
        "order_weight",
        "phase",
        "place_noise",
        "placed",
        "plan",
        "qd",
        "queen",
        "quiet",
        "rng",
        "round",
        "rounds",
        "shape",
        "stack",
        "t_supply",
        "turn",
        "turns",
    )

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.ks = [k.copy() for k in self.ks]
        s.king_k = self.king_k
        s.cur_dom, s.cur_king = self.cur_dom[:], self.cur_king[:]
        s.nxt_dom, s.nxt_king = self.nxt_dom[:], self.nxt_king[:]
        s.future = self.future[:]
        s.first_order = self.first_order[:]
        s.turn, s.phase, s.placed, s.round, s.rounds = self.turn, self.phase, self.placed, self.round, self.rounds
        s.qd, s.middle_kingdom, s.harmony = self.qd, self.middle_kingdom, self.harmony
        s.board, s.stack = self.board[:], self.stack[:]
        s.dragon, s.queen, s.k_supply, s.t_supply = self.dragon, self.queen, self.k_supply, self.t_supply
        s.boxes, s.line_size = self.boxes, self.line_size
        s.plan = dict(self.plan)
        s.turns = self.turns
        s.rng, s.noise, s.order_weight, s.quiet = self.rng, self.noise, self.order_weight, self.quiet
        s.shape = self.shape
        s.place_noise = self.place_noise
        s.cache = self.cache
        return s

    # -- from the engine --------------------------------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Game) -> Sim:
        """The visible state of `game` at its current decision. The future (lines, stack) is left empty: call
        `determinize` for a copy with a sampled future."""
        d = game.decision()
        if d is None:
            raise ValueError("The game is over: there is nothing to simulate.")
        s = cls.__new__(cls)
        setup = game.setup
        s.ks = [FastKingdom.from_engine(k) for k in game.kingdoms]
        s.king_k = tuple(k.kingdom for k in game.kings)
        s.cur_dom = [dom for dom, _ in game.current_line]
        s.cur_king = [-1 if king is None else king for _, king in game.current_line]
        s.nxt_dom = [dom for dom, _ in game.next_line]
        s.nxt_king = [-1 if king is None else king for _, king in game.next_line]
        s.future = []
        s.phase = PHASE_OF[d.kind]
        s.round = game.round
        s.rounds = setup.rounds
        s.boxes = setup.boxes
        s.line_size = setup.line_size
        s.qd = setup.queendomino_rules
        s.middle_kingdom = "middle-kingdom" in game.config.variants
        s.harmony = "harmony" in game.config.variants
        s.plan = {}
        s.turns = 0
        s.rng = None  # with `noise`, the playout policy's claims get uniform noise of up to `noise` points
        s.noise = 0.0
        s.quiet = -1  # a kingdom whose claims get no noise (the searching player's own), or -1
        s.order_weight = 0.0  # points the playout policy's claims give for choosing first in the next line
        s.shape = 0.0  # weight of `FastKingdom.shape_bonus` in the playout policy's placements (0: none)
        s.place_noise = 0.0  # points of noise on the playout policy's placements (not the quiet kingdom's)
        s.cache = None  # a dict to remember the greedy placements in (shared by the copies; see `best_placement`)
        s.placed = None
        if s.phase == P_FIRST:
            s.turn = 0
            s.first_order = [d.king]  # the rest is drawn at random by `determinize`
        else:
            s.turn = s.cur_king.index(d.king)
            s.first_order = []
            if s.phase == P_TAX:
                k = game.kingdoms[d.kingdom]
                cells = k.placed[-1][1]
                s.placed = tuple(s.ks[d.kingdom].cell(r, c) for r, c in cells)
        s.board = list(game.board)
        s.stack = []
        s.dragon = game.dragon_slot
        s.queen = game.queen
        s.k_supply = game.knights_supply
        s.t_supply = game.towers_supply
        return s

    def lines_drawn(self) -> int:
        if self.phase == P_FIRST:
            return 1
        return self.round + (1 if self.nxt_dom else 0)

    def determinize(
        self, game: Game, rng: random.Random, unseen: list[str] | None = None, stack: list[str] | None = None
    ) -> Sim:
        """A copy with a future drawn at random among what nobody has seen: the lines still to come (from
        `game.unseen_dominoes()`), the building stack (every building not on the board, built or burned:
        `unseen_buildings`), and the order of the kings still to choose in the first line. `unseen` and `stack`:
        those two lists when the caller read them already (they are not changed)."""
        s = self.copy()
        pools: dict[str, list[str]] = {box: [] for box in s.boxes}
        for dom in game.unseen_dominoes() if unseen is None else unseen:
            pools[dom[0]].append(dom)
        for pool in pools.values():
            rng.shuffle(pool)
        numbers = domino_table()
        future = []
        for i in range(s.lines_drawn(), s.rounds):
            pool = pools[s.boxes[i % len(s.boxes)]]
            line, pool[:] = pool[: s.line_size], pool[s.line_size :]
            future.append(sorted(line, key=lambda x: numbers[x][4]))
        s.future = future
        if s.qd:
            s.stack = unseen_buildings(game) if stack is None else stack[:]
            rng.shuffle(s.stack)
        if s.phase == P_FIRST:
            s.first_order = [s.first_order[0], *first_claim_rest(game, rng)]
        return s

    # -- reading ----------------------------------------------------------------------------------------------------
    def totals(self) -> list[int]:
        return [
            k.total(
                queendomino=self.qd, queen=self.queen == i, middle_kingdom=self.middle_kingdom, harmony=self.harmony
            )
            for i, k in enumerate(self.ks)
        ]

    def acting_king(self) -> int:
        if self.phase == P_FIRST:
            return self.first_order[self.turn]
        return self.cur_king[self.turn]

    def rounds_left(self) -> int:
        """Rounds still to play after the current one."""
        return self.rounds - max(self.round, 1)

    def cost_of(self, slot: int, kingdom: int) -> int:
        return building_costs(self.queen == kingdom)[slot]

    def dragon_allowed(self, kingdom: int) -> bool:
        return (
            self.dragon is None
            and self.queen != kingdom
            and self.ks[kingdom].coins >= builders_board_spec().dragon_bribe
            and any(b is not None for b in self.board)
        )

    def can_build(self, kingdom: int) -> bool:
        k = self.ks[kingdom]
        if not k.free_towns:
            return False
        costs, coins = building_costs(self.queen == kingdom), k.coins
        return any(b is not None and costs[s] <= coins for s, b in enumerate(self.board))

    # -- applying actions (the same steps as the engine) ---------------------------------------------------------------
    def claim(self, dom: str) -> None:
        king = self.acting_king()
        if self.phase == P_FIRST:
            self.cur_king[self.cur_dom.index(dom)] = king
            self.turn += 1
            if self.turn >= len(self.first_order):
                # More dominoes than kings: the first line's leftovers leave the game.
                self.cur_dom = [d for d, k in zip(self.cur_dom, self.cur_king, strict=True) if k >= 0]
                self.cur_king = [k for k in self.cur_king if k >= 0]
                self._draw_next()
                self.round = 1
                self._start_turn(0)
            return
        self.nxt_king[self.nxt_dom.index(dom)] = king
        self._start_turn(self.turn + 1)

    def place(self, a: int, ta: int, ca: int, b: int, tb: int, cb: int) -> None:
        """Place the acting king's domino: square (ta, ca) on cell a, (tb, cb) on b."""
        ki = self.king_k[self.cur_king[self.turn]]
        self.ks[ki].place(a, ta, ca, b, tb, cb)
        self.placed = (a, b)
        self._next_phase(P_PLACE, ki)

    def discard(self) -> None:
        """The acting king's domino has no legal placement."""
        ki = self.king_k[self.cur_king[self.turn]]
        self.ks[ki].discarded = True
        self.placed = None
        self._next_phase(P_PLACE, ki)

    def tax(self, cells: tuple[int, ...]) -> None:
        ki = self.king_k[self.cur_king[self.turn]]
        k = self.ks[ki]
        coins = sum(k.tax_coins(p) for p in cells)
        k.kres -= len(cells)
        k.kplaced += len(cells)
        k.ksent += len(cells)
        k.coins += coins
        self._next_phase(P_TAX, ki)

    def build(self, slot: int, cell: int) -> None:
        ki = self.king_k[self.cur_king[self.turn]]
        k = self.ks[ki]
        bid = self.board[slot]
        knights, towers, _, _, crowns, _, _, _ = building_table()[bid]  # type: ignore[index]
        knights = min(knights, self.k_supply)
        towers = min(towers, self.t_supply)
        k.coins -= self.cost_of(slot, ki)
        self.board[slot] = None
        k.free_towns.remove(cell)
        k.buildings.append((cell, bid))  # type: ignore[arg-type]
        k.kres += knights
        k.towers += towers
        self.k_supply -= knights
        self.t_supply -= towers
        if crowns:
            i = k.tid[cell]
            k.pts += k.t_size[i] * crowns
            k.t_crowns[i] += crowns
            k.version += 1
            k.key ^= CROWN_KEYS[cell * 4 + crowns]
        if towers and self.queen != ki:
            most = max(o.towers for i, o in enumerate(self.ks) if i != ki)
            if k.towers >= most:
                self.queen = ki
        self._next_phase(P_BUILD, ki)

    def bribe_dragon(self, slot: int) -> None:
        ki = self.king_k[self.cur_king[self.turn]]
        self.board[slot] = None
        self.dragon = slot
        self.ks[ki].coins -= builders_board_spec().dragon_bribe
        self._next_phase(P_DRAGON, ki)

    def skip(self) -> None:
        ki = self.king_k[self.cur_king[self.turn]]
        self._next_phase(self.phase, ki)

    def _next_phase(self, phase: int, ki: int) -> None:
        if self.qd:
            if phase < P_TAX and self.placed is not None and self.ks[ki].knights_allowed() > 0:
                self.phase = P_TAX
                return
            if phase < P_BUILD and self.can_build(ki):
                self.phase = P_BUILD
                return
            if phase < P_DRAGON and self.dragon_allowed(ki):
                self.phase = P_DRAGON
                return
        if phase < P_CLAIM and self.nxt_dom:
            self.phase = P_CLAIM
            return
        self._start_turn(self.turn + 1)

    def _start_turn(self, position: int) -> None:
        while True:
            cur_king = self.cur_king
            while position < len(cur_king) and cur_king[position] < 0:
                position += 1
            if position < len(cur_king):
                self.turn = position
                self.phase = P_PLACE
                self.placed = None
                self.turns += 1
                return
            if not self._end_round():
                return
            position = 0

    def _end_round(self) -> bool:
        """End the round; False when the deal is over."""
        if self.qd:
            self.dragon = None
            for k in self.ks:
                k.ksent = 0
            remaining = [b for b in self.board if b is not None]
            self.board = [None] * (len(self.board) - len(remaining)) + remaining
            for slot in range(len(self.board) - 1, -1, -1):
                if self.board[slot] is None and self.stack:
                    self.board[slot] = self.stack.pop(0)
        if not self.nxt_dom:
            self.phase = P_OVER
            return False
        self.cur_dom = [d for d, k in zip(self.nxt_dom, self.nxt_king, strict=True) if k >= 0]
        self.cur_king = [k for k in self.nxt_king if k >= 0]
        self._draw_next()
        self.round += 1
        return True

    def _draw_next(self) -> None:
        line = self.future.pop(0) if self.future else []
        self.nxt_dom = line
        self.nxt_king = [-1] * len(line)

    # -- the greedy policy ------------------------------------------------------------------------------------------------
    def policy_step(self) -> None:
        """Take the greedy policy's action for the decision at hand."""
        phase = self.phase
        if phase == P_PLACE:
            cells = self.policy_place()
            if cells is None:
                self.discard()
            else:
                t0, c0, t1, c1, _ = DOMINOES[self.cur_dom[self.turn]]
                self.place(cells[0], t0, c0, cells[1], t1, c1)
        elif phase in (P_CLAIM, P_FIRST):
            dom, plan = self.policy_claim()
            if plan is not None:
                self.plan[self.acting_king()] = plan
            self.claim(dom)
        elif phase == P_TAX:
            cells = self.policy_tax()
            if cells:
                self.tax(cells)
            else:
                self.skip()
        elif phase == P_BUILD:
            choice = self.policy_build()
            if choice is None:
                self.skip()
            else:
                self.build(*choice)
        elif phase == P_DRAGON:
            self.skip()

    def playout(self, until_round: int | None = None) -> None:
        """Play to the end of the deal with the greedy policy (with `until_round`, only until that round starts)."""
        step = self.policy_step
        if until_round is None:
            while self.phase != P_OVER:
                step()
        else:
            while self.phase != P_OVER and self.round < until_round:
                step()

    def policy_place(self) -> tuple[int, int] | None:
        """Cells for squares 0 and 1 of the acting king's domino, or None when it cannot be placed."""
        king = self.cur_king[self.turn]
        ki = self.king_k[king]
        k = self.ks[ki]
        plan = self.plan.pop(king, None)
        if self.place_noise and ki != self.quiet and self.rng is not None:
            return self.noisy_placement(k, self.cur_dom[self.turn], self.middle_kingdom and k.inside)
        if plan is not None and plan[0] == k.version:
            return None if plan[1] < 0 else (plan[1], plan[2])
        best = self.best_placement(k, self.cur_dom[self.turn], self.middle_kingdom and k.inside)
        return None if best is None else (best[1], best[2])

    def noisy_placement(self, k: FastKingdom, dom: str, centre: bool) -> tuple[int, int] | None:
        """The greedy placement's judgement (`FastKingdom.best_placement`: points, holes, the centre, `shape`) with
        uniform noise of up to `place_noise` points on each placement, drawn from `rng`: a rival whose placements
        are not exactly predictable. Not remembered in `cache` (the noise differs every time)."""
        t0, c0, t1, c1, _ = DOMINOES[dom]
        cands = k._options(t0, c0, t1, c1, centre_box(k.size) if centre else None)
        if not cands:
            return None
        cands.sort(reverse=True)
        noise, shape, rand = self.place_noise, self.shape, self.rng.random
        reach = noise + shape * MAX_SHAPE_BONUS
        best_value, cells = -1e9, None
        for g, a, b in cands:
            if g + reach <= best_value:
                break
            v = g - HOLE_PENALTY * k.holes(a, b) + rand() * noise
            if shape:
                v += shape * k.shape_bonus(a, t0, b, t1)
            if v > best_value:
                best_value, cells = v, (a, b)
        k.work += len(cands)  # sorting them and weighing the best
        return cells

    def best_placement(self, k: FastKingdom, dom: str, centre: bool) -> tuple[float, int, int] | None:
        """`k.best_placement` of `dom`, remembered in `cache` (when set) under the kingdom's key: a search's
        playouts meet the same kingdoms and dominoes again and again. A hit costs CACHE_UNITS of work."""
        cache = self.cache
        if cache is None:
            t0, c0, t1, c1, _ = DOMINOES[dom]
            return k.best_placement(t0, c0, t1, c1, centre, None, self.shape)
        key = (k.key, dom, centre)
        try:
            found = cache[key]
        except KeyError:
            t0, c0, t1, c1, _ = DOMINOES[dom]
            found = cache[key] = k.best_placement(t0, c0, t1, c1, centre, None, self.shape)
        else:
            k.work += CACHE_UNITS
        return found

    def policy_claim(self) -> tuple[str, tuple[int, int, int] | None]:
        """The free domino whose best placement in the kingdom as it stands gains most, and that placement
        (kingdom version, cell 0, cell 1) for next round."""
        phase = self.phase
        if phase == P_FIRST:
            king = self.first_order[self.turn]
            doms, kings = self.cur_dom, self.cur_king
        else:
            king = self.cur_king[self.turn]
            doms, kings = self.nxt_dom, self.nxt_king
        ki = self.king_k[king]
        k = self.ks[ki]
        centre = self.middle_kingdom and k.inside
        best_value, best_dom, best_found = -1e9, "", None
        noise = self.noise
        rand = self.rng.random if noise and ki != self.quiet else None
        last = phase == P_CLAIM and not self.future  # the order of the last round does not matter
        step = self.order_weight / (len(doms) - 1) if len(doms) > 1 and not last else 0.0
        bonus = step * len(doms)
        cache, qd, shape = self.cache, self.qd, self.shape
        key0 = k.key
        pairs = None
        for dom, owner in zip(doms, kings, strict=True):
            bonus -= step
            if owner >= 0:
                continue
            # What `best_placement` does, inline (this loop is the playouts' busiest).
            if cache is None:
                t0, c0, t1, c1, _ = DOMINOES[dom]
                found = k.best_placement(t0, c0, t1, c1, centre, None, shape)
            else:
                key = (key0, dom, centre)
                try:
                    found = cache[key]
                except KeyError:
                    if pairs is None:
                        pairs = k.pairs()  # the same for every domino of the line (the kingdom does not change)
                    t0, c0, t1, c1, _ = DOMINOES[dom]
                    found = cache[key] = k.best_placement(t0, c0, t1, c1, centre, pairs, shape)
                else:
                    k.work += CACHE_UNITS
            if found is None:
                value = -5.0
            else:
                value = found[0]
                if qd:
                    t0, _, t1, _, _ = DOMINOES[dom]
                    if t0 == TOWN or t1 == TOWN:
                        value += ((t0 == TOWN) + (t1 == TOWN)) * self.town_site_value(k)
            value += bonus
            if rand is not None:
                value += rand() * noise
            if value > best_value:
                best_value, best_dom, best_found = value, dom, found
        if phase != P_CLAIM:
            return best_dom, None
        if best_found is None:
            return best_dom, (k.version, -1, -1)
        return best_dom, (k.version, best_found[1], best_found[2])

    def town_site_value(self, k: FastKingdom) -> float:
        """What one more free town square (a place to build) is worth to kingdom k, in points."""
        free = len(k.free_towns)
        if free >= 3 or (not any(self.board) and not self.stack):
            return 0.2
        return 2.0 if free == 0 else 1.0

    def policy_tax(self) -> tuple[int, ...]:
        ki = self.king_k[self.cur_king[self.turn]]
        k = self.ks[ki]
        allowed = k.knights_allowed()
        if self.placed is None or allowed <= 0:
            return ()
        a, b = self.placed
        ca, cb = k.tax_coins(a), k.tax_coins(b)
        left = self.rounds_left()
        threshold = 1 if left <= 1 else (3 if left <= 4 else 4)
        if allowed >= 2 and min(ca, cb) >= threshold and (k.kres >= 3 or left <= 3):
            return (a, b)
        best, coins = (a, ca) if ca >= cb else (b, cb)
        if coins >= threshold or k.kres >= 3:
            return (best,)
        return ()

    def building_value(self, ki: int, bid: str) -> float:
        """Rough points a building is worth to kingdom ki if built now (before its cost): its own points, its
        crowns, what its knights should collect, the queen its towers may bring, and what it adds to the kingdom's
        other buildings."""
        k = self.ks[ki]
        table = building_table()
        knights, towers, per_knight_tax, per_tower_tax, crowns, kind, pts, terrain = table[bid]
        knights = min(knights, self.k_supply)
        towers = min(towers, self.t_supply)
        left = self.rounds_left()
        owned = k.kres + k.kplaced
        value = 0.0
        if kind == B_FIXED:
            value += pts
        elif kind == B_PER_TERRITORY:
            value += pts * (k.n_terr[terrain] + (0.5 if left >= 3 else 0))
        elif kind == B_PER_TOWER:
            value += pts * (k.towers + towers + (1 if left >= 3 else 0))
        elif kind == B_PER_KNIGHT:
            value += pts * (owned + knights + (1 if left >= 3 else 0))
        if crowns:
            town = max((k.t_size[k.tid[p]] for p in k.free_towns), default=0)
            value += crowns * (town + min(2, left))
        if knights or towers:
            for _, other in k.buildings:  # buildings scoring per knight or per tower
                row = table[other]
                if row[5] == B_PER_KNIGHT:
                    value += row[6] * knights
                elif row[5] == B_PER_TOWER:
                    value += row[6] * towers
        if knights and left >= 1:
            # A knight collects a territory's size in coins on some later turn (a third of a point per coin).
            value += knights * min(2.0, 0.5 * left)
        if towers:
            if self.queen == ki:
                value += 0.5 * towers  # keeps her
            else:
                most = max((o.towers for i, o in enumerate(self.ks) if i != ki), default=0)
                if k.towers + towers >= most:
                    value += 0.7 * (k.largest() + min(3, left)) + 0.5 * min(3, left)
                else:
                    value += 0.5 * towers
        if per_knight_tax:
            value += per_knight_tax * (owned + 1) * min(k.kres + 1, left) / 3
        if per_tower_tax:
            value += per_tower_tax * (k.towers + towers) * min(k.kres + 1, left) / 3
        return value

    def policy_build(self) -> tuple[int, int] | None:
        ki = self.king_k[self.cur_king[self.turn]]
        k = self.ks[ki]
        if not k.free_towns:
            return None
        best_value, best_slot = 0.0, -1
        costs = building_costs(self.queen == ki)
        for slot, bid in enumerate(self.board):
            if bid is None:
                continue
            cost = costs[slot]
            if cost > k.coins:
                continue
            value = self.building_value(ki, bid) - cost * COIN_VALUE
            if value > best_value:
                best_value, best_slot = value, slot
        if best_slot < 0:
            return None
        return best_slot, self.town_cell_for(ki, self.board[best_slot])  # type: ignore[arg-type]

    def town_cell_for(self, ki: int, bid: str) -> int:
        """Where to build: a crown building in the largest town territory, anything else in the smallest."""
        k = self.ks[ki]
        crowns = building_table()[bid][4]
        sizes = [(k.t_size[k.tid[p]], p) for p in k.free_towns]
        return max(sizes)[1] if crowns else min(sizes)[1]


def unseen_buildings(game: Game) -> list[str]:
    """Buildings still in the stack, as a sorted multiset (every card not on the board, burned or built)."""
    counts = {b.id: b.copies for b in building_types().values()}
    seen = [b for b in game.board if b is not None] + list(game.burned)
    for k in game.kingdoms:
        seen.extend(bid for bid, _ in k.buildings.values())
    for bid in seen:
        counts[bid] -= 1
    return [bid for bid, n in sorted(counts.items()) for _ in range(max(0, n))]


def first_claim_rest(game: Game, rng: random.Random) -> list[int]:
    """The kings still to choose in the first line after the acting one, in a random order that follows the rules
    (Queendomino with 2 players: A, B, B, A is fixed once the first king is known)."""
    d = game.decision()
    assert d is not None
    placed = {king for _, king in game.current_line if king is not None}
    rest = [k.index for k in game.kings if k.index not in placed and k.index != d.king]
    if game.config.game == "queendomino" and len(game.config.players) == 2:
        # Order A, B, B, A: the acting king's position tells who is A.
        done = len(placed)
        acting = game.kings[d.king].player
        first = acting if done in (0, 3) else next(p for p in game.config.players if p != acting)
        seats = ["A", "B", "B", "A"][done + 1 :]
        order = []
        pool = list(rest)
        for seat in seats:
            want_first = seat == "A"
            pick = next(k for k in pool if (game.kings[k].player == first) == want_first)
            pool.remove(pick)
            order.append(pick)
        return order
    rng.shuffle(rest)
    return rest


_DIRECTION_NAMES = {1: "right", -1: "left"}


def place_action(k: FastKingdom, a: int, b: int) -> Place:
    """The engine action putting square 0 on model cell a and square 1 on b."""
    r, c = k.rowcol(a)
    step = b - a
    direction = _DIRECTION_NAMES.get(step) or ("down" if step == k.W else "up")
    return Place(r, c, direction)


def place_cells(k: FastKingdom, action: Place) -> tuple[int, int]:
    """Model cells (square 0, square 1) of an engine Place action."""
    (r0, c0), (r1, c1) = action.placement.cells
    return k.cell(r0, c0), k.cell(r1, c1)


def apply_action(sim: Sim, action: Action) -> None:
    """Apply an engine action (legal in the game the sim was read from) to the sim."""
    if isinstance(action, Claim):
        sim.claim(action.domino)
    elif isinstance(action, Place):
        k = sim.ks[sim.king_k[sim.acting_king()]]
        a, b = place_cells(k, action)
        t0, c0, t1, c1, _ = domino_table()[sim.cur_dom[sim.turn]]
        sim.place(a, t0, c0, b, t1, c1)
    elif isinstance(action, Tax):
        k = sim.ks[sim.king_k[sim.acting_king()]]
        sim.tax(tuple(k.cell(r, c) for r, c in action.cells))
    elif isinstance(action, Build):
        k = sim.ks[sim.king_k[sim.acting_king()]]
        sim.build(action.slot, k.cell(action.row, action.col))
    elif isinstance(action, BribeDragon):
        sim.bribe_dragon(action.slot)
    elif isinstance(action, Skip):
        sim.skip()
    else:  # pragma: no cover
        raise TypeError(f"Not an action: {action!r}")
