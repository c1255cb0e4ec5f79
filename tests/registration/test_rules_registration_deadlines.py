"""Registration rules real championships use (issue 16, item 6): a payment deadline after
registering (``pay_within_days``: an unpaid entry lapses), an earlier opening for members
(``members_open``, ``members_if``) and refunds that decrease as the contest approaches
(``[[registration.refunds]]``).

The contest (``DEADLINES``) has one solo category of 2 places at 20 €, members from 15 February,
everyone from 1 March, 7 days to pay, refunds of 100 % until 1 May and 50 % until 1 June.
People write in English, so the fragments matched are the msgids.
"""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import Contest
from bot.domain.places import (
    Application,
    Status,
    allocate,
    lapses_at,
    refund_amount,
    refund_percent,
)
from bot.features.registration.day import Registrations
from bot.features.registration.rules import Member, registration_window
from bot.handlers.jobs import pay_reminder_job, registration_job
from bot.services.contest_file import ContestFileError, load_contest
from bot.services.csvio import check_import, read_entries
from bot.services.exports import entry_rows
from bot.services.summary import summary
from bot.storage.store import Store
from tests.config.test_contest_file import edit
from tests.fakebot import Harness
from tests.registration.test_registration_chat import (
    ANA,
    BEA,
    CARL,
    ORGANISER,
    Who,
    add_direct,
    adult,
    data_of,
    enter_member,
    line_of,
    mine,
    one_text,
    open_harness,
    pay_direct,
    register,
    start_entry,
    withdraw,
)

MADRID = ZoneInfo("Europe/Madrid")

DEADLINES = """\
[contest]
name = "Championship registration"
date = 2027-07-03
timezone = "Europe/Madrid"
language = "es"
currency = "EUR"

[registration]
members_open = 2027-02-15T00:00:00
opens = 2027-03-01T00:00:00
closes = 2027-06-20T00:00:00
members_if = ["aepuzz_member"]
pay_within_days = 7

[[registration.refunds]]
until = 2027-05-01T00:00:00
percent = 100

[[registration.refunds]]
until = 2027-06-01T00:00:00
percent = 50

[[questions]]
id = "aepuzz_member"
text = { es = "¿Eres socio/a de Aepuzz?", fr = "Membre d'Aepuzz ?", en = "Aepuzz member?" }

[[categories]]
id = "solo"
name = "Solo"
members = 1
pieces = 500
time_limit = "2:00:00"
capacity = 2
fee = 20
"""

MEMBERS_OPEN = datetime(2027, 2, 15, tzinfo=MADRID)
OPENS = datetime(2027, 3, 1, tzinfo=MADRID)
FULL_REFUND_UNTIL = datetime(2027, 5, 1, tzinfo=MADRID)
HALF_REFUND_UNTIL = datetime(2027, 6, 1, tzinfo=MADRID)
WEEK = timedelta(days=7)
SECOND = timedelta(seconds=1)
MEMBER = frozenset({"aepuzz_member"})


def day(month: int, d: int, hour: int = 12) -> datetime:
    return datetime(2027, month, d, hour, tzinfo=MADRID)


def contest_path(tmp_path: Path, text: str = DEADLINES) -> Path:
    path = tmp_path / "deadlines.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def contest(tmp_path: Path) -> Contest:
    return load_contest(contest_path(tmp_path))


def solo(number: int, registered: datetime, **fields: object) -> Application:
    return replace(Application(number, "solo", False, registered), **fields)  # type: ignore


# --- 1. the payment deadline -----------------------------------------------------------------


def test_an_unpaid_entry_lapses_at_the_deadline_and_the_next_moves_up(contest: Contest):
    t = day(3, 2)
    apps = [solo(1, t), solo(2, t + SECOND, paid_at=t + timedelta(days=1)),
            solo(3, t + 2 * SECOND, paid_at=t + timedelta(days=1))]
    before = allocate(contest, apps, t + WEEK - SECOND)
    assert [before[n].status for n in (1, 2, 3)] == [
        Status.CONFIRMED, Status.CONFIRMED, Status.WAITING]
    at = allocate(contest, apps, t + WEEK)
    assert at[1].status is Status.LAPSED
    assert at[3].status is Status.CONFIRMED and at[3].confirmed_at == t + WEEK
    assert lapses_at(contest, apps[0]) == t + WEEK
    assert lapses_at(contest, apps[1]) is None  # paid in time


