"""Probe of issue 51's door: a championship over several days, the absent report and a pause."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

from bot.features.door.handlers import report_job
from bot.features.following.rules import card_code
from tests.door.test_door import BOSS, T0, VIC, open_day
from tests.fakebot import said
from tests.rounds import test_rounds as rounds


async def test_probe_a_semi_final_a_day_later_expects_its_entrants_again(tmp_path: Path) -> None:
    """Rounds on different days: coming to the heats on day 1 must not count as having come
    to the semi-final on day 2 (/puerta of the semi-final, /presente on day 2)."""
    text = rounds.CONTEST + "\n[door]\nabsent_after_minutes = 15\n"
    h = await rounds.open_day(tmp_path, text, entries=4)
    try:
        for n in (1, 2, 3, 4):
            await h.send(rounds.VIC, f"/presente {n}", rounds.DAY1 - timedelta(minutes=30))
        await rounds.play_heats(h, ((1, "0:40:00"), (2, "0:41:00")),
                                ((3, "0:30:00"), (4, "0:35:00")))
        await h.send(rounds.BOSS, "/confirmar_ronda", rounds.DAY1 + timedelta(hours=3))
        day2 = rounds.DAY2 - timedelta(minutes=20)
        door = said(await h.send(rounds.VIC, "/puerta", day2), rounds.VIC)
        # the heats (2 each) and the semi-final (4): the semi-final's is the one of 4
        [semi] = [t for t in door if " 4 " in t or "of 4" in t]
        # nobody has come to the semi-final yet (it is the next day)
        assert "0 of 4 here" in semi, door
        got = said(await h.send(rounds.VIC, "/presente 1", day2), rounds.VIC)
        assert got and got[0].startswith("✅ #1"), got
    finally:
        await h.stop()


async def test_probe_the_absent_report_waits_for_contest_time_through_a_pause(
        tmp_path: Path) -> None:
    """The clock started at T0 and paused at T0+5 min (open pause): at T0+15 min of wall time
    only 5 minutes of contest time have passed: the organisers must not be told who has not come
    '15 minutes after the start'."""
    h = await open_day(tmp_path)
    try:
        said(await h.send(BOSS, "/pausa", T0 + timedelta(minutes=5)), BOSS)
        job = h.app.bot_data["jobs_by_name"].get("door:adultos")
        before = len(h.sent(BOSS.id))
        if job is not None and not job.removed:
            # the job is left at its old moment, T0 + 15 min of wall time: it runs then
            assert datetime.fromtimestamp(job.data["when"], UTC) == T0 + timedelta(minutes=15)
            await report_job(SimpleNamespace(job=job, application=h.app))  # type: ignore
            await h.app.bot_data["sender"].settled()
        assert not [t for t in h.sent(BOSS.id)[before:] if "not come" in t]
    finally:
        await h.stop()


async def test_probe_the_door_names_each_heat(tmp_path: Path) -> None:
    """/puerta lists each heat of a round: a volunteer must tell them apart (issue 26 had the
    same: a heat titled "Individual")."""
    text = rounds.CONTEST + "\n[door]\nabsent_after_minutes = 15\n"
    h = await rounds.open_day(tmp_path, text, entries=4)
    try:
        door = said(await h.send(rounds.VIC, "/puerta", rounds.DAY1 - timedelta(minutes=30)),
                    rounds.VIC)
        assert len(door) == 2, door
        titles = [t.split(":")[0] for t in door]
        assert len(set(titles)) == 2, door  # "Individual" twice
    finally:
        await h.stop()


async def test_probe_a_card_scanned_weeks_before_is_no_arrival_on_the_day(
        tmp_path: Path) -> None:
    """A volunteer who is also a parent scans the child's table card at home, weeks before the
    contest, to follow the entry: the bot records "#6 here" then, and on the day the door
    counts #6 as come (and the parent never follows it)."""

    h = await open_day(tmp_path)
    try:
        entry = await h.services.store.entry(6)
        weeks_before = T0 - timedelta(days=20)
        said(await h.send(VIC, f"/start {card_code(entry.join_code)}", weeks_before), VIC)
        door = said(await h.send(VIC, "/puerta adultos", T0 + timedelta(minutes=1)), VIC)
        assert "0 of 2 here" in door[0], door
    finally:
        await h.stop()
