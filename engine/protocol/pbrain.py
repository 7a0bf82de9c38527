"""The brain side of the Gomocup ("piskvork") protocol: our engine on stdin/stdout.

``gomoku pbrain`` runs ``main``: it reads manager commands (START, RESTART, INFO, BEGIN,
TURN, BOARD, SWAP2BOARD, TAKEBACK, ABOUT, END), keeps the position in an ``engine.Board``,
budgets time with ``engine.timecontrol.TimeControl`` and asks a searcher for moves, printing
its progress as ``MESSAGE`` lines. ``--player negamax`` (the default) uses
``engine.search.Searcher``, ``--player mcts`` ``engine.mcts.MctsSearcher``; ABOUT names the
player. SWAP2BOARD's opening and colour choices come from ``engine.search.swap2`` with a
negamax searcher. ``INFO max_node N`` and ``INFO max_depth D`` (Yixin-board extensions; 0
lifts them) cap each move's search by nodes or depth within the turn time, so a brain can be
held to a fixed budget whatever the machine's speed. Bad commands get ``ERROR <reason>``,
commands it does not know ``UNKNOWN <reason>``, and change nothing. The manager side of the
protocol is ``engine.protocol.gomocup``."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol, TextIO

from engine.game.board import Board
from engine.game.color import Color
from engine.game.errors import GomokuError
from engine.game.points import MAX_SIZE, MIN_SIZE, Point
from engine.game.rules import Rule
from engine.kernel.search_params import PARAM_NAMES, check_params, parse_params
from engine.kernel.tables import rule_tables
from engine.protocol.info import format_info
from engine.search.heap import settle_heap
from engine.search.helpers import MAX_THREADS
from engine.search.limit import Limit
from engine.search.mcts import MctsSearcher
from engine.search.result import IterationInfo, SearchResult
from engine.search.searcher import (
    DEFAULT_DEFENCE,
    MAX_DEFENCE,
    MIN_DEFENCE,
    Searcher,
    check_defence,
)
from engine.search.swap2 import (
    STONE_COUNTS,
    Swap2Action,
    Swap2Decision,
    decide,
    fallback,
    searches_needed,
)
from engine.search.timecontrol import TimeControl

PLAYERS = ("negamax", "mcts")
# Commands followed by lines up to DONE.
BLOCK_COMMANDS = ("BOARD", "SWAP2BOARD")
DEFAULT_PLAYER = "negamax"


def about_line(player: str) -> str:
    """The ABOUT answer; the name says which of our players this brain is."""
    name = "gomoku" if player == DEFAULT_PLAYER else f"gomoku-{player}"
    return (
        f'name="{name}", version="0.1.0", author="Gomoku project", country="CN", '
        f'comment="{player} player"'
    )


ABOUT = about_line(DEFAULT_PLAYER)
# If the searcher has not returned this long after its budget, the brain answers without
# it: the reply must beat the manager's clock even if a search overruns its limit.
WATCHDOG_GRACE_S = 0.03


class ProtocolError(ValueError):
    """A command the brain cannot accept: reported as ``ERROR <reason>``."""


class UnknownCommand(ProtocolError):
    """A command the protocol does not have: reported as ``UNKNOWN <reason>``."""


class EndOfSession(Exception):
    """END was received: the brain should exit."""


def _parse_point(text: str, size: int) -> Point:
    parts = text.split(",")
    if len(parts) != 2:
        raise ProtocolError(f"expected a point x,y, got {text!r}")
    try:
        x, y = int(parts[0]), int(parts[1])
    except ValueError:
        raise ProtocolError(f"expected a point x,y of integers, got {text!r}") from None
    if not (0 <= x < size and 0 <= y < size):
        raise ProtocolError(f"point {x},{y} is off the {size}x{size} board")
    return (x, y)


def _parse_int(key: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ProtocolError(f"INFO {key} needs an integer, got {text!r}") from None


def _parse_cap(key: str, text: str) -> int | None:
    """A per-move cap from INFO: a positive count, or None for 0 (no cap)."""
    value = _parse_int(key, text)
    if value < 0:
        raise ProtocolError(f"INFO {key} must be 0 (no cap) or positive, got {value}")
    return value or None


class BrainSearcher(Protocol):
    """What the brain needs of a searcher: both ``Searcher`` and ``MctsSearcher`` fit."""

    def search(self, board: Board, limit: Limit) -> SearchResult: ...

    def stop(self) -> None: ...

    def clear(self) -> None: ...


def mcts_factory(
    *, tt_mb: int, on_iteration: Callable[[IterationInfo], None] | None = None
) -> MctsSearcher:
    """An ``MctsSearcher`` whose tree gets the memory the negamax table would have."""
    return MctsSearcher(tree_mb=max(1, tt_mb), on_iteration=on_iteration)


SEARCHER_FACTORIES: dict[str, Callable[..., BrainSearcher]] = {
    "negamax": Searcher,
    "mcts": mcts_factory,
}


class Brain:
    """The protocol state machine; ``handle`` takes one command and its BOARD block."""

    def __init__(
        self,
        write: Callable[[str], None],
        searcher_factory: Callable[..., BrainSearcher] | None = None,
        player: str = DEFAULT_PLAYER,
        threads: int = 1,
        defence: float = DEFAULT_DEFENCE,
        params: Mapping[str, int] | None = None,
    ) -> None:
        if player not in SEARCHER_FACTORIES:
            raise ValueError(f"unknown player {player!r}: choose one of {', '.join(PLAYERS)}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be between 1 and {MAX_THREADS}")
        check_defence(defence)
        # Search threads of the negamax player (lazy SMP); the MCTS player uses one.
        self.threads = threads
        # The negamax player's defence factor (``Searcher``); the MCTS player has none.
        self.defence = defence
        # Per-move caps from INFO max_node / max_depth, within the turn time (None: none).
        self.max_nodes: int | None = None
        self.max_depth: int | None = None
        # The negamax player's search parameters by name (``kernel.search_params``).
        check_params(params or {})
        self.params = dict(params or {})
        self.write = write
        self.player = player
        self.searcher_factory = searcher_factory or SEARCHER_FACTORIES[player]
        self.board: Board | None = None
        self.rule = Rule.FREESTYLE
        self.time = TimeControl()
        self.searcher: BrainSearcher | None = None
        self._searcher_tt_mb = 0
        self._searcher_threads = 1
        self._warmed = False
        self._write_lock = threading.Lock()
        self._reporting = False
        self._last_iteration: Point | None = None
        self._pending: threading.Thread | None = None
        self._swap2_searcher: Searcher | None = None

    # -- helpers ----------------------------------------------------------------------

    def _require_board(self) -> Board:
        if self.board is None:
            raise ProtocolError("no game: send START first")
        return self.board

    def _get_searcher(self) -> BrainSearcher:
        tt_mb = self.time.tt_megabytes()
        threads = self.threads if self.player == "negamax" else 1
        if (
            self.searcher is None
            or tt_mb != self._searcher_tt_mb
            or threads != self._searcher_threads
        ):
            extra: dict[str, object] = {"threads": threads} if threads > 1 else {}
            if self.player == "negamax" and self.defence != DEFAULT_DEFENCE:
                extra["defence"] = self.defence
            if self.player == "negamax" and self.params:
                extra["params"] = self.params
            self.searcher = self.searcher_factory(tt_mb=tt_mb, on_iteration=self._report, **extra)
            self._searcher_tt_mb = tt_mb
            self._searcher_threads = threads
        return self.searcher

    def _report(self, info: IterationInfo) -> None:
        size = self.board.size if self.board is not None else 15
        with self._write_lock:
            if not self._reporting:
                return  # the answer has gone: a late search must stay quiet
            self._last_iteration = info.move
            self.write(f"MESSAGE {format_info(info, size)}")

    def warm_up(self) -> None:
        """Run a tiny search once so loading and compiling the core is not charged to the
        first real move (numba caches the compiled code on disk after the first run)."""
        if self._warmed:
            return
        board = Board(15, self.rule)
        for move in ((7, 7), (8, 8), (8, 7)):
            board.push(move)
        if self.player == "mcts":
            MctsSearcher(tree_mb=1, seed=1).search(board, Limit(nodes=50, time=5.0))
        else:
            Searcher(tt_mb=1).search(board, Limit(depth=2, time=5.0))
        settle_heap()
        self._warmed = True

    def _think(self, received: float) -> Point:
        """Choose and play our move; ``received`` is when the command arrived."""
        board = self._require_board()
        if board.is_game_over():
            raise ProtocolError("the game is over: there is no move to make")
        if board.move_count == 0:
            move = (board.size // 2, board.size // 2)
        else:
            budget = self.time.move_budget(board.move_count // 2)
            move = self._search_before(board, received + budget)
            if not self._playable(board, move):
                move = self._fallback_move(board)
        board.push(move)
        if self.time.left_ms is not None:
            spent = int((time.perf_counter() - received) * 1000)
            self.time.left_ms = max(0, self.time.left_ms - spent)
        return move

    def _search_before(self, board: Board, soft_deadline: float) -> Point:
        """Search in a thread with ``Limit(time=...)`` up to ``soft_deadline``; if the
        searcher has not returned a little after it, answer with the best move of its last
        finished iteration anyway and let it wind down in the background."""
        if self._pending is not None:
            # The previous search was told to stop; it must not share the searcher.
            self._pending.join(timeout=max(0.0, soft_deadline - time.perf_counter()) / 2)
            if self._pending.is_alive():
                self.searcher = None
            self._pending = None
        searcher = self._get_searcher()
        budget = max(soft_deadline - time.perf_counter(), 0.01)
        outcome: list[Point] = []
        done = threading.Event()
        position = board.copy()
        limit = Limit(time=budget, spend_all=True, nodes=self.max_nodes, depth=self.max_depth)

        def run() -> None:
            try:
                outcome.append(searcher.search(position, limit).move)
            finally:
                done.set()

        self._last_iteration = None
        self._reporting = True
        worker = threading.Thread(target=run, name="search", daemon=True)
        worker.start()
        hard_deadline = soft_deadline + WATCHDOG_GRACE_S
        finished = done.wait(timeout=max(0.0, hard_deadline - time.perf_counter()))
        with self._write_lock:
            self._reporting = False
        if finished and outcome:
            return outcome[0]
        if not finished:
            searcher.stop()
            self._pending = worker
        if self._last_iteration is not None:
            return self._last_iteration
        return self._fallback_move(board)

    @staticmethod
    def _playable(board: Board, move: Point) -> bool:
        try:
            board.check_move(move)
        except GomokuError:
            return False
        return not (board.turn is Color.BLACK and board.is_forbidden(move))

    @staticmethod
    def _fallback_move(board: Board) -> Point:
        """A legal move next to the last one, for a search that returned none."""
        last = board.peek() or (board.size // 2, board.size // 2)
        return min(board.legal_moves(), key=lambda p: max(abs(p[0] - last[0]), abs(p[1] - last[1])))

    # -- commands ---------------------------------------------------------------------

    def handle(self, line: str, block: list[str], received: float) -> None:
        words = line.split()
        command, args = words[0].upper(), words[1:]
        handler = getattr(self, f"cmd_{command.lower()}", None)
        if handler is None:
            raise UnknownCommand(f"command {words[0]!r} is not part of this brain's protocol")
        if command in BLOCK_COMMANDS:
            handler(args, block, received)
        else:
            handler(args, received)

    def _new_game_memory(self) -> None:
        """Forget the last game's search memory. A search that overran its turn may
        still be winding down in the searcher, and clearing zeroes its tables in place
        under it: that searcher is dropped instead, and the next move makes a new one."""
        if self.searcher is None:
            return
        if self._pending is not None and self._pending.is_alive():
            self.searcher = None
            self._pending = None
            return
        self.searcher.clear()

    def cmd_start(self, args: list[str], received: float) -> None:
        if len(args) != 1 or not args[0].isdigit():
            raise ProtocolError("START needs one board size, e.g. START 15")
        size = int(args[0])
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"unsupported size {size}: use {MIN_SIZE} to {MAX_SIZE}")
        self.warm_up()
        # The threat searches' tables depend on the size: build them now, not in move one.
        rule_tables(self.rule.value, size)
        self.board = Board(size, self.rule)
        self._new_game_memory()
        self.write("OK")

    def cmd_restart(self, args: list[str], received: float) -> None:
        board = self._require_board()
        self.board = Board(board.size, self.rule)
        self._new_game_memory()
        self.write("OK")

    def cmd_info(self, args: list[str], received: float) -> None:
        if not args:
            raise ProtocolError("INFO needs a key and a value")
        key, value = args[0].lower(), " ".join(args[1:])
        if key == "timeout_turn":
            self.time.turn_ms = max(0, _parse_int(key, value))
        elif key == "timeout_match":
            self.time.match_ms = max(0, _parse_int(key, value))
        elif key == "time_left":
            self.time.left_ms = max(0, _parse_int(key, value))
        elif key == "max_memory":
            self.time.max_memory = max(0, _parse_int(key, value))
        elif key == "max_node":
            self.max_nodes = _parse_cap(key, value)
        elif key == "max_depth":
            self.max_depth = _parse_cap(key, value)
        elif key == "thread_num":
            # Not in the Gomocup protocol itself; managers in the Yixin tradition send it.
            self.threads = min(max(1, _parse_int(key, value)), MAX_THREADS)
        elif key == "rule":
            rule = Rule.from_gomocup(_parse_int(key, value))
            if self.board is not None and rule is not self.board.rule:
                try:
                    board = Board.from_moves(self.board.moves, size=self.board.size, rule=rule)
                except GomokuError as error:
                    raise ProtocolError(f"cannot switch to {rule.value}: {error}") from None
                self.board = board
            self.rule = rule
        # game_type, evaluate, folder and unknown keys carry nothing this brain uses; the
        # protocol asks brains to ignore what they do not need.

    def cmd_begin(self, args: list[str], received: float) -> None:
        board = self._require_board()
        if board.move_count:
            raise ProtocolError("BEGIN needs an empty board: use TURN or BOARD mid-game")
        self._answer(self._think(received))

    def cmd_turn(self, args: list[str], received: float) -> None:
        board = self._require_board()
        if len(args) != 1:
            raise ProtocolError("TURN needs one point, e.g. TURN 7,7")
        point = _parse_point(args[0], board.size)
        board.push(point)  # raises without changing anything if illegal
        try:
            self._answer(self._think(received))
        except BaseException:
            board.pop()
            raise

    def cmd_board(self, args: list[str], block: list[str], received: float) -> None:
        board = self._require_board()
        own: list[Point] = []
        theirs: list[Point] = []
        for entry in block:
            parts = entry.replace(" ", "").split(",")
            if len(parts) != 3:
                raise ProtocolError(f"BOARD line {entry!r} is not x,y,field")
            point = _parse_point(",".join(parts[:2]), board.size)
            if parts[2] == "1":
                own.append(point)
            elif parts[2] == "2":
                theirs.append(point)
            elif parts[2] == "3":
                raise ProtocolError("continuous games (field 3) are not supported")
            else:
                raise ProtocolError(f"BOARD field must be 1 or 2, got {parts[2]!r}")
        # We are to move: equal counts mean we are black, one more of theirs means white.
        if len(own) == len(theirs):
            black, white = own, theirs
        elif len(theirs) == len(own) + 1:
            black, white = theirs, own
        else:
            raise ProtocolError(
                f"BOARD has {len(own)} own and {len(theirs)} opponent stones: it cannot be our turn"
            )
        moves: list[Point] = []
        for index in range(len(black)):
            moves.append(black[index])
            if index < len(white):
                moves.append(white[index])
        try:
            position = Board.from_moves(moves, size=board.size, rule=self.rule)
        except GomokuError as error:
            raise ProtocolError(f"BOARD is not a playable position: {error}") from None
        self.board = position
        try:
            self._answer(self._think(received))
        except BaseException:
            self.board = board
            raise

    def cmd_swap2board(self, args: list[str], block: list[str], received: float) -> None:
        """Swap2: place three stones on an empty board, or after three or five stones answer
        SWAP (we take black) or the stones we place (one: we take white and move)."""
        board = self._require_board()
        if args:
            raise ProtocolError("SWAP2BOARD takes no arguments: the stones follow, then DONE")
        if len(block) not in STONE_COUNTS:
            raise ProtocolError(f"SWAP2BOARD needs 0, 3 or 5 stones, got {len(block)}")
        stones = [_parse_point(entry.replace(" ", ""), board.size) for entry in block]
        try:
            position = Board.from_moves(stones, size=board.size, rule=self.rule)
        except GomokuError as error:
            raise ProtocolError(f"SWAP2BOARD is not a playable position: {error}") from None
        decision = self._decide_swap2(position, received + self.time.move_budget(0))
        if decision.action is Swap2Action.SWAP:
            self.write("SWAP")
        else:
            self.write(" ".join(f"{x},{y}" for x, y in decision.stones))

    def _decide_swap2(self, position: Board, soft_deadline: float) -> Swap2Decision:
        """``swap2.decide`` in a thread, as ``_search_before`` searches: if it has not
        returned a little after the deadline, the answer is one that needs no search."""
        if self._swap2_searcher is None:
            self._swap2_searcher = Searcher(tt_mb=min(16, self.time.tt_megabytes()))
        searcher = self._swap2_searcher
        left = max(soft_deadline - time.perf_counter(), 0.02)
        limit = Limit(time=left / searches_needed(position.move_count))
        outcome: list[Swap2Decision] = []

        def run() -> None:
            outcome.append(decide(position, searcher, limit, deadline=soft_deadline))

        worker = threading.Thread(target=run, name="swap2", daemon=True)
        worker.start()
        worker.join(timeout=max(0.0, soft_deadline + WATCHDOG_GRACE_S - time.perf_counter()))
        if outcome:
            return outcome[0]
        searcher.stop()
        self._swap2_searcher = None  # the late search still holds that one
        return fallback(position)

    def cmd_takeback(self, args: list[str], received: float) -> None:
        board = self._require_board()
        if len(args) != 1:
            raise ProtocolError("TAKEBACK needs one point, e.g. TAKEBACK 7,7")
        point = _parse_point(args[0], board.size)
        if board.peek() != point:
            raise ProtocolError(f"TAKEBACK {args[0]} is not the last move played")
        board.pop()
        self.write("OK")

    def cmd_about(self, args: list[str], received: float) -> None:
        self.write(about_line(self.player))

    def cmd_end(self, args: list[str], received: float) -> None:
        raise EndOfSession

    def _answer(self, move: Point) -> None:
        self.write(f"{move[0]},{move[1]}")


def _read_block(lines: Iterable[str]) -> list[str]:
    """The lines after BOARD up to DONE (not included)."""
    block: list[str] = []
    for raw in lines:
        line = raw.strip()
        if line.upper() == "DONE":
            return block
        if line:
            block.append(line)
    raise ProtocolError("a block of lines was not closed by DONE")


def serve(
    stdin: TextIO,
    stdout: TextIO,
    player: str = DEFAULT_PLAYER,
    threads: int = 1,
    defence: float = DEFAULT_DEFENCE,
    params: Mapping[str, int] | None = None,
) -> int:
    """Run the protocol loop until END or the end of input."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    brain = Brain(write, player=player, threads=threads, defence=defence, params=params)
    lines = iter(stdin.readline, "")
    for raw in lines:
        received = time.perf_counter()
        line = raw.strip()
        if not line:
            continue
        try:
            block = _read_block(lines) if line.split()[0].upper() in BLOCK_COMMANDS else []
            brain.handle(line, block, received)
        except EndOfSession:
            return 0
        except UnknownCommand as error:
            write(f"UNKNOWN {error}")
        except (ProtocolError, GomokuError) as error:
            write(f"ERROR {error}")
        except Exception as error:  # a bug must not take the brain out of the game
            write(f"ERROR internal error: {type(error).__name__}: {error}")
    return 0


