"""RULES.md section 1: categories, eligibility, fees, meals, places, waiting list."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import Contest
from bot.domain.places import Application, Status, allocate
from bot.features.registration.rules import (
    Member,
    check_entry,
    check_members,
    fee,
    is_local,
    meal_total,
    registration_window,
)

MADRID = ZoneInfo("Europe/Madrid")
PARIS = ZoneInfo("Europe/Paris")
MEMBER = frozenset({"aepuzz_member"})
RESIDENT = frozenset({"resident"})
BOTH = MEMBER | RESIDENT


def kid(year: int, answers: frozenset[str] = frozenset()) -> Member:
    return Member("Kid", born_year=year, answers=answers)


# --- eligibility -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "category,year,ok",
    [("infantil-a", 2017, True), ("infantil-a", 2019, True), ("infantil-a", 2016, False),
     ("infantil-a", 2020, False), ("infantil-b", 2014, True), ("infantil-b", 2012, False),
     ("infantil-c", 2011, True), ("infantil-c", 2013, True), ("infantil-c", 2010, False),
     ("adultos", 2010, True), ("adultos", 1950, True), ("adultos", 2011, False)],
)
def test_rule_castrillo_checks_birth_years(castrillo: Contest, category, year, ok):
    cat = castrillo.category(category)
    assert (check_entry(cat, [kid(year)], castrillo.date) is None) is ok


def test_rule_ineligible_member_is_told_why(castrillo: Contest):
    cat = castrillo.category("infantil-b")
    problem = check_members(cat, [kid(2012)], castrillo.date)
    assert problem is not None and problem.reason == "requirements"
    assert problem.born_year == 2012
    assert [(s.born_from, s.born_to) for s in problem.needs] == [(2014, 2016)]


def test_rule_castrillo_pair_needs_at_least_one_born_2010_or_earlier(castrillo: Contest):
    cat = castrillo.category("parejas")
    day = castrillo.date
    assert check_entry(cat, [kid(1980), kid(2015)], day) is None
    assert check_entry(cat, [kid(2015), kid(1980)], day) is None
    assert check_entry(cat, [kid(1980), kid(1985)], day) is None
    problem = check_entry(cat, [kid(2015), kid(2016)], day)
    assert problem is not None and problem.member == 1
    assert [s.born_to for s in problem.needs] == [2010]


def test_rule_entry_must_have_the_category_size(castrillo: Contest):
    cat = castrillo.category("parejas")
    assert check_entry(cat, [kid(1980)], castrillo.date).reason == "missing_members"
    assert check_members(cat, [kid(1980)] * 3, castrillo.date).reason == "too_many"


def born(y: int, m: int, d: int) -> Member:
    return Member("X", born=date(y, m, d))


def test_rule_billom_checks_age_on_the_contest_day(billom: Contest):
    junior = billom.category("junior")
    day = billom.date  # 10 March 2012
    # 12th birthday on the contest day: no longer under 12
    assert check_entry(junior, [born(2000, 3, 10), born(2003, 1, 1)], day) is not None
    # 12th birthday the day after: still 11
    assert check_entry(junior, [born(2000, 3, 11), born(2003, 1, 1)], day) is None


def test_rule_billom_mixte_is_a_child_under_12_and_an_adult(billom: Contest):
    mixte = billom.category("mixte")
    day = billom.date
    assert check_entry(mixte, [born(1975, 5, 5), born(2004, 6, 1)], day) is None
    assert check_entry(mixte, [born(2004, 6, 1), born(1975, 5, 5)], day) is None
    teen = check_entry(mixte, [born(1975, 5, 5), born(1996, 6, 1)], day)  # 15: neither
    assert teen is not None and teen.member == 1 and teen.age == 15
    assert check_entry(mixte, [born(2004, 6, 1), born(2003, 6, 1)], day) is not None


def test_rule_billom_adult_and_expert_need_12_or_older(billom: Contest):
    for cid in ("adulte", "expert"):
        cat = billom.category(cid)
        assert check_entry(cat, [born(2000, 3, 10), born(1990, 1, 1)], billom.date) is None
        assert check_entry(cat, [born(2000, 3, 11), born(1990, 1, 1)], billom.date) is not None


def test_age_check_needs_a_full_birth_date(billom: Contest):
    problem = check_members(billom.category("adulte"), [kid(1990)], billom.date)
    assert problem is not None and problem.reason == "birth_date_needed"


# --- fees and meals --------------------------------------------------------------------------


def test_rule_castrillo_discount_5_per_member_or_resident(castrillo: Contest):
    adultos = castrillo.category("adultos")
    assert fee(castrillo, adultos, [kid(1980)]).total == 1500
    assert fee(castrillo, adultos, [kid(1980, MEMBER)]).total == 1000
    assert fee(castrillo, adultos, [kid(1980, RESIDENT)]).total == 1000


def test_rule_castrillo_one_discount_per_person_even_if_both_apply(castrillo: Contest):
    infantil = castrillo.category("infantil-a")
    assert fee(castrillo, infantil, [kid(2018, BOTH)]).total == 500


def test_rule_pair_with_one_local_and_one_member_pays_10(castrillo: Contest):
    parejas = castrillo.category("parejas")
    f = fee(castrillo, parejas, [kid(1980, RESIDENT), kid(1982, MEMBER)])
    assert (f.entry, f.discount, f.total) == (2000, 1000, 1000)


def test_rule_pair_whose_single_member_is_both_pays_15(castrillo: Contest):
    parejas = castrillo.category("parejas")
    assert fee(castrillo, parejas, [kid(1980, BOTH), kid(1982)]).total == 1500


def test_rule_meal_12_per_adult_10_per_child_added_to_total(castrillo: Contest):
    parejas = castrillo.category("parejas")
    f = fee(castrillo, parejas, [kid(1980), kid(2015)], meal_adults=2, meal_children=1)
    assert f.meal == 3400
    assert f.total == 2000 + 3400
    assert meal_total(castrillo, 0, 0) == 0


def test_billom_fees_per_category(billom: Contest):
    team = [born(1980, 1, 1), born(1982, 1, 1)]
    fees = {c.id: fee(billom, c, team).total for c in billom.categories}
    assert fees == {"junior": 1000, "mixte": 1200, "adulte": 1400, "expert": 1600}


def test_local_entry_has_a_registered_resident(castrillo: Contest):
    assert is_local(castrillo, [kid(1980), kid(1990, RESIDENT)])
    assert not is_local(castrillo, [kid(1980, MEMBER), kid(1990)])


# --- places ----------------------------------------------------------------------------------


def pairs(start: int, count: int, when: datetime, local: bool, step=timedelta(minutes=1)):
    return [
        Application(start + i, "parejas", local, when + i * step) for i in range(count)
    ]


def test_rule_castrillo_41st_non_local_pair_waits_before_release(castrillo: Contest):
    t0 = datetime(2023, 3, 1, 10, 0, tzinfo=MADRID)
    apps = pairs(1, 41, t0, local=False)
    places = allocate(castrillo, apps, datetime(2023, 4, 1, tzinfo=MADRID))
    assert sum(p.status is Status.CONFIRMED for p in places.values()) == 40
    assert places[41].status is Status.WAITING and places[41].waiting_position == 1


def test_rule_local_pairs_take_the_reserved_places_before_release(castrillo: Contest):
    t0 = datetime(2023, 3, 1, 10, 0, tzinfo=MADRID)
    apps = pairs(1, 41, t0, local=False) + pairs(100, 11, t0 + timedelta(days=2), local=True)
    places = allocate(castrillo, apps, datetime(2023, 4, 1, tzinfo=MADRID))
    assert all(places[n].status is Status.CONFIRMED for n in range(100, 110))
    assert places[110].status is Status.WAITING  # 50 taken: the 11th local pair waits too
    assert places[41].waiting_position == 1 and places[110].waiting_position == 2


def test_rule_after_release_all_50_places_are_open_to_anyone(castrillo: Contest):
    t0 = datetime(2023, 3, 1, 10, 0, tzinfo=MADRID)
    apps = pairs(1, 41, t0, local=False)
    before = allocate(castrillo, apps, datetime(2023, 4, 14, 23, 59, tzinfo=MADRID))
    assert before[41].status is Status.WAITING
    after = allocate(castrillo, apps, datetime(2023, 4, 15, 0, 0, tzinfo=MADRID))
    assert after[41].status is Status.CONFIRMED  # promoted at the release moment
    late = pairs(42, 1, datetime(2023, 4, 16, tzinfo=MADRID), local=False)
    assert allocate(castrillo, apps + late, datetime(2023, 4, 17, tzinfo=MADRID))[42].status \
        is Status.CONFIRMED


def test_rule_full_category_puts_entries_on_a_waiting_list_promoted_in_order(castrillo: Contest):
    t0 = datetime(2023, 3, 1, 10, 0, tzinfo=MADRID)
    apps = [Application(i, "infantil-a", False, t0 + timedelta(minutes=i)) for i in range(1, 13)]
    places = allocate(castrillo, apps, t0 + timedelta(days=1))
    assert [places[n].status for n in (10, 11, 12)] == [
        Status.CONFIRMED, Status.WAITING, Status.WAITING]
    assert (places[11].waiting_position, places[12].waiting_position) == (1, 2)
    apps[2] = Application(3, "infantil-a", False, apps[2].registered_at,
                          withdrawn_at=t0 + timedelta(days=2))
    places = allocate(castrillo, apps, t0 + timedelta(days=3))
    assert places[3].status is Status.WITHDRAWN
    assert places[11].status is Status.CONFIRMED
    assert places[12].waiting_position == 1


def test_rule_freed_reserved_place_goes_to_first_waiting_entry_that_fits(castrillo: Contest):
    t0 = datetime(2023, 3, 1, 10, 0, tzinfo=MADRID)
    apps = pairs(1, 41, t0, local=False) + pairs(100, 10, t0 + timedelta(days=1), local=True)
    apps.append(Application(200, "parejas", True, t0 + timedelta(days=2)))  # local, waits
    withdrawn = Application(100, "parejas", True, apps[41].registered_at,
                            withdrawn_at=t0 + timedelta(days=3))
    apps[41] = withdrawn
    places = allocate(castrillo, apps, t0 + timedelta(days=4))
    assert places[41].status is Status.WAITING  # non-local can't use a reserved place
    assert places[200].status is Status.CONFIRMED


def test_confirmed_place_is_never_taken_back_at_release(castrillo: Contest):
    t0 = datetime(2023, 3, 1, 10, 0, tzinfo=MADRID)
    apps = pairs(1, 41, t0, local=False) + pairs(100, 10, t0 + timedelta(days=1), local=True)
    places = allocate(castrillo, apps, datetime(2023, 4, 20, tzinfo=MADRID))
    assert all(places[n].status is Status.CONFIRMED for n in range(100, 110))
    assert places[41].status is Status.WAITING


def paris(y, m, d, h=12):
    return datetime(y, m, d, h, tzinfo=PARIS)


def test_rule_billom_registration_window(billom: Contest):
    assert registration_window(billom, paris(2012, 1, 22, 23)) == "not_open_yet"
    assert registration_window(billom, datetime(2012, 1, 23, 0, 0, tzinfo=PARIS)) is None
    assert registration_window(billom, paris(2012, 3, 1, 23)) is None
    assert registration_window(billom, datetime(2012, 3, 2, 0, 0, tzinfo=PARIS)) == "closed"


def test_rule_billom_confirmed_only_once_paid(billom: Contest):
    apps = [Application(1, "adulte", False, paris(2012, 1, 25))]
    assert allocate(billom, apps, paris(2012, 2, 1))[1].status is Status.PENDING_PAYMENT
    apps = [Application(1, "adulte", False, paris(2012, 1, 25), paid_at=paris(2012, 1, 30))]
    assert allocate(billom, apps, paris(2012, 2, 1))[1].status is Status.CONFIRMED


def test_rule_billom_31st_paying_team_by_payment_date_then_registration(billom: Contest):
    cats = ["junior", "mixte", "adulte", "expert"]
    apps = []
    for i in range(1, 32):
        # team 1 registered first but pays last; teams 30 and 31 pay on the same day
        registered = paris(2012, 1, 24) + timedelta(hours=i)
        paid = paris(2012, 2, 1) + timedelta(hours=min(i, 30))
        if i == 1:
            paid = paris(2012, 2, 28)
        apps.append(Application(i, cats[i % 4], False, registered, paid_at=paid))
    before_close = allocate(billom, apps, paris(2012, 3, 1))
    assert sum(p.status is Status.CONFIRMED for p in before_close.values()) == 30
    assert before_close[1].status is Status.WAITING  # paid last
    closed = allocate(billom, apps, paris(2012, 3, 5))
    assert closed[1].status is Status.LEFT_OUT and closed[1].refundable


def test_rule_billom_same_payment_date_goes_by_registration_date(billom: Contest):
    apps = [
        Application(i, "expert", False, paris(2012, 1, 24) + timedelta(hours=i),
                    paid_at=paris(2012, 2, 1, 0))
        for i in range(1, 32)
    ]
    places = allocate(billom, apps, paris(2012, 3, 5))
    assert places[31].status is Status.LEFT_OUT
    assert all(places[i].status is Status.CONFIRMED for i in range(1, 31))


def test_rule_billom_left_out_team_promoted_when_a_place_frees(billom: Contest):
    apps = [
        Application(i, "adulte", False, paris(2012, 1, 24) + timedelta(hours=i),
                    paid_at=paris(2012, 2, 1) + timedelta(hours=i))
        for i in range(1, 32)
    ]
    apps[4] = Application(5, "adulte", False, apps[4].registered_at, apps[4].paid_at,
                          withdrawn_at=paris(2012, 3, 5))
    places = allocate(billom, apps, paris(2012, 3, 6))
    assert places[31].status is Status.CONFIRMED
    assert places[5].status is Status.WITHDRAWN


def test_rule_billom_withdrawal_after_closing_not_refunded(billom: Contest):
    base = Application(1, "adulte", False, paris(2012, 1, 24), paid_at=paris(2012, 1, 25))
    early = Application(1, "adulte", False, base.registered_at, base.paid_at,
                        withdrawn_at=paris(2012, 2, 20))
    late = Application(1, "adulte", False, base.registered_at, base.paid_at,
                       withdrawn_at=paris(2012, 3, 5))
    assert allocate(billom, [early], paris(2012, 3, 6))[1].refundable
    assert not allocate(billom, [late], paris(2012, 3, 6))[1].refundable


def test_withdrawal_from_the_waiting_list_is_refunded(castrillo: Contest):
    t0 = datetime(2023, 3, 1, 10, 0, tzinfo=MADRID)
    apps = [Application(i, "infantil-a", False, t0 + timedelta(minutes=i)) for i in range(1, 12)]
    apps[10] = Application(11, "infantil-a", False, apps[10].registered_at,
                           withdrawn_at=datetime(2023, 4, 20, tzinfo=MADRID))
    places = allocate(castrillo, apps, datetime(2023, 4, 21, tzinfo=MADRID))
    assert places[11].status is Status.WITHDRAWN and places[11].refundable


def test_billom_shared_capacity_spans_categories(billom: Contest):
    apps = [
        Application(i, ["junior", "expert"][i % 2], False, paris(2012, 1, 24) + timedelta(hours=i),
                    paid_at=paris(2012, 2, 1) + timedelta(hours=i))
        for i in range(1, 32)
    ]
    places = allocate(billom, apps, paris(2012, 2, 20))
    assert places[31].status is Status.WAITING and places[31].waiting_position == 1


def test_imported_entries_hold_their_place_before_new_registrations(billom: Contest):
    imported = [Application(i, "adulte", False, paris(2012, 1, 20), preconfirmed=True)
                for i in range(1, 30)]
    chat = [Application(100 + i, "adulte", False, paris(2012, 1, 25) + timedelta(hours=i),
                        paid_at=paris(2012, 1, 26) + timedelta(hours=i)) for i in range(2)]
    places = allocate(billom, imported + chat, paris(2012, 2, 1))
    assert all(places[i].status is Status.CONFIRMED for i in range(1, 30))
    assert places[100].status is Status.CONFIRMED
    assert places[101].status is Status.WAITING


def test_rule_a_capacity_in_people_counts_members_not_entries(castrillo: Contest):
    """Issue 48: a hall of so many seats for teams of any size. ``people_capacity`` (and
    the contest's ``shared_people_capacity``) hold entries while all their members fit; the
    next whose members don't all fit waits, and a smaller one after it may still fit."""
    cat = castrillo.categories[0]
    contest = replace(castrillo, categories=(replace(cat, people_capacity=7),
                                             *castrillo.categories[1:]))
    t0 = datetime(2023, 3, 1, 10, tzinfo=UTC)
    apps = [Application(n, cat.id, False, t0 + timedelta(minutes=n), people=p)
            for n, p in ((1, 4), (2, 2), (3, 2), (4, 1))]
    places = allocate(contest, apps, t0 + timedelta(hours=1))
    assert [places[n].status for n in (1, 2, 3, 4)] == [
        Status.CONFIRMED, Status.CONFIRMED, Status.WAITING, Status.CONFIRMED]
    # #2 withdraws: #3's two members now fit, and it moves up
    apps[1] = replace(apps[1], withdrawn_at=t0 + timedelta(minutes=30))
    places = allocate(contest, apps, t0 + timedelta(hours=1))
    assert [places[n].status for n in (1, 3, 4)] == [Status.CONFIRMED] * 3
    # the seats #2 gave back are counted once: 4 + 2 + 1 = 7, so a later team of 3 waits
    apps.append(Application(5, cat.id, False, t0 + timedelta(minutes=40), people=3))
    places = allocate(contest, apps, t0 + timedelta(hours=1))
    assert places[5].status is Status.WAITING
    # a capacity exactly one entry's size takes it
    exact = replace(castrillo, categories=(replace(cat, people_capacity=4),
                                           *castrillo.categories[1:]))
    places = allocate(exact, apps[:1], t0 + timedelta(hours=1))
    assert places[1].status is Status.CONFIRMED
    # the contest's own limit, across categories
    shared = replace(castrillo, registration=replace(castrillo.registration,
                                                     shared_people_capacity=5))
    other = castrillo.categories[1].id
    apps = [Application(1, cat.id, False, t0, people=4),
            Application(2, other, False, t0 + timedelta(minutes=1), people=2)]
    places = allocate(shared, apps, t0 + timedelta(hours=1))
    assert [places[n].status for n in (1, 2)] == [Status.CONFIRMED, Status.WAITING]
    just = replace(castrillo, registration=replace(castrillo.registration,
                                                   shared_people_capacity=4))
    assert allocate(just, apps[:1], t0 + timedelta(hours=1))[1].status is Status.CONFIRMED


def test_rule_a_large_team_takes_only_its_seats_at_the_tables(castrillo: Contest):
    """Issue 48: teams of any size with 4 at the table. A team of 12 (``members`` goes to 30;
    places are matched, so a large team costs little) with ``at_table = 4`` takes 4 of a
    capacity in people."""
    from bot.domain.places import seats
    from bot.features.registration.rules import Member

    cat = replace(castrillo.categories[0], members=12, min_members=2, at_table=4,
                  people_capacity=8, slots=(castrillo.categories[0].slots[0],) * 12)
    contest = replace(castrillo, categories=(cat, *castrillo.categories[1:]))

    class Entry:
        category = cat.id
        members = [Member(f"M{i}", born_year=1990) for i in range(12)]

    assert seats(contest, Entry()) == 4
    Entry.members = Entry.members[:3]
    assert seats(contest, Entry()) == 3
    t0 = datetime(2023, 3, 1, 10, tzinfo=UTC)
    apps = [Application(n, cat.id, False, t0 + timedelta(minutes=n), people=4)
            for n in (1, 2, 3)]
    places = allocate(contest, apps, t0 + timedelta(hours=1))
    assert [places[n].status for n in (1, 2, 3)] == [
        Status.CONFIRMED, Status.CONFIRMED, Status.WAITING]
