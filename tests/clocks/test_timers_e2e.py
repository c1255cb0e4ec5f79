"""A notice whose moment passes while the bot is frozen (the laptop slept) still arrives.

APScheduler's default skips a job more than a second late; the timers are scheduled to run
however late, and each one asks the database whether it is still owed."""

from __future__ import annotations

import asyncio
import signal
from datetime import UTC, datetime, timedelta

from bot.rehearsal.fakeapi import FakeBotAPI
from tests.conftest import CASTRILLO
from tests.e2e import BotProcess, Phone, register_pair, say, sent_to
from tests.rehearsal.test_e2e import ORGANISER, staff


def notices(api: FakeBotAPI, phone: Phone) -> int:
    return sum("have passed" in c.text for c in sent_to(api, phone.id))


async def test_a_notice_due_while_the_process_was_stopped_arrives_when_it_resumes(api, tmp_path):
    bot = BotProcess(api, tmp_path / "sleep.sqlite3", CASTRILLO)
    await bot.start()
    try:
        march = datetime(2023, 3, 10, 18, 0, tzinfo=UTC)
        await staff(api, march)
        pair = Phone(130, "Pau")
        await register_pair(api, pair, march)
        now = datetime.now(UTC).replace(microsecond=0)
        await say(api, ORGANISER, "/inicio", now - timedelta(minutes=10))
        # the cooldown ends 6 s from now; asking again too soon makes a notice owed then
        await say(api, pair, "/pista 1", now - timedelta(seconds=294))
        refused = await say(api, pair, "/pista 2", now - timedelta(seconds=293))
        assert "Too soon" in refused[0]
        assert bot.proc is not None
        bot.proc.send_signal(signal.SIGSTOP)  # the laptop's lid is closed
        try:
            frozen_at = datetime.now(UTC)
            # frozen across the moment, and for longer than APScheduler's default grace
            while datetime.now(UTC) < max(now + timedelta(seconds=9),
                                          frozen_at + timedelta(seconds=3)):
                await asyncio.sleep(0.2)
            sent_while_frozen = notices(api, pair)
        finally:
            bot.proc.send_signal(signal.SIGCONT)
        got = await api.wait_until(lambda: notices(api, pair) >= 1, 30)
        assert got, "the notice due while the process was stopped never arrived"
        await api.wait_until(lambda: False, 1)  # nothing more is on its way
        assert sent_while_frozen == 0
        assert notices(api, pair) == 1
    finally:
        await bot.stop()
