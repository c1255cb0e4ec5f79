"""Issue 49: keeping the bot up for months, its rules worked out by hand: when the automatic
backups are taken (every 30 minutes on a day of play, every 6 hours otherwise), which copies
are kept, when the day's copy goes to the organisers, what a long time off may have lost, and
how the doctor judges the disk, the backups and the clock."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.features.upkeep.rules import (
    KEEP_RECENT,
    Finding,
    Offline,
    Status,
    backup_age,
    clock,
    disk,
    first_backup,
    next_backup,
    offline,
    send_due,
    to_remove,
    worst,
)

MADRID = ZoneInfo("Europe/Madrid")
DAY = date(2027, 7, 3)  # the day of play
DAYS = frozenset({DAY})


def at(text: str) -> datetime:
    """A moment on Madrid's clocks ("2027-07-02 23:00")."""
    return datetime.fromisoformat(text).replace(tzinfo=MADRID)


def test_every_half_hour_on_a_day_of_play_and_every_six_hours_otherwise() -> None:
    assert next_backup(at("2027-07-03 10:00"), DAYS, MADRID) == at("2027-07-03 10:30")
    assert next_backup(at("2027-06-01 10:00"), DAYS, MADRID) == at("2027-06-01 16:00")
    # the day before: six hours would be 04:00 on the day; the day starts first
    assert next_backup(at("2027-07-02 22:00"), DAYS, MADRID) == at("2027-07-03 00:00")
    assert next_backup(at("2027-07-02 17:59"), DAYS, MADRID) == at("2027-07-02 23:59")
    # after the last day of play, six hours again
    assert next_backup(at("2027-07-04 09:00"), DAYS, MADRID) == at("2027-07-04 15:00")


def test_the_first_copy_after_a_start_is_due_from_the_newest_on_disk() -> None:
    now = at("2027-06-01 12:00")
    assert first_backup(None, now, DAYS, MADRID) == now  # none yet: at once
    assert first_backup(at("2027-06-01 09:00"), now, DAYS, MADRID) == at("2027-06-01 15:00")
    assert first_backup(at("2027-05-30 09:00"), now, DAYS, MADRID) == now  # overdue: now


def test_the_newest_48_are_kept_then_the_last_of_each_day_for_30_days() -> None:
    now = at("2027-07-03 20:00").astimezone(UTC)
    recent = [now - timedelta(minutes=30 * i) for i in range(KEEP_RECENT)]  # a day of play
    # older: four a day (6 h apart) for 40 days before
    start = recent[-1] - timedelta(hours=6)
    older = [start - timedelta(hours=6 * i) for i in range(160)]
    removed = to_remove(recent + older, MADRID, now)
    assert not removed & set(recent)
    kept_older = sorted(set(older) - removed)
    days = [t.astimezone(MADRID).date() for t in kept_older]
    assert len(days) == len(set(days))  # one a day, the last of it
    for t in kept_older:
        same_day = [o for o in older if o.astimezone(MADRID).date() == t.astimezone(MADRID).date()]
        assert t == max(same_day)
        assert now - t <= timedelta(days=30)
    # a day whose copies are among the newest 48 keeps no other
    assert all(t.astimezone(MADRID).date() not in {r.astimezone(MADRID).date() for r in recent}
               for t in kept_older)
    assert to_remove([], MADRID, now) == set()
    assert to_remove([now - timedelta(days=400)], MADRID, now) == set()  # the newest: kept


def test_the_days_copy_goes_once_from_nine_in_the_evening_and_a_missed_day_is_made_up() -> None:
    assert not send_due(None, at("2027-06-01 20:59"), MADRID)
    assert send_due(None, at("2027-06-01 21:00"), MADRID)
    assert not send_due(date(2027, 6, 1), at("2027-06-01 23:00"), MADRID)
    assert send_due(date(2027, 5, 31), at("2027-06-01 21:30"), MADRID)
    assert not send_due(date(2027, 5, 31), at("2027-06-01 10:00"), MADRID)  # yesterday's sent
    assert send_due(date(2027, 5, 30), at("2027-06-01 10:00"), MADRID)  # yesterday's missed


def test_a_gap_near_telegrams_24_hours_is_told_with_what_may_be_lost() -> None:
    now = at("2027-06-03 09:00")
    assert offline(None, now) is None  # a new database
    assert offline(now - timedelta(hours=23, minutes=29), now) is None
    since = now - timedelta(hours=23, minutes=30)
    assert offline(since, now) == Offline(since, now, now - timedelta(hours=23, minutes=30))
    since = now - timedelta(days=2)
    gap = offline(since, now)
    assert gap is not None and gap.lost_before == now - timedelta(hours=23, minutes=30)


def test_the_disk_needs_room_for_the_database_and_its_copies() -> None:
    mb = 1 << 20
    assert disk(5000 * mb, 10 * mb).status is Status.OK
    assert disk(900 * mb, 10 * mb) == Finding("disk", Status.WARN, "900", "free_disk", "10")
    assert disk(199 * mb, 10 * mb).status is Status.FAIL
    assert disk(1500 * mb, 400 * mb).status is Status.WARN  # less than ten databases
    assert disk(1100 * mb, 400 * mb).status is Status.FAIL  # less than three


