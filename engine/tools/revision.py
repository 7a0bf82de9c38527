"""Brains built from other git revisions of this project, for matches against the working
tree (``gomoku match --engine2 rev:<git-rev>``).

A revision is exported with ``git archive`` into a cache folder outside the repository
(``$GOMOKU_REVISION_CACHE``, else ``~/.cache/gomoku/revisions/<commit>``), run by the
current interpreter with that folder first on the import path, and warmed once by a short
protocol session so numba compiles its core there before any timed move. The export is
kept and reused while the commit is the same; the warm-up is done again on another
processor, whose compiled code numba keeps apart. ``engine.tools.match`` turns ``rev:``
engine arguments into commands with ``revision_command``."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
from pathlib import Path

from engine.protocol.gomocup import BrainError, BrainProcess

REVISION_PREFIX = "rev:"
# Compiling a whole search core on a busy machine can take minutes.
WARM_START_TIMEOUT_S = 900.0
WARM_MOVE_TIMEOUT_S = 300.0
_READY_MARK = ".gomoku-warm"


class RevisionError(ValueError):
    """A revision that cannot be resolved, exported or started."""


def repository_root() -> Path:
    """The top folder of the git work tree this package runs from."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "--show-toplevel"],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError) as error:
        raise RevisionError(f"{here} is not inside a git work tree") from error
    return Path(out.stdout.strip())


def resolve_commit(revision: str, root: Path | None = None) -> str:
    """The full commit hash a revision name (branch, tag, hash, ``HEAD~2``) points at."""
    top = root or repository_root()
    try:
        out = subprocess.run(
            ["git", "-C", str(top), "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError):
        raise RevisionError(f"unknown git revision {revision!r}") from None
    return out.stdout.strip()


def cache_folder() -> Path:
    configured = os.environ.get("GOMOKU_REVISION_CACHE")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "gomoku" / "revisions"


def brain_command(folder: Path) -> list[str]:
    """The command that runs the brain of the exported tree in ``folder``. ``-P`` keeps the
    caller's current folder off the import path, so the export is what gets imported."""
    launcher = (
        "import runpy, sys; "
        f"sys.path.insert(0, {str(folder)!r}); "
        "sys.argv = ['gomoku', 'pbrain']; "
        "runpy.run_module('webapp.cli', run_name='__main__')"
    )
    return [sys.executable, "-P", "-c", launcher]


def export_revision(commit: str, root: Path | None = None, cache: Path | None = None) -> Path:
    """Export ``commit``'s tree into the cache (once) and return its folder."""
    top = root or repository_root()
    folder = (cache or cache_folder()) / commit
    if (folder / "engine").is_dir():
        return folder
    partial = folder.with_name(folder.name + ".partial")
    partial.mkdir(parents=True, exist_ok=True)
    try:
        archive = subprocess.run(
            ["git", "-C", str(top), "archive", "--format=tar", commit],
            check=True,
            capture_output=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise RevisionError(f"cannot export {commit}: {error}") from error
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(partial, filter="data")
    partial.rename(folder)
    return folder


def host_signature() -> str:
    """The machine numba compiles for: its cached code is only good on the same target
    and processor (another processor, a moved disk image, and it compiles again)."""
    import llvmlite.binding as llvm

    return " ".join(
        (
            llvm.get_process_triple(),
            llvm.get_host_cpu_name(),
            llvm.get_host_cpu_features().flatten(),
        )
    )


def warm(folder: Path) -> None:
    """Play one move with the exported brain so its compiled code is cached on disk, once
    per machine: the mark names the machine it was warmed on."""
    mark = folder / _READY_MARK
    machine = host_signature()
    if mark.is_file() and mark.read_text().strip() == machine:
        return
    try:
        with BrainProcess(brain_command(folder), name=folder.name[:10]) as brain:
            brain.start(15, timeout=WARM_START_TIMEOUT_S)
            brain.info("timeout_turn", 1000)
            brain.board([(7, 7), (8, 8), (8, 7)], WARM_MOVE_TIMEOUT_S)
    except BrainError as error:
        raise RevisionError(f"the brain of {folder.name} does not run: {error}") from error
    mark.write_text(machine + "\n")


def revision_command(spec: str, root: Path | None = None, cache: Path | None = None) -> list[str]:
    """Command for ``rev:<git-rev>``: exported, warmed and ready to play."""
    if not spec.startswith(REVISION_PREFIX):
        raise RevisionError(f"{spec!r} does not start with {REVISION_PREFIX!r}")
    revision = spec[len(REVISION_PREFIX) :].strip()
    if not revision:
        raise RevisionError("rev: needs a git revision, e.g. rev:HEAD~1")
    commit = resolve_commit(revision, root)
    folder = export_revision(commit, root, cache)
    warm(folder)
    return brain_command(folder)
