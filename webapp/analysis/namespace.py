"""The Socket.IO namespace ``/analysis``: one analysis run per socket (``runs``).

``analyse`` starts (or replaces) the socket's analysis, ``analysis_continue`` goes on
after a pause, ``analysis_stop`` and the disconnect end it. Refusals go back to the
sender as an ``error`` event and in the acknowledgement; nothing else changes."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import Namespace

from webapp.analysis.messages import parse_analyse
from webapp.analysis.runs import AnalysisRuns
from webapp.game.errors import GameActionError, RateLimitedError
from webapp.realtime.ratelimit import RateLimiter

log = logging.getLogger(__name__)

NAMESPACE = "/analysis"


class AnalysisNamespace(Namespace):  # type: ignore[misc]
    def __init__(self, namespace: str, runs: AnalysisRuns, limiter: RateLimiter) -> None:
        super().__init__(namespace)
        self.runs = runs
        self.limiter = limiter

    @property
    def sid(self) -> str:
        return str(request.sid)  # type: ignore[attr-defined]

    def _handle(self, action: Callable[[], dict[str, Any] | None]) -> dict[str, Any]:
        try:
            if not self.limiter.allow(self.sid):
                raise RateLimitedError("too many messages: slow down")
            answer = action() or {}
        except GameActionError as error:
            self.emit("error", error.to_json(), room=self.sid)
            return {"ok": False, "error": error.to_json()}
        except Exception:
            log.exception("analysis event failed")
            failure = GameActionError(
                "the server could not handle that request", code="server_error"
            )
            self.emit("error", failure.to_json(), room=self.sid)
            return {"ok": False, "error": failure.to_json()}
        return {"ok": True, **answer}

    def on_connect(self, *args: Any) -> None:
        return None

    def on_disconnect(self, *args: Any) -> None:
        self.limiter.forget(self.sid)
        self.runs.stop(self.sid)

    def on_analyse(self, data: Any = None) -> dict[str, Any]:
        sid, client = self.sid, str(request.remote_addr or "-")

        def analyse() -> dict[str, Any]:
            position = self.runs.analyse(sid, client, parse_analyse(data))
            return {"position": position}

        return self._handle(analyse)

    def on_analysis_continue(self, data: Any = None) -> dict[str, Any]:
        return self._handle(lambda: self.runs.resume(self.sid))

    def on_analysis_stop(self, data: Any = None) -> dict[str, Any]:
        return self._handle(lambda: self.runs.stop(self.sid))
