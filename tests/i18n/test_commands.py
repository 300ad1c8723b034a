"""Slash commands through Discord's command localizations: the real command tree, our translator, and the limits
Discord puts on what it accepts."""

from __future__ import annotations

import re

import discord
import pytest
from discord.ext import commands

from i18n.commands import DISCORD_LOCALES, SAME_IN_EVERY_LANGUAGE, CatalogTranslator, language_choices

# Discord's rule for command and option names (CHAT_INPUT): lowercase where a letter has case.
NAME = re.compile(r"^[-_'\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")


async def tree_payloads() -> list[dict]:
    from cogs import EXTENSIONS

    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.none(), help_command=None)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    await bot.tree.set_translator(CatalogTranslator())
    try:
        return [await c.get_translated_payload(bot.tree, bot.tree.translator) for c in bot.tree.get_commands()]
    finally:
        await bot.tree.set_translator(None)
        for extension in list(bot.extensions):
            await bot.unload_extension(extension)


def walk(payload: dict, path: str = ""):
    """Every command, group and option dict of a payload, with its path."""
    here = f"{path}/{payload['name']}"
    yield here, payload
    for option in payload.get("options", []):
        yield from walk(option, here)


@pytest.fixture(scope="module")
def payloads() -> list[dict]:
    import asyncio

    return asyncio.run(tree_payloads())


LOCALES = [locale.value for locale in DISCORD_LOCALES]


def test_command_and_group_names_stay_english(payloads):
    checked = 0
    for path, item in (pair for p in payloads for pair in walk(p)):
        top_level = path.count("/") == 1
        if top_level or item.get("type") in (1, 2):  # a command, subcommand or group; not an option
            assert not item.get("name_localizations"), f"{path} should keep its English name"
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("locale", LOCALES)
def test_every_description_option_and_choice_is_localized(payloads, locale):
    missing = []
    for path, item in (pair for p in payloads for pair in walk(p)):
        if "description" in item and locale not in (item.get("description_localizations") or {}):
            missing.append(f"{path} description")
        is_option = item.get("type") not in (None, 1, 2)
        if is_option and locale not in (item.get("name_localizations") or {}):
            missing.append(f"{path} option name")
        for choice in item.get("choices", []):
            shown = choice.get("name_localizations") or {}
            if locale not in shown and choice["name"] not in SAME_IN_EVERY_LANGUAGE:
                missing.append(f"{path} choice {choice['name']}")
    assert not missing, missing


@pytest.mark.parametrize("locale", LOCALES)
def test_localized_names_are_valid_discord_names(payloads, locale):
    for path, item in (pair for p in payloads for pair in walk(p)):
        name = (item.get("name_localizations") or {}).get(locale)
        if name is None:
            continue
        assert NAME.match(name), f"{path}: {name!r} is not a valid Discord name"
        assert name == name.lower(), f"{path}: {name!r} must be lowercase"
        assert len(name) <= 32


@pytest.mark.parametrize("locale", LOCALES)
def test_option_names_stay_unique_within_a_command(payloads, locale):
    for path, item in (pair for p in payloads for pair in walk(p)):
        names = [
            (o.get("name_localizations") or {}).get(locale, o["name"])
            for o in item.get("options", [])
            if o.get("type") not in (1, 2)
        ]
        assert len(names) == len(set(names)), f"{path}: {names}"


@pytest.mark.parametrize("locale", LOCALES)
def test_descriptions_and_choices_fit_discords_limits(payloads, locale):
    for path, item in (pair for p in payloads for pair in walk(p)):
        text = (item.get("description_localizations") or {}).get(locale, item.get("description", ""))
        assert 1 <= len(text) <= 100, f"{path}: {len(text)} characters"
        for choice in item.get("choices", []):
            shown = (choice.get("name_localizations") or {}).get(locale, choice["name"])
            assert 1 <= len(shown) <= 100, f"{path}: choice {shown!r}"


def test_the_choices_values_never_change(payloads):
    game = next(p for p in payloads if p["name"] == "game")
    new = next(o for o in game["options"] if o["name"] == "new")
    which = next(o for o in new["options"] if o["name"] == "game")
    values = {c["value"] for c in which["choices"]}
    assert values == {"kingdomino", "queendomino", "royal-wedding"}
    royal = next(c for c in which["choices"] if c["value"] == "royal-wedding")
    assert royal["name_localizations"]["cs"] == "Královská svatba"
    assert royal["name_localizations"]["ro"] == "Nunta Regală"
    assert royal["name_localizations"]["es-ES"] == "Boda Real"
    assert royal["name_localizations"]["es-419"] == "Boda Real"


def test_a_czech_client_sees_czech(payloads):
    game = next(p for p in payloads if p["name"] == "game")
    new = next(o for o in game["options"] if o["name"] == "new")
    assert new["description_localizations"]["cs"] == "Otevři stůl pro novou hru v tomto kanálu"
    players = next(o for o in new["options"] if o["name"] == "players")
    assert players["name_localizations"]["cs"] == "hráči"


def test_english_and_other_locales_get_the_default(payloads):
    for path, item in (pair for p in payloads for pair in walk(p)):
        for field in ("name_localizations", "description_localizations"):
            shown = item.get(field) or {}
            assert not {"en-US", "en-GB", "de", "fr"} & shown.keys(), path


def test_language_choices_name_each_language_in_itself():
    choices = {c.value: c.name for c in language_choices()}
    assert choices == {"en": "English", "ro": "Română", "es": "Español", "cs": "Čeština"}
