"""A rehearsal's idle stretches skipped (``bot/chat/skips.py``): the real bot over HTTP, its
clock jumping when the rehearsal asks, never over a timer, every timer moved with it."""

from __future__ import annotations

import sqlite3
import time
from datetime import UTC, datetime, timedelta

from bot.chat.skips import MARGIN
from bot.support.wallclock import ENV as CLOCK_ENV
from bot.support.wallclock import SKIP_ENV, WallClock
from tests.conftest import CASTRILLO
from tests.e2e import BotProcess, Phone, register_pair, say, sent_to
from tests.rehearsal.test_e2e import ORGANISER, staff

SPEED = 10.0  # ten simulated seconds a second: the cooldown of 5 minutes is 30 s of waiting


def notices(db) -> list[datetime]:
    """The moments the cooldown notices were recorded at (events store unix seconds)."""
    with sqlite3.connect(db) as conn:
        return [datetime.fromtimestamp(r[0], UTC)
                for r in conn.execute("SELECT at FROM events WHERE kind = 'notice'")]


async def test_a_skip_stops_short_of_a_timer_which_goes_off_at_its_moment(api, tmp_path):
    db = tmp_path / "skips.sqlite3"
    now = time.time()
    clock = WallClock(datetime.fromtimestamp(now, UTC).replace(microsecond=0), now, SPEED, 50.0)
    bot = BotProcess(api, db, CASTRILLO, extra_env={
        CLOCK_ENV: clock.encode(), SKIP_ENV: str(tmp_path / "skip")})
    await bot.start()
    try:
        march = datetime(2023, 3, 10, 18, 0, tzinfo=UTC)
        await staff(api, march)
        pair = Phone(120, "Pia")
        await register_pair(api, pair, march)
        start = clock.now().replace(microsecond=0)
        await say(api, ORGANISER, "/inicio", start)
        hint = start + timedelta(seconds=20)
        assert "Tickets left: 10" in (await say(api, pair, "/pista 1", hint))[0]
        assert "Too soon" in (await say(api, pair, "/pista 2", hint + timedelta(seconds=1)))[0]
        due = hint + timedelta(minutes=5)  # the cooldown's notice

        # asked for half an hour on: the clock stops a second short of the notice
        after = await bot.skip_to(start + timedelta(minutes=30))
        assert after is not None
        assert after.speed == SPEED and after.real_start == clock.real_start
        assert due - timedelta(seconds=MARGIN + 3) < after.now() < due
        # the notice's timer moved with the clock: it goes off in a second of the new clock,
        # not in the half minute of real time it had left
        got = await api.wait_until(
            lambda: any("have passed" in c.text for c in sent_to(api, pair.id)), 5)
        assert got, "the notice did not go off at its moment after the jump"
        assert notices(db) == [due]

        # nothing due before it any more: this time the clock reaches the moment asked
        target = start + timedelta(minutes=30)
        again = await bot.skip_to(target)
        assert again is not None
        assert target <= again.now() < target + timedelta(seconds=5 * SPEED)
        # a moment already past: the clock stays
        stays = await bot.skip_to(start)
        assert stays is not None and stays.simulated_start == again.simulated_start
        # the bot records what comes next on the jumped clock's day, as before
        tickets = await say(api, pair, "/billetes", again.now())
        assert "10 tickets left" in tickets[0]
        assert api.violations == []
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log.decode(errors="replace")
