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

from webapp.chat.rules import Channel
from webapp.chat.service import ChatService, chat_room
from webapp.game.errors import (
    BadRequestError,
    GameActionError,
    RateLimitedError,
    ServiceUnavailableError,
)
from webapp.game.service import GameService
from webapp.game.types import OfferKind, Seat
from webapp.players import identity
from webapp.players.identity import socket_visitor
from webapp.realtime.messages import EVENT_PARSERS, ChatMessage, GameRef, MoveMessage, OpeningChoice
from webapp.realtime.presence import Presence
from webapp.realtime.publisher import room_of
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
        chat: ChatService | None = None,
    ) -> None:
        super().__init__(namespace)
        self.service = service
        self.presence = presence
        self.limiter = limiter or RateLimiter()
        # Multi-process mode: refuse early, with ``unavailable``, while Redis is down.
        self.check_available = check_available
        self.chat = chat

    # -- helpers ------------------------------------------------------------------------

    @property
    def sid(self) -> str:
        return str(request.sid)  # type: ignore[attr-defined]

    def _seat(self, game_id: str) -> Seat | None:
        """The sender's seat: from its seat cookie, else the seat this socket took."""
        game = self.service.load(game_id)
        seat = self.service.seat_of(game, request.cookies)
        if seat is None:
            seat = Seat.parse(self.presence.seat_of(game_id, self.sid))
        return seat

    def _handle(self, event: str, data: Any, action: Callable[[Any], Any]) -> dict[str, Any]:
        """Run one event; the returned mapping is the Socket.IO acknowledgement, for
        clients that ask for one (it repeats any ``error`` event)."""
        try:
            if not self.limiter.allow(self.sid):
                raise RateLimitedError("too many messages: slow down")
            parsed = EVENT_PARSERS[event](data)
            if self.check_available is not None:
                self.check_available()
            answer = action(parsed)
        except GameActionError as error:
            return self._refuse(error)
        except Exception:
            if self.check_available is not None:
                try:
                    self.check_available()
                except ServiceUnavailableError as outage:
                    return self._refuse(outage)
            log.exception("socket event %s failed", event)
            return self._refuse(
                GameActionError("the server could not handle that request", code="server_error")
            )
        return {"ok": True, **answer} if isinstance(answer, dict) else {"ok": True}

    def _refuse(self, error: GameActionError) -> dict[str, Any]:
        self.emit("error", error.to_json(), room=self.sid)
        return {"ok": False, "error": error.to_json()}

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
            game = self.service.settle(self.service.load(ref.game_id))
            seat = self.service.seat_of(game, request.cookies)
            self.enter_room(self.sid, room_of(ref.game_id))
            self.presence.join(ref.game_id, self.sid, seat.value if seat else None)
            self._enter_chat(ref.game_id, seat)
            if seat is None:
                # A spectator gets the state now; the room hears of them with others.
                self.service.send_state(ref.game_id, self.sid, None)
                self.service.announce(ref.game_id)
            else:
                # Read again now that the socket is in the room: a move made meanwhile (an
                # AI's quick reply) was published before this socket could hear it.
                self.service.publish(self.service.load(ref.game_id))

        return self._handle("join", data, join)

    def on_take_seat(self, data: Any = None) -> dict[str, Any]:
        def take(ref: GameRef) -> dict[str, Any]:
            visitor = identity.socket_visitor()
            person = visitor.person if visitor is not None else None
            game, seat, token = self.service.take_seat(ref.game_id, request.cookies, person)
            if visitor is not None:
                identity.remember(visitor)
            if self.presence.is_member(ref.game_id, self.sid):
                self.presence.join(ref.game_id, self.sid, seat.value)
                self._enter_chat(ref.game_id, seat)
            self.service.publish(game)
            return {"seat": seat.value, "token": token}

        return self._handle("take_seat", data, take)

    def on_move(self, data: Any = None) -> dict[str, Any]:
        def move(msg: MoveMessage) -> None:
            seat = self._seat(msg.game_id)
            self.service.play(msg.game_id, seat, msg.x, msg.y, msg.version)

        return self._handle("move", data, move)

    def on_opening_choice(self, data: Any = None) -> dict[str, Any]:
        def choose(msg: OpeningChoice) -> None:
            seat = self._seat(msg.game_id)
            self.service.opening_choice(msg.game_id, seat, msg.option, msg.version)

        return self._handle("opening_choice", data, choose)

    def _seated(
        self, event: str, data: Any, act: Callable[[str, Seat | None], object]
    ) -> dict[str, Any]:
        """Run ``act(game_id, seat)`` for an intent whose payload is just the game."""
        return self._handle(event, data, lambda ref: act(ref.game_id, self._seat(ref.game_id)))

    def _answer(
        self, event: str, data: Any, act: Callable[[str, Seat | None, bool], object]
    ) -> dict[str, Any]:
        return self._handle(
            event, data, lambda msg: act(msg.game_id, self._seat(msg.game_id), msg.accept)
        )

    def on_undo(self, data: Any = None) -> dict[str, Any]:
        return self._seated("undo", data, self.service.undo)

    def on_hint(self, data: Any = None) -> dict[str, Any]:
        sid = self.sid

        def reply(event: str, payload: dict[str, Any]) -> None:
            self.service.emit(event, payload, sid)

        def hint(game_id: str, seat: Seat | None) -> None:
            self.service.hint(game_id, seat, reply, client=sid)

        return self._seated("hint", data, hint)

    def on_takeback_request(self, data: Any = None) -> dict[str, Any]:
        return self._seated("takeback_request", data, self.service.request_takeback)

    def on_takeback_cancel(self, data: Any = None) -> dict[str, Any]:
        def cancel(game_id: str, seat: Seat | None) -> None:
            self.service.cancel_offer(game_id, seat, OfferKind.TAKEBACK)

        return self._seated("takeback_cancel", data, cancel)

    def on_takeback_answer(self, data: Any = None) -> dict[str, Any]:
        return self._answer("takeback_answer", data, self.service.answer_takeback)

    def on_resign(self, data: Any = None) -> dict[str, Any]:
        return self._seated("resign", data, self.service.resign)

    def on_rematch(self, data: Any = None) -> dict[str, Any]:
        return self._seated("rematch", data, self.service.rematch)

    def on_rematch_answer(self, data: Any = None) -> dict[str, Any]:
        return self._answer("rematch_answer", data, self.service.answer_rematch)

    def on_draw_offer(self, data: Any = None) -> dict[str, Any]:
        return self._seated("draw_offer", data, self.service.offer_draw)

    def on_draw_answer(self, data: Any = None) -> dict[str, Any]:
        return self._answer("draw_answer", data, self.service.answer_draw)

    def on_abort(self, data: Any = None) -> dict[str, Any]:
        return self._seated("abort", data, self.service.abort)

    def on_claim_victory(self, data: Any = None) -> dict[str, Any]:
        return self._seated("claim_victory", data, self.service.claim_victory)

    # -- chat ---------------------------------------------------------------------------

    def _enter_chat(self, game_id: str, seat: Seat | None) -> None:
        """Put the socket in the room of the one chat channel it reads, and send it that
        channel's recent lines."""
        if self.chat is None:
            return
        game = self.service.load(game_id)
        history = self.chat.history(game, seat)
        for channel in Channel:
            if channel.value != history["channel"]:
                self.leave_room(self.sid, chat_room(game_id, channel))
        if history["channel"] is not None:
            self.enter_room(self.sid, chat_room(game_id, Channel(history["channel"])))
        self.emit("chat_history", history, room=self.sid)

    def on_chat(self, data: Any = None) -> dict[str, Any]:
        def chat(msg: ChatMessage) -> dict[str, Any]:
            if self.chat is None:
                raise GameActionError("chat is not available here", code="chat_closed")
            if not self.presence.is_member(msg.game_id, self.sid):
                raise BadRequestError("join the game before chatting")
            game = self.service.load(msg.game_id)
            seat = self._seat(msg.game_id)
            visitor = socket_visitor()
            line = self.chat.post(
                game,
                seat,
                msg.text,
                sender=visitor.id if visitor is not None else self.sid,
                visitor_name=visitor.name if visitor is not None else None,
            )
            return {"id": line.id}

        return self._handle("chat", data, chat)
