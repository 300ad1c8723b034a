"""One term per thing: each language's word for each concept, checked over every message of its catalogue.

`i18n/glossary/<lang>.toml` holds, per concept (claim, place, discard, undo, seat, computer player, move, points,
their abbreviation, score, the pieces, the queen's hosting, the steps...), the word the catalogue uses and the words
it must never use for it. Two kinds of rule, both regular expressions, case-insensitive:

- `never`: a synonym that must not appear anywhere (`reclam\\w*` in Spanish: the claim is *elegir*). Each pattern
  matches at the start of a word, so a stem (`polož\\w*`) catches every inflected form (položit, polož, položený)
  and never the middle of another word; `unless` lists phrases where a forbidden stem is legitimately part of
  another word or meaning, and a match inside one of them is allowed.
- `english` and `must`: where the English names the thing (`english`, matched on the msgid without its
  placeholders), every form of the translation must say the chosen word (`must`). `skip` lists msgids where the
  English word means something else (the verb "scores its squares", the web API's action names).

A problem names the message, the word found (or missing) and the word to use:
`es: 'Tap a free domino of the next line to claim it.' says 'reclamarla' for claim: use elegir (...)`.
`python -m i18n check` and tests/i18n/test_consistency.py report them.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .catalog import read_catalog
from .checks import forms, ids

GLOSSARY_DIR = Path(__file__).parent / "glossary"

# The concepts every translated language's glossary must settle (the issue that introduced the check lists them).
REQUIRED_CONCEPTS = frozenset(
    {
        "claim",
        "place",
        "discard",
        "undo",
        "seat",
        "spot",
        "cell",
        "computer_player",
        "move",
        "points",
        "points_abbreviation",
        "score",
        "domino",
        "square",
        "knight",
        "castle",
        "crown",
        "builders_board",
        "town",
        "queen_hosting",
        "steps",
    }
)

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Concept:
    key: str
    use: str  # the chosen word(s), as a translator reads them
    never: tuple[re.Pattern[str], ...]
    unless: tuple[re.Pattern[str], ...]
    english: re.Pattern[str] | None
    must: re.Pattern[str] | None
    skip: frozenset[str]


def glossary_path(lang: str) -> Path:
    return GLOSSARY_DIR / f"{lang}.toml"


def _word_start(pattern: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:" + pattern + ")", re.IGNORECASE)


def _parse(key: str, raw: dict) -> Concept:
    unknown = set(raw) - {"use", "never", "unless", "english", "must", "skip", "note"}
    if unknown:
        raise ValueError(f"concept {key}: unknown fields {sorted(unknown)} (use, never, unless, english, must, skip)")
    if "use" not in raw:
        raise ValueError(f"concept {key}: no 'use' (the chosen word)")
    if ("english" in raw) != ("must" in raw):
        raise ValueError(f"concept {key}: 'english' and 'must' go together")
    return Concept(
        key=key,
        use=raw["use"],
        never=tuple(_word_start(p) for p in raw.get("never", [])),
        unless=tuple(re.compile(p, re.IGNORECASE) for p in raw.get("unless", [])),
        english=re.compile(raw["english"]) if "english" in raw else None,
        must=re.compile(raw["must"], re.IGNORECASE) if "must" in raw else None,
        skip=frozenset(raw.get("skip", [])),
    )


@cache
def concepts(lang: str) -> tuple[Concept, ...]:
    """The concepts of `lang`'s glossary (empty for a language without a .toml glossary, e.g. English)."""
    path = glossary_path(lang)
    if not path.exists():
        return ()
    with path.open("rb") as f:
        data = tomllib.load(f)
    return tuple(_parse(key, raw) for key, raw in data.items())


def _allowed(concept: Concept, text: str, start: int, end: int) -> bool:
    return any(m.start() <= start and end <= m.end() for u in concept.unless for m in u.finditer(text))


def text_problems(
    lang: str, msgid: str | tuple[str, ...], context: str | None, texts: Iterable[str], found: Iterable[Concept]
) -> list[str]:
    """The problems of one message: its English `msgid` (or plural pair), its translated forms `texts`."""
    english_ids = (msgid,) if isinstance(msgid, str) else tuple(msgid)
    label = (f"[{context}] " if context else "") + repr(english_ids[0])
    english = " ".join(_PLACEHOLDER.sub(" ", i) for i in english_ids)
    out = []
    texts = [_PLACEHOLDER.sub(" ", t) for t in texts if t]  # a placeholder's name ({domino}) is not a word
    for concept in found:
        for text in texts:
            for pattern in concept.never:
                for m in pattern.finditer(text):
                    if not _allowed(concept, text, m.start(), m.end()):
                        out.append(f"{lang}: {label} says {m.group(0)!r} for {concept.key}: use {concept.use}")
        if concept.english is None or concept.must is None or english_ids[0] in concept.skip:
            continue
        if concept.english.search(english):
            for text in texts:
                if not concept.must.search(text):
                    out.append(f"{lang}: {label} names the {concept.key} without its word: use {concept.use}")
                    break
    return out


def problems(lang: str) -> list[str]:
    """Every synonym the glossary forbids, and every missing chosen word, over `lang`'s whole catalogue."""
    found = concepts(lang)
    if not found:
        return []
    out = []
    for m in read_catalog(lang):
        if m.id:
            out.extend(text_problems(lang, m.id if isinstance(m.id, str) else ids(m), m.context, forms(m), found))
    return out


def missing_concepts(lang: str) -> set[str]:
    """Which of REQUIRED_CONCEPTS `lang`'s glossary does not settle."""
    return set(REQUIRED_CONCEPTS) - {c.key for c in concepts(lang)}
