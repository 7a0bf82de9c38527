"""Sequential probability ratio test (SPRT) for Elo hypotheses, as engine testers run it.

A match feeds results in as they come: game pairs (one opening played with both colours,
pentanomial counts of pair scores 0, 1/4, 1/2, 3/4, 1) or single games (trinomial counts of
losses, draws and wins). After each result the log-likelihood ratio (LLR) of H1 "engine1 is
``elo1`` stronger" against H0 "it is ``elo0`` stronger" is compared with Wald's bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``: below the first H0 is accepted,
above the second H1, in between the match goes on.

The LLR is the generalised one: the outcome distribution is left free (a multinomial over the
score categories) and each hypothesis only fixes its expected score. For each hypothesis the
distribution of highest likelihood with that mean is found exactly (a one-dimensional root of
the Lagrange condition), and the LLR is the log ratio of the two maximised likelihoods.
``llr_normal`` is the classic normal approximation of the same quantity, close to the exact
value when the two hypotheses are near each other. Elo is logistic by default (expected
score ``1 / (1 + 10^(-elo/400))``); the ``normalized`` model measures Elo in units of the
per-game standard deviation, so draw-heavy and decisive matches need the same effort.
``engine.tools.match`` runs the test; ``engine.elo`` gives the plain Elo estimate."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

# Pair scores of the five pentanomial categories and game scores of the three trinomial ones.
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
# Added to every category so a test with empty categories (early on, or with no draws at
# all) still has a well-defined variance; it is far below one observation.
PRIOR_COUNT = 1e-3
# Normalized Elo of a t-value of 1 per game: 800 / ln(10), so that a match without draws
# has the same normalized and logistic Elo for small differences.
NORMALIZED_ELO_PER_T = 800.0 / math.log(10.0)


class EloModel(Enum):
    LOGISTIC = "logistic"
    NORMALIZED = "normalized"


class Decision(Enum):
    CONTINUE = "continue"
    H0 = "H0"
    H1 = "H1"


def score_from_elo(elo: float) -> float:
    """Expected score of the side that is ``elo`` logistic Elo stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _distribution(counts: Sequence[float]) -> tuple[float, list[float]]:
    if any(c < 0 for c in counts):
        raise ValueError("result counts cannot be negative")
    total = float(sum(counts))
    regularised = [c + PRIOR_COUNT for c in counts]
    mass = sum(regularised)
    return total, [c / mass for c in regularised]


def _moments(probs: Sequence[float], scores: Sequence[float]) -> tuple[float, float]:
    mean = sum(p * x for p, x in zip(probs, scores, strict=True))
    variance = sum(p * (x - mean) ** 2 for p, x in zip(probs, scores, strict=True))
    return mean, variance


def constrained_mle(probs: Sequence[float], scores: Sequence[float], mean: float) -> list[float]:
    """The distribution of highest likelihood for observed frequencies ``probs`` whose
    expected score is ``mean``.

    Maximising ``sum p_i log q_i`` with ``sum q_i = 1`` and ``sum q_i x_i = mean`` gives
    ``q_i = p_i / (1 + lam (x_i - mean))`` with ``lam`` the root of
    ``sum p_i (x_i - mean) / (1 + lam (x_i - mean)) = 0``. That function decreases in ``lam``
    on the interval where every denominator stays positive, so bisection finds the root."""
    low_x, high_x = min(scores), max(scores)
    if not low_x < mean < high_x:
        raise ValueError(f"mean {mean} must lie strictly inside the score range")
    # Denominators stay positive for -1/(high_x - mean) < lam < 1/(mean - low_x).
    lam_low = -1.0 / (high_x - mean)
    lam_high = 1.0 / (mean - low_x)

    def slope(lam: float) -> float:
        return sum(
            p * (x - mean) / (1.0 + lam * (x - mean)) for p, x in zip(probs, scores, strict=True)
        )

    low, high = lam_low, lam_high
    for _ in range(200):
        middle = 0.5 * (low + high)
        if slope(middle) > 0.0:
            low = middle
        else:
            high = middle
        if high - low < 1e-15:
            break
    lam = 0.5 * (low + high)
    fitted = [p / (1.0 + lam * (x - mean)) for p, x in zip(probs, scores, strict=True)]
    total = sum(fitted)
    return [q / total for q in fitted]


def _hypothesis_means(
    elo0: float, elo1: float, probs: Sequence[float], scores: Sequence[float], model: EloModel
) -> tuple[float, float]:
    if model is EloModel.LOGISTIC:
        return score_from_elo(elo0), score_from_elo(elo1)
    # Normalized Elo fixes (mean - 1/2) / sigma_per_game; the observed spread stands in for
    # sigma (the approximation testers use), giving a mean for each hypothesis.
    _, variance = _moments(probs, scores)
    sigma = math.sqrt(_per_game_variance(variance, scores))
    return tuple(  # type: ignore[return-value]
        min(max(0.5 + elo / NORMALIZED_ELO_PER_T * sigma, 1e-9), 1.0 - 1e-9) for elo in (elo0, elo1)
    )


def _per_game_variance(variance: float, scores: Sequence[float]) -> float:
    # A pair score is the mean of two games, so one game's variance is twice the pair's.
    return 2.0 * variance if len(scores) == len(PENTANOMIAL_SCORES) else variance


