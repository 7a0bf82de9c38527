"""Publishing a game to its room ``game:<id>``: each socket gets the state as its viewer
sees it (``game.view``), plus the contract's small events (``offer_declined``,
``offer_cancelled``, ``spectators``, ``thinking``).

The game service calls ``publish`` after every committed change, and ``announce`` when
sockets come and go; presence (``presence``, in memory or in Redis) says which socket
holds which seat; it answers with the seated sockets and a count of spectators
(``Audience``), so nothing here walks the crowd. Spectators share one state, built once
and sent as one emit (encoded once, and on every server through the message queue of
multi-process mode); only the seated sockets get a copy of their own. Comings and goings
are announced at most every ``ANNOUNCE_S`` per game, so a crowd arriving does not cost a
broadcast to the whole crowd per arrival. Since when a player has been gone
(``absence``) is kept in the database given by the service."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from webapp.game.absence import Absence
from webapp.game.events import Event, OfferCancelled, OfferDeclined
from webapp.game.model import Game, can_claim, claim_at
from webapp.game.types import Mode, Seat, SeatKind, Status
from webapp.game.view import Activity, JsonView, Room
from webapp.game.winrate import black_winrate

log = logging.getLogger(__name__)

ANNOUNCE_S = 0.5

# (event, payload, room or socket id, socket ids to leave out)
Emit = Callable[[str, dict[str, Any], str, list[str] | None], None]


class RoomPresence(Protocol):
    def summary(self, game_id: str) -> tuple[list[tuple[str, str]], int]: ...


@dataclass(frozen=True)
class Audience:
    """A game's room: the seated sockets with their seats, and how many spectators."""

    seated: tuple[tuple[str, Seat], ...] = ()
    spectators: int = 0

    @property
    def connected(self) -> frozenset[Seat]:
        return frozenset(seat for _, seat in self.seated)

    def __bool__(self) -> bool:
        return bool(self.seated) or self.spectators > 0


def room_of(game_id: str) -> str:
    return f"game:{game_id}"


