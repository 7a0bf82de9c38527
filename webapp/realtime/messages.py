"""The web contract between server and browser, and typed validators for every payload.

HTTP JSON API
    ``POST /api/v1/games`` ``{"mode": "ai"|"friend"|"aivai", "size": 15, "rule":
    "freestyle"|"standard"|"renju", "color": "black"|"white"|"random", "level": 1..5,
    "defence": 0.5..2.0, "black_level", "white_level" (aivai), "black_player",
    "white_player" (aivai, player ids such as ``negamax:3``, ``mcts``, ``engine:<name>``;
    they win over the levels), "clock": null | {"base_s", "increment_s"} (friend), "moves":
    [[x, y], ...]}`` -> 201 ``{"id", "url"}`` and the creator's seat cookie ``seat_<id>``
    (HttpOnly, SameSite=Lax, Path=/). ``GET /api/v1/players`` -> ``{"players": [{"id",
    "name", "kind", "level", "description"}], "ratings": [{"id", "name", "games", "wins",
    "losses", "draws", "rating"}]}``; ``GET /players`` is the Elo table page.
    ``POST /api/v1/import`` ``{"psq", "level", "color", "rule"?}`` -> 201 like above.
    ``GET /api/v1/games/<id>`` -> public state (``you`` null); ``GET /api/v1/games?status=
    live`` -> ``{"games": [...]}``. ``GET /healthz`` -> 200 or 503 ``{"status", "mode",
    "database", "redis", "listener", "presence"}``. ``POST /api/v1/move`` ``{"size",
    "rule", "moves", "time_ms": 1..10000}`` -> ``{"move", "score", "depth", "nodes",
    "pv"}``. Errors are ``{"error": "..."}`` with 400 (404 for an unknown game; 503 in
    multi-process mode while Redis is down).

Socket.IO namespace ``/game``, client -> server (JSON objects, every field checked)
    ``join {game_id}``; ``move {game_id, x, y, version}``; ``undo {game_id}`` (vs AI);
    ``hint {game_id}``; ``takeback_request {game_id}``; ``takeback_answer {game_id,
    accept}``; ``resign {game_id}``; ``rematch {game_id}``.

Server -> client
    ``state``: the full public state after every change, each socket with its own ``you``::

        {"id", "mode", "size", "rule", "status": "waiting"|"active"|"finished", "version",
         "moves": [[x, y], ...], "turn": "black"|"white",
         "players": {"black": {"kind", "name", "level", "connected"}, "white": {...}},
         "you": "black"|"white"|null,
         "result": null | {"winner": colour|null, "reason": "five"|"forbidden"|"resign"|
                           "timeout"|"forfeit"|"full", "line": [[x, y], ...],
                           "detail"?: why an external engine lost on time or forfeit},
         "forbidden": [[x, y], ...], "clock": null | {"black_ms", "white_ms",
         "increment_ms", "running"}, "spectators", "evals": [{"ply", "score" (black's view),
         "depth", "nodes", "ms"}, ...] (one per engine move), and with an engine's move only,
         "pv": {"ply", "moves": [[x, y], ...]} (the line it expected, its move first),
         "takeback": null | {"by"}, "rematch": null | id, "thinking": null | {"color"}}

    ``spectators {game_id, count}`` to the room when only the spectators changed.
    ``thinking {game_id, color, depth, score, pv, nodes, nps, move}`` to the room during
    AI moves that last more than a moment (``score`` from the thinking side's point of
    view; a quick search sends none, its figures come with the move in ``evals``); MCTS reports add
    ``engine: "mcts"`` (``nodes`` are playouts); external engines send ``engine:
    "external"`` and ``text``, the raw MESSAGE line, with the numbers only when the line
    is in our brain's format; ``hint {game_id, move,
    score, depth, pv}`` to the asker; ``error {code,
    message}`` to the sender only, with code ``bad_request``, ``not_found``,
    ``not_your_turn``, ``not_a_player``, ``illegal_move``, ``stale``, ``game_over``,
    ``rate_limited`` or ``unavailable`` (multi-process mode while Redis is down; retry).
    Every client event also answers with an acknowledgement ``{"ok": true}`` or ``{"ok":
    false, "error": {code, message}}`` for clients that ask for one. States carry a
    ``version``; a client keeps the highest it has seen. Points are ``[x, y]``, 0-based
    from the top-left. Evals are from black's point of view, mates at +-30000.

The socket namespace (``sockets``) and the API blueprint (``api``) validate with the
functions below before the game service (``games``) sees anything."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import MAX_SIZE, MIN_SIZE
from engine.search.levels import LEVELS
from webapp.game.errors import BadRequestError

MAX_ID_CHARS = 200
MAX_MOVES = MAX_SIZE * MAX_SIZE
MAX_TIME_MS = 10_000
RULES = ("freestyle", "standard", "renju")
MODES = ("ai", "friend", "aivai")
GAME_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

_MISSING: Any = object()


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequestError(f"{what} must be a JSON object")
    return data


def _int(data: dict[str, Any], key: str, low: int, high: int, default: Any = _MISSING) -> int:
    value = data.get(key, default)
    if value is _MISSING:
        raise BadRequestError(f"'{key}' is required")
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequestError(f"'{key}' must be an integer")
    if not low <= value <= high:
        raise BadRequestError(f"'{key}' must be between {low} and {high}")
    return value


def _number(
    data: dict[str, Any], key: str, low: float, high: float, default: Any = _MISSING
) -> float:
    value = data.get(key, default)
    if value is _MISSING:
        raise BadRequestError(f"'{key}' is required")
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise BadRequestError(f"'{key}' must be a number")
    if not low <= value <= high:
        raise BadRequestError(f"'{key}' must be between {low} and {high}")
    return float(value)


def _choice(
    data: dict[str, Any], key: str, choices: tuple[str, ...], default: Any = _MISSING
) -> str:
    value = data.get(key, default)
    if value is _MISSING:
        raise BadRequestError(f"'{key}' is required")
    if not isinstance(value, str) or value.strip().lower() not in choices:
        raise BadRequestError(f"'{key}' must be one of {', '.join(choices)}")
    return value.strip().lower()


def _bool(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, _MISSING)
    if not isinstance(value, bool):
        raise BadRequestError(f"'{key}' must be true or false")
    return value


def game_id_of(data: Any) -> str:
    """The ``game_id`` field: a short id of letters, digits, ``-`` and ``_``."""
    data = _object(data, "the payload")
    value = data.get("game_id", _MISSING)
    if value is _MISSING:
        raise BadRequestError("'game_id' is required")
    if not isinstance(value, str):
        raise BadRequestError("'game_id' must be a string")
    if len(value) > MAX_ID_CHARS or not GAME_ID_RE.match(value):
        raise BadRequestError("'game_id' is not a valid game id")
    return value


def moves_of(
    data: dict[str, Any], key: str = "moves", size: int = MAX_SIZE
) -> list[tuple[int, int]]:
    value = data.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadRequestError(f"'{key}' must be a list of [x, y] pairs")
    if len(value) > min(MAX_MOVES, size * size):
        raise BadRequestError(f"'{key}' has more moves than the board has points")
    moves: list[tuple[int, int]] = []
    for item in value:
        if (
            not isinstance(item, list | tuple)
            or len(item) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise BadRequestError(f"'{key}' must be a list of [x, y] integer pairs")
        moves.append((int(item[0]), int(item[1])))
    return moves


# -- socket events -----------------------------------------------------------------------


@dataclass(frozen=True)
class GameRef:
    game_id: str


@dataclass(frozen=True)
class MoveMessage:
    game_id: str
    x: int
    y: int
    version: int


@dataclass(frozen=True)
class TakebackAnswer:
    game_id: str
    accept: bool


def parse_game_ref(data: Any) -> GameRef:
    return GameRef(game_id_of(data))


def parse_move(data: Any) -> MoveMessage:
    game_id = game_id_of(data)
    return MoveMessage(
        game_id,
        _int(data, "x", 0, MAX_SIZE - 1),
        _int(data, "y", 0, MAX_SIZE - 1),
        _int(data, "version", 0, 2**31 - 1),
    )


def parse_takeback_answer(data: Any) -> TakebackAnswer:
    return TakebackAnswer(game_id_of(data), _bool(data, "accept"))


# One table: the events the namespace accepts and how each payload is read.
EVENT_PARSERS: dict[str, Callable[[Any], Any]] = {
    "join": parse_game_ref,
    "move": parse_move,
    "undo": parse_game_ref,
    "hint": parse_game_ref,
    "takeback_request": parse_game_ref,
    "takeback_answer": parse_takeback_answer,
    "resign": parse_game_ref,
    "rematch": parse_game_ref,
}


# -- HTTP bodies -------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockSettings:
    base_ms: int
    increment_ms: int


@dataclass(frozen=True)
class NewGame:
    mode: str
    size: int
    rule: str
    color: str  # "black", "white" or "random"
    level: int
    defence: float
    black_level: int
    white_level: int
    clock: ClockSettings | None
    moves: list[tuple[int, int]]
    black_player: str | None = None
    white_player: str | None = None


PLAYER_ID_RE = re.compile(r"^[a-z0-9][a-z0-9:_.-]{0,63}$")


def _player_id(data: dict[str, Any], key: str) -> str | None:
    """An optional player id; whether such a player exists is the game service's call."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not PLAYER_ID_RE.match(value.strip().lower()):
        raise BadRequestError(f"'{key}' must be a player id such as negamax:3 or mcts")
    return value.strip().lower()


