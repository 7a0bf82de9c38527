"""External Gomocup engines as players, against real subprocess brains: our own brain
answers with its thinking parsed from MESSAGE lines and keeps running between moves;
brains that stay silent, crash or play illegally lose cleanly, alone and inside a game;
and whole AI-vs-AI games between negamax and the external ``gomoku pbrain`` (and MCTS)
finish over Socket.IO and show up in the ratings."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from socket_helpers import create_game, join

from webapp.ai.types import AiJob
from webapp.players.external import (
    ANSWER_GRACE_S,
    end_all_brains,
    parse_message,
    play_external_move,
)

ROOT = Path(__file__).resolve().parents[2]
BAD_BRAIN = [sys.executable, str(ROOT / "tests" / "opponents" / "bad_brains.py")]
OUR_BRAIN = [sys.executable, "-m", "webapp.cli", "pbrain"]
MOVE_S = 0.3


@pytest.fixture(autouse=True)
def no_brains_left() -> Iterator[None]:
    yield
    end_all_brains()


def spec(command: list[str], name: str = "brain") -> dict[str, Any]:
    return {"kind": "engine", "command": command, "move_time_s": MOVE_S, "name": name}


def job(moves: list[tuple[int, int]], size: int = 15, session: str | None = "g:white") -> AiJob:
    return AiJob(size, "freestyle", moves, 1, session=session)


def test_our_message_format_is_parsed() -> None:
    info = parse_message("depth 5 score -37 nodes 1234 nps 5000 pv h8 i9", 15)
    assert info == {
        "depth": 5,
        "score": -37,
        "nodes": 1234,
        "nps": 5000,
        "pv": [[7, 7], [8, 6]],
        "move": [7, 7],
    }
    assert parse_message("evaluating the centre...", 15) == {}


def test_our_brain_answers_with_its_thinking_and_keeps_running() -> None:
    reports: list[dict[str, Any]] = []
    first = play_external_move(job([(3, 3)]), spec(OUR_BRAIN), reports.append)
    assert first.forfeit is None
    assert first.move != (3, 3)
    assert min(first.move) >= 0 and max(first.move) < 15
    assert reports, "the brain's MESSAGE lines become thinking reports"
    assert all(r["engine"] == "external" and r["text"] for r in reports)
    assert any("depth" in r and "pv" in r for r in reports)
    # The next move follows on: the same brain gets a TURN and answers within its time.
    started = time.monotonic()
    third = (4, 4) if first.move != (4, 4) else (2, 2)  # a free point whatever it answered
    second = play_external_move(job([(3, 3), first.move, third]), spec(OUR_BRAIN))
    assert second.forfeit is None
    assert second.move not in {(3, 3), first.move, third}
    assert time.monotonic() - started < MOVE_S + ANSWER_GRACE_S


@pytest.mark.parametrize(
    ("flag", "reason", "words"),
    [
        ("--silent", "timeout", "did not answer"),
        ("--crash", "forfeit", "died"),
        ("--illegal", "forfeit", "illegal move"),
    ],
)
def test_a_failing_brain_forfeits(flag: str, reason: str, words: str) -> None:
    reports: list[dict[str, Any]] = []
    started = time.monotonic()
    result = play_external_move(job([(7, 7)]), spec([*BAD_BRAIN, flag], "bad"), reports.append)
    assert result.forfeit is not None
    assert result.forfeit["reason"] == reason
    assert words in result.forfeit["detail"]
    assert reports[0]["text"] == "thinking about it"
    # The time limit is enforced: a silent brain costs its time plus the grace, no more.
    assert time.monotonic() - started < MOVE_S + ANSWER_GRACE_S + 10


def test_a_brain_that_cannot_start_forfeits() -> None:
    result = play_external_move(job([]), spec(["/nonexistent/brain"], "ghost"))
    assert result.forfeit is not None
    assert result.forfeit["reason"] == "forfeit"


@pytest.mark.parametrize(
    ("flag", "reason"), [("--silent", "timeout"), ("--crash", "forfeit"), ("--illegal", "forfeit")]
)
def test_a_failing_engine_loses_the_game_cleanly(
    app_factory: Any, socket_factory: Any, flag: str, reason: str
) -> None:
    engines = [{"name": "bad", "command": [*BAD_BRAIN, flag, "--after", "2"], "time_s": MOVE_S}]
    app = app_factory(ENGINES=engines)
    client = app.test_client()
    game_id = create_game(
        client,
        mode="aivai",
        size=9,
        black_player="negamax:1",
        white_player="engine:bad",
    )
    sock = app.extensions["socketio"].test_client(app, namespace="/game")
    watcher = join(sock, game_id)
    state = watcher.wait_state(lambda s: s["status"] == "finished", 60)
    assert state["result"]["winner"] == "black"
    assert state["result"]["reason"] == reason
    assert state["result"]["detail"]
    # Two good white moves were played, then white failed at its third: nothing after it.
    assert len(state["moves"]) == 5
    texts = [p.get("text") for p in watcher.named("thinking") if p["color"] == "white"]
    assert "thinking about it" in texts
    sock.disconnect(namespace="/game")


def test_negamax_and_the_external_brain_play_a_game_to_the_end(
    app_factory: Any,
) -> None:
    # Our brain, launched as an external engine with a short move time.
    engines = [{"name": "quick-brain", "command": OUR_BRAIN, "time_s": 0.2}]
    app = app_factory(ENGINES=engines)
    client = app.test_client()
    game_id = create_game(
        client,
        mode="aivai",
        size=7,
        black_player="negamax:1",
        white_player="engine:quick-brain",
    )
    sock = app.extensions["socketio"].test_client(app, namespace="/game")
    watcher = join(sock, game_id)
    state = watcher.wait_state(lambda s: s["status"] == "finished", 120)
    assert state["result"]["reason"] in ("five", "full")
    assert state["players"]["white"]["name"] == "quick-brain"
    thinking = [p for p in watcher.named("thinking") if p["color"] == "white"]
    assert thinking and all(p["engine"] == "external" for p in thinking)
    assert any("depth" in p for p in thinking)
    assert len(state["moves"]) >= 9
    data = client.get("/api/v1/players").get_json()
    ratings = {r["id"]: r for r in data["ratings"]}
    assert ratings["engine:quick-brain"]["games"] == 1
    assert ratings["negamax:1"]["games"] == 1
    html = client.get("/players").get_data(as_text=True)
    assert 'data-player-id="engine:quick-brain"' in html
    sock.disconnect(namespace="/game")


def test_mcts_plays_in_ai_vs_ai_with_playout_reports(client: Any, socket_factory: Any) -> None:
    game_id = create_game(
        client, mode="aivai", size=7, black_player="mcts", white_player="negamax:1"
    )
    watcher = join(socket_factory(), game_id)
    state = watcher.wait_state(lambda s: len(s["moves"]) >= 4, 60)
    assert state["players"]["black"]["name"] == "MCTS"
    reports = [p for p in watcher.named("thinking") if p["color"] == "black"]
    assert reports and all(p["engine"] == "mcts" for p in reports)
    assert all(p["nodes"] >= 0 for p in reports)