def test_the_backups_are_recent_within_twice_their_interval() -> None:
    now = at("2027-06-01 12:00")
    assert backup_age(None, now, DAYS, MADRID).status is Status.WARN
    assert backup_age(None, now, DAYS, MADRID, enabled=False).advice == "backups_off"
    assert backup_age(now - timedelta(hours=11), now, DAYS, MADRID) == Finding(
        "backup", Status.OK, "660")
    assert backup_age(now - timedelta(hours=12, minutes=1), now, DAYS, MADRID).status is \
        Status.FAIL
    on_the_day = at("2027-07-03 12:00")
    assert backup_age(on_the_day - timedelta(minutes=59), on_the_day, DAYS,
                      MADRID).status is Status.OK
    assert backup_age(on_the_day - timedelta(minutes=61), on_the_day, DAYS,
                      MADRID).status is Status.FAIL


def test_the_clock_within_five_seconds_of_telegrams() -> None:
    assert clock(None).status is Status.WARN
    assert clock(4.9) == Finding("clock", Status.OK, "+5 s")
    assert clock(-5.0).status is Status.OK
    assert clock(-5.1) == Finding("clock", Status.FAIL, "-5 s", "set_clock")
    assert worst([clock(0), clock(None)]) is Status.WARN
    assert worst([clock(0), clock(9), clock(None)]) is Status.FAIL
    assert worst([clock(0)]) is Status.OK


# -- the edges, each worked out by hand (mutation testing: docs/mutants.md) -------------------


def test_the_play_days_interval_follows_the_contests_clocks_not_utc() -> None:
    # 23:30 UTC on 2 July is 01:30 on 3 July in Madrid: a day of play
    late = datetime(2027, 7, 2, 23, 30, tzinfo=UTC)
    assert next_backup(late, DAYS, MADRID) == late + timedelta(minutes=30)
    # two days of play to come: the nearer one starts the half-hours
    two = frozenset({date(2027, 7, 3), date(2027, 7, 10)})
    assert next_backup(at("2027-07-02 22:00"), two, MADRID) == at("2027-07-03 00:00")
    assert next_backup(at("2027-07-09 20:00"), two, MADRID) == at("2027-07-10 00:00")
    # a day of play past: never a reason to wait less
    assert next_backup(at("2027-07-05 10:00"), two, MADRID) == at("2027-07-05 16:00")
    assert next_backup(at("2027-07-03 23:45"), DAYS, MADRID) == at("2027-07-04 00:15")


def test_the_daily_copies_keep_the_last_of_each_day_up_to_thirty_days_exactly() -> None:
    now = at("2027-07-03 20:00").astimezone(UTC)
    recent = [now - timedelta(minutes=i) for i in range(KEEP_RECENT)]
    old_evening = now - timedelta(days=30)  # exactly 30 days: kept
    old_morning = old_evening - timedelta(hours=8)  # the same day, earlier: removed
    older = now - timedelta(days=30, seconds=-1) - timedelta(days=1)  # past 30 days: removed
    removed = to_remove(recent + [old_evening, old_morning, older], MADRID, now)
    assert removed == {old_morning, older}
    # the same copy twice counts once
    assert to_remove(recent + [old_evening, old_evening], MADRID, now) == set()


def test_the_disk_edges() -> None:
    mb = 1 << 20
    # a 100 MB database needs 300 MB (three copies) to work, 1 GB to be in order
    assert disk(300 * mb, 100 * mb) == Finding("disk", Status.WARN, "300", "free_disk", "100")
    assert disk(300 * mb - 1, 100 * mb) == Finding("disk", Status.FAIL, "299", "free_disk",
                                                   "100")
    assert disk(1024 * mb, 100 * mb) == Finding("disk", Status.OK, "1024", None, "100")
    assert disk(1024 * mb - 1, 100 * mb).status is Status.WARN
    # an empty database: 200 MB to work
    assert disk(200 * mb, 0) == Finding("disk", Status.WARN, "200", "free_disk", "0")
    assert disk(200 * mb - 1, 0).status is Status.FAIL
    # a 200 MB database: ten of it (2,000 MB) to be in order
    assert disk(2000 * mb, 200 * mb) == Finding("disk", Status.OK, "2000", None, "200")
    assert disk(2000 * mb - 1, 200 * mb).status is Status.WARN


def test_the_backup_edges() -> None:
    now = at("2027-06-01 12:00")
    assert backup_age(None, now, DAYS, MADRID) == Finding("backup", Status.WARN, "", "run_bot")
    assert backup_age(now, now, DAYS, MADRID, enabled=False) == Finding(
        "backup", Status.WARN, "", "backups_off")
    # every 6 hours that day: 12 hours old exactly is still in order, a second more is not
    assert backup_age(now - timedelta(hours=12), now, DAYS, MADRID) == Finding(
        "backup", Status.OK, "720")
    assert backup_age(now - timedelta(hours=12, seconds=1), now, DAYS, MADRID) == Finding(
        "backup", Status.FAIL, "720", "run_bot")
    assert backup_age(now - timedelta(seconds=59), now, DAYS, MADRID).found == "0"
    assert backup_age(now + timedelta(minutes=5), now, DAYS, MADRID).found == "0"


def test_the_clock_edges() -> None:
    assert clock(None) == Finding("clock", Status.WARN, "Telegram's time unknown", "check_clock")
    assert clock(5.0) == Finding("clock", Status.OK, "+5 s")
    assert clock(5.01) == Finding("clock", Status.FAIL, "+5 s", "set_clock")
    assert clock(-61.4) == Finding("clock", Status.FAIL, "-61 s", "set_clock")
    assert clock(0.0) == Finding("clock", Status.OK, "+0 s")
