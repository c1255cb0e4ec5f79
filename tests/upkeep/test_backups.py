"""Issue 49: backups without thinking. The automatic copy is taken into the backup folder,
checked, the old ones thinned out; a failure changes nothing on disk and is told once; the
day's copy goes to the organisers compressed; ``restore`` puts a copy (or the .gz received)
back in the database's place, keeping the one it replaces, and refuses while the bot runs or
when the file is not a whole puzzlebot database. The running bot takes its first copy at
start, against our fake Bot API over HTTP."""

from __future__ import annotations

import asyncio
import gzip
import os
import sqlite3
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.domain.events import EventKind
from bot.features.upkeep import backups
from bot.features.upkeep.operations import BackupState, backup_now
from bot.rehearsal.fakeapi import FakeBotAPI
from bot.storage.db import StoreError
from bot.storage.store import Store
from tests.conftest import CASTRILLO, ROOT
from tests.e2e import BotProcess
from tests.fakebot import Harness, Person

MADRID = ZoneInfo("Europe/Madrid")
NOW = datetime(2027, 6, 1, 19, 30, tzinfo=UTC)  # 21:30 in Madrid


async def events_in(store: Store, n: int, at: datetime = NOW) -> None:
    for i in range(n):
        async with store.transaction() as tx:
            await tx.add_event(at=at, kind=EventKind.PAUSE, role="organiser", actor=i + 1)


async def test_a_copy_is_taken_checked_and_the_old_ones_thinned(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    try:
        await events_in(store, 3)
        folder = tmp_path / "c-backups"
        # 60 older copies, half an hour apart, each a file of ours, and a stranger's file
        folder.mkdir()
        olds = [NOW - timedelta(minutes=30 * (i + 1)) for i in range(60)]
        for t in olds:
            (folder / backups.copy_name(t)).write_bytes(b"old")
        (folder / "notes.txt").write_text("mine")
        taken = await backups.take(store, folder, NOW, MADRID)
        assert taken.path == folder / "puzzlebot-20270601-193000Z.sqlite3"
        assert taken.events == 3 and backups.check_copy(taken.path) == 3
        assert oct(taken.path.stat().st_mode & 0o777) == "0o600"
        left = backups.copies(folder)
        # 61 copies over 30 hours: the newest 48 (this one and 47 older, back to 22:00 on 31
        # May in Madrid) are kept; the 13 before them are of 31 May too, a day with a copy
        # among the newest: none of them is kept
        assert len(left) == 48 and max(left) == NOW
        assert min(left) == NOW - timedelta(minutes=30 * 47)
        assert (folder / "notes.txt").exists()
        assert len(taken.removed) == 13
    finally:
        await store.close()


async def test_a_failed_copy_deletes_nothing_and_is_told_once(tmp_path: Path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({1})).start()
    try:
        svc = h.services
        await h.send(Person(1, "Olga", "en"), "/voluntario", NOW)
        folder = tmp_path / "full"
        folder.write_text("a file where the folder should be")  # cannot be created
        svc.config = svc.config.__class__(**{**svc.config.__dict__, "backups": str(folder)})
        state = BackupState()
        before = len(h.request.calls)
        await backup_now(svc, h.app.bot, NOW, state)
        await backup_now(svc, h.app.bot, NOW + timedelta(minutes=30), state)
        told = [c.text for c in h.request.calls[before:] if c.method == "sendMessage"]
        assert len(told) == 1 and told[0].startswith("The automatic backup failed:")
        assert state.failing
        # the folder can be written again: a copy, the failure forgotten, the day's copy sent
        folder.unlink()
        await backup_now(svc, h.app.bot, NOW + timedelta(hours=1), state)
        assert not state.failing and len(backups.copies(folder)) == 1
        sent = [c for c in h.request.calls[before:] if c.method == "sendDocument"]
        assert len(sent) == 1 and sent[0].chat_id == 1
        doc = sent[0].params["document"]
        assert doc["file"].endswith(".sqlite3.gz")
        restored = tmp_path / "from-telegram.sqlite3"
        restored.write_bytes(gzip.decompress(doc["bytes"]))
        assert backups.check_copy(restored) >= 1
        assert backups.last_sent(folder) == (NOW + timedelta(hours=1)).astimezone(MADRID).date()
        # the same evening, no second copy to the organisers
        await backup_now(svc, h.app.bot, NOW + timedelta(hours=1, minutes=30), state)
        assert len([c for c in h.request.calls[before:] if c.method == "sendDocument"]) == 1
    finally:
        await h.stop()


async def restore_cli(db: Path, file: Path) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PUZZLEBOT_DB"] = str(db)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "restore", str(file), cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def count(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT COUNT(*) FROM events").fetchone()[0])


async def test_restore_puts_a_copy_back_and_keeps_the_database_it_replaces(
        tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    store = await Store.open(db)
    await events_in(store, 2)
    copy = (await backups.take(store, tmp_path / "b", NOW, MADRID)).path
    await events_in(store, 5)  # the day goes on; then the file is lost or damaged
    await store.close()
    gz = tmp_path / "sent.sqlite3.gz"
    gz.write_bytes(backups.packed(copy))
    code, out, err = await restore_cli(db, copy)
    assert code == 0, err
    assert count(db) == 2 and "2 events, integrity ok" in out
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("club-before-restore-")]
    assert len(kept) == 1 and count(kept[0]) == 7
    await events_in(reopened := await Store.open(db), 1)  # the bot runs on it again
    await reopened.close()
    code, _, err = await restore_cli(db, gz)  # the .gz the organisers received
    assert code == 0, err
    assert count(db) == 2


@pytest.mark.parametrize("content, problem", [
    (b"not a database at all, just some text" * 100, "not a database"),
    (None, "not a puzzlebot database"),
    (b"\x1f\x8b broken gzip", "not a whole .gz file"),
])
async def test_restore_refuses_what_is_not_a_whole_puzzlebot_database(
        tmp_path: Path, content: bytes | None, problem: str) -> None:
    db = tmp_path / "club.sqlite3"
    store = await Store.open(db)
    await events_in(store, 4)
    await store.close()
    bad = tmp_path / ("bad.sqlite3.gz" if problem.endswith(".gz file") else "bad.sqlite3")
    if content is None:
        with sqlite3.connect(bad) as con:
            con.execute("CREATE TABLE other (x)")
    else:
        bad.write_bytes(content)
    code, _, err = await restore_cli(db, bad)
    assert code == 2 and problem in err and err.startswith("error: ")
    assert count(db) == 4  # untouched
    assert not [p for p in tmp_path.iterdir() if "before-restore" in p.name]
    with pytest.raises(StoreError):
        backups.restore(tmp_path / "missing.sqlite3", db, NOW)


async def test_restore_is_refused_while_the_bot_runs_and_the_bot_backs_up_at_start(
        tmp_path: Path) -> None:
    api = FakeBotAPI()
    await api.start()
    db = tmp_path / "live.sqlite3"
    folder = tmp_path / "copies"
    bot = BotProcess(api, db, CASTRILLO, extra_env={"PUZZLEBOT_BACKUPS": str(folder)})
    await bot.start()
    try:
        assert await api.wait_until(lambda: len(backups.copies(folder)) == 1, 30)
        copy = next(iter(backups.copies(folder).values()))
        assert backups.check_copy(copy) >= 0
        code, _, err = await restore_cli(db, copy)
        assert code == 2 and "the bot is running" in err and "stop it first" in err
    finally:
        await bot.stop()
        await api.stop()
