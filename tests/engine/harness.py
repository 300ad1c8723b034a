"""Play random games while checking every rule the engine must keep, against the independent model."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field

from engine import (
    BUILD,
    CLAIM,
    DRAGON,
    FIRST_CLAIM,
    PLACE,
    TAX,
    BribeDragon,
    Build,
    Claim,
    Game,
    GameConfig,
    IllegalAction,
    Place,
    Skip,
    Tax,
)

from . import independent as ind

BUILDING_CARDS = Counter({b["id"]: b["copies"] for b in ind.BUILDINGS.values()})

# name -> (game, players, variants, teams)
MODES: dict[str, tuple[str, int, tuple[str, ...], bool]] = {
    "kingdomino-2": ("kingdomino", 2, (), False),
    "kingdomino-3": ("kingdomino", 3, (), False),
    "kingdomino-3-bga": ("kingdomino", 3, ("three-player-four-dominoes",), False),
    "kingdomino-4": ("kingdomino", 4, (), False),
    "mighty-duel": ("kingdomino", 2, ("mighty-duel",), False),
    "queendomino-2": ("queendomino", 2, (), False),
    "queendomino-3": ("queendomino", 3, (), False),
    "queendomino-4": ("queendomino", 4, (), False),
    "royal-wedding-3": ("royal-wedding", 3, (), False),
    "royal-wedding-4": ("royal-wedding", 4, (), False),
    "royal-wedding-5": ("royal-wedding", 5, (), False),
    "royal-wedding-6": ("royal-wedding", 6, (), False),
    "royal-wedding-7": ("royal-wedding", 7, (), False),
    "teams-6": ("royal-wedding", 6, (), True),
    "teams-8": ("royal-wedding", 8, (), True),
}


# The set-up table of RULES.md, per mode:
# mode: (boxes, dominoes used, line size, kings per player, kingdom size, rounds, queendomino rules, discard unclaimed)
SETUPS = {
    "kingdomino-2": (("K",), 24, 4, 2, 5, 6, False, False),
    "kingdomino-3": (("K",), 36, 3, 1, 5, 12, False, False),
    "kingdomino-3-bga": (("K",), 48, 4, 1, 5, 12, False, True),
    "kingdomino-4": (("K",), 48, 4, 1, 5, 12, False, False),
    "mighty-duel": (("K",), 48, 4, 2, 7, 12, False, False),
    "queendomino-2": (("Q",), 48, 4, 2, 7, 12, True, False),
    "queendomino-3": (("Q",), 48, 4, 1, 5, 12, True, True),
    "queendomino-4": (("Q",), 48, 4, 1, 5, 12, True, False),
    "royal-wedding-3": (("Q", "K"), 96, 4, 1, 7, 24, True, True),
    "royal-wedding-4": (("Q", "K"), 96, 4, 1, 7, 24, True, False),
    "royal-wedding-5": (("Q", "K"), 96, 8, 1, 5, 12, True, True),
    "royal-wedding-6": (("Q", "K"), 96, 8, 1, 5, 12, True, True),
    "royal-wedding-7": (("Q", "K"), 96, 8, 1, 5, 12, True, True),
    "teams-6": (("Q", "K"), 96, 8, 1, 7, 12, True, True),
    "teams-8": (("Q", "K"), 96, 8, 1, 7, 12, True, False),
}


def players(n: int) -> tuple[str, ...]:
    return tuple(f"p{i + 1}" for i in range(n))


def config(mode: str, variants: tuple[str, ...] = ()) -> GameConfig:
    game, n, base, teams = MODES[mode]
    ids = players(n)
    pairs = tuple((ids[i], ids[i + 1]) for i in range(0, n, 2)) if teams else None
    return GameConfig(game, ids, frozenset(base + variants), pairs)


@dataclass
class Stats:
    """What a checked game went through, so tests can make sure the interesting cases happened."""

    kinds: Counter = field(default_factory=Counter)  # decisions and events seen

    def add(self, key: str) -> None:
        self.kinds[key] += 1


def random_choice(rng: random.Random):
    def choose(game: Game):
        return rng.choice(game.legal_actions())

    return choose


def play_checked(
    cfg: GameConfig,
    seed: int,
    *,
    choose=None,
    compare_legal_sets: bool = False,
    probe_illegal: float = 0.0,
    check_replay: bool = False,
    stats: Stats | None = None,
) -> Game:
    """Play a whole game (random legal actions unless `choose` is given), checking the rules at every step.

    compare_legal_sets: compare every list of legal placements with a brute-force enumeration.
    probe_illegal: the share of decisions at which a few illegal actions are tried (state must not change).
    check_replay: at the end, JSON round trip and Game.replay must reproduce `to_dict()` exactly.
    """
    rng = random.Random(f"actions:{seed}")
    probe_rng = random.Random(f"probes:{seed}")
    stats = stats if stats is not None else Stats()
    setup = cfg.setup
    size = setup.kingdom_size
    qd = setup.queendomino_rules
    variants = cfg.variants
    game = Game.new(cfg, seed)
    kings_of = Counter(k.kingdom for k in game.kings)
    team_of = {p: i for i, members in enumerate(cfg.kingdom_members) for p in members}
    all_ids = sorted(i for i in ind.DOMINOES if i[0] in setup.boxes)

    models = [ind.new_grid(size) for _ in game.kingdoms]
    just_placed: dict[int, tuple] = {}
    handled: list[str] = []  # dominoes placed or discarded in the current round, in turn order
    rounds_ended = 0
    claims = 0
    dragons: Counter = Counter()

    def check_end_of_deal(kingdoms, queen, removed, totals) -> list[tuple[int, int]]:
        """Check a finished deal; return each kingdom's tie-break keys, computed independently."""
        nonlocal models, rounds_ended, claims
        keys = []
        assert rounds_ended == setup.rounds, f"{rounds_ended} rounds instead of {setup.rounds}"
        assert claims == len(game.kings) * setup.rounds, f"{claims} claims"
        seen = [d for k in kingdoms for d, _ in k.placed] + [d for k in kingdoms for d in k.discarded] + removed
        dup = [d for d, n in Counter(seen).items() if n > 1]
        assert not dup, f"dominoes seen twice: {dup}"
        assert sorted(seen) == all_ids, "some domino went missing"
        for i, k in enumerate(kingdoms):
            assert len(k.placed) + len(k.discarded) == kings_of[i] * setup.rounds
            grid = models[i]
            assert ind.fits(grid, size), "kingdom outside its frame"
            assert k.text_rows() == ind.rows_of(grid), "engine grid differs from the placements made"
            buildings = {cell: b[0] for cell, b in k.buildings.items()}
            assert all(grid[c][0] == "town" for c in buildings), "a building off a town square"
            assert len(set(k.knights_placed)) == len(k.knights_placed), "two knights on one square"
            assert all(c in grid and grid[c][0] != ind.CASTLE for c in k.knights_placed)
            expected = ind.score(
                grid,
                size,
                queendomino=qd,
                buildings=buildings,
                towers=sum(b[1] for b in k.buildings.values()),
                knights=k.knights_reserve + len(k.knights_placed),
                coins=k.coins,
                queen=queen == i,
                middle_kingdom="middle-kingdom" in variants,
                harmony="harmony" in variants,
                discards=len(k.discarded),
            )
            assert totals[i] == expected["total"], f"kingdom {i}: engine {totals[i]}, independent {expected}"
            keys.append((expected["largest"], k.coins % 3 if qd else expected["crowns"]))
        models = [ind.new_grid(size) for _ in game.kingdoms]
        rounds_ended = 0
        claims = 0
        return keys

    while not game.is_over:
        d = game.decision()
        king = game.kings[d.king]
        assert d.player == king.player and d.kingdom == king.kingdom == team_of[d.player]
        actions = game.legal_actions()
        assert actions, f"no legal action for {d}"
        stats.add(d.kind)
        k = game.kingdoms[d.kingdom]
        if d.kind == PLACE:
            handled.append(d.domino)
            if compare_legal_sets:
                got = {(a.row, a.col, a.direction) for a in actions}
                assert got == ind.all_legal(models[d.kingdom], size, d.domino), f"legal placements of {d.domino}"
        elif d.kind == CLAIM:
            assert not game.is_last_round, "a claim in the last round"
        elif d.kind == DRAGON:
            assert game.dragon_slot is None and game.queen != d.kingdom and k.coins >= 1
        elif d.kind == TAX:
            assert k.knights_reserve > 0 and game.placed_this_turn == just_placed[d.kingdom]
            assert k.knights_sent_this_round < 2, "a tax step with the round's two knights already sent"
        if probe_illegal and probe_rng.random() < probe_illegal:
            _probe(game, d, actions, probe_rng, stats)

        action = choose(game) if choose else rng.choice(actions)
        before = {
            "coins": k.coins,
            "reserve": k.knights_reserve,
            "placed_knights": len(k.knights_placed),
            "knights_supply": game.knights_supply,
            "towers_supply": game.towers_supply,
            "board": list(game.board),
            "stack": list(game.stack),
            "queen": game.queen,
            "kingdoms": game.kingdoms,
            "removed": game.removed,
            "deal": game.deal,
            "round": game.round,
            "buildings": {cell: b[0] for cell, b in k.buildings.items()},
            "towers": sum(b[1] for b in k.buildings.values()),
        }
        expect_coins = None
        if isinstance(action, Place):
            assert ind.is_legal(models[d.kingdom], size, d.domino, (action.row, action.col), action.direction), (
                f"engine offered an illegal placement {action.text} of {d.domino}"
            )
        elif isinstance(action, Tax):
            cells = just_placed[d.kingdom]
            assert set(action.cells) <= set(cells) and len(set(action.cells)) == len(action.cells)
            bonus = sum(
                ind.BUILDINGS[b]["permanent"]["coins_per_knight_on_tax"]
                * (before["reserve"] + before["placed_knights"])
                + ind.BUILDINGS[b]["permanent"]["coins_per_tower_on_tax"] * before["towers"]
                for b in before["buildings"].values()
            )
            expect_coins = k.coins + sum(ind.territory_size(models[d.kingdom], c) + bonus for c in action.cells)
        elif isinstance(action, Build):
            cell = (action.row, action.col)
            assert models[d.kingdom][cell][0] == "town" and cell not in k.buildings
            discount = 1 if game.queen == d.kingdom else 0
            expect_coins = k.coins - max(0, ind.COSTS[action.slot] - discount)
        elif isinstance(action, BribeDragon):
            expect_coins = k.coins - 1
            dragons[(game.deal, game.round)] += 1

        events = game.apply(action, by=d.player)
        if isinstance(action, Claim):
            claims += 1
        kinds = [e.kind for e in events]
        stats.kinds.update(f"event:{e}" for e in kinds)
        ended_deal = "deal_end" in kinds or "game_over" in kinds
        one_round = kinds.count("round_end") == 1 and not ended_deal

        # The acting kingdom, as the action left it (a deal may have ended since: then it is in the old list).
        k = before["kingdoms"][d.kingdom]
        if isinstance(action, Place):
            just_placed[d.kingdom] = ind.put(models[d.kingdom], d.domino, (action.row, action.col), action.direction)
        elif isinstance(action, Tax):
            assert k.coins == expect_coins, f"tax paid {k.coins - before['coins']}, expected {expect_coins}"
            assert k.knights_reserve == before["reserve"] - len(action.cells)
            assert k.knights_placed[-len(action.cells) :] == list(action.cells)
        elif isinstance(action, Build):
            bid = before["board"][action.slot]
            assert bid is not None and k.coins == expect_coins
            assert k.buildings[(action.row, action.col)][0] == bid
            data = ind.BUILDINGS[bid]["immediate"]
            gained = min(data["knights"], before["knights_supply"])
            assert k.knights_reserve == before["reserve"] + gained
            assert k.buildings[(action.row, action.col)][1] == min(data["towers"], before["towers_supply"])
            if not ended_deal:
                assert game.knights_supply == before["knights_supply"] - gained
            if "round_end" not in kinds:
                assert game.board[action.slot] is None, "a bought building's slot is refilled before the round ends"
        elif isinstance(action, BribeDragon):
            assert k.coins == expect_coins and before["board"][action.slot] is not None
            assert dragons[(before["deal"], before["round"])] == 1, "the dragon flew twice in a round"
            if "round_end" not in kinds:
                assert game.dragon_slot == action.slot and game.board[action.slot] is None
        elif isinstance(action, Skip):
            assert d.kind in (TAX, BUILD, DRAGON)

        # Invariants of every state.
        for other in before["kingdoms"]:
            assert other.coins >= 0 and other.knights_reserve >= 0
        assert game.knights_supply >= 0 and game.towers_supply >= 0
        queen = before["queen"]
        for e in events:
            if e.kind == "queen":
                queen = team_of[e.player]
        if qd and not ended_deal:
            cards = [b for b in game.board if b] + game.stack + game.burned
            cards += [b[0] for x in game.kingdoms for b in x.buildings.values()]
            assert Counter(cards) == BUILDING_CARDS, "a building card appeared or vanished"
        if not ended_deal:
            assert queen == game.queen
            towers = [sum(b[1] for b in x.buildings.values()) for x in game.kingdoms]
            if max(towers) > 0:
                assert game.queen is not None and towers[game.queen] == max(towers), (
                    "the queen is not with the most towers"
                )
            else:
                assert game.queen is None

        for e in events:
            if e.kind == "discarded":
                kingdom = team_of[e.player]
                dom = e.data["domino"]
                handled.append(dom)
                assert e.text and "discarded" in e.text
                assert not ind.any_legal(models[kingdom], size, dom), f"{dom} discarded though it had a legal place"
                just_placed.pop(kingdom, None)
            elif e.kind == "unclaimed":
                assert setup.discard_unclaimed, "an unclaimed domino in a mode where every domino is claimed"
            elif e.kind == "round_end":
                numbers = [int(x[1:]) for x in handled]
                assert numbers == sorted(numbers), f"turn order {handled} is not by ascending domino number"
                assert len(handled) == len(game.kings), "not every king played once in the round"
                handled = []
                rounds_ended += 1
                if qd and one_round:
                    _check_board_slide(game, before, action)
            elif e.kind == "deal_end":
                check_end_of_deal(before["kingdoms"], queen, before["removed"], game.deal_totals[-1])
                just_placed.clear()
            elif e.kind == "game_over":
                totals = [s.total for s in game.scores()]
                assert totals == game.deal_totals[-1]
                keys = check_end_of_deal(game.kingdoms, game.queen, game.removed, totals)
                _check_winners(game, keys, stats)

    if game.config.deals > 1:
        assert list(game.result().totals) == [sum(t[i] for t in game.deal_totals) for i in range(len(game.kingdoms))]
    if check_replay:
        state = game.to_dict()
        assert Game.from_dict(json.loads(json.dumps(state))).to_dict() == state
        assert Game.replay(cfg, seed, game.log).to_dict() == state
    return game


