"""The search's entry point runs ``pvs`` over borrowed structs: the same search, node for
node, as ``pvs`` over the structs themselves, and the arrays stay owned by Python."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Board
from engine.kernel.heuristics import new_heuristics
from engine.kernel.pvs import pvs, search_root
from engine.kernel.scores import INF
from engine.kernel.state import I_NODES, init_walls, new_state, place, point_index
from engine.kernel.tables import rule_tables
from engine.kernel.tt import new_tt
from engine.tools.bench_positions import bench_boards

ROOT = Path(__file__).resolve().parents[2]


def _prepared(board: Board):  # type: ignore[no-untyped-def]
    tables = rule_tables("freestyle", board.size)
    state = new_state(board.size, False)
    init_walls(state, tables)
    for ply, (x, y) in enumerate(board.moves):
        place(state, tables, point_index(state, x, y), 1 + ply % 2)
    hs = new_heuristics(state.cells.shape[0])
    return state, tables, new_tt(4), hs


@pytest.mark.parametrize("name", ["opening-02", "opening-09", "quiet-17"])
def test_search_root_searches_exactly_as_pvs(name: str) -> None:
    board = dict(bench_boards())[name]
    runs = []
    for entry in ("root", "direct"):
        state, tables, tt, hs = _prepared(board)
        refs = []
        for depth in range(1, 7):
            if entry == "root":
                score = search_root(state, tables, tt, hs, depth, -INF, INF)
            else:
                score = pvs(state, tables, tt, hs, depth, -INF, INF, 0)
            refs.append(sys.getrefcount(state.cells))
        # Searching leaks no reference to the arrays (and frees none it does not own).
        assert len(set(refs)) == 1
        pv = [int(hs.pv[0, k]) for k in range(int(hs.pv_len[0]))]
        runs.append((int(score), int(state.info[I_NODES]), pv, tt.slots.sum()))
    assert runs[0] == runs[1]
    assert runs[0][1] > 1000
    assert runs[0][2]


def test_borrowed_is_the_identity_without_the_compiler() -> None:
    code = (
        "import numpy as np\n"
        "from engine.kernel.borrow import borrowed\n"
        "value = (np.zeros(3), np.ones(2))\n"
        "assert borrowed(value) is value\n"
        "print('ok')\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
