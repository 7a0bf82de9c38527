"""Training games for the evaluation: self-play between search budgets ("levels"), with
every position's search score and the game's result kept for ``engine.tools.tune``.

A game starts from a short random opening near the centre (or a line of an offset
opening file, then a few random moves), so that games differ; each side then searches a
fixed number of nodes a move, drawn from ``--nodes`` per game, so results do not depend
on the machine's load. A game ends with a five, a full board or ``--max-moves`` (a
draw). Games run in ``--workers`` processes; the record is one ``.npz`` file::

    python -m engine.tools.tune_data --games 1200 --workers 2 --out games.npz

Arrays: ``moves`` (int16[total, 2], every game's moves in order), ``game_start``
(int64[games + 1], where each game's moves begin), ``opening`` (plies of random opening
in each game), ``result`` (+1 black won, -1 white won, 0 draw), ``score`` (int32[total]:
the mover's search score before each move, 0 for opening moves)."""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.game.board import Board
from engine.game.points import Point
from engine.search.limit import Limit
from engine.search.searcher import Searcher
from engine.tools.openings import parse_opening

DEFAULT_NODES = (1500, 5000, 15000)


@dataclass(frozen=True)
class GameRecord:
    moves: list[Point]
    scores: list[int]
    opening: int
    result: int  # +1 black won, -1 white won, 0 draw


@dataclass(frozen=True)
class Recipe:
    """How the games are made: node budgets to draw from, random plies, a move cap, the
    board size, and openings (offset lines) to start from."""

    nodes: tuple[int, ...] = DEFAULT_NODES
    random_plies: tuple[int, int] = (2, 5)
    max_moves: int = 150
    size: int = 15
    openings: tuple[str, ...] = ()


def _random_near(board: Board, rng: random.Random, reach: int) -> Point:
    """A random empty point within ``reach`` of a stone (or of the centre)."""
    centre = board.size // 2
    anchors = list(board.moves) or [(centre, centre)]
    while True:
        ax, ay = rng.choice(anchors)
        x, y = ax + rng.randint(-reach, reach), ay + rng.randint(-reach, reach)
        if 0 <= x < board.size and 0 <= y < board.size and board.cell(x, y) == 0:
            return (x, y)


def play_game(recipe: Recipe, seed: int) -> GameRecord:
    """One training game, repeatable from ``seed``."""
    rng = random.Random(seed)
    board = Board(recipe.size)
    scores: list[int] = []
    if recipe.openings:
        for move in parse_opening(rng.choice(recipe.openings), recipe.size):
            board.push(move)
            scores.append(0)
    for _ in range(rng.randint(*recipe.random_plies)):
        board.push(_random_near(board, rng, 2))
        scores.append(0)
        if board.is_game_over():
            break
    opening = len(board.moves)
    budgets = (rng.choice(recipe.nodes), rng.choice(recipe.nodes))
    searchers = (Searcher(tt_mb=4, seed=seed), Searcher(tt_mb=4, seed=seed + 1))
    while not board.is_game_over() and len(board.moves) < recipe.max_moves:
        side = len(board.moves) % 2
        result = searchers[side].search(board, Limit(nodes=budgets[side]))
        scores.append(result.score)
        board.push(result.move)
    outcome = board.outcome()
    winner = int(outcome.winner) if outcome is not None and outcome.winner is not None else 0
    result_value = 1 if winner == 1 else -1 if winner == 2 else 0
    return GameRecord(list(board.moves), scores, opening, result_value)


def _play_many(job: tuple[Recipe, list[int]]) -> list[GameRecord]:
    recipe, seeds = job
    return [play_game(recipe, seed) for seed in seeds]


def save_games(path: Path, games: list[GameRecord]) -> None:
    starts = np.zeros(len(games) + 1, dtype=np.int64)
    for n, game in enumerate(games):
        starts[n + 1] = starts[n] + len(game.moves)
    moves = np.array([m for game in games for m in game.moves], dtype=np.int16).reshape(-1, 2)
    np.savez_compressed(
        path,
        moves=moves,
        game_start=starts,
        opening=np.array([g.opening for g in games], dtype=np.int32),
        result=np.array([g.result for g in games], dtype=np.int8),
        score=np.array([s for g in games for s in g.scores], dtype=np.int32),
    )


def load_games(path: Path) -> list[GameRecord]:
    with np.load(path) as data:
        moves, starts = data["moves"], data["game_start"]
        opening, result, score = data["opening"], data["result"], data["score"]
    games = []
    for n in range(len(opening)):
        lo, hi = int(starts[n]), int(starts[n + 1])
        games.append(
            GameRecord(
                [(int(x), int(y)) for x, y in moves[lo:hi]],
                [int(s) for s in score[lo:hi]],
                int(opening[n]),
                int(result[n]),
            )
        )
    return games


def generate(recipe: Recipe, games: int, workers: int, seed: int) -> list[GameRecord]:
    seeds = [seed * 1_000_003 + n for n in range(games)]
    chunks = [seeds[k::workers] for k in range(workers)]
    if workers <= 1:
        return _play_many((recipe, seeds))
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_play_many, [(recipe, chunk) for chunk in chunks]))
    return [game for part in parts for game in part]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.tune_data", description=__doc__)
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--nodes", default=",".join(str(n) for n in DEFAULT_NODES), help="budgets, a,b,c"
    )
    parser.add_argument("--max-moves", type=int, default=150)
    parser.add_argument("--openings", type=Path, help="offset opening file to start from")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    try:
        nodes = tuple(int(n) for n in args.nodes.split(","))
    except ValueError:
        parser.error(f"--nodes must be whole numbers separated by commas, not {args.nodes!r}")
    openings: tuple[str, ...] = ()
    if args.openings is not None:
        text = args.openings.read_text()
        lines = (line.strip() for line in text.splitlines())
        openings = tuple(line for line in lines if line and not line.startswith("#"))
    recipe = Recipe(nodes=nodes, max_moves=args.max_moves, openings=openings)
    start = time.perf_counter()
    games = generate(recipe, args.games, args.workers, args.seed)
    save_games(args.out, games)
    positions = sum(len(g.moves) - g.opening for g in games)
    black = sum(g.result == 1 for g in games)
    white = sum(g.result == -1 for g in games)
    print(
        f"{len(games)} games ({black} black wins, {white} white wins, "
        f"{len(games) - black - white} draws), {positions} searched positions, "
        f"{time.perf_counter() - start:.0f} s -> {args.out}",
        file=sys.stdout,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
