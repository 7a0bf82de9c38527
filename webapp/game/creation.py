"""New games from a creator's request: who sits where, the settings kept with the game,
and the creator's seat secret. Also games imported from a PSQ record.

Pure apart from the random colour, id and secret it draws: ``new_from_request`` returns
the ``Game`` to store and the secret for the creator's cookie (None for AI vs AI); the
creator's seat carries their person id and display name when given. The players
(``players.registry``) name the AI seats of an AI-vs-AI game.

The request's ``opening`` (seeks pass theirs through the same ``NewGame``) is one of
``none``, ``swap``, ``swap2`` (freestyle and standard) or ``soosorv8``, ``taraguchi10``
(renju); another rule's opening, or an opening with starting moves, is refused with
``bad_opening``. With an opening the creator's colour is the tentative one: black is the
first player (``opening``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import Rule
from webapp.game import model, opening
from webapp.game.errors import BadRequestError
from webapp.game.model import Game
from webapp.game.psq import PsqError, parse_psq
from webapp.game.seat_keys import hash_token, new_game_id, new_token
from webapp.game.types import Mode, Person, Seat, SeatInfo, SeatKind
from webapp.players.registry import Player, PlayerRegistry, UnknownPlayerError
from webapp.realtime.messages import ImportRequest, NewGame


def new_from_request(
    request: NewGame,
    players: PlayerRegistry,
    now: int,
    *,
    imported: bool = False,
    creator: Person | None = None,
) -> tuple[Game, str | None]:
    """The game ``request`` asks for; ``creator`` (when known) names the creator's seat."""
    mode = Mode(request.mode)
    token: str | None = None
    seats: dict[Seat, SeatInfo] = {}
    settings: dict[str, Any] = {"defence": request.defence}
    if mode is Mode.AIVAI:
        chosen = aivai_players(request, players)
        for side, player in chosen.items():
            seats[side] = SeatInfo(SeatKind.AI, player.name, player.level)
        settings["black_level"] = request.black_level
        settings["white_level"] = request.white_level
        settings["players"] = {side.value: player.id for side, player in chosen.items()}
    else:
        token = new_token()
        mine = Seat.chosen(request.color)
        seats[mine] = SeatInfo(SeatKind.HUMAN, "Guest", None, hash_token(token))
        if creator is not None:
            seats[mine] = replace(seats[mine], name=creator.name, player_id=creator.id)
        if mode is Mode.AI:
            seats[mine.other] = SeatInfo(SeatKind.AI, f"AI Level {request.level}", request.level)
            settings["level"] = request.level
        else:
            seats[mine.other] = SeatInfo(SeatKind.HUMAN, "Guest")
    clock = None
    if request.clock is not None:
        clock = (request.clock.base_ms, request.clock.increment_ms)
    rule = Rule.from_name(request.rule)
    phase = opening.start_state(request.opening, rule, request.size, start_moves=len(request.moves))
    if phase is not None:
        settings["opening"] = phase.rule.value
    game = model.new_game(
        new_game_id(),
        mode,
        size=request.size,
        rule=rule,
        seats=seats,
        now=now,
        moves=tuple(request.moves),
        clock=clock,
        settings=settings,
        imported=imported,
        opening=phase,
    )
    return game, token


def aivai_players(request: NewGame, players: PlayerRegistry) -> dict[Seat, Player]:
    """The players of an AI-vs-AI game: the ids asked for, else negamax at the levels."""
    chosen = {}
    for side, player_id, level in (
        (Seat.BLACK, request.black_player, request.black_level),
        (Seat.WHITE, request.white_player, request.white_level),
    ):
        try:
            chosen[side] = players.get(player_id or f"negamax:{level}")
        except UnknownPlayerError as error:
            raise BadRequestError(
                f"'{side.value}_player': {error}",
                code="unknown_player",
                params={"field": f"{side.value}_player"},
            ) from None
    return chosen


def new_from_psq(
    request: ImportRequest, players: PlayerRegistry, now: int, *, creator: Person | None = None
) -> tuple[Game, str | None]:
    """A game against the AI continuing an imported record (over already if the record
    is: the state says so with ``imported_finished``)."""
    try:
        record = parse_psq(request.psq, rule=request.rule)
    except PsqError as error:
        params = {"reason": error.reason, **error.params}
        raise BadRequestError(str(error), code="bad_psq", params=params) from None
    turn = "black" if len(record.moves) % 2 == 0 else "white"
    request_game = NewGame(
        mode="ai",
        size=record.size,
        rule=request.rule,
        color=request.color or turn,
        level=request.level,
        defence=1.0,
        black_level=request.level,
        white_level=request.level,
        clock=None,
        moves=record.moves,
    )
    return new_from_request(request_game, players, now, imported=True, creator=creator)
