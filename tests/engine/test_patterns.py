"""Shapes from the lookup tables and from the incremental core agree with the literal
definitions applied to whole lines."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from engine import Board, Rule
from engine.kernel import state as kstate
from engine.kernel.patterns import (
    B3,
    B4,
    COARSE_OF,
    DEAD,
    F1,
    F2,
    F2A,
    F2B,
    F3,
    F3S,
    F4,
    F5,
    HALF,
    NUM_PATTERNS,
    OL,
    OWN,
    PATTERN_NAMES,
    WALL,
    build_table,
    classify,
    classify_coarse,
    key_slot,
    swap_colours,
)
from engine.kernel.tables import C_FIVE, Tables, combo_index, rule_tables


def shape_of(text: str, exact: bool = False) -> str:
    """Shape at ``_`` for X in a line written like ``.XX_X.`` (``O`` opponent, ``|`` wall)."""
    codes = {".": 0, "_": 0, "X": 1, "O": 2, "|": 3}
    line = np.array([codes[c] for c in text], dtype=np.int8)
    return PATTERN_NAMES[classify(line, text.index("_"), exact)]


@pytest.mark.parametrize(
    ("line", "free", "exact"),
    [
        ("XX_XX", "F5", "F5"),
        ("XXX_XX", "F5", "OL"),
        ("O_XXXXO", "F5", "F5"),
        (".XX_X.", "F4", "F4"),
        ("X.X_X.X", "F4", "F4"),  # two fours in one line: two points make five
        ("OXXX_.", "B4", "B4"),
        ("X.XX_.XX", "F4", "B4"),  # the right five would be a six under exact rules
        ("..X_X..", "F3S", "F3S"),  # two points make an open four
        ("O.X_X..", "F3", "F3"),  # one point does
        (".X_.X.", "F3", "F3"),
        ("|.X_X.|", "B3", "B3"),  # only five cells: never an open four
        ("OX_X...", "B3", "B3"),
        ("...X_...", "F2B", "F2B"),  # four points make an open three
        ("O..X_...", "F2A", "F2A"),  # three do
        ("..X._...", "F2A", "F2A"),
        (".X.._...", "F2", "F2"),  # two do
        ("..X_..", "F2", "F2"),
        ("O.X_..O", "B2", "B2"),
        ("..._...", "F1", "F1"),
        ("O.._.O", "DEAD", "DEAD"),
    ],
)
def test_named_shapes(line: str, free: str, exact: str) -> None:
    assert shape_of(line) == free
    assert shape_of(line, exact=True) == exact


@njit
def _window_key(line: np.ndarray, pos: int) -> int:
    key = 0
    for offset in range(-HALF, HALF + 1):
        if offset == 0:
            continue
        q = pos + offset
        cell = WALL if q < 0 or q >= line.shape[0] else line[q]
        key |= cell << (2 * key_slot(offset))
    return key


@njit
def _fill_line(line: np.ndarray, code: int) -> None:
    """The line numbered ``code`` in base 3 (empty/own/opponent), its first cell lowest."""
    for k in range(line.shape[0]):
        line[k] = code % 3
        code //= 3


@njit
def _count_mismatches(length: int, table: np.ndarray, exact: bool) -> int:
    """Every line of ``length`` cells over empty/own/opponent: table vs. definitions."""
    line = np.zeros(length, dtype=np.int8)
    mismatches = 0
    for code in range(3**length):
        _fill_line(line, code)
        for pos in range(length):
            if line[pos] != 0:
                continue
            if table[_window_key(line, pos)] != classify(line, pos, exact):
                mismatches += 1
    return mismatches


@pytest.mark.parametrize("exact", [False, True])
def test_table_matches_definitions_on_every_short_line(exact: bool) -> None:
    table = build_table(exact)
    for length in range(1, 12):
        assert _count_mismatches(length, table, exact) == 0, f"length {length}"


def test_swapped_table_reads_the_other_side() -> None:
    table = build_table(False)
    swapped = swap_colours(table)
    rng = np.random.default_rng(7)
    for _ in range(2000):
        line = rng.integers(0, 3, size=15).astype(np.int8)
        pos = int(rng.integers(0, 15))
        line[pos] = 0
        mirrored = np.where(line == 1, 2, np.where(line == 2, 1, line)).astype(np.int8)
        assert swapped[_window_key(line, pos)] == classify(mirrored, pos, False)


def _lines_through(board_cells: np.ndarray, x: int, y: int, dx: int, dy: int):
    size = board_cells.shape[0]
    while 0 <= x - dx < size and 0 <= y - dy < size:
        x, y = x - dx, y - dy
    cells, index = [], []
    while 0 <= x < size and 0 <= y < size:
        cells.append(int(board_cells[y, x]))
        index.append((x, y))
        x, y = x + dx, y + dy
    return np.array(cells, dtype=np.int8), index


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_incremental_shapes_match_whole_lines_in_random_games(rule: str) -> None:
    rng = np.random.default_rng(11)
    size = 15
    tables = rule_tables(rule, size)
    exact_for = {1: Rule(rule).exact_five(True), 2: Rule(rule).exact_five(False)}
    directions = [(1, 0), (0, 1), (1, 1), (-1, 1)]
    for _game in range(6):
        state = kstate.new_state(size, rule == "renju")
        kstate.init_walls(state, tables)
        grid = np.zeros((size, size), dtype=np.int8)
        points = [(x, y) for y in range(size) for x in range(size)]
        order = rng.permutation(len(points))[:120]
        for ply, k in enumerate(order):
            x, y = points[k]
            color = 1 + ply % 2
            kstate.place(state, tables, kstate.point_index(state, x, y), color)
            grid[y, x] = color
            if ply % 20 == 19:
                # Undo a few moves and replay them: removal must restore shapes exactly.
                kstate.remove(state, tables)
                grid[y, x] = 0
                kstate.place(state, tables, kstate.point_index(state, x, y), color)
                grid[y, x] = color
                for ex, ey in points:
                    if grid[ey, ex]:
                        continue
                    i = kstate.point_index(state, ex, ey)
                    for d, (dx, dy) in enumerate(directions):
                        line, index = _lines_through(grid, ex, ey, dx, dy)
                        pos = index.index((ex, ey))
                        for side in (1, 2):
                            view = line.copy()
                            if side == 2:
                                view = np.where(line == 1, 2, np.where(line == 2, 1, line))
                            expected = classify(view.astype(np.int8), pos, exact_for[side])
                            assert state.shape[side - 1, d, i] == expected
                _check_combinations(state, tables, grid)


def _check_combinations(state: kstate.State, tables: Tables, grid: np.ndarray) -> None:
    """Each empty cell's combination, class and value follow from its four shapes, and
    the per-side counts and evaluation sums cover exactly the empty cells."""
    size = grid.shape[0]
    counts = np.zeros_like(state.class_count)
    sums = np.zeros_like(state.eval_sum)
    for y in range(size):
        for x in range(size):
            if grid[y, x]:
                continue
            i = kstate.point_index(state, x, y)
            for side in range(2):
                combo = combo_index(*(int(state.shape[side, d, i]) for d in range(4)))
                assert state.combo[side, i] == combo
                assert state.klass[side, i] == tables.combo_class[combo]
                assert state.value[side, i] == tables.combo_value[combo]
                counts[side, state.klass[side, i]] += 1
                sums[side] += tables.eval_cells[combo]
    assert np.array_equal(counts, state.class_count)
    assert np.array_equal(sums, state.eval_sum)


@njit
def _coarse_mismatches(length: int, exact: bool) -> int:
    """Every line of ``length`` cells over empty/own/opponent: the split shapes fall into
    the shapes they split from."""
    line = np.zeros(length, dtype=np.int8)
    mismatches = 0
    for code in range(3**length):
        _fill_line(line, code)
        for pos in range(length):
            if line[pos] == 0:
                fine = classify(line, pos, exact)
                if COARSE[fine] != classify_coarse(line, pos, exact):
                    mismatches += 1
    return mismatches


COARSE = np.array(COARSE_OF, dtype=np.int64)


@pytest.mark.parametrize("exact", [False, True])
def test_split_shapes_fall_into_their_coarse_shapes(exact: bool) -> None:
    assert _coarse_mismatches(9, exact) == 0
    assert len(COARSE_OF) == NUM_PATTERNS == len(PATTERN_NAMES)
    assert [PATTERN_NAMES[COARSE_OF[s]] for s in (F2A, F2B, F3S)] == ["F2", "F2", "F3"]


def test_shape_order_is_by_strength() -> None:
    assert DEAD < F1 < F2 < B3 < F3 < B4 < F4 < F5 and OL > F5
    assert OWN == 1
    assert {name for name in PATTERN_NAMES} >= {"B4", "F3", "B3"}
    assert B3 < F3


def test_board_and_core_agree_on_five() -> None:
    board = Board(15)
    for move in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]:
        board.push(move)
    tables = rule_tables("freestyle", 15)
    state = kstate.new_state(15, False)
    kstate.init_walls(state, tables)
    for x, y in board.moves:
        kstate.place(state, tables, kstate.point_index(state, x, y), board.cell(x, y))
    assert state.klass[0, kstate.point_index(state, 4, 0)] == C_FIVE
    assert state.shape[0, 0, kstate.point_index(state, 4, 0)] == F5
    assert state.shape[1, 0, kstate.point_index(state, 4, 1)] == F5
    assert state.shape[0, 0, kstate.point_index(state, 5, 0)] != F5
    assert B4 != F4


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_removing_every_stone_restores_each_earlier_state_exactly(rule: str) -> None:
    """Removal puts back what each placement changed (from the undo log), so taking the
    stones back one by one passes through every earlier state, array for array; a copy
    made with ``copy_into`` unwinds the same way."""
    rng = np.random.default_rng(5)
    size = 15
    tables = rule_tables(rule, size)
    fields = ("cells", "keys", "shape", "value", "klass", "combo", "class_count", "eval_sum")
    state = kstate.new_state(size, rule == "renju")
    kstate.init_walls(state, tables)
    snapshots = []
    points = [(x, y) for y in range(size) for x in range(size)]
    for ply, k in enumerate(rng.permutation(len(points))[:90]):
        snapshots.append(
            {name: getattr(state, name).copy() for name in fields}
            | {
                "near": state.near.copy(),
                "hash": int(state.info[kstate.I_HASH]),
                "bounds": int(state.info[kstate.I_BOUNDS]),
            }
        )
        kstate.place(state, tables, kstate.point_index(state, *points[k]), 1 + ply % 2)
    copy = kstate.clone_state(state)
    copy.cells[:] = 0
    kstate.copy_into(copy, state)
    for target in (state, copy):
        for expected in reversed(snapshots):
            kstate.remove(target, tables)
            for name in fields:
                assert np.array_equal(getattr(target, name), expected[name]), name
            assert np.array_equal(target.near, expected["near"])
            assert int(target.info[kstate.I_HASH]) == expected["hash"]
            assert int(target.info[kstate.I_BOUNDS]) == expected["bounds"]
        assert target.info[kstate.I_UNDO] == 0


@pytest.mark.parametrize("size", [7, 15, 19])
def test_candidate_box_is_the_stones_box_widened_by_two(size: int) -> None:
    """The box the board scans cover is the stones' bounding box widened by two and cut
    to the board, through placements and removals, and every empty cell near a stone or
    with a class for either side lies inside it."""
    rng = np.random.default_rng(size)
    tables = rule_tables("freestyle", size)
    state = kstate.new_state(size, False)
    kstate.init_walls(state, tables)
    points = [(x, y) for y in range(size) for x in range(size)]
    placed: list[tuple[int, int]] = []
    for ply, k in enumerate(rng.permutation(len(points))[: size * size // 3]):
        kstate.place(state, tables, kstate.point_index(state, *points[k]), 1 + ply % 2)
        placed.append(points[k])
        if ply % 7 == 6:
            kstate.remove(state, tables)
            placed.pop()
        xs = [x for x, _ in placed]
        ys = [y for _, y in placed]
        expected = (
            max(min(xs) - 2, 0),
            min(max(xs) + 2, size - 1),
            max(min(ys) - 2, 0),
            min(max(ys) + 2, size - 1),
        )
        x0, x1, y0, y1 = kstate.candidate_box(state)
        assert (x0, x1, y0, y1) == expected
        for x, y in points:
            i = kstate.point_index(state, x, y)
            if state.cells[i] == 0 and (state.near[i] > 0 or state.klass[:, i].any()):
                assert x0 <= x <= x1 and y0 <= y <= y1, (x, y)


def test_near_counts_the_stones_two_steps_along_the_lines_and_is_negative_on_stones() -> None:
    """``near`` is, for an empty cell, the number of stones within two steps of it along
    its four lines, and below zero on a stone, through placements and removals: move
    generation keeps a cell exactly when ``near`` is above zero."""
    size = 15
    rng = np.random.default_rng(7)
    tables = rule_tables("freestyle", size)
    state = kstate.new_state(size, False)
    kstate.init_walls(state, tables)
    points = [(x, y) for y in range(size) for x in range(size)]
    stones: set[tuple[int, int]] = set()
    steps = [(1, 0), (0, 1), (1, 1), (1, -1)]
    for ply, k in enumerate(rng.permutation(len(points))[:60]):
        kstate.place(state, tables, kstate.point_index(state, *points[k]), 1 + ply % 2)
        stones.add(points[k])
        if ply % 5 == 4:
            index = kstate.remove(state, tables)
            stones.remove(kstate.index_point(state, index))
        for x, y in points:
            i = kstate.point_index(state, x, y)
            if (x, y) in stones:
                assert state.near[i] < 0, (x, y)
                continue
            count = sum(
                (x + s * away * dx, y + s * away * dy) in stones
                for dx, dy in steps
                for s in (-1, 1)
                for away in (1, 2)
            )
            assert state.near[i] == count, (x, y)
