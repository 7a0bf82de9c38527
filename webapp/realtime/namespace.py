"""The Socket.IO namespace ``/game``: one room per game (``game:<id>``).

Each handler reads its payload with the validators of ``messages``, finds the sender's
seat from the cookies sent with the handshake, and calls the game service; refusals go
back to the sender alone as an ``error`` event, and nothing changes. Broadcasts come from
the service through the emitter that ``create_app`` wires to this namespace."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import Namespace

from webapp.game.errors import (
    BadRequestError,
    GameActionError,
    RateLimitedError,
    ServiceUnavailableError,
)
from webapp.game.service import GameService, room_of
from webapp.realtime.messages import EVENT_PARSERS, GameRef, MoveMessage, TakebackAnswer
from webapp.realtime.presence import Presence
from webapp.realtime.ratelimit import RateLimiter
from webapp.scale.redis_presence import RedisPresence

log = logging.getLogger(__name__)

NAMESPACE = "/game"


class GameNamespace(Namespace):  # type: ignore[misc]
    def __init__(
        self,
        namespace: str,
        service: GameService,
        presence: Presence | RedisPresence,
        limiter: RateLimiter | None = None,
        *,
        check_available: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(namespace)
        self.service = service
        self.presence = presence
        self.limiter = limiter or RateLimiter()
        # Multi-process mode: refuse early, with ``unavailable``, while Redis is down.
        self.check_available = check_available

    # -- helpers ------------------------------------------------------------------------

    @property
    def sid(self) -> str:
        return str(request.sid)  # type: ignore[attr-defined]

    def _error(self, code: str, message: str) -> None:
        self.emit("error", {"code": code, "message": message}, room=self.sid)

    def _seat(self, game_id: str) -> str | None:
        return self.service.resolve_seat(game_id, request.cookies)

    def _handle(self, event: str, data: Any, action: Callable[[Any], object]) -> dict[str, Any]:
        """Run one event; the returned mapping is the Socket.IO acknowledgement, for
        clients that ask for one (it repeats any ``error`` event)."""
        try:
            if not self.limiter.allow(self.sid):
                raise RateLimitedError("too many messages: slow down")
            parsed = EVENT_PARSERS[event](data)
            if self.check_available is not None:
                self.check_available()
            action(parsed)
        except GameActionError as error:
            return self._refuse(error)
        except Exception:
            if self.check_available is not None:
                try:
                    self.check_available()
                except ServiceUnavailableError as outage:
                    return self._refuse(outage)
            log.exception("socket event %s failed", event)
            return self._refuse(GameActionError("the server could not handle that request"))
        return {"ok": True}

    def _refuse(self, error: GameActionError) -> dict[str, Any]:
        self._error(error.code, error.message)
        return {"ok": False, "error": {"code": error.code, "message": error.message}}

    def trigger_event(self, event: str, *args: Any) -> Any:
        # Only the contract's events reach a handler; anything else gets a clear refusal
        # instead of silence.
        # (``guard`` has already refused names that are not strings, and clients' own
        # ``connect``/``disconnect`` events: these two come from the server alone.)
        named = isinstance(event, str)
        if named and (event in EVENT_PARSERS or event in ("connect", "disconnect")):
            return super().trigger_event(event, *args)
        shown = event if isinstance(event, str) and len(event) <= 40 else f"{str(event)[:40]}..."

        def refuse(*_args: Any) -> dict[str, Any]:
            if not self.limiter.allow(self.sid):
                return self._refuse(RateLimitedError("too many messages: slow down"))
            return self._refuse(BadRequestError(f"unknown event {shown!r}"))

        return self.socketio._handle_event(refuse, event, self.namespace, *args)

    # -- connection ---------------------------------------------------------------------

    def on_connect(self, *args: Any) -> None:
        return None

    def on_disconnect(self, *args: Any) -> None:
        sid = self.sid
        self.limiter.forget(sid)
        try:
            games = self.presence.leave_all(sid)
        except Exception:
            log.exception("could not record the disconnect of %s", sid)
            return
        for game_id in games:
            self.service.announce(game_id)

    # -- events -------------------------------------------------------------------------

    def on_join(self, data: Any = None) -> dict[str, Any]:
        def join(ref: GameRef) -> None:
            record = self.service.load(ref.game_id)
            record = self.service.settle(record)
            color = self.service.seat_from_cookies(record, request.cookies)
            self.enter_room(self.sid, room_of(ref.game_id))
            self.presence.join(ref.game_id, self.sid, color)
            if color is None:
                # A spectator gets the state now; the room hears of them with others.
                self.service.emit("state", self.service.public_state(record), self.sid)
                self.service.announce(ref.game_id)
            else:
                # Read again now that the socket is in the room: a move made meanwhile (an
                # AI's quick reply) was broadcast before this socket could hear it.
                self.service.broadcast(self.service.load(ref.game_id))

        return self._handle("join", data, join)

    def on_move(self, data: Any = None) -> dict[str, Any]:
        def move(msg: MoveMessage) -> None:
            self.service.play(msg.game_id, None, msg.x, msg.y, msg.version, cookies=request.cookies)

        return self._handle("move", data, move)

    def on_undo(self, data: Any = None) -> dict[str, Any]:
        return self._handle(
            "undo", data, lambda ref: self.service.undo(ref.game_id, self._seat(ref.game_id))
        )

    def on_hint(self, data: Any = None) -> dict[str, Any]:
        sid = self.sid

        def hint(ref: GameRef) -> None:
            def reply(event: str, payload: dict[str, Any]) -> None:
                self.service.emit(event, payload, sid)

            self.service.hint(ref.game_id, self._seat(ref.game_id), reply)

        return self._handle("hint", data, hint)

    def on_takeback_request(self, data: Any = None) -> dict[str, Any]:
        return self._handle(
            "takeback_request",
            data,
            lambda ref: self.service.request_takeback(ref.game_id, self._seat(ref.game_id)),
        )

    def on_takeback_answer(self, data: Any = None) -> dict[str, Any]:
        def answer(msg: TakebackAnswer) -> None:
            self.service.answer_takeback(msg.game_id, self._seat(msg.game_id), msg.accept)

        return self._handle("takeback_answer", data, answer)

    def on_resign(self, data: Any = None) -> dict[str, Any]:
        return self._handle(
            "resign", data, lambda ref: self.service.resign(ref.game_id, self._seat(ref.game_id))
        )

    def on_rematch(self, data: Any = None) -> dict[str, Any]:
        return self._handle(
            "rematch", data, lambda ref: self.service.rematch(ref.game_id, self._seat(ref.game_id))
        )
