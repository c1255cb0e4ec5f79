"""Issue 29, a series of events over months in one contest file: local contests at three
libraries from August to October, each with its own date, venue and registration deadline,
feeding a final in November; time limits stated in days or weeks. The issue's wrong result
(a team registered on 1 October for a library whose contest was on 27 September was
confirmed, then in no heat) is refused with the reason."""

from __future__ import annotations

import io
import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.domain.clock import DurationError, parse_long_duration
from bot.features.registration.day import Registrations
from bot.features.registration.rules import HeatBegun, begun_heats, heat_choices_open
from bot.features.registration.texts import heat_started_text
from bot.services.contest_file import ContestFileError, parse_contest
from bot.services.csvio import ImportError_, import_entries, read_entries, refuse_entries_too_late
from tests.fakebot import Call, Harness, Person, staff

TZ = ZoneInfo("America/Chicago")
BOSS, ANA = Person(1, "Olga", "en"), Person(101, "Ana", "en")

SERIES = """
[contest]
name = "Library Puzzle Masters 2024"
date = 2024-08-01
timezone = "America/Chicago"
language = "en"

[registration]
opens = 2024-07-01T00:00:00
closes = 2024-10-05T10:00:00

[[questions]]
id = "library"
label = { en = "Library" }
text = { en = "Which library's local contest will the team play?" }
kind = "choice"
per = "entry"
choices = [{ id = "fitchburg", label = "Fitchburg Library" },
           { id = "oregon", label = "Oregon Library" },
           { id = "verona", label = "Verona Library" }]

[[categories]]
id = "teams"
name = "Teams"
members = 4
min_members = 2
slots = [{}, {}, {}, {}]
pieces = 500
time_limit = "1:00:00"
fee = 0

[[categories.rounds]]
id = "local"
name = { en = "Local contest" }
heats_by = "library"
advance = { per_heat = 2 }

[[categories.rounds.heat]]
date = 2024-08-15
start = "18:00"
venue = "Fitchburg Library"
closes = 2024-08-10T00:00:00     # the library wants the teams a few days before

[[categories.rounds.heat]]
date = 2024-09-27
start = "18:00"
venue = "Oregon Library"

[[categories.rounds.heat]]
date = 2024-10-05
start = "10:00"
venue = "Verona Library"

[[categories.rounds]]
id = "final"
name = { en = "Final" }
date = 2024-11-09
start = "10:00"
pieces = 1000
time_limit = "2:00:00"
"""


def contest(text: str = SERIES):  # type: ignore[no-untyped-def]
    return parse_contest(tomllib.loads(text), "series.toml")


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=TZ)  # type: ignore[misc]


def test_one_file_holds_events_from_august_to_november() -> None:
    teams = contest().category("teams")
    assert teams is not None
    local, final = teams.rounds
    assert [(h.date.isoformat(), h.venue) for h in local.schedule] == [
        ("2024-08-15", "Fitchburg Library"), ("2024-09-27", "Oregon Library"),
        ("2024-10-05", "Verona Library")]
    assert local.schedule[0].closes == at(2024, 8, 10)
    assert local.schedule[1].closes is None
    assert final.date.isoformat() == "2024-11-09"


@pytest.mark.parametrize("change, problem", [
    (('closes = 2024-08-10T00:00:00', 'closes = 2024-08-15T18:30:00'),
     "categories[1].rounds[1].heat[1].closes: is after the heat begins (2024-08-15 18:00): "
     "registration for a heat closes before it, or when it begins"),
    (('heats_by = "library"', 'heats = 3'),
     "categories[1].rounds[1].heat[1].closes: is for heats chosen at registration (heats_by): "
     "this round's entrants are seated together"),
    (("date = 2024-11-09", "date = 2025-08-03"),
     "categories[1].rounds[2].date: must be from the contest's date (2024-08-01) to 366 days "
     "after it, not 2025-08-03"),
    (('time_limit = "2:00:00"', 'time_limit = "two hours"'),
     'categories[1].rounds[2].time_limit: must be a duration like "1:30:00", "5:00" (five '
     "minutes), \"3 days\" or \"8 weeks\", not 'two hours'"),
])
def test_a_wrong_series_is_refused_with_its_key(change: tuple[str, str], problem: str) -> None:
    with pytest.raises(ContestFileError) as exc:
        contest(SERIES.replace(*change))
    assert str(exc.value) == f"series.toml: {problem}"


