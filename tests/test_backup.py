"""Backups while the bot runs: `python -m bot backup FILE` and an organiser's /copia."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from datetime import UTC, datetime

from bot.harness.fakeapi import FakeBotAPI
from tests.conftest import CASTRILLO, ROOT
from tests.e2e import BotProcess, Phone, say
from tests.fakebot import Harness, Person


async def backup_cli(db, dest) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PUZZLEBOT_DB"] = str(db)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "backup", str(dest), cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_backup_while_the_bot_runs_is_consistent(tmp_path):
    api = FakeBotAPI()
    await api.start()
    db = tmp_path / "live.sqlite3"
    bot = BotProcess(api, db, CASTRILLO)
    await bot.start()
    try:
        boss = Phone(1, "Olga")
        for _ in range(5):
            await say(api, boss, "/voluntario", datetime.now(UTC))
        # more traffic while the copy is taken
        traffic = asyncio.gather(*(say(api, boss, "/voluntario", datetime.now(UTC))
                                   for _ in range(3)))
        code, out, err = await backup_cli(db, tmp_path / "copy.sqlite3")
        await traffic
        assert code == 0, err
        assert "integrity ok" in out
        with sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            invites = copy.execute(
                "SELECT COUNT(*) FROM events WHERE kind = 'volunteer_invite'").fetchone()[0]
            assert 5 <= invites <= 8
            assert copy.execute("PRAGMA user_version").fetchone()[0] >= 3
        again, _, err = await backup_cli(db, tmp_path / "copy.sqlite3")
        assert again == 2 and "already exists" in err
        same, _, err = await backup_cli(db, db)
        assert same == 2
    finally:
        await bot.stop()
        await api.stop()


async def test_organiser_copia_sends_a_valid_database(tmp_path):
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({1})).start()
    try:
        boss = Person(1, "Olga", "en")
        await h.send(boss, "/voluntario", datetime.now(UTC))
        calls = await h.send(boss, "/copia", datetime.now(UTC))
        doc = next(c for c in calls if c.method == "sendDocument")
        data = doc.params["document"]["bytes"]
        path = tmp_path / "sent.sqlite3"
        path.write_bytes(data)
        with sqlite3.connect(path) as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert copy.execute("SELECT COUNT(*) FROM events WHERE kind = 'volunteer_invite'"
                                ).fetchone()[0] == 1
        refused = await h.send(Person(5, "Nobody", "en"), "/copia", datetime.now(UTC))
        assert [c.method for c in refused] == ["sendMessage"]
        assert "organisers" in refused[0].text
    finally:
        await h.stop()
