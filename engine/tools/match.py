"""The match runner: ``gomoku match`` plays two Gomocup brains against each other.

Games come in pairs: each opening (``engine.tools.openings``) is played twice, engine1
black then white, and the openings are cycled when more pairs are asked for. Each game is
refereed by ``engine.tools.referee``. With ``--concurrency N`` up to N pairs are played at
once, each by its own pair of brain processes. With ``--sprt`` the match is a sequential
test (``engine.tools.sprt``): after every pair the log-likelihood ratio is printed, and the
match stops itself when the test accepts H0 or H1 (or at ``--games``). An engine is any
brain command, or ``rev:<git-rev>`` for this project's brain at another revision
(``engine.tools.revision``); ``--info1``/``--info2 KEY=VALUE`` send an engine extra INFO
lines, such as ``max_node`` for a brain that takes a node budget a move. Prints one line
per game, then W-L-D, score and Elo (``engine.tools.elo``) with the move-time figures of
both engines; ``--json`` prints the same as one object."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO

from engine.game.board import Board
from engine.game.points import Point
from engine.game.rules import Rule
from engine.protocol.gomocup import BrainError
from engine.tools.elo import elo_estimate
from engine.tools.openings import load_openings
from engine.tools.referee import (
    DEFAULT_TOLERANCE_MS,
    GameRecord,
    MatchSettings,
    Player,
    our_brain_command,
    play_game,
)
from engine.tools.revision import REVISION_PREFIX, RevisionError, revision_command
from engine.tools.sprt import Decision, Sprt, SprtSettings

__all__ = [
    "GameRecord",
    "MatchSettings",
    "Player",
    "format_summary",
    "main",
    "play_game",
    "run_match",
]

# Under SPRT without --games, a safety cap on the number of games.
SPRT_MAX_GAMES = 4000


@dataclass
class _Schedule:
    """Hands out pairs to the workers and collects their games, under one lock."""

    openings: list[list[Point]]
    games: int
    sprt: Sprt | None
    report: bool
    stream: TextIO
    names: dict[str, str]
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_pair: int = 0
    records: list[GameRecord] = field(default_factory=list)
    stopped: bool = False

    def take(self) -> int | None:
        with self.lock:
            if self.stopped or 2 * self.next_pair >= self.games:
                return None
            pair = self.next_pair
            self.next_pair += 1
            return pair

    def stop(self) -> None:
        with self.lock:
            self.stopped = True

    def game_done(self, record: GameRecord) -> None:
        with self.lock:
            self.records.append(record)
            if self.report:
                total = self.games if self.sprt is None else 0
                _print_game(record, self.names, total, self.stream)

    def pair_done(self, first: GameRecord, second: GameRecord) -> None:
        if self.sprt is None:
            return
        with self.lock:
            # The test decides at its first crossing: pairs still in flight then are
            # played and scored, but do not reopen or reverse the decision.
            if self.sprt.decision is not Decision.CONTINUE:
                return
            self.sprt.add_pair(first.score("engine1"), second.score("engine1"))
            if self.report:
                print(self.sprt.status(), file=self.stream, flush=True)
            if self.sprt.decision is not Decision.CONTINUE:
                self.stopped = True

    def single_done(self, record: GameRecord) -> None:
        if self.sprt is not None:
            with self.lock:
                if self.sprt.decision is Decision.CONTINUE:
                    self.sprt.add_game(record.score("engine1"))


def _play_pairs(
    schedule: _Schedule, engine1: Player, engine2: Player, settings: MatchSettings
) -> None:
    """One worker: take pairs until the schedule says stop, playing both games of each."""
    try:
        while (pair := schedule.take()) is not None:
            index = pair % len(schedule.openings)
            opening = schedule.openings[index]
            first = play_game(2 * pair + 1, index, opening, engine1, engine2, settings)
            schedule.game_done(first)
            if 2 * pair + 2 > schedule.games:
                schedule.single_done(first)
                break
            second = play_game(2 * pair + 2, index, opening, engine2, engine1, settings)
            schedule.game_done(second)
            schedule.pair_done(first, second)
    finally:
        engine1.close()
        engine2.close()


def run_match(
    engine1: Player,
    engine2: Player,
    openings: list[list[Point]],
    settings: MatchSettings,
    games: int | None = None,
    report: bool = True,
    out: TextIO | None = None,
    *,
    concurrency: int = 1,
    sprt: SprtSettings | None = None,
) -> dict[str, object]:
    """Play the match and return its summary as plain data.

    Without ``games`` every opening is played once with each colour, or, under ``sprt``,
    pairs continue (openings cycling) until the test decides."""
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    if games is None:
        games = SPRT_MAX_GAMES if sprt is not None else 2 * len(openings)
    test = Sprt(sprt) if sprt is not None else None
    names = {engine1.label: engine1.name, engine2.label: engine2.name}
    schedule = _Schedule(
        openings, games, test, report, out if out is not None else sys.stdout, names
    )
    started = time.perf_counter()
    workers = min(concurrency, max(1, (games + 1) // 2))
    sides = [(engine1, engine2)] + [(engine1.twin(), engine2.twin()) for _ in range(workers - 1)]
    threads = [
        threading.Thread(target=_play_pairs, args=(schedule, a, b, settings), daemon=True)
        for a, b in sides[1:]
    ]
    for thread in threads:
        thread.start()
    try:
        _play_pairs(schedule, *sides[0], settings)
        for thread in threads:
            thread.join()
    finally:
        schedule.stop()
        for thread in threads:
            thread.join()
        for twin1, twin2 in sides[1:]:
            engine1.absorb(twin1)
            engine2.absorb(twin2)
    records = sorted(schedule.records, key=lambda r: r.number)
    summary = _summary(engine1, engine2, records, settings, names, started)
    if test is not None:
        lower, upper = test.bounds
        summary["sprt"] = {
            "elo0": test.settings.elo0,
            "elo1": test.settings.elo1,
            "alpha": test.settings.alpha,
            "beta": test.settings.beta,
            "model": test.settings.model.value,
            "llr": round(test.llr, 3),
            "lower": round(lower, 3),
            "upper": round(upper, 3),
            "decision": test.decision.value,
            "pentanomial": test.pentanomial,
            "trinomial": test.trinomial,
        }
    return summary


def _summary(
    engine1: Player,
    engine2: Player,
    records: list[GameRecord],
    settings: MatchSettings,
    names: dict[str, str],
    started: float,
) -> dict[str, object]:
    wins = sum(1 for r in records if r.winner == engine1.label)
    losses = sum(1 for r in records if r.winner == engine2.label)
    draws = len(records) - wins - losses
    elo = elo_estimate(wins, losses, draws)
    return {
        "engine1": engine1.name,
        "engine2": engine2.name,
        "games": len(records),
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "score": round(elo.score, 4),
        "elo": round(elo.diff, 1),
        "elo_error": None if elo.bound or not elo.games else round(elo.error, 1),
        "elo_bound": elo.bound,
        "elo_text": str(elo),
        "time_ms": settings.time_ms,
        "tolerance_ms": settings.tolerance_ms,
        "move_times": {
            engine1.name: _time_figures(engine1.move_times),
            engine2.name: _time_figures(engine2.move_times),
        },
        "time_losses": {engine1.name: engine1.time_losses, engine2.name: engine2.time_losses},
        "elapsed_s": round(time.perf_counter() - started, 1),
        "records": [
            {
                **asdict(r),
                "black": names[r.black],
                "white": names[r.white],
                "winner": names[r.winner] if r.winner else None,
                "max_time": {names[k]: round(v, 4) for k, v in r.max_time.items()},
            }
            for r in records
        ],
    }


def _time_figures(times: list[float]) -> dict[str, float | int]:
    if not times:
        return {"moves": 0, "mean_s": 0.0, "p99_s": 0.0, "max_s": 0.0}
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "moves": len(times),
        "mean_s": round(sum(times) / len(times), 4),
        "p99_s": round(p99, 4),
        "max_s": round(ordered[-1], 4),
    }


def _print_game(record: GameRecord, names: dict[str, str], total: int, stream: TextIO) -> None:
    black, white = names[record.black], names[record.white]
    if record.winner is None:
        result = "1/2-1/2"
    else:
        result = "1-0" if record.winner == record.black else "0-1"
    times = ", ".join(f"{names[k]} max {v:.3f}s" for k, v in record.max_time.items())
    winner = names[record.winner] if record.winner else "draw"
    number = f"{record.number:>2}/{total}" if total else f"{record.number:>3}"
    print(
        f"game {number} opening {record.opening + 1:>2} "
        f"{black} (black) vs {white} (white): {result} {winner}, {record.reason}, "
        f"{len(record.moves)} stones [{times}]",
        file=stream,
        flush=True,
    )


def format_summary(summary: dict[str, object]) -> str:
    e1, e2 = summary["engine1"], summary["engine2"]
    times = summary["move_times"]
    assert isinstance(times, dict)
    lines = [
        f"{e1} vs {e2}: {summary['wins']}-{summary['losses']}-{summary['draws']} (W-L-D), "
        f"score {100 * float(summary['score']):.1f}%, Elo {summary['elo_text']} "  # type: ignore[arg-type]
        f"({summary['games']} games, {summary['time_ms']} ms/move, {summary['elapsed_s']} s)",
    ]
    for name, figures in times.items():
        lines.append(
            f"move time {name}: {figures['moves']} moves, mean {figures['mean_s']:.3f}s, "
            f"p99 {figures['p99_s']:.3f}s, max {figures['max_s']:.3f}s, "
            f"time losses {summary['time_losses'][name]}"  # type: ignore[index]
        )
    sprt = summary.get("sprt")
    if isinstance(sprt, dict):
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", "continue": "undecided"}
        lines.append(
            f"SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g} alpha={sprt['alpha']:g} "
            f"beta={sprt['beta']:g} ({sprt['model']}): LLR {sprt['llr']:+.2f} "
            f"({sprt['lower']:+.2f}, {sprt['upper']:+.2f}), pentanomial "
            f"{', '.join(str(c) for c in sprt['pentanomial'])}: {verdict[sprt['decision']]}"
        )
    return "\n".join(lines)


def _player_name(player: Player, spec: str | None) -> str:
    """A revision is named by its spec (``rev:main``); a brain by its ABOUT name."""
    if spec and spec.startswith(REVISION_PREFIX):
        return spec
    return _about_name(player)


def _about_name(player: Player) -> str:
    try:
        brain = player.launch()
        name = brain.about().get("name", "")
    except BrainError:
        player.discard()
        name = ""
    return name or Path(player.command[-1]).stem


def parse_info(items: list[str]) -> list[tuple[str, str]]:
    """``KEY=VALUE`` texts as INFO pairs; ``ValueError`` unless each key is a word and each
    value a single token (a line break or space would forge other protocol commands)."""
    pairs: list[tuple[str, str]] = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier() or not value or len(value.split()) != 1:
            raise ValueError(f"an INFO item must read KEY=VALUE with one word each, not {item!r}")
        if value != value.strip():
            raise ValueError(f"an INFO value cannot hold spaces or line breaks: {item!r}")
        pairs.append((key.lower(), value))
    return pairs


def _engine_command(spec: str | None) -> list[str]:
    if not spec:
        return our_brain_command()
    if spec.startswith(REVISION_PREFIX):
        return revision_command(spec)
    command = shlex.split(spec)
    if not command:
        raise ValueError("an engine command cannot be empty")
    return command


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="gomoku match", description="Play two Gomocup brains against each other."
    )
    parser.add_argument(
        "--engine1", help="brain command or rev:<git-rev> (default: this project's brain)"
    )
    parser.add_argument(
        "--engine2", help="brain command or rev:<git-rev> (default: this project's brain)"
    )
    parser.add_argument("--openings", help="offset-format openings file (default: empty board)")
    parser.add_argument("--time-ms", type=int, default=1000, help="time per move (ms)")
    parser.add_argument("--tolerance-ms", type=int, default=DEFAULT_TOLERANCE_MS)
    parser.add_argument("--games", type=int, help="play at most N games")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--rule", default="freestyle", help="freestyle, standard or renju")
    parser.add_argument("--names", nargs=2, metavar=("NAME1", "NAME2"))
    parser.add_argument("--max-moves", type=int, default=0, help="draw after this many stones")
    parser.add_argument("--memory-mb", type=int, default=0, help="INFO max_memory to send")
    for number in (1, 2):
        parser.add_argument(
            f"--info{number}",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help=f"an extra INFO line for engine {number}, e.g. max_node=32000 (repeatable)",
        )
    parser.add_argument(
        "--concurrency", type=int, default=1, help="game pairs played at once (default 1)"
    )
    parser.add_argument(
        "--sprt",
        nargs="*",
        metavar="KEY=VALUE",
        help="sequential test, e.g. elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=normalized]",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    try:
        rule = Rule.from_name(args.rule)
        Board(args.size, rule)
        if args.time_ms <= 0 or args.tolerance_ms < 0:
            raise ValueError("--time-ms must be positive and --tolerance-ms not negative")
        if args.games is not None and args.games < 1:
            raise ValueError("--games must be at least 1")
        if args.concurrency < 1:
            raise ValueError("--concurrency must be at least 1")
        sprt = SprtSettings.parse(args.sprt) if args.sprt is not None else None
        if args.openings:
            openings = load_openings(args.openings, args.size, rule)
            if not openings:
                raise ValueError(f"{args.openings} holds no openings")
        else:
            openings = [[]]
        commands = [_engine_command(spec) for spec in (args.engine1, args.engine2)]
        infos = [parse_info(items) for items in (args.info1, args.info2)]
    except (ValueError, OSError, RevisionError) as error:
        print(f"gomoku match: {error}", file=sys.stderr)
        return 2

    engine1 = Player("engine1", commands[0], info=infos[0])
    engine2 = Player("engine2", commands[1], info=infos[1])
    if args.names:
        engine1.name, engine2.name = args.names
    else:
        engine1.name = _player_name(engine1, args.engine1)
        engine2.name = _player_name(engine2, args.engine2)
    if engine1.name == engine2.name:
        engine1.name, engine2.name = engine1.name + "-1", engine2.name + "-2"

    settings = MatchSettings(
        size=args.size,
        rule=rule,
        time_ms=args.time_ms,
        tolerance_ms=args.tolerance_ms,
        max_moves=args.max_moves,
        memory_bytes=args.memory_mb * 1024 * 1024,
    )
    progress = sys.stderr if args.json else sys.stdout
    summary = run_match(
        engine1,
        engine2,
        openings,
        settings,
        args.games,
        out=progress,
        concurrency=args.concurrency,
        sprt=sprt,
    )
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
