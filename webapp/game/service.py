"""The game service: the authority on every game, between the transport and the store.

Socket handlers, page routes and the JSON API call it with an actor's seat; it rebuilds
an engine ``Board`` from the stored moves, checks the request, writes the change with a
compare-and-set on the game's version (``store``), and only after the commit broadcasts
the new state to the game's room (``presence`` says who is there and which seat each
socket holds). AI moves are searched by an ``AiRunner`` (``ai``) and applied like any
other move; clocks (``clock``) are checked on every event and by a timer per game. In
multi-process mode (``REDIS_URL``) an AI turn is instead a job on the turn queue
(``aiqueue``) that a ``gomoku worker`` plays through ``apply_ai_move``, presence is shared
in Redis, and any server or worker may serve any game: the store's version check settles
every race. Refusals raise the named errors of ``errors`` and change nothing."""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Any

from engine import Board, Color, GameOverError, GomokuError
from engine.search.result import MATE
from webapp.ai.pool import AiJob, AiMove, AiRunner, AiTicket, wait_for
from webapp.game import clock as clocks
from webapp.game.errors import (
    BadRequestError,
    GameFinishedError,
    GameNotFound,
    IllegalMoveRefused,
    NotAPlayerError,
    NotYourTurnError,
    StaleStateError,
)
from webapp.game.psq import PsqError, parse_psq
from webapp.players.registry import Player, PlayerRegistry, UnknownPlayerError
from webapp.realtime.messages import EngineMoveRequest, ImportRequest, NewGame
from webapp.realtime.presence import Presence
from webapp.scale.redis_presence import RedisPresence
from webapp.scale.turns import AiTurn, TurnQueue
from webapp.storage.store import (
    GameNotFoundError,
    GameRecord,
    MoveRecord,
    SeatRecord,
    StaleVersionError,
    Store,
)

log = logging.getLogger(__name__)

# (event, payload, room or socket id, socket ids to leave out)
Emit = Callable[[str, dict[str, Any], str, list[str] | None], None]
Reply = Callable[[str, dict[str, Any]], None]

HINT_LEVEL = 4
ENGINE_API_LEVEL = 5
# Extra wait beyond the asked search time for the stateless API: a cold worker may still
# be compiling the search core.
ENGINE_API_GRACE_S = 30.0
AI_RETRIES = 2
# Comings and goings are announced at most this often per game: a crowd arriving must
# not cost a broadcast to the whole crowd per arrival.
ANNOUNCE_S = 0.5


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def room_of(game_id: str) -> str:
    return f"game:{game_id}"


def seat_cookie(game_id: str) -> str:
    return f"seat_{game_id}"


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def color_of_ply(ply: int) -> str:
    """The colour of the ``ply``-th move (1-based)."""
    return "black" if ply % 2 == 1 else "white"


@dataclass
class Thinking:
    color: str
    version: int
    ticket: AiTicket
    started: float
    attempt: int = 0
    # The game as the search saw it: while this search is still the game's, nothing else
    # can have changed the game (undo and resign cancel it first).
    record: GameRecord | None = None


