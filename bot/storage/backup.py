"""Backups: a checked copy of what is committed, taken without stopping the bot."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from bot.storage.db import BUSY_TIMEOUT_MS, Database, StoreError
from bot.support.files import create_private


class Backups(Database):
    """``Store.backup_to``."""

    async def backup_to(self, path: str | Path, *, pages: int = -1,
                        progress: Callable[[int, int, int], object] | None = None) -> int:
        """Copy what is committed into the new file ``path``, checked, without stopping the
        bot: ``copy_database`` in a worker thread, from a read-only connection of its own.
        It never takes the writer's lock nor touches the store's connection (the file's name
        is read from it, that is all), so operations and their group commits go on while
        the copy is taken, and the copy has none of the open batch. Returns how many events
        the copy holds; ``StoreError`` if it could not be taken or failed its check."""
        rows = await self._fetchall("PRAGMA database_list")
        source = next((str(r[2]) for r in rows if r[1] == "main"), "")
        if not source:
            raise StoreError("an in-memory database has no file to copy")
        return await asyncio.to_thread(copy_database, source, path, pages=pages,
                                       progress=progress)


def copy_database(source: str | Path, dest: str | Path, *, pages: int = -1,
                  progress: Callable[[int, int, int], object] | None = None) -> int:
    """A consistent copy of the database file ``source`` into the new file ``dest``; returns
    how many events it holds. Blocking: run it in a thread (``Store.backup_to``) or a process
    of its own (``python -m bot backup``).

    - Its own connection, read-only: it never writes the source, never waits for the bot's
      writer's lock, and (WAL) the writer never waits for it.
    - One snapshot: a read transaction is opened before the first page is copied and held
      until the last, so every step of SQLite's online backup (``pages`` at a time; -1: all
      in one) reads the same committed state, whatever commits meanwhile. A reader sees only
      committed transactions, never the writer's open batch.
    - Checked before anyone is given it: ``PRAGMA integrity_check`` on the copy, and its
      events counted against the snapshot's. The copy is made self-contained (rollback
      journal: no ``-wal`` file needed beside it).

    ``progress(status, remaining, pagecount)`` is called after each step, inside the
    snapshot. ``StoreError`` (and ``dest`` removed) when anything fails."""
    target = Path(dest)
    try:
        os.close(create_private(target))  # readable by its owner only, as the database
    except FileExistsError:
        raise StoreError(f"{target}: already exists") from None
    except OSError as exc:
        raise StoreError(f"{target}: cannot be written ({exc.strerror or exc})") from None
    uri = f"{Path(source).resolve().as_uri()}?mode=ro"
    try:
        src = sqlite3.connect(uri, uri=True, isolation_level=None,
                              timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            src.execute("BEGIN")  # the snapshot starts with the first read and lasts to COMMIT
            events = int(src.execute("SELECT COUNT(*) FROM events").fetchone()[0])
            out = sqlite3.connect(target, isolation_level=None)
            try:
                src.backup(out, pages=pages, progress=progress)
                src.execute("COMMIT")
                out.execute("PRAGMA journal_mode=DELETE")
                check = [str(r[0]) for r in out.execute("PRAGMA integrity_check")]
                copied = int(out.execute("SELECT COUNT(*) FROM events").fetchone()[0])
            finally:
                out.close()
        finally:
            src.close()
        if check != ["ok"]:
            raise StoreError(f"the copy failed its integrity check ({'; '.join(check[:3])})")
        if copied != events:
            raise StoreError(f"the copy holds {copied} events, its snapshot {events}")
    except BaseException as exc:
        target.unlink(missing_ok=True)
        if isinstance(exc, sqlite3.Error):
            raise StoreError(f"{source}: cannot be backed up ({exc})") from None
        raise
    return events
