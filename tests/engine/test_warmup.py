"""The command-line warm-up drops the kernel's numba cache when a kernel source changed
(numba itself only notices a change in a function's own file) and keeps it otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.tools import warmup


@pytest.fixture
def kernel_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    kernel = tmp_path / "kernel"
    cache = kernel / "__pycache__"
    cache.mkdir(parents=True)
    (kernel / "state.py").write_text("X = 1\n")
    (kernel / "pvs.py").write_text("Y = 2\n")
    monkeypatch.setattr(warmup, "KERNEL", kernel)
    monkeypatch.setattr(warmup, "CACHE", cache)
    monkeypatch.setattr(warmup, "STAMP", cache / "kernel-sources.sha256")
    return kernel


def _cached(kernel: Path) -> list[str]:
    (kernel / "__pycache__" / "pvs.search-10.py311.nbi").write_text("index")
    (kernel / "__pycache__" / "pvs.search-10.py311.1.nbc").write_text("code")
    return sorted(p.name for p in (kernel / "__pycache__").glob("*.nb?"))


def test_a_changed_kernel_source_drops_the_cache(kernel_copy: Path) -> None:
    warmup.drop_stale_cache()  # first fingerprint
    assert _cached(kernel_copy)
    assert warmup.drop_stale_cache() is False
    assert len(list((kernel_copy / "__pycache__").glob("*.nb?"))) == 2

    (kernel_copy / "state.py").write_text("X = 3\n")
    assert warmup.drop_stale_cache() is True
    assert list((kernel_copy / "__pycache__").glob("*.nb?")) == []
    assert warmup.STAMP.read_text().strip() == warmup.kernel_fingerprint()


def test_the_fingerprint_follows_every_kernel_file(kernel_copy: Path) -> None:
    before = warmup.kernel_fingerprint()
    (kernel_copy / "pvs.py").write_text("Y = 2  # changed\n")
    assert warmup.kernel_fingerprint() != before