def test_a_season_long_time_limit() -> None:
    season = contest(SERIES.replace('time_limit = "2:00:00"', 'time_limit = "8 weeks"'))
    teams = season.category("teams")
    assert teams is not None and teams.rounds[1].time_limit == 56 * 24 * 3600
    with pytest.raises(ContestFileError) as exc:  # no clock runs for ever
        contest(SERIES.replace('time_limit = "2:00:00"', 'time_limit = "200000000 weeks"'))
    assert str(exc.value) == ("series.toml: categories[1].rounds[2].time_limit: must be at "
                              "most 366 days (a season), not '200000000 weeks'")
    assert parse_long_duration("1:30:00") == 5400
    assert parse_long_duration("5:00") == 300  # m:ss, as before
    assert parse_long_duration("56d") == parse_long_duration("1344:00:00") == 56 * 86400
    assert parse_long_duration("1 week 2 days 12:00:00") == 9 * 86400 + 12 * 3600
    assert parse_long_duration("2W 3 Days") == 17 * 86400
    for bad in ("weeks", "8 weekss", "1 week 12:00", "1:60:00", "", "-1 days"):
        with pytest.raises(DurationError):
            parse_long_duration(bad)


def test_a_heat_closes_at_its_deadline_then_begins_at_its_start() -> None:
    c = contest()
    teams = c.category("teams")
    assert teams is not None
    assert heat_choices_open(c, teams, at(2024, 8, 9, 23, 59)) == (
        "fitchburg", "oregon", "verona")
    assert begun_heats(c, teams, at(2024, 8, 10)) == [HeatBegun(1, at(2024, 8, 10),
                                                                deadline=True)]
    assert heat_choices_open(c, teams, at(2024, 8, 10)) == ("oregon", "verona")
    # the case: 1 October, Oregon's contest was on 27 September
    assert heat_choices_open(c, teams, at(2024, 10, 1)) == ("verona",)
    assert begun_heats(c, teams, at(2024, 10, 1))[1] == HeatBegun(2, at(2024, 9, 27, 18))


def _series_file(tmp_path: Path) -> Path:
    path = tmp_path / "series.toml"
    path.write_text(SERIES, encoding="utf-8")
    return path


