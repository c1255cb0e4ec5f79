"""Issue 24, items 5, 6 and 8 (docs/rules.md, "Rounds"), pure domain: which heats /inicio
starts (per venue, from half an hour before their time, never while the heat before is
played), when a heat is over, when a finish may be recorded (every split first; never for a
disqualified entry), and how a typed note is cleaned. Run against every mutant by
``make mutate``; every expected value is worked out by hand from the rule."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import Category, HeatSchedule, Round, Slot
from bot.domain.ranking import Competitor, Row
from bot.domain.rounds import (
    EARLY_START,
    AfterRunning,
    AllStarted,
    Disqualified,
    HeatClock,
    NotTimeYet,
    SplitsMissing,
    StartNow,
    finish_refused,
    heat_over,
    next_heats,
)
from bot.features.registration.rules import clean_name, clean_note

TZ = ZoneInfo("Europe/Madrid")
DAY = date(2027, 7, 2)
TEN = datetime(2027, 7, 2, 10, 0, tzinfo=TZ)


def heats_round(heats: int = 3, start: datetime | None = TEN,
                schedule: tuple[HeatSchedule, ...] = ()) -> Round:
    return Round("heats", {"en": "Heats"}, DAY, start, 500, 3600, heats=heats,
                 schedule=schedule)


def clocks(*states: str) -> list[HeatClock]:
    """One heat per letter: "-" not started, "r" running, "s" started and over."""
    return [HeatClock(n, started=s != "-", running=s == "r") for n, s in enumerate(states, 1)]


# -- which heats /inicio starts ---------------------------------------------------------------


def test_the_first_heat_from_half_an_hour_before_its_time() -> None:
    rnd = heats_round()
    assert EARLY_START == timedelta(minutes=30)
    assert next_heats(rnd, clocks("-", "-", "-"), TEN - timedelta(minutes=31), DAY) == [
        NotTimeYet(1)]
    assert next_heats(rnd, clocks("-", "-", "-"), TEN - timedelta(minutes=30), DAY) == [
        StartNow(1)]
    assert next_heats(rnd, clocks("-", "-", "-"), TEN + timedelta(hours=5), DAY) == [
        StartNow(1)]


def test_one_heat_after_the_other_never_while_the_one_before_is_played() -> None:
    rnd = heats_round()
    later = TEN + timedelta(minutes=20)
    assert next_heats(rnd, clocks("r", "-", "-"), later, DAY) == [AfterRunning(2, 1)]
    assert next_heats(rnd, clocks("s", "-", "-"), later, DAY) == [StartNow(2)]
    assert next_heats(rnd, clocks("s", "r", "-"), later, DAY) == [AfterRunning(3, 2)]
    # a heat started by its name out of turn holds its venue too
    assert next_heats(rnd, clocks("-", "r", "-"), later, DAY) == [AfterRunning(1, 2)]
    assert next_heats(rnd, clocks("s", "s", "r"), later, DAY) == [AllStarted(3)]


def test_a_heat_with_its_own_later_time_waits_for_it() -> None:
    rnd = heats_round(2, schedule=(HeatSchedule(DAY, TEN),
                                   HeatSchedule(DAY, TEN + timedelta(hours=5))))
    nine_thirty = TEN - timedelta(minutes=30)
    assert next_heats(rnd, clocks("-", "-"), TEN - timedelta(hours=1), DAY) == [NotTimeYet(1)]
    assert next_heats(rnd, clocks("-", "-"), nine_thirty, DAY) == [StartNow(1)]
    # heat 1 over, or still played: heat 2's hour says more
    for first in ("s", "r"):
        assert next_heats(rnd, clocks(first, "-"), nine_thirty, DAY) == [NotTimeYet(2)]
    assert next_heats(rnd, clocks("s", "-"), TEN + timedelta(hours=4, minutes=29), DAY) == [
        NotTimeYet(2)]
    assert next_heats(rnd, clocks("s", "-"), TEN + timedelta(hours=4, minutes=30), DAY) == [
        StartNow(2)]


def test_a_heat_on_another_day() -> None:
    tomorrow = DAY + timedelta(days=1)
    rnd = heats_round(2, schedule=(HeatSchedule(DAY, TEN),
                                   HeatSchedule(tomorrow, TEN + timedelta(days=1))))
    assert next_heats(rnd, clocks("s", "-"), TEN + timedelta(hours=13, minutes=50), DAY) == [
        NotTimeYet(2)]
    assert next_heats(rnd, clocks("s", "-"), TEN + timedelta(days=1), tomorrow) == [
        StartNow(2)]
    # a day without an hour: from its morning, not the day before; a day gone by: at once
    rnd = heats_round(1, start=None)
    assert next_heats(rnd, clocks("-"), TEN - timedelta(hours=9), DAY) == [StartNow(1)]
    assert next_heats(rnd, clocks("-"), TEN, DAY - timedelta(days=1)) == [NotTimeYet(1)]
    assert next_heats(rnd, clocks("-"), TEN, DAY + timedelta(days=1)) == [StartNow(1)]


def test_heats_at_the_same_time_at_different_venues_start_together() -> None:
    rnd = heats_round(3, schedule=(HeatSchedule(DAY, TEN, "Hall A"),
                                   HeatSchedule(DAY, TEN, "Hall B"),
                                   HeatSchedule(DAY, TEN, "Hall A")))
    assert next_heats(rnd, clocks("-", "-", "-"), TEN, DAY) == [StartNow(1), StartNow(2)]
    # each venue on its own: hall A's second heat waits for its first, hall B does not
    assert next_heats(rnd, clocks("r", "-", "-"), TEN, DAY) == [AfterRunning(3, 1),
                                                               StartNow(2)]
    assert next_heats(rnd, clocks("s", "r", "-"), TEN, DAY) == [StartNow(3), AllStarted(2)]
    # only the heats with entrants are given: a venue without any has nothing to start
    assert next_heats(rnd, [HeatClock(2)], TEN, DAY) == [StartNow(2)]
    assert next_heats(rnd, [], TEN, DAY) == []


# -- when a heat is over ------------------------------------------------------------------------


def row(number: int, position: int | None, outcome: str | None = None) -> Row:
    return Row(position, Competitor(number, (f"P{number}",), outcome=outcome), False, None,
               None)


def test_a_heat_is_over_at_its_limit_or_once_everyone_has_a_result() -> None:
    waiting = [row(1, 1), row(2, None)]
    assert not heat_over(waiting, None, 3600)
    assert not heat_over(waiting, 3599, 3600)
    assert heat_over(waiting, 3600, 3600)
    assert heat_over([row(1, 1), row(2, 2)], 60, 3600)
    assert heat_over([row(1, 1), row(2, None, "dns")], 60, 3600)
    assert not heat_over([row(1, 1), row(2, 2)], None, 3600)  # never started


# -- when a finish may be recorded ------------------------------------------------------------

FIVE = Category("solo", "Individual", 1, 500, 7200, 0, (Slot(),),
                puzzles=(100, 100, 100, 100, 100))


def test_a_finish_comes_after_every_split() -> None:
    assert finish_refused(FIVE, [1, 2, 3], None) == SplitsMissing(1, (4,), 5)
    assert finish_refused(FIVE, [1], None) == SplitsMissing(3, (2, 3, 4), 5)
    assert finish_refused(FIVE, [], None) == SplitsMissing(4, (1, 2, 3, 4), 5)
    assert finish_refused(FIVE, [1, 2, 3, 4], None) is None
    one = replace(FIVE, puzzles=())
    assert finish_refused(one, [], None) is None
    assert finish_refused(replace(FIVE, puzzles=(250, 250)), [], None) == SplitsMissing(
        1, (1,), 2)


def test_puzzles_in_any_order_need_as_many_splits_whichever() -> None:
    three = replace(FIVE, puzzles=(500, 300, 200), puzzle_order="any", play=2)
    assert finish_refused(three, [], None) == SplitsMissing(1, (1, 2, 3), 2, any_order=True)
    assert finish_refused(three, [3], None) is None
    every = replace(three, play=0)
    assert finish_refused(every, [2], None) == SplitsMissing(1, (1, 3), 3, any_order=True)


def test_a_disqualified_entrys_finish_changes_nothing() -> None:
    assert finish_refused(FIVE, [1, 2, 3, 4], "dsq", "pieces taken") == Disqualified(
        "pieces taken")
    assert finish_refused(FIVE, [1], "dsq") == Disqualified("")
    for other in ("dns", "oc", None):  # out of competition still plays and is ranked apart
        assert finish_refused(FIVE, [1, 2, 3, 4], other) is None


# -- notes cleaned as names are ---------------------------------------------------------------


@pytest.mark.parametrize("typed,stored", [
    ("pieces\x1b[31m taken\x07", "pieces [31m taken"),
    ("\u202egnitaehc table 4", "gnitaehc table 4"),
    ("\u2066left\u2069 \u200bzero\ufeff", "left zero"),
    ("a\tb\r\nc  d", "a b c d"),
    ("team \U0001f468\u200d\U0001f469\u200d\U0001f467 cheated", "team \U0001f468\u200d"
     "\U0001f469\u200d\U0001f467 cheated"),
    ("\u05e9\u05dc\u05d5\u05dd\u200f!", "\u05e9\u05dc\u05d5\u05dd\u200f!"),
    ("\x1b\x07\u202e", ""),
])
def test_a_note_is_cleaned_of_control_and_direction_characters(typed: str, stored: str) -> None:
    assert clean_note(typed) == stored
    assert clean_note(stored) == stored
    assert "\x1b" not in clean_name(typed) and "\x07" not in clean_name(typed)
