"""Finds puzzles in one finished game, proving each with ``engine.search.threats``.

A win puzzle is a position where the side to move has a forced win by fours (VCF) or by
threats (VCT) whose first move is unique among the moves that could start one (every
other four and open three fails within the limits), at least ``min_plies`` long. A
defence puzzle is a position where the opponent threatens such a win and exactly one
move near the stones holds. Decisive games are walked back from the end over the
winner's positions while a forced win remains (the earliest of those are the puzzles,
and the loser's position before them is tried as a defence); every position is also
checked for a missed win by fours. Mirror images count once (``symmetry``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.game.board import Board
from engine.game.errors import GomokuError
from engine.game.points import Point
from engine.search.threats import ThreatKind, ThreatLimits, ThreatSearch, ThreatWin
from engine.tools.puzzles.puzzle import Goal, Puzzle, difficulty
from engine.tools.puzzles.symmetry import position_key

MIN_PLY = 6  # stones on the board before a position is worth a puzzle
MIN_WIN_PLIES = 5  # a five or an open four in one move is no puzzle
MIN_THREAT_PLIES = 3  # a four must be blocked: no puzzle either
PUZZLES_PER_GAME = 2
MINING_LIMITS = ThreatLimits(vcf_fours=16, vct_depth=5, vct_nodes=20_000)


@dataclass(frozen=True)
class MinerLimits:
    """The threat searches' limits for finding wins and for proving uniqueness; the most
    win puzzles taken from one game's final attack."""

    search: ThreatLimits = MINING_LIMITS
    min_win_plies: int = MIN_WIN_PLIES
    per_game: int = PUZZLES_PER_GAME
    missed_wins: bool = True


@dataclass(frozen=True)
class GameRecord:
    """A finished game to mine: its size, rule and moves, and where it came from."""

    size: int
    rule: str
    moves: list[Point]
    source: str = "selfplay"


class PuzzleMiner:
    """Mines games one at a time and remembers the keys it has found, so the same
    position (or a mirror image) is not returned twice; ``seen`` can be pre-filled with
    the keys of puzzles already stored."""

    def __init__(self, limits: MinerLimits | None = None, seen: set[str] | None = None) -> None:
        self.limits = limits or MinerLimits()
        self.search = ThreatSearch(self.limits.search)
        self.seen: set[str] = set() if seen is None else seen
        self.positions = 0  # positions looked at

    def mine(self, game: GameRecord) -> list[Puzzle]:
        """The new puzzles of one game (none for a game whose moves are not legal)."""
        try:
            final = Board.from_moves(game.moves, size=game.size, rule=game.rule)
        except GomokuError:
            return []
        found: list[Puzzle] = []
        run = self._final_attack(game, final)
        taken = 0  # win puzzles of the final attack, known ones included
        for ply in run:
            if taken >= self.limits.per_game:
                break
            puzzle = self.win_puzzle(game, ply)
            if puzzle is not None:
                taken += 1
                self._keep(found, puzzle)
        if run and run[0] - 1 >= MIN_PLY:
            self._keep(found, self.defence_puzzle(game, run[0] - 1))
        if self.limits.missed_wins:
            fours_only = ThreatSearch(
                ThreatLimits(self.limits.search.vcf_fours, vct=False),
            )
            for ply in range(MIN_PLY, len(game.moves)):
                if ply in run:
                    continue
                self.positions += 1
                board = self._board(game, ply)
                if fours_only.find_win(board, line=False) is not None:
                    self._keep(found, self.win_puzzle(game, ply))
        return found

    def _keep(self, found: list[Puzzle], puzzle: Puzzle | None) -> None:
        # The miner's threat search keeps its failure tables from position to position,
        # so within the same node limits it can reach further than a fresh one: a puzzle
        # is kept only if a fresh search (the one the site and ``verify`` use) proves it.
        if (
            puzzle is not None
            and puzzle.key not in self.seen
            and verify(puzzle, self.limits.search)
        ):
            self.seen.add(puzzle.key)
            found.append(puzzle)

    @staticmethod
    def _board(game: GameRecord, ply: int) -> Board:
        return Board.from_moves(game.moves[:ply], size=game.size, rule=game.rule)

    def _final_attack(self, game: GameRecord, final: Board) -> list[int]:
        """The plies (earliest first) of the winner's positions, back from the end, from
        which a forced win was found without a break."""
        outcome = final.outcome()
        if outcome is None or outcome.winner is None:
            return []
        plies: list[int] = []
        ply = len(game.moves) - 1
        while ply >= MIN_PLY:
            self.positions += 1
            if self.search.find_win(self._board(game, ply), line=False) is None:
                break
            plies.append(ply)
            ply -= 2
        plies.reverse()
        return plies

    def win_puzzle(self, game: GameRecord, ply: int) -> Puzzle | None:
        """The win puzzle at ``ply`` (stones on the board), if its winning move is unique
        and its line long enough."""
        board = self._board(game, ply)
        before = self.search.nodes
        wins = self.search.winning_moves(board, most=2)
        if len(wins) != 1:
            return None
        win = self.search.move_wins(board, wins[0].move)
        if win is None or win.plies < self.limits.min_win_plies:
            return None
        if not _line_wins(board, win):
            return None
        nodes = self.search.nodes - before
        return _puzzle(game, ply, Goal.WIN, win.kind, win.line, win.plies, nodes)

    def defence_puzzle(self, game: GameRecord, ply: int) -> Puzzle | None:
        """The defence puzzle at ``ply``: the opponent threatens a forced win, and one move
        alone holds."""
        board = self._board(game, ply)
        if board.is_game_over():
            return None
        before = self.search.nodes
        threat = self.search.threatens(board)
        if threat is None or threat.plies < MIN_THREAT_PLIES:
            return None
        holding = self.search.holding_moves(board, most=2)
        if len(holding) != 1:
            return None
        nodes = self.search.nodes - before
        return _puzzle(game, ply, Goal.DEFEND, threat.kind, holding, threat.plies, nodes)


