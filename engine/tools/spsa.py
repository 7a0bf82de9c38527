"""Tuning the search's numbers by self-play: ``gomoku spsa``.

Simultaneous perturbation stochastic approximation, in the form engine testing
frameworks run it: each iteration perturbs every tuned number at once by plus or minus its
step (a random sign each), plays one game pair from an opening between the brain with the
numbers raised and the brain with them lowered, and moves each number towards the side
that scored better, by the pair's result times its step and a learning rate. With ``c``
a number's final step and ``N`` the planned iterations, iteration ``k`` (from 1) perturbs
by ``c_k = c (N / k)**0.101`` and learns at ``r_k = r ((A + N) / (A + k))**0.602`` (``A``
a tenth of ``N``), so a point of result moves a number by ``r_k * c_k``: about ``r * c``
at the end. The numbers are the ones ``engine.kernel.search_params`` names; each brain is
this project's (``gomoku pbrain --param NAME=VALUE ...``), so nothing is compiled again
between iterations.

Prints a line per iteration (its pair's result and the values so far), then the final
values as ``--param`` options; ``--json`` prints them as one object."""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from engine.game.points import Point
from engine.game.rules import Rule
from engine.kernel.search_params import PARAM_NAMES, param_range, parse_params, shipped_value
from engine.kernel.tables import rule_tables
from engine.tools.openings import load_openings
from engine.tools.referee import MatchSettings, Player, our_brain_command, play_game

ALPHA = 0.602
GAMMA = 0.101
DEFAULT_LEARNING_RATE = 0.002


@dataclass(frozen=True)
class Tuned:
    """One tuned number: its name, its range and its final perturbation step."""

    name: str
    low: int
    high: int
    step: float


def tunables(names: list[str]) -> list[Tuned]:
    """The named numbers with their ranges and steps; ``ValueError`` for an unknown one."""
    if len(set(names)) != len(names):
        raise ValueError("a parameter is named twice")
    return [Tuned(name, *param_range(name)) for name in names]


@dataclass
class Spsa:
    """The tuning state: the current values and the schedule of steps and rates."""

    params: list[Tuned]
    theta: np.ndarray
    iterations: int
    learning_rate: float = DEFAULT_LEARNING_RATE
    done: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def perturbation(self, k: int, rng: random.Random) -> tuple[list[int], list[int], np.ndarray]:
        """The rounded values to play at iteration ``k`` (from 1), raised and lowered, and
        the signs and steps used."""
        signs = np.array([rng.choice((-1.0, 1.0)) for _ in self.params])
        steps = np.array([p.step for p in self.params]) * (self.iterations / k) ** GAMMA
        with self.lock:
            theta = self.theta.copy()
        plus = [self._clamp(n, theta[n] + steps[n] * signs[n]) for n in range(len(self.params))]
        minus = [self._clamp(n, theta[n] - steps[n] * signs[n]) for n in range(len(self.params))]
        return plus, minus, signs * steps

    def _clamp(self, n: int, value: float) -> int:
        param = self.params[n]
        return int(min(param.high, max(param.low, round(value))))

    def update(self, k: int, result: float, signed_steps: np.ndarray) -> None:
        """Move the values by the pair's ``result`` (the raised brain's score less the
        lowered one's, -2 to 2)."""
        big_a = 0.1 * self.iterations
        rate = self.learning_rate * ((big_a + self.iterations) / (big_a + k)) ** ALPHA
        with self.lock:
            self.theta += rate * result * signed_steps
            lows = np.array([p.low for p in self.params], dtype=float)
            highs = np.array([p.high for p in self.params], dtype=float)
            np.clip(self.theta, lows, highs, out=self.theta)
            self.done += 1

    def values(self) -> dict[str, int]:
        with self.lock:
            return {p.name: round(float(v)) for p, v in zip(self.params, self.theta, strict=True)}


def _command(values: dict[str, int]) -> list[str]:
    command = our_brain_command()
    for name, value in values.items():
        command += ["--param", f"{name}={value}"]
    return command


