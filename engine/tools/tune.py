"""Texel tuning of the evaluation: fit the per-combination cell weights and the threat
terms (``engine.kernel.weights``) to training games by logistic regression, in numpy.

The data recipe (see the README): training games from ``engine.tools.tune_data``, made
by self-play between search budgets from random and book openings; their positions are
read with the kernel's own state (``engine.tools.tune_features``). A position's target is
a blend of the game's result and the mover's search score, both seen from the side to
move: ``mix * result + (1 - mix) * sigmoid(score / K)``; positions whose search saw a
forced win are left out, since the search, not the evaluation, decides them. The model is
the evaluation itself: ``sigmoid(eval / K)`` with eval the sum of the cell weights (to
move, waiting) plus the threat terms. ``K`` is first fitted so that the hand-set weights
predict the results best, which keeps the fitted weights on the engine's score scale;
then the weights are fitted by Adam on the cross-entropy, pulled towards a prior (an L2
term) so that combinations rarely seen keep sensible values: the hand-set values, with
``--prior shipped`` the shipped weights (to refit them on games played with them), or
the weights in a file given by its path. One game in ten is held out to report the loss
of each before and after. The shipped file is the table folded from Rapfi's classical
model (``engine.tools.fold_weights``) refitted to leaf positions scored by deeper
searches; with the folded file in place, and the 12 Gomocup 2026 openings in all eight
orientations of the board as ``openings96.txt``::

    python -m engine.tools.tune_data --games 1000 --workers 2 --seed 31 \\
        --nodes 2000,5000,10000 --openings openings96.txt --out g-a.npz
    python -m engine.tools.tune_data --games 1000 --workers 2 --seed 32 \\
        --nodes 2000,5000,10000 --out g-b.npz
    # g-c.npz and g-d.npz: seeds 33 (with the openings) and 34, 2,000 games each
    python -m engine.tools.tune_label g-a.npz --nodes 20000 --every 2 --workers 2 \\
        --out l-a.npz                          # the same for b, c and d
    python -m engine.tools.tune l-a.npz l-b.npz l-c.npz l-d.npz --mix 0 --symmetric \\
        --prior shipped --scale 449.43 --reg 1e-8 --out engine/data/eval_weights.npz

With ``--symmetric`` one table serves both sides (the side to move's edge goes to the
tempo term), the form of an evaluation that leaves threats to a search; ``--quiet`` keeps
only the positions where the side to move has no four to make (positions with a five to
complete for either side are never used: the search settles those before evaluating).
With ``--mix 0`` the targets are the search scores alone; ``--scale`` fixes the points a
logit (the engine's 449.43) instead of fitting it to the results.

``engine.tools.tune_label`` searches a games file's positions again with a larger budget;
its positions left unsearched carry a score beyond ``MATE_BOUND`` and drop out here with
the forced wins.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.kernel.patterns import B4, F4
from engine.kernel.scores import MATE_BOUND
from engine.kernel.tables import COMBO_VALUE
from engine.kernel.weights import (
    CANONICAL_SHAPES,
    NUM_CANONICAL,
    WEIGHT_UNIT,
    EvalWeights,
    hand_weights,
    load_weights,
    save_weights,
    shipped_weights,
)
from engine.tools.tune_data import load_games
from engine.tools.tune_features import Samples, extract

HOLDOUT_EVERY = 10  # one game in this many is held out
# Canonical combinations with a four to make (a closed or open four on some line).
FOUR_COMBOS = np.array([bool({B4, F4} & set(quad.tolist())) for quad in CANONICAL_SHAPES])


@dataclass
class Model:
    """Weights in score points, as floats while fitting."""

    me: np.ndarray  # float64[NUM_CANONICAL]: the side to move's cells
    op: np.ndarray  # float64[NUM_CANONICAL]: the waiting side's cells
    threats: np.ndarray  # float64[NUM_THREAT_TERMS]

    @classmethod
    def from_weights(cls, weights: EvalWeights) -> Model:
        cells = weights.cells.astype(np.float64) / WEIGHT_UNIT
        return cls(cells[0].copy(), cells[1].copy(), weights.threats.astype(np.float64))

    def to_weights(self) -> EvalWeights:
        cells = np.rint(np.stack([self.me, self.op]) * WEIGHT_UNIT).astype(np.int64)
        return EvalWeights(cells, np.rint(self.threats).astype(np.int64))

    def vector(self) -> np.ndarray:
        return np.concatenate([self.me, self.op, self.threats])

    @classmethod
    def from_vector(cls, vector: np.ndarray) -> Model:
        n = NUM_CANONICAL
        return cls(vector[:n].copy(), vector[n : 2 * n].copy(), vector[2 * n :].copy())


def predict(samples: Samples, model: Model) -> np.ndarray:
    """The evaluation of every sample, in points, from the side to move's view."""
    n = samples.size
    mine = np.bincount(samples.me_pos, model.me[samples.me_combo] * samples.me_count, minlength=n)
    theirs = np.bincount(samples.op_pos, model.op[samples.op_combo] * samples.op_count, minlength=n)
    return np.asarray(mine - theirs + samples.threats @ model.threats)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -50.0, 50.0))))


def cross_entropy(target: np.ndarray, probability: np.ndarray) -> float:
    p = np.clip(probability, 1e-9, 1 - 1e-9)
    return float(-np.mean(target * np.log(p) + (1 - target) * np.log(1 - p)))


