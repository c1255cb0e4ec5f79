"""The rules added with issues 14 and 15, pure domain (run against every mutant by
``make mutate``): how numbers are read, penalties in the ranking, one person per category,
places "with an adult" and their alternatives."""

from __future__ import annotations

from datetime import date

import pytest

from bot.domain.clock import DurationError, parse_duration
from bot.domain.contest import Category, Slot
from bot.domain.numbers import ascii_digits, parse_whole, parse_year
from bot.domain.ranking import Competitor, rank, ranking_time
from bot.features.escape.rules import EscapeResult
from bot.features.registration.rules import (
    Member,
    already_entered,
    check_entry,
    check_members,
    clean_name,
    name_key,
    same_person,
    slot_accepts,
)

DAY = date(2024, 6, 15)
ADULTS = Category("a", "A", 1, 1000, 3 * 3600, 0, (Slot(),))
WITH_ADULT = Slot(min_age=14, alternatives=(Slot(with_adult=18),))
PAIR = Category("p", "P", 2, 500, 3600, 0, (WITH_ADULT, WITH_ADULT))


def aged(age: int, name: str = "X") -> Member:
    born = date(DAY.year - age, 1, 1)
    return Member(name, born=born, born_year=born.year)


# -- numbers -----------------------------------------------------------------------------


@pytest.mark.parametrize("text,value", [
    ("457", 457), (" 7 ", 7), ("٤٥٧", 457), ("４５７", 457), ("0", 0), ("1" * 9, 111111111),
])
def test_whole_numbers(text: str, value: int) -> None:
    assert parse_whole(text) == value


@pytest.mark.parametrize("text", ["", "+1", "-1", "1_0", "1 0", "²", "1" * 10, "#1", "x1"])
def test_not_whole_numbers(text: str) -> None:
    assert parse_whole(text) is None


def test_hash_mark_and_digit_count() -> None:
    assert parse_whole("#12", hash_mark=True) == 12
    assert parse_whole("##12", hash_mark=True) is None
    assert parse_whole("123", digits=2) is None and parse_whole("12", digits=2) == 12
    assert ascii_digits("abc") == "abc" and ascii_digits("a٣") == "a3"
    assert parse_year("1980") == 1980 and parse_year("980") is None
    assert parse_year("19800") is None and parse_year("١٩٨٠") == 1980


def test_times_read_any_script_and_nothing_else() -> None:
    assert parse_duration("١:٤٧:٣٠") == 6450
    for bad in ("+1:00:00", "1:00:00x", "¹:00:00"):
        with pytest.raises(DurationError):
            parse_duration(bad)


# -- penalties -----------------------------------------------------------------------------


def test_penalties_add_to_the_ranking_time() -> None:
    a = Competitor(1, ("A",), finish=100, time_penalty=20)
    assert ranking_time(a) == 120
    escape = EscapeResult(True, 50, 0, 10, 0, 0, 50)  # adjusted total = finish
    assert ranking_time(Competitor(3, ("C",), finish=100, escape=escape, time_penalty=20)) == 120
    assert ranking_time(Competitor(2, ("B",), time_penalty=20)) is None
    rows = rank(ADULTS, [a, Competitor(2, ("B",), finish=110)])
    assert [(r.number, r.position, r.time) for r in rows] == [(2, 1, 110), (1, 2, 120)]


@pytest.mark.parametrize("counts,finished", [(True, True), (False, False)])
def test_a_finish_pushed_past_the_limit(counts: bool, finished: bool) -> None:
    limit = ADULTS.time_limit
    late = Competitor(1, ("L",), finish=limit - 5, time_penalty=6)
    exact = Competitor(3, ("E",), finish=limit - 5, time_penalty=5)
    partial = Competitor(2, ("P",), pieces=999)
    rows = rank(ADULTS, [partial, late, exact], penalised_finish_counts=counts)
    by = {r.number: r for r in rows}
    assert by[1].finished is finished and by[3].finished  # exactly at the limit counts
    if not finished:
        assert by[1].position == 2 and by[2].position == 3 and by[1].time is None
    assert rank(ADULTS, [late])[0].finished  # by default a finish stays a finish
    strict = rank(ADULTS, [exact], limit_inclusive=False, penalised_finish_counts=False)
    assert not strict[0].finished


# -- one person per category -------------------------------------------------------------


def test_names_and_births_make_a_person() -> None:
    assert clean_name(" a\tb ") == "a b"
    assert clean_name("a\x07b\x00") == "a b" and clean_name("a\u200db") == "a\u200db"
    assert name_key("Ëva  ÑÚÑEZ") == "eva nunez"
    a = Member("Eva", born=date(1990, 1, 2), born_year=1990)
    assert same_person(a, Member("eva", born_year=1990))
    assert same_person(a, Member("EVA", born=date(1990, 1, 2), born_year=1990))
    assert not same_person(a, Member("Eva", born=date(1990, 1, 3), born_year=1990))
    assert not same_person(a, Member("Eva", born_year=1991))
    assert not same_person(a, Member("Eve", born_year=1990))
    assert not same_person(Member("Eva"), Member("Eva"))
    assert not same_person(Member("Eva", born_year=1990), Member("Eva"))