def test_a_payment_dated_before_the_deadline_counts_even_recorded_after_it(contest: Contest):
    t = day(3, 2)
    # the payment, dated the day before the deadline, is recorded a month later: the
    # allocation reads the payment's date, so the entry never lapsed
    on_time = [solo(1, t, paid_at=t + WEEK - timedelta(days=1))]
    assert allocate(contest, on_time, t + timedelta(days=30))[1].status is Status.CONFIRMED
    # dated at the deadline itself: too late
    at_deadline = [solo(1, t, paid_at=t + WEEK)]
    assert allocate(contest, at_deadline, t + timedelta(days=30))[1].status is Status.LAPSED


def test_an_entry_on_the_waiting_list_lapses_too_and_the_line_moves_up(contest: Contest):
    t = day(3, 2)
    paid = {"paid_at": t + timedelta(hours=1)}
    apps = [solo(1, t, **paid), solo(2, t + SECOND, **paid),
            solo(3, t + 2 * SECOND),  # waits, never pays
            solo(4, t + timedelta(days=2), **paid)]
    deadline = t + 2 * SECOND + WEEK
    before = allocate(contest, apps, deadline - SECOND)
    assert (before[3].waiting_position, before[4].waiting_position) == (1, 2)
    after = allocate(contest, apps, deadline)
    assert after[3].status is Status.LAPSED and after[3].waiting_position is None
    assert after[4].status is Status.WAITING and after[4].waiting_position == 1
    # a place freeing up later goes to 4, not to the lapsed 3
    apps[0] = replace(apps[0], withdrawn_at=t + timedelta(days=10))
    later = allocate(contest, apps, t + timedelta(days=11))
    assert later[4].status is Status.CONFIRMED and later[3].status is Status.LAPSED


def test_no_lapse_for_a_withdrawal_first_an_import_or_a_contest_without_delay(
        contest: Contest, castrillo: Contest):
    t = day(3, 2)
    gone = solo(1, t, withdrawn_at=t + timedelta(days=3))
    assert lapses_at(contest, gone) is None
    assert allocate(contest, [gone], t + WEEK)[1].status is Status.WITHDRAWN
    imported = solo(2, t, preconfirmed=True)
    assert lapses_at(contest, imported) is None
    assert allocate(contest, [imported], t + WEEK)[2].status is Status.CONFIRMED
    unpaid = Application(1, "adultos", False, datetime(2023, 3, 1, tzinfo=MADRID))
    assert lapses_at(castrillo, unpaid) is None


def test_with_payment_required_a_late_payment_never_competes(contest: Contest):
    required = replace(contest, registration=replace(contest.registration,
                                                     payment_required=True))
    t = day(3, 2)
    apps = [solo(1, t), solo(2, t, paid_at=t + WEEK + SECOND)]
    places = allocate(required, apps, t + timedelta(days=20))
    assert places[1].status is Status.LAPSED and places[2].status is Status.LAPSED
    assert allocate(required, apps, t + WEEK - SECOND)[1].status is Status.PENDING_PAYMENT


# --- 2. members open earlier -----------------------------------------------------------------


def test_members_may_register_from_members_open_everyone_from_opens(contest: Contest):
    member = [Member("Ana", born_year=1980, answers=MEMBER)]
    other = [Member("Bea", born_year=1980)]
    assert registration_window(contest, MEMBERS_OPEN - SECOND, member) == "not_open_yet"
    assert registration_window(contest, MEMBERS_OPEN - SECOND) == "not_open_yet"
    assert registration_window(contest, MEMBERS_OPEN, member) is None
    assert registration_window(contest, MEMBERS_OPEN, other) == "members_only"
    assert registration_window(contest, MEMBERS_OPEN) is None  # the entry is not known yet
    assert registration_window(contest, OPENS - SECOND, other) == "members_only"
    assert registration_window(contest, OPENS, other) is None
    # one member of the entry is enough
    assert registration_window(contest, MEMBERS_OPEN, other + member) is None


