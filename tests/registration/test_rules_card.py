"""The confirmation card's days (bot/features/registration/rules.py: pay_by, window_end): the
last day a payment counts, and when a home contest's window ends. Pure, run against every
mutant by ``make mutate``; every expected value is worked out by hand."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.domain.contest import Break
from bot.features.registration.rules import pay_by, window_end
from bot.services.contest_file import load_contest
from tests.conftest import ROOT

MADRID = ZoneInfo("Europe/Madrid")
LONDON = ZoneInfo("Europe/London")


def madrid(month: int, day: int) -> datetime:
    return datetime(2027, month, day, 12, tzinfo=MADRID)


def test_the_day_to_pay_by_and_the_end_of_a_window() -> None:
    contest = load_contest(ROOT / "contests" / "online-league-2026.toml")
    seven = load_contest(ROOT / "contests" / "home-cup-2026.toml")
    assert pay_by(contest, madrid(3, 2)) is None  # the contest sets no deadline
    weekly = replace(seven, registration=replace(seven.registration,
                                                 pay_within=timedelta(days=7)))
    assert str(pay_by(weekly, datetime(2026, 10, 20, 15, tzinfo=LONDON))) == "2026-10-27"
    # a deadline at midnight: a payment dated that day is too late, so the day before
    assert str(pay_by(weekly, datetime(2026, 10, 20, 0, tzinfo=LONDON))) == "2026-10-26"
    # the day on the hall's calendar: 00:30 in London is still the day before in UTC
    assert str(pay_by(weekly, datetime(2026, 10, 10, 0, 30, tzinfo=LONDON))) == "2026-10-17"
    # four weeks across the change from summer time end at the hour they began, 10:00, as
    # the season's clock does (not 09:00, four weeks of real seconds)
    start = datetime(2026, 10, 3, 10, tzinfo=ZoneInfo("Europe/Berlin"))
    end = window_end(contest, start, 28 * 86400)
    assert end == datetime(2026, 10, 31, 10, tzinfo=ZoneInfo("Europe/Berlin"))
    # hours are hours: two hours from 19:00 end at 21:00
    assert window_end(seven, datetime(2026, 11, 14, 19, tzinfo=LONDON), 7200) == \
        datetime(2026, 11, 14, 21, tzinfo=LONDON)
    # a break within the window moves its end
    paused = replace(seven, breaks=(Break(datetime(2026, 11, 14, 20, tzinfo=LONDON),
                                          datetime(2026, 11, 14, 20, 15, tzinfo=LONDON)),))
    assert window_end(paused, datetime(2026, 11, 14, 19, tzinfo=LONDON), 7200) == \
        datetime(2026, 11, 14, 21, 15, tzinfo=LONDON)
