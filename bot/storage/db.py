"""The connection: one aiosqlite connection (WAL, pragmas), migrations at start, what is kept
in memory about the file and the one hook every write goes through (``Database._wrote``)."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.domain.events import CORRECTION, ENTRY_ROWS, UNDONE
from bot.domain.history import effective_ids
from bot.storage.records import Entry, Event, OutboxMessage
from bot.support.shipped import folder

# the checkout's migrations/, or the installed package's copy (bot/support/shipped.py)
MIGRATIONS = folder("migrations")
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


BUSY_TIMEOUT_MS = 5000  # how long a write waits for another process's (an import) to end


class StoreError(Exception):
    """The database can't be used (newer than this code, damaged, ...): a clear message."""


def migrations() -> list[tuple[int, str]]:
    found = []
    for p in sorted(MIGRATIONS.glob("*.sql")):
        m = _NAME.match(p.name)
        if m:
            found.append((int(m.group(1)), p.read_text(encoding="utf-8")))
    return found


class TransactionError(RuntimeError):
    """A write outside the writer's own transaction, or a transaction opened inside another
    one by the same task: a bug in the caller, refused at once (not an ``assert``: it holds
    under ``python -O`` too)."""


_WRITTEN_TABLE = re.compile(
    r"^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|"
    r"DELETE\s+FROM)\s+(\w+)", re.IGNORECASE)


class TransactionCore:
    """The write side of one operation of ``Store.transaction()``: with the writes of each
    table (``Transaction``, bot/storage/transactions.py), the only object with write methods.
    It belongs to the task that opened it and is valid until its ``async with`` ends; a write
    from another task, or after the end, raises ``TransactionError``. Every write goes
    through ``Database._wrote``, the one place where what was derived from the history is made
    stale (see docs/invariants.md)."""

    __slots__ = ("_joinable", "_open", "_store", "_task")

    def __init__(self, store: Database, joinable: bool = False) -> None:
        self._store = store
        self._task = asyncio.current_task()
        self._open = True
        self._joinable = joinable

    def _owned(self) -> Database:
        if not self._open:
            raise TransactionError("a write after its transaction ended")
        if asyncio.current_task() is not self._task:
            raise TransactionError("a write from a task that does not own the transaction")
        return self._store

    # writes

    def execute(self, sql: str, params: Sequence[Any] = (), *,
                person: int | None = None) -> sqlite3.Cursor:
        """Any other write, in this transaction (the store's own methods use it); the table it
        writes goes through the same hook as the typed writes (``person``: the one person a
        write to ``people`` changes; without it, everyone's cached row is dropped)."""
        s = self._owned()
        found = _WRITTEN_TABLE.match(sql)
        if found is None:
            raise TransactionError(f"not a write: {sql.split()[0] if sql.split() else sql!r}")
        cur = s._raw.execute(sql, params)
        s._wrote(found.group(1).lower(), person=person)
        return cur

    @property
    def recorded(self) -> bool:
        """Whether this operation has written anything but messages so far."""
        return self._owned()._op_wrote


def where_it_can_live(path: Path) -> None:
    """A database file the bot can open and write, or ``StoreError`` saying in one line why
    not (SQLite's own word for all of these is "unable to open database file")."""
    if path.is_dir():
        raise StoreError("this is a folder: give the path of a database file (it is created "
                         "if missing)")
    folder = path.parent
    if not folder.is_dir():
        raise StoreError(f"the folder {folder} does not exist: create it first")
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            raise StoreError("the file is read-only: the bot must write to it (check its "
                             "permissions)")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(f"the folder {folder} is read-only: the bot cannot create the "
                         "database there")


