"""The lookup tables of one rule, read-only during a search.

``shapes`` gives the line shape (``patterns``) of the centre cell of every window key, for
black and for white; ``combo_class`` and ``combo_value`` give the combined class and the
ordering value of a cell from its four line shapes; ``zobrist`` holds the hash keys of one
board size. The combined classes are the vocabulary every compiled search speaks."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.kernel.patterns import (
    B1,
    B2,
    B3,
    B4,
    DEAD,
    F1,
    F2,
    F3,
    F4,
    F5,
    HALF,
    NUM_PATTERNS,
    OL,
    build_table,
    swap_colours,
)

PAD = HALF

# Combined class of an empty cell for one side, from its four line shapes.
C_NONE = 0
C_FLEX3 = 1  # one open three
C_FLEX3_2X = 2  # two open threes (renju: forbidden to black)
C_BLOCK4 = 3  # one four
C_BLOCK4_FLEX3 = 4  # a four and an open three: wins unless the four is answered by a four
C_FLEX4 = 5  # an open four or two fours: wins next move
C_FIVE = 6  # makes five now
NUM_CLASSES = 7


# Value of one shape in one direction, for move ordering and evaluation.
SHAPE_VALUE = np.zeros(NUM_PATTERNS, dtype=np.int32)
SHAPE_VALUE[DEAD] = 0
SHAPE_VALUE[B1] = 1
SHAPE_VALUE[F1] = 3
SHAPE_VALUE[B2] = 5
SHAPE_VALUE[F2] = 14
SHAPE_VALUE[B3] = 16
SHAPE_VALUE[F3] = 48
SHAPE_VALUE[B4] = 60
SHAPE_VALUE[F4] = 400
SHAPE_VALUE[F5] = 4000
SHAPE_VALUE[OL] = 0


def _combo_tables() -> tuple[np.ndarray, np.ndarray]:
    size = NUM_PATTERNS**4
    values = np.zeros(size, dtype=np.int32)
    classes = np.zeros(size, dtype=np.int8)
    for index in range(size):
        shapes = [
            index // NUM_PATTERNS**3,
            (index // NUM_PATTERNS**2) % NUM_PATTERNS,
            (index // NUM_PATTERNS) % NUM_PATTERNS,
            index % NUM_PATTERNS,
        ]
        value = sum(int(SHAPE_VALUE[s]) for s in shapes)
        fives = shapes.count(F5)
        flex4 = shapes.count(F4)
        block4 = shapes.count(B4)
        flex3 = shapes.count(F3)
        if fives:
            cls = C_FIVE
        elif flex4 or block4 >= 2:
            cls = C_FLEX4
            value += 600
        elif block4 and flex3:
            cls = C_BLOCK4_FLEX3
            value += 500
        elif block4:
            cls = C_BLOCK4
        elif flex3 >= 2:
            cls = C_FLEX3_2X
            value += 300
        elif flex3:
            cls = C_FLEX3
        else:
            cls = C_NONE
        # Two developing shapes in different lines reinforce each other.
        developing = sum(1 for s in shapes if s in (F2, B3, F3))
        if developing >= 2:
            value += 20 * (developing - 1)
        values[index] = value
        classes[index] = cls
    return values, classes


COMBO_VALUE, COMBO_CLASS = _combo_tables()


class Tables(NamedTuple):
    """Read-only lookup tables for one rule."""

    shapes: np.ndarray  # uint8[2, 2**20]: shape for black / white by window key
    combo_value: np.ndarray  # int32[11**4]
    combo_class: np.ndarray  # int8[11**4]
    zobrist: np.ndarray  # int64[3, cells]


_TABLE_CACHE: dict[str, Tables] = {}


def rule_tables(rule_name: str, size: int) -> Tables:
    """Lookup tables for a rule: shapes for both sides and Zobrist keys for a board size."""
    cache_key = f"{rule_name}:{size}"
    if cache_key in _TABLE_CACHE:
        return _TABLE_CACHE[cache_key]
    black_exact = rule_name in ("standard", "renju")
    white_exact = rule_name == "standard"
    shapes = np.zeros((2, 1 << (4 * HALF)), dtype=np.uint8)
    shapes[0] = build_table(black_exact)
    shapes[1] = swap_colours(build_table(white_exact))
    stride = size + 2 * PAD
    rng = np.random.default_rng(20261122 + size)
    zobrist = rng.integers(-(2**62), 2**62, size=(3, stride * stride), dtype=np.int64)
    tables = Tables(shapes, COMBO_VALUE, COMBO_CLASS.astype(np.int8), zobrist)
    _TABLE_CACHE[cache_key] = tables
    return tables
