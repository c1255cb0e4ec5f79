"""Who may write, and what happens when a commit fails (docs/invariants.md).

Only a ``Transaction`` has write methods; it belongs to the task that opened it and ends with its
``async with``. A write from elsewhere, or a transaction opened inside another by the same task,
is refused at once. Every write goes through one hook, so every cache of derived state sees it.
A failed COMMIT or ROLLBACK reaches every waiter and leaves the store usable."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from datetime import timedelta

import pytest

from bot.features.registration.day import Registrations
from bot.storage.store import Store, StoreError, TransactionError
from tests.storage.test_cache_races import T0, VOLUNTEER, open_day


def rows(path, sql: str) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute(sql).fetchall()


# -- who may write -------------------------------------------------------------------------------


async def test_a_write_from_another_task_is_refused_and_the_owners_failure_keeps_its_row(
        tmp_path):
    """The probe of issue 12: task B wrote while A's operation was open; A failed and rolled
    back, and B's row was gone although B had been given an id."""
    store = await Store.open(tmp_path / "s.sqlite3")
    a_open, b_done = asyncio.Event(), asyncio.Event()
    seen: dict[str, object] = {}

    async def task_a() -> None:
        with pytest.raises(RuntimeError, match="A fails"):
            async with store.transaction() as tx:
                seen["tx"] = tx
                await tx.add_event(at=T0, kind="pieces", role="volunteer", value=10)
                a_open.set()
                await asyncio.sleep(0.05)  # B runs meanwhile
                raise RuntimeError("A fails")

    async def task_b() -> None:
        await a_open.wait()
        a_tx = seen["tx"]
        with pytest.raises(TransactionError, match="does not own"):
            await a_tx.add_event(at=T0, kind="pieces", role="volunteer",  # type: ignore[attr-defined]
                                 value=20)
        async with store.transaction() as tx:  # B's own: waits for A's operation to end
            seen["b_id"] = await tx.add_event(at=T0, kind="pieces", role="volunteer",
                                              value=20)
        b_done.set()

    await asyncio.gather(task_a(), task_b())
    assert b_done.is_set()
    await store.close()
    assert rows(tmp_path / "s.sqlite3", "SELECT id, value FROM events") == [
        (seen["b_id"], 20)]


async def test_a_write_after_the_transaction_ended_is_refused(tmp_path):
    store = await Store.open(tmp_path / "s.sqlite3")
    async with store.transaction() as tx:
        await tx.add_event(at=T0, kind="pieces", role="volunteer", value=10)
    with pytest.raises(TransactionError, match="ended"):
        await tx.add_event(at=T0, kind="pieces", role="volunteer", value=11)
    with pytest.raises(TransactionError):
        tx.execute("DELETE FROM events")
    await store.close()
    assert rows(tmp_path / "s.sqlite3", "SELECT value FROM events") == [(10,)]


async def test_the_store_itself_has_no_write_methods(tmp_path):
    store = await Store.open(tmp_path / "s.sqlite3")
    for name in ("add_event", "add_entry", "execute", "_now"):
        assert not hasattr(store, name), name
    await store.close()


async def test_a_nested_transaction_is_refused_at_once_not_a_deadlock(tmp_path):
    store = await Store.open(tmp_path / "s.sqlite3")

    async def nested() -> None:
        async with store.transaction() as tx:
            await tx.add_event(at=T0, kind="pieces", role="volunteer", value=10)
            await store.set_language(5, "fr")  # a write helper opens its own transaction

    with pytest.raises(TransactionError, match="inside another"):
        await asyncio.wait_for(nested(), 5)
    # the outer operation was undone, and the store still works
    await store.set_language(5, "fr")
    person = await store.person(5)
    assert person is not None and person["language"] == "fr"
    await store.close()
    assert rows(tmp_path / "s.sqlite3", "SELECT COUNT(*) FROM events") == [(0,)]


async def test_a_task_started_inside_a_transaction_waits_for_its_own(tmp_path):
    """Not nested: a task started from inside a transaction is another writer, who waits."""
    store = await Store.open(tmp_path / "s.sqlite3")
    order: list[str] = []

    async def other() -> None:
        async with store.transaction() as tx:
            order.append("other")
            await tx.add_event(at=T0, kind="pieces", role="volunteer", value=2)

    async with store.transaction() as tx:
        task = asyncio.create_task(other())
        await asyncio.sleep(0.01)
        order.append("first")
        await tx.add_event(at=T0, kind="pieces", role="volunteer", value=1)
    await task
    assert order == ["first", "other"]
    await store.close()


