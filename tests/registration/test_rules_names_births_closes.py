"""What registration takes of a member (the registration's rules): a name (not empty, at most
100 characters, without the ";" the organisers' files put between members), a birth year
(1900 up to the contest's year), a category or heat named as typed; and a heat's own
registration deadline (``closes``: no entry joins it after, as after its start). Pure domain,
run against every mutant by ``make mutate``; every expected value is worked out by hand from
the rule (docs/rules.md, docs/guide/2-registration.md)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.domain.contest import Category, Contest, HeatSchedule, Round, Slot
from bot.features.registration.rules import (
    FIRST_BIRTH_YEAR,
    MAX_NAME,
    NAME_SEPARATOR,
    HeatBegun,
    begun_heats,
    birth_in_range,
    name_problem,
    typed_name_key,
)


def test_a_members_name() -> None:
    assert (MAX_NAME, NAME_SEPARATOR) == (100, ";")
    assert name_problem("Ana García") is None
    assert name_problem("A") is None
    assert name_problem("a" * 100) is None
    assert name_problem("a" * 101) == "length"
    assert name_problem("") == "length"
    assert name_problem("\u200b") == "length"  # nothing visible
    assert name_problem("Ana; Bea") == "separator"
    assert name_problem(";") == "separator"
    assert name_problem("a" * 100 + ";") == "length"  # too long, first


def test_a_birth_year() -> None:
    day = date(2027, 7, 1)
    assert FIRST_BIRTH_YEAR == 1900
    assert birth_in_range(1900, day) and birth_in_range(1985, day)
    assert birth_in_range(2027, day)  # a baby born this year
    assert not birth_in_range(1899, day)
    assert not birth_in_range(2028, day)
    assert not birth_in_range(None, day)


def test_a_category_or_heat_named_as_typed() -> None:
    assert typed_name_key("Adultos-parejas") == "adultos parejas"
    assert typed_name_key("adultos_parejas") == "adultos parejas"
    assert typed_name_key("  ADULTOS   Parejas ") == "adultos parejas"
    assert typed_name_key("Infantil-A") == typed_name_key("infantil a") == "infantil a"
    assert typed_name_key("Dane_County-Pérez") == "dane county perez"
    assert typed_name_key("a-_-b") == "a b"
    assert typed_name_key("--") == ""


TZ = ZoneInfo("Europe/Madrid")
D1, D2 = date(2027, 7, 10), date(2027, 7, 17)
START1 = datetime(2027, 7, 10, 10, 0, tzinfo=TZ)
CLOSES1 = datetime(2027, 7, 8, 20, 0, tzinfo=TZ)  # two days before heat 1
START2 = datetime(2027, 7, 17, 9, 0, tzinfo=TZ)
SECOND = timedelta(seconds=1)
HEATS = Round("heats", {"en": "Heats"}, D1, START1, 500, 3600, heats=2,
              schedule=(HeatSchedule(D1, START1, closes=CLOSES1), HeatSchedule(D2, START2)))
CAT = Category("solo", "Solo", 1, 500, 3600, 0, (Slot(),), rounds=(HEATS,))
C = Contest("Closes", D1, "Europe/Madrid", (CAT,))


def test_a_heat_closed_to_entries_before_it_begins() -> None:
    assert begun_heats(C, CAT, CLOSES1 - SECOND) == []
    assert begun_heats(C, CAT, CLOSES1) == [HeatBegun(1, CLOSES1, deadline=True)]
    assert begun_heats(C, CAT, START1 - SECOND) == [HeatBegun(1, CLOSES1, deadline=True)]
    # once it begins, it has begun (no longer only closed)
    assert begun_heats(C, CAT, START1) == [HeatBegun(1, START1)]
    assert begun_heats(C, CAT, START2) == [HeatBegun(1, START1), HeatBegun(2, START2)]
    # its clock started before its deadline: begun, started
    assert begun_heats(C, CAT, CLOSES1 - SECOND, {1}) == [HeatBegun(1, START1, started=True)]
    # heat 2 has no deadline of its own: open until it begins
    assert begun_heats(C, CAT, START2 - SECOND) == [HeatBegun(1, START1)]
    assert begun_heats(C, CAT, START2 - SECOND, {2}) == [HeatBegun(1, START1),
                                                         HeatBegun(2, START2, started=True)]
