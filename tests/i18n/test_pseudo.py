"""The pseudo-locale en-XA: every catalogue string accented and bracketed, so English left outside the catalogues
shows up as plain ASCII words. `english_outside_catalogues` is the check an end-to-end run uses on what the bot
sent or drew under en-XA."""

from __future__ import annotations

import re

import pytest

from i18n import PSEUDO, pseudo_text, term, translate, translate_plural
from i18n.catalog import read_catalog
from i18n.pseudo import english_outside_catalogues


def test_pseudo_text_accents_and_brackets_but_keeps_placeholders_mentions_and_code():
    out = pseudo_text("Only the host ({host}) can start: use `/game new` or <@123>.")
    assert out.startswith("⟦") and out.endswith("⟧")
    assert "{host}" in out and "`/game new`" in out and "<@123>" in out
    assert "Only" not in out and "host (" not in out


def test_every_catalogue_string_is_pseudo_translated():
    for m in read_catalog("en"):
        if not m.id:
            continue
        if isinstance(m.id, str):
            shown = translate(PSEUDO, m.id, context=m.context)
        else:
            shown = translate_plural(PSEUDO, m.id[0], m.id[1], 5, context=m.context)
        assert shown.startswith("⟦") and shown.endswith("⟧"), m.id
        assert not english_outside_catalogues(shown), (m.id, shown)


def test_placeholders_are_filled_inside_the_brackets():
    shown = translate(PSEUDO, "The table is full ({size} seats).", size=4)
    assert shown.startswith("⟦") and "4" in shown
    assert translate_plural(PSEUDO, "{n} coin", "{n} coins", 3).startswith("⟦3 ")


def test_terms_are_pseudo_translated():
    assert term(PSEUDO, "knight", 2).startswith("⟦")


@pytest.mark.parametrize(
    ("text", "leftovers"),
    [
        ("⟦Ţĥé ţàƀĺé îš ƒûĺĺ⟧", []),
        ("⟦Šçöŕéš⟧: **Ana** 12 · Bot 1 (easy) 9", ["easy"]),
        ("Scores: ⟦Ţöţàĺ⟧", ["Scores"]),
        ("⟦Ĵöîñ⟧ E4 F4 K23 Q7 7x7 🎲", []),
        ("It's your turn", ["It's", "your", "turn"]),
    ],
)
def test_english_outside_catalogues(text, leftovers):
    assert english_outside_catalogues(text, names=["Ana", "Bot"]) == leftovers


def test_names_and_the_games_brand_names_are_not_leftovers():
    assert english_outside_catalogues("Kingdomino · Queendomino · Zoë", names=["Zoë"]) == []
    assert re.fullmatch(r"[^A-Za-z]*", "⟦" + "⟧")
