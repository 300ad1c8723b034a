"""The translation API: locales, placeholders, plurals, terms and numbers."""

from __future__ import annotations

import discord
import pytest

from i18n import (
    DEFAULT_LOCALE,
    N_,
    NP_,
    PSEUDO,
    first_supported,
    format_number,
    resolve_locale,
    term,
    translate,
    translate_plural,
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.spain_spanish, "es"),
        (discord.Locale.latin_american_spanish, "es"),
        (discord.Locale.czech, "cs"),
        (discord.Locale.romanian, "ro"),
        ("es-419", "es"),
        ("ro_RO", "ro"),
        ("CS", "cs"),
        ("en-XA", PSEUDO),
        (discord.Locale.german, "en"),
        (discord.Locale.japanese, "en"),
        (None, "en"),
        ("", "en"),
    ],
)
def test_resolve_locale(value, expected):
    assert resolve_locale(value) == expected


def test_resolve_locale_without_default_says_no_match():
    assert resolve_locale(discord.Locale.french, default=None) is None


def test_first_supported_takes_the_first_language_we_have():
    # game option unset, server in German, admin default Czech -> Czech
    assert first_supported(None, discord.Locale.german, "cs") == "cs"
    assert first_supported("ro", "cs") == "ro"
    assert first_supported(None, "fr", discord.Locale.korean) == DEFAULT_LOCALE


def test_translate_fills_named_placeholders():
    assert translate("en", "The table is full ({size} seats).", size=4) == "The table is full (4 seats)."
    assert translate("ro", "The table is full ({size} seats).", size=4) == "Masa e plină (4 locuri)."
    assert translate(discord.Locale.czech, "You joined the table.") == "Sedíš u stolu."


def test_unknown_sentence_and_unknown_locale_fall_back_to_english():
    assert translate("cs", "A sentence nobody wrote down.") == "A sentence nobody wrote down."
    assert translate("fr", "You joined the table.") == "You joined the table."


def test_a_missing_parameter_stays_visible_instead_of_failing():
    assert translate("es", "The table is full ({size} seats).") == "La mesa está completa ({size} asientos)."


def test_floats_are_written_the_locales_way():
    line = "{game}: {played} played, {wins} won, average {average}, best {best}"
    text = translate("cs", line, game="Kingdomino", played=3, wins=1, average=41.5, best=60)
    assert text == "Kingdomino: odehráno 3, vyhráno 1, průměr 41,5, nejlepší 60"


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("en", 1, "1 coin"),
        ("en", 0, "0 coins"),
        ("en", 2, "2 coins"),
        ("es", 1, "1 moneda"),
        ("es", 7, "7 monedas"),
        ("cs", 1, "1 mince"),
        ("cs", 3, "3 mince"),
        ("cs", 5, "5 mincí"),
        ("cs", 0, "0 mincí"),
        ("ro", 1, "1 monedă"),
        ("ro", 0, "0 monede"),
        ("ro", 19, "19 monede"),
        ("ro", 20, "20 de monede"),
        ("ro", 101, "101 monede"),
        ("ro", 120, "120 de monede"),
    ],
)
def test_plural_forms_follow_each_languages_rule(lang, n, expected):
    assert translate_plural(lang, *NP_("{n} coin", "{n} coins"), n) == expected


def test_plural_with_other_placeholders():
    text = translate_plural("cs", "Knight on {cell}: +{n} coin", "Knight on {cell}: +{n} coins", 2, cell="E4")
    assert text == "Rytíř na E4: +2 mince"


@pytest.mark.parametrize(
    ("lang", "key", "count", "expected"),
    [
        ("cs", "knight", 1, "rytíř"),
        ("cs", "knight", 3, "rytíři"),
        ("cs", "knight", 5, "rytířů"),
        ("ro", "building.sawmill", 1, "Fabrica de cherestea"),
        ("ro", "mine", 1, "munte"),
        ("ro", "royal-wedding", 1, "Nunta Regală"),
        ("es", "mighty-duel", 1, "Duelo Poderoso"),
        ("es", "wheat", 2, "campos de trigo"),
        ("cs", "builders_board", 1, "plán budov"),
        ("cs", "building.statue", 1, "Socha"),
        ("en", "builders_board", 2, "builders' boards"),
        ("en", "building.queens_tower", 1, "Queen's Tower"),
    ],
)
def test_term(lang, key, count, expected):
    assert term(lang, key, count) == expected


def test_unknown_term_is_an_error():
    with pytest.raises(KeyError):
        term("cs", "unicorn")


def test_markers_return_their_arguments():
    assert N_("Join") == "Join"
    assert NP_("{n} coin", "{n} coins") == ("{n} coin", "{n} coins")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "12,345.5"), ("es", "12.345,5"), ("ro", "12.345,5"), ("cs", "12\xa0345,5")],
)
def test_format_number(lang, expected):
    assert format_number(lang, 12345.5) == expected


def test_format_number_with_fixed_decimals():
    assert format_number("cs", 41.25, decimals=1) == "41,2"
    assert format_number("en", 3, decimals=0) == "3"
