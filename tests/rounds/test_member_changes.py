"""Issue 29, a team's members changed before its event: the library series lets a team swap
players as long as one of those it registered with stays (``keep_originals = 1``), within the
category's size and places, one team per player across the series; once its heat's clock has
started its members stay as they played."""

from __future__ import annotations

import io
import sqlite3
import tomllib
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import Category
from bot.features.members.rules import Change, change_verdict, kept, originals
from bot.features.registration.rules import Member
from bot.services.contest_file import ContestFileError, parse_contest
from bot.services.csvio import import_entries, read_entries
from tests.fakebot import Call, Harness, Person, staff
from tests.rounds.test_series import COUNTIES, LIBRARIES

TZ = ZoneInfo("America/Chicago")
BOSS, VIC = Person(1, "Olga", "en"), Person(20, "Vic", "en")
CHANGING = COUNTIES.replace('min_members = 2\n', 'min_members = 2\nkeep_originals = 1\n').replace(
    '[[questions]]', '[registration]\none_entry_per_person = "contest"\n\n[[questions]]', 1)


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=TZ)  # type: ignore[misc]


def said(calls: list[Call], who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


def teams(text: str = CHANGING) -> Category:
    return parse_contest(tomllib.loads(text), "series.toml").categories[0]


def test_the_originals_are_the_members_with_every_change_undone() -> None:
    ana, bea, cris, dan = (Member(n, born_year=1990) for n in ("Ana", "Bea", "Cris", "Dan"))
    changes = [{"position": 1, "old": {"name": "Bea", "year": 1990},
                "new": {"name": "Cris", "year": 1990}},
               {"position": None, "old": None, "new": {"name": "Dan", "year": 1990}},
               {"position": 0, "old": {"name": "Ana", "year": 1990}, "new": None}]
    now = (cris, dan)
    first = originals(now, changes)
    assert [m.name for m in first] == ["Ana", "Bea"]
    assert kept(first, now) == 0
    cat = teams()
    # Ana and Bea registered; swapping both away is refused, one at a time too at the last
    assert type(change_verdict(cat, (ana, bea), (ana, bea), Change(0, cris),
                               cat_day())).__name__ == "Allowed"
    assert type(change_verdict(cat, (cris, bea), (ana, bea), Change(1, dan),
                               cat_day())).__name__ == "TooFewOriginals"
    # the one who left comes back: an original again
    assert type(change_verdict(cat, (cris, bea), (ana, bea), Change(0, ana),
                               cat_day())).__name__ == "Allowed"


def cat_day() -> Any:
    return parse_contest(tomllib.loads(CHANGING), "series.toml").date


def test_keep_originals_is_at_most_the_team_size() -> None:
    with pytest.raises(ContestFileError) as exc:
        teams(CHANGING.replace("keep_originals = 1", "keep_originals = 5"))
    assert str(exc.value) == "series.toml: categories[1].keep_originals: must be at most 4, not 5"


@pytest.fixture
async def series(tmp_path: Path) -> Any:
    path = tmp_path / "series.toml"
    path.write_text(CHANGING, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    svc = h.services
    lines = "".join(f"{n},teams,Team {n};Mate {n},1990;1991,{LIBRARIES[(n - 1) // 3]}\n"
                    for n in range(1, 13))
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
        "number,category,names,born,library\n" + lines), "x.csv"))
    entry = await svc.store.entry(1)
    await h.send(Person(101, "P1", "en"), f"/start {entry.join_code}", at(2024, 8, 1))
    await staff(h, BOSS, VIC, at(2024, 8, 1))
    try:
        yield h
    finally:
        await h.stop()


