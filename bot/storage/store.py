"""All SQL lives here: one aiosqlite connection, one transaction helper, migrations at start."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import time as _time
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import aiosqlite

from bot.domain.history import effective_ids
from bot.domain.registration import Member, clean_name, entry_value
from bot.support.files import create_private, make_database_private

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


BUSY_TIMEOUT_MS = 5000  # how long a write waits for another process's (an import) to end


class StoreError(Exception):
    """The database can't be used (newer than this code, damaged, ...): a clear message."""


def to_ts(dt: datetime) -> int:
    return int(dt.timestamp())


def from_ts(ts: int) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


@dataclass(frozen=True)
class Event:
    id: int
    at: datetime
    actor: int | None
    role: str
    kind: str
    entry: int | None
    category: str | None
    stage: int | None
    value: int | None
    ref: str | None
    data: dict[str, Any]
    supersedes: int | None
    recorded_at: datetime


@dataclass(frozen=True)
class Entry:
    number: int
    category: str
    join_code: str
    local: bool
    registered_at: datetime
    members: tuple[Member, ...]
    source: str = "import"
    registered_by: int | None = None
    meal_adults: int = 0
    meal_children: int = 0
    # answers to the questions asked once per entry: (question id, answer)
    values: tuple[tuple[str, str], ...] = ()

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.members)

    def answer(self, question_id: str) -> str | None:
        """The entry's answer to a question: for a per-entry question, its answer ("yes"/"no"
        for a yes/no one); for a per-member choice or text question, the answer when all the
        members who answered gave the same one, else the distinct answers joined with "/"
        ("ES/FR", sorted). None when nobody answered (or for a per-member yes/no question:
        see ``Member.answers``)."""
        own = next((v for q, v in self.values if q == question_id), None)
        return own if own is not None else entry_value(self.members, question_id)


def _values_json(values: Iterable[tuple[str, str]]) -> str:
    """Answers as stored (``answer_values``): a JSON object, question id -> answer."""
    return json.dumps(dict(values), ensure_ascii=False, separators=(",", ":"))


def _values_from(text: str | None) -> tuple[tuple[str, str], ...]:
    stored = json.loads(text) if text else {}
    return tuple((str(k), str(v)) for k, v in stored.items())


def migrations() -> list[tuple[int, str]]:
    found = []
    for p in sorted(MIGRATIONS.glob("*.sql")):
        m = _NAME.match(p.name)
        if m:
            found.append((int(m.group(1)), p.read_text()))
    return found


