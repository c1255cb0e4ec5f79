"""A place offered from the waiting list, end to end (issue 51): the real ``python -m bot run``
against the fake Bot API over HTTP. The offer reaches the next in line with its buttons; the
bot is killed (SIGKILL); the person accepts while it is down, before the deadline; the bot
starts again after the deadline. The acceptance counts (Telegram's order says it came in
time), is recorded once, and the place is not passed on."""

from __future__ import annotations

import sqlite3
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.rehearsal.fakeapi import FakeBotAPI
from bot.support.wallclock import ENV as CLOCK_ENV
from bot.support.wallclock import WallClock
from tests.conftest import CASTRILLO
from tests.e2e import PACE, BotProcess, Phone, register, say, sent_to, tap

MADRID = ZoneInfo("Europe/Madrid")
ANA = Phone(301, "Ana")
BEA = Phone(302, "Bea")
KID = [False, False]  # Castrillo's two questions, each member: not a member, not resident


def madrid(hour: int, minute: int = 0) -> datetime:
    return datetime(2023, 3, 1, hour, minute, tzinfo=MADRID)


def contest(tmp_path: Path) -> Path:
    """Castrillo with one place in Infantil A, and a place freed offered for an hour."""
    text = CASTRILLO.read_text(encoding="utf-8").replace("capacity = 10", "capacity = 1", 1)
    path = tmp_path / "castrillo-offers.toml"
    path.write_text(text + "\n[waiting_list]\noffer_hours = 1\n", encoding="utf-8")
    return path


def clock_at(moment: datetime) -> dict[str, str]:
    return {CLOCK_ENV: WallClock(moment, time.time(), 1.0, PACE).encode()}


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


async def test_an_offer_accepted_while_the_bot_was_down_counts_after_its_deadline(
        api: FakeBotAPI, tmp_path: Path) -> None:
    db = tmp_path / "offers.sqlite3"
    bot = BotProcess(api, db, contest(tmp_path))
    await bot.start(**clock_at(madrid(10)))
    try:
        first, _, _ = await register(api, ANA, "infantil-a", [("Ana Kid", "2018", KID)],
                                     madrid(10), (0, 0))
        second, line, _ = await register(api, BEA, "infantil-a", [("Bea Kid", "2018", KID)],
                                         madrid(10), (0, 0))
        assert (first, second) == (1, 2) and "waiting list" in line, line
        await say(api, ANA, "/withdraw 1", madrid(10, 1))
        yes = next(d for c in sent_to(api, ANA.id) for _, d in c.buttons()
                   if d.startswith("baja:y:1:"))
        await tap(api, ANA, yes, madrid(10, 1))
        assert await api.wait_until(lambda: any(
            d == "offer:yes:2" for c in sent_to(api, BEA.id) for _, d in c.buttons()), 15)
        [offer] = [c for c in sent_to(api, BEA.id)
                   if ("Accept the place", "offer:yes:2") in c.buttons()]
        assert "It is yours if you accept it by" in offer.text, offer.text
        await api.settle()
        await bot.kill()
        # Bea accepts while the bot is down, on the offer shown at 10:01 (deadline 11:01)
        update = api.press(BEA.user(), "offer:yes:2", madrid(10, 1))
        await bot.start(**clock_at(madrid(12)))  # after the deadline
        assert await api.wait_until(lambda: api.confirmed_update() >= update, 20)
        assert await api.wait_until(lambda: any(
            "Entry #2: place accepted" in c.text for c in sent_to(api, BEA.id)), 15)
        await api.settle()
        assert not any("not accepted in time" in c.text for c in sent_to(api, BEA.id))
        assert len(rows(db, "SELECT id FROM events WHERE kind = 'accept'")) == 1
        assert not api.violations, api.violations
    finally:
        await bot.stop()
