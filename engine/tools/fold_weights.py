"""Cell weights from a classical Rapfi model file, the evaluation the engine ships.

Rapfi's authors release its weight files under CC0 (github.com/dhbloo/rapfi-networks,
``classical/model210901.bin``). Such a file is an LZ4 frame holding a double (its points a
logit), then for each of four rules 2,380 int16 cell values, 2,048 int16 threat values and
2,380 pairs of int16 move scores. A cell value belongs to a combination of the cell's four
line shapes, one of the sorted quadruples of the file's 14 shapes; those are our shapes
(``engine.kernel.patterns``), so each of our 2,380 canonical combinations takes its value,
converted to our points a logit. One table serves both sides: such an evaluation leaves
threats to the search (``engine.kernel.quiescence`` and the search above it), and the side
to move's edge is the tempo term.

``--carry`` takes over what a fit of the coarser evaluation learned (a weights file of
1,001 combinations, the open twos and open threes not split, such as the table the engine
shipped before it split them: ``tune --symmetric --mix 0 --prior shipped`` from the
folded values): each combination also gets that fit's change to the folded value of its
coarse combination, and the fit's threat terms replace the defaults. The shipped file::

    pip install lz4
    git show 0448873:engine/data/eval_weights.npz > coarse-fit.npz
    python -m engine.tools.fold_weights model210901.bin --carry coarse-fit.npz \
        --out engine/data/eval_weights.npz

``--model-out`` writes a model file for Rapfi itself with its cell values folded onto
coarser shapes (``--fold shapes``: the open twos and the open threes not split) or with
only its open twos or open threes folded (``twos``, ``threes``): put it in a copy of
Rapfi's folder to play that variant against the stock build and measure what the finer
shapes are worth to Rapfi's own search.
"""

from __future__ import annotations

import argparse
import struct
from collections.abc import Mapping
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np

from engine.kernel.patterns import B1, B2, B3, B4, DEAD, F1, F2, F2A, F2B, F3, F3S, F4, F5, OL
from engine.kernel.tables import combo_index
from engine.kernel.weights import (
    CANONICAL_OF,
    COARSE_ROWS,
    NUM_CANONICAL,
    WEIGHT_UNIT,
    EvalWeights,
    load_meta,
    load_weights,
    save_weights,
)

MODEL_SHAPES = 14
MODEL_CODES = 2380  # sorted quadruples of the model's shapes
MODEL_THREATS = 2048
MODEL_RULES = 4  # the first is freestyle
# The model's shapes (dead, overline, closed one, open one, closed two, three open twos,
# closed three, two open threes, closed four, open four, five) as ours.
MODEL_TO_OURS = (DEAD, OL, B1, F1, B2, F2, F2A, F2B, B3, F3, F3S, B4, F4, F5)
# The model's finer shapes and the shape each folds into (model shape numbers): its open
# twos (5, 6, 7) into one, its open threes (9, 10) into one, or both, as ours have them.
MODEL_FOLDS: dict[str, dict[int, int]] = {
    "shapes": {6: 5, 7: 5, 10: 9},
    "twos": {6: 5, 7: 5},
    "threes": {10: 9},
}
OUR_POINTS_PER_LOGIT = 449.43  # the scale K of the fitted evaluation (engine.tools.tune)
# Our side-to-move threat terms, kept from the fitted evaluation, and the side to move's
# edge: the mean over the bench positions from the openings of what our two-table
# evaluation gave the side to move.
THREAT_TERMS = (1500, -53, 10, -2, -2, 0, 210)


def read_model(raw: bytes) -> tuple[float, np.ndarray]:
    """The decompressed model's points a logit and its freestyle cell values (float64)."""
    need = 8 + 2 * MODEL_RULES * (2 * MODEL_CODES + MODEL_THREATS + MODEL_CODES)
    if len(raw) < need:
        raise ValueError(f"a classical model holds at least {need} bytes, not {len(raw)}")
    (scale,) = struct.unpack_from("<d", raw, 0)
    if not 1.0 <= scale <= 10_000.0:
        raise ValueError(f"implausible model scale {scale}")
    cells = np.frombuffer(raw, dtype="<i2", count=MODEL_RULES * MODEL_CODES, offset=8)
    return scale, cells.reshape(MODEL_RULES, MODEL_CODES)[0].astype(np.float64)


