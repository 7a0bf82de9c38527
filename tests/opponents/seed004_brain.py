"""A standalone Gomocup brain that plays like seed 004: plain UCT with uniformly random
playouts, then threat overrides that replace the UCT move.

Seed 004 noticed that random playouts miss wins one or two stones away, so after UCT
it scans every five-cell window for its own stones: a window one stone short of five
is completed at once, a cell that lies in two open three-windows (a double three) comes
next, then a cell that extends an open three-window; only otherwise is the UCT move
played. This is a sparring partner for ``engine.search.mcts`` (see ``mcts_vs_seed004.py``
beside it) and for protocol matches; it is plain Python on purpose and imports nothing
from the project. Tree moves are limited to cells within two of a stone on boards
larger than 9x9, where the whole board would leave UCT nothing to learn in the time.

``--as-written`` (``Seed004Player(as_written=True)``) plays the overrides exactly as the
seed's code has them instead: the first window of five found in its scan holding three or
four of its stones, blocked or not, gets its first empty cell, with no four ranked above a
three.

Protocol: START, RESTART, INFO, BEGIN, TURN, BOARD..DONE, TAKEBACK, ABOUT, END; moves
are answered as ``x,y``. The move budget is 80% of ``INFO timeout_turn``."""

from __future__ import annotations

import math
import random
import sys
import time
from typing import TextIO

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Position:
    """A square board as a flat list (0 empty, 1 and 2 the players) and whose turn it is."""

    def __init__(self, size: int, cells: list[int] | None = None, to_move: int = 1) -> None:
        self.size = size
        self.cells = cells[:] if cells is not None else [0] * (size * size)
        self.to_move = to_move

    def copy(self) -> Position:
        return Position(self.size, self.cells, self.to_move)

    def play(self, index: int) -> bool:
        """Play for the side to move; return whether it made five or more."""
        player = self.to_move
        self.cells[index] = player
        self.to_move = 3 - player
        return self.makes_five(index, player)

    def makes_five(self, index: int, player: int) -> bool:
        size = self.size
        x, y = index % size, index // size
        for dx, dy in DIRECTIONS:
            run = 1
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while 0 <= cx < size and 0 <= cy < size and self.cells[cy * size + cx] == player:
                    run += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
            if run >= 5:
                return True
        return False

    def empties(self) -> list[int]:
        return [i for i, v in enumerate(self.cells) if v == 0]

    def tree_moves(self) -> list[int]:
        empties = self.empties()
        if self.size <= 9 or len(empties) == len(self.cells):
            return empties
        size = self.size
        near = []
        for i in empties:
            x, y = i % size, i // size
            if any(
                self.cells[ny * size + nx]
                for ny in range(max(0, y - 2), min(size, y + 3))
                for nx in range(max(0, x - 2), min(size, x + 3))
            ):
                near.append(i)
        return near


class Node:
    """A UCT node; ``wins`` counts results for the player who moved into it."""

    __slots__ = ("children", "move", "mover", "parent", "untried", "visits", "wins")

    def __init__(self, move: int | None, parent: Node | None, mover: int, untried: list[int]):
        self.move = move
        self.parent = parent
        self.mover = mover
        self.untried = untried
        self.children: list[Node] = []
        self.visits = 0
        self.wins = 0.0

    def select(self) -> Node:
        log_n = math.log(self.visits)
        return max(
            self.children,
            key=lambda c: c.wins / c.visits + math.sqrt(2 * log_n / c.visits),
        )


