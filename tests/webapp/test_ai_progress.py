"""Progress reports of ``webapp.ai.pool.search_position``: a quick search sends none (its
figures travel with the move), a longer one sends the newest depth once it has run a
moment, then each new depth, and nothing after its move."""

from __future__ import annotations

import threading
import time
from typing import Any

from webapp.ai.pool import FIRST_REPORT_S, search_position
from webapp.ai.types import AiJob

OPENING = [(7, 7), (8, 8), (8, 7)]


def test_a_quick_search_streams_no_reports() -> None:
    search_position(AiJob(15, "freestyle", OPENING, level=1))  # loads the compiled code
    reports: list[dict[str, Any]] = []
    move = search_position(AiJob(15, "freestyle", OPENING, level=1), reports.append)
    assert move.depth == 1
    assert move.nodes >= 1
    assert reports == []


def test_a_longer_search_reports_after_a_moment_and_never_after_its_move() -> None:
    search_position(AiJob(15, "freestyle", OPENING, level=1))  # loads the compiled code
    reports: list[tuple[float, dict[str, Any]]] = []
    finished = threading.Event()
    late: list[dict[str, Any]] = []

    def on_progress(info: dict[str, Any]) -> None:
        if finished.is_set():
            late.append(info)
        reports.append((time.monotonic() - started, info))

    job = AiJob(15, "freestyle", OPENING, level=3, time_s=5 * FIRST_REPORT_S)
    started = time.monotonic()
    move = search_position(job, on_progress)
    finished.set()
    time.sleep(0.2)
    assert reports, "no report from a search five times longer than the quiet start"
    assert all(at >= FIRST_REPORT_S for at, _ in reports)
    depths = [info["depth"] for _, info in reports]
    assert depths == sorted(set(depths))
    assert depths[-1] <= move.depth
    assert {"depth", "score", "pv", "nodes", "nps", "move"} <= set(reports[-1][1])
    assert late == []
