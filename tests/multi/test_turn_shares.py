"""Fair shares of the AI turn queue, on a real Redis: a client with many games holds at
most its share of queued turns, another client's turn is queued at once behind them, a
client's waiting turns join the queue as its earlier ones end (or as their worker's lease
runs out), and waiting turns are neither orphans nor queued twice."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.multi.services import RedisServer
from webapp.scale.shared import redis_client
from webapp.scale.turns import AiTurn, TurnQueue

pytestmark = pytest.mark.multi

GREEDY, OTHER = "10.0.0.1", "10.0.0.2"


@pytest.fixture
def turns() -> Iterator[TurnQueue]:
    server = RedisServer()
    server.start()
    redis = redis_client(server.url)
    try:
        yield TurnQueue(redis, share=2, lease_ms=300)
    finally:
        redis.close()
        server.stop()


def queued(turns: TurnQueue) -> list[str]:
    return [str(job.kwargs["game_id"]) for job in turns.queue.get_jobs()]


def take(turns: TurnQueue, game_id: str) -> dict[str, Any]:
    """What a worker does: take the job of ``game_id`` from the queue."""
    job = next(job for job in turns.queue.get_jobs() if job.kwargs["game_id"] == game_id)
    turns.queue.remove(job)
    return dict(job.kwargs)


def test_a_client_holds_at_most_its_share_of_the_queue(turns: TurnQueue) -> None:
    many = [AiTurn(f"a{n}", 1, "white", 1) for n in range(5)]
    for turn in many:
        assert turns.schedule(turn, client=GREEDY)
    other = AiTurn("b0", 1, "white", 1)
    assert turns.schedule(other, client=OTHER)
    # The other client's turn is second in line to nothing but the greedy one's share.
    assert queued(turns) == ["a0", "a1", "b0"]
    assert not turns.schedule(many[3], client=GREEDY)  # waiting already: once only
    assert not turns.schedule(many[0], client=GREEDY)  # queued already
    assert turns.find_orphans([*many, other]) == []
    assert queued(turns) == ["a0", "a1", "b0"]

    # A worker plays a0 to the end: a2 joins the queue, with its client.
    kwargs = take(turns, "a0")
    assert kwargs["client"] == GREEDY
    assert turns.claim(many[0], "worker-1")
    turns.release(many[0], "worker-1")
    assert turns.finished(GREEDY) == 1
    assert queued(turns) == ["a1", "b0", "a2"]
    assert turns.finished(GREEDY) == 0  # still two held: a1 and a2

    # A worker dies holding a1: once its lease runs out, the line moves on too (the
    # watchdog re-queues a1 itself, and wakes the line of any client with waiting turns).
    take(turns, "a1")
    assert turns.claim(many[1], "worker-2")
    time.sleep(0.5)
    # (a0 was played: its game has moved on, so the watchdog no longer asks about it)
    orphans = turns.find_orphans(many[1:])
    assert orphans == [many[1]]
    assert queued(turns) == ["b0", "a2", "a3"]
    for turn in orphans:
        assert turns.schedule(turn)  # by the watchdog: no request, the shared client
    assert queued(turns) == ["b0", "a2", "a3", "a1"]
    assert queued(turns).count("a4") == 0


def test_turns_without_a_request_share_one_line(turns: TurnQueue) -> None:
    games = [AiTurn(f"e{n}", 3, "black", 2) for n in range(3)]
    for turn in games:
        assert turns.schedule(turn)
    assert queued(turns) == ["e0", "e1"]
    assert take(turns, "e0")["client"] == "-"
