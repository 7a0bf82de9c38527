"""The Gomocup brain (``gomoku pbrain``) driven as a real subprocess over its pipes.

Covers the commands a manager sends, the answers' legality, MESSAGE progress lines, ERROR
for bad input without dying, renju, and that no answer overruns the turn limit."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from engine import Board, Limit, Rule, Searcher, SearchResult
from engine.protocol.gomocup import BrainProcess
from engine.protocol.info import parse_info
from engine.protocol.pbrain import Brain, ProtocolError

BRAIN = [sys.executable, "-m", "webapp.cli", "pbrain"]
START_TIMEOUT = 120.0  # the first START may compile the search core
MOVE_TIMEOUT = 5.0
LIMIT_MS = 500


@contextmanager
def started_brain(*options: str, name: str = "ours") -> Iterator[BrainProcess]:
    """Our brain started with ``options`` for a 15x15 game of ``LIMIT_MS`` a move."""
    process = BrainProcess([*BRAIN, *options], name=name)
    try:
        process.start(15, timeout=START_TIMEOUT)
        process.info("timeout_turn", LIMIT_MS)
        yield process
    finally:
        process.kill()


@pytest.fixture
def brain() -> Iterator[BrainProcess]:
    with started_brain() as process:
        yield process


def ask(process: BrainProcess, *lines: str, timeout: float = MOVE_TIMEOUT) -> str:
    for line in lines:
        process.send(line)
    return process.read_reply(timeout)


def parse_move(reply: str, board: Board) -> tuple[int, int]:
    x, y = (int(v) for v in reply.split(","))
    board.check_move((x, y))  # raises if the answer is not a legal move here
    return (x, y)


def test_about_names_the_engine(brain: BrainProcess) -> None:
    about = brain.about()
    assert about["name"] == "gomoku"
    assert {"version", "author", "country"} <= about.keys()


def test_begin_on_empty_board_plays_the_centre(brain: BrainProcess) -> None:
    assert brain.begin(MOVE_TIMEOUT) == (7, 7)


def test_turns_get_legal_answers_and_progress_messages(brain: BrainProcess) -> None:
    board = Board()
    board.push(brain.begin(MOVE_TIMEOUT))
    for opponent in [(8, 8), (9, 9), (6, 10)]:
        board.push(opponent)
        x, y = brain.turn(opponent, MOVE_TIMEOUT)
        board.push(parse_move(f"{x},{y}", board))
    messages = [m for m in brain.messages if m.startswith("depth ")]
    assert messages, "the brain printed no MESSAGE depth lines while thinking"
    words = messages[-1].split()
    assert words[0::2][:5] == ["depth", "score", "nodes", "nps", "pv"]


def test_board_as_first_command_after_start(brain: BrainProcess) -> None:
    # White to move: black has one stone more.
    moves = [(7, 7), (8, 8), (8, 7), (6, 7), (9, 7)]
    board = Board.from_moves(moves)
    reply = brain.board(moves, MOVE_TIMEOUT)
    board.check_move(reply)
    # Blocking the open four-to-be is not asserted; only that a legal move came back and
    # the brain can keep playing from there.
    board.push(reply)
    board.push(next(p for p in [(10, 7), (5, 7), (10, 10)] if board.stone_at(p) is None))
    board.check_move(brain.turn(board.peek() or (0, 0), MOVE_TIMEOUT))


def test_board_with_black_to_move_and_info_after_start() -> None:
    process = BrainProcess(BRAIN)
    try:
        process.start(15, timeout=START_TIMEOUT)
        for key, value in [
            ("timeout_match", 60000),
            ("time_left", 60000),
            ("max_memory", 83886080),
            ("game_type", 1),
            ("rule", 1),
            ("evaluate", "7,7"),
            ("folder", "/tmp"),
        ]:
            process.info(key, value)
        moves = [(7, 7), (8, 8), (7, 8), (8, 7)]
        board = Board.from_moves(moves, rule="standard")
        board.check_move(process.board(moves, MOVE_TIMEOUT))
    finally:
        process.kill()


def test_bad_commands_get_error_and_the_brain_keeps_going(brain: BrainProcess) -> None:
    board = Board()
    board.push(brain.begin(MOVE_TIMEOUT))
    assert ask(brain, "GARBAGE 1 2 3").startswith("UNKNOWN ")
    assert ask(brain, "START 99").startswith("ERROR")
    assert ask(brain, "TURN 15,3").startswith("ERROR")
    assert ask(brain, "TURN -1,3").startswith("ERROR")
    assert ask(brain, "TURN seven").startswith("ERROR")
    assert ask(brain, "TURN 7,7").startswith("ERROR")  # occupied by the brain's own move
    assert ask(brain, "INFO timeout_turn soon").startswith("ERROR")
    assert ask(brain, "TAKEBACK 3,3").startswith("ERROR")  # not the last move
    # Two own stones and no opponent stone: it cannot be the brain's turn.
    assert ask(brain, "BOARD", "1,1,1", "2,2,1", "DONE").startswith("ERROR")
    assert ask(brain, "BOARD", "1,1,7", "DONE").startswith("ERROR")
    # None of that changed the game: the brain still answers the next move legally.
    board.push((8, 8))
    board.check_move(brain.turn((8, 8), MOVE_TIMEOUT))


def test_game_over_is_an_error_and_changes_nothing(brain: BrainProcess) -> None:
    # Black (the manager) has an open four; the brain (white) can block one end only.
    black = [(3, 3), (4, 3), (5, 3), (6, 3)]
    white = [(3, 10), (5, 10), (7, 10)]
    moves = [black[0], white[0], black[1], white[1], black[2], white[2], black[3]]
    board = Board.from_moves(moves)
    board.push(brain.board(moves, MOVE_TIMEOUT))
    end = next(p for p in [(2, 3), (7, 3)] if board.stone_at(p) is None)
    assert ask(brain, f"TURN {end[0]},{end[1]}").startswith("ERROR")  # five: the game is over
    # The refused move was not kept: another move is answered legally.
    board.push((14, 14))
    board.check_move(brain.turn((14, 14), MOVE_TIMEOUT))
    # A position that already holds a five is refused too.
    five = [*black, (7, 3)]
    others = [*white, (0, 0)]
    lines = [f"{x},{y},2" for x, y in five] + [f"{x},{y},1" for x, y in others]
    assert ask(brain, "BOARD", *lines, "DONE").startswith("ERROR")


def test_takeback_undoes_the_last_move(brain: BrainProcess) -> None:
    first = brain.begin(MOVE_TIMEOUT)
    brain.takeback(first)
    # The board is empty again, so BEGIN is accepted and plays the centre.
    assert brain.begin(MOVE_TIMEOUT) == (7, 7)


def test_restart_and_other_sizes(brain: BrainProcess) -> None:
    brain.begin(MOVE_TIMEOUT)
    brain.restart()
    assert brain.begin(MOVE_TIMEOUT) == (7, 7)
    brain.start(20)
    assert brain.begin(MOVE_TIMEOUT) == (10, 10)
    assert ask(brain, "START 6").startswith("ERROR")


def test_renju_rule_is_accepted_and_black_avoids_forbidden_points(brain: BrainProcess) -> None:
    brain.info("rule", 4)
    # Black to move with a double-three point at (7, 7).
    moves = [(6, 7), (0, 0), (8, 7), (0, 14), (7, 6), (14, 0), (7, 8), (14, 14)]
    board = Board.from_moves(moves, rule=Rule.RENJU)
    assert board.is_forbidden((7, 7))
    reply = brain.board(moves, MOVE_TIMEOUT)
    board.check_move(reply)
    assert not board.is_forbidden(reply)


def test_end_exits_cleanly() -> None:
    process = subprocess.Popen(BRAIN, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out, _ = process.communicate("START 15\nABOUT\nEND\n", timeout=START_TIMEOUT)
    assert process.returncode == 0
    assert out.splitlines()[0] == "OK"
    assert out.splitlines()[1].startswith('name="gomoku"')


def test_no_answer_overruns_the_turn_limit() -> None:
    """Two brains play each other at 500 ms a move; every answer must beat the limit as
    measured by the manager, pipes and process wake-up included."""
    limit_ms = LIMIT_MS
    black, white = BrainProcess(BRAIN, name="black"), BrainProcess(BRAIN, name="white")
    times: list[float] = []
    try:
        for process in (black, white):
            process.start(15, timeout=START_TIMEOUT)
            process.info("timeout_turn", limit_ms)
        board = Board()
        board.push(black.begin(limit_ms / 1000))
        board.push(white.board(board.moves, limit_ms / 1000))
        times += [black.last_move_time, white.last_move_time]
        players = [black, white]
        while board.move_count < 30 and not board.is_game_over():
            mover = players[board.move_count % 2]
            last = board.peek()
            assert last is not None
            start = time.perf_counter()
            move = mover.turn(last, limit_ms / 1000)  # raises BrainTimeoutError if late
            times.append(time.perf_counter() - start)
            board.push(move)
    finally:
        black.kill()
        white.kill()
    print(f"max answer time {max(times) * 1000:.0f} ms over {len(times)} moves")
    assert len(times) >= 10
    assert max(times) < limit_ms / 1000


def test_the_brain_spends_its_move_budget(brain: BrainProcess) -> None:
    """A move has its turn to itself: the brain searches until its budget (the turn less a
    safety margin) is used, rather than stopping after an iteration that ends early."""
    board = Board.from_moves([(7, 7), (8, 8), (6, 8)])
    move = brain.board(board.moves, MOVE_TIMEOUT)
    board.check_move(move)
    assert 0.3 <= brain.last_move_time < LIMIT_MS / 1000


class SlowSearcher(Searcher):
    """A searcher that overruns its time limit by far, as a stuck search would."""

    def search(self, board: Board, limit: Limit) -> SearchResult:
        time.sleep(1.5)
        return super().search(board, Limit(depth=1))


def test_the_brain_answers_in_time_even_if_the_search_overruns() -> None:
    lines: list[str] = []
    brain = Brain(lines.append, searcher_factory=SlowSearcher)
    for command in ("START 15", "INFO timeout_turn 300", "BEGIN"):
        brain.handle(command, [], time.perf_counter())
    received = time.perf_counter()
    brain.handle("TURN 8,8", [], received)
    elapsed = time.perf_counter() - received
    assert elapsed < 0.3
    move = tuple(int(v) for v in lines[-1].split(","))
    Board.from_moves([(7, 7), (8, 8)]).check_move(move)


class ClearCountingSlowSearcher(SlowSearcher):
    clears = 0

    def clear(self) -> None:
        ClearCountingSlowSearcher.clears += 1
        super().clear()


def test_a_new_game_drops_a_searcher_an_overrun_search_still_uses() -> None:
    """Clearing zeroes the tables in place, so a searcher whose stopped search is still
    winding down is dropped at RESTART, not cleared under it; once the search has ended,
    a new game clears the searcher and keeps it."""
    lines: list[str] = []
    brain = Brain(lines.append, searcher_factory=ClearCountingSlowSearcher)
    for command in ("START 15", "INFO timeout_turn 300", "BEGIN"):
        brain.handle(command, [], time.perf_counter())
    brain.handle("TURN 8,8", [], time.perf_counter())
    first = brain.searcher
    pending = brain._pending
    assert first is not None and pending is not None
    pending.join()
    ClearCountingSlowSearcher.clears = 0
    brain.handle("RESTART", [], time.perf_counter())
    assert lines[-1] == "OK"
    assert brain.searcher is first and ClearCountingSlowSearcher.clears == 1

    brain.handle("BEGIN", [], time.perf_counter())
    brain.handle("TURN 8,8", [], time.perf_counter())
    assert brain._pending is not None and brain._pending.is_alive()
    brain.handle("RESTART", [], time.perf_counter())
    assert lines[-1] == "OK"
    assert brain.searcher is None and ClearCountingSlowSearcher.clears == 1
    brain.handle("BEGIN", [], time.perf_counter())
    assert lines[-1] == "7,7"


def test_mcts_player_answers_legally_and_names_itself() -> None:
    process = BrainProcess([*BRAIN, "--player", "mcts"], name="mcts")
    try:
        process.start(15, timeout=START_TIMEOUT)
        process.info("timeout_turn", 300)
        about = process.about()
        assert about["name"] == "gomoku-mcts"
        assert "mcts" in about["comment"]
        board = Board()
        board.push(process.begin(MOVE_TIMEOUT))
        # The player searches by sampling, so its replies vary: the opponent takes the first
        # of these cells that is still empty.
        candidates = [(8, 8), (6, 8), (8, 6), (6, 6), (9, 9)]
        for _ in range(2):
            opponent = next(c for c in candidates if board.stone_at(c) is None)
            board.push(opponent)
            board.push(parse_move(",".join(map(str, process.turn(opponent, MOVE_TIMEOUT))), board))
        assert any(m.startswith("depth ") for m in process.messages)
    finally:
        process.kill()


def test_unknown_player_is_refused() -> None:
    done = subprocess.run(
        [*BRAIN, "--player", "alphabeta"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "invalid choice" in done.stderr


def test_a_brain_with_two_search_threads_answers_legally_in_time() -> None:
    with started_brain("--threads", "2", name="ours-2") as process:
        board = Board.from_moves([(7, 7), (8, 8), (6, 8)])
        answers = 0
        while answers < 4 and not board.is_game_over():
            move = process.board(board.moves, MOVE_TIMEOUT)
            board.check_move(move)
            assert process.last_move_time < LIMIT_MS / 1000
            board.push(move)
            answers += 1
            if not board.is_game_over():
                board.push(board.legal_moves()[0])
        assert answers >= 2
        assert any(m.startswith("depth ") for m in process.messages)


def test_info_thread_num_sets_the_search_threads() -> None:
    lines: list[str] = []
    brain = Brain(lines.append)
    for command in ("START 15", "INFO thread_num 2", "INFO timeout_turn 300", "TURN 7,7"):
        brain.handle(command, [], time.perf_counter())
    assert brain.threads == 2
    searcher = brain.searcher
    assert isinstance(searcher, Searcher) and searcher.threads == 2
    brain.handle("INFO thread_num 0", [], time.perf_counter())
    assert brain.threads == 1


def test_bad_thread_counts_are_refused_on_the_command_line() -> None:
    done = subprocess.run(
        [*BRAIN, "--threads", "0"], input="", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "--threads" in done.stderr


def test_the_defence_factor_reaches_the_negamax_searcher() -> None:
    lines: list[str] = []
    brain = Brain(lines.append, defence=1.5)
    for command in ("START 15", "INFO timeout_turn 300", "TURN 7,7"):
        brain.handle(command, [], time.perf_counter())
    searcher = brain.searcher
    assert isinstance(searcher, Searcher) and searcher.defence == 1.5
    assert Brain(lines.append).defence == 1.0
    with pytest.raises(ValueError, match="defence"):
        Brain(lines.append, defence=0.0)


def test_a_cautious_brain_answers_legally_over_the_protocol() -> None:
    with started_brain("--defence", "1.5", name="ours-cautious") as process:
        board = Board.from_moves([(7, 7), (8, 8), (6, 8)])
        move = process.board(board.moves, MOVE_TIMEOUT)
        board.check_move(move)


@pytest.mark.parametrize("value", ["0", "6", "much"])
def test_bad_defence_factors_are_refused_on_the_command_line(value: str) -> None:
    done = subprocess.run(
        [*BRAIN, "--defence", value], input="", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "--defence" in done.stderr


def _fixed_budget_answer(*caps: str) -> tuple[list[str], int]:
    """A fresh brain's reply to 7,7 with the given INFO caps and a long turn: its
    MESSAGE lines and the most nodes any of them reports."""
    lines: list[str] = []
    brain = Brain(lines.append)
    for command in ("START 15", "INFO timeout_turn 10000", *caps, "TURN 7,7"):
        brain.handle(command, [], time.perf_counter())
    reports = [parse_info(line.removeprefix("MESSAGE "), 15) for line in lines]
    nodes = max(report.nodes for report in reports if report is not None)
    return lines, nodes


def test_info_max_node_caps_each_move_and_makes_it_repeatable() -> None:
    first, nodes = _fixed_budget_answer("INFO max_node 3000")
    second, _ = _fixed_budget_answer("INFO max_node 3000")
    assert 0 < nodes <= 3000
    # Limited by nodes, the search is the same node for node: same lines, same move.
    assert [line for line in first if "nps" not in line] == [
        line for line in second if "nps" not in line
    ]
    assert first[-1] == second[-1]
    shallow, _ = _fixed_budget_answer("INFO max_depth 3")
    depths = [parse_info(line.removeprefix("MESSAGE "), 15) for line in shallow]
    assert max(info.depth for info in depths if info is not None) <= 3


def test_info_caps_refuse_bad_values_and_zero_lifts_them() -> None:
    lines: list[str] = []
    brain = Brain(lines.append)
    brain.handle("INFO max_node 5000", [], time.perf_counter())
    brain.handle("INFO max_depth 7", [], time.perf_counter())
    assert (brain.max_nodes, brain.max_depth) == (5000, 7)
    for bad in ("INFO max_node -1", "INFO max_node lots", "INFO max_depth -3"):
        with pytest.raises(ProtocolError):
            brain.handle(bad, [], time.perf_counter())
    assert (brain.max_nodes, brain.max_depth) == (5000, 7)
    brain.handle("INFO max_node 0", [], time.perf_counter())
    brain.handle("INFO max_depth 0", [], time.perf_counter())
    assert (brain.max_nodes, brain.max_depth) == (None, None)
