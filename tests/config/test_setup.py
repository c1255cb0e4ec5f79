"""`python -m bot setup` against our fake Bot API over HTTP (a good token, a refused one,
Telegram out of reach), and the settings file beside the database: written 0600, the
environment wins over it, a malformed one is one line and exit 2, the token never printed."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.support.config import (
    ConfigError,
    environment,
    load_settings,
    read_settings_file,
    settings_path,
)
from tests.clirun import bot_main
from tests.conftest import BILLOM, CASTRILLO, ROOT

LINK = re.compile(r"https://t\.me/puzzle_rehearsal_bot\?start=(o[A-Za-z0-9_-]+)")
SECRET = "123456:REHEARSAL-token-not-secret-abcdefghij"  # the fake API's token


@dataclass
class Done:
    code: int
    out: str
    err: str


async def bot_cli(args: list[str], env: dict[str, str], stdin: str = "",
                  process: bool = False) -> Done:
    """``python -m bot ARGS``, in this process on a thread of its own (tests/clirun.py), or
    with ``process`` as a child process; the event loop keeps serving the fake API meanwhile.
    Only the variables given are set (none of the caller's TELEGRAM_/PUZZLEBOT_)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    full.update(env)
    if not process:
        ran = await asyncio.to_thread(bot_main, args, full, stdin=stdin)
        return Done(ran.returncode, ran.stdout, ran.stderr)
    full.update(PYTHONIOENCODING="utf-8")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=ROOT, env=full, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(stdin.encode()), 60)
    assert proc.returncode is not None
    return Done(proc.returncode, out.decode(), err.decode())


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one_error_line(done: Done, *needles: str) -> str:
    assert done.code == 2, (done.out, done.err)
    lines = done.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.err
    assert "Traceback" not in done.err
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


async def test_setup_checks_the_token_with_telegram_and_writes_a_private_file(api, tmp_path):
    db = tmp_path / "contest.sqlite3"
    env = {"TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_BASE_URL": api.base_url}
    done = await bot_cli(["setup", "--contest", str(CASTRILLO), "--db", str(db)], env,
                         process=True)  # a real process: its exit status, all it printed
    assert done.code == 0, done.err
    assert "@puzzle_rehearsal_bot" in done.out and "Castrillo" in done.out
    [code] = LINK.findall(done.out)
    assert api.token not in done.out + done.err
    assert [c.method for c in api.calls] == ["getMe"]
    path = tmp_path / "contest.toml"
    assert settings_path(str(db)) == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_settings_file(path) == {
        "TELEGRAM_BOT_TOKEN": api.token, "PUZZLEBOT_CONTEST": str(CASTRILLO.resolve()),
        "TELEGRAM_BASE_URL": api.base_url}
    # setup again, the token typed this time (one line on standard input): the link nobody
    # opened yet is the same one
    done = await bot_cli(["setup", "--db", str(db)], {"TELEGRAM_BASE_URL": api.base_url},
                         stdin=f"{BILLOM}\n{api.token}\n")
    assert done.code == 0, done.err
    assert LINK.findall(done.out) == [code]
    assert api.token not in done.out + done.err
    assert read_settings_file(path)["PUZZLEBOT_CONTEST"] == str(BILLOM.resolve())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # the bot runs from the file alone: only the database is named
    done = await bot_cli(["export", "entries"], {"PUZZLEBOT_DB": str(db)})
    assert done.code == 0 and done.out.startswith("number,category,names"), done.err


async def test_setup_keeps_the_saved_token_on_enter(api, tmp_path):
    db = tmp_path / "c.sqlite3"
    env = {"TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_BASE_URL": api.base_url}
    assert (await bot_cli(["setup", "--contest", str(CASTRILLO), "--db", str(db)], env)).code == 0
    done = await bot_cli(["setup", "--contest", str(CASTRILLO), "--db", str(db)], {},
                         stdin="\n")  # the base URL and the token from the file
    assert done.code == 0, done.err
    assert "Enter keeps the saved one" in done.out
    assert [c.method for c in api.calls] == ["getMe", "getMe"]


