"""Slash commands in the player's language, through Discord's own command localizations.

    from i18n.commands import CatalogTranslator
    await bot.tree.set_translator(CatalogTranslator())   # in setup_hook, before tree.sync()

discord.py then asks, for every Discord locale, the translation of each description, option name, option
description and choice name (plain `str` in the decorators are wrapped in `locale_str` for us). We answer from the
catalogues: descriptions and choice names with context `slash`, option names with context `slash-option`; for a
locale we have no language for, or a string the catalogue lacks, we answer None and Discord shows the English.

Kept in English on purpose: the command and group names (`/game new`, `/play place`, `/look table`, `/rules`,
`/stats`, `/admin sync`). They are what the bot's own messages, the README and other players on a mixed-language
server say and type; Discord would show only the localized name to a Czech client, so "/hra nová" in the picker
next to "`/game new`" in a refusal would confuse. Option names are translated (valid Discord names: lowercase,
no spaces, at most 32 characters, checked by the tests); choice values never change, only their shown names.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Loc

from . import resolve_locale
from .catalog import SOURCE, translations

SLASH = "slash"
SLASH_OPTION = "slash-option"

# The Discord locales we localize commands for; English clients get the default (English) strings.
DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.czech: "cs",
    discord.Locale.romanian: "ro",
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
}
UNTRANSLATED = (Loc.command_name, Loc.group_name)
# Each language's name in itself, for a `language` option's choices: shown the same to every client.
LANGUAGE_NAMES = {"en": "English", "ro": "Română", "es": "Español", "cs": "Čeština"}
# Choice names that are the same in every language (brand names, autonyms): not in the catalogues.
SAME_IN_EVERY_LANGUAGE = frozenset({"Kingdomino", "Queendomino", *LANGUAGE_NAMES.values()})
DESCRIPTION_LIMIT = 100
NAME_LIMIT = 32


def slash_text(lang: str, message: str, location: Loc) -> str | None:
    """The catalogue's text for one command string, or None when it is to stay as it is."""
    if location in UNTRANSLATED or lang == SOURCE or message in SAME_IN_EVERY_LANGUAGE:
        return None
    context = SLASH_OPTION if location == Loc.parameter_name else SLASH
    t = translations(lang)
    found = t.pgettext(context, message)
    if found == message:  # not in the catalogue (or identical): let Discord show the default
        return None
    if location == Loc.parameter_name and (len(found) > NAME_LIMIT or found != found.lower() or " " in found):
        return None  # never send Discord a name it refuses; the tests keep this from happening
    return found[:DESCRIPTION_LIMIT]


class CatalogTranslator(app_commands.Translator):
    """discord.py's Translator answering from the gettext catalogues."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = DISCORD_LOCALES.get(locale) or resolve_locale(locale, default=None)
        if lang is None or lang == SOURCE:
            return None
        return slash_text(lang, string.message, context.location)


def language_choices() -> list[app_commands.Choice[str]]:
    """Choices for a `language` option (e.g. on /game new): each language by its own name, the code as value."""
    return [app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()]
