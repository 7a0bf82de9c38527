"""The lookup tables of one rule, read-only during a search.

``shapes`` gives the line shapes (``patterns``) of the centre cell of every window key, for
black and for white in one byte: the one pattern table, filled by ``patterns.classify``
itself, so one lookup serves both sides.
``combo_class``, ``combo_value`` and ``playout_value`` give the combined class, the
ordering value and the MCTS playout weight of a cell from its four line shapes (indexed by
``combo_index``); ``eval_cells`` and ``eval_threats`` are the evaluation's weights
(``weights``: fitted, shipped as data); ``combo_pack`` holds a combination's two cell
weights, ordering value and class in one word, so that ``place``/``remove`` read one entry
per changed shape (``pack_combos``); ``zobrist`` holds the hash keys of one board size;
``search`` and ``lmr`` are the principal variation search's margins, counts and late-move
reductions (``search_params``), which ``with_search_params`` sets for tuning runs.
The combined classes are the vocabulary every compiled search speaks, negamax and MCTS
alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
from numba import njit

from engine.kernel.patterns import (
    B1,
    B2,
    B3,
    B4,
    COARSE_OF,
    DEAD,
    F1,
    F2,
    F3,
    F4,
    F5,
    HALF,
    NUM_PATTERNS,
    OL,
    SHORT_HALF,
    SHORT_TABLE_SIZE,
    build_table,
    short_table,
    swap_colours,
)
from engine.kernel.search_params import (
    P_LMR_BASE,
    P_LMR_DIVISOR,
    default_search,
    lmr_table,
    search_arrays,
)
from engine.kernel.weights import EvalWeights, default_weights, expand

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
# A split open two or open three takes the value of the shape it splits from.
SHAPE_VALUE[:] = SHAPE_VALUE[list(COARSE_OF)]


# Value of one shape in one direction for the MCTS playouts' move weights, and the bonus
# of a cell's combined class (a winning threat, two open threes) on top.
PLAYOUT_SHAPE_VALUE = np.zeros(NUM_PATTERNS, dtype=np.int32)
PLAYOUT_SHAPE_VALUE[B2] = 2
PLAYOUT_SHAPE_VALUE[F2] = 5
PLAYOUT_SHAPE_VALUE[B3] = 6
PLAYOUT_SHAPE_VALUE[F3] = 20
PLAYOUT_SHAPE_VALUE[B4] = 25
PLAYOUT_SHAPE_VALUE[F4] = 200
PLAYOUT_SHAPE_VALUE[F5] = 5000
PLAYOUT_SHAPE_VALUE[:] = PLAYOUT_SHAPE_VALUE[list(COARSE_OF)]
PLAYOUT_CLASS_BONUS = np.array([0, 0, 80, 0, 300, 300, 0], dtype=np.int32)


def combo_index(s0: int, s1: int, s2: int, s3: int) -> int:
    """Index of four line shapes (one per direction) in the combination tables."""
    return ((s0 * NUM_PATTERNS + s1) * NUM_PATTERNS + s2) * NUM_PATTERNS + s3


def combined_class(shapes: list[int]) -> int:
    """The class of a cell from its four line shapes: a five beats everything, then an
    open four or two fours, a four with an open three, a four, two open threes, one."""
    coarse = [COARSE_OF[s] for s in shapes]
    block4 = coarse.count(B4)
    flex3 = coarse.count(F3)
    if F5 in shapes:
        return C_FIVE
    if F4 in shapes or block4 >= 2:
        return C_FLEX4
    if block4 and flex3:
        return C_BLOCK4_FLEX3
    if block4:
        return C_BLOCK4
    if flex3 >= 2:
        return C_FLEX3_2X
    if flex3:
        return C_FLEX3
    return C_NONE


CLASS_BONUS = np.array([0, 0, 300, 0, 500, 600, 0], dtype=np.int32)


def _combo_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    size = NUM_PATTERNS**4
    values = np.zeros(size, dtype=np.int32)
    classes = np.zeros(size, dtype=np.int8)
    playout = np.zeros(size, dtype=np.int32)
    for index in range(size):
        shapes = [
            index // NUM_PATTERNS**3,
            (index // NUM_PATTERNS**2) % NUM_PATTERNS,
            (index // NUM_PATTERNS) % NUM_PATTERNS,
            index % NUM_PATTERNS,
        ]
        cls = combined_class(shapes)
        value = sum(int(SHAPE_VALUE[s]) for s in shapes) + int(CLASS_BONUS[cls])
        # Two developing shapes in different lines reinforce each other.
        developing = sum(1 for s in shapes if COARSE_OF[s] in (F2, B3, F3))
        if developing >= 2:
            value += 20 * (developing - 1)
        values[index] = value
        classes[index] = cls
        playout[index] = sum(int(PLAYOUT_SHAPE_VALUE[s]) for s in shapes) + int(
            PLAYOUT_CLASS_BONUS[cls]
        )
    return values, classes, playout


COMBO_VALUE, COMBO_CLASS, COMBO_PLAYOUT_VALUE = _combo_tables()


class Tables(NamedTuple):
    """Read-only lookup tables for one rule."""

    shapes: np.ndarray  # uint8[4**10], or uint8[4**8] where overlines win for both sides
    # (``patterns.short_table``): by window key, black's shape | white's shape << 4
    combo_value: np.ndarray  # int32[14**4]
    combo_class: np.ndarray  # int8[14**4]
    playout_value: np.ndarray  # int32[14**4]: MCTS playout weight
    zobrist: np.ndarray  # int64[3, cells]
    eval_cells: np.ndarray  # int32[14**4, 2]: cell weight to move / waiting (weights.py)
    eval_threats: np.ndarray  # int64[NUM_THREAT_TERMS]: side-to-move threat terms
    combo_pack: np.ndarray  # int64[14**4]: ``eval_cells``, value and class (``pack_combos``)
    search: np.ndarray  # int64[NUM_SEARCH_PARAMS]: margins and counts (``search_params``)
    lmr: np.ndarray  # int64[LMR_DEPTHS, LMR_MOVES]: late-move reductions in plies


# Fields of a ``combo_pack`` word: the two cell weights offset to be non-negative, the
# ordering value, the class.
PACK_WEIGHT_BITS = 22
PACK_WEIGHT_OFFSET = 1 << (PACK_WEIGHT_BITS - 1)
PACK_WEIGHT_MASK = (1 << PACK_WEIGHT_BITS) - 1
PACK_VALUE_SHIFT = 2 * PACK_WEIGHT_BITS
PACK_VALUE_BITS = 15
PACK_VALUE_MASK = (1 << PACK_VALUE_BITS) - 1
PACK_CLASS_SHIFT = PACK_VALUE_SHIFT + PACK_VALUE_BITS


def pack_combos(values: np.ndarray, classes: np.ndarray, eval_cells: np.ndarray) -> np.ndarray:
    """One word per combination: both cell weights (each plus ``PACK_WEIGHT_OFFSET``), the
    ordering value and the class. A difference of two words' weight fields is the
    difference of the weights, so the sums move by field differences."""
    weights = eval_cells.astype(np.int64)
    if np.abs(weights).max() >= PACK_WEIGHT_OFFSET:
        raise ValueError(f"cell weights must lie within ±{PACK_WEIGHT_OFFSET - 1}")
    if values.min() < 0 or values.max() >= 1 << PACK_VALUE_BITS:
        raise ValueError(f"ordering values must lie within 0..{(1 << PACK_VALUE_BITS) - 1}")
    return (
        (weights[:, 0] + PACK_WEIGHT_OFFSET)
        | ((weights[:, 1] + PACK_WEIGHT_OFFSET) << PACK_WEIGHT_BITS)
        | (values.astype(np.int64) << PACK_VALUE_SHIFT)
        | (classes.astype(np.int64) << PACK_CLASS_SHIFT)
    )


@njit(cache=True, inline="always")
def packed_weight(word: int, role: int) -> int:
    """The cell weight in a ``combo_pack`` word for ``role`` (0 to move, 1 waiting), still
    offset by ``PACK_WEIGHT_OFFSET``: differences of two words' weights need no offset."""
    return (word >> (PACK_WEIGHT_BITS * role)) & PACK_WEIGHT_MASK


