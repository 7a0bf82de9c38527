"""``gomoku puzzles mine``: plays self-play games and/or reads given games, mines them
for puzzles (``miner``) and writes the new ones as a JSON file, printing what it did and
how long it took. The web app adds ``--games-from-db`` (its finished games) and stores
the puzzles in its database (``webapp.puzzles.command``); the engine never sees the web
side. ``read_puzzles``/``write_puzzles`` are the file format's reader and writer."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from engine.tools.openings import load_openings
from engine.tools.puzzles.miner import GameRecord, PuzzleMiner
from engine.tools.puzzles.puzzle import Goal, Puzzle
from engine.tools.puzzles.selfplay import SelfPlay, self_play

FORMAT_VERSION = 1


def build_parser(
    extend: Callable[[argparse.ArgumentParser], None] | None = None,
) -> argparse.ArgumentParser:
    """The command's parser; ``extend`` may add options to ``mine``."""
    parser = argparse.ArgumentParser(
        prog="gomoku puzzles", description="Mine puzzles from games, proven by the engine."
    )
    sub = parser.add_subparsers(dest="action", required=True)
    mine = sub.add_parser("mine", help="mine puzzles from self-play and/or stored games")
    mine.add_argument("--selfplay", type=int, default=0, metavar="N", help="self-play N games")
    mine.add_argument("--out", type=Path, help="write the puzzles found to this JSON file")
    mine.add_argument(
        "--openings", type=Path, help="Gomocup offset-format openings to start self-play from"
    )
    mine.add_argument("--nodes", type=int, default=SelfPlay.nodes, help="self-play nodes a move")
    mine.add_argument("--noise", type=int, default=SelfPlay.noise, help="self-play noise")
    mine.add_argument("--seed", type=int, default=SelfPlay.seed, help="self-play seed")
    mine.add_argument("--limit", type=int, default=0, help="keep at most this many puzzles")
    if extend is not None:
        extend(mine)
    return parser


@dataclass
class MiningReport:
    """What a mining run did: games, positions looked at, puzzles found, seconds spent."""

    games: int = 0
    positions: int = 0
    puzzles: list[Puzzle] = field(default_factory=list)
    play_seconds: float = 0.0
    mine_seconds: float = 0.0

    def summary(self) -> str:
        wins = [p for p in self.puzzles if p.goal is Goal.WIN]
        vcf = sum(1 for p in wins if p.kind.value == "vcf")
        defend = len(self.puzzles) - len(wins)
        return (
            f"{self.games} games, {self.positions} positions: {len(self.puzzles)} puzzles "
            f"({vcf} win by VCF, {len(wins) - vcf} win by VCT, {defend} defence); "
            f"playing {self.play_seconds:.1f} s, mining {self.mine_seconds:.1f} s"
        )


def mine(
    games: Iterable[GameRecord], miner: PuzzleMiner, log: TextIO | None = None
) -> MiningReport:
    """Mine ``games`` one by one (they may be played lazily: the time spent producing
    each counts as playing time)."""
    report = MiningReport()
    iterator = iter(games)
    while True:
        start = time.perf_counter()
        game = next(iterator, None)
        report.play_seconds += time.perf_counter() - start
        if game is None:
            break
        start = time.perf_counter()
        found = miner.mine(game)
        report.mine_seconds += time.perf_counter() - start
        report.games += 1
        report.puzzles.extend(found)
        if log is not None:
            print(
                f"game {report.games}: {len(game.moves)} moves, {len(found)} puzzles "
                f"(total {len(report.puzzles)})",
                file=log,
                flush=True,
            )
    report.positions = miner.positions
    return report


def selfplay_games(args: argparse.Namespace) -> Iterable[GameRecord]:
    openings = load_openings(args.openings) if args.openings else []
    options = SelfPlay(nodes=args.nodes, noise=args.noise, seed=args.seed)
    return self_play(args.selfplay, openings, options)


def write_puzzles(path: Path, puzzles: Sequence[Puzzle]) -> None:
    """Write ``puzzles`` as the puzzle file format (sorted by difficulty)."""
    ordered = sorted(puzzles, key=lambda p: (p.difficulty, p.key))
    data: dict[str, Any] = {
        "version": FORMAT_VERSION,
        "puzzles": [p.to_json() for p in ordered],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def read_puzzles(text: str) -> list[Puzzle]:
    """The puzzles of a puzzle file's text; raises ``ValueError`` on a malformed file."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        raise ValueError("not a puzzle file of a known version")
    return [Puzzle.from_json(item) for item in data["puzzles"]]


def spread(puzzles: Sequence[Puzzle], limit: int) -> list[Puzzle]:
    """At most ``limit`` puzzles, spread evenly over the difficulties."""
    if limit <= 0 or len(puzzles) <= limit:
        return list(puzzles)
    ordered = sorted(puzzles, key=lambda p: p.difficulty)
    step = len(ordered) / limit
    return [ordered[int(k * step)] for k in range(limit)]


def run(
    args: argparse.Namespace,
    extra_games: Iterable[GameRecord] = (),
    seen: set[str] | None = None,
    log: TextIO | None = None,
) -> MiningReport:
    """Mine ``extra_games`` then ``--selfplay`` games; write ``--out`` if given."""
    log = log or sys.stdout

    def games() -> Iterable[GameRecord]:
        yield from extra_games
        if args.selfplay > 0:
            yield from selfplay_games(args)

    report = mine(games(), PuzzleMiner(seen=seen), log)
    report.puzzles = spread(report.puzzles, args.limit)
    if args.out is not None:
        write_puzzles(args.out, report.puzzles)
        print(f"wrote {len(report.puzzles)} puzzles to {args.out}", file=log)
    print(report.summary(), file=log)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.selfplay <= 0:
        print("nothing to mine: give --selfplay N", file=sys.stderr)
        return 2
    run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