def _check_winners(game: Game, keys: list[tuple[int, int]], stats: Stats) -> None:
    """Highest total (summed over a Dynasty's deals); ties: largest territory, then crowns (Kingdomino) or coins left
    over (Queendomino rules), from the last deal; else shared."""
    result = game.result()
    totals = [sum(t[i] for t in game.deal_totals) for i in range(len(game.kingdoms))]
    assert list(result.totals) == totals
    full = [(totals[i], *keys[i]) for i in range(len(totals))]
    best = max(full)
    winners = tuple(i for i in range(len(full)) if full[i] == best)
    assert tuple(sorted(result.winner_kingdoms)) == winners, f"{full} -> {result}"
    assert sorted(result.winners) == sorted(p for i in winners for p in game.kingdoms[i].players)
    assert [full[i] for i in result.order] == sorted(full, reverse=True)
    if sum(1 for f in full if f[0] == best[0]) > 1:
        stats.add(f"tiebreak:{result.tiebreak}")


def _check_board_slide(game: Game, before: dict, action) -> None:
    """End of round: dragon home, buildings slid toward the cheapest slots in order, empty slots refilled."""
    assert game.dragon_slot is None
    board = list(before["board"])
    if isinstance(action, (Build, BribeDragon)):
        board[action.slot] = None
    left = [b for b in board if b is not None]
    empty = len(board) - len(left)
    assert game.board[empty:] == left, f"{board} slid to {game.board}"
    refill = before["stack"][:empty]
    new = game.board[:empty]
    assert sorted(b for b in new if b is not None) == sorted(refill)
    assert new[: empty - len(refill)] == [None] * (empty - len(refill)), "a refilled slot away from the others"
    assert game.stack == before["stack"][len(refill) :]


