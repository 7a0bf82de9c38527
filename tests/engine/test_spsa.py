"""The SPSA tuner: its steps and updates, and a real run over brain processes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.tools.spsa import Spsa, tunables

ROOT = Path(__file__).resolve().parents[2]


def test_tunables_refuse_unknown_and_repeated_names() -> None:
    chosen = tunables(["rfp_margin", "tempo"])
    assert [t.name for t in chosen] == ["rfp_margin", "tempo"]
    assert chosen[0].low < 60 < chosen[0].high
    with pytest.raises(ValueError, match="unknown search parameter"):
        tunables(["rfp"])
    with pytest.raises(ValueError, match="twice"):
        tunables(["rfp_margin", "rfp_margin"])


def test_perturbation_and_update_move_towards_the_winner() -> None:
    params = tunables(["rfp_margin", "fhr_margin"])
    spsa = Spsa(params, np.array([60.0, 40.0]), iterations=100, learning_rate=0.01)
    plus, minus, signed = spsa.perturbation(1, random.Random(3))
    steps = np.abs(signed)
    # The first iteration's steps are the final ones times N ** 0.101.
    assert steps == pytest.approx([8.0 * 100**0.101, 6.0 * 100**0.101])
    for n, sign in enumerate(np.sign(signed)):
        assert (plus[n] - minus[n]) * sign > 0
        assert plus[n] == round(spsa.theta[n] + signed[n])
    before = spsa.theta.copy()
    spsa.update(1, 2.0, signed)  # the raised brain won both games
    moved = spsa.theta - before
    assert (np.sign(moved) == np.sign(signed)).all()
    spsa.update(2, -2.0, signed)
    spsa.update(3, 0.0, signed)
    assert spsa.done == 3
    # Values stay within their ranges.
    spsa.update(4, 2.0, np.array([1e6, -1e6]))
    assert spsa.values() == {"rfp_margin": params[0].high, "fhr_margin": params[1].low}


def test_a_short_run_between_real_brains(tmp_path: Path) -> None:
    book = tmp_path / "openings.txt"
    book.write_text("0,0, 1,-1, 3,2, -1,-1, 3,-1\n")
    command = [sys.executable, "-m", "webapp.cli", "spsa", "--tune", "rfp_margin,tempo"]
    command += ["--iterations", "1", "--time-ms", "100", "--openings", str(book), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["iterations"] == 1 and summary["games"] == 2
    assert set(summary["values"]) == {"rfp_margin", "tempo"}
    assert done.stderr.count("iteration 1 opening 1 result ") == 1


def test_bad_arguments_are_refused() -> None:
    command = [sys.executable, "-m", "webapp.cli", "spsa", "--tune", "nope"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "unknown search parameter" in done.stderr
    command = [sys.executable, "-m", "webapp.cli", "spsa", "--tune", "tempo", "--start", "x=1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "--start" in done.stderr
