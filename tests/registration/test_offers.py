"""A waiting list that moves itself (``[waiting_list]``): a freed place is offered to the next
in line, who accepts it within ``offer_hours`` of being told, or it passes to the one after.

First the places as the allocation replays them (pure), then the chat through the real
Application over our fake Bot API: the offer told with its deadline and buttons, accepted by a
button or ``/aceptar_plaza``, a press after the deadline refused, the deadline passing it on,
the button "Give it up" asking as /baja does. The contest is Billom's (a place only once paid,
places by date of payment) with one or two places. People write in English: the fragments are
the msgids."""

from __future__ import annotations

import os
import sqlite3
import tomllib
from contextlib import closing
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.domain.contest import Contest
from bot.domain.places import Application, Status, allocate
from bot.features.waiting_list.rules import OfferRules, deadline
from bot.handlers import desk
from bot.handlers.common import DEADLINE_GRACE
from bot.handlers.desk import announce_changes
from bot.services.contest_file import parse_contest
from tests.conftest import BILLOM
from tests.documents import bot, entries_survive
from tests.fakebot import FrozenClock, Harness, Person
from tests.registration.test_registration_chat import Who, paris, pay_direct, register, withdraw

ORGANISER = Person(1, "Olga", "en")
ANA = Person(101, "Ana", "en")
BEA = Person(102, "Bea", "en")
CARL = Person(103, "Carl", "en")
DORA = Person(104, "Dora", "en")


def billom(places: int = 1, hours: int | None = 24) -> str:
    text = BILLOM.read_text(encoding="utf-8").replace("shared_capacity = 30",
                                                      f"shared_capacity = {places}")
    return text + (f"\n[waiting_list]\noffer_hours = {hours}\n" if hours is not None else "")


def contest(places: int = 1, hours: int | None = 24) -> Contest:
    return parse_contest(tomllib.loads(billom(places, hours)), BILLOM)


def app(number: int, paid: datetime, **kw: object) -> Application:
    return Application(number=number, category="adulte", local=False,
                       registered_at=paris(2, 1, 9), paid_at=paid, **kw)  # type: ignore[arg-type]


# -- the places, replayed -----------------------------------------------------------------------


def test_a_freed_place_is_offered_not_taken_and_held_until_told() -> None:
    c = contest()
    apps = [app(1, paris(2, 1, 10), withdrawn_at=paris(2, 2, 10)), app(2, paris(2, 1, 11)),
            app(3, paris(2, 1, 12))]
    places = allocate(c, apps, paris(2, 5))
    assert places[1].status is Status.WITHDRAWN
    two = places[2]
    assert two.status is Status.CONFIRMED and two.offered and two.offer_until is None
    assert places[3].status is Status.WAITING and places[3].waiting_position == 1
    # without [waiting_list], as before: the next in line takes it at once
    plain = allocate(contest(hours=None), apps, paris(2, 5))
    assert plain[2].status is Status.CONFIRMED and not plain[2].offered


def test_an_offer_not_accepted_by_its_deadline_passes_to_the_next() -> None:
    c = contest()
    told = paris(2, 2, 10, 5)
    until = told + timedelta(hours=24)
    apps = [app(1, paris(2, 1, 10), withdrawn_at=paris(2, 2, 10)),
            app(2, paris(2, 1, 11), offers=((told, until),)), app(3, paris(2, 1, 12))]
    before = allocate(c, apps, until - timedelta(seconds=1))
    assert before[2].offered and before[2].offer_until == until
    after = allocate(c, apps, until)
    assert after[2].status is Status.DECLINED and after[2].refund_percent == 100
    three = after[3]
    assert three.status is Status.CONFIRMED and three.offered and three.offer_until is None
    assert three.confirmed_at == until


def test_accepted_in_time_the_place_is_confirmed_from_then() -> None:
    c = contest()
    until = paris(2, 3, 10)
    apps = [app(1, paris(2, 1, 10), withdrawn_at=paris(2, 2, 10)),
            app(2, paris(2, 1, 11), offers=((paris(2, 2, 10), until),),
                accepted=(paris(2, 2, 20),)),
            app(3, paris(2, 1, 12))]
    places = allocate(c, apps, paris(2, 5))
    assert places[2].status is Status.CONFIRMED and not places[2].offered
    assert places[2].confirmed_at == paris(2, 2, 20)
    assert places[3].status is Status.WAITING
    # before it accepted, still an offer
    assert allocate(c, apps, paris(2, 2, 19))[2].offered
    # accepted at the deadline: too late
    late = [replace(a, accepted=(until,)) if a.number == 2 else a for a in apps]
    assert allocate(c, late, paris(2, 5))[2].status is Status.DECLINED


