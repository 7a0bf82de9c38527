"""When a search stops: a time in seconds, a depth in plies, a node count, or any mix.
The first limit reached ends the search; with none set the search runs until stopped.

Under a time limit the search normally starts no new iteration past a share of the time,
since one started late would rarely finish: the move comes sooner, which suits a person
waiting for it. With ``spend_all`` it keeps deepening until the time is up and plays the
best move of the iterations it finished (or a better one found by the unfinished one), as
an engine does when each move has a fixed time to itself."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    spend_all: bool = False

    def __post_init__(self) -> None:
        if self.time is not None and self.time <= 0:
            raise ValueError("Limit.time must be positive")
        if self.depth is not None and self.depth < 1:
            raise ValueError("Limit.depth must be at least 1")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError("Limit.nodes must be at least 1")

    def may_deepen(self, elapsed: float, share: float) -> bool:
        """Whether a new iteration may start ``elapsed`` seconds into the search, when
        iterations normally start only within ``share`` of the time."""
        if self.time is None:
            return True
        return elapsed < (self.time if self.spend_all else share * self.time)
