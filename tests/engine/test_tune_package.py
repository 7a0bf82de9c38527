"""The fitted evaluation weights ship inside the wheel: the slow test builds the wheel
from the project's files (as a clean clone has them) and reads the weights out of it."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from engine.kernel.weights import WEIGHTS_FILE, load_weights, shipped_weights

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_wheel_carries_the_evaluation_weights(tmp_path: Path) -> None:
    source, dist = tmp_path / "source", tmp_path / "dist"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(dist), str(source)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = dist.glob("gomoku-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        data = archive.read(f"engine/data/{WEIGHTS_FILE}")
    assert len(data) <= 1_000_000
    packed = load_weights(io.BytesIO(data))
    shipped = shipped_weights()
    assert shipped is not None
    assert np.array_equal(packed.cells, shipped.cells)
    assert np.array_equal(packed.threats, shipped.threats)
