"""Paying in the chat end to end (issue 51): the real ``python -m bot run`` with
``PUZZLEBOT_PAYMENT_TOKEN`` against the fake Bot API over HTTP, which checks sendInvoice and
answerPreCheckoutQuery by Telegram's rules (a provider token for a currency, a title of 32
characters at most, a reason with every refusal). A registration gets its invoice with the
provider's token added as it is sent (never in the database); the pre-checkout query is
answered; the bot killed (SIGKILL) before it confirmed the payment's message records it once
after its restart, dated as Telegram dated it, and answers the payer once."""

from __future__ import annotations

import sqlite3
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.rehearsal.fakeapi import FakeBotAPI
from bot.support.wallclock import ENV as CLOCK_ENV
from bot.support.wallclock import WallClock
from tests.conftest import BILLOM
from tests.e2e import PACE, BotProcess, Phone, register, sent_to

PARIS = ZoneInfo("Europe/Paris")
TOKEN = "284685063:TEST:e2e-provider"
ANA = Phone(201, "Ana")
FEE = 1400


def paris(hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime(2012, 2, 1, hour, minute, second, tzinfo=PARIS)


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def contest(tmp_path: Path) -> Path:
    path = tmp_path / "billom-pay.toml"
    path.write_text(BILLOM.read_text(encoding="utf-8") + "\n[payments]\nhold_minutes = 30\n",
                    encoding="utf-8")
    return path


def clock_at(moment: datetime) -> dict[str, str]:
    """The bot's clock from ``moment`` on (Billom's registrations are open), at the tests'
    pace."""
    return {CLOCK_ENV: WallClock(moment, time.time(), 1.0, PACE).encode()}


async def test_invoice_checkout_and_a_payment_recorded_once_across_a_kill(
        api: FakeBotAPI, tmp_path: Path) -> None:
    db = tmp_path / "pay.sqlite3"
    bot = BotProcess(api, db, contest(tmp_path),
                     extra_env={"PUZZLEBOT_PAYMENT_TOKEN": TOKEN})
    await bot.start(**clock_at(paris(10)))
    try:
        number, first, _ = await register(
            api, ANA, "adulte", [("Ana Uno", "1980-05-17", []), ("Bea Dos", "1981-05-17", [])],
            paris(10))
        assert number == 1 and "a place is held for you until" in first, first
        assert await api.wait_until(lambda: any(
            c.method == "sendInvoice" and c.chat_id == ANA.id for c in api.calls), 15)
        [invoice] = [c for c in api.calls if c.method == "sendInvoice"]
        assert invoice.params["provider_token"] == TOKEN
        assert invoice.params["payload"] == f"pay:1:{FEE}"
        assert not rows(db, f"SELECT id FROM outbox WHERE params LIKE '%{TOKEN}%'")
        # the person confirms paying: the bot answers within Telegram's 10 s
        query = api.pre_checkout(ANA.user(), f"pay:1:{FEE}", FEE)
        assert await api.wait_until(lambda: api.checkout_answer(query) is not None, 10)
        answer = api.checkout_answer(query)
        assert answer is not None and str(answer.params["ok"]).lower() == "true"
        # Telegram took the money; the bot is killed before it confirmed the message
        paid_at = paris(10, 3, 7)
        update = api.successful_payment(ANA.user(), f"pay:1:{FEE}", FEE, paid_at, "tg-charge-1")
        await bot.kill()
        await bot.start(**clock_at(paris(10, 5)))
        assert await api.wait_until(lambda: api.confirmed_update() >= update, 20)
        assert await api.wait_until(lambda: any(
            "Payment received for entry #1" in c.text for c in sent_to(api, ANA.id)), 15)
        await api.settle()
        payments = rows(db, "SELECT at, value, json_extract(data, '$.charge') FROM events "
                            "WHERE kind = 'payment'")
        assert len(payments) == 1, payments
        at, value, charge = payments[0]
        assert charge == "tg-charge-1"
        assert abs(value - paid_at.timestamp()) < 1, (value, paid_at.timestamp())
        told = [c.text for c in sent_to(api, ANA.id) if "Payment received" in c.text]
        assert len(told) == 1, told
        assert not api.violations, api.violations
    finally:
        await bot.stop()
