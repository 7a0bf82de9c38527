"""The lobby service: seeks made, cancelled, taken and paired, and the games they start.

The seeks live in the database (``repo``), so every server process sees one list; after
every change the list goes to the Socket.IO room ``lobby`` (``lobby_seeks {seeks}``),
through the message queue in multi-process mode. A taken seek or a quick pairing starts
a friend game with both seats bound to the two people (their person ids, names, and seat
secrets derived by ``seat_grants``), rated or casual as the seek said, in the seek's
opening rule (``game.opening``: the creator's colour is then the first player's
tentative one), with the preset's clock, which starts with black's first move; both
people get ``lobby_start {game_id, url}`` in their room ``person:<id>`` and go to
``url`` (``/lobby/go/<id>``, which sets the seat cookie). A seek whose creator's lobby
socket disconnects is marked gone and deleted ``grace_ms`` later unless the person comes
back (a page reload).

Identity comes from the caller (``players.identity`` in the socket namespace): every
method takes the person (id and display name) explicitly."""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from typing import Any

from engine import Rule
from webapp.game import model, opening
from webapp.game.errors import BadRequestError, GameActionError
from webapp.game.seat_keys import hash_token, new_game_id
from webapp.game.service import GameService
from webapp.game.types import Mode, Person, Seat, SeatInfo, SeatKind
from webapp.lobby.pairing import best_partner, fits
from webapp.lobby.presets import clock_of
from webapp.lobby.repo import SeekExistsError, SeekRepo
from webapp.lobby.seat_grants import seat_token
from webapp.lobby.seeks import Seek, SeekRequest
from webapp.players.person_ratings import PersonRatings, rule_key

log = logging.getLogger(__name__)

LOBBY_ROOM = "lobby"
GRACE_MS = 5_000  # a reload keeps the seeks
PAIRING_S = 2.0  # how often waiting quick seekers are compared again

Emit = Callable[[str, dict[str, Any], str], None]


def person_room(person_id: str) -> str:
    return f"person:{person_id}"


