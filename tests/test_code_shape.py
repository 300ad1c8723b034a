"""Every piece of the product code small enough to read in one sitting (issue #28): no function over
FUNCTION_LIMIT lines, and, in the folders of CLASS_CHECKED, no class over CLASS_LIMIT lines. Read from the source
with `ast` (a function's lines run from its `def` to its last line, its docstring and nested functions included;
a method counts on its own and inside its class). A failure names every offender with its length."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The product code whose functions are checked: folders (every .py file below them) and single modules.
CHECKED: tuple[str, ...] = ("cogs", "engine", "render", "db", "web", "i18n", "bot.py", "settings.py")
FUNCTION_LIMIT = 80

# The folders whose classes are checked against CLASS_LIMIT: every room of the product but the engine's rules (issue
# #43: the web board, the store, the pictures and the words, and the test's fake Discord too; `engine/`'s `Game`,
# `Kingdom` and the search's model stay whole, each the rules of one thing).
CLASS_CHECKED: tuple[str, ...] = ("cogs", "web", "db", "render", "i18n", "tests/fakediscord")
CLASS_LIMIT = 400

Node = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def python_files(entries: tuple[str, ...]) -> list[Path]:
    """The .py files of `entries` (folders and files relative to the repository), sorted."""
    files: list[Path] = []
    for entry in entries:
        path = ROOT / entry
        assert path.exists(), f"{entry} is in the checked list but not in the repository: correct the list"
        found = [path] if path.is_file() else path.rglob("*.py")
        files.extend(f for f in found if "node_modules" not in f.parts)
    return sorted(files)


def definitions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, Node]]:
    """Every function, method and class in `tree` with its qualified name (Class.method, outer.inner)."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}{child.name}"
            yield name, child
            yield from definitions(child, name + ".")
        else:
            yield from definitions(child, prefix)


def length(node: Node) -> int:
    assert node.end_lineno is not None
    return node.end_lineno - node.lineno + 1


def too_long(source: str, where: str, kinds: tuple[type, ...], limit: int) -> list[str]:
    """`where:line name N lines` for each definition of `kinds` in `source` longer than `limit` lines."""
    return [
        f"{where}:{node.lineno} {name} {length(node)} lines"
        for name, node in definitions(ast.parse(source))
        if isinstance(node, kinds) and length(node) > limit
    ]


def offenders(entries: tuple[str, ...], kinds: tuple[type, ...], limit: int) -> list[str]:
    found = []
    for file in python_files(entries):
        found.extend(too_long(file.read_text(), str(file.relative_to(ROOT)), kinds, limit))
    return found


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def test_no_function_is_over_the_limit() -> None:
    found = offenders(CHECKED, FUNCTIONS, FUNCTION_LIMIT)
    assert not found, (
        f"{len(found)} function(s) over {FUNCTION_LIMIT} lines: split each into well-named, typed pieces that read "
        "in one sitting:\n  " + "\n  ".join(found)
    )


def test_no_class_is_over_the_limit() -> None:
    found = offenders(CLASS_CHECKED, (ast.ClassDef,), CLASS_LIMIT)
    assert not found, (
        f"{len(found)} class(es) over {CLASS_LIMIT} lines: split each by what it is responsible for:\n  "
        + "\n  ".join(found)
    )


def test_the_checked_list_covers_real_code() -> None:
    """Each entry names real Python code, so that a renamed folder cannot silently drop out of the check."""
    for entry in CHECKED:
        assert python_files((entry,)), f"{entry} holds no Python file"


def _function(name: str, lines: int, indent: str = "") -> str:
    """A function `lines` lines long from `def` to its last line."""
    body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 2))
    return f"{indent}def {name}():\n{body}{indent}    return 0\n"


def test_the_check_names_each_offender_with_its_length() -> None:
    source = (
        _function("short", FUNCTION_LIMIT)
        + "class Board:\n"
        + _function("draw", FUNCTION_LIMIT + 1, "    ")
        + "    async def fetch(self):\n"
        + "".join(f"        y{i} = {i}\n" for i in range(FUNCTION_LIMIT))
        + _function("outer", 3)
    )
    found = too_long(source, "pkg/mod.py", FUNCTIONS, FUNCTION_LIMIT)
    assert found == ["pkg/mod.py:82 Board.draw 81 lines", "pkg/mod.py:163 Board.fetch 81 lines"]
    classes = too_long(source, "pkg/mod.py", (ast.ClassDef,), FUNCTION_LIMIT)
    assert classes == [f"pkg/mod.py:81 Board {2 * (FUNCTION_LIMIT + 1) + 1} lines"]


def test_nested_functions_count_on_their_own() -> None:
    inner = _function("inner", FUNCTION_LIMIT + 5, "    ")
    source = "def outer():\n" + inner + "    return inner\n"
    found = too_long(source, "m.py", FUNCTIONS, FUNCTION_LIMIT)
    assert found == [f"m.py:1 outer {FUNCTION_LIMIT + 7} lines", f"m.py:2 outer.inner {FUNCTION_LIMIT + 5} lines"]
