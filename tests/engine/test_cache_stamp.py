"""The kernel's compiled-code cache is dropped when any of its sources changes, not only
the file of the cached function (``engine.kernel.cache_stamp``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core.caching import _CacheLocator

from engine.kernel import cache_stamp
from engine.kernel.cache_stamp import STAMP_NAME, cache_folders, refresh_kernel_cache


def _fake_cache(cache: Path) -> list[Path]:
    cache.mkdir(parents=True, exist_ok=True)
    files = [cache / "mod.f-3.py311.nbi", cache / "mod.f-3.py311.1.nbc"]
    for path in files:
        path.write_bytes(b"compiled")
    (cache / "mod.cpython-311.pyc").write_bytes(b"bytecode")
    return files


def test_cache_is_dropped_only_when_a_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    kernel = tmp_path / "kernel"
    kernel.mkdir()
    (kernel / "consts.py").write_text("K = 1\n")
    (kernel / "mod.py").write_text("from consts import K\n")
    files = _fake_cache(kernel / "__pycache__")
    # No stamp yet: whatever was compiled before is of unknown sources.
    assert refresh_kernel_cache(kernel) == 2
    assert not any(path.exists() for path in files)
    assert (kernel / "__pycache__" / "mod.cpython-311.pyc").exists()
    assert (kernel / "__pycache__" / STAMP_NAME).is_file()
    # Same sources: the new cache stays.
    files = _fake_cache(kernel / "__pycache__")
    assert refresh_kernel_cache(kernel) == 0
    assert all(path.exists() for path in files)
    # Another module's constant changed: the cache of ``mod`` goes too.
    (kernel / "consts.py").write_text("K = 2\n")
    assert refresh_kernel_cache(kernel) == 2
    assert not any(path.exists() for path in files)


def test_the_folder_numba_writes_to_is_stamped_before_it_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    kernel = tmp_path / "kernel"
    kernel.mkdir()
    (kernel / "mod.py").write_text("X = 1\n")
    assert refresh_kernel_cache(kernel) == 0
    assert (kernel / "__pycache__" / STAMP_NAME).is_file()
    # The fallback folders are not made when numba would not write there.
    assert not (tmp_path / "user-cache").exists()
    # With NUMBA_CACHE_DIR set, numba writes there, and that folder is the one made.
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba-cache"))
    assert refresh_kernel_cache(kernel) == 0
    assert (cache_folders(kernel)[1] / STAMP_NAME).is_file()


def test_numba_cache_dir_and_user_cache_are_covered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba-cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    kernel = tmp_path / "kernel"
    kernel.mkdir()
    (kernel / "mod.py").write_text("X = 1\n")
    # The same per-folder place numba itself computes for a source file there.
    subpath = _CacheLocator.get_suitable_cache_subpath(str(kernel / "mod.py"))
    expected = [
        kernel / "__pycache__",
        tmp_path / "numba-cache" / subpath,
        tmp_path / "user-cache" / "numba" / subpath,
    ]
    assert cache_folders(kernel) == expected
    files = [path for folder in expected[1:] for path in _fake_cache(folder)]
    assert refresh_kernel_cache(kernel) == 4
    assert not any(path.exists() for path in files)


CONSTS = "K = {}\n"
USER = (
    "from numba import njit\n"
    "from pkg.consts import K\n\n\n"
    "@njit(cache=True)\n"
    "def value():\n"
    "    return K\n"
)
# The package stamps its cache the way the kernel does, loading ``cache_stamp`` on its own
# so the subprocess does not load the whole engine.
INIT = (
    "import importlib.util\n"
    "from pathlib import Path\n"
    "spec = importlib.util.spec_from_file_location('cache_stamp', {path!r})\n"
    "stamp = importlib.util.module_from_spec(spec)\n"
    "spec.loader.exec_module(stamp)\n"
    "stamp.refresh_kernel_cache(Path(__file__).resolve().parent)\n"
)


def _package(tmp_path: Path) -> Path:
    """The package ``pkg`` under ``tmp_path``: the stamping ``__init__`` and ``user``."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(INIT.format(path=str(Path(cache_stamp.__file__))))
    (package / "user.py").write_text(USER)
    return package


def _value(tmp_path: Path, **env_extra: str) -> str:
    """``pkg.user.value()`` printed by a fresh interpreter."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "user-cache"),
        **env_extra,
    }
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run(
        [sys.executable, "-c", "from pkg.user import value; print(value())"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_compiled_code_follows_a_constant_changed_in_another_module(tmp_path: Path) -> None:
    package = _package(tmp_path)
    for k in (1, 2):
        (package / "consts.py").write_text(CONSTS.format(k))
        # ``user.py`` is untouched, so numba alone would load the code compiled with K = 1.
        assert _value(tmp_path) == str(k)
    assert any(path.suffix == ".nbi" for path in (package / "__pycache__").iterdir())


def test_code_compiled_by_a_first_run_without_bytecode_is_kept(tmp_path: Path) -> None:
    """Without bytecode files nothing makes ``__pycache__`` before numba does; the code
    the first run compiles must still be the code the second run loads."""
    package = _package(tmp_path)
    (package / "consts.py").write_text(CONSTS.format(7))

    def run() -> dict[str, int]:
        assert _value(tmp_path, PYTHONDONTWRITEBYTECODE="1") == "7"
        return {
            path.name: path.stat().st_mtime_ns
            for path in (package / "__pycache__").iterdir()
            if path.suffix == ".nbc"
        }

    first = run()
    assert first
    assert run() == first
