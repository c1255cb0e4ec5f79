"""Contest time: the official clock of a category, with breaks, and h:mm:ss parsing.

Contest time is the real time elapsed since the category's clock was started, minus every
paused moment (configured breaks and organiser pauses, their union counted once). All times
are passed in; nothing here reads a clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.domain.numbers import ascii_digits


class DurationError(ValueError):
    """A duration the person typed could not be read. ``code`` names the problem."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{code}: {text!r}")
        self.code = code  # "empty", "format", "seconds", "minutes"
        self.text = text


_DURATION = re.compile(r"^([0-9]{1,3}):([0-9]{1,2})(?::([0-9]{1,2}))?$")


def hours_reading(text: str) -> int | None:
    """The other way to read a two-part time: ``1:47`` is read as 1 min 47 s (``m:ss``), but
    a volunteer may have meant 1 h 47 min (``h:mm``). Seconds of that reading, or None when
    ``text`` is not a valid two-part time with minutes below 60."""
    t = ascii_digits(text.strip())
    m = _DURATION.match(t)
    if not m or m.group(3) is not None or len(m.group(2)) != 2 or int(m.group(2)) >= 60:
        return None
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60


def parse_duration(text: str) -> int:
    """Read ``h:mm:ss`` or ``m:ss`` into seconds.

    ``1:47:30`` is 1 h 47 min 30 s; ``47:30`` is 47 min 30 s. Minutes and seconds of a
    three-part time must be below 60; the minutes of ``m:ss`` may be any number. Digits of any
    script are read as 0-9 (``bot.domain.numbers``); nothing else is (no sign, no spaces).
    """
    t = ascii_digits(text.strip())
    if not t:
        raise DurationError("empty", text)
    m = _DURATION.match(t)
    if not m:
        raise DurationError("format", text)
    a, b, c = m.group(1), m.group(2), m.group(3)
    if c is None:
        minutes, seconds = int(a), int(b)
        if len(b) != 2:
            raise DurationError("format", text)
        if seconds >= 60:
            raise DurationError("seconds", text)
        return minutes * 60 + seconds
    if len(b) != 2 or len(c) != 2:
        raise DurationError("format", text)
    hours, minutes, seconds = int(a), int(b), int(c)
    if minutes >= 60:
        raise DurationError("minutes", text)
    if seconds >= 60:
        raise DurationError("seconds", text)
    return hours * 3600 + minutes * 60 + seconds


_LONG = re.compile(r"^(?:([0-9]+) *(?:weeks?|w)(?![a-z]) *)?(?:([0-9]+) *(?:days?|d)(?![a-z]) *)?"
                   r"(?:([0-9]+):([0-5][0-9]):([0-5][0-9]))?$")


def parse_long_duration(text: str) -> int:
    """A duration a contest file states: what ``parse_duration`` reads ("1:30:00", "5:00" is
    five minutes), or whole weeks and days, then ``h:mm:ss`` with any number of hours:
    "8 weeks", "3 days", "1 week 2 days 12:00:00", "56d", "1344:00:00". Seconds."""
    try:
        return parse_duration(text)
    except DurationError:
        pass
    t = " ".join(ascii_digits(text.strip()).lower().split())
    m = _LONG.match(t)
    if not t or not m or not any(m.groups()):
        raise DurationError("format", text)
    weeks, days, hours, minutes, seconds = (int(g) if g else 0 for g in m.groups())
    return ((weeks * 7 + days) * 24 + hours) * 3600 + minutes * 60 + seconds


def format_duration(seconds: int) -> str:
    """Seconds as ``h:mm:ss`` (negative values get a leading minus)."""
    sign = "-" if seconds < 0 else ""
    s = abs(seconds)
    return f"{sign}{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


@dataclass(frozen=True)
class Pause:
    """A stretch when the clock does not run. ``end`` None: still paused."""

    start: datetime
    end: datetime | None


