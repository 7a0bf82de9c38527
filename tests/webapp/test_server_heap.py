"""The web server sets the objects it holds once the app is built aside from garbage
collection and makes collections rarer, in its own interpreter (freezing the test
process's heap would outlive the test)."""

from __future__ import annotations

import json
import subprocess
import sys

CODE = """
import gc, json
from webapp.server import _tune_interpreter
before = len(gc.get_objects())
_tune_interpreter()
print(json.dumps({"before": before, "frozen": gc.get_freeze_count(),
                  "tracked": len(gc.get_objects()), "threshold": gc.get_threshold()}))
"""


def test_the_server_settles_its_heap_and_collects_less_often() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, timeout=300, check=True
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["before"] > 20_000
    assert report["frozen"] >= report["before"] * 9 // 10
    assert report["tracked"] < report["before"] // 20
    assert report["threshold"] == [20_000, 20, 50]
