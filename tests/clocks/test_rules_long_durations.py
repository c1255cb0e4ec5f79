"""A duration a contest file states (bot/domain/clock.py, ``parse_long_duration``): what
``h:mm:ss`` and ``m:ss`` read, or whole weeks and days, then ``h:mm:ss`` with any number of
hours (a season's time limit: "8 weeks"). Pure domain, run against every mutant by ``make
mutate``; every expected value is worked out by hand (a day is 86,400 s, a week 604,800 s)."""

from __future__ import annotations

import pytest

from bot.domain.clock import DurationError, parse_long_duration

DAY = 86400
WEEK = 7 * DAY


@pytest.mark.parametrize(("text", "seconds"), [
    ("1:30:00", 5400),  # as parse_duration reads it
    ("5:00", 300),  # m:ss
    ("47:30", 2850),
    ("8 weeks", 8 * WEEK),
    ("1 week", WEEK),
    ("1w", WEEK),
    ("2W", 2 * WEEK),
    ("3 days", 3 * DAY),
    ("1 day", DAY),
    ("56d", 56 * DAY),
    ("1344:00:00", 56 * DAY),  # any number of hours
    ("1 week 2 days 12:00:00", 9 * DAY + 12 * 3600),
    ("2W 3 Days", 17 * DAY),
    ("1w2d", 9 * DAY),
    ("  2   weeks  ", 2 * WEEK),
    ("1 week 0:00:01", WEEK + 1),
    ("3 days 1:02:03", 3 * DAY + 3723),
    ("0 days 0:01:02", 62),
    ("2 weeks 0 days", 2 * WEEK),
    ("1000:59:59", 1000 * 3600 + 59 * 60 + 59),
    ("\u0663 days", 3 * DAY),  # an Arabic-Indic 3
])
def test_a_long_duration_read(text: str, seconds: int) -> None:
    assert parse_long_duration(text) == seconds


@pytest.mark.parametrize("text", [
    "", "   ", "weeks", "days", "8 weekss", "1 weekday", "1 dayz", "1 week 12:00",
    "1:60:00", "1 day 1:00:60", "1 day 1:60:00", "-1 days", "2 days 1 week", "1.5 weeks",
    "1 week, 2 days", "1 hour", "12:00:00 1 day", "1 day 1:2:03",
])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(DurationError) as exc:
        parse_long_duration(text)
    assert exc.value.code == "format"  # whatever h:mm:ss alone would have said
    assert exc.value.text == text  # as it was written