_INSERT_EVENT = (
    "INSERT INTO events (at, recorded_at, actor, role, kind, entry, category, stage, value, ref, "
    "data, supersedes, update_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
_EVENT_COLUMNS = ("id, at, actor, role, kind, entry, category, stage, value, ref, data, "
                  "supersedes, recorded_at")


_SELECT_EVENTS = f"SELECT {_EVENT_COLUMNS} FROM events"


def _event_from_tuple(row: Sequence[Any]) -> Event:
    """An event from a row of ``_EVENT_COLUMNS``, in that order (the fields of ``Event``): the
    one mapping for every event read, and for a new one read back by ``RETURNING``."""
    (id_, at, actor, role, kind, entry, category, stage, value, ref, data, supersedes,
     recorded_at) = row
    return Event(id_, from_ts(at), actor, role, kind, entry, category, stage, value, ref,
                 json.loads(data) if data else {}, supersedes, from_ts(recorded_at))


class TransactionError(RuntimeError):
    """A write outside the writer's own transaction, or a transaction opened inside another
    one by the same task: a bug in the caller, refused at once (not an ``assert``: it holds
    under ``python -O`` too)."""


@dataclass(frozen=True)
class OutboxMessage:
    """A message the bot owes someone (a row of ``outbox``): ``method`` called with
    ``params`` and ``chat_id``. ``priority`` 0 is the answer to who asked, 1 partners' copies
    and volunteers' lines, 2 bulk notices; ``grouping`` names lines that may go out joined
    with the next ones to the same chat. ``id`` is None for an answer that is not stored (it
    reports nothing recorded)."""

    id: int | None
    chat_id: int
    priority: int
    method: str
    params: dict[str, Any]
    grouping: str | None = None


PRIORITY_ANSWER, PRIORITY_COPY, PRIORITY_BULK = 0, 1, 2
OUTBOX_KEEP_SECONDS = 3600  # rows done this long ago are pruned (nothing reads them after)


# the transaction the running task (or what it was started from) holds open, if any
_HELD: ContextVar[Transaction | None] = ContextVar("puzzlebot_transaction", default=None)

_WRITTEN_TABLE = re.compile(
    r"^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|"
    r"DELETE\s+FROM)\s+(\w+)", re.IGNORECASE)


class Transaction:
    """The write side of one operation of ``Store.transaction()``: the only object with write
    methods. It belongs to the task that opened it and is valid until its ``async with`` ends;
    a write from another task, or after the end, raises ``TransactionError``. Every write goes
    through ``Store._wrote``, the one place where what was derived from the history is made
    stale (see docs/invariants.md)."""

    __slots__ = ("_joinable", "_open", "_store", "_task")

    def __init__(self, store: Store, joinable: bool = False) -> None:
        self._store = store
        self._task = asyncio.current_task()
        self._open = True
        self._joinable = joinable

    def _owned(self) -> Store:
        if not self._open:
            raise TransactionError("a write after its transaction ended")
        if asyncio.current_task() is not self._task:
            raise TransactionError("a write from a task that does not own the transaction")
        return self._store

    # reads inside the transaction (they see its own writes: one connection)

    async def entry(self, number: int) -> Entry | None:
        return await self._owned().entry(number)

    async def entry_by_code(self, code: str) -> Entry | None:
        return await self._owned().entry_by_code(code)

    async def events(self, *, entry: int | None = None, kinds: Iterable[str] | None = None,
                     actor: int | None = None, effective: bool = True) -> list[Event]:
        return await self._owned().events(entry=entry, kinds=kinds, actor=actor,
                                          effective=effective)

    async def has_ref(self, kind: str, ref: str) -> bool:
        return await self._owned().has_ref(kind, ref)

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

    async def add_event(
        self,
        *,
        at: datetime,
        kind: str,
        role: str,
        actor: int | None = None,
        entry: int | None = None,
        category: str | None = None,
        stage: int | None = None,
        value: int | None = None,
        ref: str | None = None,
        data: dict[str, Any] | None = None,
        supersedes: int | None = None,
        update_id: int | None = None,
    ) -> int:
        s = self._owned()
        params = (
            to_ts(at), int(_time.time()), actor, role, kind, entry, category, stage, value, ref,
            json.dumps(data, ensure_ascii=False) if data else None, supersedes, update_id,
        )
        event: Event | None = None
        if entry is not None and entry in s._by_entry:
            # the entry's history is held in memory: the new row joins it as the file holds it
            row = s._raw.execute(_INSERT_EVENT + f" RETURNING {_EVENT_COLUMNS}",
                                 params).fetchall()[0]  # to the end: the statement is finished
            event = _event_from_tuple(row)
            event_id = event.id
        else:
            cur = s._raw.execute(_INSERT_EVENT, params)
            if cur.lastrowid is None:
                raise StoreError("SQLite gave no id for a new event")
            event_id = cur.lastrowid
        s._wrote("events", event_id=event_id, kind=kind, entry=entry, supersedes=supersedes,
                 event=event, update_id=update_id)
        return event_id

    @property
    def recorded(self) -> bool:
        """Whether this operation has written anything but messages so far."""
        return self._owned()._op_wrote

    def post(self, chat_id: int, params: dict[str, Any], *, priority: int,
             grouping: str | None = None, method: str = "sendMessage") -> OutboxMessage:
        """A message owed to ``chat_id``, in this transaction: it exists (and is sent) if and
        only if this transaction commits (the transactional outbox)."""
        s = self._owned()
        text = json.dumps(params, ensure_ascii=False, separators=(",", ":"))
        cur = s._raw.execute(
            "INSERT INTO outbox (chat_id, priority, grouping, method, params, created_at) "
            "VALUES (?,?,?,?,?,?)", (chat_id, priority, grouping, method, text,
                                     int(_time.time())))
        if cur.lastrowid is None:
            raise StoreError("SQLite gave no id for a new outbox row")
        message = OutboxMessage(cur.lastrowid, chat_id, priority, method, params, grouping)
        s._wrote("outbox", posted=message)
        return message

    def mark_done(self, outcomes: Sequence[tuple[int, str]], at: datetime) -> None:
        """Messages no longer owed: (id, outcome) with outcome "sent", "unconfirmed" or
        "refused: ..." (Telegram will never take it)."""
        s = self._owned()
        s._raw.executemany("UPDATE outbox SET done_at = ?, outcome = ? WHERE id = ?",
                           [(to_ts(at), outcome, id_) for id_, outcome in outcomes])
        s._wrote("outbox")

    def move_chat(self, old_id: int, new_id: int, at: datetime) -> None:
        """Telegram moved chat ``old_id`` to ``new_id`` (a group upgraded to a supergroup):
        kept, so that the bot sends to the new id from now on, also after a restart."""
        s = self._owned()
        s._raw.execute("INSERT INTO chat_moves (old_id, new_id, moved_at) VALUES (?,?,?) "
                       "ON CONFLICT(old_id) DO UPDATE SET new_id = excluded.new_id, "
                       "moved_at = excluded.moved_at", (old_id, new_id, to_ts(at)))
        s._wrote("chat_moves")

    def prune_outbox(self, before: datetime) -> int:
        """Forget the messages done before ``before``: the file does not grow with them."""
        s = self._owned()
        cur = s._raw.execute("DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < ?",
                             (to_ts(before),))
        s._wrote("outbox")
        return cur.rowcount

    async def add_entry(
        self,
        *,
        category: str,
        join_code: str,
        local: bool,
        registered_at: datetime,
        members: Sequence[Member],
        number: int | None = None,
        source: str = "import",
        registered_by: int | None = None,
        meal_adults: int = 0,
        meal_children: int = 0,
        values: Sequence[tuple[str, str]] = (),
    ) -> int:
        """A new entry; ``values``: its answers to the questions asked once per entry."""
        s = self._owned()
        if number is None:
            found = s._raw.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM entries")
            number = int(found.fetchone()[0])
        s._raw.execute(
            "INSERT INTO entries (number, category, join_code, local, registered_at, source, "
            "registered_by, meal_adults, meal_children, answer_values) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            (number, category, join_code, int(local), to_ts(registered_at), source,
             registered_by, meal_adults, meal_children, _values_json(values)),
        )
        for i, m in enumerate(members):
            s._raw.execute(
                "INSERT INTO members (entry, position, name, born, born_year, answers, "
                "answer_values) VALUES (?,?,?,?,?,?,?)",
                (
                    number, i, clean_name(m.name), m.born.isoformat() if m.born else None, m.year,
                    ",".join(sorted(m.answers)), _values_json(m.values),
                ),
            )
        s._wrote("entries")
        return number


