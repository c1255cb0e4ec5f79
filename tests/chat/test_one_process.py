"""One process per contest, end to end over HTTP: the real ``python -m bot run`` against our fake
Bot API. A second ``run`` on the same database refuses to start (one ``error:`` line naming the
first's pid, exit code 2) before it talks to Telegram, and the first keeps working; a SIGKILLed
bot leaves no stale lock; ``export`` and ``backup`` work beside a running bot; a 409 Conflict
from ``getUpdates`` (the same token polled by another process) stops the bot cleanly with one
line and a non-zero exit, what it owes kept in the database; the database, its ``-wal`` and
``-shm``, the lock file and backups are readable by their owner only."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import pytest

from bot.rehearsal.fakeapi import Failure, FakeBotAPI
from bot.storage.store import Store
from bot.support.files import lock_path
from tests.conftest import CASTRILLO, ROOT
from tests.e2e import BotProcess, Phone, say

ORGANISER = Phone(1, "Olga")
STARTS = ("getMe", "deleteWebhook")


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The umask most systems give (022: new files readable by everyone), inherited by the bot
    processes started here."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def mode(path: Path | str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def lines(log: bytes) -> list[str]:
    return [ln for ln in log.decode(errors="replace").splitlines() if ln.strip()]


def talks(api: FakeBotAPI) -> int:
    return sum(1 for c in api.calls if c.method in STARTS)


async def cli(db: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env.update({"PUZZLEBOT_DB": str(db), "PUZZLEBOT_CONTEST": str(CASTRILLO)})
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def other_poll(api: FakeBotAPI, timeout: float = 0.5) -> int:
    """A getUpdates from another client with the same token (another process polling):
    Telegram then answers the bot's waiting poll 409 Conflict. Returns this poll's status."""
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{api.base_url}{api.token}/getUpdates",
                               params={"timeout": str(timeout)}) as response:
            await response.read()
            return response.status


async def test_a_second_run_on_the_same_database_refuses_naming_the_first(api, tmp_path):
    db = tmp_path / "contest.sqlite3"
    first = BotProcess(api, db, CASTRILLO)
    second = BotProcess(api, db, CASTRILLO)
    await first.start()
    try:
        assert first.proc is not None
        pid = first.proc.pid
        assert lock_path(db).read_text().strip() == str(pid)
        before = talks(api)
        await second.launch()
        assert await second.wait_exit(30) == 2
        out = lines(second.log)
        assert len(out) == 1, out
        assert out[0].startswith("error: ") and f"pid {pid}" in out[0], out
        assert "only one may run" in out[0]
        # it refused before talking to Telegram: no getMe, no deleteWebhook, no poll
        assert talks(api) == before and api.conflicts == 0
        # the first keeps working, and still holds the lock
        assert "start=" in " ".join(await say(api, ORGANISER, "/voluntario", datetime.now(UTC)))
        assert first.proc is not None and first.proc.returncode is None
        assert lock_path(db).read_text().strip() == str(pid)
        await second.launch()
        assert await second.wait_exit(30) == 2
    finally:
        assert await first.stop() == 0
        await second.stop()


async def test_a_sigkilled_bot_leaves_no_stale_lock(api, tmp_path):
    db = tmp_path / "contest.sqlite3"
    bot = BotProcess(api, db, CASTRILLO)
    await bot.start()
    try:
        assert bot.proc is not None
        old = bot.proc.pid
        await bot.kill()
        assert lock_path(db).read_text().strip() == str(old)  # the file stays; its lock did not
        await bot.start()  # raises if it did not get as far as polling
        assert bot.proc is not None and bot.proc.pid != old
        assert lock_path(db).read_text().strip() == str(bot.proc.pid)
        assert "start=" in " ".join(await say(api, ORGANISER, "/voluntario", datetime.now(UTC)))
    finally:
        assert await bot.stop() == 0


async def test_export_and_backup_beside_a_running_bot_and_files_owner_only(api, tmp_path):
    """An older version's database (readable by everyone) is tightened at start; the -wal,
    -shm and lock files are created 0600; ``export`` and ``backup`` work beside the running
    bot, and the backup is 0600 too."""
    db = tmp_path / "old.sqlite3"
    sqlite3.connect(db).close()
    os.chmod(db, 0o644)
    bot = BotProcess(api, db, CASTRILLO)
    await bot.start()
    try:
        await say(api, ORGANISER, "/voluntario", datetime.now(UTC))
        files = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), lock_path(db)]
        assert {str(f.name): mode(f) for f in files} == {str(f.name): 0o600 for f in files}
        code, out, err = await cli(db, "export", "entries")
        assert code == 0, err
        assert out.startswith("number,")
        copy = tmp_path / "copy.sqlite3"
        code, out, err = await cli(db, "backup", str(copy))
        assert code == 0 and "integrity ok" in out, err
        assert mode(copy) == 0o600
        assert not any(Path(f"{copy}{s}").exists() for s in ("-wal", "-shm", "-journal"))
        assert "start=" in " ".join(await say(api, ORGANISER, "/voluntario", datetime.now(UTC)))
    finally:
        assert await bot.stop() == 0


async def test_a_new_database_and_copia_s_copy_are_owner_only(tmp_path):
    db = tmp_path / "new.sqlite3"
    store = await Store.open(db)
    try:
        assert mode(db) == 0o600
        copy = tmp_path / "copia.sqlite3"  # what /copia sends: Store.backup_to
        await store.backup_to(copy)
        assert mode(copy) == 0o600
    finally:
        await store.close()
    for suffix in ("-wal", "-shm"):
        if Path(f"{db}{suffix}").exists():
            assert mode(f"{db}{suffix}") == 0o600


async def test_a_409_conflict_stops_the_bot_with_one_line_keeping_what_it_owes(api, tmp_path):
    """Another client polls with the same token while the bot waits in getUpdates: Telegram
    answers the bot's poll 409 Conflict. The bot stops (exit 2) with one ``error:`` line, no
    warnings for ever, and the answer it could not send yet stays owed in the database: the
    next start sends it."""
    db = tmp_path / "contest.sqlite3"
    bot = BotProcess(api, db, CASTRILLO)
    await bot.start()
    try:
        api.failures.append(Failure("502", count=10_000, method="sendMessage"))
        update = api.send_message(ORGANISER.user(), "/voluntario", datetime.now(UTC))
        assert await api.wait_until(lambda: api.confirmed_update() >= update, 15)
        since = len(bot.log)
        for _ in range(40):  # until it is the bot's poll that was the older one
            await other_poll(api)
            code = await bot.wait_exit(0.5)
            if code is not None:
                break
        assert code == 2
        out = lines(bot.log[since:])
        errors = [ln for ln in out if ln.startswith("error:")]
        assert len(errors) == 1, out
        assert "409 Conflict" in errors[0] and "another bot process" in errors[0]
        assert "terminated by other getUpdates request" in errors[0]
        assert not any("getUpdates failed" in ln for ln in out), out
        assert not any("Traceback" in ln for ln in out), out
        assert api.token not in bot.log.decode(errors="replace")
        with sqlite3.connect(db) as conn:
            owed = [r[0] for r in conn.execute(
                "SELECT params FROM outbox WHERE done_at IS NULL AND chat_id = ?",
                (ORGANISER.id,))]
        assert any("start=" in p for p in owed), owed
        api.failures.clear()
        before = len(api.calls)
        await bot.start()
        assert await api.wait_until(lambda: any(
            c.method == "sendMessage" and c.chat_id == ORGANISER.id and "start=" in c.text
            for c in api.calls[before:]), 15)
    finally:
        await bot.stop()


async def test_two_bots_polling_one_token_one_stops_and_the_other_works(api, tmp_path):
    """Two bots on two databases with one token: Telegram answers the older poll 409
    Conflict. The bot told so stops with one ``error:`` line (exit 2); the other goes on."""
    first = BotProcess(api, tmp_path / "here.sqlite3", CASTRILLO)
    second = BotProcess(api, tmp_path / "there.sqlite3", CASTRILLO)
    await first.start()
    try:
        await second.start()

        def ended() -> list[BotProcess]:
            return [b for b in (first, second)
                    if b.proc is not None and b.proc.returncode is not None]

        for _ in range(300):
            if ended():
                break
            await asyncio.sleep(0.1)
        assert len(ended()) == 1, "neither bot stopped"
        stopped = ended()[0]
        running = second if stopped is first else first
        assert await stopped.wait_exit(5) == 2
        assert api.conflicts >= 1
        errors = [ln for ln in lines(stopped.log) if ln.startswith("error:")]
        assert len(errors) == 1 and "409 Conflict" in errors[0], lines(stopped.log)
        assert not any("getUpdates failed" in ln for ln in lines(stopped.log))
        assert "start=" in " ".join(await say(api, ORGANISER, "/voluntario", datetime.now(UTC)))
        assert running.proc is not None and running.proc.returncode is None
    finally:
        assert await first.stop() in (0, None)
        assert await second.stop() in (0, None)


async def test_an_injected_409_on_getupdates_stops_the_bot(api, tmp_path):
    bot = BotProcess(api, tmp_path / "contest.sqlite3", CASTRILLO)
    await bot.start()
    try:
        api.failures.append(Failure("409", method="getUpdates"))
        assert await bot.wait_exit(30) == 2
        errors = [ln for ln in lines(bot.log) if ln.startswith("error:")]
        assert len(errors) == 1 and "409 Conflict" in errors[0], lines(bot.log)
    finally:
        await bot.stop()
