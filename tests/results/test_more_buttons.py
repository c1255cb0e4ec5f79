"""Buttons where people stand (issue 26): ``/estado N`` offers the outcomes, an unknown
category under /inicio or /clasificacion offers the categories. Each press is checked as the
typed command is (role, moment), and a second press records nothing."""

from __future__ import annotations

from tests.day.test_bot_commands import (
    ORGANISER,
    P50,
    STRANGER,
    VOLUNTEER,
    at,
    day,
    day_factory,
    event_rows,
    replies_to,
)

__all__ = ["day", "day_factory"]  # the fixtures, shared with tests/day/test_bot_commands.py


async def test_estado_n_offers_the_outcomes_and_a_press_records_once(day):
    calls = await day.send(VOLUNTEER, "/estado 50", "0:05:00")
    assert replies_to(calls, VOLUNTEER) == [
        "Entry 50 (Luis): which status? A disqualification needs its reason: /status 50 dsq "
        "REASON"]
    assert day.h.buttons(calls) == [("Did not start", "st:50:dns"),
                                    ("Out of competition", "st:50:oc")]
    assert event_rows(day.h, "outcome") == []
    refused = await day.h.press(STRANGER, "st:50:dns", at("0:05:30"))
    assert "volunteers and organisers" in replies_to(refused, STRANGER)[0]
    done = await day.h.press(VOLUNTEER, "st:50:dns", at("0:06:00"))
    assert replies_to(done, VOLUNTEER)[0].startswith("Entry 50: did not start.")
    assert replies_to(done, P50) == [
        "Your entry is recorded as did not start. Ask the organisers if this is wrong."]
    again = await day.h.press(VOLUNTEER, "st:50:dns", at("0:06:10"))
    assert replies_to(again, P50) == []
    assert len(event_rows(day.h, "outcome")) == 1
    unknown = await day.say(VOLUNTEER, "/estado 77", "0:07:00")
    assert "77" in unknown[0] and "which status" not in unknown[0]


async def test_an_unknown_category_gets_the_categories_as_buttons(day_factory):
    d = await day_factory(clock=False)
    calls = await d.send(ORGANISER, "/inicio seniors", "0:00:00")
    assert replies_to(calls, ORGANISER)[0].startswith("Unknown category.")
    keys = d.h.buttons(calls)
    assert ("Adultos individual", "go:adultos") in keys and len(keys) == 5
    started = await d.h.press(ORGANISER, "go:adultos", at("0:00:10"))
    assert "Adultos individual" in replies_to(started, ORGANISER)[0]
    assert [e["category"] for e in event_rows(d.h, "clock_start")] == ["adultos"]
    again = await d.h.press(ORGANISER, "go:adultos", at("0:00:20"))
    assert replies_to(again, ORGANISER) == ["That clock is already running."]
    assert len(event_rows(d.h, "clock_start")) == 1
    refused = await d.h.press(VOLUNTEER, "go:parejas", at("0:00:30"))
    assert replies_to(refused, VOLUNTEER) == ["This command is for organisers."]
    assert len(event_rows(d.h, "clock_start")) == 1
    ranking = await d.send(ORGANISER, "/clasificacion seniors", "0:01:00")
    assert ("Adultos individual", "rank:adultos") in d.h.buttons(ranking)
    shown = await d.h.press(ORGANISER, "rank:adultos", at("0:01:10"))
    assert replies_to(shown, ORGANISER)[0].startswith("Adultos individual - ranking")


async def test_pieces_before_the_time_is_up_are_recorded_but_flagged_with_a_take_back(day):
    early = await day.send(VOLUNTEER, "/piezas 50 120", "0:00:06")
    (said,) = replies_to(early, VOLUNTEER)
    assert said == ("Entry 50: 120 pieces.\nIts time is not up yet (0:00:06 of 2:30:00): a "
                    "count now ranks it on these pieces while others still play. If it was a "
                    "mistake, take it back.")
    (pieces,) = event_rows(day.h, "pieces")  # the typed command still records, as always
    assert day.h.buttons(early) == [("Take it back", f"undo:{pieces['id']}")]
    taken = await day.h.press(VOLUNTEER, f"undo:{pieces['id']}", at("0:00:20"))
    assert replies_to(taken, VOLUNTEER) == ["Taken back: pieces #50."]
    # after the time is up: a count is what is expected, nothing to flag
    late = await day.send(VOLUNTEER, "/piezas 50 300", "2:31:00")
    assert replies_to(late, VOLUNTEER) == ["Entry 50: 300 pieces."]
    assert day.h.buttons(late) == []
