"""Deeper labels for training games: search their positions again with a larger budget.

Training games (``engine.tools.tune_data``) are played fast, so the score kept with each
move comes from a shallow search. This tool replays each game and searches every
``--every``-th position after the random opening again with ``--nodes`` nodes, keeping the
new score in place of the old; the positions it skips get ``UNLABELLED``, which
``engine.tools.tune`` leaves out. The output has the same format as the input::

    python -m engine.tools.tune_label games-a.npz --nodes 100000 --every 2 \\
        --workers 2 --out labelled-a.npz

The games' moves and results are kept as they are, so a fit can still blend the result
with the new scores (``tune --mix``)."""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from engine.game.board import Board
from engine.search.limit import Limit
from engine.search.searcher import Searcher
from engine.tools.tune_data import GameRecord, load_games, save_games

UNLABELLED = 1 << 30  # a score outside every real score: the position is not a sample


def label_game(game: GameRecord, nodes: int, every: int, seed: int = 0) -> GameRecord:
    """``game`` with every ``every``-th searched position scored again by a search of
    ``nodes`` nodes, and the positions in between marked ``UNLABELLED``."""
    board = Board(15)
    searcher = Searcher(tt_mb=16, seed=seed)
    scores: list[int] = []
    for ply, move in enumerate(game.moves):
        if ply < game.opening:
            scores.append(game.scores[ply])
        elif (ply - game.opening) % every == 0:
            scores.append(searcher.search(board, Limit(nodes=nodes)).score)
        else:
            scores.append(UNLABELLED)
        board.push(move)
    return GameRecord(list(game.moves), scores, game.opening, game.result)


def _label_many(job: tuple[list[GameRecord], int, int, int]) -> list[GameRecord]:
    games, nodes, every, seed = job
    return [label_game(game, nodes, every, seed + n) for n, game in enumerate(games)]


def label(games: list[GameRecord], nodes: int, every: int, workers: int) -> list[GameRecord]:
    """All of ``games`` labelled again, in order, over ``workers`` processes."""
    if workers <= 1:
        return _label_many((games, nodes, every, 0))
    chunks = [(games[k::workers], nodes, every, k * 1_000_003) for k in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_label_many, chunks))
    labelled: list[GameRecord] = [games[0]] * len(games)
    for k, part in enumerate(parts):
        labelled[k::workers] = part
    return labelled


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.tune_label", description=__doc__)
    parser.add_argument("games", type=Path, help="a file from engine.tools.tune_data")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--nodes", type=int, default=100_000, help="search budget a position")
    parser.add_argument("--every", type=int, default=1, help="label one position in this many")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--limit", type=int, help="label only the first this many games")
    args = parser.parse_args(argv)
    if args.nodes < 1 or args.every < 1 or args.workers < 1:
        parser.error("--nodes, --every and --workers must be at least 1")
    games = load_games(args.games)
    if args.limit is not None:
        games = games[: max(args.limit, 0)]
    if not games:
        parser.error(f"{args.games} holds no games to label")
    start = time.perf_counter()
    labelled = label(games, args.nodes, args.every, args.workers)
    save_games(args.out, labelled)
    count = sum(1 for g in labelled for s in g.scores[g.opening :] if s != UNLABELLED)
    print(
        f"{len(labelled)} games, {count} positions searched at {args.nodes} nodes, "
        f"{time.perf_counter() - start:.0f} s -> {args.out}",
        file=sys.stdout,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
