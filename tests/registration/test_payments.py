"""Paying in the chat (Telegram Payments), through the real Application over our fake Bot API:
the invoice owed at the end of registration, the pre-checkout query's check, the payment
recorded with Telegram's date once per charge, a payment twice or for a place gone owed back,
the place held while paying and let go unpaid, ``/pagar``.

The contest is Billom's (places by date of payment, a place only once paid) with two places
and ``[payments] hold_minutes = 30``. People write in English: the fragments are the msgids."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import tomllib
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot.domain.places import Status
from bot.features.payments import handlers as pay_handlers
from bot.features.payments.handlers import tell_holds_let_go
from bot.features.payments.settings import unused
from bot.handlers.desk import announce_changes
from bot.services.contest_file import load_contest, parse_contest
from tests.conftest import BILLOM, CASTRILLO
from tests.documents import bot, without_join_codes
from tests.fakebot import Call, FrozenClock, Harness, Person
from tests.registration.test_registration_chat import Who, paris, register, withdraw

ORGANISER = Person(1, "Olga", "en")
ANA = Person(101, "Ana", "en")
BEA = Person(102, "Bea", "en")
CARL = Person(103, "Carl", "en")
TOKEN = "284685063:TEST:provider-token"
ADULTS = [Who("Ana Uno", "1980-05-17"), Who("Bea Dos", "1981-05-17")]
FEE = 1400  # Billom's adult pair, in cents


def contest(tmp_path: Path, hold: int = 30, places: int = 2) -> Path:
    text = BILLOM.read_text(encoding="utf-8").replace("shared_capacity = 30",
                                                      f"shared_capacity = {places}")
    path = tmp_path / "billom-pay.toml"
    path.write_text(text + f"\n[payments]\nhold_minutes = {hold}\n", encoding="utf-8")
    return path


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FrozenClock:
    """The wall clock the pre-checkout's check reads (Telegram gives that query no date)."""
    frozen = FrozenClock(paris(2, 1))
    monkeypatch.setattr(pay_handlers, "CLOCK", frozen)
    return frozen


async def started(tmp_path: Path, token: str = TOKEN, **kw: Any) -> Harness:
    h = Harness(tmp_path, contest(tmp_path, **kw), organisers=frozenset({ORGANISER.id}),
                payment_token=token)
    return await h.start()


def invoices(h: Harness, who: Person) -> list[Call]:
    return [c for c in h.request.calls if c.method == "sendInvoice" and c.chat_id == who.id]


def events(h: Harness, kind: str) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(h.db_path)) as db:
        db.row_factory = sqlite3.Row
        return db.execute("SELECT * FROM events WHERE kind = ? ORDER BY id", (kind,)).fetchall()


async def status(h: Harness, number: int, at: datetime) -> Any:
    [s] = await h.app.bot_data["registrations"].statuses(at, [number])
    return s


async def test_registering_sends_the_invoice_and_holds_the_place(tmp_path: Path,
                                                                  clock: FrozenClock) -> None:
    h = await started(tmp_path)
    try:
        answer = await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        assert ("Entry #1: a place is held for you until February 1, 2012 at 10:30 while you "
                "pay.") in answer
        [invoice] = invoices(h, ANA)
        p = invoice.params
        assert p["payload"] == f"pay:1:{FEE}" and p["currency"] == "EUR"
        assert json.loads(p["prices"]) == [{"label": "Entry fee", "amount": FEE}]
        assert p["provider_token"] == TOKEN  # added as it is sent
        assert p["title"].startswith("Entry #1 · ") and len(p["title"]) <= 32
        with closing(sqlite3.connect(h.db_path)) as db:  # never kept in the database
            assert not db.execute("SELECT 1 FROM outbox WHERE params LIKE ?",
                                  (f"%{TOKEN}%",)).fetchall()
        place = (await status(h, 1, paris(2, 1, 10, 29))).place
        assert place.status is Status.CONFIRMED and place.held_until is not None
    finally:
        await h.stop()


