"""The text of our brain's ``MESSAGE`` progress lines, written and read in one place.

A line reads ``depth 5 score -37 nodes 1234 nps 5000 pv h8 i9`` (after the ``MESSAGE``
keyword): the iteration's depth, its score for the side to move, nodes searched, speed and
the principal variation in point names. ``format_info`` writes it for the brain;
``parse_info`` reads it back for whoever drives the brain, and returns None for any other
text (other brains say what they like)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.game.errors import InvalidPointError
from engine.game.points import Point, parse_point, point_name
from engine.search.result import IterationInfo

_INFO_RE = re.compile(
    r"^depth\s+(?P<depth>-?\d+)\s+score\s+(?P<score>-?\d+)\s+nodes\s+(?P<nodes>\d+)"
    r"(?:\s+nps\s+(?P<nps>\d+))?(?:\s+pv(?P<pv>(?:\s+[a-zA-Z]\d{1,2})*))?\s*$"
)


@dataclass(frozen=True)
class BrainInfo:
    """One progress line read back: the numbers and the principal variation."""

    depth: int
    score: int
    nodes: int
    nps: int = 0
    pv: list[Point] = field(default_factory=list)

    @property
    def move(self) -> Point | None:
        """The move the brain would play now: the first of its principal variation."""
        return self.pv[0] if self.pv else None

    def to_json(self) -> dict[str, object]:
        """Plain JSON-ready values; ``move`` only when there is a principal variation."""
        values: dict[str, object] = {
            "depth": self.depth,
            "score": self.score,
            "nodes": self.nodes,
            "nps": self.nps,
            "pv": [[x, y] for x, y in self.pv],
        }
        if self.pv:
            values["move"] = [self.pv[0][0], self.pv[0][1]]
        return values


def format_info(info: IterationInfo, size: int) -> str:
    """The text of a ``MESSAGE`` line for one finished iteration (without the keyword).
    PV points off a ``size`` board are left out."""
    pv = " ".join(point_name(p, size) for p in info.pv if min(p) >= 0 and max(p) < size)
    return (
        f"depth {info.depth} score {info.score} nodes {info.nodes} nps {info.nps} pv {pv}"
    ).rstrip()


def parse_info(text: str, size: int) -> BrainInfo | None:
    """Read a line written by ``format_info`` (keyword already removed); None for any
    other text. The PV stops at the first name that is not a point of a ``size`` board."""
    match = _INFO_RE.match(text.strip())
    if not match:
        return None
    pv: list[Point] = []
    for name in (match["pv"] or "").split():
        try:
            pv.append(parse_point(name, size))
        except InvalidPointError:
            break
    return BrainInfo(
        depth=int(match["depth"]),
        score=int(match["score"]),
        nodes=int(match["nodes"]),
        nps=int(match["nps"] or 0),
        pv=pv,
    )
