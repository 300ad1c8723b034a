"""The controls the game shows on its public messages: the table's ("Take my turn", the looks, Rematch), the turn's
direct message, the history's pages.

Each control is a plain button carrying the custom id that its `DynamicItem` in `cogs.views` or `cogs.lobby` answers
(the items build their buttons here too, so an id has one spelling). The presenter and the notifier post them
without importing any cog that answers clicks; the views they build are stopped, so discord.py keeps none of them:
every click is found again from its custom id.
"""

from __future__ import annotations

import discord

from db.models import GameRecord, GameStatus
from engine import Game
from engine.ai import OFFERED_LEVELS
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


# -- the lobby's message (cogs.lobby's items answer them) ----------------------------------------------------------
LOBBY_BUTTONS = (
    ("join", M.BUTTON_JOIN, discord.ButtonStyle.primary),
    ("leave", M.BUTTON_LEAVE, discord.ButtonStyle.secondary),
    ("start", M.BUTTON_START, discord.ButtonStyle.success),
    ("cancel", M.BUTTON_CANCEL, discord.ButtonStyle.danger),
)


def lobby_button(gid: int, op: str, *, label: str = "", style=discord.ButtonStyle.secondary) -> discord.ui.Button:
    return discord.ui.Button(label=label or op.title(), style=style, custom_id=f"kd:lobby:{gid}:{op}")


def computer_select(gid: int, *, lang: str = "en") -> discord.ui.Select:
    """The host's menu: add a computer player of a level, or remove the last one."""
    options = [
        discord.SelectOption(label=translate(lang, M.ADD_COMPUTER, level=translate(lang, M.LEVELS[level])), value=level)
        for level in OFFERED_LEVELS
    ] + [discord.SelectOption(label=translate(lang, M.REMOVE_COMPUTER), value="remove")]
    return discord.ui.Select(
        custom_id=f"kd:cpu:{gid}", options=options, placeholder=translate(lang, M.COMPUTER_PLACEHOLDER)
    )


def swap_select(gid: int, seats=(), *, lang: str = "en") -> discord.ui.Select:
    """Two seats to swap (host only): how teams of two are arranged, since partners sit side by side."""
    options = [
        discord.SelectOption(label=f"{i}. {s.display_name}"[:100], value=s.player_id) for i, s in enumerate(seats, 1)
    ]
    return discord.ui.Select(
        custom_id=f"kd:swap:{gid}",
        options=options or [discord.SelectOption(label="-")],
        min_values=min(2, len(options) or 1),
        max_values=min(2, len(options) or 1),
        placeholder=translate(lang, M.SWAP_PLACEHOLDER),
    )


def lobby_view(rec: GameRecord) -> discord.ui.View | None:
    """The lobby's controls while it is open (None once it started or closed)."""
    if rec.status != GameStatus.LOBBY:
        return None
    lang = game_language(rec)
    items: list[discord.ui.Item] = [
        # the table's Cancel (context "table"), not the web board's, which only drops a pick
        lobby_button(rec.id, op, label=translate(lang, label, context="table" if op == "cancel" else None), style=style)
        for op, label, style in LOBBY_BUTTONS
    ]
    items.append(computer_select(rec.id, lang=lang))
    if rec.config.get("teams") and len(rec.seats) >= 2:
        items.append(swap_select(rec.id, rec.seats, lang=lang))
    return _stopped(*items)
