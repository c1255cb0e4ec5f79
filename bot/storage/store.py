"""The store: every table's reads (events.py, entries.py, people.py, outbox.py), the one
writer (transactions.py), backups (backup.py), on one connection (db.py); all SQL lives in
bot/storage. The names callers use are here."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite

from bot.storage.alive import Alive
from bot.storage.backup import Backups, copy_database
from bot.storage.db import (
    BUSY_TIMEOUT_MS,
    MIGRATIONS,
    StoreError,
    TransactionError,
    migrations,
    where_it_can_live,
)
from bot.storage.outbox import OutboxReads
from bot.storage.people import People
from bot.storage.records import (
    OUTBOX_KEEP_SECONDS,
    PRIORITY_ANSWER,
    PRIORITY_BULK,
    PRIORITY_COPY,
    Copy,
    Entry,
    Event,
    OutboxMessage,
    from_ts,
    to_ts,
)
from bot.storage.transactions import Operation, Transaction
from bot.support.files import make_database_private

__all__ = [
    "BUSY_TIMEOUT_MS", "MIGRATIONS", "OUTBOX_KEEP_SECONDS", "PRIORITY_ANSWER", "PRIORITY_BULK",
    "PRIORITY_COPY", "Copy", "Entry", "Event", "Operation", "OutboxMessage", "Store", "StoreError",
    "Transaction", "TransactionError", "copy_database", "from_ts", "migrations", "to_ts",
    "where_it_can_live",
]


class Store(People, Alive, OutboxReads, Backups):
    """Opened with ``Store.open(path)``; written only through ``store.transaction()``."""

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        where_it_can_live(Path(path))
        if str(path) != ":memory:" and not str(path).startswith("file:"):
            # readable by its owner only (an older version's file tightened too), before
            # SQLite creates its -wal and -shm with the database's mode
            make_database_private(path)
        raw: list[sqlite3.Connection] = []

        def connect() -> sqlite3.Connection:  # in aiosqlite's thread; kept for Transaction
            raw.append(sqlite3.connect(str(path), isolation_level=None,
                                       check_same_thread=False))
            return raw[0]

        conn = await aiosqlite.Connection(connect, iter_chunk_size=64)
        conn.row_factory = aiosqlite.Row
        store = cls(conn, raw[0])
        try:
            await store._pragmas()
            await store._check_integrity()
            await store._migrate()
            await store._load_supersessions()
            await store._load_update_floor()
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StoreError(f"the database file is damaged or not SQLite ({exc})") from None
        except BaseException:
            await conn.close()
            raise
        return store

    async def close(self) -> None:
        if self._committer is not None and not self._committer.done():
            await self._committer
        await self.conn.close()