async def test_without_the_token_no_invoice_and_no_pay_command(tmp_path: Path,
                                                               clock: FrozenClock) -> None:
    h = await started(tmp_path, token="")
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        assert invoices(h, ANA) == []
        calls = await h.send(ANA, "/pay", paris(2, 1, 10, 5))
        assert "Payments are not taken in the chat" in calls[-1].text
    finally:
        await h.stop()


async def test_a_payment_is_recorded_once_with_telegrams_date(tmp_path: Path,
                                                              clock: FrozenClock) -> None:
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        clock.instant = paris(2, 1, 10, 10)
        ok = await h.pre_checkout(ANA, f"pay:1:{FEE}", FEE)
        assert ok.params["ok"] in (True, "true", "True")
        paid_at = paris(2, 1, 10, 11)
        calls = await h.paid(ANA, f"pay:1:{FEE}", FEE, paid_at, "ch-1")
        said = [c.text for c in calls if c.method == "sendMessage" and c.chat_id == ANA.id]
        assert any("Payment received for entry #1: 14 €. Thank you!" in t for t in said), said
        [payment] = events(h, "payment")
        assert payment["at"] == payment["value"] == int(paid_at.timestamp())
        data = json.loads(payment["data"])
        assert data["charge"] == "ch-1" and data["amount"] == FEE
        s = await status(h, 1, paris(2, 1, 11))
        assert s.paid_at == paid_at and s.place.status is Status.CONFIRMED
        assert s.place.held_until is None  # paid: held no longer, its own
        # the same message given again (a restart before Telegram heard it was handled)
        again = await h.paid(ANA, f"pay:1:{FEE}", FEE, paid_at, "ch-1")
        assert len(events(h, "payment")) == 1
        assert not [c for c in again if c.method == "sendMessage"]
        # a second pre-checkout for a paid entry: nothing charged
        refused = await h.pre_checkout(ANA, f"pay:1:{FEE}", FEE)
        assert refused.params["ok"] in (False, "false", "False")
        assert "is paid already" in refused.params["error_message"]
    finally:
        await h.stop()


async def test_paid_twice_is_owed_back_in_full(tmp_path: Path, clock: FrozenClock) -> None:
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 5), "ch-1")
        calls = await h.paid(BEA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 6), "ch-2")
        said = [c.text for c in calls if c.chat_id == BEA.id and c.method == "sendMessage"]
        assert any("was paid already, so the 14 € you just paid will be given back" in t
                   for t in said), said
        s = await status(h, 1, paris(2, 1, 11))
        assert s.paid_at == paris(2, 1, 10, 5)  # the first payment stands
        assert s.refund == FEE and s.place.status is Status.CONFIRMED
        listed = (await h.send(ORGANISER, "/inscritos", paris(2, 1, 11)))[-1].text
        assert "#1" in listed
    finally:
        await h.stop()


async def test_the_checkout_refuses_what_can_no_longer_be_paid(tmp_path: Path,
                                                               clock: FrozenClock) -> None:
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        clock.instant = paris(2, 1, 10, 1)
        changed = await h.pre_checkout(ANA, f"pay:1:{FEE - 100}", FEE - 100)
        assert "What entry #1 owes has changed" in changed.params["error_message"]
        other = await h.pre_checkout(ANA, f"pay:1:{FEE}", FEE, currency="USD")
        assert other.params["ok"] in (False, "false", "False")
        foreign = await h.pre_checkout(ANA, "something else", FEE)
        assert "not one of this contest's entries" in foreign.params["error_message"]
        await withdraw(h, ANA, paris(2, 1, 10, 2), 1)
        assert (await status(h, 1, paris(2, 1, 10, 3))).place.status is Status.WITHDRAWN
        clock.instant = paris(2, 1, 10, 3)
        gone = await h.pre_checkout(ANA, f"pay:1:{FEE}", FEE)
        assert "no longer has a place to pay for" in gone.params["error_message"]
        # Telegram charged anyway (the withdrawal came between the check and the payment):
        # recorded, and owed back in full
        calls = await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 4), "ch-late")
        said = [c.text for c in calls if c.chat_id == ANA.id and c.method == "sendMessage"]
        assert any("14 € will be given back to you" in t for t in said), said
        assert (await status(h, 1, paris(2, 1, 11))).refund == FEE
    finally:
        await h.stop()


