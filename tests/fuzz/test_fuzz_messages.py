"""Property-based fuzzing (hypothesis) of every way in: Socket.IO events and HTTP requests
that are malformed, of the wrong type, oversized, out of turn or from the wrong person.

Over 10,000 generated messages in all (the ``max_examples`` below add up to 10,800). For
each: no server error (no 5xx, nothing logged at error level, no traceback), a refusal
is a clear ``error`` (a known code and a message) and leaves every game exactly as it
was. The app runs in-process on a temporary SQLite database with the real AI pool;
valid-looking engine searches are kept to a few milliseconds."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webapp.app import create_app, shutdown_app
from webapp.realtime.messages import ERROR_CODES
from webapp.storage.store import GameRecord

NS = "/game"
EVENTS = ["join", "move", "undo", "hint", "takeback_request", "takeback_answer", "resign",
          "rematch"]  # fmt: skip
FUZZ = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class ErrorLog(logging.Handler):
    """Every record at error level or with a traceback, from any logger."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.records.append(record)


class Arena:
    """One app with a few games in known states, and clients for each role."""

    def __init__(self, tmp: Path, ai_runner: Any) -> None:
        self.app = create_app(
            {
                "TESTING": True,
                "INSTANCE_PATH": str(tmp / "instance"),
                "SECRET_KEY": "fuzz",
                "AI_RUNNER": ai_runner,
                "HINT_TIME_S": 0.01,
                "AIVAI_MOVE_S": 0.0,
                # The fuzzer sends far faster than a person; flooding has its own test.
                "RATE_PER_S": 1e6,
                "RATE_BURST": 1e6,
            }
        )
        self.service = self.app.extensions["gomoku"].service
        self.socketio = self.app.extensions["socketio"]
        self.black = self.app.test_client()
        self.white = self.app.test_client()
        self.stranger = self.app.test_client()
        # A friend game in progress (black to move), one waiting for white, one finished.
        self.friend = self._create(self.black, mode="friend", color="black", moves=[[7, 7], [8, 8]])
        assert self.white.post(f"/g/{self.friend}/seat", json={}).status_code == 200
        self.waiting = self._create(self.black, mode="friend", color="white")
        self.finished = self._create(
            self.black, mode="friend", moves=[[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1],
                                              [3, 0], [3, 1], [4, 0]],
        )  # fmt: skip
        self.game_ids = [self.friend, self.waiting, self.finished]
        self.sockets = {
            "black": self.socketio.test_client(
                self.app, namespace=NS, flask_test_client=self.black
            ),
            "white": self.socketio.test_client(
                self.app, namespace=NS, flask_test_client=self.white
            ),
            "stranger": self.socketio.test_client(
                self.app, namespace=NS, flask_test_client=self.stranger
            ),
            "anonymous": self.socketio.test_client(self.app, namespace=NS),
        }

    def _create(self, client: Any, **body: Any) -> str:
        reply = client.post("/api/v1/games", json=body)
        assert reply.status_code == 201, reply.get_json()
        return str(reply.get_json()["id"])

    def snapshot(self) -> list[tuple[Any, ...]]:
        records: list[GameRecord] = [self.service.store.load(g) for g in self.game_ids]
        return [
            (r.id, r.version, r.status, tuple(r.points), r.takeback_by, r.rematch_id, r.result)
            for r in records
        ]

    def close(self) -> None:
        for sock in self.sockets.values():
            if sock.is_connected(NS):
                sock.disconnect(namespace=NS)
        shutdown_app(self.app)


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory, ai_runner: Any) -> Iterator[Arena]:
    made = Arena(tmp_path_factory.mktemp("fuzz"), ai_runner)
    yield made
    made.close()


@pytest.fixture(scope="module")
def error_log() -> Iterator[ErrorLog]:
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)


# -- strategies ---------------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(["", "7", "h8", "<script>alert(1)</script>", "' OR 1=1 --", "\x00", "é五子棋"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=20,
)
small_ints = st.one_of(
    st.integers(min_value=-3, max_value=25),
    st.integers(),
    st.sampled_from([2**31, 2**63, -(2**63)]),
)


