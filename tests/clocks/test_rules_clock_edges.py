"""RULES.md section 2, at the edges: several pauses, open pauses, and typed times."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.domain.clock import (
    CategoryClock,
    DurationError,
    Pause,
    format_duration,
    hours_reading,
    parse_duration,
)
from bot.domain.contest import Contest

PARIS = ZoneInfo("Europe/Paris")


def at(h: int, m: int, s: int = 0) -> datetime:
    return datetime(2012, 3, 10, h, m, s, tzinfo=PARIS)


def test_three_pauses_the_last_after_two_that_overlap_all_count():
    # 14:30-14:40 and 14:35-14:45 overlap (15 minutes together), 15:15-15:30 is the break
    clock = CategoryClock.build(at(14, 0), [
        Pause(at(14, 30), at(14, 40)), Pause(at(14, 35), at(14, 45)), Pause(at(15, 15), at(15, 30)),
    ])
    assert clock.elapsed(at(16, 0)) == 2 * 3600 - 15 * 60 - 15 * 60
    assert clock.paused_at(at(15, 20))


def test_pause_inside_a_longer_one_adds_nothing():
    clock = CategoryClock.build(at(14, 0), [
        Pause(at(15, 15), at(15, 30)), Pause(at(15, 18), at(15, 22)), Pause(at(15, 50), at(16, 0)),
    ])
    assert clock.elapsed(at(16, 10)) == 2 * 3600 + 10 * 60 - 15 * 60 - 10 * 60


def test_organiser_pause_begun_during_the_break_and_not_resumed_stops_the_clock():
    clock = CategoryClock.build(at(14, 0), [
        Pause(at(15, 15), at(15, 30)), Pause(at(15, 20), None),
    ])
    assert clock.elapsed(at(15, 15)) == clock.elapsed(at(17, 0)) == 75 * 60
    assert clock.paused_at(at(15, 45))
    assert clock.instant_at(75 * 60 + 1) is None  # not known until the organiser resumes


def test_organiser_pause_after_the_break_and_not_resumed_stops_the_clock():
    clock = CategoryClock.build(at(14, 0), [Pause(at(15, 15), at(15, 30)), Pause(at(16, 0), None)])
    assert clock.elapsed(at(17, 0)) == 105 * 60
    assert clock.instant_at(105 * 60) == at(16, 0)


def test_configured_break_of_the_billom_file_gives_1_50_00_at_16_05(billom: Contest):
    pauses = [Pause(b.start, b.end) for b in billom.breaks]
    clock = CategoryClock.build(at(14, 0), pauses)
    assert clock.elapsed(at(16, 5)) == parse_duration("1:50:00")


@pytest.mark.parametrize("text", ["47:60", "0:47:60", "1:47:60", "5:99"])
def test_seconds_of_60_or_more_are_refused_not_carried_into_the_minutes(text: str):
    # "47:60" is not 48:00: a volunteer mistyped, the bot must ask again
    with pytest.raises(DurationError) as err:
        parse_duration(text)
    assert err.value.code == "seconds"
    assert err.value.text == text


def test_seconds_59_are_the_last_accepted():
    assert parse_duration("47:59") == 47 * 60 + 59
    assert parse_duration("1:59:59") == 2 * 3600 - 1


@pytest.mark.parametrize(
    "text,code",
    [("", "empty"), ("  ", "empty"), ("x", "format"), ("5:0", "format"), ("1:5:00", "format"),
     ("1:05:0", "format"), ("1:60:00", "minutes"), ("1:00:60", "seconds"), ("5:60", "seconds")],
)
def test_a_refused_time_says_what_was_typed(text: str, code: str):
    with pytest.raises(DurationError) as err:
        parse_duration(text)
    assert err.value.code == code
    assert err.value.text == text
    assert repr(text) in str(err.value)


def test_whole_hours_are_formatted_as_hours():
    assert format_duration(3600) == "1:00:00"
    assert format_duration(3 * 3600) == "3:00:00"
    assert format_duration(3599) == "0:59:59"


def test_clock_is_paused_from_the_first_second_of_a_pause():
    clock = CategoryClock.build(at(14, 0), [Pause(at(15, 15), at(15, 30))])
    assert not clock.paused_at(at(15, 14, 59))
    assert clock.paused_at(at(15, 15))


def test_category_started_after_the_break_still_stops_for_a_later_pause():
    # the break is over before this category starts; an organiser pause comes later
    clock = CategoryClock.build(at(15, 40), [
        Pause(at(15, 15), at(15, 30)), Pause(at(16, 0), at(16, 10)),
    ])
    assert clock.elapsed(at(16, 20)) == 30 * 60
    assert clock.instant_at(30 * 60) == at(16, 20)
    assert clock.instant_at(10 * 60) == at(15, 50)


def test_a_two_part_time_read_the_other_way_is_hours_and_minutes():
    # rules.md, "Recording it": 1:47 may be 1 min 47 s or 1 h 47 min; this is the second
    assert hours_reading("1:47") == 1 * 3600 + 47 * 60  # 6420
    assert hours_reading("2:05") == 2 * 3600 + 5 * 60  # 7500: hours and minutes not swapped
    assert hours_reading("0:59") == 59 * 60  # 3540: the last minute of an hour
    assert hours_reading("12:00") == 12 * 3600  # 43200
    assert hours_reading(" 3:10 ") == 3 * 3600 + 10 * 60  # 11400: spaces around are dropped
    assert hours_reading("\uff13:\uff11\uff10") == 11400  # full-width 3:10


def test_no_hours_reading_of_anything_but_a_two_part_time_with_minutes_below_60():
    assert hours_reading("1:60") is None  # 60 minutes is no h:mm
    assert hours_reading("1:5") is None  # minutes take two digits
    assert hours_reading("1:47:30") is None  # h:mm:ss reads one way only
    assert hours_reading("1:47:00") is None
    assert hours_reading("147") is None
    assert hours_reading("") is None