class LobbyService:
    def __init__(
        self,
        repo: SeekRepo,
        games: GameService,
        ratings: PersonRatings,
        secret_key: str,
        *,
        emit: Emit | None = None,
        grace_ms: int = GRACE_MS,
        now: Callable[[], int] | None = None,
    ) -> None:
        self.repo = repo
        self.games = games
        self.ratings = ratings
        self.secret_key = secret_key
        self.emit = emit or (lambda event, payload, to: None)
        self.grace_ms = grace_ms
        self.now = now or games.now
        self._pairing: threading.Timer | None = None
        self._lock = threading.Lock()
        self._closed = False

    # -- reading ------------------------------------------------------------------------

    def seeks(self) -> list[dict[str, Any]]:
        """The open seeks as the lobby page lists them (the gone ones past their grace
        are swept first)."""
        self.expire()
        return [seek.to_json() for seek in self.repo.open_seeks("seek")]

    def publish(self) -> None:
        self.emit("lobby_seeks", {"seeks": self.seeks()}, LOBBY_ROOM)

    # -- seeks --------------------------------------------------------------------------

    def _new_seek(self, kind: str, person: Person, request: SeekRequest) -> Seek:
        rating = self.ratings.rating(person.id, rule_key(request.rule, request.size))
        return Seek(
            secrets.token_hex(6),
            kind,
            person.id,
            person.name,
            request,
            rating.rating,
            rating.provisional,
            self.now(),
        )

    def create(self, person: Person, request: SeekRequest, sid: str | None = None) -> Seek:
        """A new open seek; one per person (``seek_exists`` otherwise)."""
        seek = self._new_seek("seek", person, request)
        try:
            self.repo.add(seek, sid)
        except SeekExistsError:
            raise BadRequestError(
                "you already have an open seek: cancel it first", code="seek_exists"
            ) from None
        self.publish()
        return seek

    def cancel(self, person: Person, kind: str = "seek") -> bool:
        removed = self.repo.remove_own(person.id, kind) > 0
        if removed:
            self.publish()
        return removed

    def take(self, person: Person, seek_id: str) -> str:
        """Take an open seek: the game starts; return its id."""
        seek = self.repo.get(seek_id)
        if seek is None or seek.kind != "seek":
            raise GameActionError("that seek is no longer open", code="seek_not_found")
        if seek.person_id == person.id:
            raise BadRequestError("you cannot take your own seek", code="own_seek")
        if not self.repo.remove(seek.id):
            raise GameActionError("that seek is no longer open", code="seek_not_found")
        game_id = self.start_game(seek, person)
        self.publish()
        return game_id

    # -- quick pairing ------------------------------------------------------------------

    def quick(self, person: Person, request: SeekRequest, sid: str | None = None) -> str | None:
        """Pair the person with a waiting seeker of similar rating at once (return the
        game id) or make them wait (None) until one comes or the range widens."""
        seeker = self._new_seek("quick", person, request)
        for _attempt in range(3):
            partner = best_partner(seeker, self.repo.open_seeks("quick"), self.now())
            if partner is None:
                break
            if self.repo.remove(partner.id):
                self.repo.remove_own(person.id, "quick")
                return self.start_game(partner, person)
        try:
            self.repo.add(seeker, sid)
        except SeekExistsError:
            raise BadRequestError(
                "you are already waiting for a quick game", code="seek_exists"
            ) from None
        self._schedule_pairing()
        return None

    def pair_waiting(self) -> int:
        """Pair the waiting quick seekers who now fit (their ranges widen as they wait);
        return how many games started."""
        started = 0
        waiting = self.repo.open_seeks("quick")
        taken: set[str] = set()
        for index, first in enumerate(waiting):
            if first.id in taken:
                continue
            rest = [s for s in waiting[index + 1 :] if s.id not in taken]
            partner = best_partner(first, rest, self.now())
            if partner is None or not fits(first, partner, self.now()):
                continue
            if self.repo.remove_pair(first.id, partner.id):
                taken.update((first.id, partner.id))
                self.start_game(first, Person(partner.person_id, partner.name))
                started += 1
        return started

    def _schedule_pairing(self) -> None:
        with self._lock:
            if self._closed or self._pairing is not None:
                return
            self._pairing = threading.Timer(PAIRING_S, self._pairing_tick)
            self._pairing.daemon = True
            self._pairing.start()

    def _pairing_tick(self) -> None:
        with self._lock:
            self._pairing = None
        try:
            self.expire()
            self.pair_waiting()
            waiting = self.repo.open_seeks("quick")
        except Exception:
            log.exception("quick pairing failed")
            waiting = []
        if waiting:
            self._schedule_pairing()

    # -- comings and goings -------------------------------------------------------------

    def connected(self, person: Person, sid: str) -> None:
        """A lobby socket of ``person`` arrived: their gone seeks are theirs again."""
        if self.repo.mark_back(person.id, sid):
            self.publish()

    def disconnected(self, sid: str) -> None:
        """A lobby socket left: its seeks go after the grace unless their person returns."""
        if self.repo.mark_gone(sid, self.now()):
            self.publish()
            timer = threading.Timer(self.grace_ms / 1000 + 0.1, self._expire_quietly)
            timer.daemon = True
            timer.start()

    def expire(self) -> int:
        return self.repo.expire(self.now() - self.grace_ms)

    def _expire_quietly(self) -> None:
        if self._closed:
            return
        try:
            if self.expire():
                self.publish()
        except Exception:
            log.exception("could not expire the seeks of gone sockets")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._pairing is not None:
                self._pairing.cancel()

    # -- the game -----------------------------------------------------------------------

    def start_game(self, seek: Seek, taker: Person) -> str:
        """Create the game of a seek taken by ``taker``; tell both people; return its id."""
        request = seek.request
        creator_seat = Seat.chosen(request.color)
        people = {creator_seat: Person(seek.person_id, seek.name), creator_seat.other: taker}
        game_id = new_game_id()
        seats = {
            seat: SeatInfo(
                SeatKind.HUMAN,
                person.name,
                None,
                hash_token(seat_token(self.secret_key, game_id, person.id)),
                person.id,
            )
            for seat, person in people.items()
        }
        settings: dict[str, Any] = {
            "defence": 1.0,
            "rated": request.rated,
            "preset": request.preset,
            "lobby": True,
        }
        rule = Rule.from_name(request.rule)
        phase = opening.start_state(request.opening, rule, request.size)
        if phase is not None:
            settings["opening"] = phase.rule.value
        now = self.now()
        game = model.new_game(
            game_id,
            Mode.FRIEND,
            size=request.size,
            rule=rule,
            seats=seats,
            now=now,
            clock=clock_of(request.preset),
            settings=settings,
            opening=phase,
        )
        self.games.store_new(game)
        payload = {"game_id": game_id, "url": f"/lobby/go/{game_id}"}
        withdrawn = 0
        for person in people.values():
            # Someone who starts a game is no longer looking for another.
            withdrawn += self.repo.remove_own(person.id)
            self.emit("lobby_start", payload, person_room(person.id))
        if withdrawn:
            self.publish()
        return game_id

    def seat_secret(self, game_id: str, person_id: str) -> tuple[str, str] | None:
        """(seat, secret) of ``person_id`` in a lobby game, or None if they hold no seat."""
        game = self.games.load(game_id)
        if not game.settings.get("lobby"):
            return None
        for seat, info in game.seats.items():
            if info.player_id == person_id:
                return seat.value, seat_token(self.secret_key, game_id, person_id)
        return None
