"""The leaves' quiescence of fours: it stands pat on the static score, plays the side to
move's fours near its last stone with their forced blocks, answers a four on the board,
and leaves the state as it found it. A plain recursion without pruning is the reference
its alpha-beta must match."""

from __future__ import annotations

import random

import numpy as np

from engine.kernel.cells import five_cells, winning_flex4_cell
from engine.kernel.evaluation import evaluate
from engine.kernel.heuristics import Heuristics, new_heuristics
from engine.kernel.quiescence import (
    LOCAL_LINE,
    LOCAL_SQUARE,
    QUIESCENCE_FOURS,
    QUIESCENCE_PLAIN,
    QUIESCENCE_WIDTH,
    quiescence,
)
from engine.kernel.scores import INF, MATE
from engine.kernel.state import (
    I_HASH,
    I_NODES,
    I_PLY,
    I_STRIDE,
    PAD,
    State,
    candidate_box,
    init_walls,
    new_state,
    place,
    point_index,
    remove,
    side_to_move,
)
from engine.kernel.tables import C_BLOCK4, C_BLOCK4_FLEX3, C_FIVE, Tables, rule_tables
from engine.kernel.threats import five_point_after_four


def setup(stones: list[tuple[int, int, int]]) -> tuple[State, Tables, Heuristics]:
    """A state with the given (x, y, colour) stones, in that order."""
    tables = rule_tables("freestyle", 15)
    state = new_state(15, False)
    init_walls(state, tables)
    for x, y, color in stones:
        place(state, tables, point_index(state, x, y), color)
    return state, tables, new_heuristics(state.cells.shape[0])


def near_last(st: State, color: int, i: int) -> bool:
    """Whether cell ``i`` is near enough to ``color``'s last stone for a four there to be
    tried (any cell is when that stone is not on the board)."""
    plies = int(st.info[I_PLY])
    if plies < 2 or st.cells[st.stack[plies - 2]] != color:
        return True
    last = int(st.stack[plies - 2])
    dx = abs(int(st.column[i]) - int(st.column[last]))
    dy = abs(int(st.row[i]) - int(st.row[last]))
    far = max(dx, dy)
    return far <= LOCAL_SQUARE or (far <= LOCAL_LINE and (dx == 0 or dy == 0 or dx == dy))


def reference(st: State, tb: Tables, ply: int, fours: int) -> int:
    """The same rule as ``quiescence``, searched in full without bounds."""
    color = side_to_move(st)
    me, op = color - 1, 2 - color
    if st.class_count[me, C_FIVE] > 0:
        return MATE - ply - 1
    if st.class_count[op, C_FIVE] > 0:
        cells = np.zeros(2, dtype=np.int32)
        if five_cells(st, op, cells) >= 2:
            return -(MATE - ply - 2)
        place(st, tb, int(cells[0]), color)
        score = -reference(st, tb, ply + 1, fours)
        remove(st, tb)
        return score
    if winning_flex4_cell(st, me) >= 0:
        return MATE - ply - 3
    best = int(evaluate(st, tb))
    if fours >= QUIESCENCE_FOURS:
        return best
    tried = []
    x0, x1, y0, y1 = candidate_box(st)
    stride = int(st.info[I_STRIDE])
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            i = (y + PAD) * stride + PAD + x
            klass = st.klass[me, i]
            plain = klass == C_BLOCK4 and fours < QUIESCENCE_PLAIN
            wanted = klass == C_BLOCK4_FLEX3 or plain
            if st.cells[i] == 0 and wanted and near_last(st, color, i):
                tried.append(i)
    for i in tried[:QUIESCENCE_WIDTH]:
        place(st, tb, i, color)
        block = five_point_after_four(st, tb, me, i)
        if block >= 0:
            place(st, tb, block, 3 - color)
            best = max(best, reference(st, tb, ply + 2, fours + 1))
            remove(st, tb)
        remove(st, tb)
    return best


def snapshot(st: State) -> tuple[bytes, ...]:
    return (
        st.cells.tobytes(),
        st.klass.tobytes(),
        st.eval_sum.tobytes(),
        int(st.info[I_HASH]).to_bytes(8, "little", signed=True),
    )


def random_position(rng: random.Random, stones: int) -> list[tuple[int, int, int]]:
    """Stones near the centre, alternating colours, with no five and no four on the board
    for the side that just moved."""
    while True:
        cells = rng.sample([(x, y) for x in range(4, 11) for y in range(4, 11)], stones)
        placed = [(x, y, 1 + n % 2) for n, (x, y) in enumerate(cells)]
        state, _, _ = setup(placed)
        if state.class_count[0, C_FIVE] == 0 and state.class_count[1, C_FIVE] == 0:
            return placed


def test_without_fours_it_is_the_static_score() -> None:
    state, tables, hs = setup([(7, 7, 1), (8, 8, 2), (6, 6, 1), (9, 9, 2)])
    assert state.class_count[0, C_BLOCK4] + state.class_count[0, C_BLOCK4_FLEX3] == 0
    state.info[I_NODES] = 0
    assert quiescence(state, tables, hs, -INF, INF, 0, 0) == evaluate(state, tables)
    assert state.info[I_NODES] == 1


