"""A season of whole days ends at the hour it began (bot/domain/clock.py: wall_clock_limit,
clocks_change; docs/rules.md): across a change to or from summer time it is an hour longer or
shorter in contest seconds, and the day the clocks change is named. Pure, run against every
mutant by ``make mutate``; every expected value is worked out by hand."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from bot.domain.clock import CategoryClock, Pause, clocks_change, wall_clock_limit

BERLIN = ZoneInfo("Europe/Berlin")
T0 = datetime(2026, 10, 3, 10, 0, tzinfo=BERLIN)  # the season opens, summer time (UTC+2)
END = datetime(2026, 10, 31, 10, 0, tzinfo=BERLIN)  # four weeks on, winter time (UTC+1)
WEEKS4 = 28 * 86400
DAY = 86400


def test_a_season_of_weeks_ends_at_the_hour_it_began() -> None:
    started = CategoryClock(T0.astimezone(UTC))  # the database's moments are UTC
    # back to winter time on 25 October: an hour more in contest seconds
    assert started.instant_at(wall_clock_limit(WEEKS4, started, "Europe/Berlin")) == END
    assert clocks_change(BERLIN, T0, END) == (datetime(2026, 10, 25).date(), False)
    # to summer time on 29 March: an hour fewer; the same season in Madrid in summer: as it is
    spring = CategoryClock(datetime(2026, 3, 14, 10, 0, tzinfo=BERLIN).astimezone(UTC))
    assert spring.instant_at(wall_clock_limit(WEEKS4, spring, "Europe/Berlin")) == \
        datetime(2026, 4, 11, 10, 0, tzinfo=BERLIN)
    assert clocks_change(BERLIN, spring.started, datetime(2026, 4, 11, tzinfo=BERLIN)) == (
        datetime(2026, 3, 29).date(), True)
    summer = CategoryClock(datetime(2026, 6, 1, 10, 0, tzinfo=BERLIN).astimezone(UTC))
    assert wall_clock_limit(WEEKS4, summer, "Europe/Madrid") == WEEKS4
    assert clocks_change(BERLIN, summer.started, datetime(2026, 6, 29, tzinfo=BERLIN)) is None
    # a limit of hours, or a clock not started, is as it is
    assert wall_clock_limit(3 * 3600, started, "Europe/Berlin") == 3 * 3600
    assert wall_clock_limit(WEEKS4, CategoryClock(None), "Europe/Berlin") == WEEKS4


def test_only_whole_days_move_and_the_offset_is_exactly_the_change() -> None:
    started = CategoryClock(T0.astimezone(UTC))
    assert wall_clock_limit(WEEKS4, started, "Europe/Berlin") == WEEKS4 + 3600
    assert wall_clock_limit(DAY, started, "Europe/Berlin") == DAY  # no change in one day
    assert wall_clock_limit(DAY + 1, started, "Europe/Berlin") == DAY + 1  # not whole days
    assert wall_clock_limit(DAY - 1, started, "Europe/Berlin") == DAY - 1
    # a pause with no end yet: the end can't be known, the limit stays as it is
    paused = CategoryClock(T0.astimezone(UTC), (Pause(T0.astimezone(UTC), None),))
    assert wall_clock_limit(WEEKS4, paused, "Europe/Berlin") == WEEKS4
    # the change on the very last day, and on the first
    assert clocks_change(BERLIN, datetime(2026, 10, 24, 12, tzinfo=BERLIN),
                         datetime(2026, 10, 25, 12, tzinfo=BERLIN)) == (
        datetime(2026, 10, 25).date(), False)
    assert clocks_change(BERLIN, datetime(2026, 10, 25, 12, tzinfo=BERLIN),
                         datetime(2026, 10, 30, tzinfo=BERLIN)) is None
    assert clocks_change(BERLIN, END, T0) is None  # an end before the start: none