def merge_pauses(pauses: Iterable[Pause]) -> list[Pause]:
    """The union of pauses as disjoint, sorted stretches (an open pause absorbs what follows)."""
    merged: list[Pause] = []
    for p in sorted(pauses, key=lambda p: p.start):
        last = merged[-1] if merged else None
        if last is None or (last.end is not None and p.start > last.end):
            merged.append(p)
        elif last.end is not None:  # overlaps the last stretch, which it may lengthen
            merged[-1] = Pause(last.start, _later_end(last.end, p.end))
    return merged


def _later_end(a: datetime, b: datetime | None) -> datetime | None:
    return None if b is None else max(a, b)


@dataclass(frozen=True)
class CategoryClock:
    """The official clock of one category: when it started and when it was paused."""

    started: datetime | None
    pauses: tuple[Pause, ...] = ()

    @staticmethod
    def build(started: datetime | None, pauses: Iterable[Pause]) -> CategoryClock:
        return CategoryClock(started, tuple(merge_pauses(pauses)))

    def paused_at(self, at: datetime) -> bool:
        return any(p.start <= at and (p.end is None or at < p.end) for p in self.pauses)

    def elapsed(self, at: datetime) -> int | None:
        """Contest seconds at real instant ``at``; None before the clock started."""
        if self.started is None or at < self.started:
            return None
        total = (at - self.started).total_seconds()
        for p in self.pauses:
            lo = max(p.start, self.started)
            hi = at if p.end is None else min(p.end, at)
            if hi > lo:
                total -= (hi - lo).total_seconds()
        return int(total)

    def instant_at(self, contest_seconds: int) -> datetime | None:
        """The first real instant the clock shows ``contest_seconds``.

        None if the clock has not started, or the moment falls after a pause that has no end yet
        (it cannot be known until the organiser resumes).
        """
        if self.started is None:
            return None
        cursor = self.started
        remaining = timedelta(seconds=contest_seconds)
        for p in self.pauses:
            if p.end is not None and p.end <= self.started:
                continue
            lo = max(p.start, self.started)
            if cursor + remaining <= lo:
                return cursor + remaining
            remaining -= lo - cursor
            if p.end is None:
                return None
            cursor = p.end
        return cursor + remaining


# the clock alerts: (contest seconds before the time limit, key): 15 and 5 minutes left, time's up
ALERTS = ((15 * 60, "15"), (5 * 60, "5"), (0, "0"))


DAY = 86400


def wall_clock_limit(limit: int, clock: CategoryClock, timezone: str) -> int:
    """A time to play of whole days (a season over weeks) ends on its last day at the time
    of day it started, on the clocks of the contest's zone: across a change to or from summer
    time it is an hour longer or shorter in contest seconds ("4 weeks" from Saturday 3 October
    10:00 in Berlin end on Saturday 31 October at 10:00, not 09:00). Any other limit, or a
    clock not started, is ``limit`` as it is."""
    if limit < DAY or limit % DAY or clock.started is None:
        return limit
    end = clock.instant_at(limit)
    if end is None:
        return limit
    zone = ZoneInfo(timezone)
    before, after = clock.started.astimezone(zone).utcoffset(), end.astimezone(zone).utcoffset()
    if before is None or after is None:
        return limit
    return limit + int((before - after).total_seconds())


def clocks_change(zone: ZoneInfo, start: datetime, end: datetime) -> tuple[date, bool] | None:
    """The first day between ``start`` and ``end`` the clocks of ``zone`` change on, and
    whether they go forward (to summer time); None: they don't change in between."""
    first = start.astimezone(zone)
    offset = first.utcoffset()
    day = first.date()
    while day <= end.astimezone(zone).date():
        noon = datetime.combine(day, time(12), zone).utcoffset()
        if noon is not None and offset is not None and noon != offset:
            return day, noon > offset
        day += timedelta(days=1)
    return None


def within_limit(contest_seconds: int, limit: int, inclusive: bool = True) -> bool:
    """Whether a time counts as inside a category's limit."""
    return contest_seconds <= limit if inclusive else contest_seconds < limit

