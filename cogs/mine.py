"""A person's games across the server's channels: `/game mine`, and the answer to a command used where there is
no game (instead of "no game here", where their games are, with links). Private answers: in the language of the
person who asked (`lang`)."""

from __future__ import annotations

from db.errors import CorruptGame
from db.models import GameStatus
from i18n import messages as M
from i18n import translate

from .service import GameService
from .tabletext import table_link
from .words import game_name, seat_name

PAGE = 10


async def game_lines(service: GameService, user_id: int, guild_id: int | None, lang: str = "en") -> list[str]:
    """One line per active game of the person in the server: the games where it is their turn first."""
    mine, others = [], []
    for summary in await service.store.active_games_of(user_id, guild_id):
        where = {"game": game_name(summary.kind, lang), "channel": f"<#{summary.channel_id}>"}
        link = table_link(summary)  # type: ignore[arg-type]
        jump = f" — {link}" if link else ""
        if summary.status == GameStatus.LOBBY:
            others.append(translate(lang, M.MINE_WAITING, link=jump, **where))
            continue
        try:
            rec = await service.store.get_game(summary.id)
        except CorruptGame:
            others.append(translate(lang, M.MINE_UNREADABLE, **where))
            continue
        game = rec.game
        d = game.decision() if game else None
        if game is None or d is None:
            continue
        stage = {"round": game.round, "rounds": game.setup.rounds}
        if d.player == str(user_id):
            msgid = M.MINE_YOUR_TURN_FIRST_LINE if game.round == 0 else M.MINE_YOUR_TURN_ROUND
            mine.append(translate(lang, msgid, link=jump, **where, **stage))
        else:
            msgid = M.MINE_THEIR_TURN_FIRST_LINE if game.round == 0 else M.MINE_THEIR_TURN_ROUND
            name = seat_name(rec.seats, d.player)
            others.append(translate(lang, msgid, link=jump, name=name, **where, **stage))
    return mine + others


def page_text(lines: list[str], page: int, title: str, lang: str = "en") -> str:
    pages = max(1, -(-len(lines) // PAGE))
    page = min(max(page, 1), pages)
    shown = lines[(page - 1) * PAGE : page * PAGE]
    more = "\n" + translate(lang, M.MINE_PAGE, page=page, pages=pages, next=page + 1) if page < pages else ""
    return "\n".join([title, *shown]) + more


async def elsewhere(
    service: GameService, user_id: int, guild_id: int | None, channel_id: int | None, lang: str = "en"
) -> str | None:
    """For a command used in a channel without a game: the person's games elsewhere in the server, or None."""
    if guild_id is None:
        return None
    lines = [line for line in await game_lines(service, user_id, guild_id, lang) if f"<#{channel_id}>" not in line]
    if not lines:
        return None
    return page_text(lines, 1, translate(lang, M.MINE_ELSEWHERE), lang)


__all__ = ["elsewhere", "game_lines", "page_text"]
