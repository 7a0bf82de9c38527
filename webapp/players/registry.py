"""The AI players the site can seat: negamax at each level, MCTS, and external Gomocup
engines, each under a stable id (``negamax:3``, ``mcts``, ``engine:<name>``).

A ``PlayerRegistry`` is built from the ``ENGINES`` setting (``app.config["ENGINES"]`` or
the ``GOMOKU_ENGINES`` environment variable, JSON ``[{"name", "command", "time_s"?}]``);
our own brain (``gomoku pbrain``, negamax and MCTS) is always registered as an external
engine too, so the protocol path runs without outside software. The game service stores
the chosen ids in a game's settings and puts ``Player.spec()`` into each AI job; the
search workers (``ai.search_position``) hand jobs of MCTS and engine players to
``play_move`` here, which runs MCTS itself and engines through ``external``. The ratings
(``ratings``) and the players page name players through the registry."""

from __future__ import annotations

import json
import os
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.search.levels import LEVELS
from webapp.ai.types import PlayerSpec

if TYPE_CHECKING:
    from webapp.ai.types import AiJob, AiMove

ENGINES_ENV = "GOMOKU_ENGINES"
HUMAN_ID = "human"
MCTS_ID = "mcts"
# MCTS thinks a second a move: enough for its playouts to beat the seed-004 style, short
# enough to watch.
MCTS_MOVE_S = 1.0
DEFAULT_ENGINE_MOVE_S = 1.0
MAX_ENGINE_MOVE_S = 60.0
MAX_ENGINES = 32
_SLUG_RE = re.compile(r"[^a-z0-9_.-]+")
# MCTS trees kept per worker process for games in progress (reused between moves).
MCTS_TREES_KEPT = 4


class UnknownPlayerError(ValueError):
    """No player has this id."""


class EngineConfigError(ValueError):
    """The ``ENGINES`` setting is not a list of ``{"name", "command"}`` objects."""


@dataclass(frozen=True)
class Player:
    """One seatable AI: ``kind`` is ``negamax`` (with ``level``), ``mcts`` or ``engine``
    (with the brain ``command``)."""

    id: str
    name: str
    kind: str
    level: int | None = None
    command: tuple[str, ...] = ()
    move_time_s: float = DEFAULT_ENGINE_MOVE_S
    description: str = ""

    def spec(self) -> PlayerSpec:
        """What a search worker needs to play as this player (JSON-able)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "level": self.level,
            "command": list(self.command),
            "move_time_s": self.move_time_s,
            "name": self.name,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "description": self.description,
        }


def builtin_engines() -> list[dict[str, Any]]:
    """Our own brain on the Gomocup protocol, as negamax and as MCTS."""
    brain = [sys.executable, "-m", "webapp.cli", "pbrain"]
    return [
        {"name": "gomoku", "command": brain, "description": "Our negamax brain over the protocol."},
        {
            "name": "gomoku-mcts",
            "command": [*brain, "--player", "mcts"],
            "description": "Our MCTS brain over the protocol.",
        },
    ]


def engine_id(name: str) -> str:
    slug = _SLUG_RE.sub("-", name.strip().lower()).strip("-")
    if not slug:
        raise EngineConfigError(f"engine name {name!r} has no letters or digits")
    return f"engine:{slug[:48]}"


def parse_engines(value: Any) -> list[dict[str, Any]]:
    """Check an ``ENGINES`` setting (a JSON string or a list); return the entries."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as error:
            raise EngineConfigError(f"{ENGINES_ENV} is not valid JSON: {error}") from None
    if not isinstance(value, list):
        raise EngineConfigError("ENGINES must be a list of {name, command} objects")
    if len(value) > MAX_ENGINES:
        raise EngineConfigError(f"ENGINES may name at most {MAX_ENGINES} engines")
    entries = []
    for entry in value:
        if not isinstance(entry, Mapping):
            raise EngineConfigError("each ENGINES entry must be an object with name and command")
        name = entry.get("name")
        command = entry.get("command")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40:
            raise EngineConfigError("an engine 'name' must be a string of 1 to 40 characters")
        if isinstance(command, str):
            command = command.split()
        if (
            not isinstance(command, list)
            or not command
            or not all(isinstance(part, str) and part for part in command)
        ):
            raise EngineConfigError(f"engine {name!r}: 'command' must be a list of strings")
        move_time = entry.get("time_s", DEFAULT_ENGINE_MOVE_S)
        if (
            isinstance(move_time, bool)
            or not isinstance(move_time, int | float)
            or not 0.05 <= move_time <= MAX_ENGINE_MOVE_S
        ):
            raise EngineConfigError(
                f"engine {name!r}: 'time_s' must be between 0.05 and {MAX_ENGINE_MOVE_S}"
            )
        description = entry.get("description", "")
        entries.append(
            {
                "name": name.strip(),
                "command": list(command),
                "time_s": float(move_time),
                "description": description if isinstance(description, str) else "",
            }
        )
    return entries


