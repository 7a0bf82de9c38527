"""The engine's opening decisions for the site's rules (``engine.search.opening_choices``):
every answer is a legal step of the rule, offers are distinct under symmetry, and the
pick is one of the offers. Short time budgets: these check the rules, not the strength."""

from __future__ import annotations

from engine import Board, Searcher
from engine.game.symmetry import distinct
from engine.search.opening_choices import OpeningTask, decide

C = 7
TIME_S = 0.2


def renju(*moves: tuple[int, int]) -> Board:
    return Board.from_moves(moves, size=15, rule="renju")


def test_swap2_opening_is_three_stones_and_the_choice_after_them() -> None:
    searcher = Searcher()
    actions = decide(Board(15), OpeningTask("swap2", "place", "open"), searcher, TIME_S)
    assert [kind for kind, _ in actions] == ["point"] * 3
    board = Board.from_moves([value for _, value in actions], size=15)
    task = OpeningTask("swap2", "choose", "after_three", ("black", "white", "place_two"))
    answer = decide(board, task, searcher, TIME_S)
    assert answer[0][0] == "option" and answer[0][1] in ("black", "white", "place_two")
    if answer[0][1] == "place_two":
        assert [kind for kind, _ in answer[1:]] == ["point", "point"]
    swap = decide(
        board, OpeningTask("swap", "choose", "after_three", ("black", "white")), searcher, TIME_S
    )
    assert swap[0][1] in ("black", "white")


def test_placements_stay_in_the_central_square() -> None:
    searcher = Searcher()
    board = renju((C, C), (C + 1, C), (C, C + 2))
    for radius in (1, 2, 3, 4):
        task = OpeningTask("taraguchi10", "place", f"stone{radius + 1}", (), radius)
        (kind, point), *_ = decide(board, task, searcher, TIME_S)
        assert kind == "point" and isinstance(point, tuple)
        assert max(abs(point[0] - C), abs(point[1] - C)) <= radius
        assert board.stone_at(point) is None


def test_soosorv_declares_a_count_and_offers_distinct_fifth_moves() -> None:
    searcher = Searcher()
    board = renju((C, C), (C + 1, C + 1), (C + 2, C + 2), (C - 3, C - 3))
    ((kind, count),) = decide(
        board, OpeningTask("soosorv8", "declare", "declare", count=8), searcher, TIME_S
    )
    assert kind == "option" and 1 <= int(str(count)) <= 8
    task = OpeningTask("soosorv8", "propose", "propose", count=4, proposals=((C + 1, C - 1),))
    offers = [point for _, point in decide(board, task, searcher, TIME_S)]
    assert len(offers) == 3
    everything = [(C + 1, C - 1), *offers]
    assert distinct(board, everything) == everything  # symmetric to the diagonal: none mirrored
    pick = decide(
        board,
        OpeningTask("soosorv8", "pick", "pick", proposals=tuple(everything)),
        searcher,
        TIME_S,
    )
    assert pick[0][1] in everything


def test_taraguchi_fifth_is_placed_or_ten_are_offered() -> None:
    board = renju((C, C), (C + 1, C), (C, C + 2), (C - 3, C + 3))
    task = OpeningTask("taraguchi10", "place", "stone5", ("offer",), 4)
    ((kind, value),) = decide(board, task, Searcher(), TIME_S)
    if kind == "option":
        assert value == "offer"
    else:
        assert isinstance(value, tuple) and max(abs(value[0] - C), abs(value[1] - C)) <= 4
    ten = decide(
        board, OpeningTask("taraguchi10", "propose", "propose", count=10), Searcher(), TIME_S
    )
    assert len(ten) == 10
    assert len(distinct(board, [point for _, point in ten])) == 10
