"""What the tests check in the catalogues, also runnable as `python -m i18n check`."""

from __future__ import annotations

import re
import string
from collections.abc import Iterable

from babel.messages.catalog import Message

from .catalog import read_catalog

_FORMATTER = string.Formatter()
DISCORD_NAME = re.compile(r"^[-_\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message (`{size}` -> size); raises ValueError on a malformed one."""
    return {name for _, name, _, _ in _FORMATTER.parse(text) if name is not None}


def forms(m: Message) -> tuple[str, ...]:
    if isinstance(m.string, tuple | list):
        return tuple(m.string)
    return (m.string,)


def ids(m: Message) -> tuple[str, ...]:
    return tuple(m.id) if isinstance(m.id, tuple | list) else (m.id,)


def label(m: Message) -> str:
    first = ids(m)[0]
    return f"[{m.context}] {first!r}" if m.context else repr(first)


def message_problems(lang: str, m: Message, num_plurals: int) -> list[str]:
    out = []
    expected = set().union(*(placeholders(i) for i in ids(m)))
    strings = forms(m)
    if isinstance(m.id, tuple | list) and len(strings) != num_plurals:
        out.append(f"{lang}: {label(m)} has {len(strings)} plural forms, {lang} needs {num_plurals}")
    for s in strings:
        if not s:
            out.append(f"{lang}: {label(m)} is not translated")
            continue
        try:
            got = placeholders(s)
        except ValueError as error:
            out.append(f"{lang}: {label(m)} has a malformed placeholder ({error}): {s!r}")
            continue
        # A plural form may leave {n} out ("one coin"), never anything else, and may add nothing.
        missing = expected - got - ({"n"} if isinstance(m.id, tuple | list) else set())
        extra = got - expected
        if missing or extra:
            out.append(f"{lang}: {label(m)} placeholders differ: missing {sorted(missing)}, unknown {sorted(extra)}")
    if m.context == "slash-option":
        for s in strings:
            if s and (not DISCORD_NAME.match(s) or s != s.lower()):
                out.append(f"{lang}: option name {s!r} for {label(m)} is not a valid Discord name")
    elif m.context == "slash":
        for s in strings:
            if len(s) > 100:
                out.append(f"{lang}: {label(m)} is {len(s)} characters long; Discord allows 100")
    return out


def problems(languages: Iterable[str]) -> list[str]:
    """Every missing translation, placeholder mismatch, missing plural form and invalid Discord name."""
    out = []
    for lang in languages:
        catalog = read_catalog(lang)
        for m in catalog:
            if m.id:
                out.extend(message_problems(lang, m, catalog.num_plurals))
    return out