def game_ids(arena_ids: list[str]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from(arena_ids),
        st.sampled_from(["", "nope", "a" * 65, "a" * 10_000, "../etc", "id with space", "é"]),
        json_values,
    )


def near_valid_payload(arena_ids: list[str]) -> st.SearchStrategy[Any]:
    """Payloads shaped like real ones with one or more fields wrong."""
    field = st.one_of(small_ints, json_values)
    return st.fixed_dictionaries(
        {"game_id": game_ids(arena_ids)},
        optional={"x": field, "y": field, "version": field, "accept": json_values},
    )


# -- Socket.IO ----------------------------------------------------------------------------


def _check_socket_event(
    arena: Arena, error_log: ErrorLog, who: str, event: str, payload: Any
) -> None:
    sock = arena.sockets[who]
    sock.get_received(NS)
    before = arena.snapshot()
    ack = sock.emit(event, payload, namespace=NS, callback=True)
    received = sock.get_received(NS)
    assert not error_log.records, [r.getMessage() for r in error_log.records]
    errors = [e["args"][0] for e in received if e["name"] == "error"]
    for error in errors:
        assert error["code"] in ERROR_CODES, error
        assert isinstance(error["message"], str) and error["message"], error
    assert isinstance(ack, dict), ack
    if not ack["ok"]:
        assert errors and errors[-1] == ack["error"]
        assert arena.snapshot() == before, f"{event} {payload!r} was refused yet changed a game"


def test_fuzz_socket_events_of_any_shape(arena: Arena, error_log: ErrorLog) -> None:
    @settings(FUZZ, max_examples=3000)
    @given(
        who=st.sampled_from(["black", "white", "stranger", "anonymous"]),
        event=st.one_of(st.sampled_from(EVENTS), st.text(max_size=20)),
        payload=json_values,
    )
    def run(who: str, event: str, payload: Any) -> None:
        if event in ("connect", "disconnect", "message"):
            return  # reserved by Socket.IO itself
        _check_socket_event(arena, error_log, who, event, payload)

    run()


def test_fuzz_socket_events_almost_right(arena: Arena, error_log: ErrorLog) -> None:
    """Right event names, right field names, wrong values: out of turn, stale, off the
    board, occupied, wrong types, someone else's game, finished games."""

    @settings(FUZZ, max_examples=3000)
    @given(
        who=st.sampled_from(["black", "white", "stranger", "anonymous"]),
        event=st.sampled_from([e for e in EVENTS if e != "rematch"]),
        payload=near_valid_payload(arena.game_ids),
    )
    def run(who: str, event: str, payload: dict[str, Any]) -> None:
        _check_socket_event(arena, error_log, who, event, payload)

    run()


