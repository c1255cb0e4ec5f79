"""Probe of issue 51's payments in the chat: money taken and what the bot says it owes back."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from bot.domain.places import Status
from tests.conftest import CASTRILLO
from tests.fakebot import FrozenClock, Harness, Person
from tests.registration.test_payments import (  # noqa: F401
    ADULTS,
    ANA,
    BEA,
    FEE,
    ORGANISER,
    TOKEN,
    clock,
    started,
    status,
)
from tests.registration.test_payments import contest as billom_pay
from tests.registration.test_registration_chat import Who, madrid, paris, register, withdraw


async def castrillo(tmp_path: Path) -> Harness:
    return await Harness(tmp_path, CASTRILLO, organisers=frozenset({ORGANISER.id}),
                         payment_token=TOKEN).start()


async def test_probe_a_payment_landing_after_a_withdrawal_is_owed_back_in_full(
        tmp_path: Path, clock: FrozenClock) -> None:  # noqa: F811
    """Castrillo (a place without paying; withdrawals refunded until 15 April): Ana registers,
    opens the invoice and confirms it (the checkout passes), and meanwhile the entry is
    withdrawn on 16 April; Telegram then takes the money. The docs: "a payment for a place
    that is gone is owed back in full". The bot tells her "0 € will be given back"."""
    h = await castrillo(tmp_path)
    try:
        await register(h, ANA, "adultos", [Who("Ana Uno", "1980-05-17")], madrid(4, 16, 10))
        [s] = await h.app.bot_data["registrations"].statuses(madrid(4, 16, 10), [1])
        fee = s.fee.total
        assert fee > 0 and s.place.status is Status.CONFIRMED
        await withdraw(h, ANA, madrid(4, 16, 10, 2), 1)
        calls = await h.paid(ANA, f"pay:1:{fee}", fee, madrid(4, 16, 10, 3), "ch-late")
        told = [c.text for c in calls if c.chat_id == ANA.id and c.method == "sendMessage"]
        after = (await status(h, 1, madrid(4, 16, 11)))
        assert after.refund == fee, (after.refund, told)
    finally:
        await h.stop()


async def test_probe_a_contest_in_yen_is_invoiced_its_fee_not_a_hundred_times_it(
        tmp_path: Path, clock: FrozenClock) -> None:  # noqa: F811
    """Telegram's amounts are in the currency's smallest unit: a yen has no cents (exp 0 in
    Telegram's currencies.json). Billom's adult pair (fee = 14) in a contest whose currency is
    JPY must be invoiced 14 yen, or the contest file refused; the invoice asks 1400 yen."""

    path = billom_pay(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace('currency = "EUR"',
                                                           'currency = "JPY"'),
                    encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id}),
                      payment_token=TOKEN).start()
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        [invoice] = [c for c in h.request.calls if c.method == "sendInvoice"]
        assert invoice.params["currency"] == "JPY"
        prices = json.loads(invoice.params["prices"])
        assert sum(p["amount"] for p in prices) == 14, prices
    finally:
        await h.stop()



async def test_probe_pagado_after_a_chat_payment_keeps_the_charge(
        tmp_path: Path, clock: FrozenClock) -> None:  # noqa: F811
    """Ana paid 14 € in the chat (Telegram's charge ch-1); the organiser, who also took 14 € in
    cash at the desk, records it with /pagado 1. The entry was paid twice: 14 € owed back (or
    at least the organiser warned that the entry was paid in the chat already). Instead the
    cash payment silently replaces the chat payment (its charge is gone from the entry) and
    nothing is owed back."""
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 5), "ch-1")
        await h.send(ORGANISER, "/start", paris(2, 1, 10, 6))
        calls = await h.send(ORGANISER, "/pagado 1", paris(2, 1, 11))
        told = [c.text for c in calls if c.chat_id == ORGANISER.id and c.method == "sendMessage"]
        s = await status(h, 1, paris(2, 1, 12))
        payments = await h.services.store.events(entry=1, kinds=["payment"])
        charges = [e.data.get("charge") for e in payments]
        warned = any("chat" in t.lower() for t in told)
        assert s.refund == FEE or warned, (told, charges, s.refund)
    finally:
        await h.stop()


async def test_probe_pagado_after_a_chat_payment_never_takes_the_place_back(
        tmp_path: Path, clock: FrozenClock) -> None:  # noqa: F811
    """Billom, two places held while paying: Ana (10:00) pays in the chat at 10:05, within her
    hold; Bea (10:01) pays at 10:06; Carl (10:02) pays at 10:03 and waits. At 11:00 the
    organiser types /pagado 1 (seeing Ana's payment at the desk): the chat payment is
    replaced by one dated 11:00, after Ana's hold ended, so Ana loses her place to Carl."""
    h = await started(tmp_path)
    try:
        carl = Person(103, "Carl", "en")
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        await register(h, BEA, "adulte", [Who("Bea Dos", "1981-05-17"),
                                          Who("Cy Tres", "1982-05-17")], paris(2, 1, 10, 1))
        await register(h, carl, "adulte", [Who("Carl Uno", "1970-05-17"),
                                           Who("Dan Dos", "1971-05-17")], paris(2, 1, 10, 2))
        await h.paid(carl, f"pay:3:{FEE}", FEE, paris(2, 1, 10, 3), "ch-3")
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 5), "ch-1")
        await h.paid(BEA, f"pay:2:{FEE}", FEE, paris(2, 1, 10, 6), "ch-2")
        assert (await status(h, 1, paris(2, 1, 10, 50))).place.status is Status.CONFIRMED
        await h.send(ORGANISER, "/start", paris(2, 1, 10, 55))
        await h.send(ORGANISER, "/pagado 1", paris(2, 1, 11))
        assert (await status(h, 1, paris(2, 1, 11, 1))).place.status is Status.CONFIRMED
    finally:
        await h.stop()


async def test_probe_my_data_dates_the_registration_in_the_contests_time_zone(
        tmp_path: Path, clock: FrozenClock) -> None:  # noqa: F811
    """Billom (Europe/Paris) on a server whose clock is in UTC: an entry registered at 00:30 on
    2 February, Paris time (23:30 UTC on 1 February), was registered on February 2."""

    was = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        h = await started(tmp_path)
        try:
            await register(h, ANA, "adulte", ADULTS, paris(2, 2, 0, 30))
            calls = await h.send(ANA, "/my_data", paris(2, 2, 1))
            [text] = [c.text for c in calls if c.chat_id == ANA.id
                      and c.method == "sendMessage"]
            assert "registered by you in the chat on February 2, 2012" in text, text
        finally:
            await h.stop()
    finally:
        if was is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = was
        time.tzset()
