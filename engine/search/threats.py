"""Forced wins by threats, in plain Python: ``find_vcf`` (victory by continuous fours),
``find_vct`` (by fours and open threes) and ``find_forced_win`` (the VCF first, then the
VCT), for the side to move of a ``Board``.

They run the kernel's compiled threat searches (``kernel/threats.py``), the same ones the
``Searcher`` tries at its root, and return a ``ForcedWin`` with the kind, the plies to the
five and the line, or None. A VCF line is complete: the attacker's fours and the forced
blocks, ending with the five (or with the open four that makes it). A VCT line holds its
first move only: every defence of an open three is searched, so no single line is the
answer. Renju black's open threes may be forbidden shapes, so for black under renju only
fours are trusted (as the searchers do). The scratch tables are kept per thread and per
board shape between calls; they are large (a few MB) and start cold otherwise."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from enum import StrEnum

from engine.game.board import Board
from engine.game.color import Color
from engine.game.points import Point
from engine.kernel.heuristics import Heuristics, new_heuristics
from engine.kernel.state import (
    I_NODES,
    State,
    index_point,
    init_walls,
    new_state,
    place,
    point_index,
)
from engine.kernel.tables import Tables, rule_tables
from engine.kernel.threats import ROOT_VCF_DEPTH, ROOT_VCT_DEPTH, root_vcf, root_vct

# Nodes a VCT may take by default (the Searcher gives its root VCT as many).
VCT_NODES = 60_000


class ThreatKind(StrEnum):
    VCF = "vcf"  # every attacking move is a four
    VCT = "vct"  # fours and open threes


@dataclass(frozen=True)
class ForcedWin:
    """A forced win of the side to move: ``plies`` counts both sides' moves up to and
    including the five; ``line`` starts with the winning move (see the module note)."""

    kind: ThreatKind
    plies: int
    line: list[Point]
    nodes: int = 0

    @property
    def move(self) -> Point:
        """The first move of the win."""
        return self.line[0]

    @property
    def attacker_moves(self) -> int:
        """The winner's own moves up to the five ("VCF in 4")."""
        return (self.plies + 1) // 2

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "plies": self.plies,
            "moves": self.attacker_moves,
            "line": [[int(x), int(y)] for x, y in self.line],
        }


_local = threading.local()


def _scratch(cells: int, shape: tuple[int, str]) -> Heuristics:
    """This thread's scratch tables for ``shape`` (kept: their failure table is a cache)."""
    kept: tuple[tuple[int, str], Heuristics] | None = getattr(_local, "kept", None)
    if kept is None or kept[0] != shape:
        kept = (shape, new_heuristics(cells))
        _local.kept = kept
    return kept[1]


def _prepare(board: Board) -> tuple[State, Tables, Heuristics]:
    tables = rule_tables(board.rule.value, board.size)
    state = new_state(board.size, board.rule.value == "renju")
    init_walls(state, tables)
    for x, y in board.moves:
        place(state, tables, point_index(state, x, y), int(board.cell(x, y)))
    hs = _scratch(state.cells.shape[0], (board.size, board.rule.value))
    return state, tables, hs


def find_vcf(board: Board, *, depth: int = ROOT_VCF_DEPTH) -> ForcedWin | None:
    """The side to move's win by at most ``depth`` fours in a row, or None (also for a
    finished game)."""
    if board.is_game_over():
        return None
    state, tables, hs = _prepare(board)
    plies = int(root_vcf(state, tables, hs, depth))
    if plies <= 0:
        return None
    line: list[Point] = []
    for k in range(plies):
        cell = int(hs.vcf_line[k])
        if cell < 0:
            break
        line.append(index_point(state, cell))
    if not line or line[0] not in board.legal_moves():
        return None
    return ForcedWin(ThreatKind.VCF, plies, line, int(state.info[I_NODES]))


def find_vct(board: Board, *, nodes: int = VCT_NODES) -> ForcedWin | None:
    """The side to move's win by fours and open threes within ``nodes`` nodes, or None
    (always None for renju black: see the module note)."""
    if board.is_game_over() or (board.rule.has_forbidden and board.turn is Color.BLACK):
        return None
    state, tables, hs = _prepare(board)
    plies = int(root_vct(state, tables, hs, ROOT_VCT_DEPTH, max(1, nodes)))
    if plies <= 0:
        return None
    move = index_point(state, int(hs.vcf_line[0]))
    if move not in board.legal_moves():
        return None
    return ForcedWin(ThreatKind.VCT, plies, [move], int(state.info[I_NODES]))


def find_forced_win(board: Board, *, vct_nodes: int = VCT_NODES) -> ForcedWin | None:
    """The side to move's forced win by fours (preferred: its line is complete) or else
    by threats, or None."""
    return find_vcf(board) or find_vct(board, nodes=vct_nodes)
