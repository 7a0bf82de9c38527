"""When a search stops: a time in seconds, a depth in plies, a node count, or any mix.
The first limit reached ends the search; with none set the search runs until stopped."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    time: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and self.time <= 0:
            raise ValueError("Limit.time must be positive")
        if self.depth is not None and self.depth < 1:
            raise ValueError("Limit.depth must be at least 1")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError("Limit.nodes must be at least 1")
