"""SPRT statistics: exact LLR against an independent numeric maximisation, published
tester figures, Wald's bounds and the running test's decisions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.tools.sprt import (
    PENTANOMIAL_SCORES,
    PRIOR_COUNT,
    TRINOMIAL_SCORES,
    Decision,
    EloModel,
    Sprt,
    SprtSettings,
    bounds,
    constrained_mle,
    llr_exact,
    llr_normal,
    score_from_elo,
)


def _max_log_likelihood(counts: list[float], scores: tuple[float, ...], mean: float) -> float:
    """max sum n_i log q_i over distributions q with mean ``mean``, by primal Newton steps on
    the equality-constrained problem (no Lagrange-multiplier root, unlike the engine)."""
    n = np.asarray(counts, dtype=float) + PRIOR_COUNT
    x = np.asarray(scores)
    k = len(x)
    # A feasible interior start: the uniform distribution moved along x to the asked mean.
    centred = x - x.mean()
    q = np.full(k, 1.0 / k) + (mean - x.mean()) / (centred @ centred) * centred
    constraints = np.vstack([np.ones(k), x])
    for _ in range(100):
        gradient = -n / q
        system = np.zeros((k + 2, k + 2))
        system[:k, :k] = np.diag(n / q**2)
        system[:k, k:] = constraints.T
        system[k:, :k] = constraints
        step = np.linalg.solve(system, np.concatenate([-gradient, np.zeros(2)]))[:k]
        size = 1.0
        while np.any(q + size * step <= 0) or n @ np.log(q + size * step) < n @ np.log(q):
            size /= 2
            if size < 1e-12:
                break
        q = q + size * step
        if np.max(np.abs(size * step)) < 1e-15:
            break
    assert abs(q.sum() - 1) < 1e-12 and abs(q @ x - mean) < 1e-12
    return float(n @ np.log(q))


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1"),
    [
        ([3, 10, 25, 14, 6], 0.0, 10.0),
        ([0, 4, 9, 7, 0], -5.0, 15.0),
        ([12, 30, 8], 0.0, 20.0),
        ([40, 0, 55], 0.0, 50.0),
        ([1, 0, 0, 0, 5], 0.0, 100.0),
    ],
)
def test_exact_llr_is_the_ratio_of_the_two_maximised_likelihoods(
    counts: list[int], elo0: float, elo1: float
) -> None:
    scores = PENTANOMIAL_SCORES if len(counts) == 5 else TRINOMIAL_SCORES
    total = sum(counts)
    best0 = _max_log_likelihood(counts, scores, score_from_elo(elo0))
    best1 = _max_log_likelihood(counts, scores, score_from_elo(elo1))
    # The maximised likelihoods use the regularised counts; scale back to the real total.
    expected = (best1 - best0) * total / (total + len(counts) * PRIOR_COUNT)
    assert llr_exact(counts, elo0, elo1) == pytest.approx(expected, abs=1e-6)


def test_constrained_fit_has_the_asked_mean_and_sums_to_one() -> None:
    probs = [0.1, 0.2, 0.4, 0.2, 0.1]
    fit = constrained_mle(probs, PENTANOMIAL_SCORES, 0.6)
    assert sum(fit) == pytest.approx(1.0)
    assert sum(q * x for q, x in zip(fit, PENTANOMIAL_SCORES, strict=True)) == pytest.approx(0.6)
    assert all(q > 0 for q in fit)
    # Asking for the observed mean returns the observed frequencies.
    assert constrained_mle(probs, PENTANOMIAL_SCORES, 0.5) == pytest.approx(probs)


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1", "published"),
    [
        # Fishtest-style reports: Ptnml(0-2) from the tested side, normalized Elo bounds.
        ([434, 4052, 8304, 4206, 492], 0.0, 4.0, 3.00),
        ([829, 14632, 32502, 15215, 902], 1.0, 5.0, 2.93),
        # OpenBench-style reports, pentanomial from losses to wins, normalized bounds.
        ([78, 2432, 5615, 2610, 100], 0.0, 3.0, 2.91),
        ([34, 5188, 12440, 5441, 39], 0.0, 3.0, 2.95),
    ],
)
def test_normalized_llr_matches_published_tests(
    counts: list[int], elo0: float, elo1: float, published: float
) -> None:
    assert llr_exact(counts, elo0, elo1, EloModel.NORMALIZED) == pytest.approx(published, abs=0.01)


def test_normal_approximation_is_close_for_near_hypotheses() -> None:
    counts = [40, 260, 500, 300, 50]
    exact = llr_exact(counts, 0.0, 5.0)
    assert llr_normal(counts, 0.0, 5.0) == pytest.approx(exact, rel=0.01)
    # The hand formula for trinomial counts without draws, W=60 L=40.
    s0, s1 = 0.5, score_from_elo(20.0)
    total = 100 + 3 * PRIOR_COUNT
    wins = (60 + PRIOR_COUNT) / total
    mean = wins + 0.5 * PRIOR_COUNT / total
    variance = wins + 0.25 * PRIOR_COUNT / total - mean**2
    by_hand = 100 * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert llr_normal([40, 0, 60], 0.0, 20.0) == pytest.approx(by_hand)


def test_bounds_are_walds() -> None:
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3)
    assert upper == pytest.approx(2.944, abs=1e-3)
    assert bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    with pytest.raises(ValueError):
        bounds(0.0, 0.05)


def test_settings_parse_and_reject_bad_words() -> None:
    settings = SprtSettings.parse(["elo0=0", "elo1=10", "alpha=0.05", "beta=0.1"])
    assert (settings.elo0, settings.elo1, settings.alpha, settings.beta) == (0, 10, 0.05, 0.1)
    assert SprtSettings.parse(["model=normalized"]).model is EloModel.NORMALIZED
    for bad in (["elo0"], ["gamma=1"], ["elo0=x"], ["elo0=5", "elo1=5"], ["alpha=2"]):
        with pytest.raises(ValueError):
            SprtSettings.parse(bad)


def test_running_test_decides_both_ways() -> None:
    test = Sprt(SprtSettings(elo0=0, elo1=100))
    assert test.decision is Decision.CONTINUE and test.llr == 0.0
    while test.decision is Decision.CONTINUE:
        test.add_pair(1.0, 0.5)
        test.add_pair(0.5, 0.5)
    assert test.decision is Decision.H1
    assert test.pentanomial[3] == test.pentanomial[2] > 0
    assert "H1 accepted" in test.status()

    test = Sprt(SprtSettings(elo0=0, elo1=100))
    while test.decision is Decision.CONTINUE:
        test.add_pair(0.0, 1.0)
    assert test.decision is Decision.H0
    assert test.games == 2 * test.pairs


def test_single_games_use_trinomial_counts_until_a_pair_completes() -> None:
    test = Sprt()
    test.add_game(1.0)
    test.add_game(0.5)
    assert test.counts == [0, 1, 1]
    assert "trinomial" in test.status()
    test.add_pair(1.0, 0.0)
    assert test.counts == [0, 0, 1, 0, 0]
    with pytest.raises(ValueError):
        test.add_game(0.3)
