"""Where a click or a command enters: its context, built once (the service, the store, the reader's language, and,
once read, the game and the table's language), typed, so that "go to definition" leads from a cog to the service.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from db.models import GameRecord
from db.store import GameStore
from i18n import DEFAULT_LOCALE, resolve_locale

from .decide import game_language
from .service import GameService


@dataclass(slots=True)
class Context:
    """One person's click or command: who, in which language, on which service; `rec` once the game is read."""

    interaction: discord.Interaction
    service: GameService
    lang: str  # the reader's (their client's): private answers speak it
    rec: GameRecord | None = None

    @property
    def store(self) -> GameStore:
        return self.service.store

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def player(self) -> str:
        """The person as the engine knows them."""
        return str(self.interaction.user.id)

    @property
    def table_lang(self) -> str:
        """The game's language (its public messages speak it); English before the game is read."""
        return game_language(self.rec) if self.rec is not None else "en"


def service_of(interaction: discord.Interaction) -> GameService:
    """The bot's game service."""
    return interaction.client.service  # type: ignore[attr-defined]


def lang_of(interaction) -> str:
    """The language of a private answer: the client's of the person who clicked or typed."""
    return resolve_locale(getattr(interaction, "locale", None)) or DEFAULT_LOCALE


def context_of(interaction: discord.Interaction) -> Context:
    return Context(interaction, service_of(interaction), lang_of(interaction))
