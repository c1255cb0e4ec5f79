"""Telegram failing for a stretch of the contest (429 with retry_after, 502, slow answers,
dropped connections): the bot stays up, retries, charges nothing twice, and the ranking is
unaffected."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.rehearsal.fakeapi import Failure, FakeBotAPI
from tests.conftest import CASTRILLO
from tests.e2e import BotProcess, Phone, register, say

MADRID = ZoneInfo("Europe/Madrid")
# the day runs now (real time), so that the 90-minute handover timer stays in the future
T0 = datetime.now(UTC).replace(microsecond=0)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


async def test_failures_for_a_stretch_change_nothing(tmp_path):
    api = FakeBotAPI()
    await api.start()
    db = tmp_path / "flaky.sqlite3"
    bot = BotProcess(api, db, CASTRILLO)
    await bot.start()
    boss, vol = Phone(1, "Olga"), Phone(2, "Vic")
    try:
        march = datetime(2023, 3, 1, 12, tzinfo=MADRID)
        await say(api, boss, "/start", march)
        code = (await say(api, boss, "/voluntario", march))[0].split("start=")[1]
        await say(api, vol, f"/start {code}", march)
        pairs = []
        for i in range(3):
            phone = Phone(100 + i, f"P{i}")
            number, _, _ = await register(api, phone, "parejas",
                                          [(f"P{i} Uno", "1980", [False, False]),
                                           (f"P{i} Dos", "1981", [False, False])], march,
                                          (0, 0))
            assert number, "registered"
            pairs.append((number, phone))
        await say(api, boss, "/inicio parejas", T0)
        # the hall's network goes bad
        api.failures.extend([
            Failure("429", count=2, retry_after=1, method="sendMessage"),
            Failure("502", count=3, method="sendMessage"),
            Failure("delay", count=2, delay=1.5, method="sendMessage"),
            Failure("drop", count=2, method="sendMessage"),
        ])
        answers = []
        for i, (_, phone) in enumerate(pairs):
            answers.append(await say(api, phone, "/pista 1", at(10 + i)))
        assert not api.failures, "every planned failure was met"
        # each pair got its answer despite the failures, and was charged once
        for replies in answers:
            assert any("Tickets left: 10" in r for r in replies), replies
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM events WHERE kind='hint'").fetchone()[0] == 3
        # the network is fine again: the day goes on
        for i, (number, _) in enumerate(pairs):
            await say(api, vol, f"/escape {number} 0:{40 + i}:00", at(41 + i))
            await say(api, vol, f"/fin {number} 1:{30 + i}:00", at(91 + i))
        ranking = "\n".join(await say(api, boss, "/clasificacion parejas", at(200)))
        lines = [ln for ln in ranking.splitlines() if ln[:1].isdigit()]
        # pair i: escape 0:4i - 10 tickets x 3 min, + puzzle 0:50 = 1:0i:00
        assert [ln.split(": ")[1][:7] for ln in lines] == ["1:00:00", "1:01:00", "1:02:00"]
        assert bot.proc is not None and bot.proc.returncode is None  # still up
        assert api.violations == []
    finally:
        await bot.stop()
        await api.stop()
    # python-telegram-bot logs the 502's HTML body it cannot parse; no error reached a handler
    assert b"error while handling an update" not in bot.log
    assert b"sending failed" in bot.log  # the failures were seen and retried...
    assert api.token.encode() not in bot.log  # ...and the token never reached the log
    assert api.token.split(":")[1].encode() not in bot.log