def _level(data: dict[str, Any], key: str, default: int) -> int:
    return _int(data, key, min(LEVELS), max(LEVELS), default)


def parse_new_game(body: Any) -> NewGame:
    data = _object(body, "the request body")
    mode = _choice(data, "mode", MODES)
    size = _int(data, "size", MIN_SIZE, MAX_SIZE, 15)
    clock: ClockSettings | None = None
    raw_clock = data.get("clock")
    if raw_clock is not None:
        if mode != "friend":
            raise BadRequestError("'clock' is only for friend games")
        clock_data = _object(raw_clock, "'clock'")
        clock = ClockSettings(
            int(_number(clock_data, "base_s", 1, 36_000) * 1000),
            int(_number(clock_data, "increment_s", 0, 600, 0) * 1000),
        )
    if mode != "aivai" and (data.get("black_player") or data.get("white_player")):
        raise BadRequestError("'black_player' and 'white_player' are for AI-vs-AI games")
    return NewGame(
        mode=mode,
        size=size,
        rule=_choice(data, "rule", RULES, "freestyle"),
        color=_choice(data, "color", ("black", "white", "random"), "black"),
        level=_level(data, "level", 3),
        defence=_number(data, "defence", 0.5, 2.0, 1.0),
        black_level=_level(data, "black_level", 3),
        white_level=_level(data, "white_level", 3),
        clock=clock,
        moves=moves_of(data, "moves", size),
        black_player=_player_id(data, "black_player"),
        white_player=_player_id(data, "white_player"),
    )


@dataclass(frozen=True)
class ImportRequest:
    psq: str
    level: int
    color: str | None
    rule: str


def parse_import(body: Any) -> ImportRequest:
    data = _object(body, "the request body")
    psq = data.get("psq")
    if not isinstance(psq, str) or not psq.strip():
        raise BadRequestError("'psq' must be the text of a PSQ file")
    color = data.get("color")
    if color is not None:
        color = _choice(data, "color", ("black", "white"))
    return ImportRequest(
        psq=psq,
        level=_level(data, "level", 3),
        color=color,
        rule=_choice(data, "rule", RULES, "freestyle"),
    )


@dataclass(frozen=True)
class EngineMoveRequest:
    size: int
    rule: str
    moves: list[tuple[int, int]]
    time_ms: int


def parse_engine_move(body: Any) -> EngineMoveRequest:
    data = _object(body, "the request body")
    size = _int(data, "size", MIN_SIZE, MAX_SIZE, 15)
    return EngineMoveRequest(
        size=size,
        rule=_choice(data, "rule", RULES, "freestyle"),
        moves=moves_of(data, "moves", size),
        time_ms=_int(data, "time_ms", 1, MAX_TIME_MS, 1000),
    )
