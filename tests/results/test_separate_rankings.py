"""Separate rankings within a category (issue 16, item 2): by age band or by a question's
answer, each placed among its own entries with its own prizes; entries out of competition
(a late team) shown with their result but never placed."""

from __future__ import annotations

import io
import tomllib
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.domain.ranking import Competitor, ages_fit, rank, separate
from bot.services import rounds
from bot.services.contest_file import ContestFileError, parse_contest
from bot.services.csvio import import_entries, read_entries
from bot.services.exports import result_rows
from tests.fakebot import Harness, Person, staff

TZ = ZoneInfo("Europe/Madrid")
T0 = datetime(2027, 5, 8, 10, 0, tzinfo=TZ)
BOSS, VIC = Person(1, "Olga", "en"), Person(20, "Vic", "en")

CONTEST = """
[contest]
name = "Separate rankings"
date = 2027-05-08
timezone = "Europe/Madrid"
language = "en"

[[questions]]
id = "resident"
text = "Do you live in the village?"

[[categories]]
id = "open"
name = "Open"
members = 1
slots = [{}]
pieces = 500
time_limit = "1:00:00"
fee = 0
prizes = ["Cup", "Medal"]

[[categories.rankings]]
id = "u18"
name = { en = "Under 18", es = "Sub-18", fr = "Moins de 18 ans" }
max_age = 17
prizes = ["Best young puzzler"]

[[categories.rankings]]
id = "locals"
name = "Residents"
question = "resident"
answers = ["yes"]
prizes = ["Village trophy"]
"""


def test_ages_fit_with_full_dates_and_years() -> None:
    day = date(2027, 5, 8)
    assert ages_fit([(date(2010, 5, 8), None)], day, None, 17)  # 17 on the day
    assert not ages_fit([(date(2009, 5, 8), None)], day, None, 17)  # 18 that day
    assert ages_fit([(None, 2011)], day, None, 17)  # 15 or 16
    assert not ages_fit([(None, 2009)], day, None, 17)  # 17 or 18: not sure, not in
    assert not ages_fit([(None, None)], day, None, 17)
    assert ages_fit([(date(1950, 1, 1), None)], day, 65, None)


def test_a_ranking_by_the_contest_year_is_read_from_the_file() -> None:
    seniors = parse_contest(tomllib.loads(CONTEST.replace(
        'id = "locals"', 'id = "locals"\nage_by = "year"', 1)), "x.toml")
    assert seniors.categories[0].separate[1].age_by == "year"
    with pytest.raises(ContestFileError, match='age_by: must be "day" or "year"'):
        parse_contest(tomllib.loads(CONTEST.replace(
            'id = "locals"', 'id = "locals"\nage_by = "month"', 1)), "x.toml")


def test_a_separate_ranking_places_its_own_entries_in_the_main_order() -> None:
    contest = parse_contest(tomllib.loads(CONTEST), "x.toml")
    cat = contest.categories[0]
    rows = rank(cat, [Competitor(1, ("A",), finish=1000), Competitor(2, ("B",), finish=1100),
                      Competitor(3, ("C",), finish=1100), Competitor(4, ("D",), pieces=400),
                      Competitor(5, ("E",))])
    sub = separate(rows, lambda n: n in (2, 3, 4, 5), ("Gold", "Silver", "Bronze"))
    # 2 and 3 shared the main second place: they share the first place here
    assert [(r.number, r.position, r.prize) for r in sub] == [
        (2, 1, "Gold"), (3, 1, "Gold"), (4, 3, "Bronze"), (5, None, None)]


@pytest.mark.parametrize("change,key", [
    (("max_age = 17\n", ""), "categories[1].rankings[1]"),
    (('answers = ["yes"]', 'answers = ["maybe"]'), "categories[1].rankings[2].answers[1]"),
    (('answers = ["yes"]\n', ""), "categories[1].rankings[2].answers"),
    (('question = "resident"', 'question = "club"'), "categories[1].rankings[2].question"),
    (('id = "locals"', 'id = "u18"'), "categories[1].rankings[2].id"),
    (("max_age = 17", "max_age = 17\nmin_age = 18"), "categories[1].rankings[1].max_age"),
])
def test_a_bad_separate_ranking_is_refused_with_its_key(change: tuple[str, str],
                                                       key: str) -> None:
    text = CONTEST.replace(*change)
    assert text != CONTEST
    with pytest.raises(ContestFileError) as err:
        parse_contest(tomllib.loads(text), "x.toml")
    assert f"x.toml: {key}" in str(err.value), str(err.value)


