"""Between the game model and the store: a ``Game`` from a stored ``GameRecord``, a new
record from a ``Game``, and the arguments of the store's compare-and-set ``update`` that
turn one game into the next.

The store keeps plain rows (strings, JSON); this is the one place that knows how the
model's values are spelled in them: the clock's settings under ``settings["clock"]``,
``start_plies`` and ``imported`` in ``settings``, the takeback offer in
``takeback_by`` and the other offers in ``offers``, the result with both its
``termination`` and the older ``reason``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from engine import Rule
from webapp.game.model import Game
from webapp.game.opening_types import OpeningState
from webapp.game.types import (
    Clock,
    EngineFigures,
    Mode,
    Move,
    Offers,
    Result,
    Seat,
    SeatInfo,
    SeatKind,
    Status,
    Termination,
)
from webapp.storage.store import GameRecord, MoveRecord, SeatRecord


def game_of(record: GameRecord) -> Game:
    settings = dict(record.settings)
    start_plies = int(settings.pop("start_plies", 0) or 0)
    imported = bool(settings.pop("imported", False))
    clock_settings = settings.pop("clock", None)
    opening = settings.pop("opening_state", None)
    offers = record.offers or {}
    return Game(
        id=record.id,
        mode=Mode(record.mode),
        size=record.size,
        rule=Rule.from_name(record.rule),
        status=Status(record.status),
        seats={
            Seat(color): SeatInfo(
                SeatKind(seat.kind), seat.name, seat.level, seat.token_hash, seat.player_id
            )
            for color, seat in record.seats.items()
        },
        moves=tuple(_move_of(m) for m in record.moves),
        version=record.version,
        clock=_clock_of(record.clock, clock_settings),
        result=_result_of(record.result),
        offers=Offers(
            takeback=Seat.parse(record.takeback_by),
            draw=Seat.parse(offers.get("draw")),
            rematch=Seat.parse(offers.get("rematch")),
        ),
        next_game=record.rematch_id,
        rematch_of=record.rematch_of,
        start_plies=start_plies,
        imported=imported,
        settings=settings,
        opening=OpeningState.from_json(opening) if isinstance(opening, dict) else None,
        touched_at=_epoch_ms(record.updated_at),
    )


def record_of(game: Game) -> GameRecord:
    """A record to create ``game`` with."""
    return GameRecord(
        id=game.id,
        mode=game.mode.value,
        size=game.size,
        rule=game.rule.value,
        version=game.version,
        settings=_settings_of(game),
        rematch_of=game.rematch_of,
        moves=[_move_record(ply, move) for ply, move in enumerate(game.moves, start=1)],
        seats={
            seat.value: SeatRecord(
                seat.value, info.kind.value, info.token_hash, info.level, info.name, info.player_id
            )
            for seat, info in game.seats.items()
        },
        **_columns(game),
    )


@dataclass(frozen=True)
class Update:
    """The arguments of ``Store.update`` that change ``old`` into ``new``."""

    changes: dict[str, Any]
    truncate_to: int | None = None
    add_moves: list[MoveRecord] = field(default_factory=list)
    seat_tokens: dict[str, str] = field(default_factory=dict)
    # Who took those seats: person id and display name.
    seat_holders: dict[str, tuple[str | None, str]] = field(default_factory=dict)
    # The two seats change hands (an opening's swap).
    swap_seats: bool = False

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``Store.update``."""
        return {
            "changes": self.changes,
            "truncate_to": self.truncate_to,
            "add_moves": self.add_moves,
            "seat_tokens": self.seat_tokens,
            "seat_holders": self.seat_holders,
            "swap_seats": self.swap_seats,
        }


