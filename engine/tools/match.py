"""The match runner: ``gomoku match`` plays two Gomocup brains against each other.

Each opening (``engine.tools.openings``) is played twice, engine1 black then white. Brains are
driven over the protocol by ``engine.gomocup.BrainProcess`` and every move is adjudicated
with ``engine.Board``: five, renju forbidden move and full board as the rules say, and an
illegal move, a crash, a protocol error or a move slower than the turn limit plus a small
pipe tolerance loses. Prints one line per game, then W-L-D, score and Elo (``engine.tools.elo``)
with the move-time figures of both engines; ``--json`` prints the same as one object."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO

from engine.game.board import Board
from engine.game.color import Color
from engine.game.errors import IllegalMoveError
from engine.game.points import Point
from engine.game.rules import Rule
from engine.protocol.gomocup import (
    BrainCrashedError,
    BrainError,
    BrainProcess,
    BrainProtocolError,
    BrainTimeoutError,
)
from engine.tools.elo import elo_estimate
from engine.tools.openings import load_openings

DEFAULT_TOLERANCE_MS = 100


def our_brain_command() -> list[str]:
    """The command that runs this project's brain with the current interpreter."""
    script = Path(sys.executable).with_name("gomoku")
    if script.exists():
        return [str(script), "pbrain"]
    return [sys.executable, "-m", "webapp.cli", "pbrain"]


@dataclass
class Player:
    """One side of the match: its command, its running process and its move times."""

    label: str
    command: list[str]
    name: str = ""
    process: BrainProcess | None = None
    move_times: list[float] = field(default_factory=list)
    time_losses: int = 0
    failures: int = 0

    @property
    def display(self) -> str:
        return self.name or self.label

    def launch(self) -> BrainProcess:
        if self.process is None or not self.process.alive:
            self.process = BrainProcess(self.command, name=self.display)
        self.process.name = self.display
        return self.process

    def discard(self) -> None:
        """Kill a process whose state can no longer be trusted (timed out, crashed)."""
        if self.process is not None:
            self.process.kill()
            self.process = None

    def close(self) -> None:
        if self.process is not None:
            self.process.end()
            self.process = None


@dataclass
class GameRecord:
    number: int
    opening: int
    black: str
    white: str
    winner: str | None  # "engine1", "engine2" or None for a draw
    reason: str
    moves: list[Point]
    max_time: dict[str, float]


@dataclass
class MatchSettings:
    size: int = 15
    rule: Rule = Rule.FREESTYLE
    time_ms: int = 1000
    tolerance_ms: int = DEFAULT_TOLERANCE_MS
    max_moves: int = 0  # 0: play until the board is full
    memory_bytes: int = 0


def _prepare(player: Player, settings: MatchSettings) -> BrainProcess:
    brain = player.launch()
    brain.start(settings.size)
    brain.info("timeout_turn", settings.time_ms)
    brain.info("timeout_match", 0)
    if settings.memory_bytes:
        brain.info("max_memory", settings.memory_bytes)
    brain.info("game_type", 1)
    brain.info("rule", settings.rule.gomocup_code)
    return brain


def play_game(
    number: int,
    opening_index: int,
    opening: list[Point],
    black: Player,
    white: Player,
    settings: MatchSettings,
) -> GameRecord:
    """Play one game from ``opening`` and return how it ended."""
    board = Board.from_moves(opening, size=settings.size, rule=settings.rule)
    players = {Color.BLACK: black, Color.WHITE: white}
    max_time = {black.label: 0.0, white.label: 0.0}
    limit = (settings.time_ms + settings.tolerance_ms) / 1000.0
    brains: dict[Color, BrainProcess] = {}
    winner: Player | None = None
    reason = ""

    def loses(color: Color, why: str) -> None:
        nonlocal winner, reason
        winner, reason = players[color.other], why

    for color in (Color.BLACK, Color.WHITE):
        try:
            brains[color] = _prepare(players[color], settings)
        except BrainError as error:
            players[color].failures += 1
            players[color].discard()
            loses(color, f"{players[color].display} failed to start: {error}")
            break
    synced = {Color.BLACK: False, Color.WHITE: False}
    while winner is None and not reason:
        color = board.turn
        player, brain = players[color], brains[color]
        try:
            if synced[color]:
                last = board.peek()
                assert last is not None
                move = brain.turn(last, limit)
            elif board.move_count == 0:
                move = brain.begin(limit)
            else:
                move = brain.board(board.moves, limit)
            synced[color] = True
        except BrainTimeoutError:
            player.move_times.append(limit)
            max_time[player.label] = max(max_time[player.label], limit)
            player.time_losses += 1
            player.discard()
            loses(color, f"{player.display} exceeded {settings.time_ms} ms")
            break
        except (BrainCrashedError, BrainProtocolError) as error:
            player.failures += 1
            player.discard()
            loses(color, f"{player.display} failed: {error}")
            break
        player.move_times.append(brain.last_move_time)
        max_time[player.label] = max(max_time[player.label], brain.last_move_time)
        if brain.last_move_time > limit:
            # The answer was read in time but had been written too late.
            player.time_losses += 1
            loses(color, f"{player.display} exceeded {settings.time_ms} ms")
            break
        try:
            board.push(move)
        except IllegalMoveError as error:
            loses(color, f"{player.display} played an illegal move: {error}")
            break
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                reason = "full board"
            else:
                winner = players[outcome.winner]
                reason = outcome.reason
        elif settings.max_moves and board.move_count >= settings.max_moves:
            reason = f"move limit {settings.max_moves}"
    return GameRecord(
        number=number,
        opening=opening_index,
        black=black.label,
        white=white.label,
        winner=winner.label if winner else None,
        reason=reason,
        moves=board.moves,
        max_time=max_time,
    )


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


