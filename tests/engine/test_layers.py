"""The engine's layers: the brain loads no web code, and the public API stays in place."""

from __future__ import annotations

import subprocess
import sys

import engine

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
