"""The evaluation's weights: a value for every combination of a cell's four line shapes,
one for the side to move and one for the side that waits, and a few side-to-move threat
terms on top.

A combination's value does not depend on which direction holds which shape, so the
weights are kept per *canonical* combination (the four shapes sorted, 2,380 of them) and
expanded to the kernel's 14**4 combination indexes when loaded. The shipped weights,
``engine/data/eval_weights.npz``, are one table for both sides from the cell values of
Rapfi's classical model (released under CC0; ``engine.tools.fold_weights``), with the side
to move's edge as a tempo term: an evaluation of attack material that leaves threats
to the search and its leaves' quiescence. ``engine.tools.tune`` fits weights of either
form to training games; ``hand_weights`` are the hand-set values the evaluation used
first, derived from the ordering values that ``tables`` passes in, and kept as the
reference a fit starts from. ``engine.kernel.evaluation`` reads the expanded tables
through ``Tables``; ``engine.kernel.state`` keeps their sums up to date on every move."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from itertools import combinations_with_replacement
from pathlib import Path
from typing import NamedTuple, TypeVar

import numpy as np

from engine.kernel.patterns import COARSE_OF, NUM_COARSE, NUM_PATTERNS

# Per-cell weights are kept in 1/WEIGHT_UNIT of a score point, so that sums over a
# couple of hundred cells stay exact and the hand-set values are reproduced to the point.
WEIGHT_UNIT = 64

# Side-to-move threat terms (score points), each the weight of one yes/no feature.
T_DOUBLE_THREE = 0  # we can make two open threes and they have no four to interpose
T_THEIR_THREE = 1  # they have an open three (an open four to make) and we have no four
T_THEIR_THREE_COUNTERED = 2  # they have an open three, we have fours to answer with
T_THEIR_FOUR_THREE = 3  # they can make a four with an open three
T_THEIR_DOUBLE_THREE = 4  # they can make two open threes
T_OUR_FOUR_THREE = 5  # we can make a four with an open three
T_TEMPO = 6  # always on: the side to move's edge
NUM_THREAT_TERMS = 7
HAND_THREATS = np.array([1500, -60, 0, 0, 0, 0, 0], dtype=np.int64)

WEIGHTS_FILE = "eval_weights.npz"
_META = "meta_"  # the prefix of the metadata's names in a weights file

_T = TypeVar("_T")


def _canonical() -> tuple[np.ndarray, np.ndarray]:
    """The canonical combinations (sorted shape quadruples) and, for each of the 14**4
    combination indexes, the number of its canonical combination."""
    quads = list(combinations_with_replacement(range(NUM_PATTERNS), 4))
    number: dict[tuple[int, ...], int] = {quad: n for n, quad in enumerate(quads)}
    index_map = np.zeros(NUM_PATTERNS**4, dtype=np.int32)
    for index in range(NUM_PATTERNS**4):
        shapes = (
            index // NUM_PATTERNS**3,
            (index // NUM_PATTERNS**2) % NUM_PATTERNS,
            (index // NUM_PATTERNS) % NUM_PATTERNS,
            index % NUM_PATTERNS,
        )
        index_map[index] = number[tuple(sorted(shapes))]
    return np.array(quads, dtype=np.int8), index_map


CANONICAL_SHAPES, CANONICAL_OF = _canonical()
NUM_CANONICAL = CANONICAL_SHAPES.shape[0]


def _coarse_rows() -> np.ndarray:
    """For each canonical combination, the number of its combination of coarse shapes
    (open twos and open threes not split) among the sorted coarse quadruples."""
    quads = list(combinations_with_replacement(range(NUM_COARSE), 4))
    number: dict[tuple[int, ...], int] = {quad: n for n, quad in enumerate(quads)}
    rows = np.zeros(NUM_CANONICAL, dtype=np.int64)
    for n, quad in enumerate(CANONICAL_SHAPES):
        rows[n] = number[tuple(sorted(int(COARSE_OF[int(s)]) for s in quad))]
    return rows


COARSE_ROWS = _coarse_rows()
NUM_COARSE_CANONICAL = int(COARSE_ROWS.max()) + 1


class EvalWeights(NamedTuple):
    """Weights per canonical combination in 1/WEIGHT_UNIT points: row 0 for the side to
    move's cells, row 1 for the other side's; and the threat terms in points."""

    cells: np.ndarray  # int64[2, NUM_CANONICAL]
    threats: np.ndarray  # int64[NUM_THREAT_TERMS]


def hand_weights(combo_value: np.ndarray) -> EvalWeights:
    """The hand-set evaluation: a cell's ordering value (``combo_value``, by combination
    index), five parts in sixteen for the side to move and four for the other."""
    value = np.zeros(NUM_CANONICAL, dtype=np.int64)
    for n, quad in enumerate(CANONICAL_SHAPES):
        s0, s1, s2, s3 = (int(s) for s in quad)
        value[n] = combo_value[((s0 * NUM_PATTERNS + s1) * NUM_PATTERNS + s2) * NUM_PATTERNS + s3]
    scale = WEIGHT_UNIT // 16
    cells = np.stack([5 * scale * value, 4 * scale * value])
    return EvalWeights(cells, HAND_THREATS.copy())


def save_weights(path: object, weights: EvalWeights, **meta: object) -> None:
    """Write ``weights`` (and plain metadata such as how they were fitted) to ``path``."""
    arrays: dict[str, np.ndarray] = {
        f"{_META}{key}": np.asarray(value) for key, value in meta.items()
    }
    arrays["cells"] = weights.cells.astype(np.int32)
    arrays["threats"] = weights.threats.astype(np.int32)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def load_weights(path: object) -> EvalWeights:
    """Read weights written by ``save_weights``; a malformed file raises ``ValueError``.
    Weights of the coarser shapes (``COARSE_ROWS``) give each split shape the weight of
    the shape it splits from."""
    with np.load(path) as data:  # type: ignore[arg-type]
        cells = np.asarray(data["cells"], dtype=np.int64)
        threats = np.asarray(data["threats"], dtype=np.int64)
    if cells.shape == (2, NUM_COARSE_CANONICAL):
        cells = cells[:, COARSE_ROWS]
    if cells.shape != (2, NUM_CANONICAL) or threats.shape != (NUM_THREAT_TERMS,):
        raise ValueError(f"evaluation weights of the wrong shape: {cells.shape}, {threats.shape}")
    return EvalWeights(cells, threats)


def load_meta(path: object) -> dict[str, float | int | str]:
    """The metadata ``save_weights`` wrote beside the weights, by name without ``meta_``."""
    with np.load(path) as data:  # type: ignore[arg-type]
        return {
            key.removeprefix(_META): data[key].item() for key in data.files if key.startswith(_META)
        }


def _read_shipped(read: Callable[[Path], _T]) -> _T | None:
    """``read`` applied to the weights file shipped in the package, or None without one."""
    resource = resources.files("engine.data").joinpath(WEIGHTS_FILE)
    if not resource.is_file():
        return None
    with resources.as_file(resource) as path:
        return read(path)


def shipped_weights() -> EvalWeights | None:
    """The weights shipped in the package, or None when there are none."""
    return _read_shipped(load_weights)


def shipped_meta() -> dict[str, float | int | str] | None:
    """How the shipped weights were made (``load_meta``), or None without shipped weights."""
    return _read_shipped(load_meta)


def default_weights(combo_value: np.ndarray) -> EvalWeights:
    """The weights the engine plays with: the shipped ones, else the hand-set ones."""
    shipped = shipped_weights()
    return shipped if shipped is not None else hand_weights(combo_value)


def expand(weights: EvalWeights) -> np.ndarray:
    """The per-cell weights by combination index, both roles side by side:
    ``int32[14**4, 2]`` (column 0 to move, column 1 waiting), as ``Tables`` holds them."""
    table = weights.cells[:, CANONICAL_OF].T
    return np.ascontiguousarray(table, dtype=np.int32)
