"""Keeping the bot up for months, as rules: when the automatic backups are taken and which are
kept, when a day's copy goes to the organisers, what a gap in the bot's running may have lost,
and what each of the doctor's findings says. Pure: times are passed in; no Telegram, no SQL,
no files."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from bot.domain.contest import Contest

# -- automatic backups ---------------------------------------------------------------------

ON_A_PLAY_DAY = timedelta(minutes=30)  # how often a copy is taken on a day of play
OTHERWISE = timedelta(hours=6)  # and on the months of registration around it
KEEP_RECENT = 48  # the newest copies all kept (a day of play's, half-hourly)
KEEP_DAILY = timedelta(days=30)  # older: the last of each day, for this long
SEND_FROM = time(21, 0)  # a day's copy goes to the organisers from this hour of the evening


def play_days(contest: Contest) -> frozenset[date]:
    """The days something is played: the contest's, and each round's and heat's."""
    days = {contest.date}
    for c in contest.categories:
        for r in c.rounds:
            days.add(r.date)
            days.update(h.date for h in r.schedule)
    return frozenset(days)


def next_backup(now: datetime, days: frozenset[date], zone: ZoneInfo) -> datetime:
    """When the next copy is taken, one taken ``now``: in half an hour on a day of play, else
    in six hours, but at the start of a day of play if that comes sooner."""
    local = now.astimezone(zone)
    if local.date() in days:
        return now + ON_A_PLAY_DAY
    later = now + OTHERWISE
    coming = sorted(d for d in days if d > local.date())
    if coming:
        midnight = datetime.combine(coming[0], time(0), zone)
        if midnight < later:
            return midnight
    return later


def first_backup(last: datetime | None, now: datetime, days: frozenset[date],
                 zone: ZoneInfo) -> datetime:
    """When the first copy after a start is taken: when the last one (``last``, None: none
    yet) would have had its next, or now if that is past."""
    if last is None:
        return now
    return max(now, next_backup(last, days, zone))


def to_remove(copies: Iterable[datetime], zone: ZoneInfo, now: datetime) -> set[datetime]:
    """The copies (by when each was taken) to delete: the newest ``KEEP_RECENT`` are kept,
    then the last of each day for ``KEEP_DAILY``; the newest is never deleted."""
    ordered = sorted(set(copies), reverse=True)
    kept_days: set[date] = set()
    remove: set[datetime] = set()
    for i, taken in enumerate(ordered):
        if i < KEEP_RECENT:
            kept_days.add(taken.astimezone(zone).date())
            continue
        day = taken.astimezone(zone).date()
        if now - taken <= KEEP_DAILY and day not in kept_days:
            kept_days.add(day)
            continue
        remove.add(taken)
    return remove


def send_due(last_sent: date | None, now: datetime, zone: ZoneInfo) -> bool:
    """Whether the copy just taken goes to the organisers: once a day, the first copy from
    21:00; a day missed (the bot off that evening) is made up by the next copy taken (the
    first ever waits for the evening)."""
    local = now.astimezone(zone)
    if (local.hour, local.minute) >= (SEND_FROM.hour, SEND_FROM.minute):
        return last_sent != local.date()
    return last_sent is not None and last_sent < local.date() - timedelta(days=1)


# -- a gap in the bot's running ------------------------------------------------------------

HEARTBEAT = timedelta(minutes=5)  # how often the bot notes that it runs
KEPT_BY_TELEGRAM = timedelta(hours=24)  # updates older than this are dropped by Telegram
# a margin for a clock a little off, and for the heartbeat's own interval: a gap this close to
# the 24 hours is told too ("may be lost")
MARGIN = timedelta(minutes=30)


@dataclass(frozen=True)
class Offline:
    """The bot did not run from ``since`` (its last heartbeat) to ``back``: what people sent
    it before ``lost_before`` may have been dropped by Telegram."""

    since: datetime
    back: datetime
    lost_before: datetime


def offline(last_beat: datetime | None, now: datetime) -> Offline | None:
    """A gap long enough that Telegram may have dropped messages (None: nothing lost)."""
    if last_beat is None or now - last_beat < KEPT_BY_TELEGRAM - MARGIN:
        return None
    return Offline(last_beat, now, now - KEPT_BY_TELEGRAM + MARGIN)


# -- the doctor's findings -----------------------------------------------------------------


class Status(StrEnum):
    OK = "ok"
    WARN = "warn"  # works, but something to do soon
    FAIL = "fail"  # does not work: fix it first


@dataclass(frozen=True)
class Finding:
    """One check: its ``check`` code, ``status``, what was found (``found``, English facts:
    numbers, paths) and the ``advice`` code of what to do (None: nothing)."""

    check: str
    status: Status
    found: str = ""
    advice: str | None = None
    detail: str = ""  # a second fact (the disk's: the database's size in MB)


LOW_DISK = 1 << 30  # below 1 GiB free: warn
FULL_DISK = 200 << 20  # below 200 MiB free (or the room for three copies): fail
CLOCK_OFF = 5.0  # seconds between our clock and Telegram's before it is said


def disk(free: int, database: int) -> Finding:
    """Room on the disk for the database to grow and for its copies."""
    need = max(FULL_DISK, 3 * database)
    found, size = str(free >> 20), str(database >> 20)
    if free < need:
        return Finding("disk", Status.FAIL, found, "free_disk", size)
    if free < max(LOW_DISK, 10 * database):
        return Finding("disk", Status.WARN, found, "free_disk", size)
    return Finding("disk", Status.OK, found, None, size)


def backup_age(newest: datetime | None, now: datetime, days: frozenset[date],
               zone: ZoneInfo, enabled: bool = True) -> Finding:
    """The newest copy is recent: at most twice the interval of the day it was due."""
    if not enabled:
        return Finding("backup", Status.WARN, "", "backups_off")
    if newest is None:  # found: nothing (``found`` is the newest copy's age in minutes)
        return Finding("backup", Status.WARN, "", "run_bot")
    due = next_backup(newest, days, zone)
    found = str(max(0, int((now - newest).total_seconds() // 60)))  # its age in minutes
    if now > due + (due - newest):
        return Finding("backup", Status.FAIL, found, "run_bot")
    return Finding("backup", Status.OK, found)


def clock(offset: float | None) -> Finding:
    """Our clock against Telegram's (``offset``: ours minus theirs, in seconds; None:
    unknown)."""
    if offset is None:
        return Finding("clock", Status.WARN, "Telegram's time unknown", "check_clock")
    found = f"{offset:+.0f} s"
    if abs(offset) > CLOCK_OFF:
        return Finding("clock", Status.FAIL, found, "set_clock")
    return Finding("clock", Status.OK, found)


def worst(findings: Iterable[Finding]) -> Status:
    statuses = {f.status for f in findings}
    return (Status.FAIL if Status.FAIL in statuses else
            Status.WARN if Status.WARN in statuses else Status.OK)
