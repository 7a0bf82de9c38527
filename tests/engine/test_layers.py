"""The engine's layers: the brain loads no web code, the public API stays in place, and
compiled functions take their arrays bundled in structs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).resolve().parent

WEB_PACKAGES = "{'flask', 'sqlalchemy', 'webapp', 'flask_socketio'}"


def _loads_no_web_code(statement: str) -> None:
    check = (
        f"{statement}; import sys; "
        f"web = sorted(m for m in sys.modules if m.split('.')[0] in {WEB_PACKAGES}); "
        "assert not web, web"
    )
    _run(check)


def _run(check: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_the_brain_imports_no_web_code() -> None:
    _loads_no_web_code("import engine.protocol.pbrain")


def test_gomoku_pbrain_loads_no_web_stack() -> None:
    # The console script's module, then what its pbrain command imports.
    check = (
        "import webapp.cli, engine.protocol.pbrain, sys; "
        "web = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'flask', 'sqlalchemy', 'flask_socketio'} or "
        "(m.startswith('webapp.') and m != 'webapp.cli')); "
        "assert not web, web"
    )
    _run(check)


def test_the_engine_imports_no_web_code() -> None:
    _loads_no_web_code(
        "import engine, engine.search.mcts, engine.tools.match, engine.tools.bench, "
        "engine.protocol.info"
    )


def test_public_api_is_reexported() -> None:
    for name in ("Board", "Color", "Rule", "Limit", "Searcher", "SearchResult", "MATE"):
        assert name in engine.__all__
        assert getattr(engine, name) is not None


def _functions(folder: Path) -> list[tuple[str, ast.FunctionDef, int]]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                args = node.args
                count = len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)
                found.append((f"{path.name}:{node.name}", node, count))
    return found


def test_compiled_functions_take_their_arrays_in_structs() -> None:
    compiled = [
        (name, count)
        for name, node, count in _functions(ENGINE / "kernel")
        if any("njit" in ast.unparse(decorator) for decorator in node.decorator_list)
    ]
    assert len(compiled) > 30
    assert [(name, count) for name, count in compiled if count > 8] == []


def test_no_engine_function_takes_more_than_ten_parameters() -> None:
    assert [(name, count) for name, _, count in _functions(ENGINE) if count > 10] == []