def _worker(
    spsa: Spsa,
    openings: list[list[Point]],
    settings: MatchSettings,
    counter: list[int],
    seed: int,
    out: TextIO,
    totals: dict[str, float],
) -> None:
    rng = random.Random(seed)
    while True:
        with spsa.lock:
            if counter[0] >= spsa.iterations:
                return
            counter[0] += 1
            k = counter[0]
        plus, minus, signed = spsa.perturbation(k, rng)
        names = [p.name for p in spsa.params]
        raised = Player("engine1", _command(dict(zip(names, plus, strict=True))), "raised")
        lowered = Player("engine2", _command(dict(zip(names, minus, strict=True))), "lowered")
        index = (k - 1) % len(openings)
        # Which brain opens the pair alternates, so starting first (its process warming
        # up beside the other's) favours neither side of the perturbation.
        one, two = (raised, lowered) if k % 2 else (lowered, raised)
        try:
            first = play_game(2 * k - 1, index, openings[index], one, two, settings)
            second = play_game(2 * k, index, openings[index], two, one, settings)
        finally:
            raised.close()
            lowered.close()
        score = first.score("engine1") + second.score("engine1")
        result = score - (2.0 - score)
        spsa.update(k, result, signed)
        with spsa.lock:
            totals["pairs"] += 1
            totals["time_losses"] += raised.time_losses + lowered.time_losses
            current = {
                p.name: round(float(v), 1) for p, v in zip(spsa.params, spsa.theta, strict=True)
            }
        print(
            f"iteration {k} opening {index + 1} result {result:+.0f} "
            + " ".join(f"{name}={value}" for name, value in current.items()),
            file=out,
            flush=True,
        )


def run_spsa(
    spsa: Spsa,
    openings: list[list[Point]],
    settings: MatchSettings,
    *,
    concurrency: int = 1,
    seed: int = 1,
    out: TextIO | None = None,
) -> dict[str, object]:
    """Run every iteration (``concurrency`` pairs at once) and return the final values."""
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    stream = out if out is not None else sys.stdout
    counter = [0]
    totals = {"pairs": 0.0, "time_losses": 0.0}
    started = time.perf_counter()
    threads = [
        threading.Thread(
            target=_worker,
            args=(spsa, openings, settings, counter, seed * 1000 + n, stream, totals),
            daemon=True,
        )
        for n in range(concurrency)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {
        "iterations": spsa.done,
        "games": 2 * spsa.done,
        "time_ms": settings.time_ms,
        "time_losses": int(totals["time_losses"]),
        "elapsed_s": round(time.perf_counter() - started, 1),
        "values": spsa.values(),
        "theta": {p.name: round(float(v), 2) for p, v in zip(spsa.params, spsa.theta, strict=True)},
    }


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="gomoku spsa", description="Tune the search's numbers by self-play (SPSA)."
    )
    parser.add_argument(
        "--tune",
        required=True,
        help=f"comma-separated names to tune (of: {', '.join(PARAM_NAMES)})",
    )
    parser.add_argument(
        "--start",
        nargs="*",
        default=[],
        metavar="NAME=VALUE",
        help="starting values (default: the shipped ones)",
    )
    parser.add_argument("--iterations", type=int, default=500, help="game pairs to play")
    parser.add_argument("--learning-rate", type=float, default=DEFAULT_LEARNING_RATE)
    parser.add_argument("--openings", help="offset-format openings file (default: empty board)")
    parser.add_argument("--time-ms", type=int, default=200, help="time per move (ms)")
    parser.add_argument("--concurrency", type=int, default=1, help="pairs played at once")
    parser.add_argument("--seed", type=int, default=1, help="seeds the perturbations' signs")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    try:
        params = tunables([name.strip() for name in args.tune.split(",") if name.strip()])
        if not params:
            raise ValueError("--tune names no parameter")
        if args.iterations < 1:
            raise ValueError("--iterations must be at least 1")
        threats = rule_tables(Rule.FREESTYLE.value, 15).eval_threats
        start = {p.name: shipped_value(p.name, threats) for p in params}
        try:
            given = parse_params(args.start)
        except ValueError as error:
            raise ValueError(f"--start: {error}") from None
        untuned = set(given) - set(start)
        if untuned:
            raise ValueError(f"--start: {', '.join(sorted(untuned))} is not tuned (--tune)")
        start.update(given)
        openings = load_openings(args.openings) if args.openings else [[]]
    except (OSError, ValueError) as error:
        print(f"gomoku spsa: {error}", file=sys.stderr)
        return 2
    theta = np.array([float(start[p.name]) for p in params])
    spsa = Spsa(params, theta, args.iterations, args.learning_rate)
    settings = MatchSettings(time_ms=args.time_ms)
    summary = run_spsa(
        spsa,
        openings,
        settings,
        concurrency=args.concurrency,
        seed=args.seed,
        out=sys.stderr if args.json else sys.stdout,
    )
    if args.json:
        print(json.dumps(summary))
    else:
        values = summary["values"]
        assert isinstance(values, dict)
        print(" ".join(f"--param {name}={value}" for name, value in values.items()))
    return 0
