"""How long the review of a 60-move game takes at the default engine time per position.

Builds the app on a new, empty instance folder with the server's own AI pool (one game and
one analysis worker, as ``make run`` on this machine), creates a finished 60-move game
(two scripted players: a friend game set up with the first 58 moves, the last two played
by the players, as a game is resigned only once each side has moved, then black
resigns), asks for its review and waits for it. Prints
the wall time from the request to the stored review, the time per position, the mean
search depth, and the classes and forced wins found per side.

    nice -n 10 .venv/bin/python tests/load/review_time.py [--time-s 0.5] [--show]

The engine's compiled code must be cached already (``make run`` and ``make setup`` do it),
as it is after any install."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

# Two scripted players (tests/e2e/conftest.py ``choose_move``) from a four-stone opening;
# the game is still open after 60 moves and black resigns.
GAME_60 = [
    [7, 7], [8, 7], [7, 8], [8, 9], [7, 6], [7, 9], [7, 5], [7, 4], [8, 8], [9, 9],
    [6, 9], [10, 9], [11, 9], [9, 8], [11, 10], [7, 10], [10, 7], [6, 11], [5, 12], [9, 7],
    [9, 6], [9, 10], [9, 11], [11, 8], [8, 11], [12, 7], [13, 6], [8, 10], [6, 10], [7, 11],
    [6, 12], [7, 12], [7, 13], [10, 8], [11, 7], [12, 8], [13, 8], [12, 9], [12, 6],
    [12, 10], [12, 11], [5, 10], [8, 13], [4, 9], [3, 8], [5, 11], [4, 11], [3, 10], [8, 6],
    [6, 6], [10, 6], [11, 6], [6, 8], [5, 9], [5, 8], [4, 8], [9, 5], [10, 4], [8, 4],
    [7, 3],
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-s", type=float, default=None, help="engine time per position")
    parser.add_argument("--show", action="store_true", help="print every ply's review")
    args = parser.parse_args()

    from webapp.app import create_app, shutdown_app
    from webapp.game.types import Seat
    from webapp.review.jobs import REVIEW_TIME_S

    time_s = args.time_s if args.time_s is not None else REVIEW_TIME_S
    with tempfile.TemporaryDirectory() as instance:
        app = create_app(
            {
                "INSTANCE_PATH": instance,
                "SECRET_KEY": "review-time",
                "AI_WORKERS": 1,
                "AI_ANALYSIS_WORKERS": 1,
                "AI_RESUME": False,
                "REVIEW_TIME_S": time_s,
            }
        )
        try:
            client = app.test_client()
            body = {"mode": "friend", "color": "black", "moves": GAME_60[:-2]}
            game_id = client.post("/api/v1/games", json=body).get_json()["id"]
            app.test_client().post(f"/g/{game_id}/seat", json={})  # the friend takes white
            service = app.extensions["gomoku"].service
            for seat, (x, y) in zip((Seat.BLACK, Seat.WHITE), GAME_60[-2:], strict=True):
                service.play(game_id, seat, x, y, service.load(game_id).version)
            service.resign(game_id, Seat.BLACK)
            started = time.monotonic()
            client.post(f"/api/v1/games/{game_id}/review")
            while True:
                status = client.get(f"/api/v1/games/{game_id}/review").get_json()
                if status["status"] in ("done", "failed"):
                    break
                time.sleep(0.05)
            elapsed = time.monotonic() - started
        finally:
            shutdown_app(app)
    if status["status"] != "done":
        raise SystemExit(f"the review failed: {status.get('error')}")
    review = status["review"]
    positions = len(review["positions"])
    depths = [p["depth"] for p in review["plies"] if p["depth"] is not None]
    print(f"moves reviewed:        {len(review['plies'])}")
    print(f"positions searched:    {positions}")
    print(f"engine time/position:  {time_s:.2f} s")
    print(f"review wall time:      {elapsed:.1f} s")
    print(f"per position:          {elapsed / positions:.2f} s")
    print(f"median search depth:   {statistics.median(depths):.0f} (a forced win found: 1)")
    for side in ("black", "white"):
        s = review["summary"][side]
        print(
            f"{side:5}: best {s['best']}, good {s['good']}, inaccuracies {s['inaccuracy']}, "
            f"mistakes {s['mistake']}, blunders {s['blunder']}, missed wins "
            f"{s['missed_wins']}, allowed wins {s['allowed_wins']}, average loss "
            f"{s['average_loss'] * 100:.1f}%"
        )
    if args.show:
        for p in review["plies"]:
            flags = []
            if p["missed_win"]:
                flags.append(f"missed {p['missed_win']}")
            if p["allowed_win"]:
                flags.append(f"allowed {p['allowed_win']}")
            print(
                f"{p['ply']:3} {p['color']:5} {p['move']} {p['before']:.2f}->{p['after']:.2f} "
                f"{p['class']:10} best {p['best']} {' '.join(flags)}"
            )


if __name__ == "__main__":
    main()
