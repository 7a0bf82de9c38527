"""``gomoku puzzles mine [--games-from-db] [--selfplay N] [--out FILE]``: the engine's
miner (``engine.tools.puzzles.command``) fed with the site's finished games. With
``--out`` the puzzles go to that JSON file (the starter set is made this way); without
it they are added to the site's database (``DATABASE_URL`` or the instance's SQLite)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from engine.tools.puzzles.command import build_parser, run
from engine.tools.puzzles.miner import GameRecord

if TYPE_CHECKING:
    from webapp.puzzles.repo import PuzzleRepo


def _repo() -> PuzzleRepo:
    """The puzzle tables of the database ``gomoku serve`` would use."""
    from webapp.app import _default_instance
    from webapp.puzzles.repo import PuzzleRepo
    from webapp.runtime import database_url
    from webapp.storage.store import Store

    instance = os.environ.get("GOMOKU_INSTANCE")
    folder = Path(instance).resolve() if instance else _default_instance()
    folder.mkdir(parents=True, exist_ok=True)
    # The store makes the site's tables, so a database that never served still works.
    return PuzzleRepo(Store(database_url(folder)).engine)


def _web_options(mine: argparse.ArgumentParser) -> None:
    mine.add_argument("--games-from-db", action="store_true", help="mine the site's finished games")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser(_web_options).parse_args(argv)
    if not args.games_from_db and args.selfplay <= 0:
        print("nothing to mine: give --games-from-db and/or --selfplay N", file=sys.stderr)
        return 2
    repo = _repo() if args.games_from_db or args.out is None else None
    games: list[GameRecord] = []
    seen: set[str] = set()
    if repo is not None:
        if args.out is None:
            seen = repo.keys()
        if args.games_from_db:
            games = repo.finished_games()
            print(f"{len(games)} finished games in the database")
    report = run(args, games, seen)
    if args.out is None and repo is not None:
        added = repo.add(report.puzzles)
        print(f"added {added} puzzles to the database")
    return 0
