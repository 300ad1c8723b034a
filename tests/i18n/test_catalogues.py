"""The catalogues: complete in every language, same placeholders everywhere, every plural form, up to date with
the code, and the letters of each language intact."""

from __future__ import annotations

import gettext
import io

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from i18n import LANGUAGES, TERMS, term, translate, translate_plural
from i18n.catalog import read_catalog
from i18n.checks import forms, label, message_problems, placeholders
from i18n.extract import everything, template

HOW_TO_FIX = "run `python -m i18n extract`, then translate the new entries in i18n/locales/*.po (docs/languages.md)"


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Catalog]:
    return {lang: read_catalog(lang) for lang in LANGUAGES}


def messages(catalog: Catalog):
    return [m for m in catalog if m.id]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated(catalogs, lang):
    missing = [label(m) for m in messages(catalogs[lang]) if not all(forms(m))]
    assert not missing, f"{lang}: {len(missing)} untranslated, e.g. {missing[:5]}; {HOW_TO_FIX}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_are_the_same_in_every_language(catalogs, lang):
    wrong = []
    for m in messages(catalogs[lang]):
        wrong += [p for p in message_problems(lang, m, catalogs[lang].num_plurals) if "placeholder" in p]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("lang", "count"), [("en", 2), ("es", 2), ("ro", 3), ("cs", 3)])
def test_every_plural_message_has_every_form(catalogs, lang, count):
    catalog = catalogs[lang]
    assert catalog.num_plurals == count
    plurals = [m for m in messages(catalog) if m.pluralizable]
    assert len(plurals) > 40
    short = [label(m) for m in plurals if len(forms(m)) != count or not all(forms(m))]
    assert not short, f"{lang}: plural forms missing in {short[:5]}"


def test_all_languages_hold_the_same_messages(catalogs):
    keys = {
        lang: {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in messages(c)}
        for lang, c in catalogs.items()
    }
    for lang in LANGUAGES:
        assert keys[lang] == keys["en"], f"{lang} differs from en: {HOW_TO_FIX}"


def test_catalogues_are_up_to_date_with_the_code(catalogs):
    """Every marked sentence, term and slash-command string of today's code is in the catalogues, and nothing
    else: a new or changed string fails here until the catalogues are extracted and translated."""
    wanted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template(everything()) if m.id}
    have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in messages(catalogs["en"])}
    assert not wanted - have, f"not in the catalogues: {sorted(wanted - have, key=str)[:10]}; {HOW_TO_FIX}"
    assert not have - wanted, f"no longer in the code: {sorted(have - wanted, key=str)[:10]}; {HOW_TO_FIX}"


def test_english_catalogue_is_its_own_source(catalogs):
    for m in messages(catalogs["en"]):
        assert forms(m) == ((m.id,) if isinstance(m.id, str) else tuple(m.id)), label(m)


def test_placeholders_parser():
    assert placeholders("{n} coins on {cell}") == {"n", "cell"}
    assert placeholders("no placeholder") == set()
    with pytest.raises(ValueError):
        placeholders("broken {placeholder")


def test_a_plural_form_may_leave_n_out_but_nothing_else():
    m = read_po(
        io.BytesIO(
            b'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
            b'msgid "{n} coin on {cell}"\nmsgid_plural "{n} coins on {cell}"\n'
            b'msgstr[0] "one coin on {cell}"\nmsgstr[1] "{n} coins on {place}"\n'
        )
    )
    problems = [p for msg in m if msg.id for p in message_problems("xx", msg, 2)]
    assert len(problems) == 1 and "place" in problems[0]


# -- letters ---------------------------------------------------------------------------------------------------
LETTERS = {
    "ro": "ăâîșțĂÂÎȘȚ",
    "es": "ñáéíóúüÑÁÉÍÓÚÜ¿¡",
    "cs": "čďěňřšťůžáéíóúýČĎĚŇŘŠŤŮŽ",
}


@pytest.mark.parametrize("lang", ["ro", "es", "cs"])
def test_diacritics_round_trip_through_po_and_mo(lang):
    """Each language's letters survive writing a .po, reading it back, compiling and looking up."""
    text = f"{LETTERS[lang]} {{name}}"
    catalog = Catalog(locale=lang)
    catalog.add("Letters {name}", text)
    catalog.add(("{n} letter", "{n} letters"), tuple(f"{i} {LETTERS[lang]} {{n}}" for i in range(catalog.num_plurals)))
    po = io.BytesIO()
    write_po(po, catalog)
    again = read_po(io.BytesIO(po.getvalue()), locale=lang)
    mo = io.BytesIO()
    write_mo(mo, again)
    mo.seek(0)
    t = gettext.GNUTranslations(mo)
    assert t.gettext("Letters {name}") == text
    assert t.ngettext("{n} letter", "{n} letters", 1).startswith(f"0 {LETTERS[lang]}")
    assert po.getvalue().decode("utf-8").count(LETTERS[lang]) >= 2


def test_romanian_uses_comma_below_letters_never_cedillas(catalogs):
    """ș and ț (comma below) are Romanian; ş and ţ (cedilla) are a common legacy mistake."""
    text = "".join("".join(forms(m)) for m in messages(catalogs["ro"]))
    assert "ș" in text and "ț" in text and "ă" in text and "â" in text and "î" in text
    assert "ş" not in text and "ţ" not in text and "Ş" not in text and "Ţ" not in text


def test_catalogues_use_their_languages_letters(catalogs):
    joined = {lang: "".join("".join(forms(m)) for m in messages(catalogs[lang])) for lang in ("es", "cs")}
    for letter in "ñáéíóú¿¡":
        assert letter in joined["es"], letter
    for letter in "čěňřšťůžý":
        assert letter in joined["cs"], letter


def test_diacritics_come_back_through_the_api():
    assert term("ro", "building.church") == "Biserica"
    assert term("ro", "swamp") == "mlaștină"
    assert term("cs", "building.fortified_guardhouse") == "Opevněná strážnice"
    assert term("es", "dragon") == "dragón"
    assert translate("es", "Add a computer player ({level})", level="difícil") == "Añadir un bot (difícil)"
    assert translate_plural("cs", "{n} tower", "{n} towers", 7) == "7 věží"


def test_every_term_has_its_entry(catalogs):
    for key, t in TERMS.items():
        entry = catalogs["en"].get(t.singular, context=t.context)
        assert entry is not None, key
        assert entry.pluralizable == (t.plural is not None), key
