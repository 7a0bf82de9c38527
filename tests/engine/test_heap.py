"""Warmed-up engine processes set their long-lived objects aside, so a full garbage
collection during a timed move walks only what play allocates. Each case runs in its own
interpreter: freezing the test process's heap would outlive the test."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import gc, json, sys
before = len(gc.get_objects())
{setup}
print(json.dumps({{"before": before, "frozen": gc.get_freeze_count(),
                  "tracked": len(gc.get_objects())}}))
"""

CASES = {
    "settle_heap": (
        "import numpy, numba\n"
        "from engine.search.heap import settle_heap\n"
        "before = len(gc.get_objects())\n"
        "settle_heap()"
    ),
    "command-line warm-up": (
        "from engine.tools.warmup import warm_up\n"
        "import engine\n"
        "before = len(gc.get_objects())\n"
        "warm_up()"
    ),
    "Gomocup brain": (
        "from engine.protocol.pbrain import Brain\n"
        "before = len(gc.get_objects())\n"
        "brain = Brain(write=lambda line: None)\n"
        "brain.warm_up()"
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_warmed_process_exempts_its_loaded_objects_from_collection(case: str) -> None:
    code = PROBE.format(setup=CASES[case])
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    # Loading numpy and numba alone makes tens of thousands of tracked objects.
    assert report["before"] > 20_000
    # Nearly all of them (all but the garbage the settling collection freed) now sit in
    # the permanent generation...
    assert report["frozen"] >= report["before"] * 9 // 10
    # ...and the collector's own generations are nearly empty.
    assert report["tracked"] < report["before"] // 20


def test_without_settling_a_process_keeps_its_objects_tracked() -> None:
    code = PROBE.format(setup="import numpy, numba\nbefore = len(gc.get_objects())")
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["frozen"] == 0
    assert report["tracked"] >= report["before"]
