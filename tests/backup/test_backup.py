"""Backups while the bot runs: `python -m bot backup FILE` and an organiser's /copia."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from datetime import UTC, datetime

from bot.rehearsal.fakeapi import FakeBotAPI
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


ENTRIES = """number,category,names,born,aepuzz_member,resident
1,adultos,Ana Ruiz,1980,no,no
2,adultos,Eva Gil,1981,no,no
"""


async def test_copia_under_a_stream_of_piezas_completes_and_answers_keep_coming(tmp_path):
    """Issue 13: /copia while volunteers send /piezas over and over used to stop the bot (the
    backup, under the writer's lock, waited for ever on the open group commit). Now each copy
    comes, every /piezas is answered, and each copy holds only what was committed, checked."""
    db = tmp_path / "live.sqlite3"
    csv_file = tmp_path / "entries.csv"
    csv_file.write_text(ENTRIES)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env.update(PUZZLEBOT_DB=str(db), PUZZLEBOT_CONTEST=str(CASTRILLO))
    imported = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "import", "entries", str(csv_file), cwd=ROOT, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await imported.communicate()
    assert imported.returncode == 0, err.decode()
    api = FakeBotAPI()
    await api.start()
    bot = BotProcess(api, db, CASTRILLO)
    await bot.start()
    boss = Phone(1, "Olga")
    volunteers = [Phone(2 + i, f"Vol{i}") for i in range(8)]
    try:
        await say(api, boss, "/start", datetime.now(UTC))
        for vol in volunteers:
            code = (await say(api, boss, "/voluntario", datetime.now(UTC)))[0].split("start=")[1]
            await say(api, vol, f"/start {code}", datetime.now(UTC))
        first = await say(api, volunteers[0], "/piezas 1 7", datetime.now(UTC))
        assert "Entry 1: 7 pieces." in first
        asked: list[tuple[int, int]] = []  # (chat, message id) of every /piezas in the stream
        stop = asyncio.Event()

        async def stream(vol: Phone, offset: int) -> None:
            n = offset
            while not stop.is_set():
                n += len(volunteers)
                api.send_message(vol.user(), f"/piezas {1 + n % 2} {n}", datetime.now(UTC))
                asked.append((vol.id, api._next_message))
                # about twice a second each, within what the tests' bot lets one chat be
                # answered (Telegram's pace, PACE times faster): pacing, nothing measured
                await asyncio.sleep(0.5)

        def answered() -> int:
            done = {(c.chat_id, c.replies_to) for c in api.sent() if c.replies_to is not None}
            return sum(1 for a in asked if a in done)

        streams = [asyncio.create_task(stream(v, 10 + i)) for i, v in enumerate(volunteers)]
        copies = []
        try:
            assert await api.wait_until(lambda: answered() >= 20, 30)
            for _ in range(3):
                api.send_message(boss.user(), "/copia", datetime.now(UTC))
                copia = api._next_message
                got = await api.wait_until(lambda copia=copia: any(
                    c.method == "sendDocument" and c.replies_to == copia for c in api.calls), 60)
                assert got, f"the copy came ({answered()} of {len(asked)} /piezas answered)"
                copies.append(next(c for c in api.calls
                                   if c.method == "sendDocument" and c.replies_to == copia))
                at_copy = answered()
                # the answers keep coming after it, as they did before
                assert await api.wait_until(lambda at=at_copy: answered() >= at + 10, 30)
        finally:
            stop.set()
            await asyncio.gather(*streams)
        assert await api.wait_until(lambda: answered() == len(asked), 60), \
            f"{len(asked) - answered()} /piezas never answered"
        with sqlite3.connect(db) as live:
            live_rows = live.execute("SELECT id, kind, value FROM events ORDER BY id").fetchall()
        held = []
        for i, doc in enumerate(copies):
            path = tmp_path / f"sent{i}.sqlite3"
            path.write_bytes(doc.params["document"]["bytes"])
            with sqlite3.connect(path) as copy:
                assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                rows = copy.execute("SELECT id, kind, value FROM events ORDER BY id").fetchall()
            # a prefix of the history: what was answered before /copia is in it, what was
            # recorded after it is not
            assert rows == live_rows[:len(rows)]
            held.append(len(rows))
        assert 20 <= held[0] < held[1] < held[2] < len(live_rows)
        assert api.violations == []
    finally:
        await bot.stop()
        await api.stop()
    assert b"error while handling an update" not in bot.log
