"""`python -m i18n literals`: the English sentences still written directly in cogs/ and render/.

A helper for switching the code over to the catalogues: it lists string literals (and f-strings) that look like
words for people: two or more words, or a capitalised word, outside docstrings, log calls, custom ids and
marked calls. Each line says whether the catalogue already has that sentence. It is a guide, not a test: the
definitive check is the pseudo-locale end-to-end run (i18n.pseudo).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .catalog import read_catalog
from .extract import MARKERS, ROOT

SKIP_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "getLogger", "compile", "sub", "match"}
SKIP_CALLS |= {"startswith", "endswith", "split", "replace", "join", "strip", "get", "getattr", "setdefault"}
WORDS = re.compile(r"[A-Za-z][a-z]+(?:'[a-z]+)?")


@dataclass(frozen=True)
class Literal:
    where: str
    line: int
    text: str
    known: bool


def _text(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                parts.append("{…}")
        return "".join(parts)
    return None


def _looks_like_words(text: str) -> bool:
    if text.startswith(("kd:", "http", "#", "/")) or "_" in text.split(" ")[0]:
        return False
    if re.fullmatch(r"[a-z]+(-[a-z]+)+|[\w.-]+\.(png|ttf|txt|json)", text):  # ids like royal-wedding, files
        return False
    words = WORDS.findall(text)
    return len(words) >= 2 or (len(words) == 1 and words[0][0].isupper() and len(words[0]) > 2)


def literals_in(source: str, where: str, known: set[str]) -> Iterator[Literal]:
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        # docstrings
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in SKIP_CALLS or name in MARKERS:
                for sub in ast.walk(node):
                    skip.add(id(sub))
        if isinstance(node, ast.ClassDef):
            for kw in node.keywords:  # DynamicItem templates
                for sub in ast.walk(kw.value):
                    skip.add(id(sub))
        if isinstance(node, ast.JoinedStr):
            for sub in node.values:
                skip.add(id(sub))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        text = _text(node)  # type: ignore[arg-type]
        if text is not None and _looks_like_words(text):
            yield Literal(where, getattr(node, "lineno", 0), text, text in known)


def find_literals(root: Path = ROOT) -> list[Literal]:
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in read_catalog("en") if m.id}
    found = []
    for folder in ("cogs", "render"):
        for path in sorted((root / folder).rglob("*.py")):
            found.extend(literals_in(path.read_text(encoding="utf-8"), str(path.relative_to(root)), known))
    return found