def _puzzle(
    game: GameRecord,
    ply: int,
    goal: Goal,
    kind: ThreatKind,
    solution: list[Point],
    plies: int,
    nodes: int,
) -> Puzzle:
    """The puzzle at ``ply`` of ``game``: its position, goal, forced line and difficulty."""
    moves = list(game.moves[:ply])
    return Puzzle(
        key=position_key(moves, game.size, game.rule, goal.value),
        size=game.size,
        rule=game.rule,
        moves=moves,
        goal=goal,
        kind=kind,
        solution=solution,
        plies=plies,
        nodes=nodes,
        source=game.source,
        difficulty=difficulty(goal, kind, plies, nodes),
    )


def _line_wins(board: Board, win: ThreatWin) -> bool:
    """Whether the forced line, played out, ends in the side to move's five."""
    trial = board.copy()
    attacker = board.turn
    try:
        for move in win.line:
            trial.push(move)
    except GomokuError:
        return False
    outcome = trial.outcome()
    return outcome is not None and outcome.winner is attacker


def verify(puzzle: Puzzle, limits: ThreatLimits | None = None) -> bool:
    """Whether the engine proves ``puzzle`` again: a win puzzle's first move wins, its line
    ends in a five and no other threat move wins; a defence puzzle's move is the only one
    that holds."""
    search = ThreatSearch(limits or MinerLimits().search)
    try:
        board = puzzle.board()
    except GomokuError:
        return False
    if puzzle.goal is Goal.WIN:
        wins = search.winning_moves(board, most=2)
        if [w.move for w in wins] != puzzle.solution[:1]:
            return False
        win = search.move_wins(board, puzzle.solution[0])
        return win is not None and _line_wins(board, win)
    return (
        search.threatens(board) is not None
        and search.holding_moves(board, most=2) == puzzle.solution[:1]
    )


def mine_games(games: Sequence[GameRecord], miner: PuzzleMiner | None = None) -> list[Puzzle]:
    """Every new puzzle of ``games``, in order."""
    miner = miner or PuzzleMiner()
    found: list[Puzzle] = []
    for game in games:
        found.extend(miner.mine(game))
    return found
