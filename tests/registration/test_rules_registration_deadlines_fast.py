"""docs/rules.md "Registration window", "Unpaid entries that lapse", "Withdrawals and refunds"
and the waiting list, tested on the rules engine alone (the bot-level tests are in
test_rules_registration_deadlines.py). Every expected value is worked out from the rule.

The contest: one solo category of 2 places, members (who answered yes to "member") from
15 February, everyone from 1 March, closed from 20 June, 7 days to pay, refunds of 100 %
until 1 May and 50 % until 1 June."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

from bot.domain.contest import (
    Category,
    Choice,
    Contest,
    Question,
    RefundTier,
    RegistrationRules,
)
from bot.domain.places import (
    Application,
    Place,
    Status,
    allocate,
    lapses_at,
    refund_amount,
    refund_percent,
)
from bot.features.registration.rules import (
    Member,
    closing_warning_at,
    entry_value,
    is_member,
    pay_reminder_at,
    pay_reminder_key,
    registration_window,
)

SECOND = timedelta(seconds=1)
WEEK = timedelta(days=7)


def at(month: int, day: int, hour: int = 0) -> datetime:
    return datetime(2027, month, day, hour, tzinfo=UTC)


SOLO = Category(id="solo", name="Solo", members=1, pieces=500, time_limit=7200, fee=2000,
                slots=(), capacity=2)
RULES = RegistrationRules(
    opens=at(3, 1), closes=at(6, 20), members_open=at(2, 15), members_if=("member",),
    pay_within=WEEK,
    refunds=(RefundTier(at(5, 1), 100), RefundTier(at(6, 1), 50)))
CONTEST = Contest(name="Deadlines", date=date(2027, 7, 3), timezone="UTC", categories=(SOLO,),
                  registration=RULES, questions=(Question("member", {"en": "Member?"}),
                                                 Question("club", {"en": "Club?"})))


def rules(**changes: object) -> Contest:
    return replace(CONTEST, registration=replace(RULES, **changes))  # type: ignore[arg-type]


def solo(number: int, registered: datetime, **fields: object) -> Application:
    return replace(Application(number, "solo", False, registered), **fields)  # type: ignore


MEMBER = Member("Ana", answers=frozenset({"member"}))
CLUB = Member("Bea", answers=frozenset({"club"}))  # answered yes to another question
NOBODY = Member("Carl")


# --- the registration window ---------------------------------------------------------------


def test_members_register_from_members_open_and_everyone_from_opens():
    before = at(2, 15) - SECOND
    assert registration_window(CONTEST, before, [MEMBER]) == "not_open_yet"
    assert registration_window(CONTEST, before, [NOBODY]) == "not_open_yet"
    assert registration_window(CONTEST, before) == "not_open_yet"
    members_day = at(2, 15)  # inclusive
    assert registration_window(CONTEST, members_day, [MEMBER]) is None
    assert registration_window(CONTEST, members_day, [NOBODY, MEMBER]) is None  # one is enough
    assert registration_window(CONTEST, members_day, [CLUB]) == "members_only"
    assert registration_window(CONTEST, members_day, [NOBODY]) == "members_only"
    assert registration_window(CONTEST, members_day, []) == "members_only"
    # the entry not known yet (the start of the conversation): open to it, as to members
    assert registration_window(CONTEST, members_day) is None
    assert registration_window(CONTEST, at(3, 1) - SECOND, [NOBODY]) == "members_only"
    assert registration_window(CONTEST, at(3, 1), [NOBODY]) is None  # opens: inclusive


def test_registration_closes_at_the_closing_moment_itself():
    assert registration_window(CONTEST, at(6, 20) - SECOND, [NOBODY]) is None
    assert registration_window(CONTEST, at(6, 20) - SECOND, [MEMBER]) is None
    assert registration_window(CONTEST, at(6, 20), [NOBODY]) == "closed"
    assert registration_window(CONTEST, at(6, 20), [MEMBER]) == "closed"
    assert registration_window(CONTEST, at(6, 20)) == "closed"


def test_without_members_open_members_wait_for_the_opening_too():
    contest = rules(members_open=None)
    assert registration_window(contest, at(2, 20), [MEMBER]) == "not_open_yet"
    assert registration_window(contest, at(2, 20)) == "not_open_yet"
    assert registration_window(contest, at(3, 1), [MEMBER]) is None


def test_without_opening_or_closing_registration_is_always_open():
    contest = rules(opens=None, closes=None, members_open=None)
    assert registration_window(contest, at(1, 1), [NOBODY]) is None
    assert registration_window(contest, at(12, 31), [NOBODY]) is None
    only_closes = rules(opens=None, members_open=None)
    assert registration_window(only_closes, at(1, 1), [NOBODY]) is None
    assert registration_window(only_closes, at(6, 20), [NOBODY]) == "closed"


def test_a_member_is_who_answered_yes_to_a_members_if_question():
    assert is_member(CONTEST, [MEMBER])
    assert is_member(CONTEST, [NOBODY, MEMBER])
    assert not is_member(CONTEST, [CLUB, NOBODY])
    assert not is_member(CONTEST, [])
    assert not is_member(rules(members_if=()), [MEMBER])


# --- refunds -------------------------------------------------------------------------------


def test_refund_tiers_the_first_still_ahead_applies_then_nothing():
    assert refund_percent(CONTEST, at(3, 10)) == 100
    assert refund_percent(CONTEST, at(5, 1) - SECOND) == 100
    assert refund_percent(CONTEST, at(5, 1)) == 50  # "until" is the first moment it is over
    assert refund_percent(CONTEST, at(6, 1) - SECOND) == 50
    assert refund_percent(CONTEST, at(6, 1)) == 0
    assert refund_percent(CONTEST, at(7, 1)) == 0


def test_refund_until_a_moment_then_nothing_or_always_in_full():
    billom = rules(refunds=(), withdrawal_refund_until=at(3, 2))
    assert refund_percent(billom, at(3, 2) - SECOND) == 100
    assert refund_percent(billom, at(3, 2)) == 0
    assert refund_percent(billom, at(4, 1)) == 0
    always = rules(refunds=())
    assert refund_percent(always, at(7, 3)) == 100


def test_a_refund_amount_is_rounded_to_the_nearest_cent_half_up():
    assert refund_amount(2000, 50) == 1000
    assert refund_amount(2000, 100) == 2000
    assert refund_amount(2000, 0) == 0
    assert refund_amount(1999, 50) == 1000  # 999.5 cents
    assert refund_amount(1997, 50) == 999  # 998.5 cents
    assert refund_amount(1, 50) == 1  # half a cent
    assert refund_amount(10, 33) == 3  # 3.3 cents
    assert refund_amount(10, 37) == 4  # 3.7 cents
    assert refund_amount(1234, 25) == 309  # 308.5 cents
    assert refund_amount(149, 1) == 1  # 1.49 cents


# --- lapses --------------------------------------------------------------------------------


def test_an_unpaid_entry_lapses_7_days_after_registering():
    t = at(3, 2, 12)
    assert lapses_at(CONTEST, solo(1, t)) == t + WEEK
    assert lapses_at(CONTEST, solo(1, t, paid_at=t + WEEK - SECOND)) is None
    assert lapses_at(CONTEST, solo(1, t, paid_at=t + WEEK)) == t + WEEK  # at it: too late
    assert lapses_at(CONTEST, solo(1, t, paid_at=t + WEEK + SECOND)) == t + WEEK
    assert lapses_at(CONTEST, solo(1, t, withdrawn_at=t + WEEK)) is None  # withdrew first
    assert lapses_at(CONTEST, solo(1, t, withdrawn_at=t + WEEK + SECOND)) == t + WEEK
    assert lapses_at(CONTEST, solo(1, t, preconfirmed=True)) is None  # imported
    assert lapses_at(rules(pay_within=None), solo(1, t)) is None


def test_a_lapse_frees_the_place_for_the_next_in_line_and_refunds_what_was_paid():
    t = at(3, 2, 12)
    paid = t + timedelta(hours=1)
    apps = [solo(1, t), solo(2, t + SECOND, paid_at=paid), solo(3, t + 2 * SECOND, paid_at=paid)]
    before = allocate(CONTEST, apps, t + WEEK - SECOND)
    assert before == {
        1: Place(1, Status.CONFIRMED, confirmed_at=t),
        2: Place(2, Status.CONFIRMED, confirmed_at=t + SECOND),
        3: Place(3, Status.WAITING, 1, refundable=True, refund_percent=100)}
    after = allocate(CONTEST, apps, t + WEEK)
    assert after == {
        1: Place(1, Status.LAPSED, refundable=True, refund_percent=100),
        2: Place(2, Status.CONFIRMED, confirmed_at=t + SECOND),
        3: Place(3, Status.CONFIRMED, confirmed_at=t + WEEK)}


def test_a_late_payment_never_competes_when_payment_is_required():
    contest = rules(payment_required=True)
    t = at(3, 2, 12)
    late = solo(1, t, paid_at=t + WEEK + SECOND)
    assert allocate(contest, [late], t + WEEK - SECOND)[1] == Place(1, Status.PENDING_PAYMENT)
    assert allocate(contest, [late], t + WEEK + 2 * SECOND)[1].status is Status.LAPSED
    on_time = solo(2, t, paid_at=t + WEEK - SECOND)
    assert allocate(contest, [on_time], t + WEEK) == {
        2: Place(2, Status.CONFIRMED, confirmed_at=t + WEEK - SECOND)}



def test_an_entry_paid_at_or_after_its_deadline_takes_no_place_from_later_entries():
    contest = rules(payment_required=True)
    t = at(3, 2, 12)
    later = t + WEEK + timedelta(hours=1)
    apps = [solo(1, t, paid_at=t + WEEK),  # at the deadline: too late
            solo(2, t, paid_at=t + WEEK + SECOND),
            solo(3, later, paid_at=later), solo(4, later + SECOND, paid_at=later + SECOND),
            solo(5, later + 2 * SECOND, paid_at=later + 2 * SECOND)]
    places = allocate(contest, apps, later + timedelta(days=1))
    # 1 and 2 never compete: 3 and 4 hold the two places, 5 waits first in line
    assert {n: (p.status, p.waiting_position) for n, p in places.items()} == {
        1: (Status.LAPSED, None), 2: (Status.LAPSED, None), 3: (Status.CONFIRMED, None),
        4: (Status.CONFIRMED, None), 5: (Status.WAITING, 1)}

# --- withdrawals ---------------------------------------------------------------------------


def test_giving_up_a_place_gets_the_tier_of_its_moment_back():
    t = at(3, 2, 12)
    paid = {"paid_at": t + SECOND}
    apps = [solo(1, t, withdrawn_at=at(4, 1), **paid),
            solo(2, t, withdrawn_at=at(5, 10), **paid),
            solo(3, t + SECOND, **paid),
            solo(4, t + 2 * SECOND, withdrawn_at=at(6, 5), **paid)]
    places = allocate(CONTEST, apps, at(6, 10))
    # 1 and 2 held the two places: 1 gave its up in April (100 %), 2 in May (50 %); 3 took
    # 1's place; 4 took 2's, and gave it up in June (nothing back)
    assert places == {
        1: Place(1, Status.WITHDRAWN, refundable=True, refund_percent=100),
        2: Place(2, Status.WITHDRAWN, refundable=True, refund_percent=50),
        3: Place(3, Status.CONFIRMED, confirmed_at=at(4, 1)),
        4: Place(4, Status.WITHDRAWN, refundable=False, refund_percent=0)}


def test_a_refund_of_1_percent_is_still_a_refund():
    contest = rules(refunds=(RefundTier(at(6, 1), 1),))
    t = at(3, 2, 12)
    places = allocate(contest, [solo(1, t, paid_at=t, withdrawn_at=at(5, 1))], at(5, 2))
    assert places[1] == Place(1, Status.WITHDRAWN, refundable=True, refund_percent=1)


def test_a_withdrawal_from_the_waiting_list_is_refunded_in_full_whenever():
    t = at(3, 2, 12)
    paid = {"paid_at": t + SECOND}
    apps = [solo(1, t, **paid), solo(2, t, **paid),
            solo(3, t + SECOND, withdrawn_at=at(6, 5), **paid),
            solo(4, t + 2 * SECOND, **paid)]
    places = allocate(CONTEST, apps, at(6, 10))
    assert places[3] == Place(3, Status.WITHDRAWN, refundable=True, refund_percent=100)
    assert places[4] == Place(4, Status.WAITING, 1, refundable=True, refund_percent=100)


def test_paid_entries_still_waiting_at_the_closing_are_left_out_when_payment_is_required():
    contest = rules(payment_required=True)
    t = at(3, 2, 12)
    apps = [solo(n, t, paid_at=t + n * SECOND) for n in (1, 2, 3)]
    assert allocate(contest, apps, at(6, 20) - SECOND)[3] == Place(
        3, Status.WAITING, 1, refundable=True, refund_percent=100)
    assert allocate(contest, apps, at(6, 20))[3] == Place(
        3, Status.LEFT_OUT, 1, refundable=True, refund_percent=100)
    # without payment_required, nobody is left out: still waiting
    assert allocate(CONTEST, apps, at(6, 20))[3].status is Status.WAITING


# --- quotas on an answer -------------------------------------------------------------------

COUNTRY = Question("country", {"en": "Country?"}, kind="choice", per="entry",
                   choices=(Choice("ES"), Choice("FR"), Choice("PT", places=2)), quota=1)
QUOTAS = replace(CONTEST, categories=(replace(SOLO, capacity=5),), questions=(COUNTRY,),
                 registration=replace(RULES, pay_within=None))


def from_(number: int, country: str, second: int) -> Application:
    return solo(number, at(3, 2) + second * SECOND, quota_values=(("country", country),))


def test_at_most_the_quota_of_entries_with_one_answer_hold_a_place():
    apps = [from_(1, "ES", 0), from_(2, "ES", 1), from_(3, "FR", 2), from_(4, "PT", 3),
            from_(5, "PT", 4), from_(6, "PT", 5)]
    places = allocate(QUOTAS, apps, at(4, 1))
    # 1 ES per the question's quota; PT's own 2 places come before the question's quota
    assert {n: (p.status, p.waiting_position) for n, p in places.items()} == {
        1: (Status.CONFIRMED, None), 2: (Status.WAITING, 1), 3: (Status.CONFIRMED, None),
        4: (Status.CONFIRMED, None), 5: (Status.CONFIRMED, None), 6: (Status.WAITING, 2)}


def test_a_place_freed_by_an_answer_goes_to_the_first_waiting_with_that_answer():
    apps = [replace(from_(1, "ES", 0), withdrawn_at=at(4, 1)), from_(2, "FR", 1),
            from_(3, "FR", 2), from_(4, "ES", 3), from_(5, "ES", 4)]
    places = allocate(QUOTAS, apps, at(4, 2))
    # 1's ES place goes to 4, the first ES waiting; 3 (FR) is skipped and stays first in
    # line
    assert {n: (p.status, p.waiting_position) for n, p in places.items()} == {
        1: (Status.WITHDRAWN, None), 2: (Status.CONFIRMED, None), 3: (Status.WAITING, 1),
        4: (Status.CONFIRMED, None), 5: (Status.WAITING, 2)}
    assert places[4].confirmed_at == at(4, 1)


# --- an entry's answer -------------------------------------------------------------------


def test_an_entrys_answer_is_its_members_answers_distinct_and_sorted():
    es = Member("Ana", values=(("club", "x"), ("country", "ES")))
    fr = Member("Bea", values=(("country", "FR"),))
    assert entry_value([es], "country") == "ES"
    assert entry_value([fr, es], "country") == "ES/FR"
    assert entry_value([es, es], "country") == "ES"
    assert entry_value([fr, NOBODY], "country") == "FR"
    assert entry_value([NOBODY], "country") is None
    assert entry_value([], "country") is None



def test_an_unpaid_entry_is_reminded_a_day_before_it_lapses_or_a_quarter_of_the_time() -> None:
    lapses = at(3, 9, 12)
    assert pay_reminder_at(lapses, timedelta(days=7)) == lapses - timedelta(days=1)
    assert pay_reminder_at(lapses, timedelta(days=1)) == lapses - timedelta(hours=6)
    assert pay_reminder_at(lapses, timedelta(hours=4)) == lapses - timedelta(hours=1)
    assert pay_reminder_at(lapses, timedelta(hours=3, minutes=59)) is None
    assert pay_reminder_key(3, lapses) == f"pay-remind:3:{int(lapses.timestamp())}"


def test_the_list_before_the_closing_comes_a_day_before_or_a_quarter_of_it() -> None:
    """Issue 47: the organisers' list before registrations close (``closing_warning_at``)."""
    closes = datetime(2026, 3, 2, tzinfo=UTC)
    assert closing_warning_at(None, closes) == closes - timedelta(days=1)
    assert closing_warning_at(closes - timedelta(days=30), closes) == closes - timedelta(days=1)
    assert closing_warning_at(closes - timedelta(hours=8), closes) == closes - timedelta(hours=2)
    assert closing_warning_at(closes - timedelta(hours=3), closes) is None  # too short
    assert closing_warning_at(closes - timedelta(hours=4), closes) == closes - timedelta(hours=1)
    assert closing_warning_at(closes - timedelta(days=4), closes) == closes - timedelta(days=1)