def test_fuzz_socket_oversized_payloads(arena: Arena, error_log: ErrorLog) -> None:
    @settings(FUZZ, max_examples=300)
    @given(
        event=st.sampled_from(EVENTS),
        size=st.integers(1_000, 200_000),
        kind=st.sampled_from(["id", "list", "dict", "nested"]),
    )
    def run(event: str, size: int, kind: str) -> None:
        payload: Any
        if kind == "id":
            payload = {"game_id": "x" * size, "x": 1, "y": 1, "version": 0}
        elif kind == "list":
            payload = {"game_id": arena.friend, "x": list(range(size // 10))}
        elif kind == "dict":
            payload = {f"k{i}": i for i in range(size // 20)} | {"game_id": arena.friend}
        else:
            payload = {"game_id": arena.friend}
            for _ in range(min(size // 1000, 150)):
                payload = {"game_id": payload}
        _check_socket_event(arena, error_log, "black", event, payload)

    run()


# -- HTTP ---------------------------------------------------------------------------------

ENDPOINTS = ["/api/v1/games", "/api/v1/import", "/api/v1/move"]


def _check_http(arena: Arena, error_log: ErrorLog, method: str, path: str, **kwargs: Any) -> None:
    before = arena.snapshot()
    reply = getattr(arena.stranger, method)(path, **kwargs)
    assert reply.status_code < 500, (method, path, reply.status_code, reply.data[:200])
    assert not error_log.records, [r.getMessage() for r in error_log.records]
    if path.startswith("/api/") and reply.status_code >= 400:
        body = reply.get_json(silent=True)
        assert isinstance(body, dict) and isinstance(body.get("error"), str), reply.data[:200]
        assert body["error"]
    assert arena.snapshot() == before, f"{method} {path} changed an existing game"


def _engine_time(body: Any) -> Any:
    # A valid engine request searches for real: keep such searches to milliseconds.
    if (
        isinstance(body, dict)
        and isinstance(body.get("time_ms"), int)
        and not isinstance(body.get("time_ms"), bool)
    ):
        if 1 <= body["time_ms"] <= 10_000:
            body["time_ms"] = 1 + body["time_ms"] % 20
    elif isinstance(body, dict) and "time_ms" not in body:
        body["time_ms"] = 5
    return body


def test_fuzz_http_json_bodies(arena: Arena, error_log: ErrorLog) -> None:
    field = st.one_of(small_ints, json_values)
    bodies = st.one_of(
        json_values,
        st.fixed_dictionaries(
            {},
            optional={
                "mode": st.one_of(st.sampled_from(["ai", "friend", "aivai", "AI", " ai "]), field),
                "size": field,
                "rule": st.one_of(st.sampled_from(["freestyle", "standard", "renju"]), field),
                "color": st.one_of(st.sampled_from(["black", "white", "random"]), field),
                "level": field,
                "defence": st.one_of(st.floats(), field),
                "black_level": field,
                "white_level": field,
                "clock": st.one_of(
                    st.fixed_dictionaries({}, optional={"base_s": field, "increment_s": field}),
                    field,
                ),
                "moves": st.one_of(st.lists(st.lists(small_ints, max_size=3), max_size=12), field),
                "psq": st.one_of(st.text(max_size=200), field),
                "time_ms": field,
            },
        ),
    )

    @settings(FUZZ, max_examples=3000)
    @given(path=st.sampled_from(ENDPOINTS), body=bodies)
    def run(path: str, body: Any) -> None:
        if path == "/api/v1/move":
            body = _engine_time(body)
        _check_http(arena, error_log, "post", path, json=body)

    run()


def test_fuzz_http_raw_requests(arena: Arena, error_log: ErrorLog) -> None:
    """Bodies that are not JSON, oversized bodies, odd content types, methods and paths."""
    paths = st.one_of(
        st.sampled_from([*ENDPOINTS, "/api/v1/games?status=live", "/api/v1/games?status=x",
                         "/", "/g/", "/healthz", "/lang/zh", "/lang/<b>"]),
        st.builds(lambda i: f"/api/v1/games/{i}", st.text(max_size=80)),
        st.builds(lambda i: f"/g/{i}", st.text(max_size=80)),
        st.builds(lambda i: f"/g/{i}/psq", st.text(max_size=80)),
    )  # fmt: skip

    @settings(FUZZ, max_examples=1500)
    @given(
        method=st.sampled_from(["get", "post", "put", "delete", "patch"]),
        path=paths,
        data=st.one_of(
            st.binary(max_size=300),
            st.text(max_size=300).map(str.encode),
            st.integers(60_000, 200_000).map(lambda n: b'{"mode": "ai", "x": "' + b"a" * n + b'"}'),
            json_values.map(lambda v: json.dumps(v).encode()),
        ),
        content_type=st.sampled_from(
            ["application/json", "text/plain", "application/x-www-form-urlencoded", ""]
        ),
    )
    def run(method: str, path: str, data: bytes, content_type: str) -> None:
        path = path.replace("\x00", "")
        if path.startswith("/api/v1/move") and method == "post":
            try:
                body = _engine_time(json.loads(data))
                data = json.dumps(body).encode()
            except ValueError:
                pass
        headers = {"Content-Type": content_type} if content_type else {}
        _check_http(arena, error_log, method, path, data=data, headers=headers)

    run()