async def test_setup_with_a_refused_token_says_so_and_writes_nothing(api, tmp_path):
    wrong = "987654321:AAH-not-the-right-token-abcdefghijkl"
    db = tmp_path / "c.sqlite3"
    done = await bot_cli(["setup", "--contest", str(CASTRILLO), "--db", str(db)],
                         {"TELEGRAM_BASE_URL": api.base_url}, stdin=wrong + "\n",
                         process=True)  # exit 2 from a real process, the token unprinted
    one_error_line(done, "Telegram refused this token", "@BotFather")
    assert wrong not in done.out + done.err and "987654321" not in done.err
    assert not (tmp_path / "c.toml").exists() and not db.exists()


@pytest.mark.parametrize("token,needle", [
    ("", "no token given"),
    ("no-colon-here-at-all", "does not look like a bot token"),
    # nothing but digits, a colon, letters, digits, - and _: no path or query into the address
    ("123:SECRET/../../x?y#z", "does not look like a bot token"),
])
async def test_setup_with_no_token_or_not_a_token(api, tmp_path, token, needle):
    done = await bot_cli(["setup", "--contest", str(CASTRILLO), "--db",
                          str(tmp_path / "c.sqlite3")], {"TELEGRAM_BASE_URL": api.base_url},
                         stdin=token + "\n")
    one_error_line(done, needle)
    if token:
        assert token not in done.err
    assert api.calls == [] and not (tmp_path / "c.toml").exists()


