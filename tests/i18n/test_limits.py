"""The longest translations fit Discord's limits, with long but realistic values in the placeholders."""

from __future__ import annotations

import pytest

from i18n import LANGUAGES, term, translate, translate_plural
from i18n import messages as M
from i18n.terms import BUILDING_NAMES

DIRECTIONS = ("up", "right", "down", "left")


def longest_building(lang: str) -> str:
    return max((term(lang, f"building.{b}") for b in BUILDING_NAMES), key=len)


def longest_direction(lang: str) -> str:
    return max((translate(lang, M.DIRECTIONS[d]) for d in DIRECTIONS), key=len)


def values(lang: str) -> dict[str, object]:
    """The longest value each placeholder takes in the places these texts are used."""
    return {
        "level": max((translate(lang, w) for w in M.LEVELS.values()), key=len),
        "building": longest_building(lang),
        "slot": 6,
        "cell": "G7",
        "cells": "G7 G6",
        "first": "A1",
        "last": "G7",
        "square": "W1",
        "arrow": "↓",
        "direction": longest_direction(lang),
        "directions": ", ".join(translate(lang, M.DIRECTIONS[d]) for d in DIRECTIONS),
        "gain": translate_plural(lang, *M.POINTS_SIGNED, 28),
        "effect": "+3 " + term(lang, "knight", 3) + ", " + translate(lang, M.EFFECT_TAX_PER_KNIGHT),
    }


def check(lang: str, msgids, limit: int, plural: bool = False):
    for msgid in msgids:
        if plural:
            texts = [translate_plural(lang, *msgid, n, **values(lang)) for n in (1, 2, 5, 21)]
        else:
            texts = [translate(lang, msgid, **values(lang))]
        for text in texts:
            assert len(text) <= limit, f"{lang}: {len(text)} > {limit}: {text!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_button_labels_fit_80(lang):
    check(lang, M.BUTTON_LABELS, 80)
    check(lang, M.BUTTON_PLURALS, 80, plural=True)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_select_options_fit_100(lang):
    check(lang, M.SELECT_OPTIONS, 100)
    check(lang, M.SELECT_PLURALS, 100, plural=True)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_select_placeholders_fit_150(lang):
    check(lang, M.SELECT_PLACEHOLDERS, 150)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_autocomplete_choices_fit_100(lang):
    check(lang, M.AUTOCOMPLETE_CHOICES, 100)
    check(lang, M.AUTOCOMPLETE_PLURALS, 100, plural=True)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_fit_one_message(lang):
    text = translate(lang, M.RULES_QUEENDOMINO) + "\n" + translate(lang, M.RULES_ROYAL_WEDDING)
    assert len(text) <= 2000


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_fits_a_message(lang):
    for name, value in vars(M).items():
        if isinstance(value, str) and name.isupper():
            assert len(translate(lang, value)) <= 1000, name