async def test_a_held_place_unpaid_is_let_go_and_the_payment_then_competes(
        tmp_path: Path, clock: FrozenClock) -> None:
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        await register(h, BEA, "adulte", [Who("Bea Dos", "1981-05-17"),
                                          Who("Cy Tres", "1982-05-17")], paris(2, 1, 10, 1))
        third = await register(h, CARL, "adulte", [Who("Carl Uno", "1970-05-17"),
                                                    Who("Dan Dos", "1971-05-17")],
                               paris(2, 1, 10, 2))
        assert "pending payment" in third  # no free place to hold
        assert (await status(h, 3, paris(2, 1, 10, 3))).place.held_until is None
        await h.paid(BEA, f"pay:2:{FEE}", FEE, paris(2, 1, 10, 20), "ch-2")  # within her hold
        # Ana's hold ends unpaid: her phone is told; Carl pays and takes the place
        ends = paris(2, 1, 10, 30)
        await tell_holds_let_go(h.app, ends)
        await announce_changes(h.app, ends)
        await h.app.bot_data["sender"].settled()
        assert any("the place held for it was let go" in t for t in h.sent(ANA.id))
        assert (await status(h, 1, ends)).place.status is Status.PENDING_PAYMENT
        clock.instant = paris(2, 1, 10, 40)
        await h.paid(CARL, f"pay:3:{FEE}", FEE, paris(2, 1, 10, 40), "ch-3")
        assert (await status(h, 3, paris(2, 1, 10, 41))).place.status is Status.CONFIRMED
        # Ana may still pay: she waits for a place, paid (refunded if none frees up)
        ok = await h.pre_checkout(ANA, f"pay:1:{FEE}", FEE)
        assert ok.params["ok"] in (True, "true", "True")
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 45), "ch-1")
        assert (await status(h, 1, paris(2, 1, 11))).place.status is Status.WAITING
        # told once: a second look at the same moment tells nobody again
        before = len(h.sent(ANA.id))
        await tell_holds_let_go(h.app, paris(2, 1, 12))
        await h.app.bot_data["sender"].settled()
        assert len(h.sent(ANA.id)) == before
    finally:
        await h.stop()


async def test_pay_command_sends_the_invoice_again(tmp_path: Path, clock: FrozenClock) -> None:
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        calls = await h.send(ANA, "/pay", paris(2, 1, 10, 5))
        assert any("Here is the invoice for entry #1" in c.text for c in calls)
        assert len(invoices(h, ANA)) == 2
        calls = await h.send(ANA, "/pay 7", paris(2, 1, 10, 6))
        assert "You don't follow entry 7" in calls[-1].text
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 7), "ch-1")
        calls = await h.send(ANA, "/pay", paris(2, 1, 10, 8))
        assert "None of your entries has anything to pay" in calls[-1].text
        assert len(invoices(h, ANA)) == 2
    finally:
        await h.stop()