def test_an_offer_given_up_is_refunded_in_full_and_passes_on() -> None:
    c = replace(contest(), registration=replace(contest().registration,
                                                withdrawal_refund_until=paris(1, 1)))
    apps = [app(1, paris(2, 1, 10), withdrawn_at=paris(2, 2, 10)),
            app(2, paris(2, 1, 11), offers=((paris(2, 2, 10), paris(2, 3)),),
                withdrawn_at=paris(2, 2, 12)),
            app(3, paris(2, 1, 12))]
    places = allocate(c, apps, paris(2, 5))
    assert places[1].refund_percent == 0  # gave up its place, after the refunds' end
    assert places[2].status is Status.WITHDRAWN and places[2].refund_percent == 100
    assert places[3].offered and places[3].confirmed_at == paris(2, 2, 12)


def test_an_offer_ends_at_its_categorys_start_at_the_latest() -> None:
    c = contest()
    rules = OfferRules(48)
    cat = c.category("adulte")
    assert cat is not None
    start = c.start_of(cat)
    assert start is not None
    assert deadline(c, rules, "adulte", start - timedelta(hours=3)) == start
    assert deadline(c, rules, "adulte", paris(2, 1)) == paris(2, 1) + timedelta(hours=48)


# -- in the chat --------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def told_when_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's clock before every message here: an offer is told at its message's moment
    (the later of the two)."""
    monkeypatch.setattr(desk, "CLOCK", FrozenClock(paris(1, 1)))


ADULTS = {ANA.id: [Who("Ana Uno", "1980-05-17"), Who("Bea Dos", "1981-05-17")],
          BEA.id: [Who("Bea Tres", "1982-05-17"), Who("Cy Cuatro", "1983-05-17")],
          CARL.id: [Who("Carl Cinco", "1970-05-17"), Who("Dan Seis", "1971-05-17")],
          DORA.id: [Who("Dora Siete", "1972-05-17"), Who("Eva Ocho", "1973-05-17")]}


async def three_in_line(tmp_path: Path) -> Harness:
    """One place: Ana's pair holds it (paid first), Bea's then Carl's wait (paid after)."""
    path = tmp_path / "billom-offers.toml"
    path.write_text(billom(), encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    for i, who in enumerate((ANA, BEA, CARL)):
        await register(h, who, "adulte", ADULTS[who.id], paris(2, 1, 10, i))
        await pay_direct(h, i + 1, paris(2, 1, 11, i), paris(2, 1, 11, i))
    return h


def offer_events(h: Harness) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(h.db_path)) as db:
        db.row_factory = sqlite3.Row
        return db.execute("SELECT * FROM events WHERE kind IN ('offer', 'accept') "
                          "ORDER BY id").fetchall()


async def test_the_next_in_line_is_told_and_accepts_with_the_button(tmp_path: Path) -> None:
    h = await three_in_line(tmp_path)
    try:
        h.request.calls.clear()
        await withdraw(h, ANA, paris(2, 2, 10), 1)
        [told] = [c for c in h.request.calls if c.chat_id == BEA.id]
        assert "a place has freed up and it is offered to entry #2" in told.text
        assert "February 3, 2012 at 10:00" in told.text  # 24 hours after being told
        data = [d for _, d in h.buttons([told])]
        assert data == ["offer:yes:2", "offer:no:2"]
        # Carl still waits, now first in line
        assert ["offered" not in c.text and "number 1" in c.text
                for c in h.request.calls if c.chat_id == CARL.id] == [True]
        [offer] = offer_events(h)
        assert offer["entry"] == 2 and offer["value"] == int(paris(2, 3, 10).timestamp())

        calls = await h.press(BEA, "offer:yes:2", paris(2, 2, 18))
        text = "\n".join(c.text for c in calls if c.chat_id == BEA.id)
        assert "Entry #2: place accepted. Your place is confirmed." in text
        regs = h.app.bot_data["registrations"]
        [s] = await regs.statuses(paris(2, 3), [2])
        assert s.place.status is Status.CONFIRMED and not s.place.offered
        # the deadline's timer finds nothing to pass on, and nobody is told again
        h.request.calls.clear()
        await announce_changes(h.app, paris(2, 3, 11))
        assert not [c for c in h.request.calls if c.method == "sendMessage"]
        listed = await h.send(BEA, "/mis_inscripciones", paris(2, 3, 12))
        assert "confirmed" in listed[-1].text
    finally:
        await h.stop()


