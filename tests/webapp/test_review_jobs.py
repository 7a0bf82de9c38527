"""Review jobs with the real AI pool: one job per game however many ask, progress sent
to the review room, the review stored and served again (also by a restarted server)
without searching, refusals, the lease between processes, and "play from here"."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from webapp.ai.runner import AiRunner, AiTicket
from webapp.ai.types import AiJob, ProgressCallback
from webapp.review.repo import ReviewRepo

# Black wins with a five on the row y=7 at its fifth stone: nine moves, ten positions,
# the last a finished board that needs no search.
FIVE = [[3, 7], [3, 9], [4, 7], [4, 9], [5, 7], [5, 9], [6, 7], [6, 9], [7, 7]]
SEARCHED = len(FIVE)


class CountingRunner(AiRunner):
    """Passes jobs to a real runner and keeps them."""

    def __init__(self, inner: AiRunner) -> None:
        self.inner = inner
        self.jobs: list[AiJob] = []
        self._lock = threading.Lock()

    def submit(self, job: AiJob, on_progress: ProgressCallback | None = None) -> AiTicket:
        with self._lock:
            self.jobs.append(job)
        return self.inner.submit(job, on_progress)

    def shutdown(self) -> None:
        return None


def finished_game(client: Any, moves: list[list[int]] = FIVE) -> str:
    reply = client.post("/api/v1/games", json={"mode": "friend", "moves": moves})
    assert reply.status_code == 201
    game_id = reply.get_json()["id"]
    assert client.get(f"/api/v1/games/{game_id}").get_json()["status"] == "finished"
    return str(game_id)


def review_app(app_factory: Any) -> tuple[Any, CountingRunner]:
    app = app_factory(REVIEW_TIME_S=0.05)
    jobs = app.extensions["gomoku_review"]
    counting = CountingRunner(jobs.runner)
    jobs.runner = counting
    return app, counting


def wait_done(client: Any, game_id: str, timeout_s: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status = client.get(f"/api/v1/games/{game_id}/review").get_json()
        if status["status"] in ("done", "failed"):
            return dict(status)
        time.sleep(0.1)
    raise AssertionError("the review did not finish")


def test_concurrent_requests_share_one_job_and_the_result_is_stored(app_factory: Any) -> None:
    app, counting = review_app(app_factory)
    game_id = finished_game(app.test_client())
    assert app.test_client().get(f"/api/v1/games/{game_id}/review").get_json()["status"] == "none"
    answers: list[dict[str, Any]] = []

    def ask() -> None:
        reply = app.test_client().post(f"/api/v1/games/{game_id}/review")
        assert reply.status_code in (200, 202)
        answers.append(reply.get_json())

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 6
    assert all(a["status"] in ("running", "done") and a["total"] == SEARCHED + 1 for a in answers)
    status = wait_done(app.test_client(), game_id)
    assert status["status"] == "done"
    # One search per position that is not over, whoever asked how often.
    assert len(counting.jobs) == SEARCHED
    assert {len(job.moves) for job in counting.jobs} == set(range(SEARCHED))
    assert all(job.lane == "analysis" and job.threats for job in counting.jobs)
    review = status["review"]
    assert len(review["plies"]) == len(FIVE)
    assert len(review["positions"]) == SEARCHED + 1
    assert review["positions"][-1]["black_winrate"] == 1.0
    assert {p["class"] for p in review["plies"]} <= {
        "best", "good", "inaccuracy", "mistake", "blunder"
    }  # fmt: skip
    # White let black's open four through: its last moves allowed a forced win.
    assert review["summary"]["white"]["allowed_wins"] >= 1

    # Asked again, here or by a server started afresh on the same database: served, not
    # searched again.
    again = app.test_client().post(f"/api/v1/games/{game_id}/review")
    assert again.status_code == 200 and again.get_json()["review"] == review
    restarted, recount = review_app(app_factory)
    served = restarted.test_client().post(f"/api/v1/games/{game_id}/review")
    assert served.status_code == 200 and served.get_json()["review"] == review
    assert recount.jobs == [] and len(counting.jobs) == SEARCHED


def test_progress_reaches_the_review_room(app_factory: Any) -> None:
    app, _ = review_app(app_factory)
    client = app.test_client()
    game_id = finished_game(client)
    sock = app.extensions["socketio"].test_client(app, namespace="/review")
    ack = sock.emit("join", {"game_id": game_id}, namespace="/review", callback=True)
    assert ack["ok"] and ack["status"] == "none"
    assert client.post(f"/api/v1/games/{game_id}/review").status_code == 202
    wait_done(client, game_id)
    deadline = time.monotonic() + 10
    events: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        events += sock.get_received("/review")
        if any(e["name"] == "review_done" for e in events):
            break
        time.sleep(0.05)
    progress = [e["args"][0] for e in events if e["name"] == "review_progress"]
    assert [p["done"] for p in progress] == list(range(1, SEARCHED + 2))
    assert all(p["total"] == SEARCHED + 1 and p["game_id"] == game_id for p in progress)
    assert all(0.0 <= p["black_winrate"] <= 1.0 for p in progress)
    done = [e["args"][0] for e in events if e["name"] == "review_done"]
    assert len(done) == 1 and done[0]["status"] == "done" and done[0]["review"]["plies"]
    sock.disconnect(namespace="/review")


def test_refusals(app_factory: Any) -> None:
    app, counting = review_app(app_factory)
    client = app.test_client()
    active = client.post("/api/v1/games", json={"mode": "friend", "moves": [[7, 7]]})
    active_id = active.get_json()["id"]
    reply = client.post(f"/api/v1/games/{active_id}/review")
    assert reply.status_code == 400 and reply.get_json()["code"] == "game_not_finished"
    assert client.post("/api/v1/games/nosuchgame/review").status_code == 404
    assert client.get("/api/v1/games/bad$id/review").status_code == 404
    assert client.get("/g/nosuchgame/review").status_code == 404
    sock = app.extensions["socketio"].test_client(app, namespace="/review")
    ack = sock.emit("join", {"game_id": 5}, namespace="/review", callback=True)
    assert not ack["ok"] and ack["error"]["code"] == "bad_request"
    assert counting.jobs == []


def test_the_review_page_and_the_game_pages_link(app_factory: Any) -> None:
    app, _ = review_app(app_factory)
    client = app.test_client()
    game_id = finished_game(client)
    page = client.get(f"/g/{game_id}/review")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="review-data"' in html and "js/review.js" in html
    assert f'href="/g/{game_id}/review"' in client.get(f"/g/{game_id}").get_data(as_text=True)


def test_a_lease_is_held_until_it_runs_out(app: Any) -> None:
    clock = [1_000_000]
    repo = ReviewRepo(app.extensions["gomoku"].store.engine, now_ms=lambda: clock[0])
    settings = {"time_s": 0.5, "engine": "negamax"}
    moves = [[7, 7], [8, 8]]
    first = repo.claim("g1", moves=moves, settings=settings, owner="a", lease_s=30)
    assert first is not None and first.status == "running"
    assert repo.claim("g1", moves=moves, settings=settings, owner="b", lease_s=30) is None
    assert repo.save_progress("g1", "a", [{"turn": "black", "score": 0}])
    clock[0] += 31_000
    taken = repo.claim("g1", moves=moves, settings=settings, owner="b", lease_s=30)
    assert taken is not None and taken.owner == "b" and len(taken.positions) == 1
    assert not repo.save_progress("g1", "a", [])  # the old owner lost it
    assert repo.finish("g1", "b", [], {"plies": []})
    assert repo.claim("g1", moves=moves, settings=settings, owner="c", lease_s=30) is None
    # Other moves (the game was changed by an undo): reviewed again from the start.
    other = repo.claim("g1", moves=[[7, 7]], settings=settings, owner="c", lease_s=30)
    assert other is not None and other.positions == [] and other.total == 2


def test_play_from_here_starts_an_ai_game_at_that_position(app_factory: Any) -> None:
    app, _ = review_app(app_factory)
    client = app.test_client()
    game_id = finished_game(client)
    reply = client.post(f"/api/v1/games/{game_id}/play-from", json={"ply": 4, "level": 1})
    assert reply.status_code == 201
    new_id = reply.get_json()["id"]
    assert reply.get_json()["url"] == f"/g/{new_id}"
    state = client.get(f"/api/v1/games/{new_id}").get_json()
    assert state["mode"] == "ai" and state["moves"][:4] == FIVE[:4]
    assert state["players"]["black"]["kind"] == "human"  # the side to move, by default
    assert state["players"]["white"]["level"] == 1
    white = client.post(
        f"/api/v1/games/{game_id}/play-from", json={"ply": 4, "level": 2, "color": "white"}
    )
    assert white.status_code == 201
    over = client.post(f"/api/v1/games/{game_id}/play-from", json={"ply": len(FIVE)})
    assert over.status_code == 400 and over.get_json()["code"] == "game_over"
    for body in ({"ply": 99}, {"ply": "4"}, {"ply": 2, "color": "red"}, [1]):
        bad = client.post(f"/api/v1/games/{game_id}/play-from", json=body)
        assert bad.status_code == 400, body


@pytest.mark.parametrize("ply", [0, 1])
def test_play_from_the_first_positions(app_factory: Any, ply: int) -> None:
    app, _ = review_app(app_factory)
    client = app.test_client()
    game_id = finished_game(client)
    reply = client.post(f"/api/v1/games/{game_id}/play-from", json={"ply": ply})
    assert reply.status_code == 201


class FailingRunner(CountingRunner):
    """Fails every search before passing any on."""

    def submit(self, job: AiJob, on_progress: ProgressCallback | None = None) -> AiTicket:
        with self._lock:
            self.jobs.append(job)
        raise RuntimeError("no engine")


def test_a_failed_review_says_so_and_is_retried_when_asked_again(app_factory: Any) -> None:
    app = app_factory(REVIEW_TIME_S=0.05)
    jobs = app.extensions["gomoku_review"]
    real = jobs.runner
    failing = FailingRunner(real)
    jobs.runner = failing
    client = app.test_client()
    game_id = finished_game(client)
    client.post(f"/api/v1/games/{game_id}/review")
    status = wait_done(client, game_id)
    assert status["status"] == "failed" and status["error"]
    assert len(failing.jobs) == 2  # the first position, tried twice
    jobs.runner = CountingRunner(real)
    assert client.post(f"/api/v1/games/{game_id}/review").status_code == 202
    assert wait_done(client, game_id)["status"] == "done"