def uct(root_position: Position, seconds: float, rng: random.Random) -> int:
    """Plain UCT with uniformly random playouts; returns the most visited move."""
    root = Node(None, None, 3 - root_position.to_move, root_position.tree_moves())
    deadline = time.perf_counter() + seconds
    while True:
        node = root
        position = root_position.copy()
        winner = 0
        # Selection
        while not node.untried and node.children:
            node = node.select()
            assert node.move is not None
            if position.play(node.move):
                winner = node.mover
                break
        # Expansion
        if not winner and node.untried:
            move = node.untried.pop(rng.randrange(len(node.untried)))
            mover = position.to_move
            won = position.play(move)
            child = Node(move, node, mover, [] if won else position.tree_moves())
            node.children.append(child)
            node = child
            if won:
                winner = mover
        # Random playout
        if not winner:
            empties = position.empties()
            rng.shuffle(empties)
            for move in empties:
                mover = position.to_move
                if position.play(move):
                    winner = mover
                    break
        # Backpropagation
        walk: Node | None = node
        while walk is not None:
            walk.visits += 1
            if winner == walk.mover:
                walk.wins += 1.0
            elif winner == 0:
                walk.wins += 0.5
            walk = walk.parent
        if time.perf_counter() >= deadline and root.children:
            break
    best = max(root.children, key=lambda c: c.visits)
    assert best.move is not None
    return best.move


def threat_override(position: Position, player: int) -> int | None:
    """Seed 004's overrides: complete a four-window, else play a double three, else
    extend an open three-window. Windows holding an opponent stone are skipped."""
    size = position.size
    cells = position.cells
    three_cells: dict[int, set[tuple[int, int]]] = {}
    first_three: int | None = None
    for y in range(size):
        for x in range(size):
            for dx, dy in DIRECTIONS:
                ex, ey = x + 4 * dx, y + 4 * dy
                if not (0 <= ex < size and 0 <= ey < size):
                    continue
                window = [(y + k * dy) * size + x + k * dx for k in range(5)]
                values = [cells[i] for i in window]
                if 3 - player in values:
                    continue
                own = values.count(player)
                empty = [i for i, v in zip(window, values, strict=True) if v == 0]
                if own == 4:
                    return empty[0]
                if own == 3:
                    for i in empty:
                        three_cells.setdefault(i, set()).add((dx, dy))
                    if first_three is None:
                        first_three = empty[0]
    doubles = [i for i, dirs in three_cells.items() if len(dirs) >= 2]
    if doubles:
        return doubles[0]
    return first_three


def override_as_written(position: Position, player: int) -> int | None:
    """The overrides exactly as seed 004's code has them (``detect_missing_one_in_line``):
    for each cell in column-major order and each line (vertical, horizontal, the two
    diagonals), each of the five windows of five through it in turn; the first window
    holding three or four of ``player``'s stones on the board, whatever else it holds,
    gives its first empty cell. Nothing ranks a four above a three or skips a blocked
    window."""
    size = position.size
    cells = position.cells
    for x in range(size):
        for y in range(size):
            for dx, dy in AS_WRITTEN_LINES:
                for start in range(0, -5, -1):
                    spots = [(x + k * dx, y + k * dy) for k in range(start, start + 5)]
                    window = [
                        cy * size + cx for cx, cy in spots if 0 <= cx < size and 0 <= cy < size
                    ]
                    if [cells[i] for i in window].count(player) not in (3, 4):
                        continue
                    for i in window:
                        if cells[i] == 0:
                            return i
    return None


# Vertical, horizontal, rising and falling diagonals, in the order seed 004 checks them.
AS_WRITTEN_LINES = ((0, 1), (1, 0), (1, -1), (1, 1))


