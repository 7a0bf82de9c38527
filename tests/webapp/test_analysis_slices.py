"""A slice whose search ends shallower than the depth already shown."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from engine import Board
from webapp.ai.types import AiMove
from webapp.analysis.messages import AnalyseMessage
from webapp.analysis.runs import AnalysisRuns, _Run

MOVES = [(7, 7), (8, 8), (8, 6)]


def _runs(sent: list[dict[str, Any]]) -> tuple[AnalysisRuns, _Run]:
    runs = AnalysisRuns(runner=None, emit=lambda _event, payload, _sid: sent.append(payload),  # type: ignore[arg-type]
                        cap_s=0.0)  # fmt: skip
    request = AnalyseMessage(size=15, rule="freestyle", moves=MOVES, lines=1)
    run = _Run(sid="s", client="c", position=1, board=Board.from_moves(MOVES, size=15),
               request=request)  # fmt: skip
    runs._runs["s"] = run
    return runs, run


def _line(depth: int, move: tuple[int, int]) -> dict[str, Any]:
    return {"move": list(move), "score": 40, "depth": depth, "pv": [list(move)]}


def _slice_ends(shown: int, reached: int) -> list[dict[str, Any]]:
    """The updates sent when progress has shown depth ``shown`` and the slice's search
    ends at depth ``reached``."""
    sent: list[dict[str, Any]] = []
    runs, run = _runs(sent)
    runs._progress(run, {"depth": shown, "score": 40, "move": [6, 7], "pv": [[6, 7]],
                         "nodes": 900, "nps": 1000, "lines": [_line(shown, (6, 7))]})  # fmt: skip
    future: Future[AiMove] = Future()
    future.set_result(AiMove(move=(9, 7), score=30, depth=reached, nodes=1000, pv=[(9, 7)],
                             lines=[_line(reached, (9, 7))]))  # fmt: skip
    runs._done(run, future, started=0.0)
    return sent


def test_the_depth_shown_never_falls_back_when_a_slice_ends() -> None:
    sent = _slice_ends(shown=14, reached=13)
    assert [payload["depth"] for payload in sent] == [14, 14]
    assert sent[-1]["status"] == "paused"
    assert sent[-1]["lines"] == sent[0]["lines"]  # the deeper line stays on screen


def test_a_deeper_result_replaces_the_progress() -> None:
    sent = _slice_ends(shown=12, reached=13)
    assert [payload["depth"] for payload in sent] == [12, 13]
    assert sent[-1]["status"] == "paused"
    assert sent[-1]["lines"][0]["move"] == [9, 7]
