"""``python -m engine.warmup``: compile the engine once (see ``engine.tools.warmup``)."""

from __future__ import annotations

from engine.tools.warmup import main

if __name__ == "__main__":
    main()
