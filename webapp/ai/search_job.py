"""The search of one ``AiJob``, as every kind of worker runs it: the pool's worker
processes (``pool_worker``) and the queue workers of multi-process mode (``scale.jobs``).
Negamax levels search here; MCTS and external players are played by ``players``."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from webapp.ai.types import AiJob, AiMove, ProgressCallback

# Analysis boards search one position in slices (``analysis.runs``): the worker keeps
# the searchers of the last few, so a slice goes on from what the one before learned.
ANALYSIS_SESSION = "analysis:"
KEPT_SEARCHERS = 2
KEPT_TT_MB = 32
_kept: OrderedDict[str, Any] = OrderedDict()
# A search's progress reports start after it has run this long (see ``search_position``).
FIRST_REPORT_S = 0.1
WATCH_AFTER_S = 0.02


def search_position(
    job: AiJob,
    on_progress: ProgressCallback | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> AiMove:
    """Search ``job``'s position in this process: ``on_progress`` gets each finished
    depth, ``should_stop`` is polled to end the search early. Pool workers
    (``pool_worker``) and queue workers (``scale.jobs``) both search through here."""
    from engine import Board, Limit
    from engine.search.levels import get_level

    if job.opening is not None:
        from webapp.ai.opening_job import decide_opening

        return decide_opening(job)
    if job.player is not None and job.player.get("kind") in ("mcts", "engine"):
        from webapp.players.registry import play_move

        return play_move(job, on_progress, should_stop)
    level = get_level(job.level)
    limit = level.limit
    if job.time_s is not None or job.depth is not None:
        limit = Limit(time=job.time_s, depth=job.depth)
    board = Board.from_moves(job.moves, size=job.size, rule=job.rule)
    done = threading.Event()
    started = time.monotonic()
    latest: list[dict[str, Any]] = []  # the newest report not yet passed on
    report_lock = threading.Lock()

    def report(info: dict[str, Any] | None) -> None:
        # Depths finished in the first moments are replaced within milliseconds: they
        # wait, and only the newest goes out once the search has run FIRST_REPORT_S. A
        # quick search sends none; its figures travel with the move (``evals``).
        with report_lock:
            if info is not None:
                latest[:] = [info]
            if done.is_set() or not latest or time.monotonic() - started < FIRST_REPORT_S:
                return
            if on_progress is not None:
                # Under the lock: once the search is over no report can follow its move.
                on_progress(latest.pop())

    watching: list[threading.Thread] = []

    def on_iteration(info: Any) -> None:
        report(info.to_json())
        if should_stop is not None and should_stop():
            searcher.stop()  # called only while ``searcher`` (below) searches
        if not watching and time.monotonic() - started >= WATCH_AFTER_S:
            # Only a search that lasts gets a thread to poll for a stop and to pass on
            # its newest depth while the next one runs; most searches of the fast levels
            # end in a millisecond or two.
            watching.append(threading.Thread(target=watch, daemon=True))
            watching[0].start()

    searcher = _kept_searcher(job, on_iteration)
    if searcher is None:
        searcher = level.searcher(defence=job.defence, seed=job.seed, on_iteration=on_iteration)

    def watch() -> None:
        while not done.wait(0.05):
            if should_stop is not None and should_stop():
                searcher.stop()
                return
            report(None)

    try:
        result = searcher.search(board, limit)
    finally:
        with report_lock:
            done.set()
    forced = _forced_win(board) if job.threats else None
    return AiMove(
        move=(int(result.move[0]), int(result.move[1])),
        score=int(result.score),
        depth=int(result.depth),
        nodes=int(result.nodes),
        pv=[(int(x), int(y)) for x, y in result.pv],
        time_s=float(result.time),
        nps=int(result.nps),
        lines=[line.to_json() for line in result.lines] or None,
        forced=forced,
    )


_threats = threading.local()


def _forced_win(board: Any) -> dict[str, Any] | None:
    """The side to move's forced win by the threat searches, as a review stores it; one
    ``ThreatSearch`` per thread keeps its scratch tables warm between positions."""
    from engine.search.threats import ThreatSearch

    search = getattr(_threats, "search", None)
    if search is None:
        search = _threats.search = ThreatSearch()
    win = search.find_win(board)
    if win is None:
        return None
    return {
        "kind": win.kind.value,
        "plies": int(win.plies),
        "moves": (int(win.plies) + 1) // 2,
        "line": [[int(x), int(y)] for x, y in win.line],
    }


def _kept_searcher(job: AiJob, on_iteration: Callable[[Any], None]) -> Any:
    """The searcher kept for an analysis board's position (made on its first slice), or
    None for any other job."""
    session = job.session
    if session is None or not session.startswith(ANALYSIS_SESSION):
        return None
    from engine import Searcher

    searcher = _kept.get(session)
    if searcher is None:
        searcher = Searcher(tt_mb=KEPT_TT_MB, multipv=max(1, min(job.multipv, 5)))
        _kept[session] = searcher
        while len(_kept) > KEPT_SEARCHERS:
            _kept.popitem(last=False)
    _kept.move_to_end(session)
    searcher.on_iteration = on_iteration
    return searcher