class Operation:
    """One operation of ``Store.transaction`` (``async with store.transaction() as tx``): the
    writer's lock and a savepoint on the way in; on the way out the savepoint released (or
    rolled back, with what was derived from it), the batch's commit scheduled, and, when it
    went well, the wait until that commit is on disk."""

    __slots__ = ("_joined", "_token", "batch", "joinable", "store", "tx")

    def __init__(self, store: Store, joinable: bool = False) -> None:
        self.store = store
        self.joinable = joinable
        self.batch: asyncio.Future[None] | None = None
        self.tx: Transaction | None = None
        self._token: Token[Transaction | None] | None = None
        self._joined = False

    async def __aenter__(self) -> Transaction:
        s = self.store
        held = _HELD.get()
        if held is not None and held._open and held._task is asyncio.current_task():
            if held._joinable and held._store is s:
                # part of the operation around it (a handler recording an event and the
                # messages that report it): it commits or fails with it
                self._joined = True
                self.tx = held
                return held
            # it would wait for ever for the lock its own task holds
            raise TransactionError("a transaction opened inside another one")
        await s._lock.acquire()
        try:
            if s.conn.in_transaction and s._batch is None:
                await s.conn.execute("ROLLBACK")  # left open by a failed COMMIT and ROLLBACK
            if not s.conn.in_transaction:
                await s.conn.execute("BEGIN IMMEDIATE")
                s._batch = asyncio.get_running_loop().create_future()
            self.batch = s._batch
            s._op_marks = None
            s._op_posts = []
            s._op_wrote = False
            s._raw.execute("SAVEPOINT op")
        except BaseException:
            s._schedule_commit()
            s._lock.release()
            raise
        self.tx = Transaction(s, self.joinable)
        self._token = _HELD.set(self.tx)
        return self.tx

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: object) -> None:
        s = self.store
        if self._joined:
            return  # the operation around it ends it
        assert self.tx is not None and self._token is not None
        self.tx._open = False
        _HELD.reset(self._token)
        try:
            if exc_type is not None:
                s._undo_operation()
            else:
                # released at once: SQLite keeps a copy of every page changed under an open
                # savepoint, and two dozen nested ones spill those copies to a temporary file
                s._raw.execute("RELEASE op")
                s._batch_posts.extend(s._op_posts)
        except BaseException:
            # the savepoint could not be undone or released: nothing in this batch may
            # commit, since this operation's writes could go with it
            s._poisoned = True
            raise
        finally:
            s._op_marks = None
            s._op_posts = []
            # the batch commits even when this operation failed: the others in it (or nobody)
            # must not be left waiting for a COMMIT that never comes
            s._schedule_commit()
            s._lock.release()
        if exc_type is None and self.batch is not None:
            await asyncio.shield(self.batch)


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