@dataclass
class PlayerRegistry:
    """Every player by id, in the order the AI-vs-AI form offers them."""

    players: dict[str, Player] = field(default_factory=dict)

    @classmethod
    def build(cls, engines: Any = None) -> PlayerRegistry:
        """Negamax levels, MCTS, our brains and the configured ``engines`` (see
        ``parse_engines``); a configured engine may not reuse a built-in name."""
        registry = cls()
        for level in LEVELS.values():
            registry._add(
                Player(
                    f"negamax:{level.number}",
                    f"AI Level {level.number}",
                    "negamax",
                    level=level.number,
                    description=level.description,
                )
            )
        registry._add(
            Player(
                MCTS_ID,
                "MCTS",
                "mcts",
                move_time_s=MCTS_MOVE_S,
                description="Monte Carlo tree search with pattern-driven playouts.",
            )
        )
        for entry in [*builtin_engines(), *parse_engines(engines)]:
            player_id = engine_id(entry["name"])
            if player_id in registry.players:
                raise EngineConfigError(f"two engines share the id {player_id!r}")
            registry._add(
                Player(
                    player_id,
                    entry["name"],
                    "engine",
                    command=tuple(entry["command"]),
                    move_time_s=float(entry.get("time_s", DEFAULT_ENGINE_MOVE_S)),
                    description=entry.get("description", ""),
                )
            )
        return registry

    @classmethod
    def from_environment(cls) -> PlayerRegistry:
        return cls.build(os.environ.get(ENGINES_ENV))

    def _add(self, player: Player) -> None:
        self.players[player.id] = player

    def get(self, player_id: str) -> Player:
        player = self.players.get(player_id) if isinstance(player_id, str) else None
        if player is None:
            raise UnknownPlayerError(f"there is no player {player_id!r}")
        return player

    def __contains__(self, player_id: object) -> bool:
        return player_id in self.players

    def __iter__(self) -> Iterator[Player]:
        return iter(self.players.values())

    def name_of(self, player_id: str) -> str:
        if player_id == HUMAN_ID:
            return "Humans"
        player = self.players.get(player_id)
        return player.name if player is not None else player_id

    def to_json(self) -> list[dict[str, Any]]:
        return [player.to_json() for player in self.players.values()]


def seat_player_id(settings: Mapping[str, Any], color: str, kind: str, level: int | None) -> str:
    """The player id of a game's seat: the one chosen at creation, else negamax at the
    seat's level for an AI seat, else the pooled human player."""
    chosen = (settings.get("players") or {}).get(color)
    if isinstance(chosen, str) and chosen:
        return chosen
    if kind == "ai":
        return f"negamax:{int(level or 3)}"
    return HUMAN_ID


# -- playing (inside a search worker) ----------------------------------------------------

_mcts_lock = threading.Lock()
_mcts_trees: OrderedDict[str, Any] = OrderedDict()


def _mcts_searcher(session: str | None, on_iteration: Callable[[Any], None]) -> Any:
    """A searcher for this game seat that keeps its tree between moves."""
    from engine.search.mcts import MctsSearcher

    if session is None:
        return MctsSearcher(on_iteration=on_iteration)
    with _mcts_lock:
        searcher = _mcts_trees.pop(session, None)
        if searcher is None:
            searcher = MctsSearcher(on_iteration=on_iteration)
        searcher.on_iteration = on_iteration
        _mcts_trees[session] = searcher
        while len(_mcts_trees) > MCTS_TREES_KEPT:
            _mcts_trees.popitem(last=False)
    return searcher


def _play_mcts(
    job: AiJob,
    spec: Mapping[str, Any],
    on_progress: Callable[[dict[str, Any]], None] | None,
    should_stop: Callable[[], bool] | None,
) -> AiMove:
    from engine import Board, Limit
    from webapp.ai.types import AiMove

    board = Board.from_moves(job.moves, size=job.size, rule=job.rule)
    box: list[Any] = []

    def on_iteration(info: Any) -> None:
        if on_progress is not None:
            on_progress({"engine": "mcts", **info.to_json()})
        if box and should_stop is not None and should_stop():
            box[0].stop()

    searcher = _mcts_searcher(job.session, on_iteration)
    box.append(searcher)
    seconds = job.time_s if job.time_s is not None else float(spec.get("move_time_s", MCTS_MOVE_S))
    result = searcher.search(board, Limit(time=seconds))
    return AiMove(
        move=(int(result.move[0]), int(result.move[1])),
        score=int(result.score),
        depth=int(result.depth),
        nodes=int(result.nodes),
        pv=[(int(x), int(y)) for x, y in result.pv],
        time_s=float(result.time),
        nps=int(result.nps),
    )


def play_move(
    job: AiJob,
    on_progress: Callable[[dict[str, Any]], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> AiMove:
    """Play ``job`` as its MCTS or engine player (negamax stays in ``ai``)."""
    spec = job.player or {}
    kind = spec.get("kind")
    if kind == "mcts":
        return _play_mcts(job, spec, on_progress, should_stop)
    if kind == "engine":
        from webapp.players.external import play_external_move

        return play_external_move(job, spec, on_progress, should_stop)
    raise UnknownPlayerError(f"cannot play as a {kind!r} player here")
