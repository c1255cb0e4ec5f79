"""``service``: a systemd unit for this install (bot/tools/install.py), checked by systemd's
own ``systemd-analyze verify`` (skipped where it is missing): the program's absolute path with
``run``, the database's folder, restarts on failure but not after a refusal (exit 2), the
settings file's token never in it; ``--user`` for the user's own manager."""

from __future__ import annotations

import getpass
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.support.config import write_settings_file
from bot.tools.install import systemd_word
from tests.clirun import bot_main
from tests.conftest import CASTRILLO, ROOT

TOKEN = "123456:SERVICE-token-never-in-the-unit-abcdef"
ANALYZE = shutil.which("systemd-analyze")
needs_systemd = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def env(**more: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    out.update(more)
    return out


def set_up(folder: Path, db: str = "puzzlebot.sqlite3") -> Path:
    """A folder as ``setup`` leaves it: the settings file (with the token) beside the database."""
    folder.mkdir(parents=True, exist_ok=True)
    write_settings_file(folder / Path(db).with_suffix(".toml"), {
        "TELEGRAM_BOT_TOKEN": TOKEN, "PUZZLEBOT_CONTEST": str(CASTRILLO)})
    return folder


def service(args: list[str], cwd: Path, **more: str) -> tuple[str, str]:
    ran = bot_main(["service", *args], env(**more), cwd=cwd)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout, ran.stderr


def keys(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def verify(text: str, folder: Path, *, user: bool) -> None:
    """``systemd-analyze [--user] verify`` on the unit: exit 0 and not a word about it."""
    assert ANALYZE is not None
    path = folder / "puzzlebot.service"
    path.write_text(text)
    runtime = folder / "runtime"
    runtime.mkdir(mode=0o700)
    done = subprocess.run([ANALYZE, *(["--user"] if user else []), "verify", str(path)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)})
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "puzzlebot.service" not in said, said


def test_the_system_unit_for_this_install(tmp_path):
    folder = set_up(tmp_path / "contest")
    text, warnings = service([], folder)
    assert warnings == "" or "root" in warnings
    found = keys(text)
    assert found["ExecStart"] == [f"{sys.executable} -m bot run"]
    assert found["WorkingDirectory"] == [str(folder)]
    assert found["User"] == [getpass.getuser()]
    assert found["Restart"] == ["on-failure"] and found["RestartSec"] == ["10"]
    assert found["RestartPreventExitStatus"] == ["2"]
    assert found["WantedBy"] == ["multi-user.target"]
    # the checkout's code, from the database's folder (not an installed package)
    assert found["Environment"] == ["PYTHONUNBUFFERED=1", f"PYTHONPATH={ROOT}"]
    assert TOKEN not in text and "TELEGRAM_BOT_TOKEN" not in text
    assert "sudo systemctl enable --now puzzlebot" in text


@needs_systemd
def test_systemd_accepts_the_system_unit(tmp_path):
    text, _ = service([], set_up(tmp_path / "contest"))
    verify(text, tmp_path, user=False)


@needs_systemd
def test_systemd_accepts_the_user_unit(tmp_path):
    folder = set_up(tmp_path / "my contest 100%", "day.sqlite3")
    text, warnings = service(["--user", "--db", "day.sqlite3"], folder)
    assert warnings == ""
    found = keys(text)
    assert "User" not in found and found["WantedBy"] == ["default.target"]
    assert found["WorkingDirectory"] == [str(folder).replace("%", "%%")]
    assert f'"PUZZLEBOT_DB={folder}/day.sqlite3"'.replace("%", "%%") in found["Environment"]
    assert "loginctl enable-linger" in text and "systemctl --user enable --now" in text
    assert "network-online" not in text
    verify(text, tmp_path, user=True)


def test_a_folder_not_set_up_yet_is_said(tmp_path):
    text, warnings = service(["--user"], tmp_path)
    assert "[Service]" in text
    assert f"{tmp_path / 'puzzlebot.toml'}: no settings file yet: run `python -m bot setup` " \
        f"in {tmp_path} first" in warnings
    ran = bot_main(["service", "--db", str(tmp_path)], env(), cwd=tmp_path)
    assert ran.returncode == 2 and "--db names the database file" in ran.stderr


def test_an_installed_command_is_started_by_its_path(monkeypatch, tmp_path):
    """Run through the installed ``puzzlebot``: that file's path (a link as it is: pipx's
    ~/.local/bin/puzzlebot), with no PYTHONPATH."""
    script = tmp_path / "bin" / "puzzlebot"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(script), "service"])
    text, _ = service([], set_up(tmp_path / "contest"))
    found = keys(text)
    assert found["ExecStart"] == [f"{script} run"]
    assert found["Environment"] == ["PYTHONUNBUFFERED=1"]
    assert "puzzlebot service | sudo tee /etc/systemd/system/puzzlebot.service" in text
    if ANALYZE is not None:
        verify(text, tmp_path, user=False)


def test_a_word_systemd_would_read_otherwise():
    assert systemd_word("/opt/puzzle bot/bin/puzzlebot") == '"/opt/puzzle bot/bin/puzzlebot"'
    assert systemd_word("/srv/100%/x$HOME") == "/srv/100%%/x$$HOME"
    assert systemd_word('a"b') == '"a\\"b"'


@pytest.mark.parametrize("user_unit, steps", [
    (True, ["puzzlebot service --user > ~/.config/systemd/user/puzzlebot.service",
            "systemctl --user enable --now puzzlebot", "sudo loginctl enable-linger $USER",
            "journalctl --user -u puzzlebot -f"]),
    (False, ["puzzlebot service | sudo tee /etc/systemd/system/puzzlebot.service",
             "sudo systemctl enable --now puzzlebot", "journalctl -u puzzlebot -f"]),
])
def test_docs_service_gives_the_steps_the_unit_gives(monkeypatch, tmp_path, user_unit, steps):
    monkeypatch.setattr(sys, "argv", ["/home/ana/.local/bin/puzzlebot", "service"])
    text, _ = service(["--user"] if user_unit else [], set_up(tmp_path))
    doc = (ROOT / "docs" / "service.md").read_text(encoding="utf-8")
    for step in steps:
        assert step in text and step in doc, step
