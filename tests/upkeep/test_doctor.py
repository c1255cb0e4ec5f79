"""Issue 49: the doctor. One screen says whether the token works, Telegram answers, the clock
is right, the database is whole, the disk has room, the backups are recent, the contest file
is valid and the bot runs, and what to do about each that is not; each check fails here on
purpose, against our fake Bot API over HTTP. The organisers get the same screen in the chat
(``/diagnostico``), in their language."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from collections import namedtuple
from contextlib import closing
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.features.privacy.rules import PrivacyRules
from bot.features.upkeep import backups, doctor
from bot.features.upkeep.rules import Status
from bot.features.upkeep.texts import doctor_report
from bot.rehearsal.fakeapi import FakeBotAPI
from bot.storage.store import Store
from bot.support.config import Config
from bot.support.i18n import LANGUAGES
from tests.conftest import CASTRILLO, ROOT
from tests.fakebot import Harness, Person

Usage = namedtuple("Usage", "total used free")
PLENTY = Usage(100 << 30, 0, 50 << 30)


@pytest.fixture
async def api():
    fake = FakeBotAPI()
    await fake.start()
    yield fake
    await fake.stop()


async def healthy(tmp_path: Path, api: FakeBotAPI, **changes: object) -> Config:
    """A bot on this machine with everything in order: a database, a fresh copy."""
    db = tmp_path / "club.sqlite3"
    store = await Store.open(db)
    folder = tmp_path / "club-backups"
    await backups.take(store, folder, datetime.now(UTC), ZoneInfo("UTC"))
    await store.close()
    values: dict[str, object] = {"token": api.token, "contest_file": str(CASTRILLO),
                                 "db_path": str(db), "base_url": api.base_url, "backups": ""}
    values.update(changes)
    return Config(**values)  # type: ignore[arg-type]


def by_check(findings: list) -> dict[str, tuple[Status, str | None]]:
    """Each check's status and advice; every finding worded in every language on the way (a
    line that cannot be said fails here)."""
    for lang in LANGUAGES:
        lines = doctor_report(lang, findings).splitlines()
        assert len(lines) == len(findings) + 1 and all(line.strip() for line in lines)
    return {f.check: (f.status, f.advice) for f in findings}


async def test_everything_in_order(tmp_path: Path, api: FakeBotAPI) -> None:
    config = await healthy(tmp_path, api)
    findings = await doctor.examine(config, 4242, usage=lambda _: PLENTY)
    assert {k: s for k, (s, _) in by_check(findings).items()} == {
        "token": Status.OK, "telegram": Status.OK, "clock": Status.OK, "database": Status.OK,
        "disk": Status.OK, "backup": Status.OK, "contest": Status.OK, "running": Status.OK}
    report = doctor_report("en", findings).splitlines()
    assert report[0] == "Everything is in order."
    assert "✅ The token works: the bot is @" in report[1]
    assert report[-1] == "✅ The bot is running (process 4242)."


async def test_each_check_fails_on_purpose(tmp_path: Path, api: FakeBotAPI) -> None:
    config = await healthy(tmp_path, api)
    # a token Telegram refuses
    wrong = Config(**{**config.__dict__, "token": "123:wrong-token-for-this-bot-abcdefghij"})
    found = by_check(await doctor.examine(wrong, None, usage=lambda _: PLENTY))
    assert found["token"] == (Status.FAIL, "new_token")
    assert found["running"] == (Status.WARN, "start_bot")
    # Telegram unreachable: the token not checked, the clock unknown
    down = Config(**{**config.__dict__, "base_url": "http://127.0.0.1:9/bot"})
    found = by_check(await doctor.examine(down, None, usage=lambda _: PLENTY))
    assert found["telegram"] == (Status.FAIL, "check_network")
    assert found["token"][0] is Status.WARN and found["clock"][0] is Status.WARN
    # a webhook set by another program
    api.webhook_url = "https://example.org/hook"
    found = by_check(await doctor.examine(config, None, usage=lambda _: PLENTY))
    assert found["telegram"] == (Status.FAIL, "delete_webhook")
    api.webhook_url = ""
    # this machine's clock a minute fast
    found = by_check(await doctor.examine(
        config, None, now=lambda: datetime.now(UTC) + timedelta(minutes=1),
        usage=lambda _: PLENTY))
    assert found["clock"] == (Status.FAIL, "set_clock")
    # a nearly full disk
    found = by_check(await doctor.examine(config, None, usage=lambda _: Usage(1, 1, 50 << 20)))
    assert found["disk"] == (Status.FAIL, "free_disk")
    # backups stopped two days ago, and backups off
    for copy in backups.copies(Path(config.backup_folder or "")).values():
        copy.rename(copy.with_name(backups.copy_name(datetime.now(UTC) - timedelta(days=2))))
    found = by_check(await doctor.examine(config, None, usage=lambda _: PLENTY))
    assert found["backup"] == (Status.FAIL, "run_bot")
    for copy in backups.copies(Path(config.backup_folder or "")).values():
        copy.unlink()  # none yet: said, with what to do
    found = by_check(await doctor.examine(config, None, usage=lambda _: PLENTY))
    assert found["backup"] == (Status.WARN, "run_bot")
    off = Config(**{**config.__dict__, "backups": "off"})
    assert by_check(await doctor.examine(off, None, usage=lambda _: PLENTY))["backup"] == (
        Status.WARN, "backups_off")
    # a broken contest file
    broken = tmp_path / "broken.toml"
    broken.write_text("[contest]\nname = 'x'\n")
    found = by_check(await doctor.examine(
        Config(**{**config.__dict__, "contest_file": str(broken)}), None,
        usage=lambda _: PLENTY))
    assert found["contest"] == (Status.FAIL, "check_contest")
    # a damaged database
    db = Path(config.db_path)
    raw = bytearray(db.read_bytes())
    raw[4096:8192] = b"\xff" * 4096
    db.write_bytes(bytes(raw))
    found = by_check(await doctor.examine(config, None, usage=lambda _: PLENTY))
    assert found["database"] == (Status.FAIL, "restore")


async def doctor_cli(env_now: dict[str, str]) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env.update(env_now)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "doctor", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_the_command_line_screen_and_its_exit_code(tmp_path: Path, api: FakeBotAPI) -> None:
    config = await healthy(tmp_path, api)
    env = {"TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_BASE_URL": api.base_url,
           "PUZZLEBOT_DB": config.db_path, "PUZZLEBOT_CONTEST": str(CASTRILLO)}
    code, out, err = await doctor_cli(env)
    lines = out.splitlines()
    assert code == 1, out + err  # the bot is not running: something to do soon
    assert lines[0] == "Something to do soon:"
    assert "⚠️ The bot is not running. Start it: puzzlebot run (or its service)." in lines
    code, out, _ = await doctor_cli({**env, "TELEGRAM_BOT_TOKEN": ""})
    assert code == 2 and out.startswith("The bot cannot work as it should:")
    assert "❌ No token is set (TELEGRAM_BOT_TOKEN)." in out


async def test_an_organiser_asks_in_the_chat_in_their_language(tmp_path: Path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({1})).start()
    try:
        answer = [c.text for c in await h.send(Person(1, "Olga", "es"), "/diagnostico",
                                               datetime.now(UTC)) if c.method == "sendMessage"]
        assert len(answer) == 1
        lines = answer[0].splitlines()
        # the bot's own connection: the token and Telegram in order; the harness's bot takes
        # no automatic backups (a Config made in code): said, with what to do, in Spanish
        assert lines[0] == "Hay algo que hacer pronto:"
        assert lines[1].startswith("✅ ") and "@" in lines[1]
        assert lines[2].startswith("✅ Telegram responde")
        assert any(line.startswith("⚠️ Las copias de seguridad automáticas están desactivadas")
                   for line in lines), lines
        assert len(lines) == 8  # no line for "the bot runs": it answered
        refused = [c.text for c in await h.send(Person(5, "Nadie", "en"), "/doctor",
                                                datetime.now(UTC)) if c.method == "sendMessage"]
        assert len(refused) == 1 and "organisers" in refused[0]
    finally:
        await h.stop()


def test_payment_settings_there_for_nothing_are_said() -> None:
    """A provider's token without [payments], and [payments] hold_minutes where places are
    taken at registration: a warning each, in every language. [payments] without a token is
    how a contest file says "in the chat where the bot can take payments": no line."""
    castrillo = doctor.contest_file(str(CASTRILLO))[1]
    assert castrillo is not None
    assert doctor.payments(castrillo, False) == []
    assert doctor.payments(castrillo, True) == []
    held = replace(castrillo, features=tuple(
        (name, replace(v, hold_minutes=20) if name == "payments" else v)
        for name, v in castrillo.features))
    [hold] = doctor.payments(held, True)
    assert hold.status is Status.WARN
    bare = replace(castrillo, features=tuple((n, v) for n, v in castrillo.features
                                              if n != "payments"))
    [token] = doctor.payments(bare, True)
    assert doctor_report("en", [token]).splitlines()[1].startswith(
        "⚠️ A payment provider's token is set, but the contest file has no [payments] table")
    for lang in LANGUAGES:
        assert "hold_minutes" in doctor_report(lang, [hold])


def test_personal_data_due_for_removal_and_still_there_is_said(tmp_path: Path) -> None:
    """With ``[privacy] keep_days``: nothing before the removal is due; once due, a warning
    until the bot (which removes it as soon as it starts) has done it (its ``purge`` event)."""
    castrillo = doctor.contest_file(str(CASTRILLO))[1]
    assert castrillo is not None
    kept = replace(castrillo, features=(*castrillo.features, ("privacy", PrivacyRules(30))))
    db = tmp_path / "bot.sqlite3"
    with closing(sqlite3.connect(db)) as con:
        con.execute("CREATE TABLE events (kind TEXT)")
        con.commit()
    madrid = ZoneInfo("Europe/Madrid")
    assert doctor.privacy(castrillo, db, datetime(2024, 1, 1, tzinfo=madrid)) == []
    assert doctor.privacy(kept, db, datetime(2023, 5, 22, 23, 59, tzinfo=madrid)) == []
    [due] = doctor.privacy(kept, db, datetime(2023, 5, 23, tzinfo=madrid))
    assert due.status is Status.WARN and due.found == "2023-05-23"
    assert "the bot removes it as soon as it starts" in doctor_report("en", [due])
    with closing(sqlite3.connect(db)) as con:
        con.execute("INSERT INTO events (kind) VALUES ('purge')")
        con.commit()
    assert doctor.privacy(kept, db, datetime(2023, 6, 1, tzinfo=madrid)) == []
