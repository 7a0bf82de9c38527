"""What a search reports: progress after each iteration and the final result.

A multi-PV search (``Searcher(multipv=N)``) also reports its top root moves as ``lines``
(``PvLine``: move, score, depth, line), best first; the result's own move, score and pv
are those of the first line. A single-PV search leaves ``lines`` empty.
Scores are from the side to move's point of view. A score beyond ``MATE_BOUND`` is a
forced win (negative: a forced loss); ``MATE - abs(score)`` is its distance in plies."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game.points import Point

MATE = 30000
MATE_BOUND = MATE - 1000


def mate_distance(score: int) -> int | None:
    """Plies to the forced result if ``score`` is a mate score, else None."""
    if abs(score) >= MATE_BOUND:
        return MATE - abs(score)
    return None


@dataclass(frozen=True)
class PvLine:
    """One root move of a multi-PV search: its score, the depth it was searched to, and
    the line it leads into (starting with the move)."""

    move: Point
    score: int
    depth: int
    pv: list[Point]

    @property
    def mate(self) -> int | None:
        return mate_distance(self.score)

    def to_json(self) -> dict[str, object]:
        return {
            "move": [int(self.move[0]), int(self.move[1])],
            "score": int(self.score),
            "depth": int(self.depth),
            "pv": [[int(x), int(y)] for x, y in self.pv],
        }


@dataclass(frozen=True)
class IterationInfo:
    """Progress after one completed iteration of iterative deepening."""

    depth: int
    score: int
    move: Point
    pv: list[Point]
    nodes: int
    nps: int
    time: float
    lines: list[PvLine] = field(default_factory=list)

    @classmethod
    def from_result(cls, result: SearchResult) -> IterationInfo:
        """The progress report a searcher gives for its result so far."""
        return cls(
            result.depth,
            result.score,
            result.move,
            result.pv,
            result.nodes,
            result.nps,
            result.time,
            result.lines,
        )

    def to_json(self) -> dict[str, object]:
        """Plain JSON-ready values, for reports that cross a process or the network
        (with ``lines`` only from a multi-PV search)."""
        data: dict[str, object] = {
            "depth": int(self.depth),
            "score": int(self.score),
            "move": [int(self.move[0]), int(self.move[1])],
            "pv": [[int(x), int(y)] for x, y in self.pv],
            "nodes": int(self.nodes),
            "nps": int(self.nps),
        }
        if self.lines:
            data["lines"] = [line.to_json() for line in self.lines]
        return data


@dataclass(frozen=True)
class SearchResult:
    move: Point
    score: int
    depth: int
    nodes: int
    pv: list[Point] = field(default_factory=list)
    time: float = 0.0
    nps: int = 0
    lines: list[PvLine] = field(default_factory=list)

    @property
    def mate(self) -> int | None:
        return mate_distance(self.score)
