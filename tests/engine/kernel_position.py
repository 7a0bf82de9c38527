"""A compiled kernel state for tests: stones placed in turn, black first."""

from __future__ import annotations

from collections.abc import Iterable

from engine.kernel.state import State, init_walls, new_state, place, point_index
from engine.kernel.tables import Tables, rule_tables


def kernel_position(
    moves: Iterable[tuple[int, int]], size: int = 15, rule: str = "freestyle"
) -> tuple[State, Tables]:
    """The kernel's state after ``moves`` (black plays the first), with its rule's tables."""
    tables = rule_tables(rule, size)
    state = new_state(size, rule == "renju")
    init_walls(state, tables)
    for ply, (x, y) in enumerate(moves):
        place(state, tables, point_index(state, x, y), 1 + ply % 2)
    return state, tables