def test_the_checks_hold_under_python_O(tmp_path):
    script = textwrap.dedent(f"""
        import asyncio
        from datetime import datetime, UTC
        from bot.storage.store import Store, TransactionError

        async def main():
            store = await Store.open({str(tmp_path / "o.sqlite3")!r})
            async with store.transaction() as tx:
                pass
            try:
                await tx.add_event(at=datetime.now(UTC), kind="x", role="system")
            except TransactionError:
                print("refused")
            async def nested():
                async with store.transaction():
                    async with store.transaction():
                        pass
            try:
                await asyncio.wait_for(nested(), 5)
            except TransactionError:
                print("refused")
            await store.close()

        asyncio.run(main())
    """)
    out = subprocess.run([sys.executable, "-O", "-c", script], capture_output=True, text=True,
                         timeout=60, cwd=str(__import__("pathlib").Path(__file__).parents[2]))
    assert out.stdout.split() == ["refused", "refused"], out.stderr


# -- one hook for every cache -------------------------------------------------------------------


async def test_every_write_path_reaches_every_cache(tmp_path, castrillo):
    day = await open_day(tmp_path, castrillo)
    store = day.store
    regs = Registrations(castrillo, store)
    category = castrillo.category("adultos")
    assert category is not None
    later = T0 + timedelta(hours=2)

    # fill every cache
    assert (await day.state(1)).finish is None  # type: ignore[union-attr]
    assert (await day.roles(50)).volunteer is False
    assert await day.linked_users(1) == []
    assert [r.time for r in await day.ranking(category, later)] == [None, None]
    assert await store.person(60) is None
    assert len(await store.entries()) == 2
    places = await regs.places(later)
    assert set(places) == {1, 2}

    # an event written by hand (not through add_event): the entry's state must follow
    async with store.transaction() as tx:
        tx.execute("INSERT INTO events (at, recorded_at, role, kind, entry, value) "
                   "VALUES (?, ?, 'volunteer', 'finish', 1, ?)",
                   (int((T0 + timedelta(minutes=100)).timestamp()), 0, 100 * 60))
    assert (await day.state(1)).finish == 100 * 60  # type: ignore[union-attr]
    assert [r.time for r in await day.ranking(category, later)][0] == 100 * 60

    # typed writes
    ana = await store.entry(1)
    assert ana is not None
    async with store.transaction() as tx:
        await tx.add_event(at=T0, kind="volunteer_join", role="volunteer", actor=50)
        await tx.add_event(at=T0, kind="link", role="participant", actor=51, entry=1)
        await tx.add_entry(category="adultos", join_code="zzz", local=False,
                           registered_at=T0, members=ana.members)
    assert (await day.roles(50)).volunteer is True
    assert await day.linked_users(1) == [51]
    assert [e.number for e in await store.entries()] == [1, 2, 3]
    assert set(await regs.places(later)) == {1, 2, 3}

    # people, by the helpers and by hand
    await store.remember_person(60, "Nora", "es")
    assert (await store.person(60)) == {"name": "Nora", "language": None, "tg_language": "es"}
    async with store.transaction() as tx:
        tx.execute("UPDATE people SET language = 'fr' WHERE user_id = 60")
    assert (await store.person(60))["language"] == "fr"  # type: ignore[index]
    await store.set_language(60, "en")
    assert (await store.person(60))["language"] == "en"  # type: ignore[index]
    await store.close()


async def test_the_new_row_in_memory_is_the_row_in_the_file(tmp_path, castrillo):
    day = await open_day(tmp_path, castrillo)
    store = day.store
    await store.entry(1)
    await store.events(entry=1)  # the entry's history is now held in memory
    async with store.transaction() as tx:
        await tx.add_event(at=T0 + timedelta(seconds=1.7), kind="pieces", role="volunteer",
                           actor=VOLUNTEER, entry=1, value=321, data={"note": "ñ"})
    held = store.events_in_memory(1)
    await store.close()
    again = await Store.open(tmp_path / "day.sqlite3")
    assert held == await again.events(entry=1)
    await again.close()


async def test_a_non_write_is_refused_by_execute(tmp_path):
    store = await Store.open(tmp_path / "s.sqlite3")
    with pytest.raises(TransactionError, match="not a write"):
        async with store.transaction() as tx:
            tx.execute("SELECT 1")
    await store.close()


# -- when COMMIT or ROLLBACK fails ---------------------------------------------------------------


