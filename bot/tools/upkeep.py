"""``doctor`` and ``restore`` on the command line: the doctor's screen for the bot on this
machine (running or not), and a backup put back in the database's place (the bot stopped)."""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.features.upkeep import doctor
from bot.features.upkeep.backups import restore
from bot.features.upkeep.rules import Finding, Status, worst
from bot.features.upkeep.texts import doctor_report
from bot.storage.db import StoreError
from bot.support.config import ConfigError, database_path, load_settings
from bot.support.files import LockHeld, ProcessLock
from bot.support.program import command_line


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def running(db: str) -> int | None:
    """The process running the bot on ``db`` (its pid; 0: running, pid unknown), or None."""
    try:
        lock = ProcessLock.acquire(db, pid_wait=0.5)
    except LockHeld as exc:
        return exc.pid if exc.pid is not None else 0
    except OSError:
        return None
    lock.release()
    return None


def doctor_command() -> int:
    """One screen: each check and what to do about it. Exit 0 when everything is in order, 1
    when something is to do soon, 2 when the bot cannot work as it should."""
    try:
        config = load_settings(need_token=False)
    except ConfigError as exc:
        return _fail(str(exc))
    findings: list[Finding] = asyncio.run(doctor.examine(config, running(config.db_path)))
    print(doctor_report("en", findings))
    verdict = worst(findings)
    return 0 if verdict is Status.OK else 1 if verdict is Status.WARN else 2


def restore_command(file: str) -> int:
    """A backup (a copy, or the day's .gz the organisers received) put in place of the
    database, checked first; the database it replaces is kept aside. Refused while the bot
    runs."""
    db = Path(database_path())
    try:
        lock = ProcessLock.acquire(db)
    except LockHeld as exc:
        return _fail(f"{db}: the bot is running (process {exc.pid or '?'}): stop it first, "
                     "then restore")
    except OSError as exc:
        return _fail(f"{db}: cannot be locked ({exc.strerror or exc})")
    try:
        done = restore(Path(file), db, datetime.now(UTC))
    except StoreError as exc:
        return _fail(str(exc))
    finally:
        lock.release()
    print(f"{file} restored into {db}: {done.events} events, integrity ok")
    if done.aside is not None:
        print(f"the database it replaced is kept as {done.aside}")
    print(f"start the bot again: {command_line('run')}")
    return 0
