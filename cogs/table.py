"""The table's controls ("Take my turn", the looks, Rematch) and how the game service shows things on Discord.

The service builds no view and imports no cog module: `attach` hands it these functions when the bot starts, so the
cog modules import the service and never the other way round."""

from __future__ import annotations

import discord

from db.models import GameRecord
from engine import Game
from i18n import messages as M
from i18n import translate

from .lobby import RematchButton, lobby_text
from .service import GameService, game_language, turn_key
from .views import LOOKS, LookButton, TurnButton, history_view


def turn_view(rec: GameRecord, game: Game) -> discord.ui.View:
    """Just the "Take my turn" button, for pings and reminders."""
    view = discord.ui.View(timeout=None)
    view.add_item(TurnButton(rec.id, turn_key(game), label=translate(game_language(rec), M.BUTTON_TAKE_TURN)))
    return view


def table_view(rec: GameRecord, game: Game) -> discord.ui.View:
    lang = game_language(rec)
    view = discord.ui.View(timeout=None)
    if not game.is_over:
        view.add_item(TurnButton(rec.id, turn_key(game), label=translate(lang, M.BUTTON_TAKE_TURN)))
    for what in LOOKS:
        if game.is_over and what == "remaining":
            continue
        view.add_item(LookButton(rec.id, what, lang=lang))
    if game.is_over:
        view.add_item(RematchButton(rec.id, label=translate(lang, M.BUTTON_REMATCH)))
    return view


def attach(service: GameService) -> None:
    """Give the service the views and words it posts: the table's controls, the turn button, the lobby's text."""
    service.table_view = table_view
    service.turn_view = turn_view
    service.lobby_text = lobby_text
    service.history_view = history_view
