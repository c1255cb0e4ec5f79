"""The package as ``pip install .`` and ``pipx install .`` make it (issue 49): a wheel built
here, offline, from a copy of the checkout, then installed into a fresh venv and run from
another folder: the ``puzzlebot`` command with every subcommand of ``python -m bot``, the
example contests and the database's migrations inside the package (setup.py ships them).

Building needs the venv's setuptools to have bdist_wheel (70.1 on, pyproject.toml's dev extra;
before it, the ``wheel`` package): without it those tests are skipped, and the entry point is
still checked to resolve. The fresh venv reaches the dev venv's packages (python-telegram-bot
and the rest) through a .pth file: nothing is downloaded."""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from tests.conftest import ROOT

SOURCES = ("bot", "contests", "migrations", "pyproject.toml", "setup.py")


def can_build() -> bool:
    try:
        major, minor = (int(p) for p in
                        importlib.metadata.version("setuptools").split(".")[:2])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False
    if (major, minor) >= (70, 1):
        return True
    try:
        importlib.metadata.version("wheel")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


needs_build = pytest.mark.skipif(not can_build(), reason="setuptools without bdist_wheel: "
                                 "make install brings setuptools>=70.1 (pyproject.toml)")


def subcommands() -> set[str]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    assert isinstance(sub.choices, dict)
    return set(sub.choices)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps",
                    "--no-build-isolation", "--no-index", "--quiet", "-w", str(out)],
                   check=True, capture_output=True, timeout=120, cwd=source)
    (built,) = out.glob("puzzlebot-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (and the dev venv's packages reachable)."""
    if os.name != "posix":
        pytest.skip("the venv's layout (bin/) is POSIX's")
    where = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True,
                   timeout=60)
    python = where / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    # the dev venv's packages, after the fresh venv's own (its .pth files are not read: the
    # editable install of a checkout is not seen)
    dev = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]
    Path(site, "dev-venv.pth").write_text("".join(f"{p}\n" for p in dev))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--no-deps", "--no-index", "--quiet", str(wheel)],
                   check=True, capture_output=True, timeout=120)
    return where


def run(venv: Path, args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("TELEGRAM_", "PUZZLEBOT_", "PYTHON"))}
    return subprocess.run([str(venv / "bin" / "puzzlebot"), *args], cwd=cwd, timeout=60,
                          env={**clean, **env, "PYTHONIOENCODING": "utf-8"},
                          capture_output=True, text=True)


def test_the_entry_point_is_the_command_lines_main():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, function = scripts["puzzlebot"].partition(":")
    assert getattr(importlib.import_module(module), function) is main


@needs_build
def test_the_wheel_has_the_command_the_examples_and_the_migrations(wheel):
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        text = whl.read(entry_points).decode()
    assert "[console_scripts]\npuzzlebot = bot.cli:main" in text
    for path in [*(ROOT / "contests").glob("*.toml"), ROOT / "contests" / "contest.schema.json"]:
        assert f"bot/contests/{path.name}" in names
    for path in (ROOT / "migrations").glob("*.sql"):
        assert f"bot/migrations/{path.name}" in names
    assert "bot/locales/es/LC_MESSAGES/bot.po" in names and "bot/static/scoreboard.html" in names
    assert not [n for n in names if n.startswith(("tests/", "contests/", "migrations/"))]


@needs_build
def test_installed_it_runs_from_any_folder(venv, tmp_path):
    here = venv / "bin" / "python"
    where = subprocess.run([str(here), "-c", "import bot; print(bot.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert where.startswith(str(venv))
    helped = run(venv, ["--help"], tmp_path)
    assert helped.returncode == 0 and helped.stdout.startswith("usage: puzzlebot ")
    assert all(name in helped.stdout for name in subcommands())
    listed = run(venv, ["examples"], tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "castrillo-2023.toml\n    II Concurso" in listed.stdout
    assert "puzzlebot examples NAME.toml DEST.toml" in listed.stdout
    # the demo's default contest found in the package (then its --entries refused)
    refused = run(venv, ["demo", "--entries", "0"], tmp_path)
    assert refused.stderr == "error: --entries must be between 1 and 500\n"
    copied = run(venv, ["examples", "castrillo-2023.toml", "mine.toml"], tmp_path)
    assert copied.returncode == 0, copied.stderr
    assert "check it with: puzzlebot check-contest mine.toml" in copied.stdout
    # a database made by the installed migrations
    exported = run(venv, ["export", "entries"], tmp_path, PUZZLEBOT_CONTEST="mine.toml",
                   PUZZLEBOT_DB="day.sqlite3")
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.startswith("number,")


@needs_build
def test_the_service_of_an_install_starts_its_command(venv, tmp_path):
    unit = run(venv, ["service", "--user"], tmp_path)
    assert unit.returncode == 0, unit.stderr
    assert f"\nExecStart={venv}/bin/puzzlebot run\n" in unit.stdout
    assert f"\nWorkingDirectory={tmp_path}\n" in unit.stdout
    assert "PYTHONPATH" not in unit.stdout
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return
    (tmp_path / "puzzlebot.service").write_text(unit.stdout)
    (tmp_path / "runtime").mkdir(mode=0o700)
    done = subprocess.run([analyze, "--user", "verify", str(tmp_path / "puzzlebot.service")],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path / "runtime")})
    assert done.returncode == 0 and not done.stdout + done.stderr, done.stdout + done.stderr
