"""Issue 45, item 1: an answer counts when Telegram dated it. An ``/accept`` dated 30 s before
its invitation's deadline that reaches the bot after it (the bot was off across the deadline, or
the network between Telegram and the bot was down) takes the place; what is still unanswered
then lapses as before, and its place goes to the next in line.

Played by the real bot process over our fake Bot API: the library series of
tests/rounds/test_invitations.py is set up in process (every local contest played, the round
confirmed: eight teams invited by Thursday 19 September at 19:05), then the real bot takes the
database over."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path

from bot.features.invitations.handlers import DEADLINE_GRACE, WAITING_FOR_UPDATES
from bot.rehearsal.fakeapi import Failure, FakeBotAPI
from bot.support.wallclock import ENV as CLOCK_ENV
from bot.support.wallclock import SKIP_ENV, WallClock
from tests.e2e import BotProcess
from tests.fakebot import Harness, Person
from tests.rounds.test_invitations import BOSS, INVITING, _locals_played, at, phone

DEADLINE = at(2024, 9, 19, 19, 5)
IN_TIME = DEADLINE - timedelta(seconds=30)


async def _invited(tmp_path: Path) -> tuple[Path, Path]:
    """The series' database with eight teams invited; all but #5 and #8 have accepted."""
    contest = tmp_path / "series.toml"
    contest.write_text(INVITING, encoding="utf-8")
    h = await Harness(tmp_path, contest, organisers=frozenset({BOSS.id})).start()
    try:
        await _locals_played(h)
        for n in (1, 2, 4, 7, 10, 11):
            await h.press(phone(n), f"invite:yes:{n}", at(2024, 9, 13))
        db = h.db_path
    finally:
        await h.stop()
    return db, contest


def user(p: Person) -> dict[str, object]:
    return FakeBotAPI.user(p.id, p.name, p.lang)


def texts(api: FakeBotAPI, p: Person) -> list[str]:
    return [c.text for c in api.sent(p.id)]


def plays(api: FakeBotAPI, n: int) -> bool:
    return any(t.startswith(f"Entry #{n} plays Semi-final") for t in texts(api, phone(n)))


def lapsed(api: FakeBotAPI, n: int) -> bool:
    return any(t.startswith(f"Entry #{n} did not answer its invitation") for t in
               texts(api, phone(n)))


def offered(api: FakeBotAPI, n: int) -> bool:
    return any(t.startswith("A place has come free and it is yours: entry "
                            f"#{n}") for t in texts(api, phone(n)))


def bot_from(api: FakeBotAPI, db: Path, contest: Path, clock_at: datetime,
             **env: str) -> BotProcess:
    """The real bot on the series' database, its clock showing ``clock_at`` at launch."""
    clock = WallClock(clock_at, time.time(), 1.0, 50.0)
    return BotProcess(api, db, contest, organisers=str(BOSS.id),
                      extra_env={CLOCK_ENV: clock.encode(), **env})


async def test_an_answer_sent_in_time_while_the_bot_was_off_takes_the_place(
        api: FakeBotAPI, tmp_path: Path) -> None:
    db, contest = await _invited(tmp_path)
    # #5 answers 30 s before the deadline; the bot is off and comes back ten minutes after it
    api.send_message(user(phone(5)), "/accept", IN_TIME)
    bot = bot_from(api, db, contest, DEADLINE + timedelta(minutes=10))
    await bot.start()
    try:
        assert await api.wait_until(lambda: plays(api, 5) and lapsed(api, 8), 30), \
            (texts(api, phone(5)), texts(api, phone(8)), bot.log.decode()[-3000:])
        # #5 keeps its place: nobody is told it lapsed, and its library's third is not invited
        assert not lapsed(api, 5)
        assert not any("Too late" in t for t in texts(api, phone(5)))
        # #8 did not answer at all: its place goes to the next in line, #9
        assert await api.wait_until(lambda: offered(api, 9), 15), texts(api, phone(9))
        assert not offered(api, 6)
    finally:
        await bot.stop()


async def test_an_answer_held_up_by_the_network_past_the_deadline_takes_the_place(
        api: FakeBotAPI, tmp_path: Path) -> None:
    db, contest = await _invited(tmp_path)
    bot = bot_from(api, db, contest, DEADLINE - timedelta(hours=1),
                   **{SKIP_ENV: str(tmp_path / "skip")})
    await bot.start()
    try:
        # Telegram stops answering the bot's polls (its network is down) ...
        outage = Failure("502", count=10**9, method="getUpdates")
        api.failures.append(outage)
        assert await api.wait_until(lambda: outage.count < 10**9, 15)
        # ... while #5 answers 30 s before the deadline: Telegram holds the update
        api.send_message(user(phone(5)), "/accept", IN_TIME)
        # the bot's clock passes the deadline and its grace: the lapse waits for the updates
        after = await bot.skip_to(DEADLINE + timedelta(hours=1))
        assert after is not None and after.now() < DEADLINE + DEADLINE_GRACE
        assert await bot.wait_logged(WAITING_FOR_UPDATES, timeout=30)
        assert not lapsed(api, 5) and not lapsed(api, 8)
        # the network comes back: the answer is recorded in time, then #8 lapses
        api.failures.clear()
        assert await api.wait_until(lambda: plays(api, 5) and lapsed(api, 8), 30), \
            (texts(api, phone(5)), texts(api, phone(8)), bot.log.decode()[-3000:])
        assert not lapsed(api, 5)
        assert await api.wait_until(lambda: offered(api, 9), 15), texts(api, phone(9))
        assert not offered(api, 6)
    finally:
        await bot.stop()


async def test_an_answer_dated_after_the_deadline_is_still_too_late(
        api: FakeBotAPI, tmp_path: Path) -> None:
    db, contest = await _invited(tmp_path)
    # dated a second after the deadline, waiting while the bot was off: refused, and #5 lapses
    api.send_message(user(phone(5)), "/accept", DEADLINE + timedelta(seconds=1))
    bot = bot_from(api, db, contest, DEADLINE + timedelta(minutes=10))
    await bot.start()
    try:
        assert await api.wait_until(lambda: lapsed(api, 5) and lapsed(api, 8), 30), \
            texts(api, phone(5))
        assert await api.wait_until(
            lambda: any(t.startswith("Too late: entry #5's invitation") for t in
                        texts(api, phone(5))), 15), texts(api, phone(5))
        assert not plays(api, 5)
    finally:
        await bot.stop()


async def test_a_button_pressed_after_the_deadline_while_the_bot_was_off_is_too_late(
        api: FakeBotAPI, tmp_path: Path) -> None:
    """A press carries no date: the invitation's buttons were shown before the deadline, but
    the press reached Telegram after someone's message dated a day after it, so it came late
    (what a running bot would have said: the lapse at the deadline comes first)."""
    db, contest = await _invited(tmp_path)
    api.send_message(user(phone(6)), "/help", DEADLINE + timedelta(days=1))
    api.press(user(phone(5)), "invite:yes:5", at(2024, 9, 13))
    bot = bot_from(api, db, contest, DEADLINE + timedelta(days=1, minutes=10))
    await bot.start()
    try:
        assert await api.wait_until(lambda: lapsed(api, 5) and lapsed(api, 8), 30), \
            (texts(api, phone(5)), bot.log.decode()[-3000:])
        assert not plays(api, 5)
        assert await api.wait_until(lambda: offered(api, 6), 15), texts(api, phone(6))
    finally:
        await bot.stop()
