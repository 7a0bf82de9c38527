"""``gomoku worker``: the queue worker of multi-process deployments (``REDIS_URL`` set).

In single-server mode AI moves run in the server's own process pool (``ai``), so this
command only explains what it needs until the queue-backed runner exists."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    if not os.environ.get("REDIS_URL"):
        print(
            "gomoku worker: set REDIS_URL (e.g. redis://localhost:6379/0) to run a queue "
            "worker; without it the server runs AI moves in its own process pool.",
            file=sys.stderr,
        )
        return 2
    print("gomoku worker: the queue-backed AI worker is not available yet.", file=sys.stderr)
    return 2
