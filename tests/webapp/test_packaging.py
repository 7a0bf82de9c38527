"""Packaging: the wheel serves the site, every package is in it, every dependency has a
tested range, and the lock file pins versions inside those ranges.

The slow test builds the wheel from the project's files (as a clean clone has them),
installs it into a fresh virtual environment without its dependencies and points that
environment at this one's site-packages for them (offline, and in seconds), then runs
``gomoku serve`` from it in an empty folder: the home page and static files come from
inside the installed package."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / ".ci" / "requirements.lock"


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _requirements() -> list[Requirement]:
    project = _pyproject()["project"]
    listed = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        listed += extra
    return [Requirement(r) for r in listed if not r.startswith(project["name"] + "[")]


def _locked() -> dict[str, str]:
    pins = {}
    for line in LOCK.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\[\],-]+)==([^\s;]+)", line)
        if match:
            name = re.sub(r"\[.*\]", "", match.group(1))
            pins[re.sub(r"[-_.]+", "-", name).lower()] = match.group(2)
    return pins


def test_every_package_is_listed() -> None:
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("engine", "webapp")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    # The folders that hold only data are listed too (else setuptools warns about each on
    # every install): templates/ and static/ (shipped as webapp.templates and
    # webapp.static) with their subfolders, and the puzzles' data.
    data = {"webapp.templates", "webapp.static", "webapp.puzzles.data"}
    for folder, package in (("templates", "webapp.templates"), ("static", "webapp.static")):
        data |= {
            ".".join((package, *path.relative_to(ROOT / folder).parts))
            for path in (ROOT / folder).rglob("*")
            if path.is_dir() and "__pycache__" not in path.parts
        }
    assert listed - found == data


def test_dependencies_have_tested_ranges() -> None:
    for requirement in _requirements():
        operators = {spec.operator for spec in requirement.specifier}
        assert ">=" in operators, f"{requirement} has no lower bound"
        if requirement.name not in ("setuptools", "wheel"):
            assert "<" in operators, f"{requirement} has no upper bound"


def test_the_lock_pins_every_dependency_inside_its_range() -> None:
    pins = _locked()
    for requirement in _requirements():
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        assert name in pins, f"{name} is not in {LOCK.name}: run `make lock`"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{name}=={pins[name]} is outside {requirement.specifier}: run `make lock`"
        )


def _project_files(target: Path) -> None:
    """Copy what a clean clone has (tracked files, and new ones not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return reply.status, reply.read()


@pytest.mark.slow
def test_the_wheel_serves_the_site(tmp_path: Path) -> None:
    from tests.conftest import free_port

    source, dist, env_dir, cwd = (tmp_path / n for n in ("source", "dist", "venv", "run"))
    _project_files(source)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(dist), str(source)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = dist.glob("gomoku-*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
    )  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--target", str(site), str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    # The dependencies come from this environment (only as a path: its .pth files, such as
    # the editable install of this source tree, are not read).
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = subprocess.run(
        [python, "-c", "import webapp.app as a; print(a.__file__)"],
        cwd=tmp_path, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    assert where.startswith(str(site)), where

    # --target installs no console script: write the one pip would, then run it.
    script = env_dir / "bin" / "gomoku"
    script.write_text(f"#!{python}\nimport sys\nfrom webapp.cli import main\nsys.exit(main())\n")
    script.chmod(0o755)
    cwd.mkdir()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL")}
    env.update({"GOMOKU_INSTANCE": str(tmp_path / "instance"), "AI_WORKERS": "1"})
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [script, "serve", "--port", str(port)], cwd=cwd, env=env, stdout=log, stderr=log
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 300
        while True:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                status, home = _get(url + "/")
                break
            except OSError:
                assert time.monotonic() < deadline, "gomoku serve did not answer"
                time.sleep(0.5)
        assert status == 200
        assert b"<title>" in home and b"Gomoku" in home
        for name in re.findall(rb'(?:src|href)="(/static/[^"?]+)', home):
            status, body = _get(url + name.decode())
            assert status == 200, name
            assert body == (ROOT / name.decode().lstrip("/")).read_bytes(), name
        assert _get(url + "/static/style.css")[1] == (ROOT / "static" / "style.css").read_bytes()
    finally:
        server.terminate()
        server.wait(60)
        log.close()
