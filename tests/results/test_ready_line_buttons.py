"""The volunteers' "FINISHED?" line carries its buttons (issue 26): "Record 0:47:12" records the
finish at the moment the entry said /listo, in one tap; "Not finished" tells the entry to play
on. Each press is checked as the typed /fin is (role, clock), and an outdated or repeated press
records nothing."""

from __future__ import annotations

import pytest

from tests.day.test_bot_billom import ORGANISER as ODILE
from tests.day.test_bot_billom import VOLUNTEER_CHAT, billom_day, paris
from tests.day.test_bot_commands import (
    ORGANISER,
    P3,
    P50,
    STRANGER,
    VOLUNTEER,
    at,
    day,
    event_rows,
    events,
    replies_to,
)
from tests.fakebot import Harness, texts

__all__ = ["day"]  # the fixture, shared with tests/day/test_bot_commands.py


def finishes(h: Harness) -> list[int | None]:
    return [row["value"] for row in event_rows(h, "finish") if row["entry"] == 50]


async def said_done(day, clock: str) -> tuple[str, str, int]:
    """Adult 50 says /listo at ``clock``: the two buttons of the volunteer's line, and the
    /listo's event id."""
    calls = await day.send(P50, "/listo", clock)
    lines = [c for c in calls if c.method == "sendMessage" and c.chat_id == VOLUNTEER.id]
    assert len(lines) == 1 and lines[0].text.startswith("FINISHED? #50")
    (listo,) = [r["id"] for r in event_rows(day.h, "ready")][-1:]
    (going, record, not_done) = day.h.buttons(lines)
    assert going == ("#50 I'm going", f"take:50:{listo}")  # claiming: tests/claims
    assert record == (f"#50 Record {clock}", f"ready:ok:50:{listo}")
    assert not_done == ("#50 Not finished", f"ready:no:50:{listo}")
    # every organiser and volunteer gets the line with its buttons, in their language
    organiser_line = [c for c in calls if c.chat_id == ORGANISER.id]
    assert day.h.buttons(organiser_line) == [going, record, not_done]
    return record[1], not_done[1], listo


async def test_record_takes_the_listo_moment_in_one_tap(day):
    record, _, listo = await said_done(day, "0:47:12")
    pressed = await day.h.press(VOLUNTEER, record, at("0:49:30"))
    assert replies_to(pressed, VOLUNTEER) == [
        "Entry 50 finished at 0:47:12 (the moment they said /done)."]
    assert replies_to(pressed, P50) == ["Your finish is recorded: 0:47:12. Well done!"]
    (row,) = event_rows(day.h, "finish")
    assert row["value"] is None  # no time typed: the /listo's moment
    assert "ready_event" in row["data"] and str(listo) in row["data"]
    # a second press (or another volunteer's) records nothing and says what is recorded
    before = events(day.h)
    again = await day.h.press(VOLUNTEER, record, at("0:50:00"))
    assert replies_to(again, VOLUNTEER) == [
        "Entry 50 already has 0:47:12 recorded: nothing changed."]
    assert replies_to(again, P50) == []
    assert events(day.h) == before


async def test_not_finished_tells_the_entry_and_forgets_the_listo(day):
    record, not_done, _ = await said_done(day, "0:47:12")
    pressed = await day.h.press(VOLUNTEER, not_done, at("0:49:00"))
    assert replies_to(pressed, VOLUNTEER) == [
        "Entry 50: not finished, noted. They are told to play on and to send /done again "
        "when it is done."]
    assert replies_to(pressed, P50) == [
        "A volunteer checked your puzzle: it is not finished yet (you said done at 0:47:12). "
        "The clock is still running: play on, and send /done again when it is done."]
    assert len(event_rows(day.h, "not_finished")) == 1
    # the line's buttons are outdated now: neither records anything
    before = events(day.h)
    for data in (record, not_done):
        stale = await day.h.press(VOLUNTEER, data, at("0:50:00"))
        assert replies_to(stale, VOLUNTEER) == [
            "Entry 50 has said /done again, or a result was recorded for it since this line: "
            "nothing recorded. Look at its newest line, or send /finish 50."]
    assert events(day.h) == before
    # a /fin without a time is no longer taken from that /listo: the moment it is sent
    typed = await day.send(VOLUNTEER, "/fin 50", "0:58:20")
    assert replies_to(typed, VOLUNTEER) == ["Entry 50 finished at 0:58:20."]


