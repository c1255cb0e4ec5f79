"""Issue 45, the files the command line writes: every one with people's data in it is created
readable by its owner only (0600, whatever the umask; an existing one is made 0600), and no
output path given to a command may name the database, its -wal/-shm/-journal, the settings
file, the contest file in use or a backup, however the path is written (relative, ./, ..,
a symbolic or a hard link): one ``error:`` line, exit code 2, and nothing written."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.clirun import bot_main
from tests.conftest import CASTRILLO, ROOT
from tests.exports.test_cli import cli_env

ENTRIES = ("number,category,names,born\n"
           "1,parejas,Ana Pérez;Leo Pérez,1980-05-17;2015-02-03\n"
           "2,adultos,Bea Gil,1985-01-01\n")


def cli(args: list[str], env: dict[str, str], cwd: Path) -> Any:
    return bot_main(args, cli_env(env), cwd=cwd)


@pytest.fixture
def contest_folder(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """A contest's folder: its database with two entries, the settings file beside it (a
    token), the contest file in use, a backup of the database and a document of the
    contest."""
    contest = tmp_path / "contest.toml"
    contest.write_text(CASTRILLO.read_text(encoding="utf-8"), encoding="utf-8")
    env = {"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(tmp_path / "bot.sqlite3")}
    fd = os.open(tmp_path / "bot.toml", os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b'TELEGRAM_BOT_TOKEN = "123456789:AAH-secret-token-value_abcdefghijk"\n')
    os.close(fd)
    (tmp_path / "entries.csv").write_text(ENTRIES, encoding="utf-8")
    assert cli(["import", "entries", "entries.csv"], env, tmp_path).returncode == 0
    assert cli(["backup", "copy.sqlite3"], env, tmp_path).returncode == 0
    doc = cli(["export", "document"], env, tmp_path)
    assert doc.returncode == 0, doc.stderr
    (tmp_path / "doc.json").write_text(doc.stdout, encoding="utf-8")
    rated = json.loads(doc.stdout)  # as if entry 2 had played its category
    rated["contest_file"]["data"]["categories"] = [{"id": "adultos", "members": 1,
                                                    "pieces": 500, "time_limit": "2:30:00"}]
    rated["results"] = [{"category": "adultos", "number": 2, "round": "", "finished": "yes",
                         "time": "1:40:00", "adjusted_time": "", "pieces": "", "outcome": ""}]
    (tmp_path / "rated.json").write_text(json.dumps(rated), encoding="utf-8")
    yield tmp_path, env


def snapshot(folder: Path) -> dict[str, tuple[object, ...]]:
    """Every file under ``folder``: its bytes (or a link's target), mode and modification."""
    out: dict[str, tuple[object, ...]] = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        content: object = os.readlink(path) if path.is_symlink() else (
            path.read_bytes() if path.is_file() else None)
        out[str(path.relative_to(folder))] = (content, info.st_mode, info.st_mtime_ns)
    return out


WRITERS = {
    "export document --out": ["export", "document", "--out", "{}"],
    "export document --public --out": ["export", "document", "--public", "--out", "{}"],
    "export results --xlsx": ["export", "results", "--xlsx", "{}"],
    "export entries --xlsx": ["export", "entries", "--xlsx", "{}"],
    "rating --csv": ["rating", "doc.json", "--csv", "{}"],
    "rating --png": ["rating", "doc.json", "--png", "{}"],
    "import document --write-contest": ["import", "document", "doc.json", "--write-contest",
                                        "{}"],
    "backup": ["backup", "{}"],
    "demo --db": ["demo", "--contest", str(CASTRILLO), "--db", "{}"],
}
# each way of naming what must never be written over (relative to the contest's folder)
TARGETS = {
    "database": "bot.sqlite3",
    "database ./": "./bot.sqlite3",
    "database ..": "sub/../bot.sqlite3",
    "database absolute": "{folder}/bot.sqlite3",
    "database by a symbolic link": "link.sqlite3",
    "database by a hard link": "hard.sqlite3",
    "wal": "bot.sqlite3-wal",
    "shm": "./bot.sqlite3-shm",
    "journal": "bot.sqlite3-journal",
    "lock": "bot.sqlite3.lock",
    "settings file": "bot.toml",
    "settings file by a symbolic link": "settings-link.toml",
    "contest file": "contest.toml",
    "backup": "copy.sqlite3",
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_no_output_path_names_the_database_its_settings_or_a_backup(
        contest_folder: tuple[Path, dict[str, str]], writer: str) -> None:
    folder, env = contest_folder
    (folder / "sub").mkdir()
    (folder / "link.sqlite3").symlink_to(folder / "bot.sqlite3")
    (folder / "settings-link.toml").symlink_to("bot.toml")
    os.link(folder / "bot.sqlite3", folder / "hard.sqlite3")
    for what, target in TARGETS.items():
        if writer == "demo --db" and what == "backup":
            continue  # a rehearsal's database is rewritten by the next rehearsal
        path = target.format(folder=folder)
        before = snapshot(folder)
        out = cli([a.format(path) for a in WRITERS[writer]], env, folder)
        assert out.returncode == 2, (what, out.stdout, out.stderr)
        lines = out.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {path}: "), (what, lines)
        assert "written to" not in out.stdout and "Traceback" not in out.stderr
        assert snapshot(folder) == before, what  # nothing written, nothing created


def test_the_guard_names_what_the_path_is(contest_folder: tuple[Path, dict[str, str]]) -> None:
    folder, env = contest_folder
    said = {target: cli(["export", "document", "--out", target], env, folder).stderr.strip()
            for target in ("./bot.sqlite3", "bot.sqlite3-wal", "bot.toml", "contest.toml",
                           "copy.sqlite3")}
    assert said == {
        "./bot.sqlite3": "error: ./bot.sqlite3: is the contest's database (PUZZLEBOT_DB): "
                         "nothing was written; choose another file",
        "bot.sqlite3-wal": "error: bot.sqlite3-wal: is the database's wal file: nothing was "
                           "written; choose another file",
        "bot.toml": "error: bot.toml: is the settings file (it holds the bot's token): nothing "
                    "was written; choose another file",
        "contest.toml": "error: contest.toml: is the contest file in use (PUZZLEBOT_CONTEST): "
                        "nothing was written; choose another file",
        "copy.sqlite3": "error: copy.sqlite3: already exists and is a SQLite database (the "
                        "contest's or a backup of it): nothing was written; choose another "
                        "file",
    }
    # the settings file's own PUZZLEBOT_CONTEST counts as the contest file in use
    (folder / "bot.toml").write_text(f'PUZZLEBOT_CONTEST = "{folder / "contest.toml"}"\n',
                                     encoding="utf-8")
    os.chmod(folder / "bot.toml", 0o600)
    no_env = {"PUZZLEBOT_DB": env["PUZZLEBOT_DB"]}
    refused = cli(["rating", "doc.json", "--csv", "contest.toml"], no_env, folder)
    assert refused.returncode == 2 and "the contest file in use" in refused.stderr
    # a document read is not written over either
    again = cli(["rating", "doc.json", "--csv", "doc.json"], env, folder)
    assert again.returncode == 2 and "one of the documents read" in again.stderr


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_files_with_people_s_data_are_readable_by_their_owner_only(
        contest_folder: tuple[Path, dict[str, str]]) -> None:
    folder, env = contest_folder
    old = os.umask(0)  # what a careless umask would give: 0666
    try:
        (folder / "old.json").write_text("{}", encoding="utf-8")
        os.chmod(folder / "old.json", 0o644)  # a file written before, others may read it
        (folder / "old.csv").write_text("x\n", encoding="utf-8")
        os.chmod(folder / "old.csv", 0o666)
        for args in (["export", "document", "--out", "whole.json"],
                     ["export", "document", "--out", "old.json"],
                     ["export", "document", "--public", "--out", "public.json"],
                     ["export", "results", "--xlsx", "results.xlsx"],
                     ["export", "entries", "--xlsx", "entries.xlsx"],
                     ["rating", "rated.json", "--csv", "ratings.csv", "--png", "ratings.png"],
                     ["rating", "rated.json", "--csv", "old.csv"]):
            out = cli(args, env, folder)
            assert out.returncode == 0, (args, out.stderr)
    finally:
        os.umask(old)
    for name in ("whole.json", "old.json", "public.json", "results.xlsx", "entries.xlsx",
                 "ratings.csv", "ratings.png", "old.csv"):
        assert mode(folder / name) == 0o600, name
    assert json.loads((folder / "old.json").read_text(encoding="utf-8"))["entries"]
    assert (folder / "old.csv").read_text(encoding="utf-8").startswith("kind,place,name,")


def test_through_a_symbolic_link_to_the_database_its_wal_and_shm_are_still_refused(
        contest_folder: tuple[Path, dict[str, str]]) -> None:
    """PUZZLEBOT_DB naming a symbolic link: SQLite keeps the -wal and -shm beside the file the
    link points to, and a document written over the -wal of a running bot corrupted the
    database ("database disk image is malformed"). They are refused as the database's own."""
    folder, env = contest_folder
    (folder / "data").mkdir()
    os.replace(folder / "bot.sqlite3", folder / "data" / "real.sqlite3")
    (folder / "bot.sqlite3").symlink_to(folder / "data" / "real.sqlite3")
    for target in ("data/real.sqlite3-wal", "data/real.sqlite3-shm",
                   "data/real.sqlite3-journal"):
        for args in (["export", "document", "--out", target],
                     ["export", "results", "--xlsx", target],
                     ["rating", "doc.json", "--csv", target], ["backup", target]):
            before = snapshot(folder)
            out = cli(args, env, folder)
            assert out.returncode == 2, (args, out.stdout, out.stderr)
            kind = target.rsplit("-", 1)[1]
            assert out.stderr == f"error: {target}: is the database's {kind} file: nothing " \
                "was written; choose another file\n", (args, out.stderr)
            assert snapshot(folder) == before, args


def test_an_output_to_standard_output_through_a_pipe_is_written(
        contest_folder: tuple[Path, dict[str, str]]) -> None:
    """``--out /dev/stdout`` with the standard output a pipe: the guard read the pipe to see
    whether it was a SQLite file, and waited for ever. A real process, its stdout a pipe."""
    folder, env = contest_folder
    for args, starts in ((["export", "document", "--out", "/dev/stdout"], b"{"),
                         (["export", "results", "--xlsx", "/dev/stdout"], b"PK"),
                         (["rating", "rated.json", "--csv", "/dev/stdout"], b"Ratings on")):
        done = subprocess.run([sys.executable, "-m", "bot", *args], cwd=folder,
                              env={**cli_env(env), "PYTHONPATH": str(ROOT)},
                              capture_output=True, timeout=120)
        assert done.returncode == 0, (args, done.stderr)
        assert done.stdout.startswith(starts), (args, done.stdout[:80])
