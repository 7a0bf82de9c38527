"""One move of an external Gomocup engine seated as a player, with its time enforced.

``play_external_move`` is called in a search worker (``players.play_move``) with an AI job
whose player spec names a brain command. It drives the brain through the engine's
protocol client (``engine.gomocup.BrainProcess``): a brain already running for the same
game seat (the job's ``session``) that knows the position minus the opponent's last move
gets ``TURN``; anything else starts a fresh brain with ``START``, the ``INFO`` settings and
``BEGIN`` or ``BOARD``. Each ``MESSAGE`` line becomes a thinking report carrying the raw
text, plus depth, score, nodes, speed and PV when it is in our brain's format. A brain
that stays silent past its time (plus a grace), dies, breaks the protocol or answers an
illegal move is killed and its move comes back as a forfeit, which the game service
turns into a clean loss for that side."""

from __future__ import annotations

import atexit
import contextlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import Board, GomokuError, Rule
from engine.game.points import Point
from engine.protocol.gomocup import (
    BrainCrashedError,
    BrainError,
    BrainProcess,
    BrainTimeoutError,
)
from engine.protocol.info import parse_info

if TYPE_CHECKING:
    from webapp.ai.types import AiJob, AiMove

log = logging.getLogger(__name__)

# Beyond its own time a brain gets this long for the pipe round trip and process hiccups
# on a busy machine before its silence counts as a loss on time.
ANSWER_GRACE_S = 1.0
# Launching a brain (and, for ours, loading its compiled search core) may take a while.
START_TIMEOUT_S = 30.0
BRAINS_KEPT = 8
BRAIN_IDLE_S = 120.0
STOP_POLL_S = 0.05
MAX_MESSAGE_CHARS = 300


class ExternalMoveCancelledError(RuntimeError):
    """The game moved on while the brain was thinking; its answer is not wanted."""


@dataclass
class _RunningBrain:
    """A brain kept between the moves of one game seat."""

    brain: BrainProcess
    command: tuple[str, ...]
    size: int
    rule: str
    moves: list[Point] = field(default_factory=list)
    last_used: float = 0.0


_brains: OrderedDict[str, _RunningBrain] = OrderedDict()
_brains_lock = threading.Lock()


def parse_message(text: str, size: int) -> dict[str, Any]:
    """Depth, score, nodes, speed and PV from a MESSAGE line in our brain's format
    (``depth 5 score 37 nodes 1234 nps 5000 pv h8 i9``); empty for any other text."""
    info = parse_info(text, size)
    return info.to_json() if info is not None else {}


def _forfeit(reason: str, detail: str, last: Mapping[str, Any]) -> AiMove:
    from webapp.ai.types import AiMove

    return AiMove(
        move=(-1, -1),
        score=int(last.get("score", 0)),
        depth=int(last.get("depth", 0)),
        nodes=int(last.get("nodes", 0)),
        forfeit={"reason": reason, "detail": detail[:MAX_MESSAGE_CHARS]},
    )


def _end_quietly(running: _RunningBrain | None) -> None:
    if running is not None:
        with contextlib.suppress(Exception):
            running.brain.kill()


def _take_brain(session: str | None, command: tuple[str, ...], size: int, rule: str) -> Any:
    """The kept brain of ``session`` if it runs ``command`` on this game; ends brains
    idle too long."""
    now = time.monotonic()
    stale: list[_RunningBrain] = []
    found: _RunningBrain | None = None
    with _brains_lock:
        for key in list(_brains):
            if now - _brains[key].last_used > BRAIN_IDLE_S:
                stale.append(_brains.pop(key))
        if session is not None:
            found = _brains.pop(session, None)
    for running in stale:
        _end_quietly(running)
    if found is not None and (
        found.command != command
        or found.size != size
        or found.rule != rule
        or not found.brain.alive
    ):
        _end_quietly(found)
        found = None
    return found


def _keep_brain(session: str | None, running: _RunningBrain) -> None:
    if session is None:
        _end_quietly(running)
        return
    running.last_used = time.monotonic()
    evicted: list[_RunningBrain] = []
    with _brains_lock:
        _brains[session] = running
        while len(_brains) > BRAINS_KEPT:
            evicted.append(_brains.popitem(last=False)[1])
    for old in evicted:
        _end_quietly(old)


@atexit.register
def end_all_brains() -> None:
    """End every kept brain (the worker is leaving)."""
    with _brains_lock:
        running = list(_brains.values())
        _brains.clear()
    for item in running:
        with contextlib.suppress(Exception):
            item.brain.end(grace=0.5)


