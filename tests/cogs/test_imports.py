"""The cog modules import each other in one direction only: the game service builds no Discord view and imports no
cog module but the shared words (common) and the picture workers; no import is hidden inside a function to dodge a
circle."""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parents[2] / "cogs"


def _imports() -> dict[str, tuple[set[str], set[str]]]:
    """module -> (cog modules it imports at the top, cog modules it imports inside functions)."""
    graph = {}
    for path in COGS.glob("*.py"):
        tree = ast.parse(path.read_text())
        top = {n for n in tree.body if isinstance(n, ast.ImportFrom)}
        names: tuple[set[str], set[str]] = (set(), set())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found = {node.module} if node.module else {a.name for a in node.names}
                names[0 if node in top else 1].update(found)
        graph[path.stem] = names
    return graph


def test_no_cog_module_imports_another_inside_a_function():
    hidden = {module: inner for module, (_, inner) in _imports().items() if inner}
    assert not hidden, hidden


def test_the_cog_modules_import_each_other_without_a_circle():
    graph = {module: top for module, (top, _) in _imports().items()}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for other in graph.get(module, ()):
            visit(other, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_the_game_service_builds_no_view():
    top, inner = _imports()["service"]
    assert top | inner <= {"common", "pictures", "notifier"}, top | inner
    top, inner = _imports()["notifier"]  # the service's notifications: the shared words only
    assert top | inner <= {"common"}, top | inner
    for module in ("service.py", "notifier.py"):
        source = (COGS / module).read_text()
        assert "discord.ui.View(" not in source and "discord.ui.Button(" not in source and "DynamicItem" not in source
