"""A minimal Gomocup brain loop shared by the seed-style opponent brains in this folder.

The opponents are test fixtures, not product code: plain-Python brains written after the
blog posts the project started from, used by ``engine.tools.match`` and the tests as sparring
partners. This module speaks just enough protocol for a match (START, RESTART, INFO,
BEGIN, TURN, BOARD, TAKEBACK, ABOUT, END) and hands each decision to a ``choose`` function
with the grid (1 own stone, 2 opponent stone), the move history and a deadline."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

Grid = list[list[int]]
Point = tuple[int, int]
Chooser = Callable[[Grid, list[Point], float], Point]

# The opponents keep this much of the turn limit for the protocol round trip.
SAFETY_FRACTION = 0.8


class SearchTimeout(Exception):
    """Raised inside a search when the move's deadline has passed."""


def run(choose: Chooser, about: str) -> int:
    size = 0
    grid: Grid = []
    history: list[Point] = []
    turn_ms = 5000

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def play(received: float) -> None:
        if all(cell for row in grid for cell in row):
            say("ERROR the board is full")
            return
        if not history:
            move = (size // 2, size // 2)
        else:
            deadline = received + turn_ms / 1000.0 * SAFETY_FRACTION
            move = choose(grid, history, deadline)
        grid[move[1]][move[0]] = 1
        history.append(move)
        say(f"{move[0]},{move[1]}")

    def point(text: str) -> Point | None:
        try:
            x, y = (int(v) for v in text.split(","))
        except ValueError:
            return None
        return (x, y) if 0 <= x < size and 0 <= y < size else None

    for raw in iter(sys.stdin.readline, ""):
        received = time.perf_counter()
        words = raw.split()
        if not words:
            continue
        command = words[0].upper()
        if command == "END":
            return 0
        if command == "ABOUT":
            say(about)
        elif command in ("START", "RESTART"):
            if command == "START":
                if len(words) != 2 or not words[1].isdigit() or not 5 <= int(words[1]) <= 30:
                    say("ERROR unsupported size")
                    continue
                size = int(words[1])
            grid = [[0] * size for _ in range(size)]
            history = []
            say("OK")
        elif command == "INFO":
            if len(words) >= 3 and words[1].lower() == "timeout_turn" and words[2].isdigit():
                turn_ms = int(words[2]) or 5000
        elif command == "BEGIN":
            play(received)
        elif command == "TURN":
            p = point(words[1]) if len(words) == 2 else None
            if p is None or grid[p[1]][p[0]]:
                say("ERROR bad TURN")
                continue
            grid[p[1]][p[0]] = 2
            history.append(p)
            play(received)
        elif command == "BOARD":
            grid = [[0] * size for _ in range(size)]
            history = []
            for entry in iter(sys.stdin.readline, ""):
                if entry.strip().upper() == "DONE":
                    break
                parts = entry.strip().split(",")
                p = point(",".join(parts[:2])) if len(parts) == 3 else None
                if p is not None and parts[2] in ("1", "2"):
                    grid[p[1]][p[0]] = int(parts[2])
                    history.append(p)
            play(received)
        elif command == "TAKEBACK":
            p = point(words[1]) if len(words) == 2 else None
            if p is not None:
                grid[p[1]][p[0]] = 0
                if p in history:
                    history.remove(p)
            say("OK")
        else:
            say(f"UNKNOWN {command}")
    return 0
