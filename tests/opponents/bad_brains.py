"""Misbehaving Gomocup brains for the external-engine tests: each answers START like a
good brain, says a MESSAGE when asked for a move, and then fails in one way.

``--silent`` never answers a move (it loses on time), ``--crash`` exits when asked for a
move, ``--illegal`` answers with a point that is taken or off the board. ``--after N``
plays N good moves (the first free point near the centre) before misbehaving, so a game
can get going first. Run as ``python tests/opponents/bad_brains.py --silent``."""

from __future__ import annotations

import argparse
import sys

MOVE_COMMANDS = ("BEGIN", "TURN", "BOARD")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    behaviour = parser.add_mutually_exclusive_group(required=True)
    behaviour.add_argument("--silent", action="store_true", help="never answer a move")
    behaviour.add_argument("--crash", action="store_true", help="exit when asked for a move")
    behaviour.add_argument("--illegal", action="store_true", help="answer an illegal point")
    parser.add_argument("--after", type=int, default=0, help="good moves before failing")
    args = parser.parse_args(argv)

    size = 15
    taken: set[tuple[int, int]] = set()
    good_moves = 0

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def answer() -> None:
        nonlocal good_moves
        say("MESSAGE thinking about it")
        if good_moves < args.after:
            centre = size // 2
            free = sorted(
                ((x, y) for x in range(size) for y in range(size) if (x, y) not in taken),
                key=lambda p: abs(p[0] - centre) + abs(p[1] - centre),
            )
            taken.add(free[0])
            good_moves += 1
            say(f"{free[0][0]},{free[0][1]}")
            return
        if args.crash:
            sys.stderr.write("bad brain: crashing on purpose\n")
            sys.exit(3)
        if args.illegal:
            occupied = next(iter(sorted(taken)), None)
            x, y = occupied if occupied is not None else (size + 5, size + 5)
            say(f"{x},{y}")
        # --silent: say nothing; the manager's deadline passes.

    reading_board = False
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        word = line.split()[0].upper()
        if reading_board:
            if word == "DONE":
                reading_board = False
                answer()
            else:
                x, y = (int(v) for v in line.split(",")[:2])
                taken.add((x, y))
            continue
        if word == "START":
            size = int(line.split()[1])
            taken.clear()
            say("OK")
        elif word == "RESTART":
            taken.clear()
            say("OK")
        elif word == "BEGIN":
            answer()
        elif word == "TURN":
            x, y = (int(v) for v in line.split()[1].split(","))
            taken.add((x, y))
            answer()
        elif word == "BOARD":
            taken.clear()
            reading_board = True
        elif word == "ABOUT":
            say('name="bad-brain", version="1"')
        elif word == "END":
            return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