def _probe(game: Game, d, actions, rng: random.Random, stats: Stats) -> None:
    """Try a few illegal actions: each must raise IllegalAction and leave the state exactly as it was."""
    state = game.to_dict()
    tries = []
    others = [p for p in game.players if p != d.player]
    if others:
        tries.append((actions[0], rng.choice(others)))
    legal = set(actions)
    if d.kind == PLACE:
        n = game.kingdoms[d.kingdom].n
        for _ in range(3):
            a = Place(rng.randrange(-1, n + 1), rng.randrange(-1, n + 1), rng.choice(list(ind.STEPS)))
            if a not in legal:
                tries.append((a, d.player))
        tries.append((Skip(), d.player))
    elif d.kind in (CLAIM, FIRST_CLAIM):
        line = game.current_line if d.kind == FIRST_CLAIM else game.next_line
        taken = [dom for dom, king in line if king is not None]
        if taken:
            tries.append((Claim(rng.choice(taken)), d.player))
        tries.append((Claim("K99"), d.player))
        tries.append((Skip(), d.player))
    elif d.kind == TAX:
        tries.append((Tax((game.kingdoms[d.kingdom].castle,)), d.player))
        tries.append((Claim("Q1"), d.player))
    elif d.kind == BUILD:
        k = game.kingdoms[d.kingdom]
        for slot, b in enumerate(game.board):
            if b is None or game.cost_of(slot, d.kingdom) > k.coins:
                tries.append((Build(slot, *k.castle), d.player))
        tries.append((BribeDragon(0), d.player))
    elif d.kind == DRAGON:
        tries.extend((BribeDragon(s), d.player) for s, b in enumerate(game.board) if b is None)
        tries.append((Build(0, 0, 0), d.player))
    for action, by in tries:
        try:
            game.apply(action, by=by)
        except IllegalAction:
            stats.add(f"refused:{d.kind}")
        else:  # pragma: no cover - a failure
            raise AssertionError(f"{action.text} by {by} was accepted at {d}")
        assert game.to_dict() == state, f"refusing {action.text} changed the state"
