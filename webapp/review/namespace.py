"""The Socket.IO namespace ``/review``: the review page's live progress.

``join {game_id}`` puts the socket in the ``review:<id>`` room and acknowledges with the
review's status (``jobs.ReviewJobs.status``); the job then sends the room
``review_progress {game_id, done, total, ply, black_winrate}`` after each position,
``review_done`` (the status with the whole review) at the end, or ``review_failed
{game_id, error}``. Joining asks for nothing: the page starts the review over HTTP.
Refusals answer ``{"ok": false, "error": {code, message, params}}``."""

from __future__ import annotations

import logging
from typing import Any

from flask import request
from flask_socketio import Namespace

from webapp.game.errors import GameActionError, RateLimitedError
from webapp.realtime.messages import parse_game_ref
from webapp.realtime.ratelimit import RateLimiter
from webapp.review.jobs import ReviewJobs, room_of

log = logging.getLogger(__name__)

NAMESPACE = "/review"


class ReviewNamespace(Namespace):  # type: ignore[misc]
    def __init__(self, jobs: ReviewJobs, limiter: RateLimiter | None = None) -> None:
        super().__init__(NAMESPACE)
        self.jobs = jobs
        self.limiter = limiter or RateLimiter()

    def on_connect(self, *args: Any) -> None:
        return None

    def on_disconnect(self, *args: Any) -> None:
        self.limiter.forget(str(request.sid))  # type: ignore[attr-defined]

    def on_join(self, data: Any = None) -> dict[str, Any]:
        sid = str(request.sid)  # type: ignore[attr-defined]
        try:
            if not self.limiter.allow(sid):
                raise RateLimitedError("too many messages: slow down")
            ref = parse_game_ref(data)
            self.enter_room(sid, room_of(ref.game_id))
            return {"ok": True, **self.jobs.status(ref.game_id)}
        except GameActionError as error:
            return {"ok": False, "error": error.to_json()}
        except Exception:
            log.exception("review join failed")
            return {"ok": False, "error": {"code": "server_error", "message": "", "params": {}}}
