"""Games saved straight through the store, move by move as the bot saves them, for the tests and benchmarks that
need a finished game in a channel without playing it through Discord (the look at its replay and chart, a flood of
such looks in benchmarks/bench_load.py)."""

from __future__ import annotations

from db import GameStore, results_from_game
from db.models import Seat
from engine import Game, GameConfig
from engine.ai import make_agent


async def finished_royal_wedding(
    store: GameStore, *, channel_id: int, guild_id: int, host_id: int, host_name: str, seed: int
) -> int:
    """A finished 7-player Royal Wedding game in the channel: the host and six `easy` computers, every move saved
    (the last with the results, which ends the game). Returns the game's id."""
    seats = [Seat.human(host_id, host_name)] + [Seat.computer(n, "easy", f"Computer {n}") for n in range(1, 7)]
    rec = await store.create_game(
        channel_id=channel_id,
        guild_id=guild_id,
        host_user_id=host_id,
        kind="royal-wedding",
        config={},
        seats=seats,
        seed=seed,
    )
    game = Game.new(GameConfig("royal-wedding", tuple(s.player_id for s in seats)), seed)
    version = await store.start_game(rec.id, rec.version, config=game.config.to_dict(), state=game.to_dict())
    while not game.is_over:
        player = game.decision().player
        action = make_agent("easy", seed=len(game.log)).choose(game)
        game.apply(action, by=player)
        version = await store.save_move(
            rec.id,
            version,
            state=game.to_dict(),
            action=action.to_dict(),
            player_id=player,
            user_id=None,
            results=results_from_game(game) if game.is_over else None,
        )
    return rec.id
