"""Games put at chosen positions, for tests of one rule at a time."""

from __future__ import annotations

from engine import PLACE, Game, GameConfig, Kingdom, parse_cell


def first_place(cfg: GameConfig, seed: int = 1) -> Game:
    """A new game taken to its first placement (the first line claimed in order of the legal actions)."""
    game = Game.new(cfg, seed)
    while game.decision().kind != PLACE:
        game.apply(game.legal_actions()[0])
    return game


def craft(
    game: Game,
    rows: list[str],
    domino_id: str,
    *,
    coins: int | None = None,
    knights: int | None = None,
    buildings: dict[str, tuple[str, int]] | None = None,
) -> Kingdom:
    """Replace the acting kingdom by the text form `rows` and the domino under the acting king by `domino_id`.

    `buildings` maps cell names (the kingdom's, e.g. `C4`) to (building id, towers). Returns the new kingdom.
    """
    d = game.decision()
    assert d.kind == PLACE
    old = game.kingdoms[d.kingdom]
    k = Kingdom.from_text(rows, old.size, old.players)
    k.coins = old.coins if coins is None else coins
    k.knights_reserve = old.knights_reserve if knights is None else knights
    for name, (bid, towers) in (buildings or {}).items():
        k.buildings[parse_cell(name)] = [bid, towers]
    game.kingdoms[d.kingdom] = k
    game.current_line[game.turn][0] = domino_id
    return k