class Publisher:
    """``activity`` says what the AI is doing in a game; ``now`` reads the clock;
    ``on_countdown(game_id, delay_s)`` is called when an abandoned player's countdown
    starts, to publish again when a claim becomes possible."""

    def __init__(
        self,
        presence: RoomPresence,
        view: JsonView,
        *,
        activity: Callable[[Game], Activity],
        now: Callable[[], int],
        on_countdown: Callable[[str, float], None],
        emit: Emit | None = None,
        absence: Absence | None = None,
    ) -> None:
        self.presence = presence
        self.view = view
        self.activity = activity
        self.now = now
        self.on_countdown = on_countdown
        self.absence = absence if absence is not None else Absence()
        self._emit = emit
        self._announcing: set[str] = set()
        self._lock = threading.Lock()
        # The seats last published as connected, per game: when only the spectators
        # changed, a small ``spectators`` event is enough.
        self._seated_seen: dict[str, frozenset[Seat]] = {}
        self._closed = False

    def set_emitter(self, emit: Emit) -> None:
        self._emit = emit

    def close(self) -> None:
        self._closed = True

    def emit(
        self, event: str, payload: dict[str, Any], to: str, skip: list[str] | None = None
    ) -> None:
        if self._emit is not None and not self._closed:
            try:
                self._emit(event, payload, to, skip)
            except Exception:
                log.exception("could not emit %s", event)

    def audience(self, game_id: str) -> Audience | None:
        """The room's seated sockets and spectator count; None while shared presence is
        down."""
        try:
            seated, spectators = self.presence.summary(game_id)
        except Exception as error:  # a Redis outage: the game itself stays readable
            log.warning("presence of %s unavailable: %s", game_id, error)
            return None
        return Audience(tuple((sid, Seat(color)) for sid, color in seated), spectators)

    @staticmethod
    def room(audience: Audience, gone_since: dict[Seat, int]) -> Room:
        return Room(audience.connected, audience.spectators, gone_since)

    def observe(self, game: Game, audience: Audience, now: int) -> dict[Seat, int]:
        """Who of a friend game's players is gone, and since when (``absence``)."""
        if game.mode is not Mode.FRIEND:
            return {}  # only friend games are ever recorded
        if game.status is not Status.ACTIVE:
            self.absence.forget(game.id)
            return {}
        humans = [seat for seat, info in game.seats.items() if info.kind is SeatKind.HUMAN]
        gone = self.absence.observe(game.id, humans, audience.connected, now)
        for seat, since in gone.items():
            self.countdown(game, seat, since, now)
        return gone

    def gone(self, game: Game, now: int) -> dict[Seat, int]:
        """Who of a friend game's players is gone now, and since when (for a claim)."""
        return self.observe(game, self.audience(game.id) or Audience(), now)

    def countdown(self, game: Game, seat: Seat, since: int, now: int) -> None:
        """Have the state published again when the claim against ``seat`` opens."""
        at = claim_at(since, self.view.abandon_ms)
        if at > now and can_claim(game, seat.other):
            self.on_countdown(game.id, (at - now) / 1000 + 0.05)

    def resume(self, game: Game) -> None:
        """After a start: the countdowns of ``game`` recorded before it."""
        if game.mode is Mode.FRIEND and game.status is Status.ACTIVE:
            now = self.now()
            for seat, since in self.absence.gone_since(game.id).items():
                self.countdown(game, seat, since, now)

    def state(self, game: Game, you: Seat | None) -> dict[str, Any]:
        """The state one viewer sees now (a page, a socket that just joined)."""
        audience = self.audience(game.id) or Audience()
        gone = (
            self.absence.gone_since(game.id)
            if game.mode is Mode.FRIEND and game.status is Status.ACTIVE
            else {}
        )
        room = self.room(audience, gone)
        return self.view.state(game, you, room, self.activity(game), self.now())

    def thinking(
        self, game_id: str, seat: Seat, info: dict[str, Any], *, warming: bool = False
    ) -> None:
        """A search's progress report, with the score on the one win-rate scale."""
        payload: dict[str, Any] = {"game": game_id, "game_id": game_id, "color": seat.value}
        payload.update(info)
        score = info.get("score")
        if isinstance(score, int):
            black = score if seat is Seat.BLACK else -score
            payload["black_winrate"] = black_winrate(black, info.get("engine"))
        payload["warming"] = warming
        self.emit("thinking", payload, room_of(game_id))

    def publish(self, game: Game, events: Iterable[Event] = ()) -> None:
        """Send the state to every socket of the room: one state for all spectators
        (built once, one emit), one of their own for the seated sockets; then the
        events that have a message of their own."""
        audience = self.audience(game.id)
        if audience is None:
            return
        now = self.now()
        room = self.room(audience, self.observe(game, audience, now))
        activity = self.activity(game)
        self._seated_seen[game.id] = audience.connected
        if audience:
            base = self.view.base(game, room, activity, now)
            if activity.pv:
                base["pv"] = {"ply": len(game.moves), "moves": [list(p) for p in activity.pv]}
            if audience.spectators:
                actions = self.view.actions(game, None, room, activity, now)
                spectator = self.view.for_spectators(base, actions)
                skip = [sid for sid, _ in audience.seated] or None
                self.emit("state", spectator, room_of(game.id), skip)
            for sid, seat in audience.seated:
                actions = self.view.actions(game, seat, room, activity, now)
                self.emit("state", {**base, "you": seat.value, "actions": actions}, sid)
        for event in events:
            if isinstance(event, OfferDeclined | OfferCancelled):
                name = "offer_declined" if isinstance(event, OfferDeclined) else "offer_cancelled"
                payload = {"game": game.id, "game_id": game.id, "kind": event.kind.value}
                self.emit(name, {**payload, "by": event.by.value}, room_of(game.id))

    def announce_now(self, game_id: str, publish_all: Callable[[], None]) -> None:
        """Sockets came or went: the full state (``publish_all``) if a seated one did,
        else only the new spectator count."""
        audience = self.audience(game_id)
        if audience is None:
            return
        if self._seated_seen.get(game_id) != audience.connected:
            publish_all()
        elif audience:
            count = audience.spectators
            self.emit("spectators", {"game_id": game_id, "count": count}, room_of(game_id))

    def announce(self, game_id: str, announce_now: Callable[[str], None]) -> None:
        """Within ``ANNOUNCE_S``, once however many changes come meanwhile, call
        ``announce_now(game_id)``."""
        with self._lock:
            if game_id in self._announcing or self._closed:
                return
            self._announcing.add(game_id)

        def fire() -> None:
            with self._lock:
                self._announcing.discard(game_id)
            if not self._closed:
                announce_now(game_id)

        timer = threading.Timer(ANNOUNCE_S, fire)
        timer.daemon = True
        timer.start()