class GameService:
    def __init__(
        self,
        store: Store,
        runner: AiRunner,
        presence: Presence | RedisPresence,
        *,
        emit: Emit | None = None,
        aivai_move_s: float = 0.6,
        hint_time_s: float = 0.5,
        turns: TurnQueue | None = None,
    ) -> None:
        self.store = store
        self.runner = runner
        self.presence = presence
        # Multi-process mode: AI turns are queue jobs that workers play and commit.
        self.turns = turns
        self._emit = emit
        self.aivai_move_s = aivai_move_s
        self.hint_time_s = hint_time_s
        # Who may sit in an AI seat; ``create_app`` replaces it with the configured one.
        self.players = PlayerRegistry.from_environment()
        self._locks: dict[str, threading.RLock] = {}
        self._locks_guard = threading.Lock()
        self._thinking: dict[str, Thinking] = {}
        self._timers: dict[str, threading.Timer] = {}
        self._announcing: set[str] = set()
        # The seats last announced as connected, per game: when only the spectators
        # changed, a small ``spectators`` event is enough.
        self._seated_seen: dict[str, frozenset[str]] = {}
        self._closed = False

    # -- plumbing -----------------------------------------------------------------------

    def set_emitter(self, emit: Emit) -> None:
        self._emit = emit

    def emit(
        self, event: str, payload: dict[str, Any], to: str, skip: list[str] | None = None
    ) -> None:
        if self._emit is not None and not self._closed:
            try:
                self._emit(event, payload, to, skip)
            except Exception:
                log.exception("could not emit %s", event)

    def _lock(self, game_id: str) -> threading.RLock:
        with self._locks_guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.RLock()
            return lock

    def load(self, game_id: str) -> GameRecord:
        try:
            return self.store.load(game_id)
        except GameNotFoundError:
            raise GameNotFound(f"there is no game {game_id!r}") from None

    @staticmethod
    def board_of(record: GameRecord) -> Board:
        return Board.from_moves(record.points, size=record.size, rule=record.rule)

    def close(self) -> None:
        self._closed = True
        for timer in list(self._timers.values()):
            timer.cancel()
        self._timers.clear()
        for thinking in list(self._thinking.values()):
            thinking.ticket.cancel()
        self._thinking.clear()

    # -- state --------------------------------------------------------------------------

    def public_state(
        self,
        record: GameRecord,
        you: str | None = None,
        members: list[tuple[str, str | None]] | None = None,
    ) -> dict[str, Any]:
        board = self.board_of(record)
        if members is None:
            try:
                members = self.presence.members(record.id)
            except Exception as error:  # shared presence down: the game itself is readable
                log.warning("presence of %s unavailable: %s", record.id, error)
                members = []
        seated = {color for _, color in members if color is not None}
        turn = board.turn.label
        forbidden: list[list[int]] = []
        if record.rule == "renju" and record.status != "finished" and turn == "black":
            forbidden = [[x, y] for x, y in board.forbidden_points()]
        clock_state = None
        clock_settings = record.settings.get("clock")
        if clock_settings:
            live = record.clock or clocks.start_clock(clock_settings["base_ms"], "black")
            running = live.get("running") if record.clock and record.status == "active" else None
            clock_state = {
                "black_ms": clocks.time_left(live, "black") if record.clock else live["black_ms"],
                "white_ms": clocks.time_left(live, "white") if record.clock else live["white_ms"],
                "increment_ms": int(clock_settings["increment_ms"]),
                "running": running,
            }
        players = {
            color: {
                "kind": seat.kind,
                "name": seat.name,
                "level": seat.level,
                "connected": seat.kind == "ai" or color in seated,
            }
            for color, seat in sorted(record.seats.items())
        }
        thinking_color: str | None = None
        if self.turns is not None:
            # Workers think wherever they run: an AI seat to move means a queued or
            # running job (a dead worker's job is re-run).
            thinking_color = self.ai_to_move(record)
        else:
            thinking = self._thinking.get(record.id)
            if thinking and thinking.version == record.version:
                thinking_color = thinking.color
        return {
            "id": record.id,
            "mode": record.mode,
            "size": record.size,
            "rule": record.rule,
            "status": record.status,
            "version": record.version,
            "moves": [[m.x, m.y] for m in record.moves],
            "turn": turn,
            "players": players,
            "you": you,
            "result": record.result,
            "forbidden": forbidden,
            "clock": clock_state,
            "spectators": sum(1 for _, color in members if color is None),
            # The engine's figures for each of its moves: what a spectator who saw no live
            # report (a quick search, or one who joined late) reads in the thinking panel.
            "evals": [
                {
                    "ply": m.ply,
                    "score": m.eval_score,
                    "depth": m.depth,
                    "nodes": m.nodes,
                    "ms": m.think_ms,
                }
                for m in record.moves
                if m.eval_score is not None
            ],
            "takeback": {"by": record.takeback_by} if record.takeback_by else None,
            "rematch": record.rematch_id,
            "thinking": {"color": thinking_color} if thinking_color else None,
        }

    def broadcast(self, record: GameRecord, pv: list[list[int]] | None = None) -> None:
        """Send the state to every socket in the game's room, each with its own seat;
        ``pv`` is the line the engine expected when it played the last move (sent with
        that move only, not stored)."""
        try:
            members = self.presence.members(record.id)
        except Exception as error:
            # Shared presence is down (a Redis outage): the change is stored, and every
            # client gets the full state when it rejoins or at the next change.
            log.warning("could not broadcast %s: %s", record.id, error)
            return
        self._seated_seen[record.id] = frozenset(c for _, c in members if c is not None)
        if not members:
            return
        base = self.public_state(record, None, members)
        if pv:
            base["pv"] = {"ply": len(record.moves), "moves": pv}
        # One emit reaches every spectator (on every server, through the message queue);
        # only the seated sockets get a copy of their own.
        seated = [(sid, color) for sid, color in members if color is not None]
        if len(seated) < len(members):
            self.emit("state", base, room_of(record.id), [sid for sid, _ in seated] or None)
        for sid, color in seated:
            self.emit("state", {**base, "you": color}, sid)

    def announce(self, game_id: str) -> None:
        """Within ``ANNOUNCE_S``, once however many changes come meanwhile, tell the room
        who is there: the full state if a player came or went, else ``spectators``
        ``{game_id, count}``."""
        with self._locks_guard:
            if game_id in self._announcing or self._closed:
                return
            self._announcing.add(game_id)
        timer = threading.Timer(ANNOUNCE_S, self._announce_now, args=(game_id,))
        timer.daemon = True
        timer.start()

    def _announce_now(self, game_id: str) -> None:
        with self._locks_guard:
            self._announcing.discard(game_id)
        if self._closed:
            return
        try:
            # Under the game's lock, so this state cannot overtake a newer one.
            with self._lock(game_id):
                members = self.presence.members(game_id)
                seated = frozenset(c for _, c in members if c is not None)
                if self._seated_seen.get(game_id) != seated:
                    self.broadcast(self.load(game_id))
                elif members:
                    count = sum(1 for _, c in members if c is None)
                    self.emit("spectators", {"game_id": game_id, "count": count}, room_of(game_id))
        except Exception:
            log.exception("could not announce the comings and goings of %s", game_id)

    def live_games(self, limit: int = 20) -> list[dict[str, Any]]:
        return [self.public_state(r) for r in self.store.list_games(status="active", limit=limit)]

    # -- seats --------------------------------------------------------------------------

    def seat_from_cookies(self, record: GameRecord, cookies: Mapping[str, str]) -> str | None:
        """The seat whose secret is in the visitor's cookies. A rematch game shares its
        players' secrets with the game it follows, so that game's cookie counts too."""
        candidates = [cookies.get(seat_cookie(record.id))]
        if record.rematch_of:
            candidates.append(cookies.get(seat_cookie(record.rematch_of)))
        for token in candidates:
            if not token or len(token) > 200:
                continue
            digest = hash_token(token)
            for color, seat in record.seats.items():
                if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                    return color
        return None

    def resolve_seat(self, game_id: str, cookies: Mapping[str, str]) -> str | None:
        return self.seat_from_cookies(self.load(game_id), cookies)

    def visit(
        self, game_id: str, cookies: Mapping[str, str]
    ) -> tuple[GameRecord, str | None, tuple[str, str] | None]:
        """A page visit: find the visitor's seat, or give them the free seat of a waiting
        friend game. Return the record, the seat and a cookie to set (name, secret)."""
        with self._lock(game_id):
            record = self.load(game_id)
            you = self.seat_from_cookies(record, cookies)
            name = seat_cookie(game_id)
            if you is not None:
                cookie = None
                if not cookies.get(name) and record.rematch_of:
                    cookie = (name, cookies[seat_cookie(record.rematch_of)])
                return record, you, cookie
            if record.mode != "friend" or record.status != "waiting":
                return record, None, None
            free = next(
                (c for c, s in record.seats.items() if s.kind == "human" and not s.token_hash),
                None,
            )
            if free is None:
                return record, None, None
            token = new_token()
            changes: dict[str, Any] = {"status": "active"}
            clock_settings = record.settings.get("clock")
            if clock_settings:
                turn = self.board_of(record).turn.label
                changes["clock"] = clocks.start_clock(clock_settings["base_ms"], turn)
            try:
                self.store.update(
                    game_id, record.version, changes=changes, seat_tokens={free: hash_token(token)}
                )
            except StaleVersionError:
                return self.load(game_id), None, None
            record = self.load(game_id)
            self.broadcast(record)
            self._arm_flag_timer(record)
            return record, free, (name, token)

    # -- creating -----------------------------------------------------------------------

    def create(self, request: NewGame) -> tuple[GameRecord, str | None]:
        """Create a game; return it and the creator's seat secret (None for AI vs AI)."""
        try:
            board = Board.from_moves(request.moves, size=request.size, rule=request.rule)
        except GomokuError as error:
            raise BadRequestError(f"the starting moves are not a legal game: {error}") from None
        color = request.color
        if color == "random":
            color = random.choice(("black", "white"))
        token: str | None = None
        seats: dict[str, SeatRecord] = {}
        chosen: dict[str, Player] = {}
        if request.mode == "aivai":
            chosen = self._aivai_players(request)
            for side, player in chosen.items():
                seats[side] = SeatRecord(side, "ai", None, player.level, player.name)
        else:
            token = new_token()
            seats[color] = SeatRecord(color, "human", hash_token(token), None, "Guest")
            other = Color.from_name(color).other.label
            if request.mode == "ai":
                seats[other] = SeatRecord(
                    other, "ai", None, request.level, f"AI Level {request.level}"
                )
            else:
                seats[other] = SeatRecord(other, "human", None, None, "Guest")
        settings: dict[str, Any] = {"defence": request.defence}
        if request.mode == "ai":
            settings["level"] = request.level
        if request.mode == "aivai":
            settings["black_level"] = request.black_level
            settings["white_level"] = request.white_level
            settings["players"] = {side: player.id for side, player in chosen.items()}
        if request.clock is not None:
            settings["clock"] = {
                "base_ms": request.clock.base_ms,
                "increment_ms": request.clock.increment_ms,
            }
        status = "waiting" if request.mode == "friend" else "active"
        result = None
        outcome = board.outcome()
        if outcome is not None:
            status = "finished"
            result = self._result_of(outcome.winner, outcome.reason, outcome.line)
        record = GameRecord(
            id=new_game_id(),
            mode=request.mode,
            size=request.size,
            rule=request.rule,
            status=status,
            settings=settings,
            result=result,
            moves=[
                MoveRecord(ply, x, y, color_of_ply(ply))
                for ply, (x, y) in enumerate(request.moves, start=1)
            ],
            seats=seats,
        )
        record = self.store.create(record)
        self._schedule_ai(record)
        return record, token

    def _aivai_players(self, request: NewGame) -> dict[str, Player]:
        """The players of an AI-vs-AI game: the ids asked for, else negamax at the
        asked levels."""
        chosen = {}
        for side, player_id, level in (
            ("black", request.black_player, request.black_level),
            ("white", request.white_player, request.white_level),
        ):
            try:
                chosen[side] = self.players.get(player_id or f"negamax:{level}")
            except UnknownPlayerError as error:
                raise BadRequestError(f"'{side}_player': {error}") from None
        return chosen

    def player_spec(self, record: GameRecord, color: str) -> dict[str, Any] | None:
        """The MCTS or engine player of ``color``'s AI seat for a job (None: negamax
        at the seat's level). A player no longer configured plays as negamax."""
        player_id = (record.settings.get("players") or {}).get(color)
        if not player_id or player_id not in self.players:
            return None
        player = self.players.get(player_id)
        return player.spec() if player.kind != "negamax" else None

    def _forfeit(self, record: GameRecord, color: str, forfeit: dict[str, str]) -> None:
        """An external engine failed (silent, crashed, illegal): it loses the game."""
        winner = Color.from_name(color).other.label
        result = self._result_of(winner, forfeit.get("reason") or "forfeit")
        result["detail"] = forfeit.get("detail", "")
        log.warning("%s forfeits game %s: %s", color, record.id, result["detail"])
        try:
            self._finish(record, result)
        except StaleStateError:
            log.info("forfeit of game %s arrived after a change; dropped", record.id)

    def import_psq(self, request: ImportRequest) -> tuple[GameRecord, str | None]:
        try:
            game = parse_psq(request.psq, rule=request.rule)
        except PsqError as error:
            raise BadRequestError(str(error)) from None
        turn = "black" if len(game.moves) % 2 == 0 else "white"
        return self.create(
            NewGame(
                mode="ai",
                size=game.size,
                rule=request.rule,
                color=request.color or turn,
                level=request.level,
                defence=1.0,
                black_level=request.level,
                white_level=request.level,
                clock=None,
                moves=game.moves,
            )
        )

    # -- playing ------------------------------------------------------------------------

    @staticmethod
    def _result_of(winner: Color | str | None, reason: str, line: Any = ()) -> dict[str, Any]:
        if isinstance(winner, Color):
            winner = winner.label
        return {"winner": winner, "reason": reason, "line": [[x, y] for x, y in line]}

    def _require_player(self, record: GameRecord, color: str | None) -> str:
        if color is None or color not in record.seats:
            raise NotAPlayerError("you are not a player in this game")
        if record.seats[color].kind != "human":
            raise NotAPlayerError("that seat belongs to the AI")
        return color

    def _fresh(self, game_id: str) -> GameRecord:
        """Load a game under its lock and settle a flag fall first."""
        record = self.load(game_id)
        return self._settle_flag(record)

    def play(
        self,
        game_id: str,
        color: str | None,
        x: int,
        y: int,
        version: int,
        cookies: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """Play ``color``'s move, or the move of the seat whose secret is in ``cookies``."""
        with self._lock(game_id):
            record = self._fresh(game_id)
            if cookies is not None:
                color = self.seat_from_cookies(record, cookies)
            color = self._require_player(record, color)
            if record.status == "finished":
                raise GameFinishedError("the game is over")
            if record.status == "waiting":
                raise NotYourTurnError("waiting for an opponent to join")
            if version != record.version:
                raise StaleStateError("the game changed; your board was out of date")
            board = self.board_of(record)
            if board.turn.label != color:
                raise NotYourTurnError("it is not your turn")
            try:
                board.push((x, y))
            except GameOverError as error:
                raise GameFinishedError(str(error)) from None
            except GomokuError as error:
                raise IllegalMoveRefused(str(error)) from None
            return self._commit_move(record, board, color)

    def _commit_move(
        self, record: GameRecord, board: Board, color: str, stats: AiMove | None = None
    ) -> GameRecord:
        """Store the last move of ``board`` (a copy of ``record`` plus that move), then
        broadcast and start whatever comes next."""
        x, y = board.moves[-1]
        ply = board.move_count
        move = MoveRecord(ply, x, y, color)
        if stats is not None:
            score = max(-MATE, min(MATE, stats.score))
            move.eval_score = score if color == "black" else -score
            move.depth = stats.depth
            move.nodes = stats.nodes
            move.think_ms = int(stats.time_s * 1000)
        changes: dict[str, Any] = {"takeback_by": None}
        outcome = board.outcome()
        increment = int((record.settings.get("clock") or {}).get("increment_ms", 0))
        if record.clock is not None:
            changes["clock"] = clocks.after_move(record.clock, color, increment)
        if outcome is not None:
            changes["status"] = "finished"
            changes["result"] = self._result_of(outcome.winner, outcome.reason, outcome.line)
            if record.clock is not None:
                changes["clock"] = clocks.restarted(changes["clock"], None)
        try:
            version = self.store.update(
                record.id, record.version, changes=changes, add_moves=[move]
            )
        except StaleVersionError:
            raise StaleStateError("the game changed; your move was not played") from None
        # The compare-and-set succeeded, so the stored game is exactly this one: no need
        # to read it back (the busiest path of a loaded server).
        record = replace(record, version=version, moves=[*record.moves, move], **changes)
        pv = [[int(x), int(y)] for x, y in stats.pv] if stats is not None else None
        if self.turns is not None:
            # A worker may answer within milliseconds, from another process: publish this
            # state first so that it does not arrive after the answer's.
            self.broadcast(record, pv)
            self._schedule_ai(record)
        else:
            # Start the AI before broadcasting so the state already says it is thinking.
            self._schedule_ai(record)
            self.broadcast(record, pv)
        self._arm_flag_timer(record)
        return record

    def _finish(self, record: GameRecord, result: dict[str, Any]) -> GameRecord:
        changes: dict[str, Any] = {"status": "finished", "result": result, "takeback_by": None}
        if record.clock is not None:
            changes["clock"] = clocks.restarted(record.clock, None)
        self._cancel_thinking(record.id)
        try:
            self.store.update(record.id, record.version, changes=changes)
        except StaleVersionError:
            raise StaleStateError("the game changed; try again") from None
        record = self.load(record.id)
        self._disarm_flag_timer(record.id)
        self.broadcast(record)
        return record

    def resign(self, game_id: str, color: str | None) -> GameRecord:
        with self._lock(game_id):
            record = self._fresh(game_id)
            color = self._require_player(record, color)
            if record.status == "finished":
                raise GameFinishedError("the game is already over")
            if record.status == "waiting":
                raise NotYourTurnError("the game has not started")
            winner = Color.from_name(color).other.label
            return self._finish(record, self._result_of(winner, "resign"))

    def undo(self, game_id: str, color: str | None) -> GameRecord:
        """Against the AI: take back your last move and the AI's reply to it."""
        with self._lock(game_id):
            record = self._fresh(game_id)
            if record.mode != "ai":
                raise BadRequestError("undo is only for games against the AI: ask a takeback")
            color = self._require_player(record, color)
            if record.result and record.result.get("reason") in ("resign", "timeout"):
                raise GameFinishedError("the game is over")
            moves = record.moves
            count = 1 if moves and moves[-1].color == color else 2
            if len(moves) < count or moves[-count].color != color:
                raise BadRequestError("you have no move to take back")
            self._cancel_thinking(game_id)
            self.store.update(
                game_id,
                record.version,
                changes={"status": "active", "result": None, "takeback_by": None},
                truncate_to=len(moves) - count,
            )
            record = self.load(game_id)
            self._schedule_ai(record)
            self.broadcast(record)
            return record

    def request_takeback(self, game_id: str, color: str | None) -> GameRecord:
        with self._lock(game_id):
            record = self._fresh(game_id)
            if record.mode != "friend":
                raise BadRequestError("takebacks are for friend games: use undo against the AI")
            color = self._require_player(record, color)
            if record.status != "active":
                raise GameFinishedError("takebacks are only possible during the game")
            if not any(m.color == color for m in record.moves):
                raise BadRequestError("you have no move to take back")
            if record.takeback_by:
                raise BadRequestError("a takeback is already pending")
            self.store.update(game_id, record.version, changes={"takeback_by": color})
            record = self.load(game_id)
            self.broadcast(record)
            return record

    def answer_takeback(self, game_id: str, color: str | None, accept: bool) -> GameRecord:
        with self._lock(game_id):
            record = self._fresh(game_id)
            color = self._require_player(record, color)
            by = record.takeback_by
            if not by:
                raise BadRequestError("there is no takeback to answer")
            if by == color:
                raise NotAPlayerError("only your opponent can answer your takeback request")
            if record.status != "active":
                raise GameFinishedError("the game is over")
            changes: dict[str, Any] = {"takeback_by": None}
            truncate_to = None
            if accept:
                moves = record.moves
                count = 1 if moves[-1].color == by else 2
                truncate_to = len(moves) - count
                if record.clock is not None:
                    changes["clock"] = clocks.restarted(record.clock, color_of_ply(truncate_to + 1))
            self.store.update(game_id, record.version, changes=changes, truncate_to=truncate_to)
            record = self.load(game_id)
            self.broadcast(record)
            self._arm_flag_timer(record)
            return record

    def rematch(self, game_id: str, color: str | None) -> GameRecord:
        """A new game with colours swapped and the same players; the old game's state
        names it so both clients can follow."""
        with self._lock(game_id):
            record = self._fresh(game_id)
            if record.mode not in ("ai", "friend"):
                raise BadRequestError("rematches are for games against the AI or a friend")
            self._require_player(record, color)
            if record.status != "finished":
                raise BadRequestError("finish the game before asking for a rematch")
            if record.rematch_id:
                self.broadcast(record)
                return record
            seats = {}
            for side, seat in record.seats.items():
                swapped = Color.from_name(side).other.label
                seats[swapped] = SeatRecord(
                    swapped, seat.kind, seat.token_hash, seat.level, seat.name
                )
            clock_settings = record.settings.get("clock")
            new = GameRecord(
                id=new_game_id(),
                mode=record.mode,
                size=record.size,
                rule=record.rule,
                status="active",
                settings=dict(record.settings),
                clock=(
                    clocks.start_clock(clock_settings["base_ms"], "black")
                    if clock_settings
                    else None
                ),
                rematch_of=record.id,
                seats=seats,
            )
            new = self.store.create(new)
            try:
                self.store.update(game_id, record.version, changes={"rematch_id": new.id})
            except StaleVersionError:
                raise StaleStateError("the game changed; try again") from None
            record = self.load(game_id)
            self.broadcast(record)
            self._arm_flag_timer(new)
            self._schedule_ai(new)
            return record

    # -- clocks -------------------------------------------------------------------------

    def _settle_flag(self, record: GameRecord) -> GameRecord:
        if record.status != "active":
            return record
        loser = clocks.flagged(record.clock)
        if loser is None:
            return record
        winner = Color.from_name(loser).other.label
        try:
            return self._finish(record, self._result_of(winner, "timeout"))
        except StaleStateError:
            return self.load(record.id)

    def settle(self, record: GameRecord) -> GameRecord:
        """``record`` after settling a flag fall (a no-op for games without a clock)."""
        if record.status != "active" or not record.clock:
            return record
        with self._lock(record.id):
            return self._fresh(record.id)

    def check_flag(self, game_id: str) -> None:
        if self._closed:
            return
        try:
            with self._lock(game_id):
                self._fresh(game_id)
        except Exception:
            log.exception("flag check of %s failed", game_id)

    def _disarm_flag_timer(self, game_id: str) -> None:
        timer = self._timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()

    def _arm_flag_timer(self, record: GameRecord) -> None:
        self._disarm_flag_timer(record.id)
        if self._closed or record.status != "active" or not record.clock:
            return
        running = record.clock.get("running")
        if running is None:
            return
        delay = clocks.time_left(record.clock, running) / 1000 + 0.05
        timer = threading.Timer(delay, self.check_flag, args=(record.id,))
        timer.daemon = True
        self._timers[record.id] = timer
        timer.start()

    # -- AI -----------------------------------------------------------------------------

    @staticmethod
    def ai_to_move(record: GameRecord) -> str | None:
        if record.status != "active":
            return None
        turn = color_of_ply(len(record.moves) + 1)
        seat = record.seats.get(turn)
        return turn if seat is not None and seat.kind == "ai" else None

    def _cancel_thinking(self, game_id: str) -> None:
        # (In multi-process mode the version bump of the change itself stops the worker.)
        thinking = self._thinking.pop(game_id, None)
        if thinking is not None:
            thinking.ticket.cancel()

    def _schedule_ai(self, record: GameRecord, attempt: int = 0) -> None:
        color = self.ai_to_move(record)
        if color is None or self._closed:
            return
        if self.turns is not None:
            self._queue_turn(record, color)
            return
        current = self._thinking.get(record.id)
        if current is not None and current.version == record.version:
            return
        self._cancel_thinking(record.id)
        seat = record.seats[color]
        job = AiJob(
            size=record.size,
            rule=record.rule,
            moves=record.points,
            level=int(seat.level or 3),
            defence=float(record.settings.get("defence", 1.0)),
            # A fresh seed per move keeps the noisy levels from replaying the same game.
            seed=random.randrange(2**31),
            player=self.player_spec(record, color),
            session=f"{record.id}:{color}",
        )
        game_id, version = record.id, record.version

        def progress(info: dict[str, Any]) -> None:
            self.emit("thinking", {"game_id": game_id, "color": color, **info}, room_of(game_id))

        ticket = self.runner.submit(job, progress)
        thinking = Thinking(color, version, ticket, time.monotonic(), attempt, record)
        self._thinking[game_id] = thinking
        ticket.future.add_done_callback(
            lambda future: threading.Thread(
                target=self._on_ai_done, args=(game_id, thinking, future), daemon=True
            ).start()
        )

    def _queue_turn(self, record: GameRecord, color: str) -> None:
        seat = record.seats[color]
        turn = AiTurn(
            game_id=record.id,
            version=record.version,
            color=color,
            level=int(seat.level or 3),
            defence=float(record.settings.get("defence", 1.0)),
        )
        try:
            self.turns.schedule(turn)  # type: ignore[union-attr]
        except Exception as error:
            # The move itself is committed; the workers' watchdog queues the turn once
            # Redis answers again.
            log.warning("could not queue the AI turn of %s: %s", record.id, error)

    def apply_ai_move(
        self,
        game_id: str,
        version: int,
        color: str,
        stats: AiMove,
        record: GameRecord | None = None,
    ) -> bool:
        """Play a worker's move if the game is still at ``version`` with ``color``'s AI to
        move; return whether it was played. ``record`` is the game as the job read it
        at ``version``, if at hand. The compare-and-set in the store makes a re-run job
        and the job it replaced unable to both play, and refuses a move made stale by an
        undo or a resignation meanwhile."""
        with self._lock(game_id):
            if record is None or record.version != version:
                record = self.load(game_id)
            if record.version != version or self.ai_to_move(record) != color:
                return False
            if stats.forfeit is not None:
                self._forfeit(record, color, stats.forfeit)
                return True
            board = self.board_of(record)
            try:
                board.push(stats.move)
            except GomokuError:
                log.error("AI for game %s returned an illegal move %s", game_id, stats.move)
                return False
            try:
                self._commit_move(record, board, color, stats)
            except StaleStateError:
                return False
            return True

    def _on_ai_done(self, game_id: str, thinking: Thinking, future: Future[AiMove]) -> None:
        if future.cancelled() or self._closed:
            return
        try:
            stats = future.result()
        except Exception:
            log.exception("AI search for game %s failed", game_id)
            with self._lock(game_id):
                if self._thinking.get(game_id) is thinking:
                    del self._thinking[game_id]
                    if thinking.attempt < AI_RETRIES and not self._closed:
                        self._schedule_ai(self.load(game_id), thinking.attempt + 1)
            return
        thinking.ticket.progress_done.wait(2.0)
        record = thinking.record or self.store.find(game_id)
        if record is not None and record.mode == "aivai":
            # Pace engine games so spectators can follow them.
            pause = self.aivai_move_s - (time.monotonic() - thinking.started)
            if pause > 0:
                time.sleep(pause)
        with self._lock(game_id):
            if self._closed or self._thinking.get(game_id) is not thinking:
                return
            del self._thinking[game_id]
            if record is None or record.version != thinking.version:
                record = self.load(game_id)
            if record.version != thinking.version or self.ai_to_move(record) != thinking.color:
                return
            if stats.forfeit is not None:
                self._forfeit(record, thinking.color, stats.forfeit)
                return
            board = self.board_of(record)
            try:
                board.push(stats.move)
            except GomokuError:
                log.error("AI for game %s returned an illegal move %s", game_id, stats.move)
                return
            try:
                self._commit_move(record, board, thinking.color, stats)
            except StaleStateError:
                log.info("AI move for game %s arrived after a change; dropped", game_id)

    def hint(self, game_id: str, color: str | None, reply: Reply) -> None:
        """Search the position for the player to move; ``reply`` gets ``hint`` (or an
        ``error``) when the search ends."""
        record = self._fresh(game_id)
        if record.mode != "ai":
            raise BadRequestError("hints are only available against the AI")
        color = self._require_player(record, color)
        if record.status != "active":
            raise GameFinishedError("the game is over")
        if self.board_of(record).turn.label != color:
            raise NotYourTurnError("hints are for your own turn")
        job = AiJob(
            size=record.size,
            rule=record.rule,
            moves=record.points,
            level=HINT_LEVEL,
            time_s=self.hint_time_s,
            lane="analysis",
        )
        ticket = self.runner.submit(job)

        def done(future: Future[AiMove]) -> None:
            if future.cancelled() or self._closed:
                return
            try:
                stats = future.result()
            except Exception:
                log.exception("hint search for game %s failed", game_id)
                reply("error", {"code": "bad_request", "message": "the hint search failed"})
                return
            reply(
                "hint",
                {
                    "game_id": game_id,
                    "move": list(stats.move),
                    "score": stats.score,
                    "depth": stats.depth,
                    "pv": [list(p) for p in stats.pv],
                },
            )

        ticket.future.add_done_callback(done)

    def engine_move(self, request: EngineMoveRequest) -> dict[str, Any]:
        """The stateless engine API: the best move in a position within ``time_ms``."""
        try:
            board = Board.from_moves(request.moves, size=request.size, rule=request.rule)
        except GomokuError as error:
            raise BadRequestError(f"the moves are not a legal game: {error}") from None
        if board.is_game_over():
            raise BadRequestError("the game is already over")
        job = AiJob(
            size=request.size,
            rule=request.rule,
            moves=request.moves,
            level=ENGINE_API_LEVEL,
            time_s=request.time_ms / 1000,
            lane="analysis",
        )
        ticket = self.runner.submit(job)
        try:
            stats = wait_for(ticket, request.time_ms / 1000 + ENGINE_API_GRACE_S)
        except TimeoutError:
            raise BadRequestError("the engine did not answer in time") from None
        return {
            "move": list(stats.move),
            "score": stats.score,
            "depth": stats.depth,
            "nodes": stats.nodes,
            "pv": [list(p) for p in stats.pv],
        }

    # -- start-up -----------------------------------------------------------------------

    def resume(self) -> int:
        """After a start: settle clocks and restart AI searches of active games. Return
        how many AI searches were started."""
        started = 0
        for game_id in self.store.active_game_ids():
            try:
                with self._lock(game_id):
                    record = self._fresh(game_id)
                    self._arm_flag_timer(record)
                    if self.ai_to_move(record):
                        self._schedule_ai(record)
                        started += 1
            except Exception:
                log.exception("could not resume game %s", game_id)
        return started