@njit(cache=True, inline="always")
def packed_value(word: int) -> int:
    """The ordering value in a ``combo_pack`` word."""
    return (word >> PACK_VALUE_SHIFT) & PACK_VALUE_MASK


@njit(cache=True, inline="always")
def packed_class(word: int) -> int:
    """The combined class in a ``combo_pack`` word."""
    return word >> PACK_CLASS_SHIFT


@njit(cache=True, inline="always")
def window_reach(tb: Tables) -> int:
    """Cells each side of a point whose stones its shapes depend on: four with the short
    table of a rule where overlines win for both sides, else five."""
    return SHORT_HALF if tb.shapes.shape[0] == SHORT_TABLE_SIZE else HALF


_TABLE_CACHE: dict[str, Tables] = {}
_EVAL_CACHE: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []


def with_weights(tables: Tables, weights: EvalWeights) -> Tables:
    """The same tables evaluating with other weights."""
    eval_cells = expand(weights)
    return tables._replace(
        eval_cells=eval_cells,
        eval_threats=weights.threats.astype(np.int64),
        combo_pack=pack_combos(tables.combo_value, tables.combo_class, eval_cells),
    )


def with_search_params(tables: Tables, values: Mapping[str, int]) -> Tables:
    """The same tables searching with other margins, counts or threat terms
    (``search_params``; names not given keep the shipped values)."""
    search, lmr, threats = search_arrays(values, tables.eval_threats)
    return tables._replace(search=search, lmr=lmr, eval_threats=threats)


