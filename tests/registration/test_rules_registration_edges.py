"""RULES.md section 1, at the edges: the waiting list, withdrawals, deadlines, meals, members."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.domain.contest import Contest, Slot
from bot.domain.places import Application, Place, Status, allocate
from bot.features.registration.rules import Member, check_entry, check_members, fee, slot_accepts

MADRID = ZoneInfo("Europe/Madrid")
PARIS = ZoneInfo("Europe/Paris")
T0 = datetime(2023, 3, 1, 10, 0, tzinfo=MADRID)
RELEASE = datetime(2023, 4, 15, 0, 0, tzinfo=MADRID)  # reserved places and refunds end
MINUTE = timedelta(minutes=1)


def places_at(contest: Contest, apps: list[Application], now: datetime) -> dict[int, Place]:
    places = allocate(contest, apps, now)
    assert sorted(places) == sorted(a.number for a in apps)
    assert all(p.number == n for n, p in places.items())  # each place names its own entry
    return places


def infantil_a(count: int, **changes) -> list[Application]:
    """``count`` registrations one minute apart (infantil A takes 10)."""
    apps = [Application(i, "infantil-a", False, T0 + i * MINUTE) for i in range(1, count + 1)]
    for number, fields in changes.items():
        n = int(number.removeprefix("n"))
        apps[n - 1] = replace(apps[n - 1], **fields)
    return apps


def waiting(places: dict[int, Place]) -> list[tuple[int, int | None]]:
    return sorted((p.waiting_position or 0, n) for n, p in places.items()
                  if p.status is Status.WAITING)


# --- the waiting list ------------------------------------------------------------------------


def test_one_waiting_entry_withdrawing_leaves_the_others_in_line(castrillo: Contest):
    apps = infantil_a(13, n12={"withdrawn_at": T0 + timedelta(days=1)})
    places = places_at(castrillo, apps, T0 + timedelta(days=2))
    assert places[12].status is Status.WITHDRAWN and places[12].refundable
    assert waiting(places) == [(1, 11), (2, 13)]
    # then a confirmed entry withdraws: the first still in line gets the place
    apps[2] = replace(apps[2], withdrawn_at=T0 + timedelta(days=3))
    places = places_at(castrillo, apps, T0 + timedelta(days=4))
    assert places[11].status is Status.CONFIRMED
    assert places[11].confirmed_at == T0 + timedelta(days=3)
    assert waiting(places) == [(1, 13)]


def test_each_full_category_has_its_own_waiting_list(castrillo: Contest):
    apps = infantil_a(12) + [
        Application(100 + i, "infantil-b", False, T0 + timedelta(hours=1) + i * MINUTE)
        for i in range(1, 13)
    ]
    places = places_at(castrillo, apps, T0 + timedelta(days=1))
    assert waiting(places) == [(1, 11), (1, 111), (2, 12), (2, 112)]


def test_castrillo_waiting_list_goes_by_registration_even_when_payments_are_recorded(
    castrillo: Contest,
):
    # 11 registered before 12, but 12's payment was recorded first: Castrillo is first come
    apps = infantil_a(12, n11={"paid_at": T0 + timedelta(days=5)},
                      n12={"paid_at": T0 + timedelta(days=1)})
    places = places_at(castrillo, apps, T0 + timedelta(days=6))
    assert waiting(places) == [(1, 11), (2, 12)]


def test_waiting_entry_promoted_at_the_moment_the_place_frees(castrillo: Contest):
    left = T0 + timedelta(days=2, hours=3)
    apps = infantil_a(11, n4={"withdrawn_at": left})
    places = places_at(castrillo, apps, T0 + timedelta(days=5))
    assert (places[11].status, places[11].confirmed_at) == (Status.CONFIRMED, left)
    assert places[1].confirmed_at == T0 + MINUTE  # a place free at once: at registration


def test_registration_sees_its_own_place_at_the_moment_it_is_made(castrillo: Contest):
    apps = infantil_a(11)
    places = places_at(castrillo, apps, apps[9].registered_at)
    assert places[10].status is Status.CONFIRMED
    assert places[10].confirmed_at == apps[9].registered_at
    places = places_at(castrillo, apps, apps[10].registered_at)
    assert (places[11].status, places[11].waiting_position) == (Status.WAITING, 1)


def test_withdrawal_takes_effect_at_the_moment_it_is_made(castrillo: Contest):
    left = T0 + timedelta(days=1)
    apps = infantil_a(11, n2={"withdrawn_at": left})
    places = places_at(castrillo, apps, left)
    assert places[2].status is Status.WITHDRAWN
    assert (places[11].status, places[11].confirmed_at) == (Status.CONFIRMED, left)
    before = places_at(castrillo, apps, left - timedelta(seconds=1))
    assert before[2].status is Status.CONFIRMED and before[11].status is Status.WAITING


def test_category_of_one_place_takes_its_first_entry(castrillo: Contest):
    one = replace(castrillo, categories=tuple(
        replace(c, capacity=1) if c.id == "infantil-a" else c for c in castrillo.categories))
    places = places_at(one, infantil_a(2), T0 + timedelta(days=1))
    assert places[1].status is Status.CONFIRMED
    assert (places[2].status, places[2].waiting_position) == (Status.WAITING, 1)


def test_entry_in_a_category_the_contest_does_not_have_gets_no_place(castrillo: Contest):
    apps = [Application(1, "veteranos", False, T0)]
    assert places_at(castrillo, apps, T0 + MINUTE)[1].status is not Status.CONFIRMED


# --- reserved places (Castrillo pairs) -------------------------------------------------------


def pairs(first: int, count: int, when: datetime, local: bool) -> list[Application]:
    return [Application(first + i, "parejas", local, when + i * MINUTE) for i in range(count)]


def test_non_local_withdrawal_before_release_frees_one_non_local_place(castrillo: Contest):
    apps = pairs(1, 42, T0, local=False)  # 40 confirmed, 41 and 42 wait
    apps[4] = replace(apps[4], withdrawn_at=T0 + timedelta(days=3))
    places = places_at(castrillo, apps, T0 + timedelta(days=4))
    assert places[41].status is Status.CONFIRMED
    assert waiting(places) == [(1, 42)]


def test_category_with_one_unreserved_place_gives_it_to_the_first_non_local(castrillo: Contest):
    cat = castrillo.category("parejas")
    assert cat is not None and cat.reserved[0].places == 10
    small = replace(castrillo, categories=(replace(cat, capacity=11),))
    places = places_at(small, pairs(1, 2, T0, local=False), T0 + timedelta(days=1))
    assert places[1].status is Status.CONFIRMED
    assert places[2].status is Status.WAITING


# --- Billom: payment order, shared places, closing -------------------------------------------


def paris(y: int, m: int, d: int, h: int = 12) -> datetime:
    return datetime(y, m, d, h, tzinfo=PARIS)


def paid_teams(count: int, paid_from: datetime) -> list[Application]:
    cats = ["junior", "expert"]
    return [
        Application(i, cats[i % 2], False, paris(2012, 1, 24) + timedelta(hours=i),
                    paid_at=paid_from + timedelta(hours=i))
        for i in range(1, count + 1)
    ]


def test_billom_waiting_list_spans_categories(billom: Contest):
    places = places_at(billom, paid_teams(32, paris(2012, 2, 1)), paris(2012, 2, 20))
    assert (places[31].status, places[31].waiting_position) == (Status.WAITING, 1)
    assert (places[32].status, places[32].waiting_position) == (Status.WAITING, 2)
    assert places[31].refundable and places[32].refundable


def test_billom_waiting_list_goes_by_payment_date_not_registration(billom: Contest):
    apps = paid_teams(30, paris(2012, 2, 1))
    apps += [
        Application(31, "adulte", False, paris(2012, 1, 24, 1), paid_at=paris(2012, 2, 20)),
        Application(32, "adulte", False, paris(2012, 2, 10), paid_at=paris(2012, 2, 15)),
    ]
    places = places_at(billom, apps, paris(2012, 2, 21))
    assert waiting(places) == [(1, 32), (2, 31)]
    apps[0] = replace(apps[0], withdrawn_at=paris(2012, 2, 25))
    places = places_at(billom, apps, paris(2012, 2, 26))
    assert places[32].status is Status.CONFIRMED and places[31].status is Status.WAITING


def test_billom_team_is_pending_until_its_payment_arrives(billom: Contest):
    paid = paris(2012, 2, 10)
    apps = [Application(1, "adulte", False, paris(2012, 1, 25), paid_at=paid)]
    assert places_at(billom, apps, paid - timedelta(seconds=1))[1].status is Status.PENDING_PAYMENT
    place = places_at(billom, apps, paid)[1]
    assert (place.status, place.confirmed_at) == (Status.CONFIRMED, paid)


def test_billom_team_that_withdrew_before_its_payment_arrived_holds_no_place(billom: Contest):
    apps = paid_teams(30, paris(2012, 2, 15))
    apps.append(Application(99, "adulte", False, paris(2012, 2, 1), paid_at=paris(2012, 2, 12),
                            withdrawn_at=paris(2012, 2, 10)))
    places = places_at(billom, apps, paris(2012, 2, 28))
    assert all(places[i].status is Status.CONFIRMED for i in range(1, 31))
    assert places[99].status is Status.WITHDRAWN and places[99].refundable


def test_billom_team_withdrawing_as_its_payment_arrives_holds_no_place(billom: Contest):
    apps = paid_teams(30, paris(2012, 2, 15))
    apps.append(Application(99, "adulte", False, paris(2012, 2, 1), paid_at=paris(2012, 2, 12),
                            withdrawn_at=paris(2012, 2, 12)))
    places = places_at(billom, apps, paris(2012, 2, 28))
    assert all(places[i].status is Status.CONFIRMED for i in range(1, 31))
    assert places[99].status is Status.WITHDRAWN


def test_billom_left_out_from_the_closing_moment(billom: Contest):
    closes = datetime(2012, 3, 2, 0, 0, tzinfo=PARIS)  # 1 March at midnight
    apps = paid_teams(31, paris(2012, 2, 1))
    before = places_at(billom, apps, closes - timedelta(seconds=1))
    assert before[31].status is Status.WAITING
    at_close = places_at(billom, apps, closes)
    assert (at_close[31].status, at_close[31].waiting_position) == (Status.LEFT_OUT, 1)
    assert at_close[31].refundable


def test_billom_withdrawal_at_the_closing_moment_is_not_refunded(billom: Contest):
    closes = datetime(2012, 3, 2, 0, 0, tzinfo=PARIS)
    team = Application(1, "adulte", False, paris(2012, 1, 24), paid_at=paris(2012, 1, 25))
    late = places_at(billom, [replace(team, withdrawn_at=closes)], closes + timedelta(days=1))
    assert late[1].status is Status.WITHDRAWN and not late[1].refundable
    just_before = replace(team, withdrawn_at=closes - timedelta(seconds=1))
    assert places_at(billom, [just_before], closes + timedelta(days=1))[1].refundable


def test_castrillo_refund_deadline_is_the_15th_at_midnight(castrillo: Contest):
    after = RELEASE + timedelta(days=1)
    on_time = infantil_a(1, n1={"withdrawn_at": RELEASE - timedelta(seconds=1)})
    assert places_at(castrillo, on_time, after)[1].refundable
    late = infantil_a(1, n1={"withdrawn_at": RELEASE})
    assert not places_at(castrillo, late, after)[1].refundable
    # leaving the waiting list is refunded whenever it happens
    waiting_late = infantil_a(11, n11={"withdrawn_at": RELEASE + timedelta(hours=1)})
    assert places_at(castrillo, waiting_late, after)[11].refundable


def test_imported_entry_holds_its_place_whatever_moment_is_asked(billom: Contest):
    imported = Application(1, "adulte", False, paris(2012, 2, 20), preconfirmed=True)
    place = places_at(billom, [imported], paris(2012, 2, 1))[1]
    assert place.status is Status.CONFIRMED


# --- members ---------------------------------------------------------------------------------


def kid(year: int, answers: frozenset[str] = frozenset()) -> Member:
    return Member("Kid", born_year=year, answers=answers)


def born(y: int, m: int, d: int) -> Member:
    return Member("X", born=date(y, m, d))


def test_third_member_of_a_pair_is_the_one_named_too_many(castrillo: Contest):
    cat = castrillo.category("parejas")
    problem = check_members(cat, [kid(1980), kid(1981), kid(1982)], castrillo.date)
    assert problem is not None and (problem.member, problem.reason) == (2, "too_many")


def test_member_given_only_a_birth_year_is_named_when_age_is_checked(billom: Contest):
    cat = billom.category("adulte")
    problem = check_members(cat, [born(1980, 5, 1), kid(1990)], billom.date)
    assert problem is not None
    assert (problem.member, problem.reason, problem.born_year) == (1, "birth_date_needed", 1990)
    problem = check_members(cat, [kid(1985), born(1980, 5, 1)], billom.date)
    assert problem is not None and (problem.member, problem.born_year) == (0, 1985)


def test_incomplete_entry_names_the_member_still_missing(castrillo: Contest):
    problem = check_entry(castrillo.category("parejas"), [kid(1980)], castrillo.date)
    assert problem is not None and (problem.member, problem.reason) == (1, "missing_members")


def test_age_slot_needs_a_full_birth_date(billom: Contest):
    assert not slot_accepts(Slot(min_age=12), kid(1990), billom.date)
    assert slot_accepts(Slot(min_age=12), born(1990, 1, 1), billom.date)


# --- fees and meals --------------------------------------------------------------------------


MEMBER = frozenset({"aepuzz_member"})
RESIDENT = frozenset({"resident"})


def test_meals_for_children_only_or_adults_only(castrillo: Contest):
    parejas = castrillo.category("parejas")
    team = [kid(1980), kid(2015)]
    children = fee(castrillo, parejas, team, meal_adults=0, meal_children=2)
    assert (children.meal, children.meal_adults, children.meal_children) == (2000, 0, 2)
    assert children.total == 2000 + 2000
    adults = fee(castrillo, parejas, team, meal_adults=1, meal_children=0)
    assert (adults.meal, adults.meal_adults, adults.meal_children) == (1200, 1, 0)
    assert adults.total == 2000 + 1200


def test_fee_counts_the_members_with_a_discount(castrillo: Contest, billom: Contest):
    parejas = castrillo.category("parejas")
    both = fee(castrillo, parejas, [kid(1980, RESIDENT), kid(1982, MEMBER)])
    assert (both.discounted_members, both.discount) == (2, 1000)
    one = fee(castrillo, parejas, [kid(1980, RESIDENT | MEMBER), kid(1982)])
    assert (one.discounted_members, one.discount) == (1, 500)
    none = fee(billom, billom.category("adulte"), [born(1980, 1, 1), born(1982, 1, 1)])
    assert (none.discounted_members, none.discount, none.total) == (0, 0, 1400)


def test_only_a_slot_without_any_bound_is_open_to_anyone(castrillo: Contest):
    assert [s.is_open for s in castrillo.category("parejas").slots] == [False, True]
    for bound in ({"born_from": 2000}, {"born_to": 2010}, {"min_age": 12}, {"max_age": 11}):
        assert not Slot(**bound).is_open, bound
