"""The analysis board over Socket.IO (``/analysis``) with the real AI pool: updates stream
while a position is analysed, a new position replaces the old, the analysis pauses at its
cap and continues on request, a disconnect stops it, the per-client limit refuses a third
board, bad positions are refused, and the page and the game page's link serve."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

NAMESPACE = "/analysis"
# h8 i9 h9 j7 g7 i8 (a quiet middle game)
MIDGAME = [[7, 7], [8, 8], [7, 8], [9, 6], [6, 6], [8, 7]]


@pytest.fixture
def board_app(app_factory: Callable[..., Any]) -> Any:
    return app_factory(ANALYSIS_SLICE_S=0.6, ANALYSIS_CAP_S=1.5)


def connect(app: Any) -> Any:
    return app.extensions["socketio"].test_client(app, namespace=NAMESPACE)


def wait_for(
    sock: Any, test: Callable[[list[dict[str, Any]]], bool], timeout: float = 60.0
) -> list[Any]:
    """Collect events until ``test`` holds for them (or fail after ``timeout``)."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen.extend(sock.get_received(NAMESPACE))
        if test(seen):
            return seen
        time.sleep(0.05)
    raise AssertionError(f"not seen in {timeout} s: {[e['name'] for e in seen]}")


def updates(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["args"][0] for e in events if e["name"] == "analysis"]


def test_updates_stream_pause_continue_and_stop(board_app: Any) -> None:
    runs = board_app.extensions["analysis_runs"]
    sock = connect(board_app)
    ack = sock.emit("analyse", {"size": 15, "rule": "freestyle", "moves": MIDGAME, "lines": 3},
                    namespace=NAMESPACE, callback=True)  # fmt: skip
    assert ack == {"ok": True, "position": 1}
    events = wait_for(sock, lambda seen: any(u["status"] == "paused" for u in updates(seen)))
    got = updates(events)
    assert len(got) >= 2  # several updates before the pause
    last = got[-1]
    assert last["position"] == 1 and last["turn"] == "black"
    assert len(last["lines"]) == 3
    names = [line["name"] for line in last["lines"]]
    assert len(set(names)) == 3
    occupied = {tuple(m) for m in MIDGAME}
    for line in last["lines"]:
        assert tuple(line["move"]) not in occupied
        assert 0.0 <= line["black_winrate"] <= 1.0
        assert line["pv"][0] == line["move"] and line["pv_names"][0] == line["name"]
    scores = [line["score"] for line in last["lines"]]
    assert scores == sorted(scores, reverse=True)
    assert runs.running() == 0  # paused: nothing searches
    sock.emit("analysis_continue", {}, namespace=NAMESPACE)
    wait_for(sock, lambda seen: any(u["status"] == "running" for u in updates(seen)))
    assert runs.running() == 1
    sock.disconnect(namespace=NAMESPACE)
    assert runs.running() == 0


def test_later_slices_go_deeper_without_repeating_shallow_depths(board_app: Any) -> None:
    # The run searches in slices of 0.6 s up to its 1.5 s cap, each slice going on from
    # the last: the depth shown never falls back, and every line keeps its continuation.
    sock = connect(board_app)
    sock.emit("analyse", {"size": 15, "rule": "freestyle", "moves": MIDGAME, "lines": 2},
              namespace=NAMESPACE)  # fmt: skip
    events = wait_for(sock, lambda seen: any(u["status"] == "paused" for u in updates(seen)))
    got = updates(events)
    depths = [u["depth"] for u in got]
    assert depths == sorted(depths), depths
    assert len(got) >= 3
    for update in got:
        for line in update["lines"]:
            if line["mate"] is None:
                assert len(line["pv"]) >= min(update["depth"], 3), (update["depth"], line)
    sock.disconnect(namespace=NAMESPACE)


def test_a_new_position_replaces_the_old(board_app: Any) -> None:
    sock = connect(board_app)
    first = {"size": 15, "rule": "freestyle", "moves": MIDGAME, "lines": 2}
    sock.emit("analyse", first, namespace=NAMESPACE)
    second = {**first, "moves": [*MIDGAME, [5, 5]]}
    ack = sock.emit("analyse", second, namespace=NAMESPACE, callback=True)
    assert ack["position"] == 2
    events = wait_for(sock, lambda seen: any(u["position"] == 2 for u in updates(seen)))
    latest = [u for u in updates(events) if u["position"] == 2][-1]
    assert latest["turn"] == "white"
    assert [5, 5] not in [line["move"] for line in latest["lines"]]
    sock.disconnect(namespace=NAMESPACE)


