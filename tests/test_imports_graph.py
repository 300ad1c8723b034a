"""The house's arrows, read from the code (issue 43): every import of the product's modules, those for type hints
(`if TYPE_CHECKING:`) and inside functions included, since a reader follows them all.

- no circle anywhere in the product (a circle closed by a type hint is still one);
- the Discord-free rooms (the rules' helpers, the commit path, the reader, the lobby's rules, the words) reach no
  module that imports discord, however indirectly, and importing them loads no discord;
- no arrow from `cogs/` to `web/`, and none from the web to the cogs that answer Discord's clicks.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cogs", "web", "db", "engine", "render", "i18n")
SINGLES = ("bot", "settings")
DISCORD_FREE = ("cogs.decide", "cogs.commit", "cogs.games", "cogs.lobbyrules", "cogs.words", "cogs.rulebook")
# The cogs that answer people's clicks and commands (Discord's buttons, selects and slash commands) and build their
# controls: the web board reaches none of them.
DISCORD_BUTTONS = (
    "cogs.views",
    "cogs.lobby",
    "cogs.play",
    "cogs.look",
    "cogs.looks",
    "cogs.settings",
    "cogs.admin",
    "cogs.board",
    "cogs.controls",
    "cogs.checks",
    "cogs.context",
    "cogs.common",
)


def module_files() -> dict[str, Path]:
    """Every product module by its dotted name (a package's `__init__` by the package's name)."""
    found = {name: ROOT / f"{name}.py" for name in SINGLES}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports_of(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The product modules `name` imports, anywhere in its file (`from x import y`: x.y when it is a module, else x)."""
    known = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            modules = {f"{target}.{alias.name}" for alias in node.names} & known
            found.update(modules or {target})  # `from pkg import module` leads to the module, else to pkg
    edges = set()
    for target in found:
        while target and target not in known:  # `import engine.ai.pool` is engine.ai.pool; `a.b.func` is a.b
            target = target.rpartition(".")[0]
        if target and target != name:
            edges.add(target)
    return edges


def graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imports_of(name, path, files) for name, path in files.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def reach(edges: dict[str, set[str]], start: str) -> dict[str, str]:
    """Every module `start` reaches, each with the module that first led to it (to name the path)."""
    came_from = {start: ""}
    todo = [start]
    while todo:
        node = todo.pop()
        for other in sorted(edges.get(node, ())):
            if other not in came_from:
                came_from[other] = node
                todo.append(other)
    return came_from


def path_to(came_from: dict[str, str], end: str) -> str:
    steps = [end]
    while came_from[steps[-1]]:
        steps.append(came_from[steps[-1]])
    return " -> ".join(reversed(steps))


def imports_discord(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text())):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        if any(n == "discord" or n.startswith("discord.") for n in names):
            return True
    return False


# -- the checks, each shown to fail on what it forbids --------------------------------------------------------------
def test_the_circle_finder_finds_a_circle_and_only_circles():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_the_scan_reads_relative_imports_type_hints_and_imports_inside_functions(tmp_path):
    source = tmp_path / "x.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nfrom .common import UserError\nfrom . import pictures\n"
        "if TYPE_CHECKING:\n    from .service import GameService\n"
        "def f():\n    from web import auth\n    import engine.ai.pool\n"
    )
    known = {"cogs", "cogs.common", "cogs.pictures", "cogs.service", "web", "web.auth", "engine.ai", "engine.ai.pool"}
    assert imports_of("cogs.x", source, known) == {
        "cogs.common",
        "cogs.pictures",
        "cogs.service",
        "web.auth",
        "engine.ai.pool",
    }


def test_the_product_has_no_import_circle():
    found = circles(graph())
    assert not found, "import circles (type-hint imports count): " + "; ".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize("module", DISCORD_FREE)
def test_the_discord_free_rooms_reach_no_discord_import(module):
    edges = graph()
    files = module_files()
    came_from = reach(edges, module)
    offenders = [path_to(came_from, m) for m in sorted(came_from) if imports_discord(files[m])]
    assert not offenders, f"{module} reaches discord through: " + "; ".join(offenders)


def test_importing_the_discord_free_rooms_loads_no_discord():
    """The same, as Python sees it: a fresh interpreter imports them and has no `discord` module loaded."""
    code = (
        f"import sys, {', '.join(DISCORD_FREE)}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord'))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_no_arrow_from_the_cogs_to_the_web():
    edges = graph()
    found = {m: sorted(t for t in targets if t.split(".")[0] == "web") for m, targets in edges.items()}
    found = {m: t for m, t in found.items() if m.startswith("cogs") and t}
    assert not found, found


def test_the_web_reaches_none_of_discords_buttons():
    edges = graph()
    found = {m: sorted(set(targets) & set(DISCORD_BUTTONS)) for m, targets in edges.items() if m.split(".")[0] == "web"}
    found = {m: t for m, t in found.items() if t}
    assert not found, found


def test_nothing_imports_the_bots_start_up():
    """bot.py is start-up only: no module of the product reaches for it (i18n/extract.py used to, for its list of
    extensions, which cogs/__init__.py now holds)."""
    edges = graph()
    found = sorted(m for m, targets in edges.items() if "bot" in targets)
    assert not found, found
