"""The cog modules import each other in one direction only: the game service and its rooms (decide, commit,
presenter, notifier, computers, timers) import no cog module that answers clicks, and build no Discord view (the
controls module does); no import is hidden inside a function to dodge a circle (an import for type hints only, under
`if TYPE_CHECKING:`, is no edge: it never runs)."""

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
        typing_only = {
            n
            for block in tree.body
            if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
            for n in ast.walk(block)
        }
        names: tuple[set[str], set[str]] = (set(), set())
        for node in ast.walk(tree):
            if node in typing_only:
                continue
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


CLICKS = {"views", "lobby", "play", "look", "looks", "mine", "settings", "admin"}  # the cogs that answer people
ROOMS = ("service", "decide", "commit", "presenter", "notifier", "computers", "timers", "tabletext", "lobbytext")


def test_the_game_service_and_its_rooms_import_no_cog_that_answers_clicks():
    graph = _imports()
    for module in (*ROOMS, "controls"):
        top, inner = graph[module]
        assert not (top | inner) & CLICKS, (module, top | inner)


def test_only_the_controls_module_builds_a_view():
    for module in ROOMS:
        source = (COGS / f"{module}.py").read_text()
        assert "discord.ui.View(" not in source and "discord.ui.Button(" not in source and "DynamicItem" not in source