class Database:
    """The connection and the state derived from the file; the reads of each table (events.py,
    entries.py, people.py, outbox.py) and the transactions (transactions.py) build on it, and
    ``Store`` (store.py) puts them together."""

    def __init__(self, conn: aiosqlite.Connection, raw: sqlite3.Connection) -> None:
        self.conn = conn
        self._raw = raw  # the same connection, for writes run in the event loop (Transaction)
        self._lock = asyncio.Lock()
        self._poisoned = False  # a savepoint could not be undone: the batch must not commit
        # the corrections as they were before this operation's first one (to undo it)
        self._op_marks: tuple[set[int], dict[int, int]] | None = None
        self._batch: asyncio.Future[None] | None = None
        # messages posted by the running operation, and by the batch's released ones: handed
        # to ``on_posted`` once the batch is committed (never before: a rolled-back message
        # reports nothing)
        self._op_posts: list[OutboxMessage] = []
        self._op_wrote = False  # the running operation wrote something but messages
        self._batch_posts: list[OutboxMessage] = []
        self.on_posted: Callable[[list[OutboxMessage]], object] | None = None
        # a line settled since the sender's marks last applied them (``settled_lines``): at
        # start, whatever a crash left unapplied
        self.settles_pending = True
        self._committer: asyncio.Task[None] | None = None
        # corrections: superseded id -> the events superseding it; the dead ones derived from it
        self._supersedes: dict[int, int] = {}
        self._dead: set[int] = set()
        # how many events of each kind were written since start: caches compare these
        self.versions: dict[str, int] = {}
        self.writes = 0  # goes up with any of them: nothing changed while it stays the same
        self._entries: dict[int, Entry] = {}
        self.entry_versions: dict[int, int] = {}  # events written per entry since start
        self._all_entries: tuple[tuple[int, int], list[Entry]] | None = None
        self._people: dict[int, tuple[str, str | None, str | None]] = {}
        self._people_writes = 0
        # the (chosen, Telegram's) language pairs of everyone, as of ``_people_writes``
        self._languages: tuple[int, frozenset[tuple[str | None, str | None]]] | None = None
        # every event of an entry (superseded ones too), in id order, once read: a write of
        # this process appends to it, so an entry's history is read from the file only once
        self._by_entry: dict[int, list[Event]] = {}
        # redeliveries: update ids written since start, and the highest one before it
        self._update_ids: set[int] = set()
        self._update_floor: int | None = None  # None: read it again before trusting it

    async def _pragmas(self) -> None:
        await self.conn.execute("PRAGMA journal_mode=WAL")
        await self.conn.execute("PRAGMA foreign_keys=ON")
        await self.conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        await self.conn.execute("PRAGMA synchronous=FULL")

    async def _check_integrity(self) -> None:
        try:
            async with self.conn.execute("PRAGMA quick_check") as cur:
                row = await cur.fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the database file is damaged or not SQLite ({exc})") from None
        if row is None or row[0] != "ok":
            raise StoreError(f"the database file is damaged ({row[0] if row else 'no answer'})")

    async def _migrate(self) -> None:
        known = migrations()
        if not known:  # an install without its data would make a database with no tables
            raise StoreError(f"no database migrations in {MIGRATIONS}: this installation of "
                             "puzzlebot is incomplete; install it again")
        latest = max(v for v, _ in known)
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = int(row[0]) if row else 0
        if current > latest:
            raise StoreError(
                f"the database is at schema version {current}, newer than this code "
                f"(version {latest}): use a newer puzzlebot or another file"
            )
        for version, sql in known:
            if version <= current:
                continue
            # One script, one transaction: the schema change and its version land together.
            script = f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {version};\nCOMMIT;"
            try:
                await self.conn.executescript(script)
            except BaseException:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    def forget_entry_rows(self) -> None:
        """An entry's row changed in place (its answers, its meals, who registered it): the
        entries kept are read again."""
        self._entries.clear()
        self._all_entries = None

    def _wrote(self, table: str, *, event_id: int | None = None, kind: str = "",
               entry: int | None = None, supersedes: int | None = None,
               event: Event | None = None, update_id: int | None = None,
               person: int | None = None, posted: OutboxMessage | None = None) -> None:
        """The one hook every write goes through (``Transaction``): what was derived from the
        table written is made stale. The caches outside the store (``services/readmodel.py``)
        are stamped with ``versions``/``entry_versions``/``writes`` and compare them; those
        change here and in ``_forget_derived`` (an undo), nowhere else. A new
        event (``event_id``, ``kind``, ``entry``, ``supersedes``) comes with its row as read
        back (``event``) when its entry's history is held in memory. Nothing is derived from
        the outbox: a message ``posted`` waits for the commit, and marks change no cache."""
        if table == "outbox":
            if posted is not None:
                self._op_posts.append(posted)
            return
        if table in ("chat_moves", "copies"):  # nothing is derived from them
            return
        self._op_wrote = True
        self.writes += 1
        if table == "events":
            if event_id is None:  # a row written by hand: which entry and kind is not known
                self._forget_derived()
            else:
                self._event_written(event_id, kind, entry, supersedes, event, update_id)
        elif table in ("entries", "members"):
            self._bump(ENTRY_ROWS)
            if table == "members":  # an entry's members changed: its rows are read again
                self._entries.clear()
                self._all_entries = None
        elif table == "people":
            if person is None:
                self._people.clear()
            else:
                self._people.pop(person, None)
            self._people_writes += 1

    def _event_written(self, event_id: int, kind: str, entry: int | None,
                       supersedes: int | None, event: Event | None,
                       update_id: int | None) -> None:
        self._bump(kind)
        if update_id is not None:
            self._update_ids.add(update_id)
        if entry is not None:
            self.entry_versions[entry] = self.entry_versions.get(entry, 0) + 1
            known = self._by_entry.get(entry)
            if known is not None:
                if event is None:  # Transaction.add_event reads the row back in this case
                    raise StoreError(f"event {event_id} of a held history was not read back")
                known.append(event)
        if supersedes is not None:
            if self._op_marks is None:
                self._op_marks = (set(self._dead), dict(self._supersedes))
            self._supersedes[event_id] = supersedes
            self._recompute_dead()
            self._bump(CORRECTION)

    def _bump(self, kind: str) -> None:
        self.versions[kind] = self.versions.get(kind, 0) + 1
        self.writes += 1

    def _forget_derived(self) -> None:
        """Writes were undone: whatever was derived from them is gone. Versions only ever go
        up (a cache stamped while an undone row was visible must never match again)."""
        for kind in self.versions:
            self.versions[kind] += 1
        for entry in self.entry_versions:
            self.entry_versions[entry] += 1
        self._bump(UNDONE)
        self._entries.clear()
        self._all_entries = None
        self._people.clear()
        self._people_writes += 1
        self._by_entry.clear()
        self._update_ids.clear()
        self._update_floor = None

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        # one trip to the database thread (execute + fetchall + close would be three)
        return list(await self.conn.execute_fetchall(sql, params))

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        rows = await self.conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def _load_supersessions(self) -> None:
        rows = await self._fetchall(
            "SELECT id, supersedes FROM events WHERE supersedes IS NOT NULL"
        )
        self._supersedes = {int(r["id"]): int(r["supersedes"]) for r in rows}
        self._recompute_dead()

    def _recompute_dead(self) -> None:
        """Corrections are few: the whole supersession graph is small and kept in memory."""
        touched = set(self._supersedes) | set(self._supersedes.values())
        alive = effective_ids((i, self._supersedes.get(i)) for i in touched)
        self._dead = touched - alive
