"""Issue 45, item 7: a member who comes in with ``/sustituir`` is checked exactly as
registration checks a member entered in the chat (the same functions): the name's length and
characters, the birth's years, the category's places, the same person twice in the team and
one entry per person. A refusal changes nothing and is said in the organiser's language."""

from __future__ import annotations

import io
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.features.registration.rules import MAX_NAME
from bot.services.csvio import import_entries, read_entries
from bot.services.exports import export_entries
from tests.fakebot import Harness, Person
from tests.rounds.test_member_changes import BOSS, CHANGING, at, said
from tests.rounds.test_member_changes import series as series  # the fixture

JEFA = Person(2, "Elena", "es")


def changes(h: Harness) -> int:
    with closing(sqlite3.connect(h.db_path)) as db:
        (count,) = db.execute(
            "SELECT count(*) FROM events WHERE kind = 'member_change'").fetchone()
    return int(count)


async def members(h: Harness, number: int) -> list[str]:
    return [m.name for m in (await h.services.store.entry(number)).members]


async def test_the_same_person_twice_in_a_team_is_refused(series: Harness) -> None:
    h = series
    # Team 1 is "Team 1 / Mate 1" (1990, 1991): Mate 1 again, typed otherwise
    out = await h.send(BOSS, "/substitute 1 + MÁTE\u200b  1 1991", at(2024, 8, 10))
    assert said(out, BOSS) == ["Not possible: MÁTE\u200b 1 is in this entry twice."]
    out = await h.send(BOSS, "/substitute 1 1 mate 1 1991", at(2024, 8, 10))
    assert said(out, BOSS) == ["Not possible: mate 1 is in this entry twice."]
    assert await members(h, 1) == ["Team 1", "Mate 1"] and changes(h) == 0
    # the same name with another birth is another person, as at registration
    out = await h.send(BOSS, "/substitute 1 + Mate 1 2001", at(2024, 8, 10))
    assert said(out, BOSS)[0].startswith("Entry #1: Mate 1 joins the team.")


@pytest.mark.parametrize(("name", "told"), [
    ("A" * 3000, f"Please write a name of 1 to {MAX_NAME} characters."),
    ("\u200b\u200d\u2060", f"Please write a name of 1 to {MAX_NAME} characters."),
    ("Ana;García", "A name cannot contain \";\": the organisers' files use it between the "
                   "members' names. Please write the name without it."),
])
async def test_a_name_registration_refuses_is_refused(series: Harness, name: str,
                                                      told: str) -> None:
    h = series
    for command in (f"/substitute 2 2 {name} 1992", f"/substitute 2 + {name} 1992"):
        assert said(await h.send(BOSS, command, at(2024, 8, 10)), BOSS) == [told]
    assert await members(h, 2) == ["Team 2", "Mate 2"] and changes(h) == 0
    # the longest name registration takes is taken
    longest = "B" * MAX_NAME
    out = await h.send(BOSS, f"/substitute 2 2 {longest} 1992", at(2024, 8, 10))
    assert said(out, BOSS)[0].startswith(f"Entry #2: {longest} replaces Mate 2.")


async def test_a_birth_registration_refuses_is_refused(series: Harness) -> None:
    h = series
    for birth in ("2025", "1850-01-01", "3000-01-01"):  # after the contest, before 1900
        out = await h.send(BOSS, f"/substitute 3 2 Carla Ruiz {birth}", at(2024, 8, 10))
        assert said(out, BOSS) == [
            "I can't read that: write the year with 4 digits, like 2015."], birth
    assert await members(h, 3) == ["Team 3", "Mate 3"] and changes(h) == 0


