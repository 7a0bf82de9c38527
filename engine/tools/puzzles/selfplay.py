"""Games of the engine against itself, to mine for puzzles: each starts from an opening
(or the centre stone) and a few seeded random moves near the stones, so that no two games
repeat, then both sides play the negamax ``Searcher`` at a node limit with a little
evaluation noise. Neighbours: ``miner`` mines what this plays; ``command`` runs both."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.game.board import Board
from engine.game.points import Point
from engine.search.limit import Limit
from engine.search.searcher import Searcher
from engine.tools.puzzles.miner import GameRecord

MAX_PLIES = 150


@dataclass(frozen=True)
class SelfPlay:
    """How self-play games are played: nodes per move, the evaluation noise, how many
    random moves follow the opening, and the board."""

    nodes: int = 20_000
    noise: int = 30
    random_moves: int = 2
    size: int = 15
    rule: str = "freestyle"
    seed: int = 1


def _random_near(board: Board, rng: random.Random) -> Point:
    """A random empty point at most two steps from a stone (the centre on an empty board)."""
    if board.is_empty():
        return (board.size // 2, board.size // 2)
    stones = board.moves
    near = [
        p
        for p in board.legal_moves()
        if any(max(abs(p[0] - s[0]), abs(p[1] - s[1])) <= 2 for s in stones)
    ]
    return rng.choice(near or board.legal_moves())


def play_game(index: int, opening: Sequence[Point], options: SelfPlay) -> GameRecord:
    """Game number ``index``: the opening, seeded random moves, then the engine."""
    rng = random.Random(options.seed * 1_000_003 + index)
    board = Board.from_moves(opening, size=options.size, rule=options.rule)
    for _ in range(options.random_moves):
        if board.is_game_over():
            break
        board.push(_random_near(board, rng))
    searchers = [
        Searcher(noise=options.noise, seed=rng.getrandbits(30), tt_mb=16) for _ in range(2)
    ]
    limit = Limit(nodes=options.nodes)
    while not board.is_game_over() and board.move_count < MAX_PLIES:
        searcher = searchers[board.move_count % 2]
        board.push(searcher.search(board, limit).move)
    return GameRecord(options.size, options.rule, board.moves, source="selfplay")


def self_play(
    count: int, openings: Sequence[Sequence[Point]], options: SelfPlay
) -> Iterator[GameRecord]:
    """``count`` games, cycling through ``openings`` (an empty one when there are none)."""
    starts: Sequence[Sequence[Point]] = openings or [()]
    for index in range(count):
        yield play_game(index, starts[index % len(starts)], options)
