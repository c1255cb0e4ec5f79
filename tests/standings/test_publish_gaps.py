"""Before results are made final, /publicar lists who would be left out (issue 47: "Infantil A:
3 entries [Publish]" never said two had no result; the parents then read "no result recorded,
so no place", and the projector showed "Final" above "No result" rows): the entries with no
result, each with a "did not start" button, and the entries nobody can tell (no phone
linked). The organiser settles them or publishes anyway. In English and German."""

from __future__ import annotations

import io

import pytest

from bot.services.csvio import import_entries, read_entries
from tests.conftest import CASTRILLO
from tests.day.test_bot_commands import (
    CSV,
    ORGANISER,
    P50,
    VOLUNTEER,
    Day,
    at,
    event_rows,
    replies_to,
)
from tests.fakebot import Harness, Person, texts

GRETA = Person(9, "Greta", "de")  # a second organiser, reading German


@pytest.fixture
async def day(tmp_path):
    """Castrillo's test entries, none linked but adult 50; every clock started at T0."""
    h = await Harness(tmp_path, CASTRILLO,
                      organisers=frozenset({ORGANISER.id, GRETA.id})).start()
    await import_entries(h.services.store, read_entries(h.services.contest, io.StringIO(CSV),
                                                        "entries.csv"))
    d = Day(h, {e.number: e.join_code for e in await h.services.store.entries()})
    await d.send(ORGANISER, "/start", "-2:00:00")
    await d.send(GRETA, "/start", "-2:00:00")
    link = texts(await d.send(ORGANISER, "/voluntario", "-2:00:00"))[0].split()[-1]
    await d.send(VOLUNTEER, f"/start {link.split('start=')[1]}", "-2:00:00")
    await d.send(ORGANISER, "/inicio", "0:00:00")
    yield d
    await d.h.stop()


async def test_publicar_names_the_entry_with_no_result_and_the_one_nobody_can_tell(day):
    calls = await day.send(ORGANISER, "/publicar infantil a", "2:05:00")
    assert replies_to(calls, ORGANISER) == [
        "Make these results final and tell each entry its place?\n"
        "· Infantil A: 1 entry\n"
        "  ⚠️ 1 entry has no result and would get no place: #30 Nico. Record its pieces "
        "(/pieces N P) or that it did not start, or publish anyway.\n"
        "  ⚠️ 1 entry has no phone linked and will not be told: #30 Nico.\n"
        "It reaches 0 people."]
    assert day.h.buttons(calls) == [("#30 Did not start", "st:30:dns"),
                                    ("Publish anyway", "pub:infantil-a"),
                                    ("Cancel", "pub:-")]
    # one tap settles it: recorded as did not start, and /publicar no longer names it
    await day.h.press(ORGANISER, "st:30:dns", at("2:05:10"))
    assert [r["entry"] for r in event_rows(day.h, "outcome")] == [30]
    calls = await day.send(ORGANISER, "/publicar infantil a", "2:06:00")
    assert replies_to(calls, ORGANISER) == [
        "Make these results final and tell each entry its place?\n"
        "· Infantil A: 1 entry\n"
        "  ⚠️ 1 entry has no phone linked and will not be told: #30 Nico.\n"
        "It reaches 0 people."]
    assert day.h.buttons(calls) == [("Publish", "pub:infantil-a"), ("Cancel", "pub:-")]


async def test_with_every_result_in_and_every_phone_linked_nothing_is_flagged(day):
    await day.send(VOLUNTEER, "/fin 50 1:47:30", "1:48:00")
    await day.link(P50, 50)
    calls = await day.send(ORGANISER, "/publicar adultos", "2:31:00")
    (question,) = replies_to(calls, ORGANISER)
    assert "no result" not in question
    assert day.h.buttons(calls) == [("Publish", "pub:adultos"), ("Cancel", "pub:-")]


async def test_the_gaps_in_german(day):
    calls = await day.send(GRETA, "/publicar infantil a", "2:05:00")
    (question,) = replies_to(calls, GRETA)
    assert ("1 Anmeldung hat kein Ergebnis und bekäme keinen Platz: #30 Nico. Trage ihre "
            "Teile ein (/pieces N P) oder dass sie nicht angetreten ist, oder veröffentliche "
            "trotzdem.") in question
    assert "1 Anmeldung hat kein Handy verknüpft und erfährt es nicht: #30 Nico." in question
    assert [label for label, _ in day.h.buttons(calls)][1:] == [
        "Trotzdem veröffentlichen", "Abbrechen"]
