"""The Socket.IO namespace ``/lobby``: every socket joins the room ``lobby`` (the live
list of seeks), and a visitor's sockets also join ``person:<id>`` (where ``lobby_start``
tells them their game began). Intents: ``seek_create``, ``seek_cancel``, ``seek_take``,
``quick_pair``, ``quick_cancel``; each answers with an acknowledgement ``{ok, ...}`` or
``{ok: false, error}`` (also sent as an ``error`` event). The visitor comes from
``players.identity``; the work is the lobby service's (``lobby.service``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import Namespace

from webapp.game.errors import GameActionError, RateLimitedError
from webapp.game.types import Person
from webapp.lobby.seeks import parse_kind, parse_seek, parse_seek_id
from webapp.lobby.service import LOBBY_ROOM, LobbyService, person_room
from webapp.players import identity
from webapp.realtime.ratelimit import RateLimiter

log = logging.getLogger(__name__)

LOBBY_NAMESPACE = "/lobby"


class LobbyNamespace(Namespace):  # type: ignore[misc]
    def __init__(self, service: LobbyService, limiter: RateLimiter | None = None) -> None:
        super().__init__(LOBBY_NAMESPACE)
        self.service = service
        self.limiter = limiter or RateLimiter()

    @property
    def sid(self) -> str:
        return str(request.sid)  # type: ignore[attr-defined]

    def _person(self) -> Person:
        visitor = identity.socket_visitor()
        if visitor is None:
            raise GameActionError("open the lobby page first", code="no_identity")
        identity.remember(visitor)
        return visitor.person

    def _handle(self, data: Any, action: Callable[[Any], Any]) -> dict[str, Any]:
        try:
            if not self.limiter.allow(self.sid):
                raise RateLimitedError("too many messages: slow down")
            answer = action(data)
        except GameActionError as error:
            self.emit("error", error.to_json(), room=self.sid)
            return {"ok": False, "error": error.to_json()}
        except Exception:
            log.exception("lobby event failed")
            failure = GameActionError(
                "the server could not handle that request", code="server_error"
            )
            self.emit("error", failure.to_json(), room=self.sid)
            return {"ok": False, "error": failure.to_json()}
        return {"ok": True, **(answer or {})}

    def on_connect(self, *args: Any) -> None:
        self.enter_room(self.sid, LOBBY_ROOM)
        visitor = identity.socket_visitor()
        if visitor is not None:
            self.enter_room(self.sid, person_room(visitor.id))
            self.service.connected(visitor.person, self.sid)
        self.emit("lobby_seeks", {"seeks": self.service.seeks()}, room=self.sid)

    def on_disconnect(self, *args: Any) -> None:
        self.limiter.forget(self.sid)
        try:
            self.service.disconnected(self.sid)
        except Exception:
            log.exception("could not record a lobby disconnect")

    def on_seek_create(self, data: Any = None) -> dict[str, Any]:
        def create(payload: Any) -> dict[str, Any]:
            seek_request = parse_seek(payload)
            seek = self.service.create(self._person(), seek_request, self.sid)
            return {"seek": seek.to_json()}

        return self._handle(data, create)

    def on_seek_cancel(self, data: Any = None) -> dict[str, Any]:
        def cancel(payload: Any) -> dict[str, Any]:
            return {"cancelled": self.service.cancel(self._person(), parse_kind(payload or {}))}

        return self._handle(data, cancel)

    def on_seek_take(self, data: Any = None) -> dict[str, Any]:
        def take(payload: Any) -> dict[str, Any]:
            game_id = self.service.take(self._person(), parse_seek_id(payload))
            return {"game_id": game_id, "url": f"/lobby/go/{game_id}"}

        return self._handle(data, take)

    def on_quick_pair(self, data: Any = None) -> dict[str, Any]:
        def quick(payload: Any) -> dict[str, Any]:
            game_id = self.service.quick(self._person(), parse_seek(payload, quick=True), self.sid)
            if game_id is None:
                return {"waiting": True}
            return {"game_id": game_id, "url": f"/lobby/go/{game_id}"}

        return self._handle(data, quick)

    def on_quick_cancel(self, data: Any = None) -> dict[str, Any]:
        def cancel(_payload: Any) -> dict[str, Any]:
            return {"cancelled": self.service.cancel(self._person(), "quick")}

        return self._handle(data, cancel)
