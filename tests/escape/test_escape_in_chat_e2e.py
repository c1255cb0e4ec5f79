"""Issue 52, end to end: the real ``python -m bot run`` process over HTTP against our fake Bot
API, on the shipped escape played in the chat. Both phones of a pair answer at the same
moment: one stage is passed, once, and both phones read the next enigma once. The bot is
killed in the middle of a stage; an answer sent while it was down counts at the moment
Telegram dated it, and its picture and next enigma reach both phones after the restart."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

from tests.e2e import BotProcess, Phone, register, say
from tests.escape.test_escape_in_chat import EXAMPLE
from tests.rehearsal.test_e2e import ORGANISER, staff


def stages(db: object) -> list[int]:
    with closing(sqlite3.connect(str(db))) as conn:
        return [r[0] for r in conn.execute(
            "SELECT stage FROM events WHERE kind = 'stage' ORDER BY id")]


async def test_both_phones_at_once_and_a_kill_in_the_middle_of_a_stage(api, tmp_path):
    db = tmp_path / "escape-chat.sqlite3"
    bot = BotProcess(api, db, EXAMPLE)
    await bot.start()
    try:
        day = datetime(2026, 11, 2, 12, tzinfo=UTC)
        await staff(api, day)
        ana, bea = Phone(140, "Ana"), Phone(141, "Bea")
        number, _, code = await register(api, ana, "parejas", [("Ana Uno", "1980", []),
                                                               ("Bea Dos", "1984", [])], day)
        await say(api, bea, f"/start {code}", day)
        now = datetime.now(UTC).replace(microsecond=0)
        t0 = now - timedelta(minutes=20)
        await say(api, ORGANISER, "/inicio", t0)
        for phone in (ana, bea):
            assert await api.wait_until(lambda p=phone: any(
                "Stage 1 of 5" in c.text for c in api.calls if c.chat_id == p.id), 15)

        # both phones send the right answer at the same second
        await asyncio.gather(say(api, ana, "clock", t0 + timedelta(minutes=2)),
                             say(api, bea, "the clock", t0 + timedelta(minutes=2)))
        for phone in (ana, bea):
            assert await api.wait_until(lambda p=phone: any(
                "Stage 2 of 5" in c.text for c in api.calls if c.chat_id == p.id), 15)
        await api.wait_until(lambda: False, 1)  # nothing more is on its way
        for phone in (ana, bea):
            second = [c for c in api.calls if c.chat_id == phone.id and "Stage 2 of 5" in c.text]
            assert len(second) == 1, [c.text for c in second]
        assert stages(db) == [2]
        assert sum("solved already" in c.text for c in api.calls
                   if c.chat_id in (ana.id, bea.id)) == 1

        # killed in the middle of stage 2; Bea answers while it is down
        await bot.kill()
        sent = len(api.calls)
        answered = t0 + timedelta(minutes=5)
        api.send_message(bea.user(), "veinticuatro", answered)
        await bot.start()
        for phone in (ana, bea):
            assert await api.wait_until(lambda p=phone: any(
                "Stage 3 of 5" in c.text for c in api.calls[sent:] if c.chat_id == p.id), 20)
        told = [c.text for c in api.calls[sent:] if c.chat_id == ana.id]
        assert any("Right! Stage 2 solved at 0:05:00" in t for t in told), told
        assert stages(db) == [2, 3]
        assert api.violations == []
    finally:
        await bot.stop()
