"""Continuous analysis of the positions on analysis boards, one run per socket.

A run searches its position on the AI runner's ``analysis`` lane (the fair-share runner
counts it against its client like a hint) in slices of ``SLICE_S`` seconds with
``multipv`` lines. The worker keeps the searcher of a board between slices (the job's
``session``), so each slice goes on deeper from what the last one learned; between slices
other clients' hints and searches get their turn. Every finished depth is streamed to the
socket as an ``analysis`` update (``messages``); after ``CAP_S`` seconds of search on one
position the run pauses until the page asks to continue. A new position replaces the
socket's run; a disconnect stops it. A client (an address) may have ``MAX_RUNS`` boards
analysing at once; another is refused with ``analysis_limit``."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from engine import Board, Color, GomokuError, point_name
from engine.search.result import MATE_BOUND, mate_distance
from webapp.ai.runner import AiRunner, AiTicket
from webapp.ai.types import AiJob, AiMove
from webapp.analysis.messages import AnalyseMessage
from webapp.game.errors import BadRequestError, GameActionError, RateLimitedError
from webapp.game.winrate import black_winrate

log = logging.getLogger(__name__)

SLICE_S = 5.0
CAP_S = 60.0
MAX_RUNS = 2
ANALYSIS_LEVEL = 5
# A slice refused because the client's searches are still winding down is tried again.
RETRY_S = 1.0
RETRIES = 5

Emit = Callable[[str, dict[str, Any], str], None]


@dataclass(eq=False)
class _Run:
    sid: str
    client: str
    position: int
    board: Board
    request: AnalyseMessage
    searched_s: float = 0.0
    ticket: AiTicket | None = None
    status: str = "running"
    retries: int = 0
    latest: dict[str, Any] = field(default_factory=dict)


class AnalysisRuns:
    def __init__(self, runner: AiRunner, emit: Emit, *, slice_s: float = SLICE_S,
                 cap_s: float = CAP_S, max_runs: int = MAX_RUNS) -> None:  # fmt: skip
        self.runner = runner
        self.emit = emit
        self.slice_s = slice_s
        self.cap_s = cap_s
        self.max_runs = max_runs
        self._runs: dict[str, _Run] = {}
        self._positions: dict[str, int] = {}
        self._lock = threading.Lock()

    # -- requests -------------------------------------------------------------------------

    def analyse(self, sid: str, client: str, request: AnalyseMessage) -> int:
        """Start analysing ``request``'s position for socket ``sid``; its position number."""
        try:
            board = Board.from_moves(request.moves, size=request.size, rule=request.rule)
        except GomokuError as error:
            raise BadRequestError(
                f"the stones are not a legal position: {error}", code="bad_moves"
            ) from None
        if board.is_game_over():
            raise BadRequestError("the game is over in this position", code="game_over")
        with self._lock:
            busy = sum(
                1
                for run in self._runs.values()
                if run.client == client and run.sid != sid and run.status == "running"
            )
            if busy >= self.max_runs:
                raise RateLimitedError(
                    f"at most {self.max_runs} analysis boards at a time: close another one",
                    code="analysis_limit",
                )
            position = self._positions.get(sid, 0) + 1
            self._positions[sid] = position
            old = self._runs.get(sid)
            run = _Run(sid, client, position, board, request)
            self._runs[sid] = run
        if old is not None:
            self._cancel(old)
        if board.is_empty():
            self._opening(run)
        else:
            self._slice(run)
        return position

    def resume(self, sid: str) -> None:
        """Go on analysing a paused position."""
        with self._lock:
            run = self._runs.get(sid)
            if run is None or run.status != "paused":
                return
            run.status = "running"
            run.searched_s = 0.0
        self._slice(run)

    def stop(self, sid: str) -> None:
        """Stop the socket's analysis (a disconnect, or the page asked)."""
        with self._lock:
            run = self._runs.pop(sid, None)
            self._positions.pop(sid, None)
        if run is not None:
            self._cancel(run)

    def running(self) -> int:
        with self._lock:
            return sum(run.status == "running" for run in self._runs.values())

    def close(self) -> None:
        for sid in list(self._runs):
            self.stop(sid)

    # -- slices ---------------------------------------------------------------------------

    def _current(self, run: _Run) -> bool:
        with self._lock:
            return self._runs.get(run.sid) is run and run.status == "running"

    def _slice(self, run: _Run) -> None:
        if not self._current(run):
            return
        request = run.request
        job = AiJob(
            size=request.size,
            rule=request.rule,
            moves=list(request.moves),
            level=ANALYSIS_LEVEL,
            time_s=self.slice_s,
            lane="analysis",
            client=run.client,
            session=f"analysis:{run.sid}:{run.position}",
            multipv=request.lines,
        )
        try:
            ticket = self.runner.submit(job, lambda info: self._progress(run, info))
        except RateLimitedError as error:
            if run.retries < RETRIES:
                run.retries += 1
                timer = threading.Timer(RETRY_S, self._slice, args=(run,))
                timer.daemon = True
                timer.start()
                return
            self._fail(run, error)
            return
        run.retries = 0
        run.ticket = ticket
        started = time.monotonic()
        ticket.future.add_done_callback(lambda future: self._done(run, future, started))

    def _progress(self, run: _Run, info: dict[str, Any]) -> None:
        # A slice goes on from what the last one learned, so its first iterations only
        # repeat depths already shown: they are not sent again.
        if self._current(run) and int(info.get("depth", 0)) >= int(run.latest.get("depth", 0)):
            self._send(run, info, "running")

    def _done(self, run: _Run, future: Future[AiMove], started: float) -> None:
        if future.cancelled() or not self._current(run):
            return
        try:
            move = future.result()
        except Exception as error:
            log.warning("analysis slice failed: %r", error)
            self._fail(run, GameActionError("the analysis failed", code="hint_failed"))
            return
        run.searched_s += time.monotonic() - started
        info = {
            "depth": move.depth,
            "score": move.score,
            "move": list(move.move),
            "pv": [list(p) for p in move.pv],
            "nodes": move.nodes,
            "nps": move.nps,
            "lines": move.lines or [],
        }
        lines = move.lines or []
        proven = bool(lines) and all(
            abs(int(line["score"])) >= MATE_BOUND
            and (mate_distance(int(line["score"])) or 0) <= int(line["depth"])
            for line in lines
        )
        if proven:
            status = "done"
        elif run.searched_s >= self.cap_s:
            status = "paused"
        else:
            status = "running"
        with self._lock:
            if self._runs.get(run.sid) is not run:
                return
            if status != "running":
                run.status = status
        if status != "done" and _deepest(info) < int(run.latest.get("depth", 0)):
            # The slice ended shallower than the depth already shown (each slice deepens
            # again from the start and, on a busy machine, may not get back there in its
            # time): the deeper lines stay on screen, only the status and time change.
            self._resend(run, status)
        else:
            self._send(run, info, status)
        if status == "running":
            self._slice(run)

    def _opening(self, run: _Run) -> None:
        """An empty board has nothing to search: the first stone goes in the centre. It is
        sent as one ``opening`` update and no search runs."""
        centre = [run.board.size // 2, run.board.size // 2]
        with self._lock:
            if self._runs.get(run.sid) is not run:
                return
            run.status = "opening"
        info = {"depth": 0, "score": 0, "move": centre, "pv": [centre], "nodes": 0, "nps": 0}
        self._send(run, info, "opening")

    def _fail(self, run: _Run, error: GameActionError) -> None:
        with self._lock:
            if self._runs.get(run.sid) is run:
                run.status = "paused"
        self.emit("error", error.to_json(), run.sid)

    def _cancel(self, run: _Run) -> None:
        run.status = "stopped"
        if run.ticket is not None:
            run.ticket.cancel()

    # -- updates --------------------------------------------------------------------------

    def _resend(self, run: _Run, status: str) -> None:
        payload = {**run.latest, "status": status, "elapsed_ms": round(run.searched_s * 1000)}
        run.latest = payload
        self.emit("analysis", payload, run.sid)

    def _send(self, run: _Run, info: dict[str, Any], status: str) -> None:
        board = run.board
        lines = info.get("lines") or [
            {"move": info["move"], "score": info["score"], "depth": info["depth"],
             "pv": info.get("pv", [])}
        ]  # fmt: skip
        black_to_move = board.turn is Color.BLACK
        payload = {
            "position": run.position,
            "status": status,
            "turn": "black" if black_to_move else "white",
            # The deepest line: a forced win from the threat searches is "depth 1".
            "depth": _deepest(info),
            "nodes": int(info.get("nodes", 0)),
            "nps": int(info.get("nps", 0)),
            "elapsed_ms": round(run.searched_s * 1000),
            "lines": [_line(board.size, line, black_to_move) for line in lines],
        }
        run.latest = payload
        self.emit("analysis", payload, run.sid)


def _deepest(info: dict[str, Any]) -> int:
    """The deepest of a search report's depth and its lines' depths."""
    lines = info.get("lines") or []
    return max([int(info.get("depth", 0))] + [int(line["depth"]) for line in lines])


def _line(size: int, line: dict[str, Any], black_to_move: bool) -> dict[str, Any]:
    score = int(line["score"])
    black_score = score if black_to_move else -score
    mate = mate_distance(score)
    winner = None
    if mate is not None:
        winner = (
            ("black" if black_to_move else "white")
            if score > 0
            else ("white" if black_to_move else "black")
        )
    pv = [(int(x), int(y)) for x, y in line.get("pv", [])]
    x, y = int(line["move"][0]), int(line["move"][1])
    return {
        "move": [x, y],
        "name": point_name((x, y), size),
        "score": score,
        "black_winrate": round(black_winrate(black_score, "negamax"), 4),
        "depth": int(line["depth"]),
        "pv": [list(p) for p in pv],
        "pv_names": [point_name(p, size) for p in pv],
        "mate": mate,
        "winner": winner,
    }
