"""The web app's import structure: no import cycle anywhere in ``webapp/`` (module-level
or inside functions; only type-checking imports are left out), and the pure game model
and the AI value types load without Flask, SQLAlchemy or the AI pool."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEBAPP = ROOT / "webapp"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The ``webapp`` modules ``path`` imports, wherever in the file."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return {name for name in found if name in modules}


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in WEBAPP.rglob("*.py")}
    modules = set(paths)
    graph = {name: imports_of(path, modules) - {name} for name, path in paths.items()}
    # Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first.
    for name in modules:
        parts = name.split(".")
        for depth in range(1, len(parts)):
            parent = ".".join(parts[:depth])
            if parent in modules:
                graph[name].add(parent)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle_in_webapp() -> None:
    graph = import_graph()
    assert "webapp.game.model" in graph
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_ai_types_are_a_leaf() -> None:
    graph = import_graph()
    assert graph["webapp.ai.types"] <= {"webapp", "webapp.ai"}


def test_the_game_model_loads_without_the_web_stack() -> None:
    code = (
        "import sys, webapp.game.model, webapp.game.offers, webapp.ai.types;"
        "heavy = [m for m in ('flask', 'flask_socketio', 'sqlalchemy', 'webapp.ai.pool',"
        " 'webapp.game.service') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


def test_no_class_in_webapp_is_over_400_lines() -> None:
    long = []
    for path in WEBAPP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > 400:
                    long.append(f"{module_name(path)}.{node.name}: {lines} lines")
    assert not long, long
