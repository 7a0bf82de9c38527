"""Runs a few lines in a fresh interpreter and reports its garbage collector's state, for
the tests of heap settling: freezing the test process's own heap would outlive the test."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

REPORT = (
    'print(json.dumps({"before": before, "frozen": gc.get_freeze_count(),'
    ' "tracked": len(gc.get_objects()), "threshold": gc.get_threshold()}))'
)


def heap_report(load: str, settle: str = "") -> dict[str, Any]:
    """Run ``load``, count the tracked objects (``before``), run ``settle`` and return
    ``before``, the frozen and still tracked counts and the thresholds."""
    code = f"import gc, json\n{load}\nbefore = len(gc.get_objects())\n{settle}\n{REPORT}\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def assert_settled(report: dict[str, Any]) -> None:
    # Loading numpy and numba alone makes tens of thousands of tracked objects.
    assert report["before"] > 20_000
    # Nearly all of them (all but the garbage the settling collection freed) now sit in
    # the permanent generation...
    assert report["frozen"] >= report["before"] * 9 // 10
    # ...and the collector's own generations are nearly empty.
    assert report["tracked"] < report["before"] // 20