def _launch(
    command: tuple[str, ...], name: str, size: int, rule: str, move_ms: int
) -> _RunningBrain:
    brain = BrainProcess(command, name=name)
    try:
        brain.start(size, timeout=START_TIMEOUT_S)
        brain.info("timeout_turn", move_ms)
        brain.info("timeout_match", 0)
        brain.info("game_type", 1)
        brain.info("rule", Rule.from_name(rule).gomocup_code)
    except BaseException:
        brain.kill()
        raise
    return _RunningBrain(brain, command, size, rule)


def play_external_move(
    job: AiJob,
    spec: Mapping[str, Any],
    on_progress: Callable[[dict[str, Any]], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> AiMove:
    """Ask the brain of ``spec`` for its move in ``job``'s position. A failure of the
    brain comes back as a forfeit (``AiMove.forfeit``), never as an exception; only a
    cancelled job raises (``ExternalMoveCancelledError``)."""
    from webapp.ai.types import AiMove

    command = tuple(str(part) for part in spec.get("command") or ())
    name = str(spec.get("name") or (command[0] if command else "engine"))
    if not command:
        return _forfeit("forfeit", f"engine {name} has no command", {})
    board = Board.from_moves(job.moves, size=job.size, rule=job.rule)
    move_s = job.time_s if job.time_s is not None else float(spec.get("move_time_s", 1.0))
    move_ms = max(1, int(move_s * 1000))
    last: dict[str, Any] = {}

    def on_message(text: str) -> None:
        info = parse_message(text, job.size)
        last.update(info)
        if on_progress is not None:
            on_progress({"engine": "external", "text": text[:MAX_MESSAGE_CHARS], **info})

    running = _take_brain(job.session, command, job.size, job.rule)
    finished = threading.Event()
    cancelled = threading.Event()

    def watch_stop() -> None:
        while not finished.wait(STOP_POLL_S):
            if should_stop is not None and should_stop():
                cancelled.set()
                # Killing the brain ends its pipe, which ends the wait for its answer.
                current = holder[0] if holder else None
                _end_quietly(current)
                return

    holder: list[_RunningBrain] = []
    if should_stop is not None:
        threading.Thread(target=watch_stop, name="external-stop", daemon=True).start()
    moves = list(job.moves)
    started = time.monotonic()
    if running is not None and not (
        len(moves) == len(running.moves) + 1 and moves[:-1] == running.moves
    ):
        # The game went somewhere the kept brain did not follow: start a fresh one.
        _end_quietly(running)
        running = None
    try:
        follows_on = running is not None
        if running is None:
            running = _launch(command, name, job.size, job.rule, move_ms)
        holder.append(running)
        brain = running.brain
        brain.on_message = on_message
        timeout = move_s + ANSWER_GRACE_S
        if follows_on:
            answer = brain.turn(moves[-1], timeout)
        elif not moves:
            answer = brain.begin(timeout)
        else:
            answer = brain.board(moves, timeout)
    except BrainTimeoutError as error:
        _end_quietly(running)
        if cancelled.is_set():
            raise ExternalMoveCancelledError("the game moved on") from None
        return _forfeit("timeout", str(error), last)
    except (BrainError, OSError) as error:
        _end_quietly(running)
        if cancelled.is_set():
            raise ExternalMoveCancelledError("the game moved on") from None
        reason = "crash" if isinstance(error, BrainCrashedError) else "protocol"
        return _forfeit("forfeit", f"{reason}: {error}", last)
    finally:
        finished.set()
    if cancelled.is_set():
        _end_quietly(running)
        raise ExternalMoveCancelledError("the game moved on")
    try:
        board.check_move(answer)
    except GomokuError as error:
        _end_quietly(running)
        return _forfeit("forfeit", f"engine {name} played {answer}, an illegal move: {error}", last)
    running.moves = [*moves, answer]
    _keep_brain(job.session, running)
    elapsed = time.monotonic() - started
    pv = [(int(x), int(y)) for x, y in last.get("pv", [])]
    if not pv or pv[0] != answer:
        pv = [answer]
    return AiMove(
        move=answer,
        score=int(last.get("score", 0)),
        depth=int(last.get("depth", 0)),
        nodes=int(last.get("nodes", 0)),
        pv=pv,
        time_s=elapsed,
        nps=int(last.get("nps", 0)),
    )