def _defence_option(text: str) -> float:
    """``--defence``'s value: a number the searcher takes as its defence factor."""
    try:
        return check_defence(float(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a defence factor between {MIN_DEFENCE} and {MAX_DEFENCE}"
        ) from error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gomoku pbrain", description="Speak the Gomocup protocol on stdin/stdout."
    )
    parser.add_argument(
        "--player",
        choices=PLAYERS,
        default=DEFAULT_PLAYER,
        help="which searcher chooses the moves (default: %(default)s)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="search threads of the negamax player (default: %(default)s; "
        "INFO thread_num sets it too)",
    )
    parser.add_argument(
        "--defence",
        type=_defence_option,
        default=DEFAULT_DEFENCE,
        help="how much the negamax player weighs the opponent's prospects against its own "
        f"(default: %(default)s; {MIN_DEFENCE} to {MAX_DEFENCE}, above 1 plays safer)",
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a search margin, count or threat term of the negamax player, for tuning "
        f"runs (repeatable; names: {', '.join(PARAM_NAMES)})",
    )
    try:
        args = parser.parse_args(argv or [])
    except SystemExit as leaving:
        return int(leaving.code or 0)
    try:
        params = parse_params(args.param)
    except ValueError as error:
        print(f"gomoku pbrain: --param: {error}", file=sys.stderr)
        return 2
    if params and args.player != "negamax":
        print("gomoku pbrain: --param sets the negamax player's numbers only", file=sys.stderr)
        return 2
    if not 1 <= args.threads <= MAX_THREADS:
        print(f"gomoku pbrain: --threads must be between 1 and {MAX_THREADS}", file=sys.stderr)
        return 2
    return serve(
        sys.stdin,
        sys.stdout,
        player=args.player,
        threads=args.threads,
        defence=args.defence,
        params=params,
    )


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
