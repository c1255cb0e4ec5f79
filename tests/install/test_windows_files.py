"""Windows has no ``flock`` and opens files in text mode (issue 49); tested here with a
stand-in for ``msvcrt`` and ``sys.platform`` set to win32: the one-process lock is
``msvcrt.locking`` of a byte past the pid, and every ``os.open`` asks for O_BINARY
(bot/support/files.py)."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

import pytest

from bot.support import files


class Msvcrt:
    """``msvcrt.locking`` as Windows does it, between the descriptors of this process: a byte
    range of a file locked by one descriptor is refused to the others (EACCES)."""

    LK_UNLCK, LK_NBLCK = 0, 2

    def __init__(self) -> None:
        self.held: dict[tuple[int, int, int], int] = {}
        self.calls: list[tuple[int, int]] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        st = os.fstat(fd)
        at = os.lseek(fd, 0, os.SEEK_CUR)
        self.calls.append((mode, at))
        key = (st.st_dev, st.st_ino, at)
        if mode == self.LK_UNLCK:
            self.held.pop(key, None)
        elif self.held.get(key, fd) != fd:
            raise OSError(errno.EACCES, "Permission denied")
        else:
            self.held[key] = fd


def test_one_process_per_database_on_windows(monkeypatch, tmp_path):
    fake = Msvcrt()
    monkeypatch.setattr(files, "msvcrt", fake, raising=False)
    monkeypatch.setattr(files, "fcntl", None)  # not on Windows
    db = tmp_path / "contest.sqlite3"
    monkeypatch.setattr(sys, "platform", "win32")
    first = files.ProcessLock.acquire(db)
    with pytest.raises(files.LockHeld) as held:
        files.ProcessLock.acquire(db, pid_wait=0.1)
    first.release()
    again = files.ProcessLock.acquire(db)
    again.release()
    monkeypatch.undo()
    assert held.value.pid == os.getpid()  # the pid at the file's start is readable
    assert {at for _, at in fake.calls} == {files.WINDOWS_LOCK_AT}
    assert fake.held == {}
    assert files.lock_path(db).read_text() == f"{os.getpid()}\n"


def test_files_are_opened_binary(monkeypatch, tmp_path):
    """Windows' ``os.open`` is text without O_BINARY: every file is opened with it."""
    binary = 0x8000
    flags: list[int] = []
    real_open = os.open

    def recording(path: Any, flag: int, mode: int = 0o777) -> int:
        flags.append(flag)
        return real_open(path, flag & ~binary, mode)

    monkeypatch.setattr(os, "O_BINARY", binary, raising=False)
    monkeypatch.setattr(files.os, "open", recording)
    files.write_private(tmp_path / "a.xlsx", b"PK\n\r\n")
    os.close(files.create_private(tmp_path / "b.toml"))
    files.ProcessLock.acquire(tmp_path / "c.sqlite3").release()
    monkeypatch.undo()
    assert len(flags) == 3 and all(f & binary for f in flags)
    assert (tmp_path / "a.xlsx").read_bytes() == b"PK\n\r\n"