# --- 3. refunds that decrease ----------------------------------------------------------------


def test_refund_tiers_at_their_boundaries(contest: Contest):
    assert refund_percent(contest, FULL_REFUND_UNTIL - SECOND) == 100
    assert refund_percent(contest, FULL_REFUND_UNTIL) == 50
    assert refund_percent(contest, HALF_REFUND_UNTIL - SECOND) == 50
    assert refund_percent(contest, HALF_REFUND_UNTIL) == 0
    assert (refund_amount(2000, 50), refund_amount(1999, 50), refund_amount(1001, 33)) == (
        1000, 1000, 330)


def test_a_withdrawal_giving_up_a_place_gets_its_tier_one_waiting_gets_everything(
        contest: Contest):
    t = day(3, 2)
    paid = {"paid_at": t}
    apps = [solo(1, t, withdrawn_at=FULL_REFUND_UNTIL, **paid), solo(2, t, **paid),
            solo(3, t, withdrawn_at=day(4, 1), **paid)]  # third: withdraws while waiting
    places = allocate(contest, apps, day(6, 15))
    assert (places[1].refund_percent, places[1].refundable) == (50, True)
    assert (places[3].status, places[3].refund_percent) == (Status.WITHDRAWN, 100)
    apps[1] = replace(apps[1], withdrawn_at=HALF_REFUND_UNTIL)
    late = allocate(contest, apps, day(6, 15))[2]
    assert (late.status, late.refund_percent, late.refundable) == (Status.WITHDRAWN, 0, False)


def test_withdrawal_refund_until_is_the_simple_case(billom: Contest, castrillo: Contest):
    closes = datetime(2012, 3, 2, tzinfo=ZoneInfo("Europe/Paris"))
    assert (refund_percent(billom, closes - SECOND), refund_percent(billom, closes)) == (100, 0)
    release = datetime(2023, 4, 15, tzinfo=MADRID)
    assert (refund_percent(castrillo, release - SECOND),
            refund_percent(castrillo, release)) == (100, 0)


# --- the contest file ------------------------------------------------------------------------


def test_the_new_keys_are_read_and_described(contest: Contest):
    rules = contest.registration
    assert rules.pay_within == WEEK
    assert (rules.members_open, rules.members_if) == (MEMBERS_OPEN, ("aepuzz_member",))
    assert [(t.until, t.percent) for t in rules.refunds] == [
        (FULL_REFUND_UNTIL, 100), (HALF_REFUND_UNTIL, 50)]
    text = summary(contest)
    assert "entries with a member answering yes to aepuzz_member may register from " \
           "2027-02-15 00:00" in text
    assert "an entry not paid within 7 day(s) of registering lapses" in text
    assert "refunded 100 % until 2027-05-01 00:00, 50 % until 2027-06-01 00:00, then 0 %" \
        in text


def with_(old: str, new: str) -> Callable[[], str]:
    return lambda: edit(DEADLINES, old, new)


