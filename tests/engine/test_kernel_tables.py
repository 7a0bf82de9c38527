"""Every table the kernel reads agrees with the definitions: the packed shape table of each
rule against ``patterns.classify`` over every window key, and the combination tables
against the class definitions over every four-shape combination."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from engine import Rule
from engine.kernel.patterns import (
    B4,
    COARSE_OF,
    EMPTY,
    F3,
    F3S,
    F4,
    F5,
    HALF,
    NUM_PATTERNS,
    OL,
    OPPONENT,
    OWN,
    SHORT_TABLE_SIZE,
    TABLE_SIZE,
    WALL,
    classify,
    key_slot,
    short_table,
)
from engine.kernel.tables import (
    C_BLOCK4,
    C_BLOCK4_FLEX3,
    C_FIVE,
    C_FLEX3,
    C_FLEX3_2X,
    C_FLEX4,
    C_NONE,
    PACK_CLASS_SHIFT,
    PACK_VALUE_MASK,
    PACK_VALUE_SHIFT,
    PACK_WEIGHT_BITS,
    PACK_WEIGHT_MASK,
    PACK_WEIGHT_OFFSET,
    PLAYOUT_CLASS_BONUS,
    PLAYOUT_SHAPE_VALUE,
    combo_index,
    pack_combos,
    rule_tables,
    with_weights,
)
from engine.kernel.weights import default_weights


@njit(cache=True)
def _reference(exact: bool, mirrored: bool) -> tuple[np.ndarray, np.ndarray]:
    """``classify`` of the centre of every window key (OWN and OPPONENT swapped when
    ``mirrored``), and whether the key is a window the board can show: a wall cell only
    has walls beyond it."""
    shapes = np.zeros(TABLE_SIZE, dtype=np.uint8)
    valid = np.zeros(TABLE_SIZE, dtype=np.bool_)
    window = np.zeros(2 * HALF + 1, dtype=np.int8)
    for key in range(TABLE_SIZE):
        window[HALF] = EMPTY
        for offset in range(-HALF, HALF + 1):
            if offset != 0:
                cell = (key >> (2 * key_slot(offset))) & 3
                if mirrored and cell == OWN:
                    cell = OPPONENT
                elif mirrored and cell == OPPONENT:
                    cell = OWN
                window[offset + HALF] = cell
        ok = True
        for offset in range(1, HALF):
            if window[HALF + offset] == WALL and window[HALF + offset + 1] != WALL:
                ok = False
            if window[HALF - offset] == WALL and window[HALF - offset - 1] != WALL:
                ok = False
        valid[key] = ok
        if ok:
            shapes[key] = classify(window, HALF, exact)
    return shapes, valid


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_every_window_key_of_the_shape_table_matches_classify(rule: str) -> None:
    packed = rule_tables(rule, 15).shapes
    black, valid = _reference(Rule(rule).exact_five(True), False)
    white, _ = _reference(Rule(rule).exact_five(False), True)
    # Each side: five cells of empty/own/opponent up to a wall: 3**5 + 3**4 + ... + 1.
    assert valid.sum() == sum(3**k for k in range(HALF + 1)) ** 2
    keys = np.arange(TABLE_SIZE)
    if rule == "freestyle":
        # Where overlines win, the table is indexed by the eight inner cells alone: every
        # full window must have the shapes of its inner part.
        assert packed.shape == (SHORT_TABLE_SIZE,)
        keys = keys & (SHORT_TABLE_SIZE - 1)
    else:
        assert packed.shape == (TABLE_SIZE,)
    assert np.array_equal((packed[keys] & 15)[valid], black[valid])
    assert np.array_equal((packed[keys] >> 4)[valid], white[valid])


def test_the_inner_key_drops_the_two_outer_cells() -> None:
    # The inner cells take the low sixteen bits, the cells five away the top four.
    inner = [key_slot(offset) for offset in (-4, -3, -2, -1, 1, 2, 3, 4)]
    assert sorted(inner) == list(range(8))
    assert sorted([key_slot(-5), key_slot(5)]) == [8, 9]
    # A wall four cells away stands for a wall beyond it too.
    short = short_table(np.arange(TABLE_SIZE, dtype=np.int64))
    wall_left = WALL << (2 * key_slot(-4))
    assert short[wall_left] == wall_left | (WALL << (2 * key_slot(-5)))
    assert short[OWN << (2 * key_slot(3))] == OWN << (2 * key_slot(3))


def _class_by_definition(shapes: list[int]) -> int:
    fours = sum(1 for s in shapes if s in (B4, F4))
    threes = shapes.count(F3) + shapes.count(F3S)
    if F5 in shapes:
        return C_FIVE
    if F4 in shapes or fours >= 2:
        return C_FLEX4
    if fours == 1 and threes >= 1:
        return C_BLOCK4_FLEX3
    if fours == 1:
        return C_BLOCK4
    if threes >= 2:
        return C_FLEX3_2X
    if threes == 1:
        return C_FLEX3
    return C_NONE


def test_every_combination_has_its_defined_class_and_weights() -> None:
    tables = rule_tables("freestyle", 15)
    count = NUM_PATTERNS**4
    assert tables.combo_class.shape == tables.combo_value.shape == (count,)
    assert tables.playout_value.shape == (count,)
    for index in range(count):
        shapes = [(index // NUM_PATTERNS ** (3 - d)) % NUM_PATTERNS for d in range(4)]
        assert combo_index(*shapes) == index
        klass = _class_by_definition(shapes)
        assert tables.combo_class[index] == klass, shapes
        weight = sum(int(PLAYOUT_SHAPE_VALUE[s]) for s in shapes) + PLAYOUT_CLASS_BONUS[klass]
        assert tables.playout_value[index] == weight
    # Stronger shapes never weigh less in the playouts; a split shape weighs as the one it
    # splits from.
    assert list(PLAYOUT_SHAPE_VALUE[:OL]) == sorted(PLAYOUT_SHAPE_VALUE[:OL])
    assert PLAYOUT_SHAPE_VALUE[OL] == 0
    for shape in range(NUM_PATTERNS):
        assert PLAYOUT_SHAPE_VALUE[shape] == PLAYOUT_SHAPE_VALUE[COARSE_OF[shape]]


def test_the_rules_share_the_two_definitions_of_five() -> None:
    free = rule_tables("freestyle", 15).shapes
    standard = rule_tables("standard", 15).shapes
    renju = rule_tables("renju", 15).shapes
    # Renju: black needs exactly five (as in standard), white does not (as in freestyle).
    assert np.array_equal(renju & 15, standard & 15)
    assert np.array_equal(short_table(renju >> 4), free >> 4)
    assert not np.array_equal(free & 15, short_table(standard & 15))


def _unpack(words: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    to_move = (words & PACK_WEIGHT_MASK) - PACK_WEIGHT_OFFSET
    waiting = ((words >> PACK_WEIGHT_BITS) & PACK_WEIGHT_MASK) - PACK_WEIGHT_OFFSET
    value = (words >> PACK_VALUE_SHIFT) & PACK_VALUE_MASK
    return to_move, waiting, value, words >> PACK_CLASS_SHIFT


def test_the_packed_combination_words_hold_the_weights_value_and_class() -> None:
    tables = rule_tables("freestyle", 15)
    to_move, waiting, value, klass = _unpack(tables.combo_pack)
    assert np.array_equal(to_move, tables.eval_cells[:, 0])
    assert np.array_equal(waiting, tables.eval_cells[:, 1])
    assert np.array_equal(value, tables.combo_value)
    assert np.array_equal(klass, tables.combo_class)
    # Other weights get their own words.
    weights = default_weights(tables.combo_value)
    weights.cells[0, 1] += 7
    other = with_weights(tables, weights)
    assert np.array_equal(_unpack(other.combo_pack)[0], other.eval_cells[:, 0])
    assert not np.array_equal(other.combo_pack, tables.combo_pack)


def test_weights_too_large_to_pack_are_refused() -> None:
    tables = rule_tables("freestyle", 15)
    cells = tables.eval_cells.copy()
    cells[5, 1] = PACK_WEIGHT_OFFSET
    with pytest.raises(ValueError, match="cell weights"):
        pack_combos(tables.combo_value, tables.combo_class, cells)
