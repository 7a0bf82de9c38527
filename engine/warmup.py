"""``python -m engine.warmup``: compile the engine once (see ``engine.tools.warmup``)."""

from __future__ import annotations

from engine.tools.warmup import warm_up

if __name__ == "__main__":
    print(f"engine ready in {warm_up():.1f} s")