def test_an_empty_board_is_the_opening_and_starts_no_search(
    board_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = board_app.extensions["analysis_runs"]
    jobs: list[Any] = []
    submit = runs.runner.submit

    def counted(job: Any, progress: Any) -> Any:
        jobs.append(job)
        return submit(job, progress)

    monkeypatch.setattr(runs.runner, "submit", counted)
    sock = connect(board_app)
    ack = sock.emit("analyse", {"size": 15, "rule": "freestyle", "moves": [], "lines": 3},
                    namespace=NAMESPACE, callback=True)  # fmt: skip
    assert ack == {"ok": True, "position": 1}
    events = wait_for(sock, lambda seen: bool(updates(seen)))
    [update] = updates(events)
    assert update["status"] == "opening" and update["turn"] == "black"
    assert update["nodes"] == 0 and update["depth"] == 0
    assert [line["name"] for line in update["lines"]] == ["h8"]
    assert runs.running() == 0
    # Asking to go on does not start a search of the empty board either.
    sock.emit("analysis_continue", {}, namespace=NAMESPACE)
    time.sleep(0.5)
    assert updates(sock.get_received(NAMESPACE)) == []
    assert runs.running() == 0 and jobs == []
    # A 9x9 board's centre is e5; the first stone then starts the search.
    sock.emit("analyse", {"size": 9, "rule": "freestyle", "moves": [], "lines": 1},
              namespace=NAMESPACE)  # fmt: skip
    events = wait_for(sock, lambda seen: bool(updates(seen)))
    assert [line["name"] for line in updates(events)[0]["lines"]] == ["e5"]
    sock.emit("analyse", {"size": 9, "rule": "freestyle", "moves": [[4, 4]], "lines": 1},
              namespace=NAMESPACE)  # fmt: skip
    wait_for(sock, lambda seen: any(u["status"] == "running" for u in updates(seen)))
    assert [job.moves for job in jobs[:1]] == [[(4, 4)]]
    sock.disconnect(namespace=NAMESPACE)


def test_forced_win_is_labelled(board_app: Any) -> None:
    # Black has three in a row with both ends open and it is black's move: a forced win.
    moves = [[5, 7], [0, 0], [6, 7], [0, 2], [7, 7], [0, 4]]
    sock = connect(board_app)
    sock.emit("analyse", {"size": 15, "rule": "freestyle", "moves": moves, "lines": 2},
              namespace=NAMESPACE)  # fmt: skip
    events = wait_for(sock, lambda seen: bool(updates(seen)))
    best = updates(events)[-1]["lines"][0]
    assert best["winner"] == "black" and best["mate"] is not None and best["mate"] % 2 == 1
    assert best["black_winrate"] == 1.0
    sock.disconnect(namespace=NAMESPACE)


def test_per_client_limit_and_bad_positions(board_app: Any) -> None:
    socks = [connect(board_app) for _ in range(3)]
    request = {"size": 15, "rule": "freestyle", "moves": MIDGAME, "lines": 1}
    for sock in socks[:2]:
        assert sock.emit("analyse", request, namespace=NAMESPACE, callback=True)["ok"]
    refused = socks[2].emit("analyse", request, namespace=NAMESPACE, callback=True)
    assert refused["ok"] is False and refused["error"]["code"] == "analysis_limit"
    errors = [e for e in socks[2].get_received(NAMESPACE) if e["name"] == "error"]
    assert errors and errors[0]["args"][0]["code"] == "analysis_limit"
    socks[0].disconnect(namespace=NAMESPACE)
    assert socks[2].emit("analyse", request, namespace=NAMESPACE, callback=True)["ok"]
    bad = [
        {"size": 15, "moves": [[7, 7], [7, 7]]},
        {"size": 15, "moves": [[20, 3]]},
        {"size": 6},
        {"size": 15, "lines": 6},
        {"size": 15, "rule": "gomoku"},
        {
            "size": 15,
            "moves": [[0, 0], [1, 1], [0, 1], [1, 2], [0, 2], [1, 3], [0, 3], [1, 4], [0, 4]],
        },
    ]
    for payload in bad:
        answer = socks[1].emit("analyse", payload, namespace=NAMESPACE, callback=True)
        assert answer["ok"] is False, payload
        assert answer["error"]["code"] in ("bad_request", "bad_moves", "game_over")
    for sock in socks[1:]:
        sock.disconnect(namespace=NAMESPACE)
    assert board_app.extensions["analysis_runs"].running() == 0


def test_page_and_game_link(board_app: Any) -> None:
    client = board_app.test_client()
    page = client.get("/analysis")
    assert page.status_code == 200
    assert b'id="analysis-position"' in page.data and b"js/analysis.js" in page.data
    created = client.post(
        "/api/v1/games", json={"mode": "friend", "size": 19, "rule": "renju", "moves": [[9, 9]]}
    )
    game_id = created.get_json()["id"]
    assert f'href="/analysis?game={game_id}"'.encode() in client.get(f"/g/{game_id}").data
    opened = client.get(f"/analysis?game={game_id}").data.decode()
    assert '"size": 19' in opened and '"rule": "renju"' in opened and "[[9, 9]]" in opened
