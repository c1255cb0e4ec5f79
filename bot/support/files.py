"""Files that hold people's data or the token, readable by their owner only, and the lock that
lets one bot process at a time run a contest's database.

- ``create_private``, ``make_private`` and ``write_private``: the settings file (the token),
  the database (names, births, unused organiser invitations) with its ``-wal`` and ``-shm``,
  the lock file and the backups are created 0600 whatever the umask, and an existing one
  (written by an older version) is tightened to 0600. SQLite creates a database's ``-wal``,
  ``-shm`` and ``-journal`` with the database file's own mode, so a 0600 database keeps them
  0600. Every file the command line writes with people's data in it (``export document
  --out``, a workbook, ``rating --csv`` and ``--png``) goes through ``write_private``.
- ``ProcessLock``: an exclusive ``flock`` on ``<database>.lock``, held for the process's whole
  life and released by the kernel when it ends, however it ends (a kill -9 or a power cut
  never leaves a stale lock: the pid written in the file is only information, the lock is the
  kernel's). The file itself is never removed (removing it would let two processes lock two
  different files of the same name). On Windows, which has no ``flock``, it is ``msvcrt``'s
  lock of one byte far past the pid (a Windows lock keeps others from reading the bytes it
  covers; past the end of the file is allowed), released by Windows too when the process ends.
  Windows has no 0600 either: a file there is private by its folder (the user's own, by
  default), and the mode is left as Windows makes it.
- Every file is opened in binary mode (``_open``): on Windows ``os.open`` opens in text mode
  unless told otherwise, and writes each ``\n`` as ``\r\n`` (a workbook garbled; through a
  text wrapper that writes ``\r\n`` itself, ``\r\r\n``, which TOML refuses).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import time
from pathlib import Path

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

OWNER_ONLY = 0o600
# what is beside a SQLite database while it is used (WAL) or after a crash (rollback journal)
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")
# Windows: the byte of the lock file that is locked (a pid is a few bytes at its start)
WINDOWS_LOCK_AT = 1 << 20


def _open(path: Path | str, flags: int) -> int:
    """``os.open`` in binary mode (Windows' ``O_BINARY``; elsewhere there is no other), created
    0600 (before the umask: ``_owner_only`` makes sure)."""
    return os.open(path, flags | getattr(os, "O_BINARY", 0), OWNER_ONLY)


def create_private(path: Path | str) -> int:
    """A new file (``FileExistsError`` when there is one), readable and writable by its owner
    only whatever the umask; returns its descriptor, open for writing."""
    fd = _open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    _owner_only(fd)
    return fd


def write_private(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` (replacing what it held), readable and writable by its owner
    only: created 0600 whatever the umask, so it is never readable by others even for a
    moment; an existing file is made 0600 before anything is written into it. Something that
    is not a regular file (``/dev/stdout``, a pipe) is written as it is. ``OSError`` when it
    can't be written, or is another user's file that can't be made private."""
    fd = _open(path, os.O_WRONLY | os.O_CREAT)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            _owner_only(fd)
            os.ftruncate(fd, 0)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def make_private(path: Path | str, *, create: bool = False) -> None:
    """``path`` readable and writable by its owner only (created empty with ``create`` when
    missing). A file this user does not own is left as it is (only its owner may chmod it)."""
    if create:
        with contextlib.suppress(FileExistsError):
            os.close(create_private(path))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    if os.name == "posix" and mode & 0o7777 != OWNER_ONLY:
        with contextlib.suppress(PermissionError):
            os.chmod(path, OWNER_ONLY)


def make_database_private(db: Path | str) -> None:
    """A SQLite database and what is beside it (``-wal``, ``-shm``, ``-journal``) readable and
    writable by their owner only; the database file is created empty when missing, so that
    SQLite gives its companions its mode."""
    make_private(db, create=True)
    for suffix in SQLITE_COMPANIONS:
        make_private(f"{db}{suffix}")


def _owner_only(fd: int) -> None:
    if os.name == "posix":
        os.fchmod(fd, OWNER_ONLY)


def lock_path(db: Path | str) -> Path:
    """The lock file of a database: beside the file itself (a symbolic link followed), its
    name with ``.lock`` added."""
    real = Path(os.path.realpath(db))
    return real.with_name(real.name + ".lock")


class LockHeld(Exception):
    """Another process holds the lock; ``pid`` is the one written in the lock file (None if it
    could not be read)."""

    def __init__(self, path: Path, pid: int | None) -> None:
        super().__init__(f"{path} is locked by process {pid if pid is not None else '?'}")
        self.path = path
        self.pid = pid


class ProcessLock:
    """The exclusive lock of one database, for this process's whole life."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd = fd

    @classmethod
    def acquire(cls, db: Path | str, pid_wait: float = 1.0) -> ProcessLock:
        """Lock ``db``'s lock file (created 0600) and write this process's pid into it.
        ``LockHeld`` when another process has it (its pid read from the file, waiting up to
        ``pid_wait`` seconds for a holder that has just locked it to write it); ``OSError``
        when the lock file cannot be created or opened."""
        path = lock_path(db)
        fd = _open(path, os.O_RDWR | os.O_CREAT)
        try:
            make_private(path)
            if not _lock(fd):
                raise LockHeld(path, _holder(fd, pid_wait))
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"{os.getpid()}\n".encode())
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd)

    def release(self) -> None:
        """Unlock (the kernel does it anyway when the process ends)."""
        if self._fd >= 0:
            if sys.platform == "win32":  # Windows asks for the unlock before the close
                with contextlib.suppress(OSError):
                    os.lseek(self._fd, WINDOWS_LOCK_AT, os.SEEK_SET)
                    msvcrt.locking(self._fd, msvcrt.LK_UNLCK, 1)
            os.close(self._fd)
            self._fd = -1


def _lock(fd: int) -> bool:
    """Lock the open lock file ``fd`` for this process: False when another process holds it.
    ``flock``; on Windows ``msvcrt.locking`` of the byte at ``WINDOWS_LOCK_AT``."""
    if sys.platform == "win32":
        os.lseek(fd, WINDOWS_LOCK_AT, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:  # EACCES: locked by another process
            if exc.errno not in (errno.EACCES, errno.EDEADLOCK):
                raise
            return False
        finally:
            os.lseek(fd, 0, os.SEEK_SET)
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder(fd: int, wait: float) -> int | None:
    """The pid in a lock file held by another process: it writes it just after locking, so an
    empty file is read again for up to ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode("ascii", "replace").strip()
        if text.isdigit():
            return int(text)
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.02)
