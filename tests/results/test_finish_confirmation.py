"""A /fin that would move a recorded finish by more than a few minutes, or whose time reads two
ways (``1:47``: 1 min 47 s, or 1 h 47 min), records nothing and asks the volunteer with buttons
(issue 17: ``/fin 10 1:47`` silently replaced a real 1:12:53 with 0:01:47)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.domain.clock import hours_reading
from bot.services.contest_file import ContestFileError, load_contest
from tests.conftest import CASTRILLO
from tests.day.test_bot_commands import (
    ORGANISER,
    P50,
    VOLUNTEER,
    at,
    event_rows,
    events,
    open_day,
    replies_to,
)
from tests.fakebot import Harness


@pytest.fixture
async def day(tmp_path):
    d = await open_day(tmp_path)
    yield d
    await d.h.stop()


def finishes(h: Harness) -> list[int]:
    """The finish times recorded for adult 50, oldest first (corrections are new rows)."""
    return [row["value"] for row in event_rows(h, "finish") if row["entry"] == 50]


def test_the_other_reading_of_a_two_part_time() -> None:
    assert hours_reading("1:47") == 6420
    assert hours_reading("０:０５") == 300
    assert hours_reading("1:47:30") is None  # three parts: one reading only
    assert hours_reading("1:75") is None  # 75 minutes is no h:mm
    assert hours_reading("abc") is None


async def test_a_big_correction_asks_and_records_only_the_choice(day):
    await day.send(VOLUNTEER, "/fin 50 1:12:53", "1:13:00")
    before = events(day.h)
    calls = await day.send(VOLUNTEER, "/fin 50 1:47", "1:50:00")
    (asked,) = [c for c in calls if c.method == "sendMessage"]
    # 0:01:47 for 500 pieces is no finish anyone makes: only 1:47:00 is offered (issue 47)
    assert asked.text == ("Entry 50 already finished at 1:12:53: 1:47:00 would move it by "
                          "0:34:07.\nEntry 50: 1:47:00? Read as 0:01:47, it would be faster "
                          "than anyone finishes 500 pieces.\n"
                          "Nothing is recorded until you choose:")
    (first,) = event_rows(day.h, "finish")  # the finish the question is asked on
    assert day.h.buttons(calls) == [("Record 1:47:00", f"fin:50:6420:{first['id']}"),
                                    ("Keep 1:12:53", f"fin:50:-:{first['id']}")]
    keep, chose = f"fin:50:-:{first['id']}", f"fin:50:6420:{first['id']}"
    assert events(day.h) == before  # nothing recorded, nobody told
    assert replies_to(calls, P50) == []
    # "keep" changes nothing
    kept = await day.h.press(VOLUNTEER, keep, at("1:50:00"))
    assert replies_to(kept, VOLUNTEER) == ["Nothing changed for entry 50."]
    assert events(day.h) == before
    # the chosen reading is recorded, stamped when the question was shown, and the entry told
    chosen = await day.h.press(VOLUNTEER, chose, at("1:50:00"))
    assert replies_to(chosen, VOLUNTEER) == [
        "Entry 50: finish corrected from 1:12:53 to 1:47:00."]
    assert replies_to(chosen, P50) == ["Your finish is recorded: 1:47:00. Well done!"]
    assert finishes(day.h) == [4373, 6420]
    assert event_rows(day.h, "finish")[-1]["at"] == int(at("1:50:00").timestamp())
    # pressing again (or the other reading) records nothing more: the question is outdated
    for data in (chose, f"fin:50:107:{first['id']}"):
        again = await day.h.press(VOLUNTEER, data, at("1:50:00"))
        assert finishes(day.h) == [4373, 6420]
        assert replies_to(again, VOLUNTEER) == [
            "Entry 50's finish changed since this question (or its heat is over): nothing "
            "recorded. Send /finish 50 again if needed."]


async def test_a_small_correction_and_an_unambiguous_time_are_recorded_at_once(day):
    await day.send(VOLUNTEER, "/fin 50 1:12:53", "1:13:00")
    said = await day.say(VOLUNTEER, "/fin 50 1:13:30", "1:14:00")  # moves it by 37 s
    assert said == ["Entry 50: finish corrected from 1:12:53 to 1:13:30."]
    assert finishes(day.h) == [4373, 4410]
    # "47:30" can only be 47 min 30 s: 47 hours is past any limit
    other = await day.say(VOLUNTEER, "/fin 30 47:30", "1:14:00")
    assert other == ["Entry 30 finished at 0:47:30."]


async def test_an_ambiguous_first_finish_asks_too(day):
    calls = await day.send(VOLUNTEER, "/fin 50 1:05", "1:10:00")
    assert day.h.buttons(calls) == [("Record 1:05:00", "fin:50:3900:0"),
                                    ("Record nothing", "fin:50:-:0")]
    assert finishes(day.h) == []
    # 1:15 read as 1 h 15 min is still ahead of the clock (1:10): one reading only, and
    # 0:01:15 for 500 pieces is asked, not recorded
    assert await day.say(VOLUNTEER, "/fin 50 1:15", "1:10:00") == [
        "Entry 50: 0:01:15 for 500 pieces is faster than anyone plausibly finishes (under "
        "0:16:40). Check the time on the clock.\nNothing is recorded until you choose:"]
    assert finishes(day.h) == []


async def test_only_staff_can_press_the_confirmation(day):
    calls = await day.h.press(P50, "fin:50:6420:0", at("1:50:00"))
    assert finishes(day.h) == []
    assert replies_to(calls, P50) and "volunteer" in replies_to(calls, P50)[0].lower()


async def test_an_old_button_cannot_undo_a_later_correction(day):
    # the volunteer picks one reading; the organiser corrects it; the other old button is dead
    await day.send(VOLUNTEER, "/fin 50 1:05", "1:10:00")
    await day.h.press(VOLUNTEER, "fin:50:3900:0", at("1:10:00"))
    assert await day.say(ORGANISER, "/fin 50 1:06:00", "1:20:00") == [
        "Entry 50: finish corrected from 1:05:00 (recorded by Victor) to 1:06:00."]
    stale = await day.h.press(VOLUNTEER, "fin:50:65:0", at("1:10:00"))
    assert "changed since this question" in replies_to(stale, VOLUNTEER)[0]
    assert finishes(day.h) == [3900, 3960]


async def test_a_button_from_before_the_clock_started_again_is_refused(day):
    # asked at 1:10; the organiser takes the clock's start back and starts it again later (as
    # a heat of a later round starts after the question): the old question records nothing
    await day.send(VOLUNTEER, "/fin 50 1:05", "1:10:00")
    await day.h.undo(ORGANISER, at("1:11:00"))  # parejas' start (the last one)
    assert replies_to(await day.h.undo(ORGANISER, at("1:11:10")), ORGANISER)[1:] == [
        "Taken back: clock started adultos."]
    await day.send(ORGANISER, "/inicio adultos", "1:12:00")
    await day.send(VOLUNTEER, "/historial 50", "1:13:00")  # the press counts from here
    stale = await day.h.press(VOLUNTEER, "fin:50:65:0", at("1:10:00"))
    assert "changed since this question" in replies_to(stale, VOLUNTEER)[0]
    assert finishes(day.h) == []


async def test_no_finish_at_0_00_00(day):
    said = await day.say(VOLUNTEER, "/fin 30 0:00", "0:30:00")
    assert said == ["0:00:00 can't be a finish time: type the time the clock showed."]
    assert event_rows(day.h, "finish") == []


def test_the_threshold_is_a_contest_setting(tmp_path: Path) -> None:
    text = CASTRILLO.read_text(encoding="utf-8")
    assert load_contest(CASTRILLO).confirm_correction == 300  # 5 minutes unless said
    path = tmp_path / "c.toml"
    path.write_text(text.replace("[contest]\n", "[contest]\nconfirm_correction_minutes = 0\n",
                                 1), encoding="utf-8")
    assert load_contest(path).confirm_correction == 0
    path.write_text(text.replace("[contest]\n", "[contest]\nconfirm_correction_minutes = -2\n",
                                 1), encoding="utf-8")
    with pytest.raises(ContestFileError, match="confirm_correction_minutes"):
        load_contest(path)
