"""Qualifiers held as events of their own (issue 16, item 5): each with its own day, time,
venue and places, chosen at registration with a question asked of that category only; all of
them feed one final."""

from __future__ import annotations

import io
import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.features.registration.day import Registrations
from bot.services.contest_file import ContestFileError, parse_contest
from bot.services.csvio import ImportError_, check_import, import_entries, read_entries
from tests.fakebot import Harness, Person, staff

TZ = ZoneInfo("Europe/Madrid")
PORTO = datetime(2027, 7, 1, 11, 0, tzinfo=TZ)
VALLADOLID = datetime(2027, 7, 2, 9, 0, tzinfo=TZ)
FINAL = datetime(2027, 7, 3, 13, 0, tzinfo=TZ)
BOSS, VIC = Person(1, "Olga", "en"), Person(20, "Vic", "en")

CONTEST = """
[contest]
name = "Qualifier events"
date = 2027-07-01
timezone = "Europe/Madrid"
language = "en"

[[questions]]
id = "qualifier"
text = "Which qualifier?"
kind = "choice"
per = "entry"
categories = ["teams"]
choices = [{ id = "porto", places = 2 }, { id = "valladolid", places = 3 }]

[[categories]]
id = "solo"
name = "Individual"
members = 1
slots = [{}]
pieces = 500
time_limit = "1:00:00"
fee = 0

[[categories]]
id = "teams"
name = "Teams"
members = 1
slots = [{}]
pieces = 1000
time_limit = "2:00:00"
fee = 0
prizes = ["Gold"]

[[categories.rounds]]
id = "qualifier"
name = "Qualifier"
heats_by = "qualifier"
advance = { best = 2 }

[[categories.rounds.heat]]
date = 2027-07-01
start = "11:00"
venue = "Porto"

[[categories.rounds.heat]]
date = 2027-07-02
start = "09:00"
venue = "Valladolid"

[[categories.rounds]]
id = "final"
name = "Final"
date = 2027-07-03
start = "13:00"
"""


@pytest.mark.parametrize("change,key", [
    (('heats_by = "qualifier"', 'heats_by = "nothing"'), "categories[2].rounds[1].heats_by"),
    (('heats_by = "qualifier"', 'heats_by = "qualifier"\nheats = 3'),
     "categories[2].rounds[1].heats"),
    (('venue = "Valladolid"\n', 'venue = "Valladolid"\n\n[[categories.rounds.heat]]\n'),
     "categories[2].rounds[1].heat"),
    (('categories = ["teams"]', 'categories = ["duos"]'), "questions[1].categories"),
    (("date = 2027-07-03", "date = 2027-07-01"), "categories[2].rounds[2].date"),
    (("places = 2", "places = 0"), "questions[1].choices[1].places"),
])
def test_a_bad_qualifier_event_is_refused_with_its_key(change: tuple[str, str],
                                                      key: str) -> None:
    text = CONTEST.replace(*change)
    assert text != CONTEST
    with pytest.raises(ContestFileError) as err:
        parse_contest(tomllib.loads(text), "x.toml")
    assert f"x.toml: {key}" in str(err.value), str(err.value)


def said(calls: Any, who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


ROWS = ("number,category,names,born,qualifier,registered_at\n"
        "1,teams,Team One,1990,porto,2027-05-01T10:00:00\n"
        "2,teams,Team Two,1990,valladolid,2027-05-01T10:01:00\n"
        "3,teams,Team Three,1990,porto,2027-05-01T10:02:00\n"
        "4,teams,Team Four,1990,porto,2027-05-01T10:03:00\n"
        "5,teams,Team Five,1990,valladolid,2027-05-01T10:04:00\n"
        "6,solo,Solo Six,1990,,2027-05-01T10:05:00\n")


async def test_each_qualifier_on_its_day_at_its_venue_then_one_final(tmp_path: Path) -> None:
    path = tmp_path / "q.toml"
    path.write_text(CONTEST, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    try:
        svc = h.services
        rows = read_entries(svc.contest, io.StringIO(ROWS), "x.csv")
        regs = Registrations(svc.contest, svc.store)
        check = await check_import(svc.contest, regs, rows, PORTO - timedelta(days=30))
        # Porto takes 2 teams: a third in the file is over its places
        assert check.problems == [
            "teams: at most 2 entries answer 'porto' to qualifier (questions.choices.places): "
            "the file goes 1 over (lines 5)"]
        await import_entries(svc.store, [r for r in rows if r.number != 4])
        cat = svc.contest.category("teams")
        assert await svc.day.lineups(cat) == [[[1, 3], [2, 5]]]
        for n in (1, 2, 3, 5):
            entry = await svc.store.entry(n)
            await h.send(Person(100 + n, f"P{n}", "en"), f"/start {entry.join_code}",
                         PORTO - timedelta(days=1))
        assert said(await h.send(Person(101, "P1", "en"), "/series", PORTO), Person(101, "P1")) \
            == ["Entry #1 plays Qualifier – porto (Teams): Thursday 1 July at 11:00, Porto, "
                "table 1."]
        await staff(h, BOSS, VIC, PORTO - timedelta(days=1))
        # Porto's day: only Porto's heat starts (the solo category too: played once)
        assert said(await h.send(BOSS, "/inicio", PORTO), BOSS) == [
            "Clock started for: Individual, Qualifier – porto (Teams).\nNothing to start today: "
            "Qualifier – valladolid is on Friday 2 July. To start it now anyway: "
            "/go teams-qualifier2"]
        for n, t in ((1, "1:10:00"), (3, "1:30:00")):
            await h.send(VIC, f"/fin {n} {t}", PORTO + timedelta(hours=1, minutes=55))
        assert said(await h.send(BOSS, "/inicio", PORTO + timedelta(hours=3)), BOSS) == [
            "Nothing to start today: Qualifier – valladolid is on Friday 2 July. To start it "
            "now anyway: /go teams-qualifier2"]
        assert said(await h.send(BOSS, "/inicio", VALLADOLID), BOSS) == [
            "Clock started for: Qualifier – valladolid (Teams)."]
        for n, t in ((2, "1:00:00"), (5, "1:45:00")):
            await h.send(VIC, f"/fin {n} {t}", VALLADOLID + timedelta(hours=1, minutes=55))
        calls = await h.send(BOSS, "/confirmar_ronda teams", VALLADOLID + timedelta(hours=2))
        assert said(calls, BOSS)[0].splitlines()[:4] == [
            "Teams: Qualifier confirmed. 2 go through to Final:",
            "Final (Saturday 3 July at 13:00):", "  table 1: #2 Team Two",
            "  table 2: #1 Team One"]
    finally:
        await h.stop()


def test_an_answer_to_a_question_not_asked_in_the_category_is_refused() -> None:
    contest = parse_contest(tomllib.loads(CONTEST), "x.toml")
    with pytest.raises(ImportError_) as err:
        read_entries(contest, io.StringIO("number,category,names,born,qualifier\n"
                                          "6,solo,Solo Six,1990,porto\n"), "x.csv")
    assert "x.csv:2: column qualifier: this question is not asked in solo" in str(err.value)
