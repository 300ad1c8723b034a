"""A person's games across the server's channels: `/game mine`, and the answer to a command used where there is
no game (instead of "no game here", where their games are, with links)."""

from __future__ import annotations

from db.errors import CorruptGame
from db.models import GameStatus

from .common import GAME_NAMES, their_turn
from .service import GameService

PAGE = 10


async def game_lines(service: GameService, user_id: int, guild_id: int | None) -> list[str]:
    """One line per active game of the person in the server: the games where it is their turn first."""
    mine, others = [], []
    for summary in await service.store.active_games_of(user_id, guild_id):
        where = f"<#{summary.channel_id}>"
        link = service.table_link(summary)  # type: ignore[arg-type]
        jump = f" — {link}" if link else ""
        title = GAME_NAMES.get(summary.kind, summary.kind)
        if summary.status == GameStatus.LOBBY:
            others.append(f"**{title}** in {where}: a table waiting to start{jump}")
            continue
        try:
            rec = await service.store.get_game(summary.id)
        except CorruptGame:
            others.append(f"**{title}** in {where}: cannot be read (the host can close it with `/game cancel`)")
            continue
        game = rec.game
        d = game.decision() if game else None
        if game is None or d is None:
            continue
        stage = "choosing the first line" if game.round == 0 else f"round {game.round}/{game.setup.rounds}"
        if d.player == str(user_id):
            mine.append(f"➡️ **{title}** in {where}, {stage}: **your turn**{jump}")
        else:
            whose = their_turn(game, d, rec.seats).split(":")[0]
            others.append(f"**{title}** in {where}, {stage}: {whose}{jump}")
    return mine + others


def page_text(lines: list[str], page: int, title: str) -> str:
    pages = max(1, -(-len(lines) // PAGE))
    page = min(max(page, 1), pages)
    shown = lines[(page - 1) * PAGE : page * PAGE]
    more = f"\nPage {page} of {pages}: `/game mine page:{page + 1}` for more." if page < pages else ""
    return "\n".join([title, *shown]) + more


async def elsewhere(service: GameService, user_id: int, guild_id: int | None, channel_id: int | None) -> str | None:
    """For a command used in a channel without a game: the person's games elsewhere in the server, or None."""
    if guild_id is None:
        return None
    lines = [line for line in await game_lines(service, user_id, guild_id) if f"<#{channel_id}>" not in line]
    if not lines:
        return None
    return page_text(lines, 1, "There is no game in this channel. Your games in this server:")


__all__ = ["elsewhere", "game_lines", "page_text"]
