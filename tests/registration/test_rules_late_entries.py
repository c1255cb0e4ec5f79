"""Too late for a heat (docs/rules.md, "Too late for a heat"; issue 24, items 7 and 8), pure
domain: when each heat of a first round begins, which have begun, the heat a registration's
answer plays in, the choices still open and whether an entry registering now could play any
heat. Run against every mutant by ``make mutate``; every expected value is worked out by hand
from the rule (tests/test_late_entries.py drives the same rules through the whole bot)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.domain.contest import Category, Contest, HeatSchedule, Round, Slot
from bot.features.registration.rules import (
    HeatBegun,
    begun_heats,
    heat_begins,
    heat_choices_open,
    heat_of_choice,
    too_late_to_join,
)

TZ = ZoneInfo("Europe/Madrid")
D1, D2, D3 = date(2027, 7, 1), date(2027, 7, 2), date(2027, 7, 3)
TEN = datetime(2027, 7, 1, 10, 0, tzinfo=TZ)  # the solo heats, all three at once
NOON = datetime(2027, 7, 1, 12, 0, tzinfo=TZ)
PORTO = datetime(2027, 7, 1, 11, 0, tzinfo=TZ)  # the teams' first qualifier
VALLADOLID = datetime(2027, 7, 2, 9, 0, tzinfo=TZ)  # the second
MIDNIGHT_D2 = datetime(2027, 7, 2, 0, 0, tzinfo=TZ)
SECOND = timedelta(seconds=1)

# a final that differs from every first round below in heats, day, start and heats_by
FINAL = Round("final", {"en": "Final"}, D3, datetime(2027, 7, 3, 13, 0, tzinfo=TZ), 1000, 7200)


def category(cid: str, *rounds: Round) -> Category:
    return Category(cid, cid.title(), 1, 500, 3600, 0, (Slot(),), rounds=rounds)


# blocks by entry number: three heats, all at 10:00 on the round's day
SOLO = category("solo", Round("heats", {"en": "Heats"}, D1, TEN, 500, 3600, heats=3), FINAL)
# heats with their own times, out of order: heat 2 first, heat 3 with no time (its midnight)
STAGGERED = category("staggered", Round(
    "heats", {"en": "Heats"}, D1, TEN, 500, 3600, heats=3,
    schedule=(HeatSchedule(D1, NOON), HeatSchedule(D1, TEN), HeatSchedule(D2))), FINAL)
# qualifiers chosen at registration; "lisbon" is a choice with no heat (only two heats)
QUALIFIER = Round("qualifier", {"en": "Qualifier"}, D1, None, 1000, 7200, heats=2,
                  heats_by="qualifier", heat_choices=("porto", "valladolid", "lisbon"),
                  schedule=(HeatSchedule(D1, PORTO, "Porto"),
                            HeatSchedule(D2, VALLADOLID, "Valladolid")))
TEAMS = category("teams", QUALIFIER, FINAL)
# the same heats and choices, but the round is not split by the question
UNASKED = category("unasked", replace(QUALIFIER, heats_by=None), FINAL)
ONCE = category("once")  # played once: no rounds


def contest(timezone: str = "Europe/Madrid") -> Contest:
    return Contest("Late", D1, timezone, (SOLO, STAGGERED, TEAMS, UNASKED, ONCE))


C = contest()


# -- heat_begins ------------------------------------------------------------------------------


def test_a_heat_begins_at_its_rounds_start_or_its_own() -> None:
    assert heat_begins(C, SOLO, 1) == TEN
    assert heat_begins(C, SOLO, 3) == TEN
    assert heat_begins(C, STAGGERED, 1) == NOON
    assert heat_begins(C, STAGGERED, 2) == TEN
    assert heat_begins(C, TEAMS, 1) == PORTO
    assert heat_begins(C, TEAMS, 2) == VALLADOLID


def test_a_heat_with_no_time_begins_at_midnight_of_its_day_in_the_contests_zone() -> None:
    assert heat_begins(C, STAGGERED, 3) == MIDNIGHT_D2
    new_york = heat_begins(contest("America/New_York"), STAGGERED, 3)
    assert new_york == datetime(2027, 7, 2, 0, 0, tzinfo=ZoneInfo("America/New_York"))
    assert new_york == MIDNIGHT_D2 + timedelta(hours=6)
    assert new_york.utcoffset() == timedelta(hours=-4)


# -- begun_heats ------------------------------------------------------------------------------


def test_no_heat_has_begun_one_second_before() -> None:
    assert begun_heats(C, SOLO, TEN - SECOND) == []
    assert begun_heats(C, STAGGERED, TEN - SECOND) == []
    assert begun_heats(C, TEAMS, PORTO - SECOND) == []


def test_a_heat_has_begun_from_its_very_second() -> None:
    everyone = [HeatBegun(1, TEN), HeatBegun(2, TEN), HeatBegun(3, TEN)]
    assert begun_heats(C, SOLO, TEN) == everyone
    assert begun_heats(C, SOLO, TEN + SECOND) == everyone
    assert begun_heats(C, STAGGERED, TEN) == [HeatBegun(2, TEN)]
    assert begun_heats(C, STAGGERED, NOON - SECOND) == [HeatBegun(2, TEN)]
    assert begun_heats(C, STAGGERED, NOON) == [HeatBegun(1, NOON), HeatBegun(2, TEN)]
    assert begun_heats(C, STAGGERED, MIDNIGHT_D2) == [
        HeatBegun(1, NOON), HeatBegun(2, TEN), HeatBegun(3, MIDNIGHT_D2)]
    assert begun_heats(C, TEAMS, PORTO) == [HeatBegun(1, PORTO)]
    assert begun_heats(C, TEAMS, VALLADOLID) == [HeatBegun(1, PORTO), HeatBegun(2, VALLADOLID)]


def test_a_heat_whose_clock_has_started_has_begun_whatever_the_time() -> None:
    early = TEN - timedelta(hours=2)
    assert begun_heats(C, SOLO, early, {2}) == [HeatBegun(2, TEN, started=True)]
    assert begun_heats(C, SOLO, early, (1, 3)) == [
        HeatBegun(1, TEN, started=True), HeatBegun(3, TEN, started=True)]
    # started or not, each heat says which
    assert begun_heats(C, SOLO, TEN, {1, 3}) == [
        HeatBegun(1, TEN, started=True), HeatBegun(2, TEN, started=False),
        HeatBegun(3, TEN, started=True)]
    assert begun_heats(C, TEAMS, early, {2}) == [HeatBegun(2, VALLADOLID, started=True)]


def test_a_category_played_once_has_no_heats_to_begin() -> None:
    assert begun_heats(C, ONCE, TEN) == []
    assert begun_heats(C, ONCE, TEN, {1}) == []


# -- heat_of_choice ---------------------------------------------------------------------------


def test_the_heat_of_each_choice_in_the_questions_order_in_any_case() -> None:
    assert heat_of_choice(TEAMS, "porto") == 1
    assert heat_of_choice(TEAMS, "valladolid") == 2
    assert heat_of_choice(TEAMS, "Valladolid") == 2
    assert heat_of_choice(TEAMS, "PORTO") == 1


def test_no_heat_for_a_choice_not_among_the_heats_or_no_choice() -> None:
    assert heat_of_choice(TEAMS, "lisbon") is None  # a choice past the round's heats
    assert heat_of_choice(TEAMS, "nowhere") is None
    assert heat_of_choice(TEAMS, "") is None
    assert heat_of_choice(TEAMS, None) is None


def test_no_heat_of_choice_when_the_round_is_not_split_by_a_question() -> None:
    assert heat_of_choice(UNASKED, "porto") is None
    assert heat_of_choice(UNASKED, "valladolid") is None
    assert heat_of_choice(UNASKED, None) is None
    assert heat_of_choice(SOLO, "porto") is None
    assert heat_of_choice(ONCE, "porto") is None
    assert heat_of_choice(ONCE, None) is None


# -- heat_choices_open ------------------------------------------------------------------------


def test_the_choices_whose_heat_has_not_begun() -> None:
    assert heat_choices_open(C, TEAMS, PORTO - SECOND) == ("porto", "valladolid")
    assert heat_choices_open(C, TEAMS, PORTO) == ("valladolid",)
    assert heat_choices_open(C, TEAMS, VALLADOLID - SECOND) == ("valladolid",)
    assert heat_choices_open(C, TEAMS, VALLADOLID) == ()


def test_a_started_heats_choice_is_closed_before_its_time() -> None:
    early = PORTO - timedelta(hours=3)
    assert heat_choices_open(C, TEAMS, early, {1}) == ("valladolid",)
    assert heat_choices_open(C, TEAMS, early, {2}) == ("porto",)
    assert heat_choices_open(C, TEAMS, early, {1, 2}) == ()
    assert heat_choices_open(C, TEAMS, early, ()) == ("porto", "valladolid")


def test_no_choices_when_the_heats_are_not_chosen_at_registration() -> None:
    assert heat_choices_open(C, UNASKED, TEN) == ()
    assert heat_choices_open(C, SOLO, TEN - SECOND) == ()
    assert heat_choices_open(C, ONCE, TEN) == ()


# -- too_late_to_join -------------------------------------------------------------------------


def test_a_category_played_once_is_never_too_late() -> None:
    assert too_late_to_join(C, ONCE, TEN) is None
    assert too_late_to_join(C, ONCE, VALLADOLID, {1}) is None
    assert too_late_to_join(C, ONCE, VALLADOLID, choice="porto", chosen=False) is None


def test_heats_by_number_close_when_the_first_heat_begins() -> None:
    assert too_late_to_join(C, SOLO, TEN - SECOND) is None
    assert too_late_to_join(C, SOLO, TEN) == HeatBegun(1, TEN)
    assert too_late_to_join(C, SOLO, TEN + SECOND) == HeatBegun(1, TEN)
    # a started clock closes it before the time; the heat named is the started one
    assert too_late_to_join(C, SOLO, TEN - timedelta(hours=1), {2}) == HeatBegun(
        2, TEN, started=True)
    # the answer and ``chosen`` do not matter when the heats are not chosen
    assert too_late_to_join(C, SOLO, TEN, choice="porto") == HeatBegun(1, TEN)
    assert too_late_to_join(C, SOLO, TEN, chosen=False) == HeatBegun(1, TEN)
    assert too_late_to_join(C, UNASKED, PORTO, choice="valladolid") == HeatBegun(1, PORTO)


def test_heats_by_number_name_the_heat_that_began_first_not_heat_1() -> None:
    assert too_late_to_join(C, STAGGERED, TEN - SECOND) is None
    assert too_late_to_join(C, STAGGERED, TEN) == HeatBegun(2, TEN)
    # heats 1 and 2 have begun: heat 2 began first
    assert too_late_to_join(C, STAGGERED, NOON) == HeatBegun(2, TEN)
    assert too_late_to_join(C, STAGGERED, MIDNIGHT_D2) == HeatBegun(2, TEN)
    assert too_late_to_join(C, STAGGERED, TEN - SECOND, {3}) == HeatBegun(
        3, MIDNIGHT_D2, started=True)


def test_a_chosen_heat_closes_when_it_begins_not_before() -> None:
    assert too_late_to_join(C, TEAMS, PORTO - SECOND, choice="porto") is None
    assert too_late_to_join(C, TEAMS, PORTO, choice="porto") == HeatBegun(1, PORTO)
    assert too_late_to_join(C, TEAMS, PORTO + SECOND, choice="Porto") == HeatBegun(1, PORTO)
    # the other heat is still open
    assert too_late_to_join(C, TEAMS, PORTO, choice="valladolid") is None
    assert too_late_to_join(C, TEAMS, VALLADOLID - SECOND, choice="valladolid") is None
    assert too_late_to_join(C, TEAMS, VALLADOLID, choice="valladolid") == HeatBegun(
        2, VALLADOLID)
    assert too_late_to_join(C, TEAMS, VALLADOLID, choice="VALLADOLID", chosen=True) == (
        HeatBegun(2, VALLADOLID))


def test_a_chosen_heats_started_clock_closes_it_before_its_time() -> None:
    early = PORTO - timedelta(hours=3)
    assert too_late_to_join(C, TEAMS, early, {2}, choice="valladolid") == HeatBegun(
        2, VALLADOLID, started=True)
    assert too_late_to_join(C, TEAMS, early, {2}, choice="porto") is None
    assert too_late_to_join(C, TEAMS, early, {1}, choice="porto") == HeatBegun(
        1, PORTO, started=True)


def test_a_choice_with_no_heat_is_left_to_the_questions_rules() -> None:
    assert too_late_to_join(C, TEAMS, VALLADOLID, choice="lisbon") is None
    assert too_late_to_join(C, TEAMS, VALLADOLID, choice="nowhere") is None
    assert too_late_to_join(C, TEAMS, VALLADOLID, choice=None) is None
    assert too_late_to_join(C, TEAMS, PORTO) is None


def test_a_choice_still_to_make_closes_only_when_every_heat_has_begun() -> None:
    assert too_late_to_join(C, TEAMS, PORTO - SECOND, chosen=False) is None
    assert too_late_to_join(C, TEAMS, PORTO, chosen=False) is None  # some begun
    assert too_late_to_join(C, TEAMS, VALLADOLID - SECOND, chosen=False) is None
    # all begun: the first of them is named
    assert too_late_to_join(C, TEAMS, VALLADOLID, chosen=False) == HeatBegun(1, PORTO)
    assert too_late_to_join(C, TEAMS, VALLADOLID, choice="valladolid", chosen=False) == (
        HeatBegun(1, PORTO))
    early = PORTO - timedelta(hours=3)
    assert too_late_to_join(C, TEAMS, early, {2}, chosen=False) is None
    assert too_late_to_join(C, TEAMS, early, {1, 2}, chosen=False) == HeatBegun(
        1, PORTO, started=True)


def test_a_chosen_heat_with_no_time_closes_at_midnight_of_its_day() -> None:
    # the second qualifier has a day but no time: it begins at midnight, in the contest's zone
    dated = category("dated", replace(QUALIFIER, schedule=(
        HeatSchedule(D1, PORTO, "Porto"), HeatSchedule(D2, None, "Valladolid"))), FINAL)
    assert heat_choices_open(C, dated, MIDNIGHT_D2 - SECOND) == ("valladolid",)
    assert heat_choices_open(C, dated, MIDNIGHT_D2) == ()
    new_york = contest("America/New_York")
    assert heat_choices_open(new_york, dated, MIDNIGHT_D2) == ("valladolid",)
    assert heat_choices_open(new_york, dated, MIDNIGHT_D2 + timedelta(hours=6)) == ()
