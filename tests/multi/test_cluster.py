"""Multi-process mode with real processes and real services: two web servers, two queue
workers, Redis and PostgreSQL (``cluster``). A player connects to server A and a
spectator to server B; moves must reach both. Then the faults: a worker SIGKILLed
mid-search, a web server SIGKILLed mid-game and restarted, Redis stopped and started
again. Throughout, a move that was acknowledged must be in the database, exactly once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis

from tests.multi.conftest import (
    Cluster,
    Peer,
    claim_seat,
    create_game,
    free_point,
    game_state,
    http,
)

pytestmark = pytest.mark.multi

PeerFactory = Callable[..., Peer]


def play(peer: Peer, game_id: str, near: tuple[int, int] = (7, 7)) -> dict[str, Any]:
    """Play a free point near ``near`` as ``peer``; return the acknowledgement."""
    state = peer.last_state(game_id)
    x, y = free_point(state, near)
    return peer.call("move", {"game_id": game_id, "x": x, "y": y, "version": state["version"]})


def assert_consistent(states: list[dict[str, Any]]) -> None:
    """Each state a client saw extends or takes back the move list; no move is doubled."""
    for state in states:
        points = [tuple(m) for m in state["moves"]]
        assert len(points) == len(set(points)), f"a point played twice: {points}"


def test_ai_and_friend_games_reach_both_servers(cluster: Cluster, peers: PeerFactory) -> None:
    for server in cluster.servers:
        status, body = server.health()
        assert status == 200 and b'"mode":"multi"' in body, body
    # vs AI: the player on A, a spectator on B; the AI runs on a worker.
    # Level 4 thinks about a second a move, long enough to stream live reports.
    ai_game, ai_cookie = create_game(cluster.a, mode="ai", level=4, color="black")
    player = peers(cluster.a, ai_cookie)
    assert player.join(ai_game)["you"] == "black"
    watcher = peers(cluster.b)
    assert watcher.join(ai_game)["you"] is None
    for turn in range(3):
        assert play(player, ai_game, (7 + turn, 7)) == {"ok": True}
        count = 2 * turn + 2
        mine = player.wait_moves(ai_game, count, 20)
        seen = watcher.wait_moves(ai_game, count, 20)
        assert seen["moves"][:count] == mine["moves"][:count]
    settled = watcher.wait_state(ai_game, lambda s: len(s["evals"]) == 3)
    assert all(e["depth"] >= 1 and e["nodes"] >= 1 for e in settled["evals"])
    assert any(e[1] == "thinking" for e in watcher.events), "no live engine progress on B"
    player.wait_state(
        ai_game, lambda s: s["players"]["black"]["connected"] and s["spectators"] >= 1
    )

    # Friends: black on A, white claims the seat through B; a spectator on B.
    friend_game, black_cookie = create_game(cluster.a, mode="friend", color="black")
    white_cookie = claim_seat(cluster.b, friend_game)
    black = peers(cluster.a, black_cookie)
    white = peers(cluster.b, white_cookie)
    spectator = peers(cluster.b)
    assert black.join(friend_game)["you"] == "black"
    assert white.join(friend_game)["you"] == "white"
    spectator.join(friend_game)
    for ply in range(1, 7):
        mover = black if ply % 2 else white
        assert play(mover, friend_game, (3 + ply, 4 + ply % 2)) == {"ok": True}
        for peer in (black, white, spectator):
            peer.wait_moves(friend_game, ply, 10)
    final = game_state(cluster.b, friend_game)
    assert len(final["moves"]) == 6
    for peer in (black, white, spectator):
        assert peer.last_state(friend_game)["moves"] == final["moves"]
        assert_consistent(peer.states(friend_game))


def test_hints_undo_and_engine_api_through_the_queue(cluster: Cluster, peers: PeerFactory) -> None:
    game_id, cookie = create_game(cluster.a, mode="ai", level=4, color="black")
    player = peers(cluster.b, cookie)
    player.join(game_id)
    ack = player.call("hint", {"game_id": game_id})
    assert ack == {"ok": True}
    deadline = time.monotonic() + 20
    while not any(e[1] == "hint" for e in player.events):
        assert time.monotonic() < deadline, "no hint from the workers"
        time.sleep(0.05)
    hint = next(e[2] for e in player.events if e[1] == "hint")
    assert hint["game_id"] == game_id and len(hint["move"]) == 2
    # Undo while a worker thinks: the search is abandoned and its move never lands.
    assert play(player, game_id) == {"ok": True}
    player.wait_state(game_id, lambda s: len(s["moves"]) == 1 and s["thinking"])
    assert player.call("undo", {"game_id": game_id}) == {"ok": True}
    player.wait_state(game_id, lambda s: s["moves"] == [] and not s["thinking"])
    time.sleep(2.0)
    assert game_state(cluster.a, game_id)["moves"] == []
    status, reply, _ = http(
        f"{cluster.b.url}/api/v1/move", {"moves": [[7, 7], [8, 8]], "time_ms": 200}
    )
    assert status == 200 and len(reply["move"]) == 2, reply


def test_concurrent_moves_exactly_one_wins(cluster: Cluster, peers: PeerFactory) -> None:
    game_id, black_cookie = create_game(cluster.a, mode="friend", color="black")
    claim_seat(cluster.b, game_id)
    # The same player with two tabs, one on each server, both moving at once.
    tabs = [peers(cluster.a, black_cookie), peers(cluster.b, black_cookie)]
    version = tabs[0].join(game_id)["version"]
    tabs[1].join(game_id)
    answers: list[Any] = [None, None]
    start = threading.Barrier(2)

    def move(index: int) -> None:
        start.wait()
        answers[index] = tabs[index].call(
            "move", {"game_id": game_id, "x": 3 + index, "y": 3, "version": version}
        )

    threads = [threading.Thread(target=move, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert sorted(a["ok"] for a in answers) == [False, True], answers
    refused = next(a for a in answers if not a["ok"])
    assert refused["error"]["code"] == "stale"
    assert len(game_state(cluster.a, game_id)["moves"]) == 1


def _lease_holder(cluster: Cluster, key: str, timeout_s: float = 20) -> str:
    client = redis.Redis.from_url(cluster.redis.url)
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            value = client.get(key)
            if value and not value.startswith(b"queued:"):
                return value.decode()
            time.sleep(0.01)
    finally:
        client.close()
    raise AssertionError(f"no worker took {key} within {timeout_s} s")


def test_worker_killed_mid_search_is_replaced(cluster: Cluster, peers: PeerFactory) -> None:
    # Level 4 thinks for a second: long enough to be killed in the middle.
    game_id, cookie = create_game(cluster.a, mode="ai", level=4, color="black")
    player = peers(cluster.a, cookie)
    player.join(game_id)
    watcher = peers(cluster.b)
    watcher.join(game_id)
    assert play(player, game_id) == {"ok": True}
    thinking = player.wait_state(game_id, lambda s: len(s["moves"]) == 1 and s["thinking"])
    key = f"gomoku:turn:{game_id}:{thinking['version']}"
    holder = _lease_holder(cluster, key)
    pid = int(holder.split("-")[-2])
    victim = next(w for w in cluster.workers if w.process and w.process.pid == pid)
    time.sleep(0.3)
    assert len(game_state(cluster.a, game_id)["moves"]) == 1, "the search ended too soon"
    victim.kill()
    killed_at = time.monotonic()
    try:
        reply = watcher.wait_moves(game_id, 2, 5.0)
        player.wait_moves(game_id, 2, 5.0)
        assert time.monotonic() - killed_at <= 5.0
        survivor = next(w for w in cluster.workers if w is not victim)
        # The worker logs the turn after publishing it: allow the line a moment to land.
        played = f"turn {game_id}@{thinking['version']} played"
        deadline = time.monotonic() + 3.0
        while played not in survivor.log_path.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert played in survivor.log_path.read_text()
        # Nothing arrives twice: the database and both clients agree on two moves.
        time.sleep(1.5)
        state = game_state(cluster.b, game_id)
        assert state["moves"] == reply["moves"][:2] and len(state["moves"]) == 2
        assert len(state["evals"]) == 1
        assert player.last_state(game_id)["moves"] == state["moves"]
        assert_consistent(watcher.states(game_id))
        # And the game goes on.
        assert play(player, game_id, (6, 6)) == {"ok": True}
        watcher.wait_moves(game_id, 4, 15)
    finally:
        cluster.heal()


def test_a_job_lost_before_its_worker_claimed_it_is_run_again(
    cluster: Cluster, peers: PeerFactory
) -> None:
    game_id, cookie = create_game(cluster.a, mode="ai", level=1, color="black")
    player = peers(cluster.a, cookie)
    version = player.join(game_id)["version"]
    # As if a worker had taken the job of the AI's coming turn off the queue and died
    # before claiming it: the turn reads queued, and no job is waiting for it.
    client = redis.Redis.from_url(cluster.redis.url)
    try:
        client.set(f"gomoku:turn:{game_id}:{version + 1}", "queued:turn-lost", ex=3600)
    finally:
        client.close()
    assert play(player, game_id) == {"ok": True}
    played_at = time.monotonic()
    time.sleep(1.0)
    assert len(game_state(cluster.a, game_id)["moves"]) == 1, "the turn was not blocked"
    reply = player.wait_moves(game_id, 2, 10.0)
    assert time.monotonic() - played_at <= 8.0
    assert reply["version"] == version + 2
    time.sleep(1.0)
    state = game_state(cluster.b, game_id)
    assert len(state["moves"]) == 2 and len(state["evals"]) == 1


def test_server_killed_mid_game_and_restarted(cluster: Cluster, peers: PeerFactory) -> None:
    ai_game, ai_cookie = create_game(cluster.a, mode="ai", level=3, color="black")
    friend_game, black_cookie = create_game(cluster.a, mode="friend", color="black")
    white_cookie = claim_seat(cluster.b, friend_game)
    player = peers(cluster.a, ai_cookie)
    player.join(ai_game)
    black = peers(cluster.a, black_cookie)
    black.join(friend_game)
    white = peers(cluster.b, white_cookie)
    white.join(friend_game)
    watcher = peers(cluster.b)
    watcher.join(ai_game)
    watcher.join(friend_game)
    assert play(player, ai_game) == {"ok": True}
    player.wait_moves(ai_game, 2, 20)
    assert play(black, friend_game, (3, 3)) == {"ok": True}
    white.wait_moves(friend_game, 1)
    assert play(white, friend_game, (10, 10)) == {"ok": True}
    watcher.wait_moves(friend_game, 2)

    # The player moves and the server dies while the AI thinks about the answer.
    assert play(player, ai_game, (8, 8)) == {"ok": True}
    connects = (player.connects, black.connects)
    cluster.a.kill()
    try:
        # The worker still answers, and the spectator on B sees it.
        watcher.wait_moves(ai_game, 4, 20)
        cluster.a.start()
        deadline = time.monotonic() + 30
        while player.connects == connects[0] or black.connects == connects[1]:
            assert time.monotonic() < deadline, "the clients did not reconnect"
            time.sleep(0.1)
        for peer, game_id, count in ((player, ai_game, 4), (black, friend_game, 2)):
            rejoined = peer.wait_state(
                game_id, lambda s, c=count: len(s["moves"]) == c and s["you"] is not None, 15
            )
            assert rejoined["moves"] == game_state(cluster.b, game_id)["moves"]
        # Both games continue through the restarted server.
        assert play(black, friend_game, (4, 4)) == {"ok": True}
        white.wait_moves(friend_game, 3)
        watcher.wait_moves(friend_game, 3)
        assert play(player, ai_game, (6, 8)) == {"ok": True}
        watcher.wait_moves(ai_game, 6, 20)
        for game_id in (ai_game, friend_game):
            assert_consistent(watcher.states(game_id))
    finally:
        cluster.heal()


def test_redis_outage_is_reported_and_survived(cluster: Cluster, peers: PeerFactory) -> None:
    game_id, black_cookie = create_game(cluster.a, mode="friend", color="black")
    white_cookie = claim_seat(cluster.b, game_id)
    ai_game, ai_cookie = create_game(cluster.b, mode="ai", level=1, color="black")
    black = peers(cluster.a, black_cookie)
    black.join(game_id)
    white = peers(cluster.b, white_cookie)
    white.join(game_id)
    watcher = peers(cluster.b)
    watcher.join(game_id)
    player = peers(cluster.a, ai_cookie)
    player.join(ai_game)
    acknowledged: dict[str, int] = {game_id: 0, ai_game: 0}
    assert play(black, game_id, (3, 3)) == {"ok": True}
    acknowledged[game_id] += 1
    watcher.wait_moves(game_id, 1)

    white.wait_moves(game_id, 1)
    cluster.redis.stop()
    try:
        for server in cluster.servers:
            deadline = time.monotonic() + 10
            while server.health()[0] != 503:
                assert time.monotonic() < deadline, "the outage was not reported"
                time.sleep(0.1)
            status, body, _ = http(f"{server.url}/api/v1/games", {"mode": "ai"})
            assert status == 503 and "Redis" in body["error"]
        before = game_state(cluster.a, game_id)
        refused = play(white, game_id, (10, 10))
        assert refused["ok"] is False and refused["error"]["code"] == "unavailable"
        assert "Redis" in refused["error"]["message"]
        refused = play(player, ai_game)
        assert refused["error"]["code"] == "unavailable"
        after = game_state(cluster.a, game_id)
        assert after["moves"] == before["moves"] and after["version"] == before["version"]
        assert game_state(cluster.b, ai_game)["moves"] == []
    finally:
        cluster.redis.start()
    for server in cluster.servers:
        deadline = time.monotonic() + 30
        while not server.healthy():
            assert time.monotonic() < deadline, f"no recovery: {server.health()}"
            time.sleep(0.2)
    # Play resumes on both servers and reaches everyone again, the AI included.
    assert play(white, game_id, (10, 10)) == {"ok": True}
    acknowledged[game_id] += 1
    for peer in (black, watcher):
        peer.wait_moves(game_id, 2)
    assert play(black, game_id, (4, 3)) == {"ok": True}
    acknowledged[game_id] += 1
    white.wait_moves(game_id, 3)
    watcher.wait_moves(game_id, 3)
    assert play(player, ai_game) == {"ok": True}
    acknowledged[ai_game] += 1
    player.wait_moves(ai_game, 2, 30)
    # Every acknowledged move is stored, once.
    assert len(game_state(cluster.a, game_id)["moves"]) == acknowledged[game_id]
    assert len(game_state(cluster.a, ai_game)["moves"]) == 2 * acknowledged[ai_game]


def test_store_reads_one_version_on_postgres(cluster: Cluster) -> None:
    # The servers' store on the cluster's PostgreSQL: while one writer adds a move per
    # version, every read has one move more than its version (one snapshot per read).
    from tests.store_race import torn_reads
    from webapp.storage.store import GameRecord, MoveRecord, SeatRecord, Store

    store = Store(cluster.postgres.url)
    game_id = f"snap{int(time.time() * 1000) % 10**9}"
    store.create(
        GameRecord(
            id=game_id,
            mode="friend",
            size=15,
            rule="freestyle",
            status="active",
            moves=[MoveRecord(1, 7, 7, "black")],
            seats={
                "black": SeatRecord("black", "human", "a"),
                "white": SeatRecord("white", "human", "b"),
            },
        )
    )
    try:
        torn = torn_reads(store, game_id, 150)
    finally:
        store.close()
    assert torn == []
