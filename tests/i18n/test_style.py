"""The catalogues read as a native player would: the words and forms each language's review settled on stay settled.

Each rule below was a real problem found when the catalogues were read whole against the rulebooks (issue #27);
the reason is in the assertion message, so whoever breaks one learns what a native reader saw.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog

from i18n import LANGUAGES
from i18n.catalog import read_catalog
from i18n.checks import forms

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]

# (language, pattern, why): a translation matching the pattern is wrong for that reason.
FORBIDDEN: list[tuple[str, str, str]] = [
    ("es", r"\bordenador", "Spain-only word: Latin American clients (es-419) read the same catalogue; say 'bot'"),
    (
        "es",
        r"\b(jugad|vosotros|vuestr\w*|os\s+toca)\b",
        "vosotros forms are Spain-only: use tú for one, ustedes or impersonal for many",
    ),
    ("es", r"en breve\.\*\*", "'en breve' means 'coming soon' in a title; a summary is 'en resumen'"),
    ("es", r"\bcoste\b", "'coste' is Spain-leaning; 'precio' reads the same everywhere"),
    ("es", r"\bde media\b", "'de media' is Spain's: 'en promedio' reads the same in Latin America and Spain"),
    ("es", r"\ben directo\b", "'en directo' is Spain's: 'en vivo' reads the same everywhere"),
    ("es", r"\bcog(er|e|es|ió|iste)\b", "'coger' is vulgar in much of Latin America: 'tomar'"),
    ("es", r"\bvale\b[.!,]", "'vale' for 'OK' is Spain's: 'listo', 'de acuerdo'"),
    (
        "es",
        r"(?<!aún no )(?<!todavía no )\b(he|has|ha|hemos|han) (dejado|elegido|colocado|enviado|cobrado|construido|sobornado|quemado|cancelado|"
        r"empezado|terminado|podido|jugado|deshecho|tomado|volado|aceptado|caducado)\b",
        "what just happened is told in the preterite ('dejaste', 'terminó'), as Latin America writes it and Spain "
        "reads it; 'aún no ha empezado' (not yet) stays",
    ),
    ("cs", r"\w\(a\)", "gendered slashes like 'Usedl(a)': rephrase without the past tense of the player"),
    ("cs", r"v záloze", "the rulebook and the table say 'v zásobě'"),
    ("cs", r"\bkorun\b", "the little crowns are 'korunky': genitive plural 'korunek'"),
    ("cs", r"\b(snadná|těžká)\b", "a level goes with 'hráč' or 'Bot' (masculine): snadný, střední, těžký"),
    ("cs", r"\b(zkuste|dohrajte|zrušte|založte|hrajte)\b", "one form of address: ty, never vy"),
    ("ro", r"\{total\} plăcuțe", "after a number of 20 or more Romanian needs 'de': '{total} de plăcuțe'"),
    (
        "ro",
        r"(?<![A-ZĂÂÎȘȚ\w])(dragonul|regina)\b",
        "the rulebook writes Dragonul and Regina with a capital: one form on every screen",
    ),
]


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Catalog]:
    return {lang: read_catalog(lang) for lang in LANGUAGES}


def translations(catalog: Catalog):
    for m in catalog:
        if m.id and not (m.context or "").startswith("term:"):
            for text in forms(m):
                yield m, text


@pytest.mark.parametrize(("lang", "pattern", "why"), FORBIDDEN, ids=[f"{r[0]}:{r[1]}" for r in FORBIDDEN])
def test_settled_words_stay_settled(catalogs, lang, pattern, why):
    found = sorted({text for _, text in translations(catalogs[lang]) if re.search(pattern, text)})
    assert not found, f"{lang}: {why}: {found[:3]}"


def option_names(catalog: Catalog) -> dict[str, str]:
    """English option name -> this language's, as Discord shows it in the command picker."""
    return {m.id: m.string for m in catalog if m.context == "slash-option" and m.string}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_hints_name_options_as_the_reader_sees_them(catalogs, lang):
    """A hint like `/look kingdom player:@name` must use the option name the reader's client shows (`jucător`)."""
    names = option_names(catalogs[lang])
    english_only = {en for en, local in names.items() if en != local}
    assert english_only, "no translated option names: the check would prove nothing"
    wrong = []
    for _, text in translations(catalogs[lang]):
        for command in re.findall(r"`(/[^`]+)`", text):
            for option in re.findall(r"(\w+):", command):
                if option in english_only:
                    wrong.append(f"{command!r} uses {option!r}, the reader sees {names[option]!r}")
    assert not wrong, f"{lang}: {wrong[:5]}"


def test_the_hint_check_sees_an_english_option_name():
    """The check above finds what it should: an English option name in a Romanian hint."""
    names = option_names(read_catalog("ro"))
    text = "privește regatul unui jucător cu `/look kingdom player:@nume`"
    assert names["player"] != "player"
    assert [o for c in re.findall(r"`(/[^`]+)`", text) for o in re.findall(r"(\w+):", c)] == ["player"]
