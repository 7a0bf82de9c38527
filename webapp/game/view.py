"""What one viewer sees of a game: the ``state`` payload of the web contract.

``JsonView.state`` turns a ``Game`` and the room around it (who is connected, since when
a seat is gone, whether the AI thinks) into the JSON a browser renders, for one viewer:
``you``, and ``actions``, what that viewer may do now. The actions come from the model's
own transitions, tried on the value (they are pure), so the browser never re-derives a
rule; ``legal`` lists the points the side to move may play (renju's forbidden points
removed). Scores appear as ``black_winrate`` too (``winrate``). The service builds one
state for the spectators and one per seated socket."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from webapp.game import model, offers
from webapp.game.errors import GameActionError
from webapp.game.model import Game
from webapp.game.opening_view import can_choose, can_click, opening_json
from webapp.game.records import clock_json, result_json
from webapp.game.types import OfferKind, Seat, SeatKind, Status
from webapp.game.winrate import black_winrate, engine_of_player

ACTIONS = (
    "move",
    "undo",
    "hint",
    "takeback",
    "takeback_cancel",
    "takeback_answer",
    "resign",
    "rematch",
    "rematch_answer",
    "draw",
    "draw_answer",
    "abort",
    "claim",
    "take_seat",
    "opening",
)


@dataclass(frozen=True)
class Room:
    """Who is around a game: seats with a connected socket, how many spectators, and
    since when (epoch ms) each absent human seat has been gone."""

    connected: frozenset[Seat] = frozenset()
    spectators: int = 0
    gone_since: Mapping[Seat, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Activity:
    """The AI's side of the state: which seat thinks, whether it waits on the engine's
    warm-up, and the line the engine expected with its latest move (if known)."""

    thinking: Seat | None = None
    warming: bool = False
    pv: tuple[tuple[int, int], ...] = ()


def _allowed(attempt: Callable[[], object]) -> bool:
    try:
        attempt()
    except GameActionError:
        return False
    return True


class JsonView:
    def __init__(self, *, abandon_ms: int = model.ABANDON_CLAIM_MS) -> None:
        self.abandon_ms = abandon_ms

    def state(
        self,
        game: Game,
        you: Seat | None,
        room: Room,
        activity: Activity,
        now: int,
    ) -> dict[str, Any]:
        return {
            **self.base(game, room, activity, now),
            "you": you.value if you is not None else None,
            "actions": self.actions(game, you, room, activity, now),
        }

    @staticmethod
    def for_spectators(base: dict[str, Any], actions: Mapping[str, bool]) -> dict[str, Any]:
        """The spectators' state from ``base``: without ``legal`` (they cannot move) and
        with only the actions they have (as a rule none, ``take_seat`` in a friend game
        that waits for its guest): half the bytes, for every socket of a crowd."""
        state = {key: value for key, value in base.items() if key != "legal"}
        state["you"] = None
        state["actions"] = {name: True for name, allowed in actions.items() if allowed}
        return state

    def base(self, game: Game, room: Room, activity: Activity, now: int) -> dict[str, Any]:
        """Everything but the viewer's own ``you`` and ``actions``."""
        board = game.board
        legal = game.legal
        forbidden: list[list[int]] = []
        if (
            game.status is not Status.FINISHED
            and board.rule.has_forbidden
            and game.turn is Seat.BLACK
        ):
            forbidden = [[x, y] for x, y in board.forbidden_points()]
        clock = None
        if game.clock is not None:
            clock = {
                **clock_json(game.clock),
                "black_ms": game.clock.left(Seat.BLACK, now),
                "white_ms": game.clock.left(Seat.WHITE, now),
                "increment_ms": game.clock.increment_ms,
            }
            if game.status is not Status.ACTIVE:
                clock["running"] = None
            del clock["since"]
        takeback = game.offers.takeback
        thinking = activity.thinking
        return {
            "id": game.id,
            "mode": game.mode.value,
            "size": game.size,
            "rule": game.rule.value,
            "rated": bool(game.settings.get("rated")),
            "status": game.status.value,
            "version": game.version,
            "moves": [[x, y] for x, y in game.points],
            "turn": game.turn.value,
            "players": self.players(game, room),
            "result": result_json(game.result) if game.result is not None else None,
            "legal": [[x, y] for x, y in legal],
            "forbidden": forbidden,
            "clock": clock,
            "spectators": room.spectators,
            "evals": self.evals(game),
            "engine": self.engine(game, activity),
            "offers": {kind.value: _seat(game.offers.of(kind)) for kind in OfferKind},
            "takeback": {"by": takeback.value} if takeback is not None else None,
            "rematch": game.next_game,
            "next_game": game.next_game,
            "rematch_of": game.rematch_of,
            "abandon": self.abandon(game, room, now),
            "thinking": {"color": thinking.value} if thinking is not None else None,
            "warming": bool(activity.warming and thinking is not None),
            "imported_finished": game.imported and game.start_plies == len(game.moves)
            and game.is_over,
            "opening": opening_json(game),
        }  # fmt: skip

    def players(self, game: Game, room: Room) -> dict[str, dict[str, Any]]:
        return {
            seat.value: {
                "kind": info.kind.value,
                "name": info.name,
                "level": info.level,
                "connected": info.kind is SeatKind.AI or seat in room.connected,
                # Nobody holds this seat yet: the page offers it to a visitor.
                "open": seat is game.free_seat,
            }
            for seat, info in sorted(game.seats.items())
        }

    def evals(self, game: Game) -> list[dict[str, Any]]:
        """The engine's figures for each of its moves, scores from black's side."""
        engines = _engines(game)
        rows = []
        for ply, move in enumerate(game.moves, start=1):
            if move.figures is None:
                continue
            figures = move.figures
            rows.append(
                {
                    "ply": ply,
                    "score": figures.score,
                    "depth": figures.depth,
                    "nodes": figures.nodes,
                    "ms": figures.time_ms,
                    "black_winrate": black_winrate(figures.score, engines[Seat.of_ply(ply)]),
                }
            )
        return rows

    def engine(self, game: Game, activity: Activity) -> dict[str, Any] | None:
        """The last known figures of the engine, for a panel that would show dashes."""
        for ply in range(len(game.moves), 0, -1):
            figures = game.moves[ply - 1].figures
            if figures is None:
                continue
            seat = Seat.of_ply(ply)
            return {
                "ply": ply,
                "color": seat.value,
                "depth": figures.depth,
                "nodes": figures.nodes,
                "nps": figures.nodes * 1000 // figures.time_ms if figures.time_ms > 0 else 0,
                "time_ms": figures.time_ms,
                "score": figures.score,
                "black_winrate": black_winrate(figures.score, _engines(game)[seat]),
                "pv": [[x, y] for x, y in activity.pv] if ply == len(game.moves) else [],
            }
        return None

    def abandon(self, game: Game, room: Room, now: int) -> dict[str, Any] | None:
        """The countdown before the player who stayed may claim the win."""
        for seat, since in sorted(room.gone_since.items()):
            if seat.other in room.connected and model.can_claim(game, seat.other):
                return {
                    "seat": seat.value,
                    "claim_at": model.claim_at(since, self.abandon_ms),
                    "now": now,
                }
        return None

    def actions(
        self, game: Game, you: Seat | None, room: Room, activity: Activity, now: int
    ) -> dict[str, bool]:
        flags = dict.fromkeys(ACTIONS, False)
        if you is None:
            flags["take_seat"] = game.status is Status.WAITING and game.free_seat is not None
            return flags
        if not game.is_human(you):
            return flags
        other = you.other
        open_offers = game.offers
        flags.update(
            move=game.status is Status.ACTIVE and game.turn is you and can_click(game, you),
            undo=_allowed(lambda: model.undo(game, you, now)),
            hint=_allowed(lambda: model.check_hint(game, you)),
            takeback=_allowed(lambda: offers.request_takeback(game, you, now)),
            takeback_cancel=open_offers.takeback is you and game.status is Status.ACTIVE,
            takeback_answer=open_offers.takeback is other and game.status is Status.ACTIVE,
            resign=_allowed(lambda: model.resign(game, you, now)),
            rematch=game.next_game is None
            and open_offers.rematch is not you
            and _allowed(lambda: offers.offer_rematch(game, you, now, new_id="-")),
            rematch_answer=open_offers.rematch is other and game.next_game is None,
            draw=open_offers.draw is None and _allowed(lambda: offers.offer_draw(game, you, now)),
            draw_answer=open_offers.draw is other and game.status is Status.ACTIVE,
            abort=_allowed(lambda: model.abort(game, you, now)),
            claim=self._can_claim_now(game, you, room, now),
            opening=can_choose(game, you),
        )  # fmt: skip
        return flags

    def _can_claim_now(self, game: Game, you: Seat, room: Room, now: int) -> bool:
        since = room.gone_since.get(you.other)
        return since is not None and _allowed(
            lambda: model.claim_victory(
                game, you, now, opponent_gone_since=since, after_ms=self.abandon_ms
            )
        )


def _seat(seat: Seat | None) -> str | None:
    return seat.value if seat is not None else None


def _engines(game: Game) -> dict[Seat, str]:
    """The score scale of each side's engine (``winrate``)."""
    players = game.settings.get("players")
    ids = players if isinstance(players, Mapping) else {}
    return {seat: engine_of_player(ids.get(seat.value)) for seat in Seat}