async def test_setup_with_telegram_out_of_reach(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/bot"
    done = await bot_cli(["setup", "--contest", str(CASTRILLO), "--db",
                          str(tmp_path / "c.sqlite3")],
                         {"TELEGRAM_BOT_TOKEN": SECRET, "TELEGRAM_BASE_URL": url})
    line = one_error_line(done, "could not reach Telegram", "run setup again")
    assert SECRET not in done.out + done.err and "REHEARSAL" not in line
    assert not (tmp_path / "c.toml").exists()


async def test_setup_with_a_bad_contest_file_asks_nothing_of_telegram(api, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[contest]\nname = 'x'\n")
    done = await bot_cli(["setup", "--contest", str(bad), "--db", str(tmp_path / "c.sqlite3")],
                         {"TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_BASE_URL": api.base_url})
    one_error_line(done, str(bad))
    assert api.calls == [] and not (tmp_path / "c.toml").exists()


# -- the settings file --------------------------------------------------------------------------


def test_the_environment_wins_over_the_file(tmp_path: Path):
    db = tmp_path / "puzzlebot.sqlite3"
    (tmp_path / "puzzlebot.toml").write_text(
        'TELEGRAM_BOT_TOKEN = "111:from-the-file"\n'
        f'PUZZLEBOT_CONTEST = "{BILLOM}"\n'
        "PUZZLEBOT_ORGANISERS = [12, 34]\n"
        "PUZZLEBOT_VOLUNTEER_CHAT = -100\n")
    from_file = load_settings({"PUZZLEBOT_DB": str(db)})
    assert from_file.token == "111:from-the-file" and from_file.contest_file == str(BILLOM)
    assert from_file.organisers == {12, 34} and from_file.volunteer_chat == -100
    env = {"PUZZLEBOT_DB": str(db), "TELEGRAM_BOT_TOKEN": "222:from-the-environment",
           "PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_ORGANISERS": "56"}
    config = load_settings(env)
    assert config.token == "222:from-the-environment"
    assert config.contest_file == str(CASTRILLO) and config.organisers == {56}
    assert config.volunteer_chat == -100  # what the environment leaves unset
    # an empty variable is unset: the file's value stays
    assert load_settings({**env, "PUZZLEBOT_ORGANISERS": ""}).organisers == {12, 34}


@pytest.mark.parametrize("text,needle", [
    ("TELEGRAM_BOT_TOKEN = 111:abc\n", "not a valid settings file"),
    ('PUZZLEBOT_DB = "other.sqlite3"\n', "unknown setting 'PUZZLEBOT_DB'"),
    ('PUZZLEBOT_CONTST = "x.toml"\n', "unknown setting 'PUZZLEBOT_CONTST'"),
    ("PUZZLEBOT_ORGANISERS = true\n", "PUZZLEBOT_ORGANISERS must be a text"),
    ('PUZZLEBOT_ORGANISERS = "12,abc"\n', "PUZZLEBOT_ORGANISERS must be a Telegram id"),
], ids=["not-toml", "the-database", "misspelt", "a-boolean", "bad-id"])
async def test_a_malformed_settings_file_is_one_line_and_exit_2(tmp_path, text, needle):
    db = tmp_path / "puzzlebot.sqlite3"
    (tmp_path / "puzzlebot.toml").write_text(
        f'TELEGRAM_BOT_TOKEN = "{SECRET}"\nPUZZLEBOT_CONTEST = "{CASTRILLO}"\n'
        if "TOKEN" not in text else "")
    with open(tmp_path / "puzzlebot.toml", "a") as fh:
        fh.write(text)
    for command in (["run"], ["export", "entries"], ["setup", "--contest", str(CASTRILLO)]):
        done = await bot_cli(command, {"PUZZLEBOT_DB": str(db)})
        line = one_error_line(done, needle)
        assert "puzzlebot.toml" in line or "PUZZLEBOT_ORGANISERS" in line
        assert SECRET not in done.out + done.err
    assert not db.exists()
    with pytest.raises(ConfigError):
        load_settings({"PUZZLEBOT_DB": str(db)})


async def test_a_settings_file_others_can_read_gets_a_warning(tmp_path):
    db = tmp_path / "puzzlebot.sqlite3"
    path = tmp_path / "puzzlebot.toml"
    path.write_text(f'PUZZLEBOT_CONTEST = "{CASTRILLO}"\n')
    path.chmod(0o644)
    done = await bot_cli(["export", "entries"], {"PUZZLEBOT_DB": str(db)})
    assert done.code == 0
    assert f"warning: {path} holds the bot's token and others may read it: chmod 600" in done.err
    path.chmod(0o600)
    done = await bot_cli(["export", "entries"], {"PUZZLEBOT_DB": str(db)})
    assert done.code == 0 and "warning" not in done.err


def test_a_settings_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path):
    path = tmp_path / "puzzlebot.toml"
    path.write_bytes(b"\xef\xbb\xbf" + f'PUZZLEBOT_CONTEST = "{CASTRILLO}"\n'.encode())
    assert read_settings_file(path) == {"PUZZLEBOT_CONTEST": str(CASTRILLO)}


def test_a_database_named_like_its_contest_file_reads_no_settings_from_it(tmp_path):
    """``castrillo.sqlite3`` beside ``castrillo.toml``: the settings file's place (the
    database's name with .toml) is the contest file. The bot runs on the environment's
    settings instead of refusing the contest's keys as "unknown settings" (the rehearsal of
    such a pair never started), and a settings file that is a contest file is said to be one
    (setup then writes nothing over it)."""
    contest = tmp_path / "castrillo.toml"
    contest.write_text(CASTRILLO.read_text(encoding="utf-8"), encoding="utf-8")
    env = {"PUZZLEBOT_DB": str(tmp_path / "castrillo.sqlite3"),
           "PUZZLEBOT_CONTEST": str(contest), "TELEGRAM_BOT_TOKEN": "1:x"}
    assert environment(env) == env
    with pytest.raises(ConfigError, match=r"castrillo.toml is a contest file, where the "
                       r"database's settings file goes .* such as castrillo-bot.sqlite3"):
        read_settings_file(contest)
    before = contest.read_bytes()
    done = bot_main(["setup", "--db", str(tmp_path / "castrillo.sqlite3"), "--contest",
                     str(contest)], {k: v for k, v in os.environ.items()
                                     if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))},
                    stdin="\n")
    assert done.returncode != 0 and "is a contest file" in done.stderr + done.stdout
    assert contest.read_bytes() == before