TIER_2 = "[[registration.refunds]]\nuntil = 2027-06-01T00:00:00\npercent = 50\n"
ERRORS: dict[str, tuple[str, Callable[[], str], str]] = {
    "pay-within-zero": ("registration.pay_within_days",
                        with_("pay_within_days = 7", "pay_within_days = 0"),
                        "must be at least 1, not 0"),
    "pay-within-text": ("registration.pay_within_days",
                        with_("pay_within_days = 7", 'pay_within_days = "7d"'),
                        "must be a whole number, not the text '7d'"),
    "members-open-alone": ("registration.members_if",
                           with_('members_if = ["aepuzz_member"]\n', ""),
                           "is required with members_open: the ids of the yes/no questions "
                           "that make an entry a member's"),
    "members-if-alone": ("registration.members_open",
                         with_("members_open = 2027-02-15T00:00:00\n", ""),
                         "is required with members_if"),
    "members-open-after-opens": ("registration.members_open",
                                 with_("members_open = 2027-02-15T00:00:00",
                                       "members_open = 2027-03-01T00:00:00"),
                                 "is not before opens"),
    "members-open-without-opens": ("registration.members_open",
                                   with_("opens = 2027-03-01T00:00:00\n", ""),
                                   "needs opens (members may register before everyone else)"),
    "members-if-unknown": ("registration.members_if[1]",
                           with_('members_if = ["aepuzz_member"]', 'members_if = ["club"]'),
                           "names no question: 'club'"),
    "members-if-not-yes-no": ("registration.members_if[1]",
                              with_('en = "Aepuzz member?" }\n',
                                    'en = "Aepuzz member?" }\nper = "entry"\n'),
                              "'aepuzz_member' must be a yes/no question asked of each member "
                              '(kind = "yes_no", per = "member")'),
    "refunds-and-until": ("registration.refunds",
                          with_("pay_within_days = 7\n",
                                "pay_within_days = 7\n"
                                "withdrawal_refund_until = 2027-05-01T00:00:00\n"),
                          "cannot be used with withdrawal_refund_until (100 % until then, the "
                          "simple case of refunds): keep one of them"),
    "refunds-out-of-order": ("registration.refunds[2].until",
                             with_("until = 2027-06-01T00:00:00", "until = 2027-05-01T00:00:00"),
                             "is not after refunds[1].until (2027-05-01 00:00): list the tiers "
                             "in increasing until order"),
    "refunds-percent-above-100": ("registration.refunds[3].percent",
                                   with_("percent = 50", "percent = 100\n"
                                         "[[registration.refunds]]\nuntil = 2027-06-10\n"
                                         "percent = 110"),
                                   "must be at most 100, not 110"),
    "refunds-percent-going-up": ("registration.refunds[2].percent",
                                 with_("percent = 100\n", "percent = 40\n"),
                                 "is more than refunds[1].percent (40): refunds may only "
                                 "decrease as the contest approaches"),
    "refunds-empty": ("registration.refunds",
                      lambda: edit(edit(DEADLINES, TIER_2, ""),
                                   "[[registration.refunds]]\nuntil = 2027-05-01T00:00:00\n"
                                   "percent = 100\n", "refunds = []\n"),
                      "needs at least one table (until, percent)"),
    "refunds-unknown-key": ("registration.refunds[1].amount",
                            with_("percent = 100\n", "percent = 100\namount = 5\n"),
                            "unknown key (the keys here: until, percent)"),
    "refunds-until-missing": ("registration.refunds[2].until",
                              with_("until = 2027-06-01T00:00:00\n", ""), "is required"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_a_bad_registration_key_is_one_clear_error(tmp_path: Path, name: str):
    key, content, problem = ERRORS[name]
    path = contest_path(tmp_path, content())
    with pytest.raises(ContestFileError) as info:
        load_contest(path)
    assert (info.value.key, info.value.problem) == (key, problem)


# --- the import ------------------------------------------------------------------------------


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "x.sqlite3")
    yield s
    await s.close()


async def test_the_import_lets_members_in_from_members_open_and_others_from_opens(
        contest: Contest, store: Store):
    text = ("category,names,born,aepuzz_member,registered_at\n"
            "solo,Ana,1980,yes,2027-02-20T10:00:00\n"   # a member, early: fine
            "solo,Bea,1980,no,2027-02-20T10:00:00\n"    # not a member, early: refused
            "solo,Carl,1980,yes,2027-02-10T10:00:00\n"  # before even members could
            "solo,Dora,1980,no,2027-03-01T00:00:00\n")  # everyone's opening: fine
    lines = read_entries(contest, io.StringIO(text), "in.csv")
    check = await check_import(contest, Registrations(contest, store), lines, day(3, 5))
    early = [p for p in check.problems if "registered_at" in p]
    assert early == [
        "in.csv:3: registered_at 2027-02-20 10:00 is before registration opened for entries "
        "without a member (2027-03-01 00:00, registration.opens; members, a yes to "
        "aepuzz_member (registration.members_if), from 2027-02-15 00:00)",
        "in.csv:4: registered_at 2027-02-10 10:00 is before registration opened for members "
        "(2027-02-15 00:00, registration.members_open)",
    ]


# --- the chat --------------------------------------------------------------------------------


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Harness]:
    h = await open_harness(tmp_path, contest_path(tmp_path))
    await h.send(ORGANISER, "/start", day(2, 1))
    yield h
    await h.stop()


