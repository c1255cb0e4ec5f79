"""The door (bot/features/door): ``/presente N`` marks an entry present, ``/puerta`` lists who
has not come with a button each, /deshacer takes a wrong tap back, the organisers are told
``absent_after_minutes`` after the start who has not come (once) with a "did not start" button
each; bad input records nothing. Castrillo's adults 5 and 6, the clocks started at T0."""

from __future__ import annotations

import sqlite3
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from bot.features.door.handlers import report_job, schedule_reports
from bot.features.door.rules import DoorRules, still_to_come
from bot.features.following.rules import card_code
from bot.services.contest_file import ContestFileError, load_contest, parse_contest
from bot.services.summary import summary
from tests.conftest import CASTRILLO
from tests.fakebot import Harness, Person, count_events, said, two_adults_playing

MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2023, 4, 22, 11, 0, tzinfo=MADRID)
BOSS, VIC = Person(1, "Olga", "en"), Person(20, "Vic", "en")
ANA, SOL = Person(10, "Ana", "en"), Person(11, "Sol", "de")


def contest_text(minutes: int | None = 15) -> str:
    text = CASTRILLO.read_text(encoding="utf-8")
    return text + (f"\n[door]\nabsent_after_minutes = {minutes}\n" if minutes is not None
                   else "")


async def open_day(tmp_path: Path, minutes: int | None = 15) -> Harness:
    path = tmp_path / "door.toml"
    path.write_text(contest_text(minutes), encoding="utf-8")
    return await two_adults_playing(tmp_path, path, BOSS, VIC, (ANA, SOL), T0)


def arrivals(h: Harness) -> list[tuple[int, int]]:
    with sqlite3.connect(h.db_path) as db:
        rows = db.execute("SELECT id, entry, at FROM events WHERE kind = 'arrived'").fetchall()
        dead = {r[0] for r in db.execute(
            "SELECT supersedes FROM events WHERE supersedes IS NOT NULL")}
    return [(entry, at) for i, entry, at in rows if i not in dead]


def test_the_rule_and_the_contest_file() -> None:
    assert still_to_come([(3, False), (1, False), (2, True), (4, False)], {4}) == [1, 3]
    contest = parse_contest(tomllib.loads(contest_text(20)), "x.toml")
    assert contest.settings("door") == DoorRules(20)
    assert load_contest(CASTRILLO).settings("door") is None
    assert "told who has not come 20 min after each start" in summary(contest)
    with pytest.raises(ContestFileError) as err:
        parse_contest(tomllib.loads(contest_text(181)), "x.toml")
    assert "x.toml: door.absent_after_minutes" in str(err.value)


async def test_marked_present_once_with_the_messages_date(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        at = T0 + timedelta(minutes=2)
        got = said(await h.send(VIC, "/here 5", at), VIC)
        assert got == ["✅ #5 Ana Uno: here (11:02). Adultos individual: 1 of 2 here."], got
        assert arrivals(h) == [(5, int(at.timestamp()))]
        again = said(await h.send(VIC, "/here 5", at + timedelta(minutes=1)), VIC)
        assert again == ["#5 Ana Uno was marked present already, at 11:02."], again
        assert len(arrivals(h)) == 1
        before = count_events(h)
        for bad in ("/here", "/here x", "/here 5 6"):
            assert "Usage: /here N" in said(await h.send(VIC, bad, at), VIC)[0]
        assert "no entry" in said(await h.send(VIC, "/here 99", at), VIC)[0].lower()
        # a participant may not mark anyone present
        assert said(await h.send(ANA, "/here 6", at), ANA)
        assert count_events(h) == before
    finally:
        await h.stop()


async def test_the_door_list_its_buttons_and_undo(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        at = T0 + timedelta(minutes=1)
        calls = await h.send(VIC, "/door", at)
        assert said(calls, VIC) == ["Adultos individual: 0 of 2 here; 2 still to come:\n"
                                    "  #5 Ana Uno\n  #6 Sol Dos"]
        assert [d for _, d in h.buttons(calls)] == ["door:5", "door:6"]
        got = said(await h.press(VIC, "door:6", at + timedelta(minutes=1)), VIC)
        assert got == ["✅ #6 Sol Dos: here (11:02). Adultos individual: 1 of 2 here."], got
        calls = await h.send(VIC, "/door adultos", at + timedelta(minutes=2))
        assert said(calls, VIC)[0].startswith("Adultos individual: 1 of 2 here; 1 still")
        assert [d for _, d in h.buttons(calls)] == ["door:5"]
        # the tap was the wrong one: taken back
        await h.undo(VIC, at + timedelta(minutes=3))
        assert arrivals(h) == []
        assert "door:6" in [d for _, d in h.buttons(await h.send(VIC, "/door",
                                                                 at + timedelta(minutes=4)))]
        assert "No category or heat by that name" in said(
            await h.send(VIC, "/door nope", at), VIC)[0]
    finally:
        await h.stop()


async def test_the_organisers_are_told_who_has_not_come_once(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        await h.send(VIC, "/here 5", T0 + timedelta(minutes=3))
        jobs = h.app.bot_data.get("jobs_by_name", {})
        await schedule_reports(h.app)
        job = h.app.bot_data["jobs_by_name"]["door:adultos"]
        assert datetime.fromtimestamp(job.data["when"], UTC) == T0 + timedelta(minutes=15)
        before = len(h.sent(BOSS.id))
        context = SimpleNamespace(job=job, application=h.app)
        await report_job(context)  # type: ignore[arg-type]
        await h.app.bot_data["sender"].settled()
        report = h.sent(BOSS.id)[before:]
        assert report == ["Adultos individual: 1 entry has not come 15 minutes after the start "
                          "(no one marked it present). Did it not start?\n  #6 Sol Dos"], report
        asked = [c for c in h.request.calls if c.chat_id == BOSS.id and "Sol Dos" in c.text]
        assert [d for _, d in h.buttons(asked)] == ["st:6:dns"]
        await report_job(context)  # type: ignore[arg-type]
        await h.app.bot_data["sender"].settled()
        assert h.sent(BOSS.id)[before:] == report  # once
        jobs.clear()
        await schedule_reports(h.app)  # sent: not scheduled again at the next start
        assert "door:adultos" not in h.app.bot_data["jobs_by_name"]
    finally:
        await h.stop()


async def test_without_the_table_no_door_commands(tmp_path: Path) -> None:
    h = await open_day(tmp_path, minutes=None)
    try:
        got = said(await h.send(VIC, "/here 5", T0), VIC)
        assert got and "✅" not in got[0]
        assert arrivals(h) == []
    finally:
        await h.stop()


async def test_a_volunteer_scanning_the_table_card_marks_it_present(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        entry = await h.services.store.entry(6)
        code = card_code(entry.join_code)
        at = T0 + timedelta(minutes=4)
        got = said(await h.send(VIC, f"/start {code}", at), VIC)
        assert got == ["✅ #6 Sol Dos: here (11:04). Adultos individual: 1 of 2 here."], got
        assert arrivals(h) == [(6, int(at.timestamp()))]
        # a parent scanning the same card still asks to follow it, and marks nothing
        said(await h.send(Person(30, "Pat", "en"), f"/start {code}", at), Person(30, "", ""))
        assert arrivals(h) == [(6, int(at.timestamp()))]
    finally:
        await h.stop()
