"""MESSAGE progress lines: what the brain writes, whoever drives it reads back."""

from __future__ import annotations

from engine import IterationInfo
from engine.protocol.info import BrainInfo, format_info, parse_info


def test_a_written_line_reads_back() -> None:
    info = IterationInfo(
        depth=7, score=-37, move=(7, 7), pv=[(7, 7), (8, 6)], nodes=1234, nps=5000, time=0.25
    )
    text = format_info(info, 15)
    assert text == "depth 7 score -37 nodes 1234 nps 5000 pv h8 i9"
    assert parse_info(text, 15) == BrainInfo(7, -37, 1234, 5000, [(7, 7), (8, 6)])


def test_points_off_the_board_are_left_out() -> None:
    info = IterationInfo(
        depth=1, score=0, move=(2, 2), pv=[(2, 2), (-1, -1), (9, 9)], nodes=5, nps=0, time=0.0
    )
    assert format_info(info, 7) == "depth 1 score 0 nodes 5 nps 0 pv c5"
    empty = IterationInfo(depth=1, score=0, move=(0, 0), pv=[], nodes=5, nps=0, time=0.0)
    assert format_info(empty, 7) == "depth 1 score 0 nodes 5 nps 0 pv"
    assert parse_info("depth 1 score 0 nodes 5 nps 0 pv", 7) == BrainInfo(1, 0, 5, 0, [])


def test_other_text_is_not_ours() -> None:
    assert parse_info("evaluating the centre...", 15) is None
    assert parse_info("depth five score 3 nodes 1", 15) is None
    assert parse_info("", 15) is None


def test_json_values_and_the_move() -> None:
    read = parse_info("depth 5 score 3 nodes 10 pv h8 z99", 15)
    assert read is not None
    assert read.nps == 0
    assert read.move == (7, 7)
    assert read.to_json() == {
        "depth": 5,
        "score": 3,
        "nodes": 10,
        "nps": 0,
        "pv": [[7, 7]],
        "move": [7, 7],
    }
    assert BrainInfo(1, 0, 0).to_json() == {"depth": 1, "score": 0, "nodes": 0, "nps": 0, "pv": []}