async def test_payments_and_holds_travel_in_the_contest_document(tmp_path: Path,
                                                                 clock: FrozenClock) -> None:
    """A place held, a payment in the chat, one paid twice and a withdrawal go into
    ``export document`` and read back (their checks: a payer's payment carries its charge;
    paid twice only after a payment), with the same entries and refunds."""
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        await register(h, BEA, "adulte", [Who("Bea Dos", "1981-05-17"),
                                          Who("Cy Tres", "1982-05-17")], paris(2, 1, 10, 1))
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 5), "ch-1")
        await h.paid(BEA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 6), "ch-2")
        await withdraw(h, ANA, paris(2, 1, 11), 1)
    finally:
        await h.stop()
    env = {**os.environ, "PUZZLEBOT_CONTEST": str(h.contest_file),
           "PUZZLEBOT_DB": str(h.db_path)}
    path = tmp_path / "contest.json"
    out = bot(["export", "document", "--out", str(path)], env)
    assert out.returncode == 0, out.stderr
    kinds = [e["kind"] for e in json.loads(path.read_text(encoding="utf-8"))["history"]]
    assert kinds.count("payment") == 2 and kinds.count("hold") == 2
    fresh = {**env, "PUZZLEBOT_DB": str(tmp_path / "fresh.sqlite3")}
    loaded = bot(["import", "document", str(path)], fresh)
    assert loaded.returncode == 0, loaded.stderr
    before, after = bot(["export", "entries"], env), bot(["export", "entries"], fresh)
    assert without_join_codes(before.stdout)[0] == without_join_codes(after.stdout)[0]


async def test_withdrawing_says_first_what_would_be_given_back(tmp_path: Path,
                                                               clock: FrozenClock) -> None:
    h = await started(tmp_path)
    try:
        await register(h, ANA, "adulte", ADULTS, paris(2, 1, 10))
        unpaid = [c.text for c in await h.send(ANA, "/withdraw 1", paris(2, 1, 10, 1))
                  if c.method == "sendMessage"]
        assert unpaid == ["Withdraw entry #1 (Ana Uno / Bea Dos)? This can't be undone."]
        await h.paid(ANA, f"pay:1:{FEE}", FEE, paris(2, 1, 10, 5), "ch-1")
        asked = [c.text for c in await h.send(ANA, "/withdraw 1", paris(2, 1, 10, 6))
                 if c.method == "sendMessage"]
        assert asked == ["Withdraw entry #1 (Ana Uno / Bea Dos)? This can't be undone.\n"
                         "Under the contest's rules, withdrawing now gives you back 14 € of "
                         "the 14 € paid."], asked
        # after Billom's refund deadline (registrations' closing): nothing back
        late = [c.text for c in await h.send(ANA, "/withdraw 1", paris(3, 5))
                if c.method == "sendMessage"]
        assert "withdrawing now gives nothing back of the 14 € paid" in late[0], late
        assert (await status(h, 1, paris(3, 6))).place.status is Status.CONFIRMED  # asked only
    finally:
        await h.stop()


def test_settings_the_bot_cannot_use_are_said() -> None:
    """A token without [payments], [payments] without a token, a hold where places are taken
    at registration: each said at start (the log), never silently ignored."""
    castrillo = load_contest(CASTRILLO)  # [payments] with hold_minutes = 0, no payment_required
    assert unused(castrillo, True) == []
    assert ["PUZZLEBOT_PAYMENT_TOKEN is not set" in line for line in unused(castrillo, False)] \
        == [True]
    billom = load_contest(BILLOM)  # no [payments]
    assert unused(billom, False) == []
    assert "has no [payments] table" in unused(billom, True)[0]
    held = parse_contest(tomllib.loads(CASTRILLO.read_text(encoding="utf-8").replace(
        "hold_minutes = 0", "hold_minutes = 20")), "x.toml")
    assert any("hold_minutes = 20 holds nothing" in line for line in unused(held, True))


async def test_a_token_without_payments_is_logged_at_start(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    h = Harness(tmp_path, BILLOM, organisers=frozenset({ORGANISER.id}), payment_token=TOKEN)
    with caplog.at_level(logging.WARNING):
        await h.start()
    try:
        assert any("has no [payments] table" in r.getMessage() for r in caplog.records)
        assert TOKEN not in caplog.text  # the token itself is never written
    finally:
        await h.stop()
