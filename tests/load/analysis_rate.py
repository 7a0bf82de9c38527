"""Analysis board update rate (a benchmark, not a test): how soon the first ``analysis``
update reaches a socket after ``analyse``, and how many updates a second follow while the
engine goes deeper, for an opening and three middle-game positions of the bench.

The app runs in this process with its real AI pool (one analysis worker at its usual
lower priority); the socket is Flask-SocketIO's test client on the ``/analysis``
namespace, so the figures are the server and engine side without a network. Run with a
lower priority on a shared machine:

    nice -n 10 .venv/bin/python tests/load/analysis_rate.py [--seconds 20] [--lines 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

NAMESPACE = "/analysis"
# Positions without a forced result: the bench's middle-game ones and a short opening.
BENCH_NAMES = ("opening-09", "quiet-17", "opening-07")
OPENING = [[7, 7], [8, 8], [7, 8], [9, 6], [6, 6], [8, 7]]


def positions() -> dict[str, list[list[int]]]:
    from engine.tools.bench_positions import bench_boards

    found = {name: [list(m) for m in board.moves] for name, board in bench_boards()}
    return {"opening-6": OPENING, **{name: found[name] for name in BENCH_NAMES}}


def measure(app: object, moves: list[list[int]], seconds: float, lines: int) -> dict[str, float]:
    socketio = app.extensions["socketio"]  # type: ignore[attr-defined]
    sock = socketio.test_client(app, namespace=NAMESPACE)
    sent = time.monotonic()
    sock.emit("analyse", {"size": 15, "rule": "freestyle", "moves": moves, "lines": lines},
              namespace=NAMESPACE)  # fmt: skip
    arrivals: list[float] = []
    depths: list[int] = []
    while time.monotonic() - sent < seconds:
        for event in sock.get_received(NAMESPACE):
            if event["name"] == "analysis":
                arrivals.append(time.monotonic() - sent)
                depths.append(int(event["args"][0]["depth"]))
        time.sleep(0.005)
    sock.disconnect(namespace=NAMESPACE)
    if not arrivals:
        return {"updates": 0}
    span = arrivals[-1] - arrivals[0]
    gaps = [b - a for a, b in pairwise(arrivals)]
    return {
        "first_s": arrivals[0],
        "updates": len(arrivals),
        "per_s": (len(arrivals) - 1) / span if span > 0 else 0.0,
        "gap_median_s": statistics.median(gaps) if gaps else 0.0,
        "gap_max_s": max(gaps) if gaps else 0.0,
        "depth_first": depths[0],
        "depth_last": depths[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="watch each position")
    parser.add_argument("--lines", type=int, default=3, help="multi-PV lines (1-5)")
    args = parser.parse_args()
    from webapp.app import create_app, shutdown_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "load", "AI_WORKERS": 1,
                          "AI_ANALYSIS_WORKERS": 1, "AI_RESUME": False})  # fmt: skip
        try:
            print(f"load average at start: {os.getloadavg()[0]:.2f}")
            print(f"{'position':<12} {'first update':>13} {'updates':>8} {'per s':>6} "
                  f"{'median gap':>11} {'max gap':>8} {'depths':>8}")  # fmt: skip
            for name, moves in positions().items():
                r = measure(app, moves, args.seconds, args.lines)
                if not r.get("updates"):
                    print(f"{name:<12} no update in {args.seconds} s")
                    continue
                print(
                    f"{name:<12} {r['first_s']:>11.3f} s {int(r['updates']):>8} "
                    f"{r['per_s']:>6.2f} {r['gap_median_s']:>9.3f} s {r['gap_max_s']:>6.2f} s "
                    f"{int(r['depth_first']):>3}-{int(r['depth_last']):<3}"
                )
            print(f"load average at end: {os.getloadavg()[0]:.2f}")
        finally:
            shutdown_app(app)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
