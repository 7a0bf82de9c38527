"""Helpers for the web tests: create games over HTTP and collect Socket.IO events until a
condition holds (AI moves arrive from other threads, so tests wait for them)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

NS = "/game"


def create_game(client: Any, **body: Any) -> str:
    reply = client.post("/api/v1/games", json=body)
    assert reply.status_code == 201, reply.get_json()
    return str(reply.get_json()["id"])


def wait_for(check: Callable[[], Any], timeout_s: float = 5.0) -> Any:
    """``check()``'s first truthy value, polled until ``timeout_s`` runs out."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "condition not met"
        time.sleep(0.05)


class Events:
    """Everything one test socket received, in order."""

    def __init__(self, sock: Any) -> None:
        self.sock = sock
        self.items: list[tuple[str, dict[str, Any]]] = []

    def pull(self) -> list[tuple[str, dict[str, Any]]]:
        fresh = [(e["name"], e["args"][0]) for e in self.sock.get_received(NS)]
        self.items.extend(fresh)
        return fresh

    def named(self, name: str) -> list[dict[str, Any]]:
        self.pull()
        return [payload for event, payload in self.items if event == name]

    def last_state(self) -> dict[str, Any]:
        states = self.named("state")
        assert states, f"no state received: {self.items}"
        return states[-1]

    def wait(
        self,
        condition: Callable[[list[tuple[str, dict[str, Any]]]], Any],
        timeout_s: float = 30.0,
    ) -> Any:
        deadline = time.monotonic() + timeout_s
        while True:
            self.pull()
            found = condition(self.items)
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"condition not met in {timeout_s} s; got {self.items}")
            time.sleep(0.02)

    def wait_state(
        self, predicate: Callable[[dict[str, Any]], bool], timeout_s: float = 30.0
    ) -> dict[str, Any]:
        def match(items: list[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
            for event, payload in reversed(items):
                if event == "state" and predicate(payload):
                    return payload
            return None

        return self.wait(match, timeout_s)  # type: ignore[no-any-return]

    def wait_error(self, timeout_s: float = 5.0) -> dict[str, Any]:
        start = len(self.items)

        def match(items: list[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
            for event, payload in items[start:]:
                if event == "error":
                    return payload
            return None

        return self.wait(match, timeout_s)  # type: ignore[no-any-return]

    def clear(self) -> None:
        self.pull()
        self.items.clear()


def join(sock: Any, game_id: str) -> Events:
    events = Events(sock)
    sock.emit("join", {"game_id": game_id}, namespace=NS)
    events.wait_state(lambda s: s["id"] == game_id, 5)
    return events
