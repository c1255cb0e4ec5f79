"""What an installed bot offers beside the contest (docs/service.md):

- ``examples [NAME [DEST]]``: the shipped example contests listed, each with its first comment
  line, or one copied to start from (``bot.support.examples``);
- ``service [--user] [--db FILE]``: a systemd unit that keeps ``run`` going on an always-on
  Linux machine (a server, a Raspberry Pi), printed for this install: the program's absolute
  path, the folder of the database and its settings file. The token stays in the settings file
  (``setup`` writes it, readable by its owner only), never in the unit.
"""

from __future__ import annotations

import argparse
import getpass
import os
import site
import sys
import sysconfig
from pathlib import Path

from bot.support.config import (
    DEFAULT_DB,
    ConfigError,
    database_path,
    read_settings_file,
    settings_path,
)
from bot.support.examples import ExampleError, copy, listing
from bot.support.program import argv, by_script, command_line, name
from bot.support.shipped import CHECKOUT

RESTART_SEC = 10
# what ``fail`` exits with: the bot refused to start (its settings, its token, another process
# on the database, Telegram's 409): starting it again would only say the same
REFUSED_EXIT = 2


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def examples_command(args: argparse.Namespace) -> int:
    """``examples``: every shipped example and what it is; ``examples NAME [DEST]``: a copy."""
    if args.name is None:
        for file, comment in listing():
            print(f"{file}\n    {comment}")
        print(f"\ncopy one to start from: {command_line('examples', 'NAME.toml', 'DEST.toml')}")
        return 0
    try:
        written = copy(args.name, args.dest)
    except ExampleError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{args.dest}: cannot be written ({exc.strerror or exc})")
    mine = str(written[0])
    print(f"written: {', '.join(str(p) for p in written)}")
    print(f"check it with: {command_line('check-contest', mine)}")
    print(f"rehearse it with: {command_line('demo', '--contest', mine)}")
    return 0


def systemd_word(text: str) -> str:
    """One word of a unit's command line: ``%`` (specifiers) and ``$`` (variables) doubled,
    in double quotes when it has spaces or quotes."""
    word = text.replace("%", "%%").replace("$", "$$")
    if any(c in word for c in " \t\"'\\"):
        word = '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return word


def unit(command: list[str], workdir: Path, *, user_unit: bool, user: str,
         environment: dict[str, str]) -> str:
    """The systemd unit that runs ``command`` in ``workdir``: a system unit run as ``user``, or
    with ``user_unit`` one of the user's own (``systemctl --user``)."""
    ctl = "systemctl --user" if user_unit else "sudo systemctl"
    logs = "journalctl --user -u puzzlebot" if user_unit else "journalctl -u puzzlebot"
    where = ("~/.config/systemd/user/puzzlebot.service" if user_unit
             else "/etc/systemd/system/puzzlebot.service")
    put = (f"{name()} service --user > {where}" if user_unit
           else f"{name()} service | sudo tee {where}")
    lines = [
        f"# puzzlebot kept running by systemd (docs/service.md), written by `{name()} service"
        f"{' --user' if user_unit else ''}`",
        "# in the contest's folder. To put it in place and start it:",
        *(["#   mkdir -p ~/.config/systemd/user"] if user_unit else []),
        f"#   {put}",
        f"#   {ctl} daemon-reload && {ctl} enable --now puzzlebot",
        *(["#   sudo loginctl enable-linger $USER   (it starts at boot, and goes on after you "
           "log out)"] if user_unit else []),
        f"#   {logs} -f   (its log)",
        "# The token is not here: the bot reads it from the settings file beside its database",
        "# (setup writes it there, readable by its owner only).",
        "",
        "[Unit]",
        "Description=puzzlebot, the jigsaw-puzzle contest bot on Telegram",
    ]
    if not user_unit:  # the user's own manager has no network-online.target
        lines += ["Wants=network-online.target", "After=network-online.target"]
    lines += ["", "[Service]", "Type=simple"]
    if not user_unit:
        lines.append(f"User={user}")
    lines.append(f"WorkingDirectory={str(workdir).replace('%', '%%')}")
    # the log as it is written (print()'s lines too, not held in a buffer)
    lines += [f"Environment={systemd_word(f'{k}={v}')}"
              for k, v in {"PYTHONUNBUFFERED": "1", **environment}.items()]
    lines += [
        f"ExecStart={' '.join(systemd_word(w) for w in command)}",
        "Restart=on-failure",
        f"RestartSec={RESTART_SEC}",
        "# exit status 2: the bot refused to start (its settings, the token, another bot on",
        "# the same database); its log says why, and starting it again would not help",
        f"RestartPreventExitStatus={REFUSED_EXIT}",
        "",
        "[Install]",
        f"WantedBy={'default.target' if user_unit else 'multi-user.target'}",
    ]
    return "\n".join(lines) + "\n"


def _settings_warnings(settings: Path) -> list[str]:
    try:
        saved = read_settings_file(settings)
    except ConfigError as exc:
        return [str(exc)]
    if not settings.is_file():
        return [f"{settings}: no settings file yet: run `{name()} setup` in "
                f"{settings.parent} first (the service reads the token from it)"]
    return [f"{settings}: no {key} in it: run `{name()} setup` there again"
            for key in ("TELEGRAM_BOT_TOKEN", "PUZZLEBOT_CONTEST") if not saved.get(key)]


def _in_site_packages() -> bool:
    """Whether this bot is an installed package (in site-packages), which ``python -m bot``
    finds from any folder; a checkout's is found from its own folder only (or through an
    editable install, which may be another checkout's)."""
    places = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib"),
              site.getusersitepackages(), *site.getsitepackages()}
    return any(Path(p).resolve() == CHECKOUT for p in places if p)


def service_command(args: argparse.Namespace) -> int:
    """``service [--user] [--db FILE]``: the unit on standard output, warnings on standard
    error (no settings file yet, a unit that would run as root)."""
    db = Path(args.db or database_path())
    if db.is_dir():
        return _fail(f"{db}: a folder; --db names the database file (e.g. "
                     f"{db / DEFAULT_DB})")
    db = Path(os.path.abspath(db))
    user = getpass.getuser()
    for warning in _settings_warnings(settings_path(str(db))):
        print(f"warning: {warning}", file=sys.stderr)
    if not args.user and user == "root":
        print("warning: the bot would run as root: run this as the user who ran setup",
              file=sys.stderr)
    environment = {} if db.name == DEFAULT_DB else {"PUZZLEBOT_DB": str(db)}
    if not by_script() and not _in_site_packages():  # this checkout's code, from any folder
        environment["PYTHONPATH"] = str(CHECKOUT)
    print(unit(argv(["run"]), db.parent, user_unit=args.user, user=user,
               environment=environment), end="")
    return 0
