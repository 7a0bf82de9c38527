"""Keeping numba's on-disk cache of the kernel in step with its sources.

Numba decides whether a cached compiled function is still good by looking at that
function's own source file only. The kernel's functions inline each other and read each
other's module constants, so an edit to one module (a constant in ``threats``, say) leaves
the cached machine code of its callers in other modules stale, and a search would silently
run the old code. The kernel therefore stamps each cache folder with a digest of all its
sources and drops the cached code there when the digest no longer matches.

Plain Python on purpose: this runs on import, before anything is compiled."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

STAMP_NAME = "kernel-sources.sha256"
CACHE_SUFFIXES = (".nbi", ".nbc")


def sources_digest(folder: Path) -> str:
    """A digest of every Python source in ``folder``, names included."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def cache_folders(folder: Path) -> list[Path]:
    """The folders numba may keep the cache of ``folder``'s modules in: its
    ``__pycache__``, and numba's per-folder place under ``NUMBA_CACHE_DIR`` or the user's
    cache directory (``<folder name>_<sha1 of the folder's absolute path>``)."""
    source_dir = os.path.abspath(folder)
    subpath = f"{os.path.basename(source_dir)}_{hashlib.sha1(source_dir.encode()).hexdigest()}"
    folders = [folder / "__pycache__"]
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        folders.append(Path(configured) / subpath)
    user_cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folders.append(Path(user_cache) / "numba" / subpath)
    return folders


def refresh(cache: Path, digest: str) -> int:
    """Drop the compiled code in ``cache`` unless its stamp is ``digest``, then stamp it;
    returns how many files were dropped. A folder that does not exist or cannot be written
    is left alone."""
    if not cache.is_dir():
        return 0
    stamp = cache / STAMP_NAME
    try:
        if stamp.is_file() and stamp.read_text().strip() == digest:
            return 0
        dropped = 0
        for path in cache.iterdir():
            if path.suffix in CACHE_SUFFIXES:
                path.unlink(missing_ok=True)
                dropped += 1
        stamp.write_text(digest + "\n")
    except OSError:
        return 0
    return dropped


def prepare_write_folder(source: Path) -> None:
    """Create the folder numba will write ``source``'s compiled code to, if it is missing,
    so that it gets stamped before the first compilation. Otherwise the first process
    would leave unstamped code there, and the next one would take it for code of unknown
    sources and compile everything again (it happens whenever Python writes no bytecode,
    which would have made the folder). Numba's choice: ``NUMBA_CACHE_DIR`` when set, else
    the ``__pycache__`` next to the sources when it can be written, else the user's cache
    directory."""
    in_tree, *others = cache_folders(source)
    configured = bool(os.environ.get("NUMBA_CACHE_DIR"))
    candidates = [others[0]] if configured else [in_tree, others[-1]]
    for candidate in candidates:
        try:
            candidate.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(candidate, os.W_OK):
            return


def refresh_kernel_cache(folder: Path | None = None) -> int:
    """Drop stale compiled code of the kernel (``folder``, by default this package) from
    every cache folder; returns how many files were dropped."""
    source = folder if folder is not None else Path(__file__).resolve().parent
    try:
        digest = sources_digest(source)
    except OSError:
        return 0
    prepare_write_folder(source)
    return sum(refresh(cache, digest) for cache in cache_folders(source))