async def test_a_non_member_is_refused_before_opens_a_member_registers(bot: Harness):
    h = bot
    at = day(2, 20)
    await start_entry(h, BEA, "solo", at)
    refused = one_text(await enter_member(h, BEA, Who("Bea", "1980"), at), BEA)
    assert "Not yet: for this entry registrations open on March 1, 2027 at 00:00" in refused
    assert '"Aepuzz member?"' in refused and "from February 15, 2027 at 00:00" in refused
    assert h.buttons(await h.send(BEA, "/mis_inscripciones", at)) == []
    final = await register(h, ANA, "solo", [Who("Ana", "1980", ("aepuzz_member",))], at)
    assert "Entry #1: your place is confirmed." in final
    # before members_open, /inscribir itself says both dates
    early = one_text(await h.send(CARL, "/inscribir", MEMBERS_OPEN - SECOND), CARL)
    assert "Registrations open on March 1, 2027 at 00:00; entries with a member" in early
    assert "from February 15, 2027 at 00:00" in early
    # from opens, the non-member registers
    final = await register(h, BEA, "solo", [Who("Bea", "1980")], OPENS)
    assert "Entry #2: your place is confirmed." in final


async def test_a_withdrawal_is_told_its_refund_and_the_organiser_sees_it(bot: Harness):
    h = bot
    await register(h, ANA, "solo", [Who("Ana", "1980")], day(3, 2))
    await register(h, BEA, "solo", [Who("Bea", "1980")], day(3, 2))
    await register(h, CARL, "solo", [Who("Carl", "1980")], day(3, 2))  # waits, unpaid
    await h.send(ORGANISER, "/pagado 1 2027-03-03", day(3, 4))
    await h.send(ORGANISER, "/pagado 2 2027-03-03", day(3, 4))
    early = await withdraw(h, ANA, FULL_REFUND_UNTIL - SECOND)
    assert "get back 100 % of what you paid: 20 €." in early
    half = await withdraw(h, BEA, FULL_REFUND_UNTIL)
    assert "Entry #2 is withdrawn." in half and "get back 50 % of what you paid: 10 €." in half
    listing = one_text(await h.send(ORGANISER, "/inscritos", day(5, 2)), ORGANISER)
    assert "Refunds due:" in listing
    assert "#1 Ana: 20 € (100 % of 20 €)" in listing and "#2 Bea: 10 € (50 % of 20 €)" in listing
    rows = await entry_rows(h.services.contest, h.services.store,
                            h.app.bot_data["registrations"], day(5, 2))
    table = list(csv.DictReader(io.StringIO("\n".join(",".join(map(str, r)) for r in rows))))
    assert [(r["number"], r["status"], r["refund_amount"]) for r in table] == [
        ("1", "withdrawn", "20.00"), ("2", "withdrawn", "10.00"), ("3", "lapsed", "0.00")]


async def test_an_unpaid_entry_refunded_nothing_is_told_so(bot: Harness):
    h = bot
    await register(h, ANA, "solo", [Who("Ana", "1980")], day(3, 2))
    await h.send(ORGANISER, "/pagado 1 2027-03-03", day(3, 4))
    late = await withdraw(h, ANA, HALF_REFUND_UNTIL)
    assert "this withdrawal is not refunded" in late