async def test_unanswered_the_offer_passes_on_and_a_late_press_is_refused(
        tmp_path: Path) -> None:
    h = await three_in_line(tmp_path)
    try:
        await withdraw(h, ANA, paris(2, 2, 10), 1)
        mine = await h.send(BEA, "/mis_inscripciones", paris(2, 2, 11))
        assert "place offered: accept it by February 3, 2012 at 10:00" in mine[-1].text
        h.request.calls.clear()
        await announce_changes(h.app, paris(2, 3, 10, 1))  # the deadline's timer
        to_bea = "\n".join(c.text for c in h.request.calls if c.chat_id == BEA.id)
        assert "was not accepted in time" in to_bea and "refunded in full" in to_bea
        [to_carl] = [c for c in h.request.calls if c.chat_id == CARL.id]
        assert "offered to entry #3" in to_carl.text
        assert "February 4, 2012 at 10:01" in to_carl.text  # from when Carl was told
        calls = await h.press(BEA, "offer:yes:2", paris(2, 3, 12))
        assert "could be accepted until February 3, 2012 at 10:00" in calls[-1].text
        assert [e["kind"] for e in offer_events(h)] == ["offer", "offer"]
        # Carl types it instead of pressing
        listed = (await h.send(ORGANISER, "/inscritos", paris(2, 3, 12)))[-1].text
        assert "#3 Carl Cinco / Dan Seis: place offered, to accept by February 4" in listed
        calls = await h.send(CARL, "/accept_place", paris(2, 3, 13))
        assert "Entry #3: place accepted." in calls[-1].text
        listed = (await h.send(ORGANISER, "/inscritos adulte", paris(2, 3, 14)))[-1].text
        assert "#2" in listed  # its refund is listed
    finally:
        await h.stop()


async def test_give_it_up_asks_first_and_then_offers_the_next(tmp_path: Path) -> None:
    h = await three_in_line(tmp_path)
    try:
        await withdraw(h, ANA, paris(2, 2, 10), 1)
        calls = await h.press(BEA, "offer:no:2", paris(2, 2, 12))
        assert "Withdraw entry #2" in calls[-1].text
        assert "gives you back 14 € of the 14 € paid" in calls[-1].text
        yes = [d for _, d in h.buttons(calls) if d.startswith("baja:y:2:")]
        h.request.calls.clear()
        await h.press(BEA, yes[0], paris(2, 2, 12))
        [to_carl] = [c for c in h.request.calls if c.chat_id == CARL.id]
        assert "offered to entry #3" in to_carl.text
        # someone else's offer: refused, nothing recorded
        calls = await h.press(BEA, "offer:yes:3", paris(2, 2, 13))
        assert [e["entry"] for e in offer_events(h) if e["kind"] == "accept"] == []
        nothing = await h.send(BEA, "/accept_place", paris(2, 2, 14))
        assert "no place offered to accept" in nothing[-1].text
    finally:
        await h.stop()


async def test_the_deadline_is_rebuilt_at_start_and_offers_travel_in_the_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped with an offer told: the next start schedules its deadline again (and one run at
    once for what passed while the bot was off). The offer and its acceptance go into
    ``export document`` and read back with the same places."""
    h = await three_in_line(tmp_path)
    try:
        await withdraw(h, ANA, paris(2, 2, 10), 1)
    finally:
        await h.stop()
    monkeypatch.setattr(desk, "CLOCK", FrozenClock(paris(2, 2, 11)))  # started before it
    h = await Harness(tmp_path, h.contest_file, organisers=frozenset({ORGANISER.id})).start()
    try:
        jobs = h.app.bot_data["jobs_by_name"]
        assert {"offer:2", "offers"} <= set(jobs)
        assert jobs["offer:2"].data["when"] == (paris(2, 3, 10) + DEADLINE_GRACE).timestamp()
        await h.press(BEA, "offer:yes:2", paris(2, 2, 11))
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("offer") == 1 and kinds.count("accept") == 1
    env = {**os.environ, "PUZZLEBOT_CONTEST": str(h.contest_file),
           "PUZZLEBOT_DB": str(h.db_path)}
    assert ",confirmed," in bot(["export", "entries"], env).stdout.splitlines()[2]  # accepted
