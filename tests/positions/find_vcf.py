"""Finds VCF puzzles in self-play games from the Gomocup openings and writes them as
puzzle files: positions where the side to move wins by continuous fours in at least
``--min-plies`` plies but has no immediate open four. Run from the project root:
``python tests/positions/find_vcf.py --count 3``."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine import Board, Limit, Searcher, point_name
from engine.game.color import Color
from engine.kernel.tables import C_FIVE, C_FLEX4
from engine.kernel.threats import root_vcf

OPENINGS = Path(__file__).resolve().parents[2].parent / "shared/openings"


def openings() -> list[list[tuple[int, int]]]:
    path = OPENINGS / "gomocup2026_freestyle15_offset.txt"
    result = []
    for line in path.read_text().splitlines():
        values = [int(v) for v in line.replace(" ", "").split(",") if v]
        result.append([(7 + values[k], 7 + values[k + 1]) for k in range(0, len(values), 2)])
    return result


def vcf_length(board: Board, searcher: Searcher) -> int:
    state, tables = searcher._prepare(board)
    me = int(board.turn) - 1
    if state.class_count[me, C_FIVE] or state.class_count[me, C_FLEX4]:
        return 0
    if state.class_count[1 - me, C_FIVE]:
        return 0
    assert searcher._heuristics is not None
    return int(root_vcf(state, tables, searcher._heuristics, 24))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--min-plies", type=int, default=7)
    args = parser.parse_args()
    found = 0
    for index, opening in enumerate(openings()):
        board = Board.from_moves(opening)
        searcher = Searcher(seed=index)
        while not board.is_game_over() and found < args.count:
            plies = vcf_length(board, Searcher())
            if plies >= args.min_plies:
                found += 1
                black = [point_name(m) for m in board.moves[0::2]]
                white = [point_name(m) for m in board.moves[1::2]]
                name = Path(__file__).parent / f"vcf_selfplay_{found}.txt"
                name.write_text(
                    f"# {Color(board.turn).label} wins by continuous fours in {plies} plies "
                    f"(found in self-play from opening {index + 1}).\n"
                    f"size 15\nrule freestyle\nblack {' '.join(black)}\n"
                    f"white {' '.join(white)}\nkind vcf\n"
                )
                print(name, plies)
                break
            board.push(searcher.search(board, Limit(time=0.05)).move)
        if found >= args.count:
            break


if __name__ == "__main__":
    main()
