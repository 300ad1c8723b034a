"""One term per thing: every message of each catalogue uses its glossary's word for each concept, never a synonym.

The glossaries are `i18n/glossary/<lang>.toml` (read by `i18n.consistency`). The second half puts back the synonyms
the December 2026 review found (`shared/reviews/translations-2026-12.md`) and checks each is caught, with the
message and the right word in the failure.
"""

from __future__ import annotations

import re

import pytest

from i18n import consistency
from i18n.catalog import read_catalog
from i18n.consistency import REQUIRED_CONCEPTS, concepts, missing_concepts, text_problems

LANGS = ["ro", "es", "cs"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_glossary_settles_every_concept(lang):
    assert consistency.glossary_path(lang).is_file()
    assert not missing_concepts(lang), f"{lang}: no word settled for {sorted(missing_concepts(lang))}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_message_uses_a_synonym_or_leaves_out_the_word(lang):
    found = consistency.problems(lang)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGS)
def test_every_skipped_msgid_is_in_the_catalogue(lang):
    """A `skip` entry that matches no message would hide nothing today and something wrong tomorrow."""
    catalog = read_catalog(lang)
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
    for concept in concepts(lang):
        assert concept.skip <= known, f"{lang} {concept.key}: skip lists {sorted(concept.skip - known)}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_concept_with_an_english_rule_applies_somewhere(lang):
    """A rule whose English never occurs checks nothing: each english pattern must match at least one msgid."""
    english = [" ".join(m.id) if isinstance(m.id, tuple) else m.id for m in read_catalog("en") if m.id]
    for concept in concepts(lang):
        if concept.english is not None:
            assert any(concept.english.search(i) for i in english), f"{lang} {concept.key}: matches no message"


# (lang, English msgid, context, the translation the review found, the concept that must catch it)
REVIEW_SYNONYMS = [
    ("es", "Tap a free domino of the next line to claim it.", None, "Toca una ficha libre de la fila siguiente para reclamarla.", "claim"),
    ("es", "That domino is already taken: choose a free one ({free}).", None, "Esa ficha ya está reclamada: elige una libre ({free}).", "claim"),
    ("es", "First line: claim a domino", None, "Primera fila: reclama una ficha", "claim"),
    ("es", "The computer players answer in {seconds} s: until then you can still take your move back.", None,
     "Los bots responden en {seconds} s: hasta entonces aún puedes deshacer tu movimiento.", "move"),
    ("es", "The turn deadline played for {name} since your last move, so it can no longer be taken back.", None,
     "Después de tu último movimiento se acabó el tiempo de {name} y se jugó por su cuenta, así que ya no se puede deshacer.", "move"),
    ("es", "free seat", None, "sitio libre", "seat"),
    ("es", "You have no seat at this table: you can watch.", None, "No tienes sitio en esta mesa: puedes mirar.", "seat"),
    ("es", "Waiting for players: {free} of {size} seats free.", None, "Esperando jugadores: {free} de {size} sitios libres.", "seat"),
    ("es", ("{n} pt", "{n} pts"), None, "{n} ptos", "points_abbreviation"),
    ("ro", "Computer players", None, "Jucători calculator", "computer_player"),
    ("ro", "🔎 **Your review**: the decisions that cost you most, beside the move the hard computer player would have made (points: the average difference in your final score over the same sampled endings).", None,
     "🔎 **Analiza ta**: deciziile care te-au costat cel mai mult, alături de mutarea pe care ar fi făcut-o jucătorul calculator greu (puncte: diferența medie a scorului tău final în aceleași finaluri simulate).", "computer_player"),
    ("ro", "Take back your last move, while nobody has acted after it", "slash", "Retrage ultima ta mutare, cât timp nimeni n-a jucat după ea", "undo"),
    ("ro", "{name} discarded domino {number}", None, "{name} a aruncat plăcuța domino {number}", "discard"),
    ("ro", "{name} discarded a domino", None, "{name} a aruncat o plăcuță domino", "discard"),
    ("ro", "pts", None, "p.", "points_abbreviation"),
    ("ro", ("{n} pt", "{n} pts"), None, "{n} de pct", "points_abbreviation"),
    ("cs", "placed", None, "položen", "place"),
    ("cs", "The domino just placed and the coins each knight would collect: {choices}", None,
     "Právě položený dílek domina a mince, které by vybral každý rytíř: {choices}", "place"),
    ("cs", "It hosts the queen.", None, "Hostí královnu.", "queen_hosting"),
    ("cs", "{coins}, {knights}, {towers}, hosts the queen", None, "{coins}, {knights}, {towers}, hostí královnu", "queen_hosting"),
    ("cs", "Final scores", None, "Konečné body", "score"),
    ("cs", "**Final scores**", None, "**Konečné body**", "score"),
]  # fmt: skip