async def test_an_organiser_changes_a_team_before_its_local_contest(series: Harness) -> None:
    h = series
    p1 = Person(101, "P1", "en")
    out = await h.send(BOSS, "/substitute 1 2 Carla Ruiz 1992", at(2024, 8, 10))
    assert said(out, BOSS) == [
        "Entry #1: Carla Ruiz replaces Mate 1. Its members now: Team 1 / Carla Ruiz."]
    assert said(out, p1) == [
        "The organisers changed your team's members: Team 1 / Carla Ruiz."]
    entry = await h.services.store.entry(1)
    assert [m.name for m in entry.members] == ["Team 1", "Carla Ruiz"]
    # Team 1 is the last of the two it registered with: it stays
    refused = await h.send(BOSS, "/substitute 1 1 Dan Gil 1990", at(2024, 8, 10))
    assert said(refused, BOSS) == [
        "Not changed: entry #1 must keep at least 1 of the members it registered with."]
    joins = await h.send(BOSS, "/substitute 1 + Eva Sol 1993", at(2024, 8, 10))
    assert said(joins, BOSS) == [
        "Entry #1: Eva Sol joins the team. Its members now: Team 1 / Carla Ruiz / Eva Sol."]
    leaves = await h.send(BOSS, "/substitute 1 2 -", at(2024, 8, 11))
    assert said(leaves, BOSS) == [
        "Entry #1: Carla Ruiz leaves the team. Its members now: Team 1 / Eva Sol."]
    small = await h.send(BOSS, "/substitute 1 2 -", at(2024, 8, 11))
    assert said(small, BOSS) == [
        "Entry #1 can't lose a member: a team here has at least 2 members."]
    # a player of another team, across the series: refused as registration refuses it
    twice = await h.send(BOSS, "/substitute 1 2 Team 5 1990", at(2024, 8, 11))
    assert said(twice, BOSS) == [
        "Not possible: Team 5 is already in entry #5 (Teams), and this contest allows one "
        "entry per person across all its events."]
    nobody = await h.send(BOSS, "/substitute 1 7 Ana Paz 1990", at(2024, 8, 11))
    assert said(nobody, BOSS) == ["Entry #1 has no member 7: it has 2 members."]
    usage = await h.send(BOSS, "/substitute 1 2 Ana Paz", at(2024, 8, 11))
    assert said(usage, BOSS)[0].startswith("Usage: /substitute N M|+ NAME BIRTH")
    with closing(sqlite3.connect(h.db_path)) as db:
        kinds = db.execute("SELECT count(*) FROM events WHERE kind = 'member_change'").fetchone()
    assert kinds == (3,)
    history = said(await h.send(BOSS, "/history 1", at(2024, 8, 11)), BOSS)[0]
    assert "member change: Carla Ruiz replaces Mate 1" in history
    assert "member change: Eva Sol joins the team" in history
    assert "member change: Carla Ruiz leaves the team" in history
    # the day comes: the Fitchburg heat starts, and its teams stay as they play
    await h.send(BOSS, "/inicio", at(2024, 8, 15, 18))
    late = await h.send(BOSS, "/substitute 1 2 Ana Paz 1990", at(2024, 8, 15, 18, 5))
    assert said(late, BOSS) == [
        "Entry #1 plays in Local contest – Fitchburg Library, whose clock has started: its "
        "members stay as they are."]
    # a team of a library still to come may still change
    later = await h.send(BOSS, "/substitute 10 2 Ana Paz 1990", at(2024, 8, 15, 18, 5))
    assert said(later, BOSS)[0].startswith("Entry #10: Ana Paz replaces Mate 10.")
    # the ranking names the team as it is now
    await h.send(VIC, "/fin 1 0:40:00", at(2024, 8, 15, 18, 41))
    ranking = said(await h.send(BOSS, "/clasificacion", at(2024, 8, 15, 18, 45)), BOSS)
    assert any("#1 Team 1 / Eva Sol" in line for line in ranking[0].splitlines()), ranking


async def test_a_restart_keeps_the_team_as_changed(series: Harness, tmp_path: Path) -> None:
    h = series
    await h.send(BOSS, "/substitute 2 2 Carla Ruiz 1992", at(2024, 8, 10))
    await h.stop()
    again = Harness(tmp_path, h.contest_file, organisers=frozenset({BOSS.id}))
    again._update_id = again._message_id = 10_000
    await again.start()
    try:
        entry = await again.services.store.entry(2)
        assert [m.name for m in entry.members] == ["Team 2", "Carla Ruiz"]
        # the originals still come from the history: Team 2 can't go too
        out = await again.send(BOSS, "/substitute 2 1 Dan Gil 1990", at(2024, 8, 11))
        assert said(out, BOSS) == [
            "Not changed: entry #2 must keep at least 1 of the members it registered with."]
    finally:
        await again.stop()
        h.app = None


async def test_a_category_without_keep_originals_keeps_its_members(tmp_path: Path) -> None:
    path = tmp_path / "series.toml"
    path.write_text(CHANGING.replace("keep_originals = 1\n", ""), encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    try:
        await import_entries(h.services.store, read_entries(h.services.contest, io.StringIO(
            "number,category,names,born,library\n1,teams,Ana;Bea,1990;1991,oregon\n"), "x.csv"))
        await h.send(BOSS, "/start", at(2024, 8, 1))
        out = await h.send(BOSS, "/substitute 1 2 Carla Ruiz 1992", at(2024, 8, 10))
        assert said(out, BOSS) == [
            "The members of a team in Teams can't be changed: the contest file does not allow "
            "it (keep_originals)."]
    finally:
        await h.stop()


@pytest.mark.parametrize("lang, lines", [
    ("es", ["cambio de miembro: Carla Ruiz sustituye a Mate 1",
            "cambio de miembro: Eva Sol se une al equipo",
            "cambio de miembro: Carla Ruiz deja el equipo"]),
    ("de", ["Mitglied geändert: Carla Ruiz ersetzt Mate 1",
            "Mitglied geändert: Eva Sol kommt ins Team",
            "Mitglied geändert: Carla Ruiz verlässt das Team"]),
])
async def test_the_history_names_who_left_and_who_came(series: Harness, lang: str,
                                                       lines: list[str]) -> None:
    """/historial after a substitution names the members (issue 47, item 10), not "a member
    changed"; no birth date."""
    boss = Person(BOSS.id, BOSS.name, lang)
    await h_send_all(series, boss, ["/sustituir 1 2 Carla Ruiz 1992",
                                    "/sustituir 1 + Eva Sol 1993", "/sustituir 1 2 -"])
    history = said(await series.send(boss, "/historial 1", at(2024, 8, 11)), boss)[0]
    found = [line for line in history.splitlines() if any(w in line for w in lines)]
    assert [next(w for w in lines if w in line) for line in found] == lines, history
    assert "1992" not in history and "1993" not in history


async def h_send_all(h: Harness, who: Person, texts: list[str]) -> None:
    for text in texts:
        assert said(await h.send(who, text, at(2024, 8, 10)), who), text
