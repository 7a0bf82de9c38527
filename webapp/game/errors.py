"""Named refusals of the web app. Each carries a stable ``code`` the browser translates,
the ``params`` its message needs, and an English ``message`` as the fallback, so the
socket namespace and the JSON API turn any of them into a clear answer to the sender while
nothing changes. The classes group the codes by HTTP status; ``realtime.messages`` lists
every code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar


class GameActionError(ValueError):
    """A request the game refused: ``code`` names the reason for the client."""

    code: str = "bad_request"
    http_status: ClassVar[int] = 400

    def __init__(
        self, message: str, *, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = dict(params or {})

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": self.params}


class BadRequestError(GameActionError):
    code = "bad_request"


class GameNotFound(GameActionError, LookupError):
    code = "not_found"
    http_status = 404


class NotYourTurnError(GameActionError):
    code = "not_your_turn"


class NotAPlayerError(GameActionError, PermissionError):
    code = "not_a_player"
    http_status = 403


class IllegalMoveRefused(GameActionError):
    code = "illegal_move"


class StaleStateError(GameActionError):
    code = "stale"
    http_status = 409


class GameFinishedError(GameActionError):
    code = "game_over"
    http_status = 409


class RateLimitedError(GameActionError):
    code = "rate_limited"
    http_status = 429


class ServiceUnavailableError(GameActionError, ConnectionError):
    """A shared service (Redis in multi-process mode) is down: nothing was changed, and
    the request can be repeated once it is back."""

    code = "unavailable"
    http_status = 503
