"""The glossaries next to the catalogues: one per language, every term, the catalogue's word, and the rulebook
line it comes from (checked against the rulebook when the seeds are beside the repository)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from i18n import TERMS, term
from i18n.catalog import read_catalog
from i18n.checks import forms

GLOSSARY = Path(__file__).resolve().parents[2] / "i18n" / "glossary"
ROOT = Path(__file__).resolve().parents[2]
SEED_DIRS = [ROOT.parent / "shared" / "seeds", ROOT / "shared" / "seeds", Path("/work/shared/seeds")]
HEADING = re.compile(r"^### (?P<key>\S+) — (?P<word>.+)$")


@dataclass
class Entry:
    key: str
    word: str
    forms: list[str]
    source: str | None  # seed file name, None for our own word
    quote: str | None
    note: str | None


def parse(lang: str) -> list[Entry]:
    entries: list[Entry] = []
    for line in (GLOSSARY / f"{lang}.md").read_text(encoding="utf-8").splitlines():
        if m := HEADING.match(line):
            entries.append(Entry(m["key"], m["word"], [], None, None, None))
        elif not entries:
            continue
        elif line.startswith("- Forms: "):
            entries[-1].forms = line.removeprefix("- Forms: ").split(" / ")
        elif m := re.match(r"^- Source: `seeds/(?P<file>[^`]+)`$", line):
            entries[-1].source = m["file"]
        elif line.startswith("- Source: ours — "):
            entries[-1].note = line.removeprefix("- Source: ours — ")
        elif line.startswith("> "):
            entries[-1].quote = line[2:]
    return entries


def seeds() -> Path | None:
    return next((d for d in SEED_DIRS if d.is_dir()), None)


LANGS = ["ro", "es", "cs"]


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_file_exists_next_to_the_catalogues(lang):
    assert (GLOSSARY / f"{lang}.md").is_file()
    assert GLOSSARY.parent.joinpath("locales", f"{lang}.po").is_file()


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_has_every_term_once(lang):
    keys = [e.key for e in parse(lang)]
    assert len(keys) == len(set(keys))
    assert set(keys) == set(TERMS), set(keys) ^ set(TERMS)


@pytest.mark.parametrize("lang", LANGS)
def test_every_glossary_word_is_the_catalogues_word(lang):
    catalog = read_catalog(lang)
    for e in parse(lang):
        assert e.word == term(lang, e.key), f"{lang} {e.key}: glossary {e.word!r}, catalogue {term(lang, e.key)!r}"
        t = TERMS[e.key]
        if t.plural is not None:
            entry = catalog.get(t.singular, context=t.context)
            assert e.forms == list(forms(entry)), f"{lang} {e.key}: forms differ from the catalogue"


@pytest.mark.parametrize("lang", LANGS)
def test_every_term_says_where_it_comes_from(lang):
    for e in parse(lang):
        assert (e.source and e.quote) or e.note, f"{lang} {e.key}: no rulebook line and no reason"


@pytest.mark.parametrize("lang", LANGS)
def test_the_rulebooks_words_are_used_for_the_pieces(lang):
    """The pieces the issue names come from the rulebook wherever the rulebook covers that game."""
    pieces = ["king", "domino", "territory", "crown", "kingdom"]
    if lang != "es":  # the Spanish source covers Kingdomino only
        pieces += ["castle", "knight", "tower", "queen", "dragon", "builders_board", "coin", "town"]
    by_key = {e.key: e for e in parse(lang)}
    for key in pieces:
        assert by_key[key].source, f"{lang} {key} should come from the rulebook"


@pytest.mark.parametrize("lang", LANGS)
def test_quoted_lines_are_in_the_rulebooks(lang):
    folder = seeds()
    if folder is None:
        pytest.skip("the rulebooks (shared/seeds) are not beside this checkout")
    for e in parse(lang):
        if e.source is None:
            continue
        lines = {" ".join(line.split()) for line in (folder / e.source).read_text(encoding="utf-8").splitlines()}
        assert " ".join(e.quote.split()) in lines, f"{lang} {e.key}: quote not found in {e.source}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_word_is_in_its_rulebook_line(lang):
    """The quoted line holds the word (its first word, declined or not), so the quote is the word's source."""
    for e in parse(lang):
        if e.source is None:
            continue
        quote = e.quote.lower().replace("*", "")
        words = [e.word, *e.forms]
        firsts = [w.split()[0] for w in words if w.split()[0] != "de"]
        stems = {w.lower()[: max(4, len(w) - 3)] for w in firsts}
        assert any(s in quote for s in stems), f"{lang} {e.key}: {words} not in {e.quote!r}"


PIECES = [
    "castle",
    "king",
    "domino",
    "square",
    "kingdom",
    "territory",
    "crown",
    "knight",
    "tower",
    "queen",
    "dragon",
    "builders_board",
    "coin",
    "building",
    "round",
    "line",
]


def stem(lang: str, key: str) -> str:
    """What every form of a term starts with (`díl` for dílek / dílky / dílků), at least 3 letters."""
    entry = read_catalog(lang).get(TERMS[key].singular, context=TERMS[key].context)
    words = [f.split()[1] if f.startswith("de ") else f.split()[0] for f in forms(entry)]
    lower = [w.lower() for w in words]
    common = ""
    for letters in zip(*lower, strict=False):
        if len(set(letters)) != 1:
            break
        common += letters[0]
    return common if len(common) >= 3 else words[0].lower()[:3]


@pytest.mark.parametrize("lang", LANGS)
def test_the_sentences_use_the_glossarys_words(lang):
    """A sentence whose English names a piece names it, in the translation, with the glossary's word."""
    catalog = read_catalog(lang)
    names = [t.singular for t in TERMS.values() if t.group in ("game", "variant")]  # "Middle Kingdom" is a name

    def plain(text: str) -> str:
        text = re.sub(r"\{[^}]*\}", "", text)
        for name in names:
            text = text.replace(name, "")
        return text

    wrong = []
    for key in PIECES:
        t = TERMS[key]
        english = re.compile(r"\b" + re.escape(t.singular) + r"(s|es)?\b", re.IGNORECASE)
        mark = stem(lang, key)
        for m in catalog:
            if not m.id or (m.context or "").startswith("term:") or m.context == "slash-option":
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            if any(english.search(plain(i)) for i in ids) and mark not in " ".join(forms(m)).lower():
                wrong.append(f"{key} ({mark}): {ids[0][:60]!r}")
    assert not wrong, "\n".join(wrong)
