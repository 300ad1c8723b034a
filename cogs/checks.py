"""Checks of what a command receives, each refused with an answer saying what is wrong and what would be right (never
an unanswered command and an error in the log):

- the values of choice options: Discord's client offers only the choices, but any value can be sent, and discord.py
  passes a plain `str` option through as it came;
- the server: commands about a server's games answer only in a server (a DM reaches them anyway);
- time zones: IANA names of places and offsets, not the system's own files (`localtime`, `posix/...`)."""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable, Mapping

import discord

from i18n import messages as M
from i18n import translate
from i18n.commands import LANGUAGE_NAMES

from .words import GAME_NAMES, UserError, game_name, quote_typed

Names = Mapping[str, Callable[[str], str]]  # a choice's value -> its name in a language

GAMES: Names = {kind: (lambda lang, kind=kind: game_name(kind, lang)) for kind in GAME_NAMES}
LANGUAGES: Names = {code: (lambda lang, name=name: name) for code, name in LANGUAGE_NAMES.items()}


def levels(values: tuple[str, ...]) -> Names:
    return {v: (lambda lang, v=v: translate(lang, M.LEVELS[v]) if v in M.LEVELS else v) for v in values}


def checked(value: str | None, choices: Names, option: str) -> str | None:
    """`value` when it is one of `choices` (or None: the option was left out); refused otherwise, naming the
    option as the reader's client shows it and the choices."""
    if value is None or value in choices:
        return value

    def refusal(lang: str) -> str:
        return translate(
            lang,
            M.NOT_A_CHOICE,
            value=quote_typed(value),
            option=translate(lang, option, context="slash-option"),
            choices=", ".join(name(lang) for name in choices.values()),
        )

    raise UserError(refusal)


def in_server(interaction: discord.Interaction) -> int:
    """The server the command came from; refused from a direct message (nothing is read or opened across servers)."""
    if interaction.guild_id is None:
        raise UserError(M.SERVER_ONLY)
    return interaction.guild_id


NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})  # files of the time zone database, not places


@functools.cache
def _zones() -> dict[str, str]:
    """The IANA time zone names (links such as US/Eastern included), by their lower-case form."""
    return {name.lower(): name for name in zoneinfo.available_timezones() if name not in NOT_ZONES}


def time_zone(text: str) -> str:
    """The IANA name the person meant (`europe/prague` is Europe/Prague); refused when it names no place or
    offset (`localtime`, `Factory`, `posix/...`, `right/...`, a path, a typo)."""
    name = _zones().get(text.strip().lower())
    if name is None:
        raise UserError(M.UNKNOWN_TIMEZONE, zone=quote_typed(text))
    return name


__all__ = ["GAMES", "LANGUAGES", "checked", "in_server", "levels", "time_zone"]
