"""``Store.transaction()``: the writer's lock, each operation in its savepoint, the group
commit, and ``Transaction``, the write side of an operation (its writes by table come from
events.py, entries.py and outbox.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from contextvars import ContextVar, Token

from bot.storage.db import StoreError, TransactionError
from bot.storage.documents import DocumentReads, DocumentWrites
from bot.storage.entries import Entries, EntryWrites
from bot.storage.events import EventReads, EventWrites
from bot.storage.outbox import OutboxReads, OutboxWrites
from bot.storage.personal import PersonalWrites
from bot.storage.records import Copy, Entry, Event

# the transaction the running task (or what it was started from) holds open, if any
_HELD: ContextVar[Transaction | None] = ContextVar("puzzlebot_transaction", default=None)


class Transaction(EventWrites, EntryWrites, OutboxWrites, DocumentWrites, PersonalWrites):
    """The write side of one operation of ``Store.transaction()`` (``TransactionCore``, in
    bot/storage/db.py, with the writes of each table), and the reads it makes meanwhile."""

    __slots__ = ("_reader",)

    def __init__(self, store: Transactional, joinable: bool = False) -> None:
        super().__init__(store, joinable)
        self._reader = store

    def _reading(self) -> Transactional:
        self._owned()
        return self._reader

    # reads inside the transaction (they see its own writes: one connection)

    async def entry(self, number: int) -> Entry | None:
        return await self._reading().entry(number)

    async def entry_by_code(self, code: str) -> Entry | None:
        return await self._reading().entry_by_code(code)

    async def events(self, *, entry: int | None = None, kinds: Iterable[str] | None = None,
                     actor: int | None = None, effective: bool = True) -> list[Event]:
        return await self._reading().events(entry=entry, kinds=kinds, actor=actor,
                                            effective=effective)

    async def has_ref(self, kind: str, ref: str) -> bool:
        return await self._reading().has_ref(kind, ref)

    async def event(self, event_id: int) -> Event | None:
        return await self._reading().event(event_id)

    async def copies_of(self, claim: str) -> list[Copy]:
        return await self._reading().copies_of(claim)

    async def copies_of_any(self, claims: Sequence[str]) -> dict[str, list[Copy]]:
        return await self._reading().copies_of_any(claims)


class Operation:
    """One operation of ``Store.transaction`` (``async with store.transaction() as tx``): the
    writer's lock and a savepoint on the way in; on the way out the savepoint released (or
    rolled back, with what was derived from it), the batch's commit scheduled, and, when it
    went well, the wait until that commit is on disk."""

    __slots__ = ("_joined", "_token", "batch", "joinable", "store", "tx")

    def __init__(self, store: Transactional, joinable: bool = False) -> None:
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


class Transactional(EventReads, Entries, OutboxReads, DocumentReads):
    """The one writer: ``transaction()`` and the batch it joins."""

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

    async def durable(self) -> None:
        """Wait until everything written so far is committed (before answering from it)."""
        batch = self._batch
        if batch is not None:
            await asyncio.shield(batch)
