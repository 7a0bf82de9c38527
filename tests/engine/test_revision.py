"""Brains from git revisions: a revision of a small repository is exported outside it,
warmed once and played over the protocol by a real subprocess."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from engine.protocol.gomocup import BrainProcess
from engine.tools.revision import (
    RevisionError,
    host_signature,
    resolve_commit,
    revision_command,
)

SEED000 = Path(__file__).resolve().parents[1] / "opponents" / "seed000_brain.py"
# A warm mark left by a machine with another processor.
FOREIGN_MARK = "x86_64-unknown-linux-gnu another-cpu +sse2\n"


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A repository whose ``webapp.cli`` runs seed 000's brain; its second commit breaks it."""
    root = tmp_path / "repo"
    (root / "engine").mkdir(parents=True)
    (root / "webapp").mkdir()
    (root / "engine" / "__init__.py").write_text("")
    (root / "webapp" / "__init__.py").write_text("")
    (root / "webapp" / "cli.py").write_text(
        f"import runpy\nrunpy.run_path({str(SEED000)!r}, run_name='__main__')\n"
    )
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "brain")
    (root / "webapp" / "cli.py").write_text("raise SystemExit(3)\n")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "broken")
    return root


def test_a_revision_is_exported_warmed_and_played(repository: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    command = revision_command("rev:HEAD~1", root=repository, cache=cache)
    commit = resolve_commit("HEAD~1", repository)
    folder = cache / commit
    assert (folder / "webapp" / "cli.py").read_text().startswith("import runpy")
    assert (folder / ".gomoku-warm").exists()
    # Nothing was written into the repository itself.
    assert _git(repository, "status", "--porcelain") == ""
    with BrainProcess(command, cwd=str(repository)) as brain:
        brain.start(15, timeout=30)
        brain.info("timeout_turn", 500)
        x, y = brain.board([(7, 7), (8, 8), (8, 7)], 10.0)
        assert (x, y) not in [(7, 7), (8, 8), (8, 7)]
    # A second request reuses the export.
    assert revision_command("rev:HEAD~1", root=repository, cache=cache) == command
    assert (folder / ".gomoku-warm").read_text().strip() == host_signature()


def test_a_revision_warmed_on_another_machine_is_warmed_again(
    repository: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    revision_command("rev:HEAD~1", root=repository, cache=cache)
    folder = cache / resolve_commit("HEAD~1", repository)
    mark = folder / ".gomoku-warm"
    mark.write_text(FOREIGN_MARK)
    revision_command("rev:HEAD~1", root=repository, cache=cache)
    assert mark.read_text().strip() == host_signature()
    # An export whose brain no longer runs here is refused, not taken as warm.
    mark.write_text(FOREIGN_MARK)
    (folder / "webapp" / "cli.py").write_text("raise SystemExit(3)\n")
    with pytest.raises(RevisionError, match="does not run"):
        revision_command("rev:HEAD~1", root=repository, cache=cache)


def test_bad_revisions_are_refused(repository: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    with pytest.raises(RevisionError, match="unknown git revision"):
        revision_command("rev:no-such-branch", root=repository, cache=cache)
    with pytest.raises(RevisionError, match="needs a git revision"):
        revision_command("rev:", root=repository, cache=cache)
    with pytest.raises(RevisionError, match="does not run"):
        revision_command("rev:HEAD", root=repository, cache=cache)
