"""The ``gomoku`` console script: ``serve``, ``pbrain``, ``bench``, ``match``, ``spsa``,
``worker`` and ``puzzles``.

Each subcommand imports its module lazily so ``gomoku pbrain`` starts without loading the
web stack."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="gomoku", description="Gomoku web app and engine.")
    parser.add_argument(
        "command",
        choices=["serve", "pbrain", "bench", "match", "spsa", "worker", "puzzles"],
        help="serve: run the web app; pbrain: Gomocup brain on stdio; bench: engine "
        "figures; match: play two brains; spsa: tune the search's numbers by self-play; "
        "worker: queue worker for multi-process mode; "
        "puzzles: mine puzzles (puzzles mine --help)",
    )
    if not args or args[0] in ("-h", "--help"):
        parser.print_help()
        return 0 if args else 2
    command, rest = args[0], args[1:]
    parser.parse_args([command])
    run: Callable[[list[str]], int | None]
    if command == "serve":
        # gevent makes the standard library's blocking calls cooperative; it has to do so
        # before anything imports them (the server runs every connection as a greenlet).
        from gevent import monkey

        monkey.patch_all()
        from webapp.server import main as run
    elif command == "pbrain":
        from engine.protocol.pbrain import main as run
    elif command == "bench":
        from engine.tools.bench import main as run
    elif command == "match":
        from engine.tools.match import main as run
    elif command == "spsa":
        from engine.tools.spsa import main as run
    elif command == "puzzles":
        from webapp.puzzles.command import main as run
    else:
        from webapp.scale.worker import main as run
    return int(run(rest) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
