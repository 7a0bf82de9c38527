"""The AI worker pool with real worker processes: lanes keep live games' turns ahead of
analysis, waiting jobs can be cancelled, a dead worker fails its job and is replaced, a
cold pool says it is warming, and the workers die with a server killed at any moment."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, free_port
from webapp.ai.lanes import ANALYSIS
from webapp.ai.pool import PoolAiRunner, WorkerLostError
from webapp.ai.types import AiJob

OPENING = [(7, 7), (8, 8), (8, 7)]


def analysis(client: str, time_s: float) -> AiJob:
    return AiJob(15, "freestyle", OPENING, 5, time_s=time_s, lane=ANALYSIS, client=client)


def game_move(level: int = 1) -> AiJob:
    return AiJob(15, "freestyle", OPENING, level, session="g:white")


@pytest.fixture
def pool(ai_runner: Any) -> PoolAiRunner:
    pool = ai_runner.inner if hasattr(ai_runner, "inner") else ai_runner
    assert pool.wait_ready(120)
    return pool  # type: ignore[no-any-return]


def test_a_game_move_does_not_wait_behind_analysis(pool: PoolAiRunner) -> None:
    first = pool.submit(analysis("a", 2.0))
    second = pool.submit(analysis("b", 2.0))
    time.sleep(0.1)
    status = pool.status()
    assert status["analysis"]["busy"] == 1
    assert status["analysis"]["waiting"] == 1
    move = pool.submit(game_move()).future.result(30)
    assert move.depth >= 1
    # The game's move was played while both analysis searches were still unfinished.
    assert not second.future.done()
    second.cancel()
    with pytest.raises(CancelledError):
        second.future.result(5)
    assert first.future.result(10).depth >= 1


def test_analysis_clients_take_turns(pool: PoolAiRunner) -> None:
    busy = pool.submit(analysis("a", 1.0))
    time.sleep(0.1)
    greedy = [pool.submit(analysis("greedy", 0.3)) for _ in range(3)]
    modest = pool.submit(analysis("modest", 0.3))
    modest.future.result(30)
    # After the running search, the line went greedy, modest, greedy, greedy.
    finished_before = [t for t in greedy if t.future.done()]
    assert len(finished_before) == 1
    for ticket in [busy, *greedy]:
        ticket.future.result(30)


def test_one_client_holds_all_but_one_game_worker() -> None:
    pool = PoolAiRunner(2, analysis_workers=1)
    try:
        deadline = time.monotonic() + 120
        while pool.status()["game"]["ready"] < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        greedy = [
            pool.submit(AiJob(15, "freestyle", OPENING, 5, time_s=2.0, client="greedy"))
            for _ in range(3)
        ]
        time.sleep(0.2)
        assert pool.status()["game"] == {"workers": 2, "ready": 2, "busy": 1, "waiting": 2}
        other = pool.submit(AiJob(15, "freestyle", OPENING, 1, client="other"))
        assert other.future.result(30).depth >= 1
        # The other client was served on the free worker before any more of greedy's.
        assert not greedy[1].future.done()
        for ticket in greedy:
            ticket.cancel()
    finally:
        pool.shutdown()


def test_a_killed_worker_fails_its_job_and_is_replaced(pool: PoolAiRunner) -> None:
    ticket = pool.submit(analysis("a", 3.0))
    deadline = time.monotonic() + 10
    while pool.status()["analysis"]["busy"] == 0:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    before = set(pool.worker_pids())
    victim = next(pid for pid in before if _lane_of(pid) == "analysis")
    os.kill(victim, signal.SIGKILL)
    with pytest.raises(WorkerLostError):
        ticket.future.result(10)
    assert pool.wait_ready(60)
    after = set(pool.worker_pids())
    assert victim not in after and len(after) == len(before)
    assert pool.submit(analysis("a", 0.1)).future.result(30).depth >= 1


def test_a_stuck_worker_is_ended(pool: PoolAiRunner, monkeypatch: Any) -> None:
    # Any search is "stuck" one second after its 30 s limit would end.
    monkeypatch.setattr("webapp.ai.pool.STUCK_AFTER_S", -29.0)
    before = set(pool.worker_pids())
    ticket = pool.submit(analysis("a", 30.0))
    with pytest.raises(WorkerLostError):
        ticket.future.result(30)
    monkeypatch.undo()
    assert pool.wait_ready(60)
    assert len(set(pool.worker_pids()) - before) == 1


def _lane_of(pid: int) -> str:
    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    return "analysis" if b"--nice" in command else "game"


def test_a_cold_pool_says_it_is_warming_until_a_worker_is_ready() -> None:
    pool = PoolAiRunner(1, analysis_workers=1, warm_up=False)
    try:
        assert pool.warming
        ticket = pool.submit(game_move())
        assert ticket.future.result(60).depth >= 1
        assert not pool.warming
        pids = pool.worker_pids()
        assert len(pids) == 2
    finally:
        pool.shutdown()
    assert not any(_alive(pid) for pid in pids)


# -- workers die with their server -----------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited


def _workers_of(server_pid: int) -> set[int]:
    """Pool workers started by ``server_pid``, found by their command line (they may
    have been adopted by another process already)."""
    found = set()
    marker = f"--parent\0{server_pid}\0".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"pool_worker" in command and marker in command:
            found.add(int(entry.name))
    return found


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    env = dict(os.environ, GOMOKU_INSTANCE=str(tmp_path / "instance"), AI_WORKERS="2")
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    command = [sys.executable, "-m", "webapp.cli", "serve", "--port", str(port)]
    with (tmp_path / "server.log").open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    yield process, f"http://127.0.0.1:{port}"
    if process.poll() is None:
        process.kill()
    process.wait(10)
    for pid in _workers_of(process.pid):
        os.kill(pid, signal.SIGKILL)


def _assert_all_gone(pids: set[int], server_pid: int) -> None:
    assert pids
    deadline = time.monotonic() + 5
    while True:
        left = {pid for pid in pids | _workers_of(server_pid) if _alive(pid)}
        if not left:
            return
        assert time.monotonic() < deadline, f"workers {left} outlived their server"
        time.sleep(0.05)


def test_workers_die_with_a_server_killed_while_they_start(server: Any) -> None:
    process, _ = server
    deadline = time.monotonic() + 60
    while not _workers_of(process.pid):
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.005)
    pids = _workers_of(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    _assert_all_gone(pids, process.pid)


def test_workers_die_with_a_server_killed_during_its_first_ai_move(server: Any) -> None:
    process, url = server
    deadline = time.monotonic() + 120
    while True:
        assert process.poll() is None and time.monotonic() < deadline
        try:
            with urllib.request.urlopen(f"{url}/api/v1/games", timeout=2):
                break
        except OSError:
            time.sleep(0.1)
    body = json.dumps({"mode": "ai", "color": "white", "level": 5}).encode()
    request = urllib.request.Request(
        f"{url}/api/v1/games", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        assert reply.status == 201
    time.sleep(0.2)
    pids = _workers_of(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    _assert_all_gone(pids, process.pid)