async def test_a_lapsed_entry_is_told_and_the_next_in_line_gets_the_place(bot: Harness):
    h = bot
    t = day(3, 2)
    await register(h, ANA, "solo", [Who("Ana", "1980")], t)
    await add_direct(h, 20_001, "solo", [adult("Xavi")], t + SECOND)
    await pay_direct(h, 2, t + SECOND, t + timedelta(days=1))
    waiting = await register(h, BEA, "solo", [Who("Bea", "1980")], t + timedelta(hours=1))
    assert "number 1 on the waiting list" in waiting
    await pay_direct(h, 3, t + timedelta(days=2), t + timedelta(days=2))
    deadline = t + WEEK
    assert h.app.bot_data["jobs_by_name"]["lapse:1"].data["when"] == deadline.timestamp()
    before = len(h.request.calls)
    job = SimpleNamespace(data={"name": "lapse:1", "when": deadline.timestamp()})
    await registration_job(SimpleNamespace(job=job, application=h.app))  # type: ignore
    await h.app.bot_data["sender"].settled()
    calls = h.request.calls[before:]
    told = one_text(calls, ANA)
    assert "Entry #1 has lapsed: it was not paid within 7 days of registering" in told
    assert "register again with /register" in told
    assert "a place freed up" in one_text(calls, BEA)
    assert "lapsed: not paid in time" in line_of(await mine(h, ANA, deadline), 1)
    assert "confirmed" in line_of(await mine(h, BEA, deadline), 3)
    listing = one_text(await h.send(ORGANISER, "/inscritos", deadline), ORGANISER)
    assert "1 lapsed (not paid in time): #1" in listing
    # the lapsed entry can't be withdrawn: it is out already
    calls = await h.send(ANA, "/baja", deadline)
    yes = [d for d in data_of(h, calls) if d.startswith("baja:y:")]
    assert "has lapsed" in one_text(await h.press(ANA, yes[0], deadline), ANA)
    # announced once: the job again says nothing more
    before = len(h.request.calls)
    await registration_job(SimpleNamespace(job=job, application=h.app))  # type: ignore
    await h.app.bot_data["sender"].settled()
    assert h.request.calls[before:] == []


async def test_a_payment_recorded_late_but_dated_in_time_gives_the_place_back(bot: Harness):
    h = bot
    t = day(3, 2)
    await register(h, ANA, "solo", [Who("Ana", "1980")], t)
    deadline = t + WEEK
    job = SimpleNamespace(data={"name": "lapse:1", "when": deadline.timestamp()})
    await registration_job(SimpleNamespace(job=job, application=h.app))  # type: ignore
    await h.app.bot_data["sender"].settled()
    assert "lapsed" in line_of(await mine(h, ANA, deadline), 1)
    # the organiser finds the bank transfer of 5 March and records it on the 12th
    reply = one_text(await h.send(ORGANISER, "/pagado 1 2027-03-05", day(3, 12)), ORGANISER)
    assert "Entry #1: your place is confirmed." in reply
    await h.app.bot_data["sender"].settled()
    assert "Payment received: entry #1 has a confirmed place." in h.sent(ANA.id)[-1]
    assert "confirmed - 20 € (paid)" in line_of(await mine(h, ANA, day(3, 12)), 1)



async def test_an_unpaid_entry_is_reminded_a_day_before_it_lapses(bot: Harness):
    """Seven days to pay: a day before the deadline the entry still unpaid is told again what
    it owes and by when, once, in its phone's language; one paid meanwhile is not (issue 47,
    item 2)."""
    h = bot
    t = day(3, 2)
    await register(h, ANA, "solo", [Who("Ana", "1980")], t)
    await h.send(ANA, "/idioma es", t)
    await register(h, BEA, "solo", [Who("Bea", "1980")], t)
    jobs = h.app.bot_data["jobs_by_name"]
    assert jobs["pay-remind:1"].data["when"] == (t + WEEK - timedelta(days=1)).timestamp()

    async def run(number: int) -> list[Any]:
        before = len(h.request.calls)
        job = SimpleNamespace(data=jobs[f"pay-remind:{number}"].data)
        await pay_reminder_job(SimpleNamespace(job=job, application=h.app))  # type: ignore
        await h.app.bot_data["sender"].settled()
        return h.request.calls[before:]

    await h.send(ORGANISER, "/pagado 2 2027-03-04", day(3, 5))
    assert one_text(await run(1), ANA).splitlines() == [
        "Recordatorio: la inscripción #1 aún no está pagada.", "Por pagar: 20 €",
        "Paga como muy tarde el 9 de marzo de 2027: una inscripción que no esté pagada para "
        "entonces caduca."]
    assert await run(1) == []  # once
    assert await run(2) == []  # paid: nothing to remind