class FailingConnection:
    """The aiosqlite connection, failing the statements named in ``fail`` (once each)."""

    def __init__(self, conn, fail: dict[str, int]) -> None:
        self._conn = conn
        self.fail = fail

    def __getattr__(self, name):
        return getattr(self._conn, name)

    def execute(self, sql, *args, **kwargs):
        if self.fail.get(sql, 0) > 0:
            self.fail[sql] -= 1

            async def fails():
                raise sqlite3.OperationalError(f"disk I/O error ({sql})")
            return fails()
        return self._conn.execute(sql, *args, **kwargs)


class FailingRaw:
    """The connection the transaction writes on, failing ``fail`` statements once each."""

    def __init__(self, raw: sqlite3.Connection, fail: dict[str, int]) -> None:
        self._raw = raw
        self.fail = fail

    def __getattr__(self, name):
        return getattr(self._raw, name)

    def execute(self, sql, *args):
        if self.fail.get(sql, 0) > 0:
            self.fail[sql] -= 1
            raise sqlite3.OperationalError(f"disk I/O error ({sql})")
        return self._raw.execute(sql, *args)


async def _batch_of(store: Store, n: int) -> list[BaseException | int]:
    async def one(i: int) -> int:
        async with store.transaction() as tx:
            return await tx.add_event(at=T0, kind="pieces", role="volunteer", value=i)
    return await asyncio.wait_for(
        asyncio.gather(*(one(i) for i in range(n)), return_exceptions=True), 10)


@pytest.mark.parametrize("fail", [{"COMMIT": 1}, {"COMMIT": 1, "ROLLBACK": 1}])
async def test_a_failed_commit_reaches_every_waiter_and_the_next_operation_works(tmp_path, fail):
    store = await Store.open(tmp_path / "s.sqlite3")
    real = store.conn
    store.conn = FailingConnection(real, dict(fail))  # type: ignore[assignment]
    try:
        results = await _batch_of(store, 5)
        assert all(isinstance(r, sqlite3.OperationalError) for r in results), results
        # nobody was told it is recorded; the next operations work and commit
        after = await _batch_of(store, 3)
        assert all(isinstance(r, int) for r in after), after
    finally:
        store.conn = real  # type: ignore[assignment]
    assert [e.value for e in await store.events(kinds=["pieces"])] == [0, 1, 2]
    await store.close()
    assert rows(tmp_path / "s.sqlite3", "SELECT value FROM events ORDER BY id") == [
        (0,), (1,), (2,)]


async def test_an_operation_whose_savepoint_cannot_be_undone_takes_its_batch_down(tmp_path):
    """If ROLLBACK TO fails, the failed operation's writes would commit with the batch: the
    whole batch is rolled back and everyone in it is told."""
    store = await Store.open(tmp_path / "s.sqlite3")
    real = store._raw
    store._raw = FailingRaw(real, {"ROLLBACK TO op": 1})  # type: ignore[assignment]

    async def good() -> int:
        async with store.transaction() as tx:
            return await tx.add_event(at=T0, kind="pieces", role="volunteer", value=1)

    async def bad() -> None:
        async with store.transaction() as tx:
            await tx.add_event(at=T0, kind="pieces", role="volunteer", value=666)
            raise ValueError("refused halfway")

    results = await asyncio.wait_for(asyncio.gather(good(), bad(), return_exceptions=True), 10)
    assert isinstance(results[0], StoreError | sqlite3.OperationalError), results
    assert isinstance(results[1], sqlite3.OperationalError), results
    store._raw = real  # type: ignore[assignment]
    after = await _batch_of(store, 1)
    assert isinstance(after[0], int), after
    await store.close()
    assert rows(tmp_path / "s.sqlite3", "SELECT value FROM events") == [(0,)]


# -- one connection, two threads ------------------------------------------------------------------


def test_sqlite_serialises_its_connection_between_threads():
    """Writes inside a transaction run in the event loop on the same connection aiosqlite's
    thread reads on: that needs SQLite built serialized (its own mutex per connection)."""
    assert sqlite3.threadsafety == 3


async def test_reads_in_the_database_thread_during_writes_in_the_loop_are_consistent(tmp_path):
    store = await Store.open(tmp_path / "s.sqlite3")
    writes, seen = 300, []

    async def writer() -> None:
        for i in range(writes):
            async with store.transaction() as tx:
                await tx.add_event(at=T0, kind="pieces", role="volunteer", value=i)

    async def reader() -> None:
        while len(seen) < 2 or seen[-1] < writes:
            seen.append(len(await store.events(kinds=["pieces"])))
            await asyncio.sleep(0)

    await asyncio.wait_for(asyncio.gather(writer(), reader()), 60)
    assert seen == sorted(seen) and seen[-1] == writes  # never a row twice, never one lost
    assert [e.value for e in await store.events(kinds=["pieces"])] == list(range(writes))
    await store.close()
