"""Where the command line may write a file it is given (``export document --out``, a workbook,
``rating --csv``/``--png``, ``import document --write-contest``, ``backup``, ``demo --db``).

Never over what runs the contest: the database (``PUZZLEBOT_DB``) and its ``-wal``, ``-shm``,
``-journal`` and ``.lock``, the settings file beside it (the token), the contest file in use
(``PUZZLEBOT_CONTEST``), nor any existing SQLite database (the contest's under another name,
or a backup of it: ``backup`` and the chat's name theirs freely, so a backup is told by what
it is, not by its name). A path is compared once resolved (relative, ``./x``, ``..``, symbolic
links, another hard link to the same file). ``check_output`` is the one guard; ``write_output``
checks, then writes (people's data: 0600, ``bot.support.files.write_private``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.support.config import ConfigError, database_path, environment, settings_path
from bot.support.files import SQLITE_COMPANIONS, lock_path, write_private

SQLITE_HEADER = b"SQLite format 3\x00"


class OutputRefused(Exception):
    """A path the command line must not write: one line saying why (nothing was written)."""


def protected(env: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """The files no output may replace, each with what it is: the database and what is beside
    it, the settings file, the contest file in use."""
    env = os.environ if env is None else env
    db = database_path(env)
    out = [(db, "the contest's database (PUZZLEBOT_DB)")]
    # SQLite names the -wal, -shm and -journal after the database's real path: through a
    # symbolic link (PUZZLEBOT_DB=link.sqlite3), those beside the file it points to
    for base in dict.fromkeys((db, os.path.realpath(db))):
        out += [(f"{base}{suffix}", f"the database's {suffix[1:]} file")
                for suffix in SQLITE_COMPANIONS]
    out.append((str(lock_path(db)), "the database's lock file"))
    out.append((str(settings_path(db)), "the settings file (it holds the bot's token)"))
    try:
        contest = environment(env).get("PUZZLEBOT_CONTEST", "")
    except ConfigError:  # a broken settings file: the environment's word alone
        contest = env.get("PUZZLEBOT_CONTEST", "")
    if contest.strip():
        out.append((contest.strip(), "the contest file in use (PUZZLEBOT_CONTEST)"))
    return out


def _same(path: str, other: str) -> bool:
    if os.path.realpath(path) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(path, other)  # another hard link to the same file
    except OSError:
        return False


def _is_database(path: str) -> bool:
    """Whether ``path`` is an existing SQLite file. Only a regular file is read: opening
    ``/dev/stdout`` (a pipe, a terminal) to read would wait for input forever."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def check_output(path: str | Path, *, also: Sequence[tuple[str, str]] = (),
                 replaces_database: bool = False) -> None:
    """``OutputRefused`` when ``path`` names a file the command line must not write (see the
    module's text); ``also``: more such files, each with what it is (the documents a command
    reads). ``replaces_database``: the command writes a database of its own there (``demo
    --db``, ``backup``), so an existing SQLite file is its own business, not refused here."""
    where = str(path)
    for other, what in [*protected(), *also]:
        if _same(where, other):
            raise OutputRefused(f"{where}: is {what}: nothing was written; choose another file")
    if not replaces_database and _is_database(where):
        raise OutputRefused(f"{where}: already exists and is a SQLite database (the contest's "
                            "or a backup of it): nothing was written; choose another file")


def write_output(path: str | Path, data: bytes, *, private: bool = True,
                 also: Sequence[tuple[str, str]] = ()) -> None:
    """``data`` written to ``path`` once ``check_output`` allows it: readable by its owner only
    (``private``, for anything with people's data in it), else as the umask makes files.
    ``OutputRefused``, or ``OSError`` when it can't be written."""
    check_output(path, also=also)
    if private:
        write_private(path, data)
    else:
        Path(path).write_bytes(data)
