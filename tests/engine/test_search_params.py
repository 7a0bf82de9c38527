"""The search's tunable numbers: their defaults are the shipped search, other values reach
the kernel without compiling it again, bad names and values are refused, and the brain
takes them as ``--param`` options."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine import Board, Limit, Searcher
from engine.kernel.search_params import (
    NUM_SEARCH_PARAMS,
    P_LMR_BASE,
    P_RFP_MARGIN,
    SEARCH_PARAMS,
    THREAT_PARAMS,
    default_search,
    lmr_table,
    parse_params,
    search_arrays,
    shipped_value,
)
from engine.kernel.tables import rule_tables, with_search_params
from engine.kernel.weights import T_TEMPO

ROOT = Path(__file__).resolve().parents[2]
MOVES = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9), (10, 8)]


def _board() -> Board:
    return Board.from_moves(MOVES)


def test_defaults_are_in_range_and_one_per_index() -> None:
    assert len(SEARCH_PARAMS) == NUM_SEARCH_PARAMS
    assert len({p.name for p in SEARCH_PARAMS} | set(THREAT_PARAMS)) == NUM_SEARCH_PARAMS + 2
    for param in SEARCH_PARAMS:
        assert param.low <= param.default <= param.high, param
        assert param.step > 0
    assert default_search()[P_RFP_MARGIN] == 60


def test_default_reductions_follow_the_formula() -> None:
    table = lmr_table(50, 150)
    for depth in (1, 3, 8, 20, 63):
        for n in (1, 2, 5, 11, 63):
            assert table[depth, n] == int(0.5 + np.log(depth) * np.log(n + 1) / 1.5)
    assert table[0].sum() == 0 and table[:, 0].sum() == 0
    assert np.array_equal(rule_tables("freestyle", 15).lmr, table)
    # A larger base reduces every late move more.
    assert (lmr_table(150, 150)[1:, 1:] == table[1:, 1:] + 1).all()


def test_parse_refuses_bad_input() -> None:
    assert parse_params(["rfp_margin=70", "tempo=250"]) == {"rfp_margin": 70, "tempo": 250}
    with pytest.raises(ValueError, match="unknown search parameter 'nope'"):
        parse_params(["nope=1"])
    with pytest.raises(ValueError, match="must lie within"):
        parse_params(["rfp_margin=100000"])
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_params(["rfp_margin"])
    with pytest.raises(ValueError, match="whole number"):
        parse_params(["rfp_margin=6.5"])
    with pytest.raises(ValueError, match="unknown"):
        Searcher(params={"bogus": 3})


def test_tuned_tables_leave_the_shared_ones_alone() -> None:
    tables = rule_tables("freestyle", 15)
    threats_before = tables.eval_threats.copy()
    tuned = with_search_params(tables, {"rfp_margin": 90, "lmr_base": 150, "tempo": 300})
    assert tuned.search[P_RFP_MARGIN] == 90 and tuned.search[P_LMR_BASE] == 150
    assert tuned.eval_threats[T_TEMPO] == 300
    assert (tuned.lmr[2:, 2:] >= tables.lmr[2:, 2:]).all() and (tuned.lmr != tables.lmr).any()
    assert np.array_equal(tables.eval_threats, threats_before)
    assert tables.search[P_RFP_MARGIN] == 60
    assert shipped_value("tempo", tables.eval_threats) == int(threats_before[T_TEMPO])
    search, _, threats = search_arrays({}, tables.eval_threats)
    assert np.array_equal(search, tables.search) and np.array_equal(threats, threats_before)


def test_the_search_reads_them() -> None:
    board = _board()
    plain = Searcher().search(board, Limit(depth=8))
    same = Searcher(params={p.name: p.default for p in SEARCH_PARAMS}).search(board, Limit(depth=8))
    assert (same.nodes, same.move, same.score) == (plain.nodes, plain.move, plain.score)
    reduced = Searcher(params={"lmr_base": 250, "lmp_3": 2, "lmp_4": 2}).search(
        board, Limit(depth=8)
    )
    # Pruning more does not always make a smaller tree (a fail low may search again), but
    # the tree changes.
    assert (reduced.nodes, reduced.score) != (plain.nodes, plain.score)
    tempo = Searcher(params={"tempo": 0}).search(board, Limit(depth=8))
    assert tempo.nodes != plain.nodes or tempo.score != plain.score


def _brain(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "webapp.cli", "pbrain", *args]
    return subprocess.run(
        command, input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT
    )


def test_brain_takes_params() -> None:
    done = _brain(
        "--param", "rfp_margin=80", "--param", "tempo=250", stdin="START 15\nBEGIN\nEND\n"
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if not line.startswith("MESSAGE")]
    assert lines == ["OK", "7,7"]


def test_brain_refuses_bad_params() -> None:
    done = _brain("--param", "rfp_margin=abc", stdin="START 15\nEND\n")
    assert done.returncode == 2
    assert "--param" in done.stderr and "whole number" in done.stderr
    assert done.stdout == ""
    done = _brain("--param", "nope=1", stdin="START 15\nEND\n")
    assert done.returncode == 2 and "unknown search parameter" in done.stderr
    done = _brain("--player", "mcts", "--param", "tempo=250", stdin="START 15\nEND\n")
    assert done.returncode == 2 and "negamax player" in done.stderr
    assert done.stdout == ""