async def test_after_not_finished_the_next_listo_asks_again(day):
    _, not_done, _ = await said_done(day, "0:47:12")
    await day.h.press(VOLUNTEER, not_done, at("0:49:00"))
    record, _, _ = await said_done(day, "1:05:00")
    pressed = await day.h.press(VOLUNTEER, record, at("1:06:00"))
    assert replies_to(pressed, P50) == ["Your finish is recorded: 1:05:00. Well done!"]


async def test_a_newer_listo_outdates_the_first_line(day):
    first, _, _ = await said_done(day, "0:47:12")
    await day.h.press(VOLUNTEER, (await said_done(day, "0:47:40"))[1], at("0:48:00"))
    await said_done(day, "0:52:10")
    stale = await day.h.press(VOLUNTEER, first, at("0:53:00"))
    assert "nothing recorded" in replies_to(stale, VOLUNTEER)[0]
    assert finishes(day.h) == []


async def test_a_typed_finish_outdates_the_line(day):
    record, _, _ = await said_done(day, "0:47:12")
    await day.send(VOLUNTEER, "/fin 50 0:47:05", "0:48:00")
    stale = await day.h.press(VOLUNTEER, record, at("0:49:00"))
    assert "nothing recorded" in replies_to(stale, VOLUNTEER)[0]
    assert finishes(day.h) == [2825]


@pytest.mark.parametrize("who", [P3, STRANGER], ids=["participant", "stranger"])
async def test_only_volunteers_and_organisers_may_press(day, who):
    record, not_done, _ = await said_done(day, "0:47:12")
    before = events(day.h)
    for data in (record, not_done):
        refused = await day.h.press(who, data, at("0:49:00"))
        assert replies_to(refused, who) == ["This command is for volunteers and organisers."]
    assert events(day.h) == before
    assert replies_to(refused, P50) == []


async def test_the_organiser_may_press_and_undo_takes_back_not_finished(day):
    _, not_done, _ = await said_done(day, "0:47:12")
    await day.h.press(ORGANISER, not_done, at("0:49:00"))
    (row,) = event_rows(day.h, "not_finished")
    assert row["role"] == "organiser"
    undone = await day.h.undo(ORGANISER, at("0:50:00"))
    assert replies_to(undone, ORGANISER)[1:] == ["Taken back: not finished (checked) #50."]
    assert replies_to(undone, P50) == [
        "The \"not finished\" check of your puzzle was taken back: your /done stands, and a "
        "volunteer is coming."]
    assert event_rows(day.h, "undo")
    # the /listo waits again: a /fin without a time takes its moment
    typed = await day.send(VOLUNTEER, "/fin 50", "0:58:20")
    assert replies_to(typed, VOLUNTEER) == [
        "Entry 50 finished at 0:47:12 (the moment they said /done)."]


async def test_a_press_before_the_clock_or_for_a_forged_entry_records_nothing(day):
    record, _, listo = await said_done(day, "0:47:12")
    before = events(day.h)
    forged = await day.h.press(VOLUNTEER, f"ready:ok:99:{listo}", at("0:49:00"))
    assert replies_to(forged, VOLUNTEER) == ["There is no entry number 99."]
    nonsense = await day.h.press(VOLUNTEER, "ready:ok:50", at("0:49:00"))
    assert replies_to(nonsense, VOLUNTEER) == []
    assert events(day.h) == before


async def test_in_a_volunteers_group_each_line_has_its_buttons_in_the_contests_language(
        tmp_path):
    """Billom (French) with a volunteers' group: each line has its buttons, naming its
    entry."""
    h, t = await billom_day(tmp_path, volunteer_chat=VOLUNTEER_CHAT)
    try:
        before = len(h.request.calls)
        await h.send(t[5], "/fini", paris(15, 45))
        await h.send(t[3], "/fini", paris(15, 45, 5))
        lines = [c for c in h.request.calls[before:] if c.chat_id == VOLUNTEER_CHAT]
        assert [c.text.split()[:3] for c in lines] == [["FINI", "?", "#5"], ["FINI", "?", "#3"]]
        labels = [[label for label, _ in h.buttons([c])] for c in lines]
        assert labels == [["#5 J'y vais", "#5 Noter 1:30:00", "#5 Pas fini"],
                          ["#3 J'y vais", "#3 Noter 1:30:05", "#3 Pas fini"]]
        # a member of the group records entry 3's finish from its line
        _, (_, data), _ = h.buttons([lines[1]])
        pressed = await h.press(ODILE, data, paris(15, 47))
        assert texts(pressed)[0] == ("L'inscription 3 a fini en 1:30:05 (au moment où elle a "
                                     "envoyé /fini).")
    finally:
        await h.stop()