def fit_scale(samples: Samples, model: Model) -> float:
    """The K for which ``sigmoid(eval / K)`` predicts the results best (golden section
    on log K)."""
    evals = predict(samples, model)
    lo, hi = math.log(20.0), math.log(20000.0)
    ratio = (math.sqrt(5) - 1) / 2

    def loss(log_k: float) -> float:
        return cross_entropy(samples.result, sigmoid(evals / math.exp(log_k)))

    for _ in range(60):
        a = hi - ratio * (hi - lo)
        b = lo + ratio * (hi - lo)
        if loss(a) < loss(b):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def targets(samples: Samples, scale: float, mix: float) -> np.ndarray:
    searched = sigmoid(samples.score.astype(np.float64) / scale)
    return np.asarray(mix * samples.result + (1 - mix) * searched)


def fit(
    samples: Samples,
    prior: Model,
    scale: float,
    *,
    mix: float = 0.5,
    steps: int = 2000,
    rate: float = 1.0,
    reg: float = 1e-6,
    symmetric: bool = False,
) -> Model:
    """Adam on the cross-entropy of ``sigmoid(eval / scale)`` against the blended
    targets, with ``reg`` times the squared distance (in points) to ``prior``."""
    target = targets(samples, scale, mix)
    n = samples.size
    if symmetric:
        mean = (prior.me + prior.op) / 2
        prior = Model(mean.copy(), mean.copy(), prior.threats.copy())
    start = prior.vector()
    vector = start.copy()
    first = np.zeros_like(vector)
    second = np.zeros_like(vector)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, steps + 1):
        model = Model.from_vector(vector)
        error = (sigmoid(predict(samples, model) / scale) - target) / (scale * n)
        grad_me = np.bincount(
            samples.me_combo, error[samples.me_pos] * samples.me_count, minlength=NUM_CANONICAL
        )
        grad_op = -np.bincount(
            samples.op_combo, error[samples.op_pos] * samples.op_count, minlength=NUM_CANONICAL
        )
        grad_threats = samples.threats.T @ error
        if symmetric:
            grad_me = grad_op = grad_me + grad_op
        grad = np.concatenate([grad_me, grad_op, grad_threats]) + 2 * reg * (vector - start)
        first = beta1 * first + (1 - beta1) * grad
        second = beta2 * second + (1 - beta2) * grad * grad
        step_rate = rate * (1.0 - 0.9 * step / steps)
        corrected_first = first / (1 - beta1**step)
        corrected_second = second / (1 - beta2**step)
        vector -= step_rate * corrected_first / (np.sqrt(corrected_second) + eps)
    return Model.from_vector(vector)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.tune", description=__doc__)
    parser.add_argument("games", nargs="+", type=Path, help="files from engine.tools.tune_data")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--mix", type=float, default=0.5, help="weight of the game result")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=1.0, help="Adam step, in points")
    parser.add_argument("--reg", type=float, default=1e-6)
    parser.add_argument(
        "--symmetric",
        action="store_true",
        help="one cell table for both sides (the side to move's edge in the tempo term)",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="only positions where the side to move has no four to make",
    )
    parser.add_argument(
        "--scale",
        type=float,
        help="points a logit, instead of the K that fits the hand-set weights to the results",
    )
    parser.add_argument(
        "--prior",
        default="hand",
        metavar="hand|shipped|FILE",
        help="weights to start from and pull towards: the hand-set ones, the shipped "
        "ones (to refit them on newer games), or a weights file such as fold_weights "
        "writes",
    )
    args = parser.parse_args(argv)
    if not 0.0 <= args.mix <= 1.0:
        parser.error("--mix must be between 0 and 1")
    if args.scale is not None and not args.scale > 0:
        parser.error("--scale must be positive")
    prior_file = None
    if args.prior not in ("hand", "shipped"):
        try:
            prior_file = load_weights(args.prior)
        except (OSError, KeyError, ValueError) as error:
            parser.error(f"--prior {args.prior}: not a weights file ({error})")
    games = [game for path in args.games for game in load_games(path)]
    samples = extract(games)
    keep = np.abs(samples.score) < MATE_BOUND
    if args.quiet:
        fours = np.isin(samples.me_combo, np.flatnonzero(FOUR_COMBOS))
        keep &= np.bincount(samples.me_pos[fours], minlength=samples.size) == 0
    samples = samples.subset(keep)
    held = samples.game % HOLDOUT_EVERY == 0
    train, test = samples.subset(~held), samples.subset(held)
    hand = Model.from_weights(hand_weights(COMBO_VALUE))
    scale = args.scale if args.scale is not None else fit_scale(train, hand)
    print(f"{len(games)} games, {train.size} training and {test.size} held-out positions")
    print(f"K = {scale:.1f}")
    shipped = shipped_weights()
    if args.prior == "shipped" and shipped is None:
        parser.error("--prior shipped: the package ships no weights")
    compared = [("hand", hand)]
    if shipped is not None:
        compared.append(("shipped", Model.from_weights(shipped)))
    if prior_file is not None:
        compared.append((args.prior, Model.from_weights(prior_file)))
    prior = dict(compared)[args.prior]
    model = fit(
        train,
        prior,
        scale,
        mix=args.mix,
        steps=args.steps,
        rate=args.rate,
        reg=args.reg,
        symmetric=args.symmetric,
    )
    for name, candidate in (*compared, ("fitted", model)):
        test_p = sigmoid(predict(test, candidate) / scale)
        print(
            f"{name}: held-out loss vs results {cross_entropy(test.result, test_p):.4f}, "
            f"vs blended targets {cross_entropy(targets(test, scale, args.mix), test_p):.4f}"
        )
    save_weights(
        args.out,
        model.to_weights(),
        scale=scale,
        mix=args.mix,
        games=len(games),
        positions=samples.size,
    )
    print(f"weights -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