def said(calls: Any, who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


async def test_the_separate_rankings_in_the_chat_and_the_export(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(CONTEST, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born,resident\n"
            "1,open,Ana Adult,1980-01-01,no\n"
            "2,open,Kid Local,2012-03-03,yes\n"
            "3,open,Teen Away,2011-01-01,no\n"
            "4,open,Late Local,1990-01-01,yes\n"
            "5,open,Old Local,1950-01-01,yes\n"), "x.csv"))
        await staff(h, BOSS, VIC, T0 - timedelta(hours=1))
        await h.send(BOSS, "/inicio", T0)
        at = T0 + timedelta(minutes=59)
        for n, t in ((1, "0:40:00"), (2, "0:45:00"), (3, "0:50:00"), (4, "0:30:00")):
            await h.send(VIC, f"/fin {n} {t}", at)
        await h.send(VIC, "/piezas 5 300", at)
        assert said(await h.send(VIC, "/estado 4 fc arrived after the start", at), VIC) == [
            "Entry 4: out of competition (arrived after the start). It is not placed and does "
            "not advance (/undo to take it back)."]
        # not final yet: provisional, and no prize (issue 47, item 7)
        text = said(await h.send(BOSS, "/clasificacion", at), BOSS)[0]
        assert text.split("\n\n")[:2] == [
            "Open - ranking (provisional)\n1. #1 Ana Adult: 0:40:00\n2. #2 Kid Local: 0:45:00\n"
            "3. #3 Teen Away: 0:50:00\n4. #5 Old Local: 300 pieces\n"
            "- #4 Late Local: 0:30:00 (out of competition (arrived after the start))",
            "Open — Under 18 - ranking (provisional)\n1. #2 Kid Local: 0:45:00\n"
            "2. #3 Teen Away: 0:50:00"], text
        await h.send(BOSS, "/publicar open", at)
        await h.press(BOSS, "pub:open", at)
        text = said(await h.send(BOSS, "/clasificacion", at), BOSS)[0]
        assert text.split("\n\n") == [
            "Open - ranking\n1. #1 Ana Adult: 0:40:00 - Cup\n2. #2 Kid Local: 0:45:00 - Medal\n"
            "3. #3 Teen Away: 0:50:00\n4. #5 Old Local: 300 pieces\n"
            "- #4 Late Local: 0:30:00 (out of competition (arrived after the start))",
            "Open — Under 18 - ranking\n1. #2 Kid Local: 0:45:00 - Best young puzzler\n"
            "2. #3 Teen Away: 0:50:00",
            "Open — Residents - ranking\n1. #2 Kid Local: 0:45:00 - Village trophy\n"
            "2. #5 Old Local: 300 pieces\n"
            "- #4 Late Local: 0:30:00 (out of competition (arrived after the start))"], text
        rows = await result_rows(svc.contest, svc.day)
        table = {r[2]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
        assert table[2]["other_rankings"] == ("u18 1 (Best young puzzler); "
                                              "locals 1 (Village trophy)")
        assert table[1]["other_rankings"] == ""
        assert (table[4]["position"], table[4]["outcome"]) == ("", "oc")
    finally:
        await h.stop()


async def test_a_separate_ranking_pools_the_prizes_of_a_shared_place_when_the_contest_does(
        tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(CONTEST.replace('language = "en"\n',
                                    'language = "en"\nshared_prizes = "pooled"\n', 1)
                    .replace('prizes = ["Village trophy"]',
                             'prizes = ["Village trophy", "Village medal"]'), encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born,resident\n"
            "1,open,Ana Adult,1980-01-01,no\n"
            "2,open,Kid Local,2012-03-03,yes\n"
            "5,open,Old Local,1950-01-01,yes\n"), "x.csv"))
        await staff(h, BOSS, VIC, T0 - timedelta(hours=1))
        await h.send(BOSS, "/inicio", T0)
        at = T0 + timedelta(minutes=59)
        for n, t in ((1, "0:40:00"), (2, "0:45:00"), (5, "0:45:00")):
            await h.send(VIC, f"/fin {n} {t}", at)
        separate_rankings = await rounds.separate_rankings(svc.day, svc.contest.categories[0])
        prizes = {sr.id: [(r.number, r.position, r.prize) for r in rows]
                  for sr, rows in separate_rankings}
        # 2 and 5 share the residents' 1st place, taking up places 1 and 2: both prizes
        assert prizes["locals"] == [(2, 1, "Village trophy + Village medal"),
                                    (5, 1, "Village trophy + Village medal")]
        assert prizes["u18"] == [(2, 1, "Best young puzzler")]
    finally:
        await h.stop()
