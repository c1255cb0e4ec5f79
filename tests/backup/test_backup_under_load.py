"""Backups while operations keep writing (issue 13): the copy comes from a read-only
connection of its own, in a worker thread, never under the writer's lock, so commits go on
while it is taken; each copy is one snapshot of committed data (a prefix of the events) and
passes the integrity check. Progress is counted in commits, never measured in seconds."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import threading
from datetime import UTC, datetime

import pytest

from bot.storage.store import Store, StoreError, copy_database
from tests.conftest import ROOT

T0 = datetime(2023, 4, 22, 8, 0, tzinfo=UTC)
DURING = 20  # commits that must land while a backup holds its snapshot
NO_PROGRESS = 60.0  # a backup that blocks the writer never sees them: it fails, not hangs


class Undone(Exception):
    """An operation that fails after writing: its event must never reach a copy."""


class Writers:
    """Tasks writing events through ``store.transaction()`` until stopped: every fourth
    operation fails after its write (undone), the others commit. ``committed`` counts the
    operations whose ``async with`` returned, i.e. whose batch is on disk."""

    def __init__(self, store: Store, tasks: int = 2) -> None:
        self.store = store
        self.committed = 0
        self.changed = threading.Condition()  # the worker thread of a backup waits on it
        self._stop = False
        self._tasks = [asyncio.create_task(self._write(f"w{i}")) for i in range(tasks)]

    async def _write(self, tag: str) -> None:
        n = 0
        while not self._stop:
            n += 1
            if n % 4 == 0:
                with pytest.raises(Undone):
                    async with self.store.transaction() as tx:
                        await tx.add_event(at=T0, kind="undone", role="test", ref=tag, value=n)
                        raise Undone
                continue
            async with self.store.transaction() as tx:
                await tx.add_event(at=T0, kind="probe", role="test", ref=tag, value=n)
            with self.changed:
                self.committed += 1
                self.changed.notify_all()

    def wait_for_more(self, more: int) -> tuple[int, bool]:
        """In a worker thread: wait until ``more`` operations commit after now; returns
        (committed now, whether they did)."""
        with self.changed:
            now = self.committed
            return now, self.changed.wait_for(lambda: self.committed >= now + more,
                                              NO_PROGRESS)

    async def stop(self) -> None:
        self._stop = True
        await asyncio.gather(*self._tasks)


def events_of(path) -> list[tuple[int, str, str, int]]:
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        return [tuple(r) for r in conn.execute(
            "SELECT id, kind, ref, value FROM events ORDER BY id")]


async def test_backups_under_a_stream_of_writes_are_committed_prefixes(tmp_path):
    store = await Store.open(tmp_path / "live.sqlite3")
    writers = Writers(store)
    copies = []
    try:
        for i in range(5):
            seen: list[tuple[int, int, bool]] = []  # (committed before, at snapshot, progress)
            before = writers.committed

            def progress(status: int, remaining: int, total: int,
                         seen: list[tuple[int, int, bool]] = seen, before: int = before) -> None:
                # called in the backup's thread, inside its snapshot, after each page
                if not seen:
                    seen.append((before, *writers.wait_for_more(DURING)))

            dest = tmp_path / f"copy{i}.sqlite3"
            held = await store.backup_to(dest, pages=1, progress=progress)
            assert seen, "the backup reported its progress"
            _, at_snapshot, went_on = seen[0]
            assert went_on, "operations committed while the backup held its snapshot"
            assert writers.committed >= at_snapshot + DURING
            copies.append((dest, held, before, at_snapshot))
    finally:
        await writers.stop()
    final = await store.all_events()
    await store.close()
    committed = [(e.id, e.kind, e.ref, e.value) for e in final]
    assert [e[0] for e in committed] == list(range(1, len(committed) + 1))
    assert all(kind == "probe" for _, kind, _, _ in committed)  # undone ones left nothing
    for dest, held, before, at_snapshot in copies:
        copy = events_of(dest)
        assert len(copy) == held
        # one snapshot of committed data: the events in id order up to some point, no gap,
        # nothing undone, nothing of the batch that was open
        assert copy == committed[:len(copy)]
        # everything acknowledged before the backup began is in it; of the commits made
        # while its snapshot was held, none is (two writers: at most one batch of two rows
        # can be on disk and not yet counted)
        assert before <= len(copy) <= at_snapshot + 2 < at_snapshot + DURING
        assert not os.path.exists(f"{dest}-wal")  # the copy is one self-contained file
    assert len(committed) > copies[-1][3] + DURING


async def test_a_backup_never_overwrites_a_file_and_a_damaged_source_is_refused(tmp_path):
    store = await Store.open(tmp_path / "live.sqlite3")
    try:
        (tmp_path / "there.sqlite3").write_bytes(b"precious")
        with pytest.raises(StoreError, match="already exists"):
            await store.backup_to(tmp_path / "there.sqlite3")
        assert (tmp_path / "there.sqlite3").read_bytes() == b"precious"
    finally:
        await store.close()
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all" * 500)
    with pytest.raises(StoreError, match="cannot be backed up"):
        copy_database(tmp_path / "junk.sqlite3", tmp_path / "out.sqlite3")
    assert not (tmp_path / "out.sqlite3").exists()


async def test_the_cli_backup_while_operations_keep_committing(tmp_path):
    db = tmp_path / "live.sqlite3"
    store = await Store.open(db)
    writers = Writers(store)
    try:
        while writers.committed < 50:  # some history before the copy starts
            await asyncio.sleep(0.01)
        before = writers.committed
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
        env["PUZZLEBOT_DB"] = str(db)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "backup", str(tmp_path / "copy.sqlite3"), cwd=ROOT,
            env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await proc.communicate()
        during = writers.committed - before
    finally:
        await writers.stop()
    final = [(e.id, e.kind, e.ref, e.value) for e in await store.all_events()]
    await store.close()
    assert proc.returncode == 0, err.decode()
    assert "integrity ok" in out.decode()
    assert during > 0, "the bot's operations went on committing while the CLI copied"
    copy = events_of(tmp_path / "copy.sqlite3")
    assert f": {len(copy)} events, integrity ok" in out.decode()
    assert before <= len(copy) and copy == final[:len(copy)]
