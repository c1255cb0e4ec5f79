"""The program named as it was started (bot/support/program.py): ``puzzlebot`` through the
installed command, ``python -m bot`` otherwise, in the usage line and the hints; a line to
paste fit for this system's shell (PowerShell on Windows); on Windows, standard output adds no
``\r`` of its own (a CSV's rows are not ``\r\r\n``)."""

from __future__ import annotations

import io
import os
import sys

import pytest

import bot.cli as cli
from bot.cli import build_parser
from bot.support import program


@pytest.mark.parametrize("argv0, name", [
    ("/home/ana/.local/bin/puzzlebot", "puzzlebot"),
    (r"C:\Users\ana\pipx\venvs\puzzlebot\Scripts\puzzlebot.exe", "puzzlebot"),
    ("puzzlebot-script.py", "puzzlebot"),
    ("/srv/puzzlebot/bot/__main__.py", "python -m bot"),
    ("/usr/lib/python3/site-packages/pytest/__main__.py", "python -m bot"),
    ("", "python -m bot"),
])
def test_the_program_is_named_as_it_was_started(monkeypatch, argv0, name):
    monkeypatch.setattr(sys, "argv", [argv0, "run"])
    assert program.name() == name
    assert build_parser().prog == name


def test_usage_names_the_installed_command(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["/opt/venv/bin/puzzlebot", "--help"])
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    assert capsys.readouterr().out.startswith("usage: puzzlebot [-h]")


def test_a_line_to_paste_through_the_script(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/opt/venv/bin/puzzlebot"])
    monkeypatch.setattr(sys, "platform", "linux")
    assert program.command_line("run", env={"PUZZLEBOT_DB": "my contest.sqlite3"}) == \
        "PUZZLEBOT_DB='my contest.sqlite3' puzzlebot run"
    assert program.argv(["run"]) == ["/opt/venv/bin/puzzlebot", "run"]


def test_a_line_to_paste_on_windows(monkeypatch):
    monkeypatch.setattr(sys, "argv", [r"C:\venv\Scripts\puzzlebot.exe"])
    monkeypatch.setattr(sys, "platform", "win32")
    assert program.command_line("export", "results", env={"PUZZLEBOT_DB": "a b.sqlite3"}) == \
        '$env:PUZZLEBOT_DB="a b.sqlite3"; puzzlebot export results'
    assert program.command_line("check-contest", "my contest.toml") == \
        'puzzlebot check-contest "my contest.toml"'


def test_python_as_it_would_be_typed(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "argv", ["/x/bot/__main__.py"])
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(program.shutil, "which", lambda name: None)
    monkeypatch.chdir(tmp_path)
    venv_python = tmp_path / ".venv" / "bin" / "python"
    monkeypatch.setattr(sys, "executable", str(venv_python))
    assert program.command_line("run") == ".venv/bin/python -m bot run"
    assert program.argv(["run"]) == [str(venv_python), "-m", "bot", "run"]
    monkeypatch.setattr(program.shutil, "which",
                        lambda name: str(venv_python) if name == "python" else None)
    assert program.command_line("run") == "python -m bot run"  # the venv is active


def test_python_on_another_drive(monkeypatch):
    """Windows: relpath from C: to D: is an error, not a path; the absolute one is given."""
    monkeypatch.setattr(sys, "argv", ["bot/__main__.py"])
    monkeypatch.setattr(program.shutil, "which", lambda name: None)
    exe = os.path.abspath(sys.executable)

    def other_drive(path: str, start: str = os.curdir) -> str:
        raise ValueError("path is on mount 'D:', start on mount 'C:'")

    monkeypatch.setattr(program.os.path, "relpath", other_drive)
    assert program.interpreter() == exe


def test_the_hints_name_a_path_windows_has(monkeypatch):
    """``python -m bot`` from a venv on Windows: its Scripts\\python.exe, as found."""
    monkeypatch.setattr(sys, "argv", [r"C:\contest\bot\__main__.py"])
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(program.shutil, "which", lambda name: None)
    monkeypatch.setattr(program.os.path, "relpath", lambda path: r".venv\Scripts\python.exe")
    line = program.command_line("run", env={"PUZZLEBOT_DB": "day.sqlite3"})
    assert line == r'$env:PUZZLEBOT_DB="day.sqlite3"; .venv\Scripts\python.exe -m bot run'


def test_standard_output_adds_no_carriage_return_on_windows(monkeypatch):
    raw = io.BytesIO()
    # what Windows gives a redirected stdout: every \n written as \r\n
    out = io.TextIOWrapper(raw, encoding="utf-8", newline="\r\n", write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "platform", "win32")
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    monkeypatch.undo()
    written = raw.getvalue()
    assert b"\npositional arguments:\n" in written and b"\r" not in written
