"""``gomoku bench``: speed and depth figures of the searcher on fixed positions.

Measures, in this order: the compile/load time of the first search in the process; nodes
per second and the depth of the last iteration finished in a fixed time per position (the
search spending the whole time, as the Gomocup brain does); the time to reach a fixed
depth; and the speed-up over the plain-Python reference negamax (``engine.search.plain``) at an
equal depth on the same positions (``engine.tools.bench_positions``). Prints a table, or one
JSON object with ``--json``; ``--quick`` uses fewer positions and shorter times.
``--threads N`` runs the timed searches with N search threads (``Searcher(threads=N)``);
the fixed-depth figures always come from one thread."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from engine.game.board import Board
from engine.search.helpers import MAX_THREADS
from engine.search.limit import Limit
from engine.search.plain import PlainSearcher
from engine.search.result import MATE_BOUND
from engine.search.searcher import Searcher
from engine.tools.bench_positions import bench_boards

QUICK_POSITIONS = 3


def measure_compile() -> float:
    """Seconds taken by the first search in this process (loading or compiling the core)."""
    board = Board(15)
    for move in ((7, 7), (8, 8), (8, 7)):
        board.push(move)
    start = time.perf_counter()
    Searcher(tt_mb=1).search(board, Limit(depth=1, time=60.0))
    return time.perf_counter() - start


def run_bench(
    *,
    quick: bool = False,
    seconds: float | None = None,
    target_depth: int | None = None,
    depth_cap_s: float | None = None,
    plain_depth: int | None = None,
    tt_mb: int = 64,
    threads: int = 1,
    progress: Any = None,
) -> dict[str, Any]:
    """Run every measurement and return the figures as plain data."""
    seconds = seconds if seconds is not None else (0.25 if quick else 1.0)
    target_depth = target_depth if target_depth is not None else (4 if quick else 6)
    depth_cap_s = depth_cap_s if depth_cap_s is not None else (2.0 if quick else 10.0)
    plain_depth = plain_depth if plain_depth is not None else (2 if quick else 3)
    positions = bench_boards()
    if quick:
        positions = positions[:: len(positions) // QUICK_POSITIONS][:QUICK_POSITIONS]

    def say(text: str) -> None:
        if progress is not None:
            print(text, file=progress, flush=True)

    compile_s = measure_compile()
    say(f"first search (compile/load): {compile_s:.2f} s")
    searcher = Searcher(tt_mb=tt_mb)
    timer = Searcher(tt_mb=tt_mb, threads=threads) if threads > 1 else searcher
    # Allocate the searcher's tables before anything is timed, as a brain has them after
    # its first move; each position then starts from cleared (zeroed) tables.
    searcher.search(positions[0][1], Limit(depth=1))
    if timer is not searcher:
        timer.search(positions[0][1], Limit(depth=1, time=60.0))
    plain = PlainSearcher()
    rows: list[dict[str, Any]] = []
    for name, board in positions:
        timer.clear()
        # As the Gomocup brain searches: the whole time, deepening until it is up.
        timed = timer.search(board, Limit(time=seconds, spend_all=True))
        searcher.clear()
        deep = searcher.search(board, Limit(depth=target_depth, time=depth_cap_s))
        searcher.clear()
        ours = searcher.search(board, Limit(depth=plain_depth))
        reference = plain.search(board, plain_depth)
        row = {
            "name": name,
            "stones": board.move_count,
            "nodes": timed.nodes,
            "time_s": round(timed.time, 4),
            "nps": int(timed.nodes / timed.time) if timed.time > 0 else 0,
            "depth": timed.depth,
            "move": list(timed.move),
            "score": timed.score,
            "solved": abs(timed.score) >= MATE_BOUND,
            "time_to_depth_s": round(deep.time, 4),
            "reached_depth": deep.depth,
            "ours_plain_depth_s": round(ours.time, 5),
            "ours_plain_depth_nodes": ours.nodes,
            "plain_s": round(reference.time, 4),
            "plain_nodes": reference.nodes,
        }
        rows.append(row)
        say(
            f"{name:<11} {board.move_count:>3} stones{'*' if row['solved'] else ' '}"
            f" nps {row['nps']:>9}  depth {timed.depth:>2}"
            f"  to depth {target_depth}: {deep.time:6.2f}s (got {deep.depth:>2})"
            f"  depth {plain_depth}: ours {ours.time:7.4f}s/{ours.nodes:>7} nodes,"
            f" plain {reference.time:7.3f}s/{reference.nodes:>6} nodes"
        )
    # A proven win or loss cuts the search short: such a position says little about speed
    # or depth, so those figures come from the others.
    open_rows = [r for r in rows if not r["solved"]] or rows
    total_nodes = sum(r["nodes"] for r in open_rows)
    total_time = sum(r["time_s"] for r in open_rows)
    ours_time = sum(r["ours_plain_depth_s"] for r in rows)
    plain_time = sum(r["plain_s"] for r in rows)
    reached = [r for r in open_rows if r["reached_depth"] >= target_depth]
    return {
        "nps": int(total_nodes / total_time) if total_time > 0 else 0,
        "depth_1s": round(sum(r["depth"] for r in open_rows) / len(open_rows), 2),
        "depth_1s_all": round(sum(r["depth"] for r in rows) / len(rows), 2),
        "solved_positions": [r["name"] for r in rows if r["solved"]],
        "depth_time_s": seconds,
        "compile_s": round(compile_s, 3),
        "target_depth": target_depth,
        "time_to_depth_s": round(sum(r["time_to_depth_s"] for r in reached) / len(reached), 4)
        if reached
        else None,
        "positions_reaching_depth": len(reached),
        "plain_depth": plain_depth,
        "plain_time_s": round(plain_time, 4),
        "ours_time_at_plain_depth_s": round(ours_time, 5),
        "speedup_vs_plain": round(plain_time / ours_time, 1) if ours_time > 0 else None,
        "positions": rows,
        "quick": quick,
        "threads": threads,
    }


def format_report(figures: dict[str, Any]) -> str:
    lines = [
        f"compile/load (first search): {figures['compile_s']:.2f} s",
        f"nodes/s: {figures['nps']}  (sum nodes / sum time at {figures['depth_time_s']} s"
        f" per position, {figures['threads']} search thread"
        f"{'s' if figures['threads'] > 1 else ''})",
        f"depth in {figures['depth_time_s']} s: average {figures['depth_1s']}  per position: "
        + " ".join(str(r["depth"]) + ("*" if r["solved"] else "") for r in figures["positions"]),
        "  (* a forced win or loss was found, which cuts the search short: left out of"
        " nodes/s, depth and time to depth)",
    ]
    if figures["time_to_depth_s"] is None:
        lines.append(f"time to depth {figures['target_depth']}: not reached within the cap")
    else:
        lines.append(
            f"time to depth {figures['target_depth']}: average {figures['time_to_depth_s']:.3f} s"
            f" ({figures['positions_reaching_depth']} of the unsolved positions reached it"
            " within the cap)"
        )
    lines.append(
        f"plain-Python negamax at depth {figures['plain_depth']}: {figures['plain_time_s']:.2f} s,"
        f" ours {figures['ours_time_at_plain_depth_s']:.4f} s,"
        f" speedup_vs_plain {figures['speedup_vs_plain']}x"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gomoku bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="3 positions, short times")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, help="time per position for nodes/s, depth")
    parser.add_argument("--depth", type=int, help="the fixed depth to time (default 6)")
    parser.add_argument("--plain-depth", type=int, help="depth of the comparison (default 3)")
    parser.add_argument(
        "--threads", type=int, default=1, help="search threads of the timed searches (default 1)"
    )
    args = parser.parse_args(argv)
    if (args.seconds is not None and args.seconds <= 0) or any(
        v is not None and v < 1 for v in (args.depth, args.plain_depth)
    ):
        print("gomoku bench: --seconds must be positive, depths at least 1", file=sys.stderr)
        return 2
    if not 1 <= args.threads <= MAX_THREADS:
        print(f"gomoku bench: --threads must be between 1 and {MAX_THREADS}", file=sys.stderr)
        return 2
    figures = run_bench(
        quick=args.quick,
        seconds=args.seconds,
        target_depth=args.depth,
        plain_depth=args.plain_depth,
        threads=args.threads,
        progress=None if args.json else sys.stdout,
    )
    if args.json:
        print(json.dumps(figures))
    else:
        print(format_report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