async def test_refusals_in_the_organisers_language(series: Harness) -> None:
    h = series
    await h.send(BOSS, "/organizador", at(2024, 8, 1))
    link = [t for t in said(await h.send(BOSS, "/organiser", at(2024, 8, 1)), BOSS)
            if "start=" in t][0]
    await h.send(JEFA, f"/start {link.split('start=')[1].split()[0]}", at(2024, 8, 1))
    out = await h.send(JEFA, "/sustituir 1 2 Ana;Paz 1992", at(2024, 8, 10))
    assert said(out, JEFA) == [
        "Un nombre no puede llevar «;»: los ficheros de la organización lo usan para separar "
        "los nombres de los miembros. Escribe el nombre sin él, por favor."]
    out = await h.send(JEFA, "/sustituir 1 + team 1 1990", at(2024, 8, 10))
    assert said(out, JEFA) == ["No es posible: team 1 está dos veces en esta inscripción."]
    assert changes(h) == 0


async def test_the_categorys_places_are_checked(tmp_path: Path) -> None:
    text = CHANGING.replace("slots = [{}, {}, {}, {}]", "slots = [" + ", ".join(
        ["{ born_to = 2000 }"] * 4) + "]")
    path = tmp_path / "series.toml"
    path.write_text(text, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    try:
        await import_entries(h.services.store, read_entries(h.services.contest, io.StringIO(
            "number,category,names,born,library\n1,teams,Ana;Bea,1990;1991,oregon\n"), "x.csv"))
        await h.send(BOSS, "/start", at(2024, 8, 1))
        out = await h.send(BOSS, "/substitute 1 2 Carla Ruiz 2010", at(2024, 8, 10))
        assert said(out, BOSS) == [
            "Not possible: born 2010, and this category needs born 2000 or earlier."]
        assert changes(h) == 0
    finally:
        await h.stop()


async def test_what_a_change_stores_imports_again(series: Harness, tmp_path: Path) -> None:
    """The bot's own export of a team as changed is taken by the import (it refused the
    names a change once let in)."""
    h = series
    for typed in ("4 2 Zoé  Núñez 1992", "4 + Ana;Paz 1993", "4 + " + "x" * 3000 + " 1993",
                  "4 + \u200b 1993", "4 + \u200bA\u200b" + "x" * 90 + " 1993"):
        await h.send(BOSS, f"/substitute {typed}", at(2024, 8, 10))
    assert changes(h) == 2
    out = io.StringIO()
    await export_entries(h.services.contest, h.services.store, out)
    exported = out.getvalue()
    rows = read_entries(h.services.contest, io.StringIO(exported), "export.csv")
    (row,) = [r for r in rows if r.number == 4]
    assert [m.name for m in row.members] == await members(h, 4)


async def test_a_member_replaced_by_the_same_person_is_nothing_to_change(
        series: Harness) -> None:
    """"Team 1 replaces Team 1" was recorded: the same person as registration tells people
    apart (the name without case, accents or spaces, and the birth) is refused, in the
    organiser's language, and nothing is recorded nor told to the team."""
    h = series
    p1 = Person(101, "P1", "en")
    for typed in ("Team 1 1990", "TÉAM  1 1990"):
        out = await h.send(BOSS, f"/substitute 1 1 {typed}", at(2024, 8, 10))
        assert said(out, BOSS) == [
            f"Nothing to change: {typed.rsplit(' ', 1)[0].replace('  ', ' ')} is already "
            "member 1 of entry #1."]
        assert said(out, p1) == []
    await h.send(BOSS, "/organizador", at(2024, 8, 1))
    link = [t for t in said(await h.send(BOSS, "/organiser", at(2024, 8, 1)), BOSS)
            if "start=" in t][0]
    await h.send(JEFA, f"/start {link.split('start=')[1].split()[0]}", at(2024, 8, 1))
    out = await h.send(JEFA, "/sustituir 3 2 mate 3 1991", at(2024, 8, 10))
    assert said(out, JEFA) == ["Nada que cambiar: mate 3 ya es el miembro 2 de la inscripción #3."]
    assert await members(h, 1) == ["Team 1", "Mate 1"] and changes(h) == 0
    # the same name with another year of birth is another person: replaced
    out = await h.send(BOSS, "/substitute 1 1 Team 1 1989", at(2024, 8, 10))
    assert said(out, BOSS)[0].startswith("Entry #1: Team 1 replaces Team 1.") and changes(h) == 1
