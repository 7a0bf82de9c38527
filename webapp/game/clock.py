"""Chess clocks for friend games: a base time plus a Fischer increment, kept by the server.

The stored clock is ``{"black_ms", "white_ms", "running", "since"}``: the time left on
each side when ``running`` last started at wall-clock ``since`` (epoch milliseconds), so
a restart loses no time. The game service calls these pure functions on every move and
event; a side whose time reaches zero loses on time."""

from __future__ import annotations

import time
from typing import Any


def now_ms() -> float:
    return time.time() * 1000.0


def start_clock(base_ms: int, running: str, at_ms: float | None = None) -> dict[str, Any]:
    return {
        "black_ms": int(base_ms),
        "white_ms": int(base_ms),
        "running": running,
        "since": now_ms() if at_ms is None else at_ms,
    }


def time_left(clock: dict[str, Any], color: str, at_ms: float | None = None) -> int:
    """Milliseconds left for ``color`` at ``at_ms`` (now by default), never below zero."""
    left = float(clock[f"{color}_ms"])
    if clock.get("running") == color:
        left -= (now_ms() if at_ms is None else at_ms) - float(clock["since"])
    return max(0, int(left))


def flagged(clock: dict[str, Any] | None, at_ms: float | None = None) -> str | None:
    """The colour whose time has run out, if any."""
    if not clock or clock.get("running") is None:
        return None
    running = str(clock["running"])
    return running if time_left(clock, running, at_ms) <= 0 else None


def after_move(
    clock: dict[str, Any], mover: str, increment_ms: int, at_ms: float | None = None
) -> dict[str, Any]:
    """The clock after ``mover`` moved: their time is charged and incremented, the
    opponent's starts running."""
    at = now_ms() if at_ms is None else at_ms
    updated = dict(clock)
    updated[f"{mover}_ms"] = time_left(clock, mover, at) + int(increment_ms)
    updated["running"] = "white" if mover == "black" else "black"
    updated["since"] = at
    return updated


def restarted(
    clock: dict[str, Any], running: str | None, at_ms: float | None = None
) -> dict[str, Any]:
    """The clock with the current times frozen and ``running`` (or nobody) started."""
    at = now_ms() if at_ms is None else at_ms
    return {
        "black_ms": time_left(clock, "black", at),
        "white_ms": time_left(clock, "white", at),
        "running": running,
        "since": at,
    }
