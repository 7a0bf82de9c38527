"""A mined puzzle: the position (as the game's moves), what the side to move must do (win
or defend), the forced line that solves it, the engine's effort, and a difficulty on the
rating scale, with its JSON form. Neighbours: ``miner`` makes them, ``command`` writes
them, the web app's puzzle store reads them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine.game.board import Board
from engine.game.points import Point
from engine.search.threats import ThreatKind

BASE_RATING = 1000.0
RATING_PER_MOVE = 110.0  # each attacking move of the line
RATING_PER_DECADE = 70.0  # each tenfold of the nodes the engine needed
VCT_BONUS = 120.0  # threes are harder to see than fours
DEFEND_BONUS = 150.0
MIN_RATING, MAX_RATING = 600.0, 2800.0


class Goal(Enum):
    """What the side to move has to do."""

    WIN = "win"
    DEFEND = "defend"


@dataclass(frozen=True)
class Puzzle:
    """One puzzle. ``solution`` starts with the side to move's move; for ``WIN`` it is the
    whole forced line to the five (defender's longest replies), for ``DEFEND`` the one
    move that holds. ``plies`` is the length of the forced win (for ``DEFEND``: of the
    threat being stopped), ``nodes`` what the engine searched to prove it."""

    key: str
    size: int
    rule: str
    moves: list[Point]
    goal: Goal
    kind: ThreatKind
    solution: list[Point]
    plies: int
    nodes: int
    source: str = "selfplay"
    difficulty: float = field(default=0.0)

    def board(self) -> Board:
        return Board.from_moves(self.moves, size=self.size, rule=self.rule)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "size": self.size,
            "rule": self.rule,
            "moves": [list(p) for p in self.moves],
            "goal": self.goal.value,
            "kind": self.kind.value,
            "solution": [list(p) for p in self.solution],
            "plies": self.plies,
            "nodes": self.nodes,
            "difficulty": round(self.difficulty),
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        """The puzzle of a JSON object; raises ``ValueError`` on a malformed one."""
        try:
            return cls(
                key=str(data["key"]),
                size=int(data["size"]),
                rule=str(data["rule"]),
                moves=[(int(p[0]), int(p[1])) for p in data["moves"]],
                goal=Goal(data["goal"]),
                kind=ThreatKind(data["kind"]),
                solution=[(int(p[0]), int(p[1])) for p in data["solution"]],
                plies=int(data["plies"]),
                nodes=int(data["nodes"]),
                source=str(data.get("source", "selfplay")),
                difficulty=float(data["difficulty"]),
            )
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"malformed puzzle: {error!r}") from None


def difficulty(goal: Goal, kind: ThreatKind, plies: int, nodes: int) -> float:
    """A starting rating for a puzzle: longer lines, more search and threes are harder."""
    attacking_moves = (plies + 1) // 2
    rating = BASE_RATING + RATING_PER_MOVE * attacking_moves
    rating += RATING_PER_DECADE * math.log10(1 + max(0, nodes))
    if kind is ThreatKind.VCT:
        rating += VCT_BONUS
    if goal is Goal.DEFEND:
        rating += DEFEND_BONUS
    return max(MIN_RATING, min(MAX_RATING, rating))
