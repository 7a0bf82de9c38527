"""Offers one player makes and the other answers: takeback, draw and rematch.

Pure transitions on the ``Game`` of ``model``, in the same form (the game, the acting
seat, ``now``; a ``Change`` back or a named refusal). An offer is open until its
recipient answers, its maker cancels it, or the game moves past it: any move ends a
takeback request, the recipient's move ends a draw offer. Declining tells the maker
(``OfferDeclined``). A rematch against the AI needs nobody's answer; between friends it
is agreed when the second player asks too or accepts, and the new game's id comes in
from the caller, which creates that game from ``rematch_game``.
"""

from __future__ import annotations

from dataclasses import replace

from webapp.game.errors import BadRequestError, GameFinishedError, NotAPlayerError
from webapp.game.events import OfferCancelled, OfferDeclined, OfferMade, RematchAgreed
from webapp.game.model import (
    Change,
    Game,
    finish,
    new_game,
    require_active,
    require_player,
    require_started,
    take_back,
    takeback_count,
)
from webapp.game.opening import start_state
from webapp.game.types import Mode, OfferKind, Result, Seat, Status, Termination


def _offer(game: Game, kind: OfferKind, seat: Seat) -> Change:
    offered = replace(game, offers=game.offers.with_(kind, seat))
    return Change(offered, (OfferMade(kind, seat),))


def _require_open(game: Game, kind: OfferKind, answerer: Seat) -> Seat:
    """The seat that made the open ``kind`` offer that ``answerer`` may answer."""
    by = game.offers.of(kind)
    if by is None:
        raise BadRequestError(f"there is no {kind.value} offer to answer", code="no_offer")
    if by is answerer:
        raise NotAPlayerError(
            f"only your opponent can answer your {kind.value} offer", code="own_offer"
        )
    return by


def cancel_offer(game: Game, kind: OfferKind, seat: Seat | None, now: int) -> Change:
    """The maker takes its open offer back."""
    seat = require_player(game, seat)
    if game.offers.of(kind) is not seat:
        raise BadRequestError(f"you have no {kind.value} offer to cancel", code="no_offer")
    cancelled = replace(game, offers=game.offers.with_(kind, None))
    return Change(cancelled, (OfferCancelled(kind, seat),))


def _decline(game: Game, kind: OfferKind, seat: Seat) -> Change:
    declined = replace(game, offers=game.offers.with_(kind, None))
    return Change(declined, (OfferDeclined(kind, seat),))


# -- takeback ----------------------------------------------------------------------------


def request_takeback(game: Game, seat: Seat | None, now: int) -> Change:
    if game.mode is not Mode.FRIEND:
        raise BadRequestError(
            "takebacks are for friend games: use undo against the AI", code="takeback_friend_only"
        )
    seat = require_player(game, seat)
    if game.status is not Status.ACTIVE:
        raise GameFinishedError("takebacks are only possible during the game")
    takeback_count(game, seat)  # refuses when there is nothing to take back
    if game.offers.takeback is not None:
        raise BadRequestError("a takeback is already pending", code="offer_pending")
    return _offer(game, OfferKind.TAKEBACK, seat)


def answer_takeback(game: Game, seat: Seat | None, accept: bool, now: int) -> Change:
    seat = require_player(game, seat)
    by = _require_open(game, OfferKind.TAKEBACK, seat)
    require_active(game)
    if not accept:
        return _decline(game, OfferKind.TAKEBACK, seat)
    return take_back(game, takeback_count(game, by), now)


# -- draw --------------------------------------------------------------------------------


def offer_draw(game: Game, seat: Seat | None, now: int) -> Change:
    """Offer a draw; if the opponent has offered one already, the game is drawn."""
    if game.mode is not Mode.FRIEND:
        raise BadRequestError("draws are offered in friend games", code="draw_friend_only")
    seat = require_player(game, seat)
    require_active(game)
    require_started(game, "draw_too_early")
    if game.offers.draw is seat:
        raise BadRequestError("your draw offer is already open", code="offer_pending")
    if game.offers.draw is seat.other:
        return finish(game, Result(Termination.DRAW, None, (), "agreement"), now)
    return _offer(game, OfferKind.DRAW, seat)


def answer_draw(game: Game, seat: Seat | None, accept: bool, now: int) -> Change:
    seat = require_player(game, seat)
    _require_open(game, OfferKind.DRAW, seat)
    require_active(game)
    if not accept:
        return _decline(game, OfferKind.DRAW, seat)
    require_started(game, "draw_too_early")
    return finish(game, Result(Termination.DRAW, None, (), "agreement"), now)


# -- rematch -----------------------------------------------------------------------------


def _require_rematchable(game: Game, seat: Seat | None) -> Seat:
    if game.mode not in (Mode.AI, Mode.FRIEND):
        raise BadRequestError(
            "rematches are for games against the AI or a friend", code="rematch_mode"
        )
    seat = require_player(game, seat)
    if game.status is not Status.FINISHED:
        raise BadRequestError(
            "finish the game before asking for a rematch", code="game_not_finished"
        )
    return seat


def _agree(game: Game, new_id: str) -> Change:
    agreed = replace(game, next_game=new_id, offers=game.offers.with_(OfferKind.REMATCH, None))
    return Change(agreed, (RematchAgreed(new_id),))


def offer_rematch(game: Game, seat: Seat | None, now: int, *, new_id: str) -> Change:
    """Ask for a rematch. Against the AI, and between friends when the other asked
    first, it is agreed at once and the rematch is ``new_id``. Asking again once the
    rematch exists changes nothing."""
    seat = _require_rematchable(game, seat)
    if game.next_game is not None:
        return Change(game)
    if game.mode is Mode.AI or game.offers.rematch is seat.other:
        return _agree(game, new_id)
    if game.offers.rematch is seat:
        raise BadRequestError("your rematch offer is already open", code="offer_pending")
    return _offer(game, OfferKind.REMATCH, seat)


def answer_rematch(game: Game, seat: Seat | None, accept: bool, now: int, *, new_id: str) -> Change:
    seat = _require_rematchable(game, seat)
    _require_open(game, OfferKind.REMATCH, seat)
    if not accept:
        return _decline(game, OfferKind.REMATCH, seat)
    return _agree(game, new_id)


def rematch_game(game: Game, new_id: str, now: int) -> Game:
    """The rematch of ``game``: the same players and settings, colours swapped, on an
    empty board, started at once."""
    seats = {seat.other: info for seat, info in game.seats.items()}
    clock = (game.clock.base_ms, game.clock.increment_ms) if game.clock is not None else None
    phase = start_state(game.settings.get("opening"), game.rule, game.size)
    fresh = new_game(
        new_id,
        game.mode,
        size=game.size,
        rule=game.rule,
        seats=seats,
        now=now,
        clock=clock,
        settings=_swapped_settings(game),
        opening=phase,
    )
    return replace(fresh, rematch_of=game.id)


def _swapped_settings(game: Game) -> dict[str, object]:
    settings = dict(game.settings)
    players = settings.get("players")
    if isinstance(players, dict):
        settings["players"] = {Seat(side).other.value: pid for side, pid in players.items()}
    return settings
