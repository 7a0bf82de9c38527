"""The game service: serialises the requests of each game, loads it, applies a transition
of the pure model, writes the result with the store's version compare-and-set, publishes
it, and lets the AI take its turn.

Socket handlers, page routes and the JSON API call it with an actor's seat. Every change
goes the same way (``_act``): under the game's lock, load the ``Game`` (``records``),
settle a flag fall due (``model.settle``), apply the transition (``model``, ``offers``),
write the difference (``Store.update``, refused if another writer got there first), then
publish each socket its state (``realtime.publisher``), re-arm the timers (``timers``)
and schedule the AI (``ai_turns``: the process pool or the Redis queue, one interface,
one commit path ``commit_ai_move``). Refusals are the model's named errors and change
nothing. Hints and the engine API are in ``analysis``; new games in ``creation``."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from webapp.ai.runner import AiRunner
from webapp.ai.types import AiMove
from webapp.game import creation, expiry, model, offers, opening
from webapp.game.absence import Absence
from webapp.game.ai_turns import AiTurns, PoolTurns, QueueTurns, ai_change
from webapp.game.analysis import Analysis, Reply
from webapp.game.errors import GameActionError, GameNotFound, StaleStateError
from webapp.game.events import GameFinished, SeatTaken
from webapp.game.model import Change, Game
from webapp.game.opening_presence import swap_presence
from webapp.game.records import game_of, record_of, update_of
from webapp.game.seat_keys import (
    hash_token,
    new_game_id,
    new_token,
    seat_cookie,
    seat_from_cookies,
    seat_of_token,
)
from webapp.game.timers import GameTimers
from webapp.game.types import Mode, OfferKind, Person, Seat, Status
from webapp.game.view import Activity, JsonView
from webapp.players.registry import PlayerRegistry
from webapp.realtime.messages import EngineMoveRequest, ImportRequest, NewGame
from webapp.realtime.publisher import Emit, Publisher
from webapp.storage.store import GameNotFoundError, GameRecord, StaleVersionError, Store

log = logging.getLogger(__name__)

Transition = Callable[[Game, int], Change]


# A new game and its creator's seat secret (None for AI vs AI).
Created = tuple[Game, str | None]


def epoch_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class ServiceSettings:
    aivai_move_s: float = 0.6  # engine games are paced so spectators can follow
    hint_time_s: float = 0.5
    abandon_ms: int = model.ABANDON_CLAIM_MS  # gone this long: the other may claim
    idle_ms: int = 10 * 60_000  # no move this long: off the "games in progress" list
    unstarted_ms: int = expiry.UNSTARTED_MS  # seats taken, nobody moved: aborted
    waiting_ms: int = expiry.WAITING_MS  # a friend game's guest has not come: aborted


class GameService:
    def __init__(
        self,
        store: Store,
        runner: AiRunner,
        presence: Any,
        *,
        players: PlayerRegistry | None = None,
        settings: ServiceSettings | None = None,
        emit: Emit | None = None,
        turns: Any = None,
        now: Callable[[], int] = epoch_ms,
    ) -> None:
        self.store = store
        self.runner = runner
        self.presence = presence
        self.players = players or PlayerRegistry.from_environment()
        self.settings = settings or ServiceSettings()
        self.now = now
        self.view = JsonView(abandon_ms=self.settings.abandon_ms)
        self.publisher = Publisher(
            presence,
            self.view,
            activity=self.activity,
            now=self.now,
            on_countdown=self._countdown,
            emit=emit,
            absence=Absence.stored(store.engine, store.writing),
        )
        self.timers = GameTimers()
        self.expiry = expiry.Expiry(self.settings.unstarted_ms, self.settings.waiting_ms)
        self.analysis = Analysis(runner, hint_time_s=self.settings.hint_time_s)
        self.turns: AiTurns = (
            QueueTurns(turns)
            if turns is not None
            else PoolTurns(
                runner, self.players, self.commit_ai_move, self.publish_thinking, self.load
            )
        )
        self._locks: dict[str, threading.RLock] = {}
        self._locks_guard = threading.Lock()
        # The line the engine expected with the latest AI move of each game.
        self._pv: dict[str, tuple[tuple[int, int], ...]] = {}
        self._closed = False
        # Called with every game once its end is stored (the people's ratings).
        self.finish_hooks: list[Callable[[Game], None]] = []

    # -- plumbing -----------------------------------------------------------------------

    def set_emitter(self, emit: Emit) -> None:
        self.publisher.set_emitter(emit)

    def emit(self, event: str, payload: dict[str, Any], to: str) -> None:
        self.publisher.emit(event, payload, to)

    def lock(self, game_id: str) -> threading.RLock:
        with self._locks_guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.RLock()
            return lock

    def load(self, game_id: str) -> Game:
        try:
            return game_of(self.store.load(game_id))
        except GameNotFoundError:
            raise GameNotFound(f"there is no game {game_id!r}", code="not_found") from None

    def close(self) -> None:
        self._closed = True
        self.publisher.close()
        self.timers.close()
        self.turns.close()
        self.analysis.closed = True

    # -- the one way to change a game ---------------------------------------------------

    def _act(self, game_id: str, transition: Transition) -> tuple[Game, Change]:
        """Apply ``transition`` to the current game under its lock; write and publish."""
        with self.lock(game_id):
            game = self.settled(self.load(game_id))
            change = transition(game, self.now())
            if change.changed:
                return self._commit(game, change), change
            return game, change

    def settled(self, game: Game) -> Game:
        """``game`` after committing a flag fall or an abort due now (the caller locks it)."""
        change = model.settle(game, self.now())
        if not change.changed:
            change = self.expiry.expire(game, self.now())
        if not change.changed:
            return game
        try:
            return self._commit(game, change)
        except StaleStateError:
            return self.load(game.id)

    def _commit(self, old: Game, change: Change, pv: tuple[tuple[int, int], ...] = ()) -> Game:
        update = update_of(old, change.game)
        try:
            version = self.store.update(old.id, old.version, **update.arguments())
        except StaleVersionError:
            raise StaleStateError("the game changed; try again", code="stale") from None
        game = replace(change.game, version=version, touched_at=self.now())
        swap_presence(self.presence, game.id, swapped=update.swap_seats)
        self._pv[game.id] = pv
        if self.turns.publish_first:
            self.publish(game, change)
            self.turns.schedule(game)
        else:
            self.turns.schedule(game)
            self.publish(game, change)
        self._arm_timers(game)
        if any(isinstance(event, GameFinished) for event in change.events):
            for hook in self.finish_hooks:
                hook(game)
        return game

    # -- publishing ---------------------------------------------------------------------

    def activity(self, game: Game) -> Activity:
        thinking = self.turns.thinking(game)
        warming = thinking is not None and self.turns.warming
        return Activity(thinking, warming, self._pv.get(game.id, ()))

    def publish(self, game: Game, change: Change | None = None) -> None:
        self.publisher.publish(game, change.events if change is not None else ())

    def public_state(
        self, game: Game | GameRecord, you: Seat | str | None = None
    ) -> dict[str, Any]:
        """The state as ``you`` (a seat, or None for a spectator) sees it now."""
        if isinstance(game, GameRecord):
            game = game_of(game)
        return self.publisher.state(game, Seat.parse(you) if isinstance(you, str) else you)

    def send_state(self, game_id: str, sid: str, you: Seat | None) -> None:
        state = self.public_state(self.load(game_id), you)
        if you is None:  # a spectator's socket: the state its room's broadcasts carry
            state = JsonView.for_spectators(state, state["actions"])
        self.emit("state", state, sid)

    def publish_thinking(self, game_id: str, seat: Seat, info: dict[str, Any]) -> None:
        self.publisher.thinking(game_id, seat, info, warming=self.turns.warming)

    def _countdown(self, game_id: str, delay_s: float) -> None:
        self.timers.set(game_id, "abandon", delay_s, lambda: self.refresh(game_id))

    def refresh(self, game_id: str) -> None:
        """Publish the current state (a timer's moment came: a flag, a claim)."""
        if self._closed:
            return
        try:
            with self.lock(game_id):
                game = self.settled(self.load(game_id))
                self.publish(game)
        except Exception:
            log.exception("could not refresh %s", game_id)

    def announce(self, game_id: str) -> None:
        """Sockets came or went: soon, the full state if a player did, else the count."""
        self.publisher.announce(game_id, self._announce_now)

    def _announce_now(self, game_id: str) -> None:
        try:
            with self.lock(game_id):
                self.publisher.announce_now(game_id, lambda: self.publish(self.load(game_id)))
        except Exception:
            log.exception("could not announce the comings and goings of %s", game_id)

    def _arm_timers(self, game: Game) -> None:
        refresh = lambda: self.refresh(game.id)  # noqa: E731
        self.timers.arm(game, self.now(), expires_at=self.expiry.at(game), refresh=refresh)

    def live_games(self, limit: int = 20) -> list[dict[str, Any]]:
        """Games in progress someone moved in lately (engine games: running), newest first."""
        since = self.now() - self.settings.idle_ms
        records = self.store.list_games(status="active", limit=limit, played_after_ms=since)
        return [self.public_state(record) for record in records]

    # -- seats --------------------------------------------------------------------------

    def seat_of(self, game: Game, cookies: Mapping[str, str]) -> Seat | None:
        return seat_from_cookies(game, cookies)

    def resolve_seat(self, game_id: str, cookies: Mapping[str, str]) -> str | None:
        seat = seat_from_cookies(self.load(game_id), cookies)
        return seat.value if seat is not None else None

    def visit(
        self, game_id: str, cookies: Mapping[str, str]
    ) -> tuple[Game, Seat | None, tuple[str, str] | None]:
        """A page visit: the game, the visitor's seat, and a cookie to set (name, secret)
        when the visitor holds this rematch's seat through the previous game's cookie.
        A visit never takes a free seat: ``take_seat`` does, on the visitor's request."""
        game = self.settle(self.load(game_id))
        you = seat_from_cookies(game, cookies)
        name = seat_cookie(game_id)
        if you is not None and not cookies.get(name) and game.rematch_of:
            return game, you, (name, cookies[seat_cookie(game.rematch_of)])
        return game, you, None

    def page_state(
        self, game_id: str, cookies: Mapping[str, str]
    ) -> tuple[dict[str, Any], tuple[str, str] | None]:
        """The state a page visitor sees, and a seat cookie to set (see ``visit``)."""
        game, you, cookie = self.visit(game_id, cookies)
        return self.public_state(game, you), cookie

    def seat_of_token(self, game_id: str, token: Any) -> Seat | None:
        return seat_of_token(self.load(game_id), token if isinstance(token, str) else None)

    def take_seat(
        self, game_id: str, cookies: Mapping[str, str], person: Person | None = None
    ) -> tuple[Game, Seat, str]:
        """Give the visitor (``person``) the free seat of a waiting friend game; return
        the game, the seat and its secret (for the visitor's cookie)."""
        token = new_token()
        taken: list[Seat] = []

        def take(game: Game, now: int) -> Change:
            if seat_from_cookies(game, cookies) is not None:
                raise GameActionError("you already have a seat in this game", code="already_seated")
            change = model.take_seat(game, None, hash_token(token), now, person=person)
            taken.extend(e.seat for e in change.events if isinstance(e, SeatTaken))
            return change

        game, _ = self._act(game_id, take)
        return game, taken[0], token

    # -- creating -----------------------------------------------------------------------

    def create(self, request: NewGame, creator: Person | None = None) -> Created:
        """Create a game; return it and the creator's seat secret (None for AI vs AI)."""
        game, token = creation.new_from_request(request, self.players, self.now(), creator=creator)
        return self.store_new(game), token

    def import_psq(self, request: ImportRequest, creator: Person | None = None) -> Created:
        game, token = creation.new_from_psq(request, self.players, self.now(), creator=creator)
        return self.store_new(game), token

    def store_new(self, game: Game) -> Game:
        """Store a new game (also one made elsewhere: a lobby game), arm its timers and
        schedule its AI."""
        game = game_of(self.store.create(record_of(game)))
        self._arm_timers(game)
        self.turns.schedule(game)
        return game

    # -- the players' requests ----------------------------------------------------------

    def play(self, game_id: str, seat: Seat | None, x: int, y: int, version: int) -> Game:
        def move(game: Game, now: int) -> Change:
            model.require_player(game, seat)
            model.require_active(game)
            if version != game.version:
                raise StaleStateError("the game changed; your board was out of date")
            return opening.play(game, seat, (x, y), now)

        return self._act(game_id, move)[0]

    def opening_choice(self, game_id: str, seat: Seat | None, option: str, version: int) -> Game:
        return self._act(game_id, opening.human_choice(seat, option, version))[0]

    def undo(self, game_id: str, seat: Seat | None) -> Game:
        return self._act(game_id, lambda game, now: model.undo(game, seat, now))[0]

    def resign(self, game_id: str, seat: Seat | None) -> Game:
        return self._act(game_id, lambda game, now: model.resign(game, seat, now))[0]

    def abort(self, game_id: str, seat: Seat | None) -> Game:
        return self._act(game_id, lambda game, now: model.abort(game, seat, now))[0]

    def claim_victory(self, game_id: str, seat: Seat | None) -> Game:
        def claim(game: Game, now: int) -> Change:
            since = self.publisher.gone(game, now).get(seat.other) if seat is not None else None
            return model.claim_victory(
                game, seat, now, opponent_gone_since=since, after_ms=self.settings.abandon_ms
            )

        return self._act(game_id, claim)[0]

    def request_takeback(self, game_id: str, seat: Seat | None) -> Game:
        return self._act(game_id, lambda g, now: offers.request_takeback(g, seat, now))[0]

    def answer_takeback(self, game_id: str, seat: Seat | None, accept: bool) -> Game:
        return self._act(game_id, lambda g, now: offers.answer_takeback(g, seat, accept, now))[0]

    def cancel_offer(self, game_id: str, seat: Seat | None, kind: OfferKind) -> Game:
        return self._act(game_id, lambda g, now: offers.cancel_offer(g, kind, seat, now))[0]

    def offer_draw(self, game_id: str, seat: Seat | None) -> Game:
        return self._act(game_id, lambda g, now: offers.offer_draw(g, seat, now))[0]

    def answer_draw(self, game_id: str, seat: Seat | None, accept: bool) -> Game:
        return self._act(game_id, lambda g, now: offers.answer_draw(g, seat, accept, now))[0]

    def rematch(self, game_id: str, seat: Seat | None) -> Game:
        """Offer a rematch (against the AI, or answering the friend's offer: agreed)."""
        new_id = new_game_id()
        return self._rematch(
            game_id, lambda g, now: offers.offer_rematch(g, seat, now, new_id=new_id)
        )

    def answer_rematch(self, game_id: str, seat: Seat | None, accept: bool) -> Game:
        new_id = new_game_id()
        return self._rematch(
            game_id, lambda g, now: offers.answer_rematch(g, seat, accept, now, new_id=new_id)
        )

    def _rematch(self, game_id: str, transition: Transition) -> Game:
        """A rematch agreed creates the new game before the old one names it, so that
        whoever follows the link finds it."""
        with self.lock(game_id):
            game = self.settled(self.load(game_id))
            change = transition(game, self.now())
            if not change.changed:
                return game
            created = None
            if change.game.next_game is not None and game.next_game is None:
                created = offers.rematch_game(change.game, change.game.next_game, self.now())
                created = game_of(self.store.create(record_of(created)))
            game = self._commit(game, change)
        if created is not None:
            self._arm_timers(created)
            self.turns.schedule(created)
        return game

    def hint(
        self, game_id: str, seat: Seat | None, reply: Reply, client: str | None = None
    ) -> None:
        game = self.load(game_id)
        model.check_hint(game, seat)
        self.analysis.hint(game, reply, client)

    def engine_move(self, request: EngineMoveRequest, client: str | None = None) -> dict[str, Any]:
        return self.analysis.engine_move(
            size=request.size, rule=request.rule, moves=request.moves, time_ms=request.time_ms,
            client=client,
        )  # fmt: skip

    # -- the AI's moves -----------------------------------------------------------------

    def commit_ai_move(
        self, game_id: str, version: int, seat: Seat, move: AiMove, started: float
    ) -> bool:
        """Play an AI search's answer if the game is still at ``version`` with ``seat``'s
        AI to move; return whether it was played. The one commit path of both AI-turn
        implementations: a re-run job and the job it replaced cannot both play, and a
        move made stale by an undo or a resignation meanwhile is dropped."""
        game = self.load(game_id)
        if game.version != version or game.ai_to_move is not seat:
            return False
        if game.mode is Mode.AIVAI:
            pause = self.settings.aivai_move_s - (time.monotonic() - started)
            if pause > 0:
                time.sleep(pause)
        with self.lock(game_id):
            game = self.load(game_id)
            if game.version != version or game.ai_to_move is not seat or self._closed:
                return False
            change = ai_change(game, seat, move, self.now())
            if change is None:
                return False
            pv = tuple((int(x), int(y)) for x, y in move.pv)
            try:
                self._commit(game, change, pv)
            except StaleStateError:
                return False
            return True

    # -- start-up -----------------------------------------------------------------------

    def settle(self, game: Game) -> Game:
        """``game`` after settling a flag fall or an abort due now (for most games a no-op)."""
        due = self.expiry.due(game, self.now())
        if not due and (game.status is not Status.ACTIVE or game.clock is None):
            return game
        with self.lock(game.id):
            return self.settled(self.load(game.id))

    def resume(self) -> int:
        """After a start: settle clocks, abort the games nobody started in time, arm
        timers, restart AI turns; return how many AI turns."""
        started = 0
        for game_id in self.store.game_ids(Status.WAITING.value) + self.store.active_game_ids():
            try:
                with self.lock(game_id):
                    game = self.settled(self.load(game_id))
                    self._arm_timers(game)
                    self.publisher.resume(game)
                    if game.ai_to_move is not None:
                        self.turns.schedule(game)
                        started += 1
            except Exception:
                log.exception("could not resume game %s", game_id)
        return started
