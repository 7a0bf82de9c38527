"""The model's edges: games to and from stored records (and the compare-and-set update
between two games), the one win-rate scale for every engine, and the view's actions for
each kind of viewer."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import MATE, Rule
from webapp.game import model, offers
from webapp.game.records import game_of, record_of, update_of
from webapp.game.types import (
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
from webapp.game.view import ACTIONS, Activity, JsonView, Room
from webapp.game.winrate import black_winrate, engine_of_player
from webapp.storage.store import GameRecord

B, W = Seat.BLACK, Seat.WHITE
T0 = 5_000_000


def friend(clock: tuple[int, int] | None = (60_000, 1_000)) -> model.Game:
    return model.new_game(
        "r1", Mode.FRIEND, size=15, rule=Rule.RENJU,
        seats={B: SeatInfo(SeatKind.HUMAN, token_hash="b"), W: SeatInfo(SeatKind.HUMAN)},
        now=T0, clock=clock, settings={"defence": 1.0},
    )  # fmt: skip


def test_a_game_survives_the_round_trip_through_a_record() -> None:
    game = model.take_seat(friend(), None, "w", T0).game
    game = model.play(game, B, (7, 7), T0 + 10).game
    figures = EngineFigures(120, 7, 9000, 40)
    game = replace(
        model.play(game, W, (8, 8), T0 + 20, figures=figures).game,
        offers=Offers(takeback=B, draw=W, rematch=None),
        start_plies=0,
    )
    back = game_of(record_of(game))
    assert back == game


def test_a_finished_imported_game_keeps_its_result_and_flags() -> None:
    game = model.new_game(
        "i1", Mode.AI, size=15, rule=Rule.FREESTYLE,
        seats={B: SeatInfo(SeatKind.HUMAN, token_hash="x"), W: SeatInfo(SeatKind.AI, "AI", 2)},
        now=T0, moves=((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)),
        imported=True,
    )  # fmt: skip
    record = record_of(game)
    assert record.settings["imported"] is True and record.settings["start_plies"] == 9
    assert record.result is not None and record.result["termination"] == "five"
    assert game_of(record) == game


def test_older_records_read_as_before() -> None:
    record = GameRecord(
        id="old", mode="friend", size=15, rule="freestyle", status="finished",
        result={"winner": "white", "reason": "timeout", "line": []},
        settings={"clock": {"base_ms": 1000, "increment_ms": 0}},
    )  # fmt: skip
    game = game_of(record)
    assert game.result == Result(Termination.FLAG, W)
    assert game.clock is not None and game.clock.running is None
    full = replace(record, result={"winner": None, "reason": "full", "line": []})
    assert game_of(full).result == Result(Termination.DRAW, None, (), "full")


def test_update_of_adds_truncates_and_binds_seats() -> None:
    waiting = model.new_game(
        "u", Mode.FRIEND, size=15, rule=Rule.FREESTYLE,
        seats={B: SeatInfo(SeatKind.HUMAN, token_hash="b"), W: SeatInfo(SeatKind.HUMAN)}, now=T0,
    )  # fmt: skip
    seated = model.take_seat(waiting, None, "w", T0).game
    update = update_of(waiting, seated)
    assert update.seat_tokens == {"white": "w"}
    assert update.changes["status"] == "active"
    one = model.play(seated, B, (7, 7), T0).game
    update = update_of(seated, one)
    assert update.truncate_to is None and [m.ply for m in update.add_moves] == [1]
    two = model.play(one, W, (8, 8), T0).game
    asked = offers.request_takeback(two, B, T0).game
    assert update_of(two, asked).changes["takeback_by"] == "black"
    back = offers.answer_takeback(asked, W, True, T0).game
    update = update_of(asked, back)
    assert update.truncate_to == 0 and update.add_moves == []
    assert update_of(back, back).changes["offers"] is None


@pytest.mark.parametrize(
    ("score", "engine", "expected"),
    [
        (0, None, 0.5),
        (MATE - 5, None, 1.0),
        (-(MATE - 5), "mcts", 0.0),
        (500, "mcts", 0.75),
        (5000, "mcts", 1.0),
        (300, "negamax", 0.7311),
        (-300, "external", 0.2689),
    ],
)
def test_every_engine_on_one_win_rate_scale(score: int, engine: str, expected: float) -> None:
    assert black_winrate(score, engine) == pytest.approx(expected, abs=1e-4)


def test_the_scale_of_a_seat_follows_its_player() -> None:
    assert engine_of_player("mcts") == "mcts"
    assert engine_of_player("engine:gomoku") == "external"
    assert engine_of_player("negamax:3") == engine_of_player(None) == "negamax"


def test_view_actions_for_players_and_spectators() -> None:
    view = JsonView(abandon_ms=1_000)
    game = model.take_seat(friend(clock=None), None, "w", T0).game
    room = Room(frozenset({B, W}), 1)
    state = view.state(game, B, room, Activity(), T0)
    assert set(state["actions"]) == set(ACTIONS)
    assert state["actions"]["move"] and state["actions"]["abort"]
    assert not state["actions"]["hint"] and not state["actions"]["undo"]
    # Nobody has moved: abort instead of resigning or agreeing a draw.
    assert not state["actions"]["resign"] and not state["actions"]["draw"]
    assert not any(view.state(game, None, room, Activity(), T0)["actions"].values())
    # The opponent gone: a countdown, then the claim.
    played = model.play(model.play(game, B, (7, 7), T0).game, W, (8, 8), T0).game
    both = view.state(played, B, room, Activity(), T0)["actions"]
    assert both["resign"] and both["draw"] and not both["abort"]
    gone = Room(frozenset({B}), 0, {W: T0})
    early = view.state(played, B, gone, Activity(), T0 + 500)
    assert early["abandon"] == {"seat": "white", "claim_at": T0 + 1_000, "now": T0 + 500}
    assert early["actions"]["claim"] is False
    assert view.state(played, B, gone, Activity(), T0 + 1_000)["actions"]["claim"] is True
    # Renju: black's forbidden points are not legal.
    assert state["legal"] and state["status"] == Status.ACTIVE.value


def test_view_engine_figures_and_imported_flag() -> None:
    view = JsonView()
    game = model.new_game(
        "v", Mode.AI, size=15, rule=Rule.FREESTYLE,
        seats={B: SeatInfo(SeatKind.AI, "AI", 3), W: SeatInfo(SeatKind.HUMAN, token_hash="w")},
        now=T0,
    )  # fmt: skip
    assert view.base(game, Room(), Activity(), T0)["engine"] is None
    game = replace(game, moves=(Move((7, 7), EngineFigures(-300, 5, 2000, 100)),))
    base = view.base(game, Room(), Activity(B, True, ((7, 7), (8, 8))), T0)
    assert base["engine"]["nps"] == 20_000 and base["engine"]["pv"] == [[7, 7], [8, 8]]
    assert base["engine"]["black_winrate"] == pytest.approx(0.2689, abs=1e-4)
    assert base["warming"] is True and base["thinking"] == {"color": "black"}
    assert base["imported_finished"] is False
