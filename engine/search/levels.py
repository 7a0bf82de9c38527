"""AI levels offered to players, from a beginner who misses tactics to full strength.

Each level is data: a search limit, a style (seed 002's defence factor) and an amount of
evaluation noise that makes the weak levels beatable. The web app and the match runner
build a ``Searcher`` from a level with ``Level.searcher()``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.search.limit import Limit
from engine.search.result import IterationInfo
from engine.search.searcher import Searcher


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    description: str
    limit: Limit
    noise: int = 0

    def searcher(
        self,
        *,
        defence: float = 1.0,
        seed: int | None = None,
        on_iteration: Callable[[IterationInfo], None] | None = None,
    ) -> Searcher:
        return Searcher(defence=defence, noise=self.noise, seed=seed, on_iteration=on_iteration)


# The noise of levels 1 and 2 is set so that each plays even with its own version before
# the search last gained at one and two plies (engine/EXPERIMENTS.md): a gain of the full
# search must not make the beginner levels harder to beat.
LEVELS: dict[int, Level] = {
    level.number: level
    for level in (
        Level(1, "Beginner", "Looks one move ahead and often misjudges.", Limit(depth=1), 450),
        Level(2, "Casual", "Sees simple threats two moves ahead.", Limit(depth=2, time=1.0), 140),
        Level(3, "Club", "Searches a quarter of a second a move.", Limit(time=0.25)),
        Level(4, "Expert", "Searches one second a move.", Limit(time=1.0)),
        Level(5, "Master", "Full strength: three seconds a move.", Limit(time=3.0)),
    )
}

DEFAULT_LEVEL = 3


def get_level(number: int) -> Level:
    try:
        return LEVELS[int(number)]
    except (KeyError, ValueError, TypeError):
        choices = ", ".join(str(n) for n in LEVELS)
        raise ValueError(f"unknown level {number!r}: expected one of {choices}") from None
