"""The web contract between server and browser, and typed validators for every payload.

HTTP JSON API
    ``POST /api/v1/games`` ``{"mode": "ai"|"friend"|"aivai", "size": 15, "rule":
    "freestyle"|"standard"|"renju", "color": "black"|"white"|"random", "level": 1..5,
    "defence": 0.5..2.0, "black_level", "white_level" (aivai), "black_player",
    "white_player" (aivai, player ids such as ``negamax:3``, ``mcts``, ``engine:<name>``;
    they win over the levels), "clock": null | {"base_s", "increment_s"} (friend) or
    "preset": "1+0"|"3+2"|"5+3"|"10+5"|"30+0"|"untimed" (friend; without either a friend
    game gets the 5+3 clock, ``lobby.presets``), "moves": [[x, y], ...], "opening":
    "none"|"swap"|"swap2" (freestyle, standard) |"soosorv8"|"taraguchi10" (renju),
    refused with ``bad_opening`` for another rule or with "moves"}`` -> 201 ``{"id",
    "url"}`` and the creator's seat cookie ``seat_<id>``
    (HttpOnly, SameSite=Lax, Path=/). ``GET /api/v1/players`` -> ``{"players": [{"id",
    "name", "kind", "level", "description"}], "ratings": [{"id", "name", "games", "wins",
    "losses", "draws", "rating"}]}``; ``GET /players`` is the Elo table page.
    ``POST /api/v1/import`` ``{"psq", "level", "color", "rule"?}`` -> 201 like above.
    ``GET /api/v1/games/<id>`` -> public state (``you`` null); ``GET /api/v1/games?status=
    live`` -> ``{"games": [...]}``. ``GET /healthz`` -> 200 or 503 ``{"status", "mode",
    "database", "redis", "listener", "presence"}``. ``POST /api/v1/move`` ``{"size",
    "rule", "moves", "time_ms": 1..10000}`` -> ``{"move", "score", "depth", "nodes",
    "pv"}``. Errors are ``{"error": message, "code", "params"}`` with 400 (404 for an
    unknown game; 503 in multi-process mode while Redis is down).

Seats
    A human seat belongs to whoever holds its secret in the HttpOnly cookie ``seat_<id>``.
    ``GET``/``HEAD /g/<id>`` never takes a seat (a link preview must not become the
    opponent). A visitor takes the free seat of a waiting friend game either with the
    socket intent ``take_seat {game_id}`` (acknowledged ``{ok, seat, token}``; the socket
    plays that seat at once; the page then sends ``POST /g/<id>/seat {"token"}`` to turn
    the secret into the cookie) or with ``POST /g/<id>/seat {}`` directly. That POST must
    be JSON from this site (a cross-site form or another ``Origin`` is refused) and
    answers ``{"seat"}`` with the cookie set.

Socket.IO namespace ``/game``, client -> server (JSON objects, every field checked;
``game`` is accepted for ``game_id``)
    ``join {game_id}``; ``take_seat {game_id}``; ``move {game_id, x, y, version}``;
    ``undo {game_id}`` (vs AI); ``hint {game_id}`` (vs AI); ``takeback_request {game_id}``;
    ``takeback_cancel {game_id}``; ``takeback_answer {game_id, accept}``; ``resign
    {game_id}``; ``rematch {game_id}`` (an offer; against the AI the new game starts at
    once); ``rematch_answer {game_id, accept}``; ``draw_offer {game_id}``; ``draw_answer
    {game_id, accept}``; ``abort {game_id}`` (until each side has moved);
    ``claim_victory {game_id}`` (once the ``abandon`` countdown is over);
    ``chat {game_id, text}`` (plain text, 1-140 characters after cleaning; see
    ``chat.rules``: players and spectators have separate channels).
    ``opening_choice {game_id, option, version}`` during an opening: ``option`` is
    ``black``/``white`` (the colour to play: the other one than yours is a swap),
    ``place_two`` (swap2), ``offer`` (taraguchi: offer the fifth moves instead of
    placing one) or a count ``1``..``8`` (Soosõrv: how many fifth moves). Stones,
    offered fifth moves and the picked one are ``move`` events: a click on the board
    does what the opening's step asks.

Server -> client
    ``state``: the full public state after every change, each socket with its own ``you``
    and ``actions`` (built by ``game.view``)::

        {"id", "mode", "size", "rule", "rated" (a rated lobby game), "status":
         "waiting"|"active"|"finished", "version",
         "moves": [[x, y], ...], "turn": "black"|"white",
         "players": {"black": {"kind", "name", "level", "connected", "open"}, "white": {...}},
         "you": "black"|"white"|null,
         "actions": {"move", "undo", "hint", "takeback", "takeback_cancel",
                     "takeback_answer", "resign", "rematch", "rematch_answer", "draw",
                     "draw_answer", "abort", "claim", "take_seat"} (booleans, all present;
                     a spectator's state lists only the true ones),
         "legal": [[x, y], ...] (the side to move's points; renju's forbidden removed;
                  not in a spectator's state),
         "result": null | {"termination": "five"|"forbidden"|"resign"|"flag"|"abandon"|
                           "draw"|"aborted"|"forfeit", "winner": colour|null,
                           "line": [[x, y], ...], "reason" (older spelling: "timeout"
                           for a flag, "full"/"agreement" for a draw), "detail"?},
         "forbidden": [[x, y], ...], "clock": null | {"black_ms", "white_ms",
         "increment_ms", "running"}, "spectators",
         "evals": [{"ply", "score" (black's view), "black_winrate", "depth", "nodes",
                    "ms"}, ...] (one per engine move),
         "engine": null | {"ply", "color", "depth", "nodes", "nps", "time_ms", "score"
                   (black's view), "black_winrate", "pv"} (the engine's last figures),
         and with an engine's move only, "pv": {"ply", "moves": [[x, y], ...]},
         "offers": {"takeback", "draw", "rematch": colour|null} (who made each open offer),
         "takeback": null | {"by"} (older form), "rematch"/"next_game": null | id of the
         agreed rematch (nobody is moved to it), "rematch_of": null | id,
         "abandon": null | {"seat" (gone), "claim_at" (epoch ms), "now" (server epoch ms)},
         "thinking": null | {"color"}, "warming": bool (the AI waits for the engine to
         warm up), "imported_finished": bool (an imported record that is already over),
         "opening": null | {"rule": "swap"|"swap2"|"soosorv8"|"taraguchi10", "active",
                    "step": "place"|"choose"|"declare"|"propose"|"pick"|"done",
                    "stage" (the place in the rule's procedure), "actor": "first"|
                    "second"|null, "actor_seat": colour|null (its current colour),
                    "you": "first"|"second"|null, "seats": {"first": colour,
                    "second": colour} (colours held now; they change on a swap),
                    "stone": colour|null (the colour of the stone a PLACE step puts),
                    "area": null | side of the central square a stone must go in,
                    "options": [...] (what ``opening_choice`` accepts now, for the actor;
                    ``place``/``propose``/``pick`` steps take board clicks, ``legal``),
                    "count" (fifth moves to offer / most to declare), "declared",
                    "proposals": [[x, y], ...] (the fifth moves offered), "swaps",
                    "log": ["second:black", ...]}}

    ``black_winrate`` maps every engine's score onto black's chance to win (0..1; a mate
    is 0 or 1): see ``game.winrate``.
    ``spectators {game_id, count}`` to the room when only the spectators changed.
    ``offer_declined {game, game_id, kind: "takeback"|"draw"|"rematch", by}`` to the room:
    ``by`` declined the offer its opponent made. ``offer_cancelled {game, game_id, kind,
    by}``: ``by`` took its own offer back.
    ``thinking {game, game_id, color, depth, score, black_winrate, pv, nodes, nps, move,
    warming}`` to the room during AI moves that last more than a moment (``score`` from
    the thinking side's point of view; a quick search sends none, its figures come with
    the move in ``evals``); MCTS reports add ``engine: "mcts"`` (``nodes`` are playouts);
    external engines send ``engine: "external"`` and ``text``, the raw MESSAGE line, with
    the numbers only when the line is in our brain's format.
    ``hint {game, game_id, move, x, y, score, depth, pv}`` to the asker.
    ``chat_history {game_id, channel: "players"|"spectators"|null, messages: [line]}`` to
    a socket that joins (or takes a seat): its channel's last 50 lines; null when the
    viewer has nobody to chat with (the human playing the AI). ``chat {game_id, id,
    channel, seat: colour|null, name, text, at (epoch ms)}`` to the readers of that
    channel only.
    ``error {code, message, params}`` to the sender only; every client event also answers
    with an acknowledgement ``{"ok": true, ...}`` or ``{"ok": false, "error": {code,
    message, params}}``. States carry a ``version``; a client keeps the highest it has
    seen. Points are ``[x, y]``, 0-based from the top-left. Scores are in engine units
    with mates at +-30000.

Game review (``review``)
    ``GET /g/<id>/review`` is the page. ``POST /api/v1/games/<id>/review`` starts the review
    of a finished game if nobody has (202 while it runs, 200 once done; 400
    ``game_not_finished``) and ``GET`` reads it: ``{"game_id", "status": "none"|"running"|
    "done"|"failed", "done", "total", "time_s", "review"? (done), "graph"? (running: black's
    chance per position so far), "error"?}``. ``POST /api/v1/games/<id>/play-from {"ply",
    "level"?, "color"?}`` -> 201 ``{"id", "url"}`` like creating a game (400 ``game_over``
    for a position already over). Socket.IO namespace ``/review``: ``join {game_id}``
    (acknowledged with the status); to the ``review:<id>`` room ``review_progress
    {game_id, done, total, ply, black_winrate}``, ``review_done`` (the status with the
    review), ``review_failed {game_id, error}``.

Error codes (``code``; the browser translates it, ``params`` fill its text; ``message``
is the English fallback). The HTTP API answers ``{"error": message, "code", "params"}``.
    ``bad_request`` {field, reason: required|type|range|choice, low?, high?, choices?}:
    a malformed payload. ``not_found``: no such game. ``rate_limited``: slow down.
    ``unavailable``: a shared service is down (multi-process mode); retry.
    ``stale``: the game changed meanwhile; your board was out of date.
    ``not_a_player``: you hold no seat here. ``ai_seat``: that seat is the AI's.
    ``not_your_turn``. ``game_not_started``: waiting for the opponent to join.
    ``game_over``. ``illegal_move`` {x, y}: occupied or off the board.
    ``bad_moves``: starting moves that are not a legal game. ``bad_psq``: an unreadable
    PSQ record. ``unknown_player`` {field}.
    ``hint_ai_only``, ``undo_ai_only``, ``takeback_friend_only``, ``draw_friend_only``:
    that help belongs to another kind of game. ``hint_failed``, ``engine_timeout``.
    ``no_move_to_take_back``. ``offer_pending``: that offer is already open.
    ``no_offer``: no such offer to answer or cancel. ``own_offer``: only the opponent
    answers your offer. ``rematch_mode``: no rematches of AI-vs-AI games.
    ``game_not_finished``: finish the game before a rematch. ``abort_too_late``: both
    sides have moved. ``resign_too_early``, ``draw_too_early``: until each side has
    moved there is nothing to concede or share; abort instead.
    ``claim_not_allowed``: no win to claim in this game (yet).
    ``opponent_present``: the opponent is still here. ``claim_too_early`` {seconds}.
    ``seat_taken``: no free seat. ``already_seated``: you have a seat here already.
    ``forbidden_origin``: a seat request from another site. ``server_error``: an
    unexpected failure (logged); nothing changed.
    Openings: ``bad_opening`` {opening, rule, choices?}: that opening is not played with
    this rule (or from given moves). ``opening_in_progress``: wait for the opening's end
    (normal moves, hints, takebacks). ``no_opening``: the opening is over.
    ``opening_step`` {step}: the opening asks for another kind of step now.
    ``opening_option`` {option, options}: not one of the step's options.
    ``opening_area`` {x, y, size}: the stone goes within the central size x size square.
    ``opening_symmetric`` {x, y}: that fifth move is offered already or mirrors one.
    ``opening_not_offered`` {x, y}: pick one of the offered fifth moves.
    Chat: ``chat_empty``, ``chat_too_long``
    {max}, ``chat_repeat`` (the same line again at once), ``chat_closed`` (nobody to
    chat with). Lobby: ``seek_exists`` (one open seek per person and kind),
    ``own_seek`` (your own seek cannot be taken), ``seek_not_found`` (taken or gone),
    ``no_identity`` (a lobby socket without the visitor cookie).

Socket.IO namespace ``/lobby`` (``lobby.namespace``): client -> server ``seek_create
{rule, size, preset, rated, color, opening}`` (ack ``{ok, seek}``), ``seek_cancel
{kind: "seek"|"quick"}``, ``seek_take {seek_id}`` (ack ``{ok, game_id, url}``),
``quick_pair {rule, size, preset, rated}`` (ack ``{ok, waiting}`` or ``{ok, game_id,
url}``), ``quick_cancel {}``. Server -> client: ``lobby_seeks {seeks: [{id, kind,
person, name, rule, size, preset, rated, color, opening, rating, provisional, created}]}`` to
the room ``lobby`` after every change; ``lobby_start {game_id, url}`` to both people of
a game a seek or a pairing started (``url`` is ``/lobby/go/<id>``: it sets the seat
cookie and shows the game).

Socket.IO namespace ``/analysis`` (the analysis board, ``analysis.namespace``; payloads in
``analysis.messages``): client -> server ``analyse {size, rule, moves, lines: 1..5}`` (ack
``{ok, position}``), ``analysis_continue {}``, ``analysis_stop {}``. Server -> client:
``analysis {position, status, turn, depth, nodes, nps, elapsed_ms, lines: [{move, name,
score, black_winrate, depth, pv, pv_names, mate, winner}]}`` after every finished depth.
``analysis_limit``: too many boards analysing for one client.

The socket namespace (``namespace``) and the API blueprint (``http.api``) validate with the
functions below before the game service (``game.service``) sees anything."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import MAX_SIZE, MIN_SIZE
from engine.search.levels import LEVELS
from webapp.game.errors import BadRequestError
from webapp.lobby.presets import DEFAULT_CLOCK, clock_of, parse_preset

MAX_ID_CHARS = 200
MAX_MOVES = MAX_SIZE * MAX_SIZE
MAX_TIME_MS = 10_000
RULES = ("freestyle", "standard", "renju")
MODES = ("ai", "friend", "aivai")
OPENINGS = ("none", "swap", "swap2", "soosorv8", "taraguchi10")
GAME_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

# Every ``code`` a refusal may carry (listed with their params in the text above).
ERROR_CODES = frozenset(
    {
        "bad_request", "not_found", "rate_limited", "unavailable", "server_error", "stale",
        "not_a_player", "ai_seat", "not_your_turn", "game_not_started", "game_over",
        "illegal_move", "bad_moves", "bad_psq", "unknown_player", "hint_ai_only",
        "undo_ai_only", "takeback_friend_only", "draw_friend_only", "hint_failed",
        "engine_timeout", "no_move_to_take_back", "offer_pending", "no_offer", "own_offer",
        "rematch_mode", "game_not_finished", "abort_too_late", "resign_too_early",
        "draw_too_early", "claim_not_allowed",
        "opponent_present", "claim_too_early", "seat_taken", "already_seated",
        "forbidden_origin", "bad_opening", "opening_in_progress", "no_opening",
        "opening_step", "opening_option", "opening_area", "opening_symmetric",
        "opening_not_offered",
        "chat_empty", "chat_too_long", "chat_repeat", "chat_closed",
        "seek_exists", "own_seek", "seek_not_found", "no_identity", "analysis_limit",
    }
)  # fmt: skip

_MISSING: Any = object()


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequestError(f"{what} must be a JSON object")
    return data


def _bad(message: str, key: str, reason: str, **params: Any) -> BadRequestError:
    """A refusal of one field: ``params`` name it and why (``required``, ``type``,
    ``range`` with ``low``/``high``, ``choice`` with ``choices``)."""
    return BadRequestError(message, params={"field": key, "reason": reason, **params})


def _int(data: dict[str, Any], key: str, low: int, high: int, default: Any = _MISSING) -> int:
    value = data.get(key, default)
    if value is _MISSING:
        raise _bad(f"'{key}' is required", key, "required")
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"'{key}' must be an integer", key, "type")
    if not low <= value <= high:
        raise _bad(f"'{key}' must be between {low} and {high}", key, "range", low=low, high=high)
    return value


def _number(
    data: dict[str, Any], key: str, low: float, high: float, default: Any = _MISSING
) -> float:
    value = data.get(key, default)
    if value is _MISSING:
        raise _bad(f"'{key}' is required", key, "required")
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise _bad(f"'{key}' must be a number", key, "type")
    if not low <= value <= high:
        raise _bad(f"'{key}' must be between {low} and {high}", key, "range", low=low, high=high)
    return float(value)


def _choice(
    data: dict[str, Any], key: str, choices: tuple[str, ...], default: Any = _MISSING
) -> str:
    value = data.get(key, default)
    if value is _MISSING:
        raise _bad(f"'{key}' is required", key, "required")
    if not isinstance(value, str) or value.strip().lower() not in choices:
        raise _bad(
            f"'{key}' must be one of {', '.join(choices)}", key, "choice", choices=list(choices)
        )
    return value.strip().lower()


def _bool(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, _MISSING)
    if not isinstance(value, bool):
        raise _bad(f"'{key}' must be true or false", key, "type")
    return value


def game_id_of(data: Any) -> str:
    """The ``game_id`` (or ``game``) field: a short id of letters, digits, ``-``, ``_``."""
    data = _object(data, "the payload")
    value = data.get("game_id", data.get("game", _MISSING))
    if value is _MISSING:
        raise _bad("'game_id' is required", "game_id", "required")
    if not isinstance(value, str):
        raise _bad("'game_id' must be a string", "game_id", "type")
    if len(value) > MAX_ID_CHARS or not GAME_ID_RE.match(value):
        raise _bad("'game_id' is not a valid game id", "game_id", "type")
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
class OpeningChoice:
    """An opening choice: a colour, ``place_two``, ``offer``, or a declared count."""

    game_id: str
    option: str
    version: int


OPENING_OPTION_RE = re.compile(r"^(black|white|place_two|offer|[1-9][0-9]?)$")


def parse_opening_choice(data: Any) -> OpeningChoice:
    game_id = game_id_of(data)
    option = data.get("option")
    if not isinstance(option, str | int) or isinstance(option, bool):
        raise _bad("'option' must be a string", "option", "type")
    option = str(option).strip().lower()
    if not OPENING_OPTION_RE.match(option):
        raise _bad(
            "'option' must be black, white, place_two, offer or a count", "option", "choice",
            choices=["black", "white", "place_two", "offer", "1..10"],
        )  # fmt: skip
    return OpeningChoice(game_id, option, _int(data, "version", 0, 2**31 - 1))


@dataclass(frozen=True)
class ChatMessage:
    game_id: str
    text: str


@dataclass(frozen=True)
class Answer:
    """An answer to the opponent's offer (takeback, draw or rematch)."""

    game_id: str
    accept: bool


