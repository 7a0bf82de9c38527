"""The command-line warm-up leaves numba's cache of the kernel in a state every later
process loads as it is: nothing dropped, nothing compiled again. (The kernel drops cached
code compiled from other versions of its sources on import: ``test_cache_stamp``.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.kernel import cache_stamp
from engine.kernel.cache_stamp import CACHE_SUFFIXES, STAMP_NAME, cache_folders

# The kernel folder whose cache the import refreshes, and the project root above it.
KERNEL = Path(cache_stamp.__file__).resolve().parent
ROOT = KERNEL.parent.parent


def _python(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _compiled() -> dict[str, tuple[int, int]]:
    """Every cached file of the kernel: its modification time and size."""
    files: dict[str, tuple[int, int]] = {}
    for folder in cache_folders(KERNEL):
        if folder.is_dir():
            for path in folder.iterdir():
                if path.suffix in CACHE_SUFFIXES:
                    stat = path.stat()
                    files[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return files


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no compiled code")
def test_a_process_after_the_warm_up_loads_its_cache_as_it_is() -> None:
    assert "engine ready in" in _python("-m", "engine.tools.warmup")
    before = _compiled()
    assert any(name.endswith(".nbi") for name in before)
    stamps = [folder / STAMP_NAME for folder in cache_folders(KERNEL) if folder.is_dir()]
    stamped = {str(path): path.read_text() for path in stamps if path.is_file()}
    assert stamped

    # What a site worker or the brain does when it starts.
    _python("-c", "from engine.tools.warmup import warm_up; warm_up()")

    assert _compiled() == before
    assert {str(path): path.read_text() for path in stamps if path.is_file()} == stamped
