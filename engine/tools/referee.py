"""One refereed game between two Gomocup brains, the unit ``gomoku match`` is made of.

``Player`` is one side (its command, its running ``BrainProcess`` and its move times);
``play_game`` drives both brains over the protocol from an opening and adjudicates every
move with ``engine.game.Board``: five, renju forbidden move and full board as the rules
say, and an illegal move, a crash, a protocol error or a move slower than the turn limit
plus a small pipe tolerance loses. ``engine.tools.match`` schedules the games."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

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
    # Extra ``INFO key value`` lines sent after the match's own, e.g. ``("max_node",
    # "32000")`` for a brain that takes a node budget a move (a Yixin-board extension).
    info: list[tuple[str, str]] = field(default_factory=list)

    @property
    def display(self) -> str:
        return self.name or self.label

    def twin(self) -> Player:
        """A player with the same command and names but its own process, for games run
        in parallel."""
        return Player(self.label, list(self.command), self.name, info=list(self.info))

    def absorb(self, other: Player) -> None:
        """Add the move times and failures of a twin to this player's."""
        self.move_times.extend(other.move_times)
        self.time_losses += other.time_losses
        self.failures += other.failures

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

    def score(self, label: str) -> float:
        """The game's score for the player labelled ``label``: 1, 0.5 or 0."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == label else 0.0


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
    for key, value in player.info:
        brain.info(key, value)
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