def llr_exact(
    counts: Sequence[float],
    elo0: float,
    elo1: float,
    model: EloModel = EloModel.LOGISTIC,
) -> float:
    """Generalised log-likelihood ratio of H1 (``elo1``) over H0 (``elo0``) for pentanomial
    (five counts) or trinomial (three counts) results."""
    scores = _scores_for(counts)
    total, probs = _distribution(counts)
    if total == 0:
        return 0.0
    mean0, mean1 = _hypothesis_means(elo0, elo1, probs, scores, model)
    fit0 = constrained_mle(probs, scores, mean0)
    fit1 = constrained_mle(probs, scores, mean1)
    return total * sum(p * math.log(q1 / q0) for p, q0, q1 in zip(probs, fit0, fit1, strict=True))


def llr_normal(
    counts: Sequence[float],
    elo0: float,
    elo1: float,
    model: EloModel = EloModel.LOGISTIC,
) -> float:
    """Normal approximation of the LLR: with ``N`` results of mean ``m`` and variance ``v``,
    ``N (s1 - s0) (2 m - s0 - s1) / (2 v)``, the log ratio of two normal likelihoods of the
    sample mean centred on the hypotheses' scores ``s0`` and ``s1``."""
    scores = _scores_for(counts)
    total, probs = _distribution(counts)
    if total == 0:
        return 0.0
    mean, variance = _moments(probs, scores)
    mean0, mean1 = _hypothesis_means(elo0, elo1, probs, scores, model)
    return total * (mean1 - mean0) * (2.0 * mean - mean0 - mean1) / (2.0 * variance)


def _scores_for(counts: Sequence[float]) -> tuple[float, ...]:
    if len(counts) == len(PENTANOMIAL_SCORES):
        return PENTANOMIAL_SCORES
    if len(counts) == len(TRINOMIAL_SCORES):
        return TRINOMIAL_SCORES
    raise ValueError("give five pentanomial counts or three trinomial counts")


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's lower (accept H0) and upper (accept H1) LLR bounds."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0):
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses and error rates: H0 Elo ``elo0``, H1 Elo ``elo1``, false positive
    rate ``alpha``, false negative rate ``beta``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: EloModel = EloModel.LOGISTIC

    def __post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise ValueError("elo1 must be greater than elo0")
        bounds(self.alpha, self.beta)

    @classmethod
    def parse(cls, items: Sequence[str]) -> SprtSettings:
        """From ``key=value`` words, e.g. ``["elo0=0", "elo1=10", "alpha=0.05"]``."""
        values: dict[str, float] = {}
        model = EloModel.LOGISTIC
        for item in items:
            key, sep, text = item.partition("=")
            key = key.strip().lower()
            if not sep:
                raise ValueError(f"SPRT setting {item!r} is not key=value")
            if key == "model":
                try:
                    model = EloModel(text.strip().lower())
                except ValueError:
                    raise ValueError(f"unknown Elo model {text!r}") from None
                continue
            if key not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"unknown SPRT setting {key!r}")
            try:
                values[key] = float(text)
            except ValueError:
                raise ValueError(f"SPRT setting {key} needs a number, got {text!r}") from None
            if not math.isfinite(values[key]):
                raise ValueError(f"SPRT setting {key} must be finite")
        return cls(model=model, **values)

    def describe(self) -> str:
        return (
            f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g} "
            f"({self.model.value})"
        )


@dataclass
class Sprt:
    """A running test: add game pairs or single games, read ``llr`` and ``decision``.

    Pairs make the pentanomial statistics; a single game whose partner never comes (a match
    cut short) is kept apart, and the trinomial statistics of all games are used only when
    there are no complete pairs at all."""

    settings: SprtSettings = field(default_factory=SprtSettings)
    pentanomial: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    trinomial: list[int] = field(default_factory=lambda: [0, 0, 0])

    def add_pair(self, first: float, second: float) -> None:
        """Record the two game scores (0, 0.5 or 1, from engine1's side) of one pair."""
        for score in (first, second):
            self.add_game(score)
        index = round(2 * (first + second))
        self.pentanomial[index] += 1

    def add_game(self, score: float) -> None:
        """Record one game's score for the trinomial counts only."""
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game scores 0, 0.5 or 1, not {score}")
        self.trinomial[round(2 * score)] += 1

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    @property
    def games(self) -> int:
        return sum(self.trinomial)

    @property
    def counts(self) -> list[int]:
        return list(self.pentanomial) if self.pairs else list(self.trinomial)

    @property
    def llr(self) -> float:
        counts = self.counts
        if not sum(counts):
            return 0.0
        s = self.settings
        return llr_exact(counts, s.elo0, s.elo1, s.model)

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.settings.alpha, self.settings.beta)

    @property
    def decision(self) -> Decision:
        lower, upper = self.bounds
        llr = self.llr
        if llr >= upper:
            return Decision.H1
        if llr <= lower:
            return Decision.H0
        return Decision.CONTINUE

    def status(self) -> str:
        """One line: LLR with its bounds, the counts and the decision so far."""
        lower, upper = self.bounds
        kind = "pentanomial" if self.pairs else "trinomial"
        counts = ", ".join(str(c) for c in self.counts)
        decision = self.decision
        verdict = {
            Decision.CONTINUE: "continue",
            Decision.H0: "H0 accepted",
            Decision.H1: "H1 accepted",
        }[decision]
        return (
            f"SPRT {self.settings.describe()}: LLR {self.llr:+.2f} "
            f"({lower:+.2f}, {upper:+.2f}), {kind} {counts}: {verdict}"
        )
