"""/deshacer is deliberate (issue 26): it names what it would take back and asks; only its
button takes it back, and only if it is still the presser's last record; the entry's people,
told of what was recorded, are told it was taken back."""

from __future__ import annotations

from tests.day.test_bot_commands import (
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

__all__ = ["day"]  # the fixture, shared with tests/day/test_bot_commands.py


async def asked(day, clock: str) -> tuple[str, list[tuple[str, str]]]:
    calls = await day.send(VOLUNTEER, "/deshacer", clock)
    (question,) = replies_to(calls, VOLUNTEER)
    return question, day.h.buttons(calls)


async def test_deshacer_asks_and_the_button_takes_back_and_tells_the_entry(day):
    await day.send(VOLUNTEER, "/fin 50 0:20:01", "0:20:30")
    before = events(day.h)
    question, keys = await asked(day, "0:21:00")
    assert question == ("Take back your last record: finish #50, recorded at 11:20:30? "
                        "Nothing changes until you choose.")
    (finish,) = event_rows(day.h, "finish")
    assert keys == [("Take it back", f"undo:{finish['id']}"), ("Keep it", "undo:-")]
    assert events(day.h) == before  # asking recorded nothing
    kept = await day.h.press(VOLUNTEER, "undo:-", at("0:21:10"))
    assert replies_to(kept, VOLUNTEER) == ["Nothing taken back."]
    assert events(day.h) == before
    taken = await day.h.press(VOLUNTEER, f"undo:{finish['id']}", at("0:21:20"))
    assert replies_to(taken, VOLUNTEER) == ["Taken back: finish #50."]
    assert replies_to(taken, P50) == [
        "The finish recorded for your entry was taken back: a volunteer will record the right "
        "one."]
    assert len(event_rows(day.h, "undo")) == 1
    # the same button again: the finish is no longer the last record, nothing more is undone
    again = await day.h.press(VOLUNTEER, f"undo:{finish['id']}", at("0:21:30"))
    assert replies_to(again, VOLUNTEER) == [
        "Your last record is not the one this question named any more: nothing taken back. "
        "Send /undo again to see what it is now."]
    assert len(event_rows(day.h, "undo")) == 1


async def test_a_question_outdated_by_a_newer_record_takes_nothing_back(day):
    await day.send(VOLUNTEER, "/piezas 3 120", "1:00:00")
    _, keys = await asked(day, "1:01:00")
    await day.send(VOLUNTEER, "/piezas 20 200", "1:02:00")  # now the last record
    stale = await day.h.press(VOLUNTEER, keys[0][1], at("1:03:00"))
    assert "nothing taken back" in replies_to(stale, VOLUNTEER)[0]
    assert event_rows(day.h, "undo") == []
    assert replies_to(stale, P3) == []


async def test_only_staff_may_press_and_pieces_are_not_announced_to_the_entry(day):
    await day.send(VOLUNTEER, "/piezas 3 120", "1:00:00")
    _, keys = await asked(day, "1:01:00")
    refused = await day.h.press(STRANGER, keys[0][1], at("1:02:00"))
    assert replies_to(refused, STRANGER) == ["This command is for volunteers and organisers."]
    assert event_rows(day.h, "undo") == []
    # the entry was never told of a pieces count: nor of it taken back
    taken = await day.h.press(VOLUNTEER, keys[0][1], at("1:03:00"))
    assert replies_to(taken, VOLUNTEER) == ["Taken back: pieces #3."]
    assert replies_to(taken, P3) == []


async def test_a_disqualification_taken_back_is_told(day):
    await day.send(VOLUNTEER, "/estado 50 dns", "0:10:00")
    taken = await day.h.undo(VOLUNTEER, at("0:11:00"))
    assert replies_to(taken, P50)[-1] == "Your entry is no longer recorded as did not start."