class Seed004Player:
    """Chooses moves the seed 004 way within a time budget per move. ``as_written`` uses
    the overrides exactly as the seed's code has them (``override_as_written``); the
    default is the stronger reading of its text (``threat_override``)."""

    def __init__(
        self, size: int, seconds: float, seed: int | None = None, as_written: bool = False
    ) -> None:
        self.size = size
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.as_written = as_written

    def choose(self, cells: list[int], to_move: int) -> tuple[int, int]:
        """Pick a move on ``cells`` (flat, index y*size+x) for ``to_move``; returns (x, y)."""
        position = Position(self.size, cells, to_move)
        if not any(cells):
            centre = self.size // 2
            return (centre, centre)
        rule = override_as_written if self.as_written else threat_override
        override = rule(position, to_move)
        index = override if override is not None else uct(position, self.seconds, self.rng)
        return (index % self.size, index // self.size)


class Brain:
    """The Gomocup protocol around a ``Seed004Player``."""

    def __init__(self, out: TextIO = sys.stdout, as_written: bool = False) -> None:
        self.out = out
        self.as_written = as_written
        self.size = 0
        self.cells: list[int] = []
        self.timeout_turn_ms = 5000
        self.time_left_ms: int | None = None
        self.board_lines: list[tuple[int, int, int]] | None = None

    def send(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def budget(self) -> float:
        seconds = 0.8 * self.timeout_turn_ms / 1000
        if self.time_left_ms is not None and self.time_left_ms > 0:
            seconds = min(seconds, self.time_left_ms / 1000 / 15)
        return max(0.05, seconds)

    def think_and_play(self) -> None:
        own = 1
        player = Seed004Player(self.size, self.budget(), as_written=self.as_written)
        # Our stones are 1 and the opponent's 2 in the brain's own view.
        x, y = player.choose(self.cells, own)
        self.cells[y * self.size + x] = own
        self.send(f"{x},{y}")

    def parse_point(self, text: str) -> int:
        parts = text.split(",")
        if len(parts) < 2:
            raise ValueError(f"cannot read a point from {text!r}")
        x, y = int(parts[0]), int(parts[1])
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ValueError(f"{x},{y} is off the board")
        return y * self.size + x

    def handle(self, line: str) -> bool:
        """Handle one command line; returns False on END."""
        if self.board_lines is not None:
            if line.upper() == "DONE":
                self.cells = [0] * (self.size * self.size)
                for x, y, who in self.board_lines:
                    self.cells[y * self.size + x] = 1 if who == 1 else 2
                self.board_lines = None
                self.think_and_play()
                return True
            parts = line.split(",")
            try:
                x, y, who = int(parts[0]), int(parts[1]), int(parts[2])
            except (ValueError, IndexError):
                self.send(f"ERROR cannot read board line {line!r}")
                return True
            self.board_lines.append((x, y, who))
            return True
        command, _, rest = line.partition(" ")
        command = command.upper()
        rest = rest.strip()
        try:
            if command == "START":
                size = int(rest)
                if not 5 <= size <= 40:
                    self.send(f"ERROR unsupported board size {size}")
                    return True
                self.size = size
                self.cells = [0] * (size * size)
                self.send("OK")
            elif command == "RESTART":
                self.cells = [0] * (self.size * self.size)
                self.send("OK")
            elif command == "INFO":
                key, _, value = rest.partition(" ")
                if key == "timeout_turn" and value.strip().lstrip("-").isdigit():
                    self.timeout_turn_ms = int(value) if int(value) > 0 else 5000
                elif key == "time_left" and value.strip().lstrip("-").isdigit():
                    self.time_left_ms = int(value)
            elif command == "BEGIN":
                self.need_board()
                self.think_and_play()
            elif command == "TURN":
                self.need_board()
                index = self.parse_point(rest)
                if self.cells[index]:
                    self.send(f"ERROR {rest} is occupied")
                    return True
                self.cells[index] = 2
                self.think_and_play()
            elif command == "BOARD":
                self.need_board()
                self.board_lines = []
            elif command == "TAKEBACK":
                self.need_board()
                index = self.parse_point(rest)
                self.cells[index] = 0
                self.send("OK")
            elif command == "ABOUT":
                self.send(
                    'name="seed004", version="1.0", author="Gomoku project", '
                    'country="-", comment="UCT with random playouts and threat overrides"'
                )
            elif command == "END":
                return False
            elif command:
                self.send(f"UNKNOWN command {command}")
        except ValueError as error:
            self.send(f"ERROR {error}")
        return True

    def need_board(self) -> None:
        if not self.size:
            raise ValueError("no board yet: send START first")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    unknown = [arg for arg in args if arg != "--as-written"]
    if unknown:
        print(f"usage: seed004_brain.py [--as-written] (not {' '.join(unknown)})", file=sys.stderr)
        return 2
    brain = Brain(as_written="--as-written" in args)
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        if not brain.handle(line):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