def said(calls: list[Call], who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


def data(h: Harness, calls: list[Call]) -> list[str]:
    return [d for _, d in h.buttons(calls)]


async def test_a_team_on_1_october_is_not_confirmed_for_a_contest_of_27_september(
        tmp_path: Path) -> None:
    h = await Harness(tmp_path, _series_file(tmp_path),
                      organisers=frozenset({BOSS.id})).start()
    try:
        svc = h.services
        teams = svc.contest.category("teams")
        assert teams is not None
        members = read_entries(svc.contest, io.StringIO(
            "category,names,born,library\nteams,Ana;Ben,1990;1991,oregon\n"),
            "y.csv")[0].members
        first_october = at(2024, 10, 1, 12)
        late = await Registrations(svc.contest, svc.store).register(
            ANA.id, teams, members, 0, 0, first_october, None, values=(("library", "oregon"),))
        assert not late.ok and late.reason == "heat_started"
        assert await svc.store.entries() == []
        # in the chat: only Verona is offered
        await h.send(ANA, "/inscribir", first_october)
        await h.press(ANA, "reg:cat:teams", first_october)
        for typed in ("Ana", "1990", "Ben", "1991"):
            await h.send(ANA, typed, first_october)
        calls = await h.press(ANA, "reg:more:n", first_october)
        buttons = data(h, calls)
        assert [b for b in buttons if b.startswith("reg:c:")] == ["reg:c:0:2"], \
            (said(calls, ANA), buttons)
        # Verona: confirmed, and in Verona's heat
        calls = await h.press(ANA, "reg:c:0:2", first_october)
        done = said(await h.press(ANA, "reg:ok", first_october), ANA)
        assert any("your place is confirmed" in t for t in done), done
        [entry] = await svc.store.entries()
        assert await svc.day.lineups(teams) == [[[], [], [entry.number]]]
    finally:
        await h.stop()


async def test_the_deadline_is_told_in_the_chat_and_the_import_refuses_it(
        tmp_path: Path) -> None:
    h = await Harness(tmp_path, _series_file(tmp_path),
                      organisers=frozenset({BOSS.id})).start()
    try:
        svc = h.services
        rows = read_entries(svc.contest, io.StringIO(
            "number,category,names,born,library,registered_at\n"
            "1,teams,Ana;Ben,1990;1991,fitchburg,2024-08-11T09:00:00\n"), "x.csv")
        with pytest.raises(ImportError_) as exc:
            await refuse_entries_too_late(svc.contest, Registrations(svc.contest, svc.store),
                                          rows, at(2024, 8, 1))
        assert str(exc.value) == (
            "x.csv:2: column library: 'fitchburg': heat teams-local1 closed its registration "
            "on 2024-08-10 00:00: its entrants are set, and the entry would play in no heat "
            "(heats still to come: oregon, verona)")
        teams = svc.contest.category("teams")
        assert teams is not None
        out = await Registrations(svc.contest, svc.store).too_late(
            teams, at(2024, 8, 11), {"library": "fitchburg"})
        assert out is not None
        assert heat_started_text("en", svc.contest, out) == (
            "Too late for Local contest – Fitchburg Library of Teams: registration for it "
            "closed on August 10, 2024 at 00:00.\nChoose one still to come:")
        assert heat_started_text("es", svc.contest, out).startswith(
            "Demasiado tarde para Local contest – Fitchburg Library de Teams: su inscripción "
            "cerró el 10 de agosto de 2024 a las 00:00.")
    finally:
        await h.stop()


# -- local contests feeding each county's semi-final, the semi-finals one final ---------------

COUNTIES = """
[contest]
name = "Library Puzzle Masters 2024"
date = 2024-08-01
timezone = "America/Chicago"
language = "en"

[[questions]]
id = "library"
text = { en = "Which library's local contest will the team play?" }
kind = "choice"
per = "entry"
choices = [{ id = "fitchburg", label = "Fitchburg Library" },
           { id = "oregon", label = "Oregon Library" },
           { id = "baraboo", label = "Baraboo Library" },
           { id = "reedsburg", label = "Reedsburg Library" }]

[[categories]]
id = "teams"
name = "Teams"
members = 4
min_members = 2
slots = [{}, {}, {}, {}]
pieces = 500
time_limit = "1:00:00"
fee = 0
prizes = ["Gold", "Silver", "Bronze"]

[[categories.rounds]]
id = "local"
name = { en = "Local contest" }
heats_by = "library"
advance = { per_heat = 2 }        # the top two teams of each library

[[categories.rounds.heat]]
date = 2024-08-15
start = "18:00"
venue = "Fitchburg Library"

[[categories.rounds.heat]]
date = 2024-08-22
start = "18:00"
venue = "Oregon Library"

[[categories.rounds.heat]]
date = 2024-09-05
start = "18:00"
venue = "Baraboo Library"

[[categories.rounds.heat]]
date = 2024-09-12
start = "18:00"
venue = "Reedsburg Library"

[[categories.rounds]]
id = "semi"
name = { en = "Semi-final" }
date = 2024-10-12
pieces = 750
time_limit = "2:00:00"
heats = 2
advance = { per_heat = 3 }        # the top three of each county's semi-final

[[categories.rounds.heat]]
date = 2024-10-12
start = "10:00"
venue = "Madison Central Library"
name = { en = "Dane County" }
from = ["fitchburg", "oregon"]

[[categories.rounds.heat]]
date = 2024-10-19
start = "10:00"
venue = "Baraboo Library"
name = { en = "Sauk County" }
from = [3, 4]

[[categories.rounds]]
id = "final"
name = { en = "Final" }
date = 2024-11-09
start = "10:00"
pieces = 1000
time_limit = "2:00:00"
"""

LIBRARIES = ("fitchburg", "oregon", "baraboo", "reedsburg")


@pytest.mark.parametrize("change, problem", [
    (('from = [3, 4]', 'from = [2, 3, 4]'),
     "categories[1].rounds[2].heat[2].from: names heat 2 of 'local', already in heat 1's from"),
    (('from = [3, 4]', 'from = [3]'),
     "categories[1].rounds[2].heat: no heat takes the qualifiers of heat 4 of 'local' (from): "
     "they would play nowhere"),
    (('from = [3, 4]', 'from = ["sauk"]'),
     "categories[1].rounds[2].heat[2].from[1]: must be a heat of round 'local': one of "
     "fitchburg, oregon, baraboo, reedsburg or a number from 1 to 4, not 'sauk'"),
    (('from = [3, 4]\n', ''),
     "categories[1].rounds[2].heat: give from in every heat of the round, or in none"),
    (("date = 2024-10-12\nstart", "date = 2024-08-30\nstart"),
     "categories[1].rounds[2].heat[1].date: is before the round before ends (2024-09-12): a "
     "round is confirmed once all its heats are played"),
    (('venue = "Fitchburg Library"', 'venue = "Fitchburg Library"\nfrom = [1]'),
     "categories[1].rounds[1].heat[1].from: is for a later round (the heats of the round "
     "before)"),
])
def test_a_wrong_split_of_the_semi_finals_is_refused(change: tuple[str, str],
                                                     problem: str) -> None:
    with pytest.raises(ContestFileError) as exc:
        contest(COUNTIES.replace(*change))
    assert str(exc.value) == f"series.toml: {problem}"


async def test_each_library_feeds_its_countys_semi_final_and_both_one_final(
        tmp_path: Path) -> None:
    path = tmp_path / "series.toml"
    path.write_text(COUNTIES, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    vic = Person(20, "Vic", "en")
    try:
        svc = h.services
        # three teams per library: 1-3 Fitchburg, 4-6 Oregon, 7-9 Baraboo, 10-12 Reedsburg
        lines = "".join(f"{n},teams,Team {n};Mate {n},1990;1991,{LIBRARIES[(n - 1) // 3]}\n"
                        for n in range(1, 13))
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born,library\n" + lines), "x.csv"))
        for n in range(1, 13):
            entry = await svc.store.entry(n)
            assert entry is not None
            await h.send(Person(100 + n, f"P{n}", "en"), f"/start {entry.join_code}",
                         at(2024, 8, 1))
        await staff(h, BOSS, vic, at(2024, 8, 1))
        teams = svc.contest.category("teams")
        assert teams is not None
        # each library's evening: in entry order within it, the first fastest but at
        # Baraboo, where the third team wins
        times = {1: "0:40:00", 2: "0:45:00", 3: "0:50:00", 4: "0:41:00", 5: "0:46:00",
                 6: "0:51:00", 7: "0:55:00", 8: "0:52:00", 9: "0:42:00", 10: "0:43:00",
                 11: "0:47:00", 12: "0:53:00"}
        for k, day in enumerate((at(2024, 8, 15, 18), at(2024, 8, 22, 18),
                                 at(2024, 9, 5, 18), at(2024, 9, 12, 18))):
            started = said(await h.send(BOSS, "/inicio", day), BOSS)[0].splitlines()
            assert started[0] == (f"Clock started for: Local contest – "
                                  f"{LIBRARIES[k].capitalize()} Library (Teams)."), started
            # the libraries still to come, each on its day
            days = ("Thursday 15 August", "Thursday 22 August", "Thursday 5 September",
                    "Thursday 12 September")
            assert started[1:] == [f"Nothing to start today: Local contest – "
                                   f"{LIBRARIES[j].capitalize()} Library is on {days[j]}. "
                                   f"To start it now anyway: /go teams-local{j + 1}"
                                   for j in range(k + 1, 4)]
            for n in range(3 * k + 1, 3 * k + 4):
                await h.send(vic, f"/fin {n} {times[n]}", day + timedelta(minutes=58))
        calls = await h.send(BOSS, "/confirmar_ronda", at(2024, 9, 12, 19, 5))
        # the top two of each library, the semi-final of its county
        assert await svc.day.lineups(teams) == [
            [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]],
            [[1, 4, 2, 5], [9, 10, 11, 8]]]
        assert said(calls, Person(109, "P9")) == [
            "Entry #9 goes through to Semi-final – Sauk County (Teams): Saturday 19 October "
            "at 10:00, Baraboo Library, table 1. Well done!"]
        # third at its library, told so first
        assert said(calls, Person(103, "P3")) == [
            "Entry #3: Local contest of Teams is over. Place 3 in Local contest – Fitchburg "
            "Library (place 8 across the round's 4 heats); not enough to go through this "
            "time. Thank you for taking part!"]
        semi = {1: "1:30:00", 4: "1:31:00", 2: "1:32:00", 5: "1:50:00",
                9: "1:20:00", 10: "1:40:00", 8: "1:25:00", 11: "1:55:00"}
        for k, day in enumerate((at(2024, 10, 12, 10), at(2024, 10, 19, 10))):
            await h.send(BOSS, "/inicio", day)
            for n in (await svc.day.lineups(teams))[1][k]:
                await h.send(vic, f"/fin {n} {semi[n]}", day + timedelta(hours=1, minutes=58))
        await h.send(BOSS, "/confirmar_ronda", at(2024, 10, 19, 12, 5))
        # the top three of each semi-final: Dane 1, 4, 2; Sauk 9, 8, 10
        assert (await svc.day.lineups(teams))[2] == [[9, 8, 1, 4, 2, 10]]
    finally:
        await h.stop()


BY_COUNTY = COUNTIES.replace('''[[categories]]
id = "teams"''', '''[[questions]]
id = "county"
text = { en = "Which county?" }
kind = "choice"
per = "entry"
choices = ["dane", "sauk"]

[[categories]]
id = "teams"''').replace('from = ["fitchburg", "oregon"]\n', "").replace(
    "from = [3, 4]\n", "").replace("heats = 2\nadvance = { per_heat = 3 }",
                                   'heats_by = "county"\nadvance = { per_heat = 3 }')


def test_a_later_round_split_by_a_question_must_be_asked_in_the_category() -> None:
    semi = contest(BY_COUNTY).categories[0].rounds[1]
    assert (semi.heats_by, semi.heat_choices) == ("county", ("dane", "sauk"))
    restricted = BY_COUNTY.replace('choices = ["dane", "sauk"]',
                                   'choices = ["dane", "sauk"]\ncategories = ["solo"]') + (
        '\n[[categories]]\nid = "solo"\nname = "Solo"\nmembers = 1\nslots = [{}]\n'
        'pieces = 500\ntime_limit = "1:00:00"\nfee = 0\n')
    with pytest.raises(ContestFileError) as exc:
        contest(restricted)
    assert str(exc.value) == (
        "series.toml: categories[1].rounds[2].heats_by: county is not asked in teams "
        "(questions.categories): its entries would play in no heat")


async def test_qualifiers_play_the_heat_of_their_answer_in_a_later_round(
        tmp_path: Path) -> None:
    path = tmp_path / "series.toml"
    path.write_text(BY_COUNTY, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    vic = Person(20, "Vic", "en")
    try:
        svc = h.services
        # two teams per library; the county each team answered (Oregon's first: Sauk)
        county = {1: "dane", 2: "dane", 3: "sauk", 4: "dane", 5: "sauk", 6: "sauk",
                  7: "sauk", 8: "sauk"}
        lines = "".join(f"{n},teams,Team {n};Mate {n},1990;1991,{LIBRARIES[(n - 1) // 2]},"
                        f"{county[n]}\n" for n in range(1, 9))
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born,library,county\n" + lines), "x.csv"))
        with pytest.raises(ImportError_) as exc:
            read_entries(svc.contest, io.StringIO(
                "category,names,born,library,county\nteams,A;B,1990;1991,oregon,\n"), "y.csv")
        assert str(exc.value) == (
            "y.csv:2: column county: empty, but each entry of teams plays the heat of its "
            "answer in round semi (categories.rounds.heats_by): one of dane, sauk")
        await staff(h, BOSS, vic, at(2024, 8, 1))
        for k, day in enumerate((at(2024, 8, 15, 18), at(2024, 8, 22, 18),
                                 at(2024, 9, 5, 18), at(2024, 9, 12, 18))):
            await h.send(BOSS, "/inicio", day)
            for n in (2 * k + 1, 2 * k + 2):
                await h.send(vic, f"/fin {n} 0:{30 + n}:00", day + timedelta(minutes=58))
        await h.send(BOSS, "/confirmar_ronda", at(2024, 9, 12, 19, 5))
        teams = svc.contest.category("teams")
        assert teams is not None
        assert (await svc.day.lineups(teams))[1] == [[1, 2, 4], [3, 5, 6, 7, 8]]
    finally:
        await h.stop()


async def test_a_qualifier_whose_answer_names_no_heat_stops_the_confirmation(
        tmp_path: Path) -> None:
    """An entry written before the county question's choices changed (here, straight into
    the database) answers "essex": confirming would seat it nowhere, so nothing is
    confirmed, and the organiser is told who and why."""
    path = tmp_path / "series.toml"
    path.write_text(BY_COUNTY, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    vic = Person(20, "Vic", "en")
    try:
        svc = h.services
        county = {1: "dane", 2: "essex", 3: "sauk", 4: "sauk"}
        members = read_entries(svc.contest, io.StringIO(
            "category,names,born,library,county\nteams,A;B,1990;1991,oregon,dane\n"),
            "y.csv")[0].members
        for n in range(1, 5):
            async with svc.store.transaction() as tx:
                await tx.add_entry(category="teams", join_code=f"e{n}", local=False,
                                   registered_at=at(2024, 7, 2), members=members, number=n,
                                   values=(("library", LIBRARIES[(n - 1) // 2]),
                                           ("county", county[n])))
        await staff(h, BOSS, vic, at(2024, 8, 1))
        for k, day in enumerate((at(2024, 8, 15, 18), at(2024, 8, 22, 18))):
            await h.send(BOSS, "/inicio", day)
            for n in (2 * k + 1, 2 * k + 2):
                await h.send(vic, f"/fin {n} 0:{30 + n}:00", day + timedelta(minutes=58))
        for day in (at(2024, 9, 5, 18), at(2024, 9, 12, 18)):
            await h.send(BOSS, "/inicio", day)  # Baraboo and Reedsburg: nobody
        calls = await h.send(BOSS, "/confirmar_ronda", at(2024, 9, 12, 19, 5))
        assert said(calls, BOSS) == [
            "Not confirmed: #2 would go through from Local contest, but their answer to "
            "county, which decides their heat in the next round, is missing or not one of "
            "its choices: they would play in no heat. Check the question's choices in the "
            "contest file."]
        teams = svc.contest.category("teams")
        assert teams is not None
        assert len(await svc.day.lineups(teams)) == 1  # nothing confirmed
    finally:
        await h.stop()


def test_a_heat_without_its_own_start_takes_the_rounds_hour_on_its_day() -> None:
    text = SERIES.replace('heats_by = "library"', 'heats_by = "library"\nstart = "18:00"', 1)
    text = text.replace('date = 2024-09-27\nstart = "18:00"\n', "date = 2024-09-27\n")
    teams = contest(text).category("teams")
    assert teams is not None
    assert teams.rounds[0].schedule[1].start == at(2024, 9, 27, 18)
    # and a deadline that same day before 18:00 is before it begins
    text = text.replace('venue = "Oregon Library"',
                        'venue = "Oregon Library"\ncloses = 2024-09-27T12:00:00')
    assert contest(text).categories[0].rounds[0].schedule[1].closes == at(2024, 9, 27, 12)
