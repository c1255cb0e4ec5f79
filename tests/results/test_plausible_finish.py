"""A finish nobody could make, or a time later than the clock, is asked with buttons, never
recorded silently (issue 47: ``/fin 21 0:58`` recorded 58 seconds for a 100-piece puzzle, gold
on the projector and "Well done!" for a 12-year-old; "0:41:05 is later than the clock shows"
lost four results in a day without saying what the clock showed). In English, Spanish and
German, over the fake Bot API."""

from __future__ import annotations

from pathlib import Path

import pytest

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
from tests.fakebot import Harness, Person, texts

HELGA = Person(7, "Helga", "de")
RAMON = Person(8, "Ramón", "es")


@pytest.fixture
async def day(tmp_path):
    d = await open_day(tmp_path)
    for person in (HELGA, RAMON):  # two more volunteers, each in their language
        link = texts(await d.send(ORGANISER, "/voluntario", "-1:00:00"))[0].split()[-1]
        await d.send(person, f"/start {link.split('start=')[1]}", "-1:00:00")
    yield d
    await d.h.stop()


def finishes(h: Harness) -> list[int]:
    return [row["value"] for row in event_rows(h, "finish") if row["entry"] == 50]


async def test_a_finish_too_fast_for_the_puzzle_is_asked_then_recorded_if_chosen(day):
    before = events(day.h)
    calls = await day.send(VOLUNTEER, "/fin 50 0:00:58", "1:00:00")
    assert replies_to(calls, VOLUNTEER) == [
        "Entry 50: 0:00:58 for 500 pieces is faster than anyone plausibly finishes (under "
        "0:16:40). Check the time on the clock.\nNothing is recorded until you choose:"]
    assert day.h.buttons(calls) == [("Record 0:00:58", "fin:50:58:0"),
                                    ("Record nothing", "fin:50:-:0")]
    assert events(day.h) == before and replies_to(calls, P50) == []  # nobody told anything
    # "record nothing": nothing; the time chosen after checking: recorded, the entry told
    nothing = await day.h.press(VOLUNTEER, "fin:50:-:0", at("1:00:10"))
    assert replies_to(nothing, VOLUNTEER) == ["Nothing changed for entry 50."]
    assert finishes(day.h) == []
    chosen = await day.h.press(VOLUNTEER, "fin:50:58:0", at("1:00:10"))
    assert finishes(day.h) == [58]
    assert replies_to(chosen, P50) == ["Your finish is recorded: 0:00:58. Well done!"]


async def test_a_short_time_typed_is_offered_as_minutes(day):
    # "0:58" at 1:00 on the clock: 58 seconds is no finish for 500 pieces, 58 minutes is
    calls = await day.send(VOLUNTEER, "/fin 50 0:58", "1:00:00")
    assert replies_to(calls, VOLUNTEER) == [
        "Entry 50: 0:58:00? Read as 0:00:58, it would be faster than anyone finishes 500 "
        "pieces.\nNothing is recorded until you choose:"]
    assert day.h.buttons(calls) == [("Record 0:58:00", "fin:50:3480:0"),
                                    ("Record nothing", "fin:50:-:0")]


async def test_a_plausible_finish_is_recorded_at_once(day):
    assert await day.say(VOLUNTEER, "/fin 50 0:16:40", "1:00:00") == [
        "Entry 50 finished at 0:16:40."]
    assert finishes(day.h) == [1000]


async def test_of_two_readings_only_the_plausible_one_is_offered_in_german(day):
    calls = await day.send(HELGA, "/fin 50 1:47", "1:50:00")
    assert replies_to(calls, HELGA) == [
        "Anmeldung 50: 1:47:00? Als 0:01:47 gelesen, wäre das schneller, als irgendwer 500 "
        "Teile legt.\nEs wird nichts eingetragen, bis du gewählt hast:"]
    assert day.h.buttons(calls) == [("1:47:00 eintragen", "fin:50:6420:0"),
                                    ("Nichts eintragen", "fin:50:-:0")]
    assert finishes(day.h) == []
    await day.h.press(HELGA, "fin:50:6420:0", at("1:50:05"))
    assert finishes(day.h) == [6420]


async def test_a_time_later_than_the_clock_offers_the_clocks_time_in_spanish(day):
    calls = await day.send(RAMON, "/fin 50 0:41:05", "0:40:12")
    assert replies_to(calls, RAMON) == [
        "Inscripción 50: 0:41:05 es más tarde de lo que marca ahora el reloj (0:40:12). "
        "¿Anoto la hora del reloj?\nNo se anota nada hasta que elijas:"]
    assert day.h.buttons(calls) == [("Anotar 0:40:12", "fin:50:2412:0"),
                                    ("No anotar nada", "fin:50:-:0")]
    assert finishes(day.h) == []
    await day.h.press(RAMON, "fin:50:2412:0", at("0:40:20"))
    assert finishes(day.h) == [2412]


async def test_a_split_later_than_the_clock_says_what_the_clock_shows(day):
    # an escape stage typed ahead of the clock: refused, saying the clock's time
    said = await day.say(VOLUNTEER, "/escape 3 0:31:00", "0:30:00")
    assert said == ["0:31:00 is later than the clock shows now (0:30:00)."]


def test_the_floor_is_a_contest_setting(tmp_path: Path) -> None:
    assert load_contest(CASTRILLO).plausible_seconds_per_piece == 2.0
    text = CASTRILLO.read_text(encoding="utf-8")
    path = tmp_path / "c.toml"
    path.write_text(text.replace("[contest]\n", "[contest]\nplausible_seconds_per_piece = 0\n",
                                 1), encoding="utf-8")
    assert load_contest(path).plausible_seconds_per_piece == 0
    path.write_text(text.replace("[contest]\n", "[contest]\nplausible_seconds_per_piece = 1.5\n",
                                 1), encoding="utf-8")
    assert load_contest(path).plausible_seconds_per_piece == 1.5
    path.write_text(text.replace("[contest]\n", "[contest]\nplausible_seconds_per_piece = -1\n",
                                 1), encoding="utf-8")
    with pytest.raises(ContestFileError, match="plausible_seconds_per_piece"):
        load_contest(path)
