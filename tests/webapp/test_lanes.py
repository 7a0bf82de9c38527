"""The waiting line of a pool lane: clients take turns, each client's jobs keep their
order, and a job can be taken out or put back first."""

from __future__ import annotations

from webapp.ai.lanes import FairQueue


def drain(line: FairQueue[str]) -> list[str]:
    out = []
    while (item := line.pop()) is not None:
        out.append(item)
    return out


def test_clients_take_turns_and_keep_their_order() -> None:
    line: FairQueue[str] = FairQueue()
    for n in range(3):
        line.push("greedy", f"g{n}")
    line.push("modest", "m0")
    line.push("other", "o0")
    line.push("other", "o1")
    assert len(line) == 6
    assert drain(line) == ["g0", "m0", "o0", "g1", "o1", "g2"]
    assert len(line) == 0 and line.pop() is None


def test_remove_and_push_front() -> None:
    line: FairQueue[str] = FairQueue()
    line.push("a", "a0")
    line.push("a", "a1")
    line.push("b", "b0")
    assert line.remove("a", "a1")
    assert not line.remove("a", "a1")
    assert not line.remove("c", "c0")
    line.push_front("b", "b-first")
    assert list(line) == ["b-first", "b0", "a0"]
    assert drain(line) == ["b-first", "a0", "b0"]


def test_clear_returns_what_waited() -> None:
    line: FairQueue[str] = FairQueue()
    line.push("a", "a0")
    line.push("b", "b0")
    assert sorted(line.clear()) == ["a0", "b0"]
    assert len(line) == 0


def test_a_refused_client_keeps_its_place() -> None:
    line: FairQueue[str] = FairQueue()
    line.push("busy", "b0")
    line.push("idle", "i0")
    line.push("idle", "i1")
    assert line.pop(lambda client: client != "busy") == "i0"
    assert line.pop(lambda client: client == "nobody") is None
    assert drain(line) == ["b0", "i1"]
