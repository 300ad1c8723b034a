"""The controls the game shows on its public messages: the table's ("Take my turn", the looks, Rematch), the turn's
direct message, the history's pages.

Each control is a plain button carrying the custom id that its `DynamicItem` in `cogs.views` or `cogs.lobby` answers
(the items build their buttons here too, so an id has one spelling). The presenter and the notifier post them
without importing any cog that answers clicks; the views they build are stopped, so discord.py keeps none of them:
every click is found again from its custom id.
"""

from __future__ import annotations

import discord

from db.models import GameRecord
from engine import Game
from i18n import messages as M
from i18n import translate

from .decide import game_language, turn_key

LOOKS = M.LOOKS


def turn_button(gid: int, key: int, *, label: str) -> discord.ui.Button:
    return discord.ui.Button(
        label=label, emoji="🎲", style=discord.ButtonStyle.success, custom_id=f"kd:turn:{gid}:{key}"
    )


def look_button(gid: int, what: str, *, lang: str) -> discord.ui.Button:
    label = translate(lang, LOOKS[what]) if what in LOOKS else what
    return discord.ui.Button(label=label, custom_id=f"kd:look:{gid}:{what}")


def rematch_button(gid: int, *, label: str) -> discord.ui.Button:
    return discord.ui.Button(label=label, emoji="🔁", style=discord.ButtonStyle.primary, custom_id=f"kd:rematch:{gid}")


def board_button(gid: int, *, label: str) -> discord.ui.Button:
    return discord.ui.Button(label=label, emoji="🗺️", custom_id=f"kd:board:{gid}")


def history_button(gid: int, page: int, *, label: str, emoji: str | None = None) -> discord.ui.Button:
    return discord.ui.Button(label=label, emoji=emoji, custom_id=f"kd:hist:{gid}:{page}")


def _stopped(*items: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()  # found again from the custom id on each click (see cogs.views.show_panel)
    return view


def turn_view(rec: GameRecord, game: Game) -> discord.ui.View:
    """Just the "Take my turn" button, for pings and reminders."""
    return _stopped(turn_button(rec.id, turn_key(game), label=translate(game_language(rec), M.BUTTON_TAKE_TURN)))


def table_view(rec: GameRecord, game: Game, *, board: bool = False) -> discord.ui.View:
    """The table's controls: take my turn (while it goes on), the looks, Rematch (once it is over); "Open the
    board" on a game in play when the bot runs a board (`board`: cogs.board answers it)."""
    lang = game_language(rec)
    items: list[discord.ui.Item] = []
    if not game.is_over:
        items.append(turn_button(rec.id, turn_key(game), label=translate(lang, M.BUTTON_TAKE_TURN)))
    items += [look_button(rec.id, what, lang=lang) for what in LOOKS if not (game.is_over and what == "remaining")]
    if game.is_over:
        items.append(rematch_button(rec.id, label=translate(lang, M.BUTTON_REMATCH)))
    elif board:
        items.append(board_button(rec.id, label=translate(lang, M.BUTTON_BOARD)))
    return _stopped(*items)


def history_view(gid: int, page: int, pages: int, lang: str = "en") -> discord.ui.View:
    """The buttons under page `page` of `pages` of the history (page 1: the newest moves)."""
    items = []
    if page < pages:
        items.append(history_button(gid, page + 1, label=translate(lang, M.BUTTON_OLDER), emoji="◀️"))
    if page > 1:
        items.append(history_button(gid, page - 1, label=translate(lang, M.BUTTON_NEWER), emoji="▶️"))
    return _stopped(*items)
