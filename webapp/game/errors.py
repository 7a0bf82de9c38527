"""Named errors of the web app. Each carries the ``error`` event code of the web contract
(``bad_request``, ``not_found``, ``not_your_turn``, ``not_a_player``, ``illegal_move``,
``stale``, ``game_over``, ``rate_limited``, and ``unavailable`` while a shared service of
multi-process mode is down) so the socket namespace and the JSON API turn
any of them into a clear answer to the sender while nothing changes."""

from __future__ import annotations


class GameActionError(ValueError):
    """A request the game service refused; ``code`` names the reason for the client."""

    code = "bad_request"
    http_status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
