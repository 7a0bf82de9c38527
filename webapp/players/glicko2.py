"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), in pure Python.

A ``Glicko2Rating`` is a rating, a rating deviation (RD: how unsure the rating is) and a
volatility (how erratic the player's results are). ``update`` rates one player over a rating
period from the period's results against opponents as they stood at its start;
``idle`` is the same period without games, where only the RD grows. A rating whose RD is
above ``PROVISIONAL_RD`` is provisional. Nothing here knows about games or the store; the
Elo table beside it (``webapp.players.ratings``) is separate."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

INITIAL_RATING = 1500.0
INITIAL_RD = 350.0
INITIAL_VOLATILITY = 0.06
# The system constant: how much the volatility may change in a period (0.3 to 1.2).
DEFAULT_TAU = 0.5
PROVISIONAL_RD = 110.0
# Glicko-2 works on its own scale: rating 1500 is 0 and 173.7178 rating points are 1.
SCALE = 173.7178
# Convergence tolerance of the volatility iteration.
EPSILON = 0.000001
MAX_ITERATIONS = 200


@dataclass(frozen=True)
class Glicko2Rating:
    """One player's standing; all three values are on the familiar (Glicko) scale."""

    rating: float = INITIAL_RATING
    rd: float = INITIAL_RD
    volatility: float = INITIAL_VOLATILITY

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError("rating must be a finite number")
        if not (math.isfinite(self.rd) and self.rd > 0):
            raise ValueError("rd must be a positive number")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError("volatility must be a positive number")

    @property
    def provisional(self) -> bool:
        """True while the rating is too unsure to be shown without a mark."""
        return self.rd > PROVISIONAL_RD

    @property
    def mu(self) -> float:
        return (self.rating - INITIAL_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


@dataclass(frozen=True)
class GameResult:
    """One game of the period: the opponent as rated at its start, and our score
    (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Glicko2Rating
    score: float

    def __post_init__(self) -> None:
        if self.score not in (0.0, 0.5, 1.0):
            raise ValueError("score must be 0, 0.5 or 1")


def _g(phi: float) -> float:
    """How much an opponent's uncertainty dampens what a game against them says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, opponent_phi: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(opponent_phi) * (mu - opponent_mu)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the volatility that solves f(x) = 0 with x = ln(sigma'^2), found by the
    Illinois variant of regula falsi as the paper prescribes."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta2 > phi2 + v:
        high = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(MAX_ITERATIONS):
        if abs(high - low) <= EPSILON:
            break
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


def idle(player: Glicko2Rating) -> Glicko2Rating:
    """The player after a rating period without games: only the RD grows."""
    phi = math.sqrt(player.phi**2 + player.volatility**2)
    return Glicko2Rating(player.rating, phi * SCALE, player.volatility)


def update(
    player: Glicko2Rating, results: Iterable[GameResult], *, tau: float = DEFAULT_TAU
) -> Glicko2Rating:
    """The player after one rating period with ``results`` (none: the same as ``idle``)."""
    if tau <= 0:
        raise ValueError("tau must be positive")
    games = list(results)
    if not games:
        return idle(player)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    # Steps 3 and 4: the estimated variance v from the games, and the improvement delta.
    inverse_v = 0.0
    improvement = 0.0
    for game in games:
        g = _g(game.opponent.phi)
        expected = _expected(mu, game.opponent.mu, game.opponent.phi)
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (game.score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    # Steps 5 to 7: new volatility, pre-period RD, then the new RD and rating.
    new_sigma = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko2Rating(new_mu * SCALE + INITIAL_RATING, new_phi * SCALE, new_sigma)
