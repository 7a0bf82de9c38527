"""Measure ``engine.mcts.MctsSearcher`` against the seed 004 approach, in one process.

Both players are called through their Python APIs (no protocol), with a fixed time per
move, alternating colours game by game, on each requested board size. Prints every
game's result and a W-L-D line per size from the MCTS player's side. Run from the
repository root:

    .venv/bin/python tests/opponents/mcts_vs_seed004.py --sizes 7,15 --games 20 --time 0.5

The same pairing over the protocol, as separate processes with the match runner's clock:

    gomoku match --engine1 "gomoku pbrain --player mcts" \
        --engine2 ".venv/bin/python tests/opponents/seed004_brain.py" --size 7 \
        --time-ms 500 --openings tests/opponents/openings_centre.txt --games 20
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from seed004_brain import Seed004Player

from engine import Board, Color, Limit
from engine.mcts import MctsSearcher


def play_game(size: int, rule: str, mcts_colour: Color, seconds: float, seed: int) -> str:
    """One game; returns "W", "L" or "D" for the MCTS player, and prints the moves."""
    board = Board(size, rule)
    mcts = MctsSearcher(seed=seed)
    rival = Seed004Player(size, seconds, seed=seed)
    while not board.is_game_over():
        if board.turn is mcts_colour:
            move = mcts.search(board, Limit(time=seconds)).move
        else:
            cells = [board.cell(x, y) for y in range(size) for x in range(size)]
            move = rival.choose(cells, int(board.turn))
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return "D"
    return "W" if outcome.winner is mcts_colour else "L"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="7,15", help="board sizes, comma separated")
    parser.add_argument("--games", type=int, default=10, help="games per size")
    parser.add_argument("--time", type=float, default=0.5, help="seconds per move, both sides")
    parser.add_argument("--rule", default="freestyle")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    for size in sizes:
        tally = {"W": 0, "L": 0, "D": 0}
        by_colour = {colour: {"W": 0, "L": 0, "D": 0} for colour in Color}
        started = time.perf_counter()
        for game in range(args.games):
            colour = Color.BLACK if game % 2 == 0 else Color.WHITE
            result = play_game(size, args.rule, colour, args.time, seed=1000 * size + game)
            tally[result] += 1
            by_colour[colour][result] += 1
            print(f"{size}x{size} game {game + 1}: MCTS as {colour.label}: {result}", flush=True)
        played = max(1, args.games)
        print(
            f"{size}x{size} {args.rule} {args.time}s/move: MCTS W-L-D "
            f"{tally['W']}-{tally['L']}-{tally['D']} "
            f"({100 * tally['W'] / played:.0f}% wins) in {time.perf_counter() - started:.0f}s",
            flush=True,
        )
        for colour, counts in by_colour.items():
            print(
                f"  as {colour.label}: W-L-D {counts['W']}-{counts['L']}-{counts['D']}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
