"""Categories and heats are named as people read them (issue 26): a command takes a category's
name as typed (any case, with or without accents, spaces or hyphens) as well as its id, and an
unknown one is answered with the names, never the contest file's ids."""

from __future__ import annotations

import pytest

from tests.day.test_bot_commands import ORGANISER, VOLUNTEER, day_factory, event_rows

CASTRILLO_NAMES = ("Infantil A, Infantil B, Infantil C, Adultos individual, Adultos parejas")


__all__ = ["day_factory"]  # the fixture, shared with tests/day/test_bot_commands.py


@pytest.mark.parametrize("typed", ["Adultos parejas", "adultos-parejas", "ADULTOS PAREJAS",
                                   "parejas", "Parejas"])
async def test_the_ranking_of_a_category_named_as_typed(day_factory, typed):
    day = await day_factory()
    await day.send(VOLUNTEER, "/fin 3 1:10:00", "1:20:00")
    (ranking,) = await day.say(ORGANISER, f"/clasificacion {typed}", "1:30:00")
    assert ranking.startswith("Adultos parejas")
    assert "Infantil" not in ranking


@pytest.mark.parametrize("typed", ["Infantil A", "infantil a", "ínfantil-á", "infantil-a"])
async def test_a_clock_started_by_the_category_name(day_factory, typed):
    day = await day_factory(clock=False)
    (said,) = await day.say(ORGANISER, f"/inicio {typed}", "0:00:00")
    assert said == "Clock started for: Infantil A."
    (row,) = event_rows(day.h, "clock_start")
    assert row["category"] == "infantil-a"


@pytest.mark.parametrize("command", ["/clasificacion Adultos parejs", "/inicio infantil"])
async def test_an_unknown_category_is_answered_with_the_names(day_factory, command):
    day = await day_factory(clock=command.startswith("/clasificacion"))
    before = len(event_rows(day.h, "clock_start"))
    (said,) = await day.say(ORGANISER, command, "1:00:00")
    assert said == f"Unknown category. Categories: {CASTRILLO_NAMES}"
    assert "infantil-a" not in said and "parejas," not in said
    assert len(event_rows(day.h, "clock_start")) == before


@pytest.mark.parametrize(("typed", "hint"), [
    ("/fin12", "Did you mean /finish 12?"),
    ("/finish12", "Did you mean /finish 12?"),
    ("/clasificasion", "Did you mean /ranking?"),
    ("/rankng", "Did you mean /ranking?"),
])
async def test_a_mistyped_command_gets_a_did_you_mean(day_factory, typed, hint):
    day = await day_factory()
    before = event_rows(day.h, "finish")
    (said,) = await day.say(VOLUNTEER, typed, "1:00:00")
    assert said == f"I don't know that command. {hint} /help lists what you can do."
    assert event_rows(day.h, "finish") == before  # a guess, never acted on


async def test_a_command_far_from_any_gets_no_guess(day_factory):
    day = await day_factory()
    (said,) = await day.say(VOLUNTEER, "/zzzz", "1:00:00")
    assert said == "I don't know that command. /help lists what you can do."