_DEFAULT_SEARCH = default_search()
_DEFAULT_LMR = lmr_table(int(_DEFAULT_SEARCH[P_LMR_BASE]), int(_DEFAULT_SEARCH[P_LMR_DIVISOR]))


def _default_eval() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not _EVAL_CACHE:
        weights = default_weights(COMBO_VALUE)
        eval_cells = expand(weights)
        _EVAL_CACHE.append(
            (
                eval_cells,
                weights.threats.astype(np.int64),
                pack_combos(COMBO_VALUE, COMBO_CLASS, eval_cells),
            )
        )
    return _EVAL_CACHE[0]


def rule_tables(rule_name: str, size: int) -> Tables:
    """Lookup tables for a rule: shapes for both sides, the combination tables and
    Zobrist keys for a board size."""
    cache_key = f"{rule_name}:{size}"
    if cache_key in _TABLE_CACHE:
        return _TABLE_CACHE[cache_key]
    black_exact = rule_name in ("standard", "renju")
    white_exact = rule_name == "standard"
    shapes = build_table(black_exact) | (swap_colours(build_table(white_exact)) << 4)
    if not black_exact and not white_exact:
        shapes = short_table(shapes)
    stride = size + 2 * PAD
    rng = np.random.default_rng(20261122 + size)
    zobrist = rng.integers(-(2**62), 2**62, size=(3, stride * stride), dtype=np.int64)
    eval_cells, eval_threats, combo_pack = _default_eval()
    tables = Tables(
        shapes,
        COMBO_VALUE,
        COMBO_CLASS,
        COMBO_PLAYOUT_VALUE,
        zobrist,
        eval_cells,
        eval_threats,
        combo_pack,
        _DEFAULT_SEARCH,
        _DEFAULT_LMR,
    )
    _TABLE_CACHE[cache_key] = tables
    return tables
