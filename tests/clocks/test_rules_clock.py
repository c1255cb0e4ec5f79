"""RULES.md section 2: the clock."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.domain.clock import (
    CategoryClock,
    DurationError,
    Pause,
    format_duration,
    parse_duration,
    within_limit,
)

PARIS = ZoneInfo("Europe/Paris")


def at(h: int, m: int, s: int = 0) -> datetime:
    return datetime(2012, 3, 10, h, m, s, tzinfo=PARIS)


def billom_clock(*extra: Pause) -> CategoryClock:
    return CategoryClock.build(at(14, 0), [Pause(at(15, 15), at(15, 30)), *extra])


def test_rule_break_pauses_the_clock_team_finishing_1605_has_1_50_00():
    assert billom_clock().elapsed(at(16, 5)) == parse_duration("1:50:00")


def test_rule_time_before_the_break_is_not_affected():
    assert billom_clock().elapsed(at(15, 0)) == 3600


def test_rule_during_the_break_the_clock_stands_still():
    clock = billom_clock()
    assert clock.elapsed(at(15, 15)) == clock.elapsed(at(15, 29, 59)) == 75 * 60
    assert clock.paused_at(at(15, 20))
    assert not clock.paused_at(at(15, 30))


def test_rule_organiser_pause_overlapping_configured_break_counts_once():
    clock = billom_clock(Pause(at(15, 10), at(15, 20)))
    # paused 15:10-15:30 = 20 minutes, not 25
    assert clock.elapsed(at(16, 0)) == 2 * 3600 - 20 * 60


def test_rule_open_organiser_pause_stops_the_clock_until_resumed():
    clock = CategoryClock.build(at(14, 0), [Pause(at(14, 30), None)])
    assert clock.elapsed(at(15, 30)) == 30 * 60
    assert clock.instant_at(40 * 60) is None


def test_rule_break_before_the_category_started_does_not_count():
    clock = CategoryClock.build(at(15, 20), [Pause(at(15, 15), at(15, 30))])
    assert clock.elapsed(at(15, 40)) == 10 * 60


def test_rule_clock_not_started_gives_no_time():
    assert CategoryClock.build(None, []).elapsed(at(15, 0)) is None
    assert billom_clock().elapsed(at(13, 59)) is None


def test_instant_at_inverts_elapsed_across_the_break():
    clock = billom_clock()
    limit = parse_duration("2:30:00")
    assert clock.instant_at(limit) == at(16, 45)  # the original's end time, break included
    assert clock.instant_at(75 * 60) == at(15, 15)
    for secs in (0, 600, 4500, 4501, 9000):
        moment = clock.instant_at(secs)
        assert moment is not None and clock.elapsed(moment) == secs


def test_rule_3_hour_limit_is_on_the_real_clock():
    limit = parse_duration("3:00:00")
    assert within_limit(parse_duration("2:59:59"), limit)
    assert within_limit(limit, limit)  # finishing on the buzzer counts (contest setting)
    assert not within_limit(limit, limit, inclusive=False)
    assert not within_limit(limit + 1, limit)


@pytest.mark.parametrize(
    "text,seconds",
    [("1:47:30", 6450), ("0:00:00", 0), ("47:30", 2850), ("5:00", 300), ("107:30", 6450),
     (" 2:40:00 ", 9600)],
)
def test_parse_duration_reads_h_mm_ss_and_m_ss(text: str, seconds: int):
    assert parse_duration(text) == seconds
    assert parse_duration(format_duration(seconds)) == seconds


@pytest.mark.parametrize(
    "text,code",
    [("", "empty"), ("abc", "format"), ("1:60:00", "minutes"), ("1:00:60", "seconds"),
     ("5:75", "seconds"), ("-1:00", "format"), ("1:2:3", "format"), ("1:00:00:00", "format"),
     ("1.5", "format"), ("5:0", "format")],
)
def test_parse_duration_errors_name_the_problem(text: str, code: str):
    with pytest.raises(DurationError) as err:
        parse_duration(text)
    assert err.value.code == code


def test_format_duration():
    assert format_duration(6450) == "1:47:30"
    assert format_duration(0) == "0:00:00"
    assert format_duration(-65) == "-0:01:05"
