"""The values that cross between the game service and the AI searchers: ``AiJob`` (one
search: the position, who searches, optional limits), ``AiMove`` (its answer) and
``PlayerSpec`` (an MCTS or external-engine player, as a JSON-able mapping).

A leaf module: it imports no other web module, so the runner interface (``runner``), the
pool and queue implementations, the players (``players``) and the game service can all
import it without a cycle. Jobs travel to spawned pool workers (pickled) and to queue
workers (``to_json``/``from_json``), so every field is plain data."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, TypedDict

ProgressCallback = Callable[[dict[str, Any]], None]


class PlayerSpec(TypedDict, total=False):
    """What a search worker needs to play as a registered player (``players``):
    ``kind`` is ``negamax``, ``mcts`` or ``engine`` (with the brain ``command``)."""

    id: str
    kind: str
    level: int | None
    command: list[str]
    move_time_s: float
    name: str


@dataclass(frozen=True)
class AiJob:
    """One search: the position, who searches (a level and a style) and an optional
    time or depth that replaces the level's own limit (hints, the stateless move API)."""

    size: int
    rule: str
    moves: list[tuple[int, int]]
    level: int
    defence: float = 1.0
    seed: int | None = None
    time_s: float | None = None
    depth: int | None = None
    # Who plays when not negamax at ``level`` (MCTS or an external engine); ``session``
    # ("<game id>:<colour>") lets a worker keep that player's tree or brain process
    # between the moves of one game seat.
    player: PlayerSpec | dict[str, Any] | None = None
    session: str | None = None
    # Which lane the job waits in: ``game`` (a game's AI move) or ``analysis`` (hints
    # and the engine API); ``client`` is who asked, for a fair share between clients.
    lane: str = "game"
    client: str | None = None
    # Analysis board: how many best moves to search and report (``lines``).
    multipv: int = 1
    # Also look for a forced win of the side to move by the threat searches (a game
    # review wants the kind and line: ``AiMove.forced``).
    threats: bool = False
    # A step of an opening rule to take instead of a move (``opening_job``): the fields
    # of ``engine.search.opening_choices.OpeningTask``.
    opening: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["moves"] = [list(point) for point in self.moves]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AiJob:
        fields = dict(data)
        fields["moves"] = [(int(x), int(y)) for x, y in fields.get("moves", [])]
        return cls(**fields)


@dataclass(frozen=True)
class AiMove:
    """A search's answer: the move, its score from the mover's side, and the figures."""

    move: tuple[int, int]
    score: int
    depth: int
    nodes: int
    pv: list[tuple[int, int]] = field(default_factory=list)
    time_s: float = 0.0
    nps: int = 0
    # Set instead of a move when an external engine lost by failing (``{"reason":
    # "timeout"|"forfeit", "detail"}``): the game ends against it.
    forfeit: dict[str, str] | None = None
    # What the move was searched for, if it engine reported it (``negamax``, ``mcts``,
    # ``external``): the win-probability scale of ``score`` depends on it.
    engine: str | None = None
    # A multi-PV search's best moves, best first (``PvLine.to_json`` values).
    lines: list[dict[str, Any]] | None = None
    # With ``AiJob.threats``: the side to move's forced win ({kind, plies, moves, line}), if any.
    forced: dict[str, Any] | None = None
    # An opening step's answer instead of a move: ``[["point", x, y] | ["option", name],
    # ...]``, taken in order (``game.opening_ai``).
    opening: list[list[Any]] | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["move"] = list(self.move)
        data["pv"] = [list(p) for p in self.pv]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AiMove:
        return cls(
            move=(int(data["move"][0]), int(data["move"][1])),
            score=int(data["score"]),
            depth=int(data["depth"]),
            nodes=int(data["nodes"]),
            pv=[(int(x), int(y)) for x, y in data.get("pv", [])],
            time_s=float(data.get("time_s", 0.0)),
            nps=int(data.get("nps", 0)),
            forfeit=data.get("forfeit"),
            engine=data.get("engine"),
            lines=data.get("lines"),
            forced=data.get("forced"),
            opening=data.get("opening"),
        )