TakebackAnswer = Answer


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


def parse_answer(data: Any) -> Answer:
    return Answer(game_id_of(data), _bool(data, "accept"))


parse_takeback_answer = parse_answer

MAX_CHAT_PAYLOAD_CHARS = 1000


def parse_chat(data: Any) -> ChatMessage:
    """``chat {game_id, text}``: the text is cleaned and measured by ``chat.rules``."""
    game_id = game_id_of(data)
    text = data.get("text", _MISSING)
    if text is _MISSING:
        raise _bad("'text' is required", "text", "required")
    if not isinstance(text, str):
        raise _bad("'text' must be a string", "text", "type")
    if len(text) > MAX_CHAT_PAYLOAD_CHARS:
        raise BadRequestError(
            "a message has at most 140 characters",
            code="chat_too_long",
            params={"max": 140},
        )
    return ChatMessage(game_id, text)


# One table: the events the namespace accepts and how each payload is read.
EVENT_PARSERS: dict[str, Callable[[Any], Any]] = {
    "join": parse_game_ref,
    "move": parse_move,
    "undo": parse_game_ref,
    "hint": parse_game_ref,
    "takeback_request": parse_game_ref,
    "takeback_cancel": parse_game_ref,
    "takeback_answer": parse_answer,
    "resign": parse_game_ref,
    "rematch": parse_game_ref,
    "rematch_answer": parse_answer,
    "draw_offer": parse_game_ref,
    "draw_answer": parse_answer,
    "abort": parse_game_ref,
    "claim_victory": parse_game_ref,
    "take_seat": parse_game_ref,
    "opening_choice": parse_opening_choice,
    "chat": parse_chat,
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
    # The opening rule (``game.opening_types.OpeningRule``); whether the board rule plays
    # it is the game model's call (``bad_opening``).
    opening: str = "none"


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
    if "preset" in data:
        if mode != "friend" or raw_clock is not None:
            raise BadRequestError("'preset' is for friend games, instead of 'clock'")
        millis = clock_of(parse_preset(data["preset"]))
        clock = ClockSettings(*millis) if millis is not None else None
    elif "clock" not in data and mode == "friend":
        clock = ClockSettings(*DEFAULT_CLOCK)
    elif raw_clock is not None:
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
        opening=_choice(data, "opening", OPENINGS, "none"),
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
