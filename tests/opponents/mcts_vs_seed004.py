"""Measure ``engine.mcts.MctsSearcher`` against the seed 004 approach, in one process.

Both players are called through their Python APIs (no protocol), with a fixed time per
move, alternating colours game by game, on each requested board size. Prints every
game's result and a W-L-D line per size from the MCTS player's side. Run from the
repository root:

    .venv/bin/python tests/opponents/mcts_vs_seed004.py --sizes 7,15 --games 20 --time 0.5

``--mcts-colour white`` keeps the MCTS player on one colour, ``--show-moves`` prints the
moves and final board of every game it did not win, ``--openings FILE`` starts the games
from the match runner's openings in turn, ``--seed N`` shifts every game's seed and
``--option NAME=VALUE`` (repeatable) sets an ``MctsOptions`` field such as
``fallible=0`` or ``traps=false``; ``--as-written`` plays the seed's overrides exactly as
its code has them rather than the stronger reading of its text (see ``seed004_brain.py``).

The same pairing over the protocol, as separate processes with the match runner's clock:

    gomoku match --engine1 "gomoku pbrain --player mcts" \
        --engine2 ".venv/bin/python tests/opponents/seed004_brain.py" --size 7 \
        --time-ms 500 --openings tests/opponents/openings_centre.txt --games 20

(add ``--as-written`` to the seed004 brain's command for the overrides as written).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from seed004_brain import Seed004Player

from engine import Board, Color, Limit, Point, point_name
from engine.search.mcts import MctsOptions, MctsSearcher


def play_game(
    size: int,
    rule: str,
    mcts_colour: Color,
    seconds: float,
    seed: int,
    opening: list[Point],
    options: dict[str, Any] | None = None,
    as_written: bool = False,
) -> tuple[str, Board]:
    """One game from ``opening``; returns "W", "L" or "D" for the MCTS player and the
    final board. ``options`` are ``MctsOptions`` fields."""
    board = Board.from_moves(opening, size=size, rule=rule)
    mcts = MctsSearcher(MctsOptions(**(options or {})), seed=seed)
    rival = Seed004Player(size, seconds, seed=seed, as_written=as_written)
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
        return "D", board
    return ("W" if outcome.winner is mcts_colour else "L"), board


def read_openings(path: str, size: int) -> list[list[Point]]:
    """Openings in the match runner's format: offsets from the centre, black first."""
    centre = size // 2
    openings = []
    for raw in Path(path).read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        numbers = [int(n) for n in line.replace(" ", "").split(",") if n]
        openings.append(
            [(centre + numbers[i], centre + numbers[i + 1]) for i in range(0, len(numbers), 2)]
        )
    return openings


def parse_option(text: str) -> tuple[str, Any]:
    """``name=value`` with a number or true/false value, for ``MctsSearcher``."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {text!r}")
    lowered = raw.strip().lower()
    if lowered in ("true", "false"):
        return name.strip(), lowered == "true"
    number = float(raw)
    return name.strip(), int(number) if number.is_integer() and "." not in raw else number


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="7,15", help="board sizes, comma separated")
    parser.add_argument("--games", type=int, default=10, help="games per size")
    parser.add_argument("--time", type=float, default=0.5, help="seconds per move, both sides")
    parser.add_argument("--rule", default="freestyle")
    parser.add_argument(
        "--mcts-colour",
        choices=["both", "black", "white"],
        default="both",
        help="the MCTS player's colour: alternating (both) or always one",
    )
    parser.add_argument(
        "--show-moves", action="store_true", help="print the moves of every game not won"
    )
    parser.add_argument(
        "--openings", help="a file of openings (offsets from the centre), used in turn"
    )
    parser.add_argument("--seed", type=int, default=0, help="added to every game's seed")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an MctsSearcher keyword (number or true/false), repeatable",
    )
    parser.add_argument(
        "--as-written",
        action="store_true",
        help="the seed's overrides exactly as its code has them (see seed004_brain.py)",
    )
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    options = dict(parse_option(text) for text in args.option)
    for size in sizes:
        openings = read_openings(args.openings, size) if args.openings else []
        tally = {"W": 0, "L": 0, "D": 0}
        by_colour = {colour: {"W": 0, "L": 0, "D": 0} for colour in Color}
        started = time.perf_counter()
        for game in range(args.games):
            if args.mcts_colour == "both":
                colour = Color.BLACK if game % 2 == 0 else Color.WHITE
            else:
                colour = Color.from_name(args.mcts_colour)
            opening = openings[game % len(openings)] if openings else []
            seed = 1000 * size + game + args.seed
            result, board = play_game(
                size, args.rule, colour, args.time, seed, opening, options, args.as_written
            )
            tally[result] += 1
            by_colour[colour][result] += 1
            print(f"{size}x{size} game {game + 1}: MCTS as {colour.label}: {result}", flush=True)
            if args.show_moves and result != "W":
                print("  " + " ".join(point_name(m, size) for m in board.moves), flush=True)
                print(str(board), flush=True)
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
