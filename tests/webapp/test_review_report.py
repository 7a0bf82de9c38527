"""The review built from the engine's evaluations: win probabilities from black's side,
classes, the better move and its line, missed and allowed forced wins, the summary."""

from __future__ import annotations

import pytest

from engine.search.result import MATE
from webapp.ai.types import AiMove
from webapp.game.winrate import black_winrate
from webapp.review.report import build_review, position_eval, terminal_eval


def searched(index: int, score: int, best: tuple[int, int], forced: dict | None = None) -> dict:
    move = AiMove(move=best, score=score, depth=6, nodes=1000, pv=[best, (0, 0)], forced=forced)
    return position_eval(index, move)


def test_scores_turn_to_blacks_side_and_classes_follow_the_loss() -> None:
    moves = [(7, 7), (8, 8), (3, 3)]
    positions = [
        searched(0, 0, (7, 7)),  # black to move, even
        searched(1, -50, (8, 8)),  # white to move: white 50 worse, so black +50
        searched(2, 100, (6, 6)),  # black to move: +100
        searched(3, 400, (9, 9)),  # white to move, +400 for white: black's 3,3 was bad
    ]
    review = build_review(moves, positions)
    plies = review["plies"]
    assert [p["color"] for p in plies] == ["black", "white", "black"]
    assert plies[0]["engine_move"] and plies[0]["class"] == "best"
    assert plies[0]["best"] is None and plies[0]["pv"] == []
    assert plies[1]["before"] == pytest.approx(black_winrate(50), abs=1e-4)
    third = plies[2]
    assert third["score_before"] == 100 and third["score_after"] == -400
    expected = black_winrate(100) - black_winrate(-400)
    assert third["loss"] == pytest.approx(expected, abs=1e-4)
    assert third["class"] == "blunder" and third["symbol"] == "??"
    assert third["best"] == [6, 6] and third["pv"] == [[6, 6], [0, 0]]
    graph = review["positions"]
    assert [g["ply"] for g in graph] == [0, 1, 2, 3]
    assert graph[1]["black_winrate"] == pytest.approx(black_winrate(50), abs=1e-4)
    summary = review["summary"]
    assert summary["black"]["moves"] == 2 and summary["black"]["blunder"] == 1
    assert summary["black"]["best"] == 1
    assert summary["black"]["average_loss"] == pytest.approx(third["loss"] / 2, abs=1e-4)
    assert summary["white"]["moves"] == 1


def test_a_missed_vcf_is_flagged() -> None:
    vcf = {"kind": "vcf", "plies": 5, "moves": 3, "line": [[5, 5], [6, 6], [7, 7]]}
    moves = [(7, 7), (8, 8), (1, 1)]
    positions = [
        searched(0, 0, (7, 7)),
        searched(1, 0, (8, 8)),
        searched(2, MATE - 5, (5, 5), forced=vcf),  # black to move wins by VCF
        searched(3, 0, (9, 9)),  # after 1,1: even again
    ]
    third = build_review(moves, positions)["plies"][2]
    assert third["missed_win"] == vcf
    assert third["class"] == "blunder"
    assert third["best"] == [5, 5]
    assert build_review(moves, positions)["summary"]["black"]["missed_wins"] == 1


def test_playing_the_win_or_keeping_it_is_no_miss() -> None:
    vcf = {"kind": "vcf", "plies": 5, "moves": 3, "line": [[5, 5]]}
    moves = [(7, 7), (8, 8), (5, 5)]
    positions = [
        searched(0, 0, (7, 7)),
        searched(1, 0, (8, 8)),
        searched(2, MATE - 5, (5, 5), forced=vcf),
        searched(3, -(MATE - 4), (9, 9)),  # white to move is lost
    ]
    third = build_review(moves, positions)["plies"][2]
    assert third["missed_win"] is None and third["class"] == "best"


def test_an_allowed_forced_win_is_flagged_and_an_already_lost_one_is_not() -> None:
    vct = {"kind": "vct", "plies": 7, "moves": 4, "line": [[2, 2]]}
    moves = [(7, 7), (8, 8)]
    allowed = [searched(0, 0, (7, 7)), searched(1, 0, (8, 8)), searched(2, MATE - 7, (2, 2), vct)]
    second = build_review(moves, allowed)["plies"][1]
    assert second["allowed_win"] == vct
    lost = [searched(0, 0, (7, 7)), searched(1, -(MATE - 9), (8, 8)), allowed[2]]
    assert build_review(moves, lost)["plies"][1]["allowed_win"] is None


def test_a_mate_score_without_a_threat_search_result_is_a_forced_win_too() -> None:
    moves = [(7, 7), (8, 8)]
    positions = [searched(0, 0, (7, 7)), searched(1, 0, (8, 8)), searched(2, MATE - 3, (4, 4))]
    allowed = build_review(moves, positions)["plies"][1]["allowed_win"]
    assert allowed["kind"] == "mate" and allowed["plies"] == 3 and allowed["moves"] == 2


def test_a_finished_board_counts_as_its_result() -> None:
    moves = [(7, 7)]
    positions = [searched(0, 0, (7, 7)), terminal_eval(1, "black")]
    review = build_review(moves, positions)
    assert review["positions"][1]["black_winrate"] == 1.0
    assert review["plies"][0]["after"] == 1.0 and review["plies"][0]["class"] == "best"


def test_positions_must_match_the_moves() -> None:
    with pytest.raises(ValueError):
        build_review([(7, 7)], [searched(0, 0, (7, 7))])
