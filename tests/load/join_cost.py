"""The server's CPU time for a spectator's arrival and for a move's publication, as the
room grows (a script that prints figures, not a test). It builds the app in this process
(SQLite in a scratch folder, no AI), creates a friend game with both players seated, fills
the game's presence with N spectators, then times with the process's CPU clock, so the
figures hold however busy the machine is:

  * ``join``: what the socket handler does for one more spectator (record it in the
    room's presence and send it the state: read the game, build the state);
  * ``publish``: what the service does around one move's broadcast, less the sockets'
    own writes (no socket is connected here).

    .venv/bin/python tests/load/join_cost.py --sizes 100 1000 5000 10000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


class _NoAi:
    """An AI runner that is never asked: friend games need none."""

    warming = False

    def wait_ready(self, timeout_s: float | None = None) -> bool:
        return True

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("no AI here")

    def shutdown(self) -> None:
        return None


def cpu_us(action: Any, times: int) -> float:
    """Mean CPU time of ``action()`` in microseconds."""
    started = time.process_time()
    for _ in range(times):
        action()
    return (time.process_time() - started) / times * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000, 10000])
    parser.add_argument("--repeat", type=int, default=200, help="joins timed per size")
    args = parser.parse_args(argv)

    from webapp.app import create_app, shutdown_app

    with tempfile.TemporaryDirectory(prefix="gomoku-join-") as scratch:
        app = create_app(
            {
                "TESTING": True,
                "INSTANCE_PATH": scratch,
                "SECRET_KEY": "join-cost",
                "AI_RUNNER": _NoAi(),
                "AI_RESUME": False,
            }
        )
        try:
            host, guest = app.test_client(), app.test_client()
            reply = host.post("/api/v1/games", json={"mode": "friend", "color": "black"})
            game_id = reply.get_json()["id"]
            guest.post(f"/g/{game_id}/seat", json={})
            service = app.extensions["gomoku"].service
            presence = service.presence
            presence.join(game_id, "black-socket", "black")
            presence.join(game_id, "white-socket", "white")
            game = service.load(game_id)
            print(f"{'spectators':>10}{'join (us CPU)':>16}{'publish (us CPU)':>18}")
            present = 0
            extra = iter(range(10**9))

            def join() -> None:
                sid = f"new{next(extra)}"
                presence.join(game_id, sid, None)
                service.send_state(game_id, sid, None)
                presence.leave_all(sid)

            for size in args.sizes:
                while present < size:
                    presence.join(game_id, f"s{present}", None)
                    present += 1
                joined = cpu_us(join, args.repeat)
                published = cpu_us(lambda: service.publish(game), max(20, args.repeat // 10))
                print(f"{size:>10}{joined:>16.0f}{published:>18.0f}")
        finally:
            shutdown_app(app)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
