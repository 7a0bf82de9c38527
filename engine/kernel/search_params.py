"""The search's tunable numbers: margins, move counts and the late-move reduction curve the
principal variation search reads at run time, plus the two threat terms of the evaluation
a tuning run may move.

The kernel reads them from ``Tables.search`` (indexed by the ``P_*`` constants) and the
reductions from ``Tables.lmr``; ``with_search_params`` gives tables with other values, so
a tuning run (``engine.tools.spsa``) or a brain started with ``--param NAME=VALUE`` plays
other numbers without compiling the kernel again. The defaults are the shipped search."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

import numpy as np

from engine.kernel.weights import T_TEMPO, T_THEIR_THREE

# Indexes into ``Tables.search``.
P_RFP_MARGIN = 0  # reverse futility: fail high when static - margin * depth >= beta
P_RFP_DEPTH = 1  # ... at depths up to this one
P_FUTILITY_1 = 2  # futility margins at depths 1, 2, 3: quiet moves go when
P_FUTILITY_2 = 3  # static + margin <= alpha
P_FUTILITY_3 = 4
P_LMP_1 = 5  # move-count pruning: quiet moves after the first LMP_d go at depth d
P_LMP_2 = 6
P_LMP_3 = 7
P_LMP_4 = 8
P_FHR_MARGIN = 9  # fail-high reduction: static - margin * depth >= beta
P_PROBCUT_MARGIN = 10  # ProbCut: the shallow search's bound above beta
P_NULL_REDUCTION = 11  # null move: this many plies shallower, plus depth / 5
P_LMR_BASE = 12  # late-move reductions, in hundredths of a ply:
P_LMR_DIVISOR = 13  # base + ln(depth) ln(n + 1) / divisor
NUM_SEARCH_PARAMS = 14

# The late-move reductions table's extent: depths and move numbers past it use its edge.
LMR_DEPTHS = 64
LMR_MOVES = 64


class SearchParam(NamedTuple):
    """One tunable number: its name, the shipped value, the range a tuning run keeps it
    in, and the step a tuning run perturbs it by."""

    name: str
    default: int
    low: int
    high: int
    step: float


SEARCH_PARAMS: tuple[SearchParam, ...] = (
    SearchParam("rfp_margin", 60, 10, 200, 8.0),
    SearchParam("rfp_depth", 6, 1, 8, 0.6),
    SearchParam("futility_1", 60, 0, 300, 12.0),
    SearchParam("futility_2", 140, 0, 400, 16.0),
    SearchParam("futility_3", 240, 0, 600, 24.0),
    SearchParam("lmp_1", 5, 1, 32, 1.0),
    SearchParam("lmp_2", 7, 1, 32, 1.0),
    SearchParam("lmp_3", 10, 1, 48, 1.5),
    SearchParam("lmp_4", 14, 1, 48, 2.0),
    SearchParam("fhr_margin", 40, 5, 200, 6.0),
    SearchParam("probcut_margin", 100, 20, 400, 15.0),
    SearchParam("null_reduction", 2, 1, 5, 0.5),
    SearchParam("lmr_base", 50, -100, 300, 12.0),
    SearchParam("lmr_divisor", 150, 50, 500, 15.0),
)
# Threat terms of the evaluation (``weights.T_*``) a tuning run may move too; their
# shipped values are the weights file's.
THREAT_PARAMS: dict[str, tuple[int, int, int, float]] = {
    # name: (term, low, high, step)
    "tempo": (T_TEMPO, 0, 600, 20.0),
    "their_three": (T_THEIR_THREE, -400, 200, 15.0),
}
# Every tunable number's range and perturbation step, by name.
PARAM_RANGES: dict[str, tuple[int, int, float]] = {
    **{p.name: (p.low, p.high, p.step) for p in SEARCH_PARAMS},
    **{name: (low, high, step) for name, (_, low, high, step) in THREAT_PARAMS.items()},
}
PARAM_NAMES: tuple[str, ...] = tuple(PARAM_RANGES)


def param_range(name: str) -> tuple[int, int, float]:
    """A number's range and step; ``ValueError`` for an unknown name."""
    if name not in PARAM_RANGES:
        raise ValueError(f"unknown search parameter {name!r} (known: {', '.join(PARAM_NAMES)})")
    return PARAM_RANGES[name]


def lmr_table(base: int, divisor: int) -> np.ndarray:
    """Plies of reduction for the n-th move (from 0) at a depth: ``base`` and ``divisor``
    in hundredths, truncated to whole plies."""
    if divisor <= 0:
        raise ValueError("the reductions' divisor must be positive")
    table = np.zeros((LMR_DEPTHS, LMR_MOVES), dtype=np.int64)
    for depth in range(1, LMR_DEPTHS):
        for n in range(1, LMR_MOVES):
            table[depth, n] = int(base / 100 + np.log(depth) * np.log(n + 1) / (divisor / 100))
    return table


def default_search() -> np.ndarray:
    """The shipped search numbers, indexed by the ``P_*`` constants."""
    return np.array([p.default for p in SEARCH_PARAMS], dtype=np.int64)


def check_params(values: Mapping[str, int]) -> None:
    """Raise ``ValueError`` for an unknown name or a value outside its range."""
    for name, value in values.items():
        low, high, _ = param_range(name)
        if not low <= value <= high:
            raise ValueError(f"search parameter {name} must lie within {low}..{high}, not {value}")


def parse_params(items: Iterable[str]) -> dict[str, int]:
    """``NAME=VALUE`` texts (whole numbers) as a checked mapping."""
    values: dict[str, int] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep:
            raise ValueError(f"{item!r} is not NAME=VALUE")
        try:
            values[name.strip()] = int(text)
        except ValueError:
            raise ValueError(f"{item!r}: the value must be a whole number") from None
    check_params(values)
    return values


def search_arrays(
    values: Mapping[str, int], threats: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The search numbers, the reductions table and the threat terms with ``values`` in
    place of the defaults (``threats`` is left as it is)."""
    check_params(values)
    search = default_search()
    for index, param in enumerate(SEARCH_PARAMS):
        if param.name in values:
            search[index] = values[param.name]
    lmr = lmr_table(int(search[P_LMR_BASE]), int(search[P_LMR_DIVISOR]))
    new_threats = threats.astype(np.int64).copy()
    for name, (term, _, _, _) in THREAT_PARAMS.items():
        if name in values:
            new_threats[term] = values[name]
    return search, lmr, new_threats


def shipped_value(name: str, threats: np.ndarray) -> int:
    """A parameter's shipped value; a threat term's is read from ``threats``."""
    param_range(name)
    if name in THREAT_PARAMS:
        return int(threats[THREAT_PARAMS[name][0]])
    return next(p.default for p in SEARCH_PARAMS if p.name == name)