def update_of(old: Game, new: Game) -> Update:
    kept = 0
    for before, after in zip(old.moves, new.moves, strict=False):
        if before.point != after.point:
            break
        kept += 1
    truncate_to = kept if kept < len(old.moves) else None
    added = [_move_record(ply, new.moves[ply - 1]) for ply in range(kept + 1, len(new.moves) + 1)]
    swaps = [game.opening.swaps if game.opening is not None else 0 for game in (old, new)]
    swap_seats = swaps[0] % 2 != swaps[1] % 2
    tokens = {
        seat.value: info.token_hash
        for seat, info in new.seats.items()
        if info.token_hash is not None and old.seats[seat].token_hash is None and not swap_seats
    }
    holders = {color: (new.seats[Seat(color)].player_id, new.seats[Seat(color)].name)
               for color in tokens}  # fmt: skip
    changes = _columns(new)
    if old.opening != new.opening or old.settings != new.settings:
        changes["settings"] = _settings_of(new)
    return Update(changes, truncate_to, added, tokens, holders, swap_seats)


def result_json(result: Result) -> dict[str, Any]:
    data: dict[str, Any] = {
        "winner": result.winner.value if result.winner is not None else None,
        "reason": result.reason,
        "termination": result.termination.value,
        "line": [[x, y] for x, y in result.line],
    }
    if result.detail:
        data["detail"] = result.detail
    return data


def clock_json(clock: Clock) -> dict[str, Any]:
    return {
        "black_ms": clock.black_ms,
        "white_ms": clock.white_ms,
        "running": clock.running.value if clock.running is not None else None,
        "since": clock.since,
    }


# -- pieces ------------------------------------------------------------------------------


def _columns(game: Game) -> dict[str, Any]:
    offers = {
        kind: seat.value
        for kind, seat in (("draw", game.offers.draw), ("rematch", game.offers.rematch))
        if seat is not None
    }
    return {
        "status": game.status.value,
        "clock": clock_json(game.clock) if game.clock is not None else None,
        "result": result_json(game.result) if game.result is not None else None,
        "takeback_by": game.offers.takeback.value if game.offers.takeback else None,
        "rematch_id": game.next_game,
        "offers": offers or None,
    }


def _settings_of(game: Game) -> dict[str, Any]:
    settings = dict(game.settings)
    if game.clock is not None:
        settings["clock"] = {"base_ms": game.clock.base_ms, "increment_ms": game.clock.increment_ms}
    if game.start_plies:
        settings["start_plies"] = game.start_plies
    if game.imported:
        settings["imported"] = True
    if game.opening is not None:
        settings["opening_state"] = game.opening.to_json()
    return settings


def _epoch_ms(moment: datetime | None) -> int:
    """A stored moment in epoch ms (SQLite gives it back without its zone: UTC)."""
    if moment is None:
        return 0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def _move_of(record: MoveRecord) -> Move:
    figures = None
    if record.eval_score is not None:
        figures = EngineFigures(
            record.eval_score, record.depth or 0, record.nodes or 0, record.think_ms or 0
        )
    return Move((record.x, record.y), figures)


def _move_record(ply: int, move: Move) -> MoveRecord:
    x, y = move.point
    figures = move.figures
    return MoveRecord(
        ply,
        x,
        y,
        Seat.of_ply(ply).value,
        figures.score if figures else None,
        figures.depth if figures else None,
        figures.nodes if figures else None,
        figures.time_ms if figures else None,
    )


def _clock_of(stored: Mapping[str, Any] | None, settings: Any) -> Clock | None:
    if not isinstance(settings, Mapping):
        return None
    base = int(settings.get("base_ms", 0))
    increment = int(settings.get("increment_ms", 0))
    if not stored:
        return Clock(base, base, None, 0, base, increment)
    return Clock(
        int(stored["black_ms"]),
        int(stored["white_ms"]),
        Seat.parse(stored.get("running")),
        int(stored.get("since") or 0),
        base,
        increment,
    )


def _result_of(stored: Mapping[str, Any] | None) -> Result | None:
    if not stored:
        return None
    termination = (
        Termination(stored["termination"])
        if stored.get("termination")
        else Termination.from_reason(stored.get("reason"))
    )
    detail = str(stored.get("detail") or "")
    if (
        not detail
        and termination is Termination.DRAW
        and stored.get("reason") in ("full", "agreement")
    ):
        detail = str(stored["reason"])
    return Result(
        termination,
        Seat.parse(stored.get("winner")),
        tuple((int(x), int(y)) for x, y in stored.get("line") or ()),
        detail,
    )