@pytest.mark.parametrize(("lang", "msgid", "context", "wrong", "concept"), REVIEW_SYNONYMS)
def test_each_synonym_of_the_review_is_caught(lang, msgid, context, wrong, concept):
    found = text_problems(lang, msgid, context, [wrong], concepts(lang))
    ours = [p for p in found if f" {concept}" in p]
    assert ours, f"{lang}: {wrong!r} is not caught as {concept}: {found}"
    first = msgid if isinstance(msgid, str) else msgid[0]
    chosen = next(c.use for c in concepts(lang) if c.key == concept)
    assert all(repr(first) in p and chosen in p for p in ours), ours


@pytest.mark.parametrize(("lang", "msgid", "context", "wrong", "concept"), REVIEW_SYNONYMS)
def test_the_catalogue_no_longer_has_the_reviews_synonym(lang, msgid, context, wrong, concept):
    m = read_catalog(lang).get(msgid if isinstance(msgid, str) else msgid[0], context=context)
    assert m is not None, f"{lang}: {msgid!r} is not in the catalogue any more: update this list"
    strings = m.string if isinstance(m.string, tuple) else (m.string,)
    assert wrong not in strings


@pytest.mark.parametrize(
    ("lang", "text", "concept"),
    [
        ("cs", "Pokládá dílek", "place"),  # another form of the same stem
        ("cs", "Tah vzal zpět.", "undo"),
        ("ro", "Jucătorii calculator răspund", "computer_player"),
        ("ro", "plăcuța pusă", "place"),
        ("ro", "o piesă domino", "domino"),
        ("es", "las fichas reclamadas", "claim"),
        ("es", "30 ptos.", "points_abbreviation"),
    ],
)
def test_inflected_forms_of_a_forbidden_stem_are_caught(lang, text, concept):
    assert any(f" {concept}:" in p for p in text_problems(lang, "x", None, [text], concepts(lang)))


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ro", "Doar proprietarul botului poate sincroniza comenzile."),  # the Discord bot, not a computer player
        ("ro", "Cavaleri în rezervă"),  # not a claim
        ("cs", "Hra začíná: Kingdomino, 4 hráči."),  # 'domino' inside another word is not the domino
        ("cs", "Žádné rozhodnutí nestálo v průměru ani bod."),  # a sentence's full stop after 'bod'
        ("es", "Dónde van los caballeros, p. ej. E4"),  # 'p. ej.' is no points abbreviation
    ],
)
def test_legitimate_words_are_not_caught(lang, text):
    assert not [p for p in text_problems(lang, "x", None, [text], concepts(lang)) if " says " in p]


def test_a_rule_reads_the_english_without_its_placeholders():
    """`{spot} puts the first square...` names no spot in English: the placeholder's name is not a word."""
    cs = concepts("cs")
    assert not text_problems("cs", "{spot} puts the first square", None, ["{spot} umístí první políčko"], cs)
    assert text_problems("cs", "Pick a spot from the list.", None, ["Vyber místo ze seznamu."], cs)


def test_a_bad_glossary_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="'english' and 'must' go together"):
        consistency._parse("seat", {"use": "loc", "english": r"\bseat"})
    with pytest.raises(ValueError, match="unknown fields"):
        consistency._parse("seat", {"use": "loc", "nevr": ["x"]})


def test_every_required_concept_has_a_name_a_translator_recognises():
    assert all(re.fullmatch(r"[a-z_]+", key) for key in REQUIRED_CONCEPTS)
