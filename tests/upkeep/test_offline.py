"""Issue 49, the 24-hour edge: Telegram keeps what people send a bot for 24 hours only. The bot
notes that it runs; started again after more than about 23½ hours off, it tells every organiser
what may be lost and how to get it back (people asked to send again, the volunteers' paper
sheet), once, recorded with the messages it owes. A shorter time off says nothing. The real
bot process against our fake Bot API over HTTP."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.domain.events import EventKind
from bot.features.upkeep.operations import back_after
from bot.rehearsal.fakeapi import FakeBotAPI
from tests.conftest import CASTRILLO
from tests.e2e import BotProcess
from tests.fakebot import Harness, Person

NOW = datetime(2027, 6, 3, 7, 0, tzinfo=UTC)  # 09:00 in Madrid


async def test_after_two_days_off_the_organisers_are_told_once(tmp_path: Path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({1, 2})).start()
    try:
        svc = h.services
        await h.send(Person(1, "Olga", "en"), "/ayuda", NOW - timedelta(days=3))
        await h.send(Person(2, "Iker", "es"), "/voluntario", NOW - timedelta(days=3))
        await svc.store.beat(NOW - timedelta(days=2))  # the laptop closed on Friday
        before = len(h.request.calls)
        gap = await back_after(svc, NOW)
        assert gap is not None and gap.since == NOW - timedelta(days=2)
        await h.app.bot_data["sender"].settled()  # what it owes goes out from the outbox
        told = {c.chat_id: c.text for c in h.request.calls[before:] if c.method == "sendMessage"}
        assert told[1] == (
            "The bot was off from Tuesday 1 June 09:00 until now. Telegram keeps messages for "
            "24 hours only: what people sent the bot before Wednesday 2 June 09:30 may be "
            "lost. Ask them to send again anything they sent since Tuesday 1 June 09:00 (an "
            "/announce reaches everyone), and have the volunteers enter again from their "
            "paper sheet the results of that time.")
        # in each one's language: its day and its command
        assert "martes 1 de junio 09:00" in told[2] and "/anuncio" in told[2]
        assert "Telegram" in told[2] and "24" in told[2]
        assert await svc.store.last_beat() == NOW
        # started again at once (the beat lost in a crash): not told twice
        await svc.store.beat(NOW - timedelta(days=2))
        calls = len(h.request.calls)
        assert await back_after(svc, NOW + timedelta(minutes=1)) is not None
        await h.app.bot_data["sender"].settled()
        alerts = [e for e in await svc.store.events(kinds=[EventKind.ALERT])
                  if (e.ref or "").startswith("offline:")]
        assert len(alerts) == 1
        assert not [c for c in h.request.calls[calls:] if c.method == "sendMessage"]
    finally:
        await h.stop()


async def test_a_night_off_loses_nothing_and_says_nothing(tmp_path: Path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({1})).start()
    try:
        svc = h.services
        await svc.store.beat(NOW - timedelta(hours=14))
        before = len(h.request.calls)
        assert await back_after(svc, NOW) is None
        assert not [c for c in h.request.calls[before:] if c.method == "sendMessage"]
        assert await back_after(svc, NOW + timedelta(hours=1)) is None  # a new database too
    finally:
        await h.stop()


async def test_the_running_bot_notes_that_it_runs_and_tells_after_a_long_stop(
        tmp_path: Path) -> None:
    api = FakeBotAPI()
    await api.start()
    db = tmp_path / "club.sqlite3"
    bot = BotProcess(api, db, CASTRILLO)
    try:
        await bot.start()
        await bot.stop()  # a clean stop notes the moment
        with sqlite3.connect(db) as con:
            last = con.execute("SELECT at FROM heartbeat").fetchone()[0]
            assert abs(last - datetime.now(UTC).timestamp()) < 120
            # as if that stop had been two days ago
            con.execute("UPDATE heartbeat SET at = ?", (last - 2 * 86400,))
        before = len(api.calls)
        await bot.start()
        # organiser 1 never wrote to the bot: told in the contest's language (Spanish)
        assert await api.wait_until(lambda: any(
            c.method == "sendMessage" and c.chat_id == 1 and "Telegram" in c.text
            and "24 horas" in c.text for c in api.calls[before:]), 30)
    finally:
        await bot.stop()
        await api.stop()