def test_already_entered() -> None:
    eva, bo = Member("Eva", born_year=1990), Member("Bo", born_year=1991)
    assert already_entered([eva], []) is None
    assert already_entered([bo, eva], [(3, (bo,)), (4, (eva,))]) == (0, 3)
    assert already_entered([eva, bo], [(4, (Member("x", born_year=1),)), (5, (bo,))]) == (1, 5)
    assert already_entered([eva, Member("EVA", born_year=1990)], [(9, (bo,))]) == (1, 0)


# -- places with an adult ----------------------------------------------------------------


def test_with_adult_is_decided_on_the_other_members() -> None:
    slot = Slot(with_adult=18)
    kid = aged(10)
    assert slot_accepts(slot, kid, DAY)  # entry not complete yet
    assert slot_accepts(slot, kid, DAY, [aged(18)])
    assert not slot_accepts(slot, kid, DAY, [aged(17)])
    assert not slot_accepts(slot, kid, DAY, [Member("no date", born_year=1970)])
    assert not slot_accepts(slot, kid, DAY, [])
    assert slot_accepts(WITH_ADULT, aged(14), DAY, [])
    assert not slot_accepts(WITH_ADULT, aged(13), DAY, [aged(13)])
    assert WITH_ADULT.uses_age and not WITH_ADULT.is_open and Slot(with_adult=18).uses_age
    assert Slot(alternatives=(Slot(min_age=3),)).uses_age


@pytest.mark.parametrize("ages,problem", [
    ((15, 15), None), ((10, 40), None), ((40, 10), None), ((13, 18), None),
    ((10, 15), (0, "adult_needed")), ((15, 10), (1, "adult_needed")),
    ((13, 17), (0, "adult_needed")),
])
def test_fourteen_or_with_an_adult(ages: tuple[int, int], problem: tuple[int, str] | None) -> None:
    members = [aged(a) for a in ages]
    found = check_entry(PAIR, members, DAY)
    assert (None if found is None else (found.member, found.reason)) == problem
    if found is not None:
        assert found.adult_age == 18 and found.age == min(ages)
        assert found.born_year == DAY.year - min(ages)
    assert check_members(PAIR, members, DAY) is None  # not complete: the adult may come


def test_when_each_fits_alone_the_last_member_is_named() -> None:
    """Both children fit the first place alone; together one must take the place "with an
    adult", and there is none: the last one entered is named."""
    cat = Category("p", "P", 2, 500, 3600, 0, (Slot(max_age=12), Slot(with_adult=18)))
    found = check_entry(cat, [aged(10), aged(11)], DAY)
    assert found is not None and (found.member, found.reason, found.age) == (1, "adult_needed",
                                                                              11)
    # the 30-year-old fits no place alone (the other is "with an adult", beside a child)
    found = check_entry(cat, [aged(30), aged(10)], DAY)
    assert found is not None and (found.member, found.age) == (0, 30)


def test_the_smallest_adult_age_is_named() -> None:
    cat = Category("p", "P", 2, 500, 3600, 0, (Slot(min_age=14, alternatives=(
        Slot(with_adult=21),)), Slot(min_age=14, alternatives=(Slot(with_adult=18),))))
    found = check_entry(cat, [aged(10), aged(12)], DAY)
    assert found is not None and found.adult_age == 18


def test_teams_of_two_to_four() -> None:
    cat = Category("t", "T", 4, 500, 3600, 0, (Slot(),) * 4, min_members=2)
    adults = [aged(30 + i) for i in range(5)]
    assert cat.fewest == 2 and Category("u", "U", 3, 1, 1, 0, (Slot(),) * 3).fewest == 3
    for n, ok in ((1, False), (2, True), (3, True), (4, True)):
        found = check_entry(cat, adults[:n], DAY)
        assert (found is None) == ok, (n, found)
        if not ok:
            assert found is not None and found.reason == "missing_members"
    five = check_entry(cat, adults, DAY)
    assert five is not None and five.reason == "too_many"
    # a team of two that is complete decides "with an adult" at two
    kids = Category("k", "K", 3, 500, 3600, 0, (WITH_ADULT,) * 3, min_members=2)
    found = check_entry(kids, [aged(10), aged(15)], DAY)
    assert found is not None and found.reason == "adult_needed"


def test_or_on_a_place_with_no_condition_of_its_own_is_only_the_alternatives() -> None:
    either = Slot(alternatives=(Slot(max_age=11), Slot(min_age=18)))
    assert slot_accepts(either, aged(10), DAY) and slot_accepts(either, aged(40), DAY)
    assert not slot_accepts(either, aged(15), DAY)
    both = Slot(min_age=14, alternatives=(Slot(max_age=5),))
    assert slot_accepts(both, aged(15), DAY) and slot_accepts(both, aged(4), DAY)
    assert not slot_accepts(both, aged(10), DAY)
    for own in (Slot(born_from=2000), Slot(born_to=2000), Slot(max_age=5), Slot(with_adult=18)):
        place = Slot(born_from=own.born_from, born_to=own.born_to, max_age=own.max_age,
                     with_adult=own.with_adult, alternatives=(Slot(min_age=90),))
        assert slot_accepts(place, aged(3), DAY, [aged(40)]) == slot_accepts(
            own, aged(3), DAY, [aged(40)])


def test_invisible_characters_do_not_make_another_person() -> None:
    assert name_key("A\u200bna\u200e") == name_key("ana") == "ana"
    assert name_key("\u200b \ufeff") == ""
    assert same_person(Member("A\u00adna", born_year=1990), Member("Ana", born_year=1990))