def run_match(
    engine1: Player,
    engine2: Player,
    openings: list[list[Point]],
    settings: MatchSettings,
    games: int | None = None,
    report: bool = True,
    out: TextIO | None = None,
) -> dict[str, object]:
    """Play the match and return its summary as plain data."""
    stream = out if out is not None else sys.stdout
    schedule: list[tuple[int, Player, Player]] = []
    for index in range(len(openings)):
        schedule.append((index, engine1, engine2))
        schedule.append((index, engine2, engine1))
    if games is not None:
        schedule = schedule[:games]
    names = {engine1.label: engine1.name, engine2.label: engine2.name}
    records: list[GameRecord] = []
    started = time.perf_counter()
    try:
        for number, (index, black, white) in enumerate(schedule, start=1):
            record = play_game(number, index, openings[index], black, white, settings)
            records.append(record)
            if report:
                _print_game(record, names, len(schedule), stream)
    finally:
        engine1.close()
        engine2.close()
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


def _print_game(record: GameRecord, names: dict[str, str], total: int, stream: TextIO) -> None:
    black, white = names[record.black], names[record.white]
    if record.winner is None:
        result = "1/2-1/2"
    else:
        result = "1-0" if record.winner == record.black else "0-1"
    times = ", ".join(f"{names[k]} max {v:.3f}s" for k, v in record.max_time.items())
    winner = names[record.winner] if record.winner else "draw"
    print(
        f"game {record.number:>2}/{total} opening {record.opening + 1:>2} "
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
    return "\n".join(lines)


def _about_name(player: Player) -> str:
    try:
        brain = player.launch()
        name = brain.about().get("name", "")
    except BrainError:
        player.discard()
        name = ""
    return name or Path(player.command[-1]).stem


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gomoku match", description="Play two Gomocup brains against each other."
    )
    parser.add_argument("--engine1", help="brain command (default: this project's brain)")
    parser.add_argument("--engine2", help="brain command (default: this project's brain)")
    parser.add_argument("--openings", help="offset-format openings file (default: empty board)")
    parser.add_argument("--time-ms", type=int, default=1000, help="time per move (ms)")
    parser.add_argument("--tolerance-ms", type=int, default=DEFAULT_TOLERANCE_MS)
    parser.add_argument("--games", type=int, help="play only the first N games")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--rule", default="freestyle", help="freestyle, standard or renju")
    parser.add_argument("--names", nargs=2, metavar=("NAME1", "NAME2"))
    parser.add_argument("--max-moves", type=int, default=0, help="draw after this many stones")
    parser.add_argument("--memory-mb", type=int, default=0, help="INFO max_memory to send")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    try:
        rule = Rule.from_name(args.rule)
        Board(args.size, rule)
        if args.time_ms <= 0 or args.tolerance_ms < 0:
            raise ValueError("--time-ms must be positive and --tolerance-ms not negative")
        if args.games is not None and args.games < 1:
            raise ValueError("--games must be at least 1")
        if args.openings:
            openings = load_openings(args.openings, args.size, rule)
            if not openings:
                raise ValueError(f"{args.openings} holds no openings")
        else:
            openings = [[]]
        commands = [
            shlex.split(cmd) if cmd else our_brain_command() for cmd in (args.engine1, args.engine2)
        ]
        if not all(commands):
            raise ValueError("an engine command cannot be empty")
    except (ValueError, OSError) as error:
        print(f"gomoku match: {error}", file=sys.stderr)
        return 2

    engine1 = Player("engine1", commands[0])
    engine2 = Player("engine2", commands[1])
    if args.names:
        engine1.name, engine2.name = args.names
    else:
        engine1.name, engine2.name = _about_name(engine1), _about_name(engine2)
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
    summary = run_match(engine1, engine2, openings, settings, args.games, out=progress)
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