def fold(values: np.ndarray) -> np.ndarray:
    """Per-code values (in the model's order) as the mean per canonical combination of
    ours (each is one of the model's): float64[NUM_CANONICAL]."""
    total = np.zeros(NUM_CANONICAL)
    count = np.zeros(NUM_CANONICAL)
    codes = combinations_with_replacement(range(MODEL_SHAPES), 4)
    for code, quad in enumerate(codes):
        ours = sorted(MODEL_TO_OURS[shape] for shape in quad)
        canonical = CANONICAL_OF[combo_index(*ours)]
        total[canonical] += values[code]
        count[canonical] += 1
    if (count == 0).any():
        raise ValueError("some combinations of ours have no model combination")
    return total / count


def folded_model(raw: bytes, merge: Mapping[int, int]) -> bytes:
    """The decompressed model ``raw`` with its freestyle cell values folded: each
    combination takes the mean (rounded) of the combinations that are the same once the
    shapes in ``merge`` are replaced by theirs. The rest of the model is kept as it is."""
    _, values = read_model(raw)
    groups: dict[tuple[int, ...], list[int]] = {}
    for code, quad in enumerate(combinations_with_replacement(range(MODEL_SHAPES), 4)):
        key = tuple(sorted(merge.get(shape, shape) for shape in quad))
        groups.setdefault(key, []).append(code)
    folded = values.copy()
    for members in groups.values():
        folded[members] = values[members].mean()
    cells: bytes = np.rint(folded).astype("<i2").tobytes()
    return raw[:8] + cells + raw[8 + len(cells) :]


def coarse_mean(values: np.ndarray) -> np.ndarray:
    """Per-combination values as the mean over each one's coarse combination (the open
    twos and open threes not split), by combination: float64[NUM_CANONICAL]."""
    total = np.bincount(COARSE_ROWS, weights=values)
    count = np.bincount(COARSE_ROWS)
    means: np.ndarray = np.asarray(total / count, dtype=np.float64)
    spread: np.ndarray = means[COARSE_ROWS]
    return spread


def folded_weights(raw: bytes, carry: EvalWeights | None = None) -> EvalWeights:
    """Our weights from a decompressed classical model, with what the fit ``carry`` (of
    the coarser evaluation, expanded by ``load_weights``) changed carried over."""
    scale, values = read_model(raw)
    points = fold(values) * OUR_POINTS_PER_LOGIT / scale
    row = np.rint(points * WEIGHT_UNIT).astype(np.int64)
    threats = np.array(THREAT_TERMS, dtype=np.int64)
    if carry is not None:
        if not np.array_equal(carry.cells[0], carry.cells[1]):
            raise ValueError("the fit to carry over must be one table for both sides")
        coarse = np.rint(coarse_mean(points) * WEIGHT_UNIT).astype(np.int64)
        row = row + carry.cells[0] - coarse
        threats = carry.threats.copy()
    return EvalWeights(np.stack([row, row]), threats)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.tools.fold_weights", description=__doc__
    )
    parser.add_argument("model", type=Path, help="a classical Rapfi model file")
    parser.add_argument("--out", type=Path, help="our weights file to write")
    parser.add_argument(
        "--carry", type=Path, help="a fit of the coarser evaluation to carry over (for --out)"
    )
    parser.add_argument(
        "--model-out", type=Path, help="a model file for Rapfi to write, its cells folded"
    )
    parser.add_argument(
        "--fold", choices=sorted(MODEL_FOLDS), default="shapes", help="for --model-out"
    )
    args = parser.parse_args(argv)
    if args.out is None and args.model_out is None:
        parser.error("name a file to write: --out, --model-out or both")
    try:
        import lz4.frame
    except ImportError:
        parser.error("reading a model needs the lz4 package: pip install lz4")
    try:
        raw = lz4.frame.decompress(args.model.read_bytes())
        if args.out is not None:
            carry = load_weights(args.carry) if args.carry is not None else None
            weights = folded_weights(raw, carry)
            meta: dict[str, object] = {}
            if args.carry is not None:
                meta.update(load_meta(args.carry), carried=args.carry.name)
            meta.update(scale=OUR_POINTS_PER_LOGIT, source=args.model.name)
            save_weights(args.out, weights, **meta)
            print(f"weights from {args.model.name} -> {args.out}")
        if args.model_out is not None:
            model = folded_model(raw, MODEL_FOLDS[args.fold])
            args.model_out.write_bytes(lz4.frame.compress(model))
            print(f"{args.model.name} with its {args.fold} folded -> {args.model_out}")
    except (OSError, RuntimeError, ValueError, KeyError) as error:
        parser.error(f"{args.model}: {error}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
