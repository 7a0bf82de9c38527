"""Elo difference and its uncertainty from a match's wins, losses and draws.

The score fraction ``p`` maps to ``-400 log10(1/p - 1)``; the ~95% interval comes from the
per-game score's standard deviation. A 100% or 0% score has no finite estimate, so it is
reported as a bound computed with half a game moved to the other side. ``engine.tools.match``
prints these figures after a match."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z_95 = 1.959964


def elo_from_score(score: float) -> float:
    """Elo difference for a score fraction strictly between 0 and 1."""
    if not 0.0 < score < 1.0:
        raise ValueError(f"score fraction must be strictly between 0 and 1, got {score}")
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class EloEstimate:
    """``diff`` is the estimate; ``error`` the half-width of the ~95% interval. ``bound``
    is "lower" or "upper" when all games went one way and ``diff`` is only a bound."""

    wins: int
    losses: int
    draws: int
    diff: float
    error: float
    bound: str | None = None

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def __str__(self) -> str:
        if self.games == 0:
            return "no games"
        if self.bound == "lower":
            return f">= {self.diff:+.0f}"
        if self.bound == "upper":
            return f"<= {self.diff:+.0f}"
        return f"{self.diff:+.0f} +/- {self.error:.0f}"


def elo_estimate(wins: int, losses: int, draws: int) -> EloEstimate:
    """Elo difference of the first player over the second with its ~95% error."""
    if min(wins, losses, draws) < 0:
        raise ValueError("wins, losses and draws cannot be negative")
    games = wins + losses + draws
    if games == 0:
        return EloEstimate(0, 0, 0, 0.0, math.inf)
    score = (wins + 0.5 * draws) / games
    if score >= 1.0:
        return EloEstimate(
            wins, losses, draws, elo_from_score((games - 0.5) / games), math.inf, "lower"
        )
    if score <= 0.0:
        return EloEstimate(wins, losses, draws, elo_from_score(0.5 / games), math.inf, "upper")
    variance = (wins * (1.0 - score) ** 2 + losses * score**2 + draws * (0.5 - score) ** 2) / games
    margin = Z_95 * math.sqrt(variance / games)
    low = max(score - margin, 1e-6)
    high = min(score + margin, 1.0 - 1e-6)
    error = (elo_from_score(high) - elo_from_score(low)) / 2.0
    return EloEstimate(wins, losses, draws, elo_from_score(score), error)