class Store:
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
        self._committer: asyncio.Task[None] | None = None
        # corrections: superseded id -> the events superseding it; the dead ones derived from it
        self._supersedes: dict[int, int] = {}
        self._dead: set[int] = set()
        # how many events of each kind were written since start: caches compare these
        self.versions: dict[str, int] = {}
        self.writes = 0  # goes up with any of them: nothing changed while it stays the same
        self._entries: dict[int, Entry] = {}
        self.entry_versions: dict[int, int] = {}  # events written per entry since start
        self.derived: dict[str, Any] = {}  # caches of state derived from this database
        self._all_entries: tuple[tuple[int, int], list[Entry]] | None = None
        self._people: dict[int, tuple[str, str | None, str | None]] = {}
        self._people_writes = 0
        # every event of an entry (superseded ones too), in id order, once read: a write of
        # this process appends to it, so an entry's history is read from the file only once
        self._by_entry: dict[int, list[Event]] = {}
        # redeliveries: update ids written since start, and the highest one before it
        self._update_ids: set[int] = set()
        self._update_floor: int | None = None  # None: read it again before trusting it

    # -- lifecycle -----------------------------------------------------------------------------

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
        latest = max((v for v, _ in known), default=0)
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

    # -- transactions --------------------------------------------------------------------------

    def transaction(self, *, joinable: bool = False) -> Operation:
        """One writer at a time; everything inside commits together or not at all.

        Group commit: operations that come while others are in flight join one SQLite
        transaction (each inside its own savepoint, so a failed one undoes only itself), and
        every one of them returns only once that transaction is committed to disk. Nobody is
        answered before what they are told is durable, and a burst costs one fsync.

        ``joinable``: a ``store.transaction()`` opened inside it by the same task joins it
        instead of raising (a handler records the event through a service and posts the
        messages that report it, in one operation); anything else nested still raises.
        """
        return Operation(self, joinable)

    @property
    def batch_open(self) -> bool:
        """Whether operations are gathering for a commit: a write now shares its fsync."""
        return self._batch is not None

    def current(self) -> Transaction | None:
        """The joinable transaction the running task holds open on this store, if any (where
        the messages reporting what it records are posted)."""
        held = _HELD.get()
        if (held is not None and held._open and held._joinable and held._store is self
                and held._task is asyncio.current_task()):
            return held
        return None

    def _schedule_commit(self) -> None:
        if not self.conn.in_transaction:
            return
        if self._committer is None or self._committer.done():
            self._committer = asyncio.get_running_loop().create_task(self._commit())

    async def _commit(self) -> None:
        await asyncio.sleep(0)  # let the operations already waiting join this transaction
        async with self._lock:
            batch = self._batch
            if batch is None or not self.conn.in_transaction:
                return
            self._batch = None
            posts, self._batch_posts = self._batch_posts, []
            try:
                if self._poisoned:
                    raise StoreError("an operation's writes could not be undone: the batch "
                                     "is rolled back")
                await self.conn.execute("COMMIT")
            except BaseException as exc:
                # every waiter hears of it first, whatever happens next
                if not batch.done():
                    batch.set_exception(exc)
                    batch.exception()  # retrieved: no warning when nobody waits any more
                await self._reset_after_failed_commit()
                return
            if not batch.done():
                batch.set_result(None)
            if posts and self.on_posted is not None:
                self.on_posted(posts)

    async def _reset_after_failed_commit(self) -> None:
        """The batch did not reach the disk: roll it back (if that fails too, the next
        operation rolls back before it begins), forget all that was derived from it, read
        the corrections again. Whatever fails here, the store is usable afterwards."""
        self._poisoned = False
        self._batch_posts = []
        try:
            if self.conn.in_transaction:
                await self.conn.execute("ROLLBACK")
        except Exception:  # noqa: BLE001 - the next operation rolls back first
            pass
        self._forget_derived()
        try:
            await self._load_supersessions()
        except Exception:  # noqa: BLE001 - read again after the next failure or at start
            pass

    def _undo_operation(self) -> None:
        """The operation failed: its savepoint rolled back, and what it changed in memory."""
        self._op_posts = []
        self._raw.execute("ROLLBACK TO op")
        self._raw.execute("RELEASE op")
        if self._op_marks is not None:
            self._dead, self._supersedes = self._op_marks
        self._forget_derived()

    def _wrote(self, table: str, *, event_id: int | None = None, kind: str = "",
               entry: int | None = None, supersedes: int | None = None,
               event: Event | None = None, update_id: int | None = None,
               person: int | None = None, posted: OutboxMessage | None = None) -> None:
        """The one hook every write goes through (``Transaction``): what was derived from the
        table written is made stale. Caches outside the store (contest day, registrations,
        scoreboard) are stamped with ``versions``/``entry_versions``/``writes`` and compare
        them; those change here and in ``_forget_derived`` (an undo), nowhere else. A new
        event (``event_id``, ``kind``, ``entry``, ``supersedes``) comes with its row as read
        back (``event``) when its entry's history is held in memory. Nothing is derived from
        the outbox: a message ``posted`` waits for the commit, and marks change no cache."""
        if table == "outbox":
            if posted is not None:
                self._op_posts.append(posted)
            return
        if table == "chat_moves":  # nothing is derived from it
            return
        self._op_wrote = True
        self.writes += 1
        if table == "events":
            if event_id is None:  # a row written by hand: which entry and kind is not known
                self._forget_derived()
            else:
                self._event_written(event_id, kind, entry, supersedes, event, update_id)
        elif table in ("entries", "members"):
            self._bump("entry")
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
            self._bump("correction")

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
        self._bump("undone")
        self.derived.clear()
        self._entries.clear()
        self._all_entries = None
        self._people.clear()
        self._people_writes += 1
        self._by_entry.clear()
        self._update_ids.clear()
        self._update_floor = None

    async def durable(self) -> None:
        """Wait until everything written so far is committed (before answering from it)."""
        batch = self._batch
        if batch is not None:
            await asyncio.shield(batch)

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        # one trip to the database thread (execute + fetchall + close would be three)
        return list(await self.conn.execute_fetchall(sql, params))

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        rows = await self.conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    # -- events --------------------------------------------------------------------------------

    async def all_events(self) -> list[Event]:
        return [_event_from_tuple(r) for r in await self._fetchall(f"{_SELECT_EVENTS} ORDER BY id")]

    async def events(
        self,
        *,
        entry: int | None = None,
        kinds: Iterable[str] | None = None,
        actor: int | None = None,
        effective: bool = True,
    ) -> list[Event]:
        """Events in id order; with ``effective``, without those superseded by a correction."""
        if entry is not None:
            return self._pick(await self._entry_history(entry), kinds, actor, effective)
        where: list[str] = []
        params: list[object] = []
        if actor is not None:
            where.append("actor = ?")
            params.append(actor)
        kind_list = list(kinds) if kinds is not None else None
        if kind_list is not None:
            where.append(f"kind IN ({','.join('?' * len(kind_list))})")
            params.extend(kind_list)
        sql = _SELECT_EVENTS + (" WHERE " + " AND ".join(where) if where else "")
        rows = [_event_from_tuple(r) for r in await self._fetchall(sql + " ORDER BY id", params)]
        if not effective:
            return rows
        return [e for e in rows if e.id not in self._dead]

    def _pick(self, history: list[Event], kinds: Iterable[str] | None, actor: int | None,
              effective: bool) -> list[Event]:
        wanted = set(kinds) if kinds is not None else None
        return [e for e in history
                if (wanted is None or e.kind in wanted)
                and (actor is None or e.actor == actor)
                and (not effective or e.id not in self._dead)]

    def events_in_memory(self, entry: int, kinds: Iterable[str] | None = None
                         ) -> list[Event] | None:
        """An entry's effective events (of ``kinds``), as ``events(entry=...)`` would give
        them, if its history is already held in memory; None if it would need a read."""
        history = self._by_entry.get(entry)
        return None if history is None else self._pick(history, kinds, None, True)

    async def _entry_history(self, entry: int) -> list[Event]:
        known = self._by_entry.get(entry)
        if known is not None:
            return known
        version = self.entry_versions.get(entry, 0)
        rows = await self._fetchall(f"{_SELECT_EVENTS} WHERE entry = ? ORDER BY id", (entry,))
        history = [_event_from_tuple(r) for r in rows]
        # kept only if nothing of this entry was written meanwhile (the read may have missed
        # it), and only for an entry that exists: events of a number not yet taken could still
        # come from another process's import
        if self.entry_versions.get(entry, 0) == version and (history or entry in self._entries):
            self._by_entry.setdefault(entry, history)
        return history

    async def _load_update_floor(self) -> None:
        self._update_ids.clear()  # first: an id written during the read below is in the file
        row = await self._fetchone("SELECT COALESCE(MAX(update_id), -1) FROM events")
        self._update_floor = int(row[0]) if row is not None else None

    async def handled(self, update_id: int) -> bool:
        """Whether an update already left its event (Telegram redelivers an update whose
        handling it did not hear about: a restart between the commit and the next poll)."""
        if self._update_floor is None:
            await self._load_update_floor()
        if update_id in self._update_ids:
            return True
        if self._update_floor is not None and update_id > self._update_floor:
            return False  # newer than anything in the file then, and not written since
        row = await self._fetchone("SELECT 1 FROM events WHERE update_id = ? LIMIT 1",
                                   (update_id,))
        return row is not None

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

    def is_effective(self, event_id: int) -> bool:
        return event_id not in self._dead

    async def effective_ids(self) -> set[int]:
        """Ids of all events still in force (for whole-history views; tests, /historial)."""
        rows = await self._fetchall("SELECT id FROM events")
        return {int(r["id"]) for r in rows} - self._dead

    async def event(self, event_id: int) -> Event | None:
        row = await self._fetchone(f"{_SELECT_EVENTS} WHERE id = ?", (event_id,))
        return _event_from_tuple(row) if row else None

    async def has_ref(self, kind: str, ref: str) -> bool:
        row = await self._fetchone(
            "SELECT 1 FROM events WHERE kind = ? AND ref = ? LIMIT 1", (kind, ref)
        )
        return row is not None

    # -- entries -------------------------------------------------------------------------------

    async def entries(self, category: str | None = None) -> list[Entry]:
        """All entries (or a category's), in number order. Entries never change once written,
        so the list is kept until the table grows (even through another process's import)."""
        row = await self._fetchone("SELECT COUNT(*), COALESCE(MAX(number), 0) FROM entries")
        assert row is not None
        key = (int(row[0]), int(row[1]))
        if self._all_entries is None or self._all_entries[0] != key:
            rows = await self._fetchall("SELECT * FROM entries ORDER BY number")
            members = await self._members([r["number"] for r in rows])
            self._all_entries = (key, [self._entry(r, members.get(r["number"], ()))
                                       for r in rows])
            for e in self._all_entries[1]:
                self._entries[e.number] = e
        everything = self._all_entries[1]
        return [e for e in everything if category is None or e.category == category]

    async def entry(self, number: int) -> Entry | None:
        cached = self._entries.get(number)
        if cached is not None:
            return cached  # an entry never changes once written
        row = await self._fetchone("SELECT * FROM entries WHERE number = ?", (number,))
        if row is None:
            return None
        members = await self._members([number])
        entry = self._entry(row, members.get(number, ()))
        self._entries[number] = entry
        return entry

    async def entry_by_code(self, code: str) -> Entry | None:
        row = await self._fetchone("SELECT number FROM entries WHERE join_code = ?", (code,))
        return await self.entry(int(row[0])) if row else None

    async def entry_numbers(self) -> set[int]:
        return {int(r[0]) for r in await self._fetchall("SELECT number FROM entries")}

    async def _members(self, numbers: list[int]) -> dict[int, tuple[Member, ...]]:
        out: dict[int, list[Member]] = {}
        for start in range(0, len(numbers), 900):  # SQLite bounds the variables per query
            chunk = numbers[start:start + 900]
            rows = await self._fetchall(
                f"SELECT * FROM members WHERE entry IN ({','.join('?' * len(chunk))}) "
                "ORDER BY entry, position",
                chunk,
            )
            for r in rows:
                out.setdefault(r["entry"], []).append(
                    Member(
                        name=r["name"],
                        born=date.fromisoformat(r["born"]) if r["born"] else None,
                        born_year=r["born_year"],
                        answers=frozenset(a for a in r["answers"].split(",") if a),
                        values=_values_from(r["answer_values"]),
                    )
                )
        return {k: tuple(v) for k, v in out.items()}

    @staticmethod
    def _entry(row: aiosqlite.Row, members: tuple[Member, ...]) -> Entry:
        return Entry(
            number=row["number"],
            category=row["category"],
            join_code=row["join_code"],
            local=bool(row["local"]),
            registered_at=from_ts(row["registered_at"]),
            members=members,
            source=row["source"],
            registered_by=row["registered_by"],
            meal_adults=row["meal_adults"],
            meal_children=row["meal_children"],
            values=_values_from(row["answer_values"]),
        )

    # -- people --------------------------------------------------------------------------------

    async def remember_person(self, user_id: int, name: str, tg_language: str | None) -> None:
        name = clean_name(name)
        known = await self.person(user_id)
        if known is not None and known["name"] == name and known["tg_language"] == tg_language:
            return
        async with self.transaction() as tx:
            tx.execute(
                "INSERT INTO people (user_id, name, tg_language) VALUES (?,?,?) "
                "ON CONFLICT(user_id) DO UPDATE SET name = excluded.name, "
                "tg_language = excluded.tg_language",
                (user_id, name, tg_language), person=user_id,
            )

    async def set_language(self, user_id: int, language: str) -> None:
        async with self.transaction() as tx:
            tx.execute(
                "INSERT INTO people (user_id, language) VALUES (?,?) "
                "ON CONFLICT(user_id) DO UPDATE SET language = excluded.language",
                (user_id, language), person=user_id,
            )

    async def person(self, user_id: int) -> dict[str, Any] | None:
        """name, language (chosen with /idioma) and tg_language of someone who wrote to us."""
        cached = self._people.get(user_id)
        if cached is None:
            writes = self._people_writes  # a write while reading: don't keep what was read
            row = await self._fetchone(
                "SELECT name, language, tg_language FROM people WHERE user_id = ?", (user_id,)
            )
            if row is None:
                return None
            cached = (row["name"], row["language"], row["tg_language"])
            if writes == self._people_writes:
                self._people[user_id] = cached
        return {"name": cached[0], "language": cached[1], "tg_language": cached[2]}

    # -- the outbox ----------------------------------------------------------------------------

    async def owed_messages(self) -> list[OutboxMessage]:
        """Every message still owed (committed and not done), in the order it was posted."""
        rows = await self._fetchall(
            "SELECT id, chat_id, priority, method, params, grouping FROM outbox "
            "WHERE done_at IS NULL ORDER BY id")
        return [OutboxMessage(int(r[0]), int(r[1]), int(r[2]), str(r[3]), json.loads(r[4]),
                              r[5]) for r in rows]

    async def chat_moves(self) -> dict[int, int]:
        """Chats Telegram moved to a new id: old id -> new id (``Transaction.move_chat``)."""
        rows = await self._fetchall("SELECT old_id, new_id FROM chat_moves")
        return {int(r[0]): int(r[1]) for r in rows}

    async def newest_message_dates(self) -> dict[int, datetime]:
        """Per person, the newest Telegram date of a message of theirs that caused an event."""
        rows = await self._fetchall("SELECT actor, MAX(at) FROM events WHERE update_id IS NOT "
                                    "NULL AND actor IS NOT NULL GROUP BY actor")
        return {int(r[0]): datetime.fromtimestamp(int(r[1]), UTC) for r in rows}

    async def outbox_counts(self) -> dict[str, int]:
        """How many rows the outbox holds: owed, and done by outcome (sent, unconfirmed,
        refused)."""
        rows = await self._fetchall(
            "SELECT CASE WHEN done_at IS NULL THEN 'owed' "
            "WHEN outcome LIKE 'refused%' THEN 'refused' ELSE outcome END, COUNT(*) "
            "FROM outbox GROUP BY 1")
        return {str(r[0]): int(r[1]) for r in rows}

    # -- conversation state (python-telegram-bot persistence) ---------------------------------

    async def conversations(self, name: str) -> dict[str, str]:
        rows = await self._fetchall("SELECT key, state FROM conversations WHERE name = ?", (name,))
        return {r["key"]: r["state"] for r in rows}

    async def set_conversation(self, name: str, key: str, state: str | None) -> None:
        async with self.transaction() as tx:
            if state is None:
                tx.execute(
                    "DELETE FROM conversations WHERE name = ? AND key = ?", (name, key)
                )
            else:
                tx.execute(
                    "INSERT INTO conversations (name, key, state) VALUES (?,?,?) "
                    "ON CONFLICT(name, key) DO UPDATE SET state = excluded.state",
                    (name, key, state),
                )

    async def all_user_data(self) -> dict[int, str]:
        rows = await self._fetchall("SELECT user_id, data FROM user_data")
        return {int(r["user_id"]): r["data"] for r in rows}

    async def set_user_data(self, user_id: int, data: str | None) -> None:
        async with self.transaction() as tx:
            if data is None:
                tx.execute("DELETE FROM user_data WHERE user_id = ?", (user_id,))
            else:
                tx.execute(
                    "INSERT INTO user_data (user_id, data) VALUES (?,?) "
                    "ON CONFLICT(user_id) DO UPDATE SET data = excluded.data",
                    (user_id, data),
                )

    # -- backups -------------------------------------------------------------------------------

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