def test_a_static_score_at_beta_stands() -> None:
    # Black to move with a closed three (fours to make at 10,7 and 11,7).
    state, tables, hs = setup([(7, 7, 1), (6, 7, 2), (8, 7, 1), (3, 3, 2), (9, 7, 1), (3, 11, 2)])
    assert state.class_count[0, C_BLOCK4] > 0
    stand = int(evaluate(state, tables))
    state.info[I_NODES] = 0
    assert quiescence(state, tables, hs, stand - 10, stand, 0, 0) == stand
    assert state.info[I_NODES] == 1


def test_only_fours_near_the_last_stone_are_tried() -> None:
    # Black has a closed three (3,3 .. 5,3, closed by white at 2,3): fours at 6,3 and 7,3.
    three = [(3, 3, 1), (4, 3, 1), (5, 3, 1)]
    white = [(2, 3, 2), (9, 1, 2), (1, 9, 2), (13, 1, 2)]
    far = [(12, 12, 1)]
    # Black's last stone far from the fours: none is tried.
    black = three + far
    state, tables, hs = setup([stone for pair in zip(black, white, strict=True) for stone in pair])
    assert state.class_count[0, C_BLOCK4] == 2
    state.info[I_NODES] = 0
    assert quiescence(state, tables, hs, -INF, INF, 0, 0) == evaluate(state, tables)
    assert state.info[I_NODES] == 1
    # The same stones with the three's last stone played last: its fours are tried.
    black = far + three
    state, tables, hs = setup([stone for pair in zip(black, white, strict=True) for stone in pair])
    state.info[I_NODES] = 0
    quiescence(state, tables, hs, -INF, INF, 0, 0)
    assert state.info[I_NODES] > 1


def test_a_four_on_the_board_is_blocked_first() -> None:
    # White has just made a four (5,3 .. 8,3, five at 9,3; 4,3 is black): black must block.
    stones = [
        (4, 3, 1),
        (5, 3, 2),
        (7, 7, 1),
        (6, 3, 2),
        (8, 8, 1),
        (7, 3, 2),
        (1, 12, 1),
        (8, 3, 2),
    ]
    state, tables, hs = setup(stones)
    assert state.class_count[1, C_FIVE] == 1
    before = snapshot(state)
    score = quiescence(state, tables, hs, -INF, INF, 0, 0)
    assert snapshot(state) == before
    place(state, tables, point_index(state, 9, 3), 1)
    assert score == -quiescence(state, tables, hs, -INF, INF, 1, 0)


def test_two_fives_to_block_lose_and_a_five_to_make_wins() -> None:
    # White has an open four: black cannot block both ends.
    stones = [
        (7, 7, 1),
        (5, 3, 2),
        (8, 8, 1),
        (6, 3, 2),
        (1, 12, 1),
        (7, 3, 2),
        (12, 1, 1),
        (8, 3, 2),
    ]
    state, tables, hs = setup(stones)
    assert quiescence(state, tables, hs, -INF, INF, 4, 0) == -(MATE - 6)
    # A black stone elsewhere instead: white to move completes its five.
    place(state, tables, point_index(state, 12, 12), 1)
    assert quiescence(state, tables, hs, -INF, INF, 4, 0) == MATE - 5


def test_a_double_four_to_make_wins() -> None:
    # Black: 7,7 8,7 9,7 (closed by white at 6,7) and 10,8 10,9 10,10 (closed at 10,11):
    # a stone at 10,7 makes two fours at once.
    stones = [
        (7, 7, 1),
        (6, 7, 2),
        (8, 7, 1),
        (10, 11, 2),
        (9, 7, 1),
        (1, 1, 2),
        (10, 8, 1),
        (1, 13, 2),
        (10, 9, 1),
        (13, 1, 2),
        (10, 10, 1),
        (13, 13, 2),
    ]
    state, tables, hs = setup(stones)
    assert winning_flex4_cell(state, 0) >= 0  # a double four is the flex-four class
    assert quiescence(state, tables, hs, -INF, INF, 0, 0) == MATE - 3


def test_alpha_beta_matches_the_plain_recursion_and_restores_the_state() -> None:
    rng = random.Random(20261130)
    improved = 0
    for _ in range(60):
        stones = random_position(rng, rng.randrange(10, 26))
        state, tables, hs = setup(stones)
        before = snapshot(state)
        full = quiescence(state, tables, hs, -INF, INF, 0, 0)
        assert snapshot(state) == before
        assert full == reference(state, tables, 0, 0)
        assert snapshot(state) == before
        stand = int(evaluate(state, tables))
        assert full >= stand
        improved += full > stand
        # A null window around the full score tells which side of it the truth lies.
        assert quiescence(state, tables, hs, full - 1, full, 0, 0) >= full
        assert quiescence(state, tables, hs, full, full + 1, 0, 0) <= full
    # The positions exercise the fours, not only the stand pat.
    assert improved >= 5
