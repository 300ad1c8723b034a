"""Games that differ only in what nobody has seen, for the tests of `Game.view()` and of the computer players."""

from __future__ import annotations

import random

from engine import FIRST_CLAIM, Game, domino


def random_position(game: Game, rng: random.Random, steps: int) -> Game:
    """`game` after up to `steps` random legal actions (fewer if it ends)."""
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def reshuffled(game: Game, rng: random.Random) -> Game:
    """A copy of `game` with another hidden future: the unseen dominoes dealt anew between the lines to come and
    those set aside, the building stack shuffled, the kings still to choose in the first line reordered (where the
    rules leave it open) and another seed. Everything a player sees is unchanged."""
    g = game.clone()
    g.seed = rng.randrange(1, 10**9)
    hidden = [d for line in g.lines_to_come for d in line] + [d for d in g.removed if d not in g.revealed]
    pools: dict[str, list[str]] = {}
    for dom in hidden:
        pools.setdefault(dom[0], []).append(dom)
    for pool in pools.values():
        rng.shuffle(pool)
    lines = []
    for line in g.lines_to_come:
        pool = pools[line[0][0]]
        lines.append(sorted(pool[: len(line)], key=lambda d: domino(d).number))
        del pool[: len(line)]
    g.lines_to_come = lines
    g.removed = [d for pool in pools.values() for d in pool] + [d for d in g.removed if d in g.revealed]
    rng.shuffle(g.stack)
    two_queendomino = g.config.game == "queendomino" and len(g.config.players) == 2
    if g.phase == FIRST_CLAIM and not two_queendomino:
        rest = g.first_claim_order[g.turn + 1 :]
        rng.shuffle(rest)
        g.first_claim_order = g.first_claim_order[: g.turn + 1] + rest
    return g
