"""Issue 45, item 6: ratings across contests against what the world sends them. People are
matched as registration matches them (``same_person``: full dates when both are known, a year
alone joining the one person it can be); the near matches, found without comparing every pair,
are the pairwise definition's (a slow reference here, on a generated league and on names built
to be alike); documents of the wrong shape and days out of range end in one ``error:`` line,
never a traceback (hypothesis mutates a document); a document without births is refused."""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.domain.rating_people import (
    NearMatches,
    Person,
    matched,
    near_matches,
    person_keys,
    shown,
    year_of,
)
from bot.domain.ratings import Settings, ratings
from bot.features.registration.rules import Member, name_key, same_person
from bot.services.ratings import RatingError, events_of, near_match_lines, ranked
from tests.clirun import bot_main
from tests.ratingdocs import league, namesakes

ANA = {"name": "Ana Pérez", "born": "1990-04-02", "born_year": 1990}
BEA = {"name": "Bea Gil", "born": "1985-01-01", "born_year": 1985}


def contest(name: str, day: str, *players: tuple[dict[str, Any], str]) -> dict[str, Any]:
    """A document with one individual category (500 pieces, an hour): each player (member,
    time)."""
    return {"document": "puzzlebot-contest", "version": 1, "public": False,
            "contest": {"name": name, "date": day, "timezone": "Europe/Madrid",
                        "language": "es"},
            "contest_file": {"text": "", "data": {"categories": [
                {"id": "solo", "members": 1, "pieces": 500, "time_limit": "1:00:00"}]}},
            "entries": [{"number": i, "category": "solo", "local": False,
                         "members": [copy.deepcopy(m)]}
                        for i, (m, _) in enumerate(players, 1)],
            "rounds": [], "history": [],
            "results": [{"category": "solo", "number": i, "round": "", "finished": "yes",
                         "time": t, "adjusted_time": "", "pieces": "", "outcome": ""}
                        for i, (_, t) in enumerate(players, 1)]}


def rate(tmp_path: Path, *docs: Any, args: tuple[str, ...] = ()) -> tuple[Any, list[str]]:
    """``python -m bot rating`` on the documents (JSON, or text as it is): the run and the CSV
    file's lines."""
    paths = []
    for i, doc in enumerate(docs):
        path = tmp_path / f"doc{i + 1}.json"
        path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
        paths.append(str(path))
    out = tmp_path / "r.csv"
    out.unlink(missing_ok=True)
    run = bot_main(["rating", *paths, "--csv", str(out), *args], os.environ)
    return run, out.read_text(encoding="utf-8").splitlines() if out.exists() else []


def solo_rows(csv_lines: list[str], name: str) -> list[list[str]]:
    rows = [line.split(",") for line in csv_lines[1:]]
    return [r for r in rows if r[0] == "individual" and name_key(r[2]) == name_key(name)]


def near_lines(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("Near matches")), None)
    return [] if at is None else lines[at + 1:]


# -- people matched as registration matches them --------------------------------------------------


def test_the_same_name_and_year_with_other_dates_are_two_people(tmp_path: Path) -> None:
    other = {"name": "ANA PEREZ", "born": "1990-07-09", "born_year": 1990}
    run, csv_lines = rate(tmp_path, contest("a", "2024-03-02", (ANA, "0:40:00"), (BEA, "0:50:00")),
                          contest("b", "2024-05-04", (other, "0:45:00"), (BEA, "0:52:00")),
                          contest("c", "2024-06-01", (ANA, "0:41:00"), (BEA, "0:51:00")))
    assert run.returncode == 0, run.stderr
    # the same name and date in a and c: one person; the other date in b: another
    assert sorted(r[5] for r in solo_rows(csv_lines, "Ana Pérez")) == ["1", "2"]
    assert [r[5] for r in solo_rows(csv_lines, "Bea Gil")] == ["3"]
    assert near_lines(run.stdout) == ["  Ana Pérez (also ANA PEREZ): 2 rated apart (1990 ×2)"]


def test_a_year_alone_joins_the_one_person_it_can_be(tmp_path: Path) -> None:
    year_only = {"name": "Ana Perez", "born_year": 1990}
    run, csv_lines = rate(tmp_path, contest("a", "2024-03-02", (ANA, "0:40:00"), (BEA, "0:50:00")),
                          contest("b", "2024-05-04", (year_only, "0:45:00"), (BEA, "0:52:00")))
    assert run.returncode == 0, run.stderr
    assert [r[5] for r in solo_rows(csv_lines, "Ana Pérez")] == ["2"]
    assert near_lines(run.stdout) == []


def test_a_year_alone_between_two_dates_is_rated_apart_and_listed(tmp_path: Path) -> None:
    other = {"name": "Ana Pérez", "born": "1990-07-09", "born_year": 1990}
    year_only = {"name": "Ana Perez", "born_year": 1990}
    run, csv_lines = rate(tmp_path, contest("a", "2024-03-02", (ANA, "0:40:00"), (BEA, "0:50:00")),
                          contest("b", "2024-04-06", (other, "0:44:00"), (BEA, "0:51:00")),
                          contest("c", "2024-05-04", (year_only, "0:45:00"), (BEA, "0:52:00")))
    assert run.returncode == 0, run.stderr
    assert [r[5] for r in solo_rows(csv_lines, "Ana Pérez")] == ["1", "1", "1"]
    # each of the three beside each other: one line for the three
    assert near_lines(run.stdout) == ["  Ana Perez (also Ana Pérez): 3 rated apart (1990 ×3)"]


def test_documents_with_years_only_are_rated_and_matched(tmp_path: Path) -> None:
    ana, bea = {"name": "Ana Pérez", "born_year": 1990}, {"name": "Bea Gil", "born_year": 1985}
    run, csv_lines = rate(tmp_path, contest("a", "2024-03-02", (ana, "0:40:00"), (bea, "0:50:00")),
                          contest("b", "2024-05-04", (ana, "0:45:00"), (bea, "0:52:00")))
    assert run.returncode == 0, run.stderr
    assert [r[5] for r in solo_rows(csv_lines, "Ana Pérez")] == ["2"]


def test_without_a_birth_no_one_is_joined_across_documents(tmp_path: Path) -> None:
    nameless = {"name": "Carla Ruiz"}  # no birth: registration can't tell two Carlas apart
    run, csv_lines = rate(tmp_path,
                          contest("a", "2024-03-02", (ANA, "0:40:00"), (nameless, "0:50:00")),
                          contest("b", "2024-05-04", (ANA, "0:45:00"), (nameless, "0:52:00")))
    assert run.returncode == 0, run.stderr
    assert [r[5] for r in solo_rows(csv_lines, "Carla Ruiz")] == ["1", "1"]
    assert near_lines(run.stdout) == ["  Carla Ruiz: 2 rated apart (no birth ×2)"]


def test_a_document_without_births_is_refused(tmp_path: Path) -> None:
    public = contest("a", "2024-03-02", ({"name": "Ana Pérez"}, "0:40:00"))
    public["public"] = True
    run, _ = rate(tmp_path, public)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [
        f"error: {tmp_path / 'doc1.json'}: public: a public document (--public) has no births: "
        "its people can't be matched across contests; rate the whole document (export "
        "document without --public)"]
    public["public"] = False  # a whole document whose contest asked no one's birth
    run, _ = rate(tmp_path, public)
    assert run.returncode == 2 and run.stderr.splitlines() == [
        f"error: {tmp_path / 'doc1.json'}: no one in it has a birth (a date or a year): its "
        "people can't be matched across contests as registration matches them"]


def test_matching_is_same_person_on_a_generated_league() -> None:
    """Every two appearances of a generated league (about 300) are one person exactly when
    ``same_person`` says so, a year alone only when it is the one person it can be (the
    league has namesakes of one year: some years alone can be two people)."""
    people = [p for i, doc in enumerate(league(24, 200, seed=5))
              for p in events_of(doc, f"l{i}.json", Settings())[1]]
    keys = person_keys(people)
    member = {p.key: Member(p.name, *_born(p.birth)) for p in people}
    dated = [k for k, m in member.items() if m.born is not None]
    assert len(member) > 250 and len(set(keys.values())) < len(member)
    apart = 0
    for a, ma in member.items():
        if ma.born is None and ma.year is not None:
            could = {keys[d] for d in dated if same_person(ma, member[d])}
            assert (keys[a] in could) == (len(could) == 1), a
            apart += len(could) > 1
        for b, mb in member.items():
            if a < b and (ma.born is not None or ma.year is None) and \
                    (mb.born is not None or mb.year is None):
                assert (keys[a] == keys[b]) == same_person(ma, mb), (a, b)
    assert apart > 0


def _born(birth: str) -> tuple[date | None, int | None]:
    if not birth:
        return None, None
    return (None, int(birth)) if len(birth) == 4 else (date.fromisoformat(birth),
                                                       int(birth[:4]))


# -- near matches: the pairwise definition, without comparing every pair --------------------------


def osa(a: str, b: str) -> int:
    """Optimal string alignment distance, the whole table (the slow reference)."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


def reference(people: list[Person]) -> list[tuple[str, str]]:
    """Every pair of people rated apart who may be one (docs/rules.md): the same name, or
    names one edit apart (two when both have 12 characters or more) with the same year."""
    who = sorted(shown(people).values(), key=lambda p: p.key)
    out = []
    for i, a in enumerate(who):
        for b in who[i + 1:]:
            na, nb = name_key(a.name), name_key(b.name)
            allowed = 2 if min(len(na), len(nb)) >= 12 else 1
            if na == nb or (a.birth[:4] == b.birth[:4] and osa(na, nb) <= allowed):
                out.append((a.key, b.key))
    return out


def pairs_of(near: NearMatches) -> list[tuple[str, str]]:
    """The pairs of people (keys) the groups stand for, each pair's keys and the list sorted
    (a pair twice stays twice)."""
    return sorted((a.key, b.key) if a.key < b.key else (b.key, a.key) for a, b in near.pairs())


def test_near_matches_are_the_pairwise_definitions_on_a_generated_league() -> None:
    events, people = [], []
    for i, doc in enumerate(league(24, 200, seed=5)):
        found, who = events_of(doc, f"l{i}.json", Settings())
        events += found
        people += who
    events, people = matched(events, people)
    found = pairs_of(near_matches(people))
    assert found == reference(people)
    same = [p for p in found if p[0].split("|")[0] == p[1].split("|")[0]]
    assert len(same) >= 5 and len(found) - len(same) >= 3  # both kinds of near match


def test_near_matches_are_the_pairwise_definitions_on_names_made_alike() -> None:
    """300 names over three letters and a space (every kind of edit between them, short and
    long), births among two years and none."""
    rng = random.Random(7)
    people = []
    for i in range(300):
        name = "".join(rng.choice("ab ") for _ in range(rng.choice((3, 5, 10, 11, 12, 13, 15))))
        birth = rng.choice(("1990", "1990-05-01", "1991", ""))
        people.append(Person(f"{name_key(name) or 'x'}|{birth or i}", name, birth))
    near = near_matches(people)
    found = pairs_of(near)
    assert found == reference(people) and len(found) > 150
    assert len(near.namesakes) > 5 and len(near.alike) > 5
    for two in near.alike:  # each two names listed with exactly the years both have
        assert set(two.years) == ({year_of(p) for p in two.first.people}
                                  & {year_of(p) for p in two.second.people})


def test_people_of_one_name_are_one_line_however_many(tmp_path: Path) -> None:
    """Everyone "Ana García", one birth per document: 220 people rated apart (24,090 pairs)
    are one line with how many and their years, and the groups hold each person once."""
    docs = namesakes(10)
    run, _ = rate(tmp_path, *docs)
    assert run.returncode == 0, run.stderr
    assert near_lines(run.stdout) == ["  Ana García: 220 rated apart (1990 ×10, no birth ×210)"]
    people = [p for i, doc in enumerate(docs) for p in events_of(doc, f"{i}.json", Settings())[1]]
    near = near_matches(matched([], people)[1])
    assert [len(name.people) for name in near.namesakes] == [220] and near.alike == ()


def test_two_names_alike_are_one_line_with_the_years_both_have() -> None:
    """Names a letter apart: one line for the two names, each with its people of the years
    both have (1971, the one only Carla Ruiz has, left out), besides each name's own line."""
    def person(name: str, birth: str, n: int) -> Person:
        return Person(f"{name_key(name)}|{birth or n}", name, birth)
    people = [person("Carla Ruiz", "1970-01-02", 1), person("CARLA RUIZ", "1970-03-04", 2),
              person("Carla Ruiz", "", 3), person("Carla Ruiz", "1971", 4),
              person("Carla Ruis", "1970", 5), person("Carla Ruis", "", 6),
              person("Carla Ruis", "", 7)]
    assert near_match_lines(near_matches(people)) == [
        "Carla Ruis: 3 rated apart (1970, no birth ×2)",
        "Carla Ruis (1970, no birth ×2) / Carla Ruiz (1970 ×2, no birth)",
        "Carla Ruiz (also CARLA RUIZ): 4 rated apart (1970 ×2, 1971, no birth)"]


# -- documents of the wrong shape, days out of range: one line, never a traceback -----------------


def _deep(n: int) -> str:
    return "[" * n + "]" * n


WRONG_SHAPES: list[tuple[str, Any, str]] = [
    ("a list", "[1, 2]", "not a contest document"),
    ("a text", '"puzzlebot-contest"', "not a contest document"),
    ("nested garbage", _deep(200_000), "not a contest document (nested too deep to read)"),
    ("no results", "-results", "results: missing"),
    ("members a text", ("entries", 0, "members", "Ana"), "entries[0].members: must be a list"),
    ("a number as text", ("results", 0, "number", "1"),
     "results[0].number: must be a whole number from 1 to 1000000000, not '1'"),
    ("pieces as text", ("results", 0, "pieces", "450"), "results[0].pieces: must be a whole"),
    ("a year as text", ("entries", 0, "members", 0, "born_year", "1990"),
     "entries[0].members[0].born_year: must be a whole number from 1 to 9999, not '1990'"),
    ("a time as a number", ("results", 0, "time", 2400),
     "results[0].time: must be a text, not 2400"),
    ("a time of text", ("results", 0, "time", "fast"), "results[0].time: must be a time"),
    ("categories an object", ("contest_file", "data", "categories", {"solo": [[[]]]}),
     "contest_file.data.categories: must be a list, not an object"),
    ("a date that is not", ("entries", 0, "members", 0, "born", "1990-02-30"),
     "entries[0].members[0].born: must be a date (YYYY-MM-DD), not '1990-02-30'"),
    ("a number of 5,000 digits", "9" * 5000, "cannot be read as JSON"),
]


def _wrong(shape: Any) -> Any:
    doc = contest("a", "2024-03-02", (ANA, "0:40:00"), (BEA, "0:50:00"))
    if isinstance(shape, str) and shape.startswith("-"):
        del doc[shape[1:]]
        return doc
    if isinstance(shape, str):
        return shape
    *path, key, value = shape
    part = doc
    for step in path:
        part = part[step]
    part[key] = value
    return doc


@pytest.mark.parametrize(("shape", "problem"), [(s, p) for _, s, p in WRONG_SHAPES],
                         ids=[label for label, _, _ in WRONG_SHAPES])
def test_a_document_of_the_wrong_shape_is_one_error_line(tmp_path: Path, shape: Any,
                                                         problem: str) -> None:
    run, _ = rate(tmp_path, contest("ok", "2024-01-06", (ANA, "0:40:00")), _wrong(shape))
    assert run.returncode == 2 and run.stdout == ""
    [line] = run.stderr.splitlines()
    assert line.startswith(f"error: {tmp_path / 'doc2.json'}: {problem}"), line


def test_what_the_rating_does_not_read_may_be_anything(tmp_path: Path) -> None:
    doc = contest("a", "2024-03-02", (ANA, "0:40:00"), (BEA, "0:50:00"))
    doc["history"] = [[["garbage"]], {"kind": 7}]
    run, _ = rate(tmp_path, doc)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize(("at", "problem"), [
    ("0001-01-01", "--at 0001-01-01: no event of these documents in the 12 months up to that "
     "day (theirs are from 2024-03-02 to 2024-03-02)"),
    ("9999-12-31", "--at 9999-12-31: no event of these documents in the 12 months"),
    ("10000-01-01", "--at 10000-01-01: not a date (YYYY-MM-DD, from 0001-01-01 to 9999-12-31)"),
    ("2024-02-30", "--at 2024-02-30: not a date"),
])
def test_a_day_out_of_range_is_one_error_line(tmp_path: Path, at: str, problem: str) -> None:
    run, _ = rate(tmp_path, contest("a", "2024-03-02", (ANA, "0:40:00")), args=("--at", at))
    assert run.returncode == 2 and run.stdout == ""
    [line] = run.stderr.splitlines()
    assert line.startswith(f"error: {problem}"), line


def test_the_first_and_last_days_there_are_rate(tmp_path: Path) -> None:
    for day in ("0001-01-01", "9999-12-31"):  # a window reaching before the year 1 included
        run, csv_lines = rate(tmp_path, contest("a", day, (ANA, "0:40:00"), (BEA, "0:50:00")),
                              args=("--at", day))
        assert run.returncode == 0, run.stderr
        assert len(csv_lines) == 3
    assert ratings([], Settings(120), date(1, 1, 1)) == {"individual": {}, "pairs": {},
                                                          "teams": {}}


# -- hypothesis: a document mutated anywhere is rated or refused in one line ----------------------


def _base() -> dict[str, Any]:
    doc = contest("base", "2024-03-02", (ANA, "0:40:00"), (BEA, "0:50:00"),
                  ({"name": "Carla Ruiz", "born_year": 1970}, "0:55:00"))
    doc["results"][2].update(finished="no", time="", pieces=400)
    doc["results"][1]["adjusted_time"] = "0:51:00"
    doc["contest_file"]["data"]["categories"].append(
        {"id": "teams", "members": 2, "pieces": 1000, "time_limit": "2:00:00",
         "rounds": [{"id": "semi", "pieces": 500}, {"id": "final", "puzzles": [500, 500]}]})
    doc["entries"].append({"number": 4, "category": "teams", "local": False,
                           "members": [ANA, {"name": "Dani Gil", "born": None,
                                             "born_year": None}]})
    doc["results"] += [
        {"category": "teams", "number": 4, "round": "semi", "finished": "yes",
         "time": "0:30:00", "adjusted_time": "", "pieces": "", "outcome": ""},
        {"category": "teams", "number": 4, "round": "final", "finished": "no",
         "time": "", "adjusted_time": "", "pieces": 700, "outcome": ""}]
    doc["rounds"] = [{"category": "teams", "round": "final", "name": {"es": "Final"},
                      "heats": [{"heat": "teams-final-1", "number": 1, "name": {},
                                 "date": "2024-03-03", "start": None, "venue": "",
                                 "entries": []}]}]
    return doc


def _paths(value: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield here
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*here, i))


BASE = _base()
PATHS = list(_paths(BASE))
ODD = st.sampled_from(["", "-1:00:00", "1:00:00", "99999:00:00", "9" * 5000, "1990-04-02",
                       "0001-01-01", "yes", "no", "dns", "puzzlebot-contest", "solo", "teams",
                       "final", "\u200b", "NaN", 2**70, -1, 0, 1, 4, 1990, 1.5, float("nan"),
                       float("inf"), True, False, None])
VALUES = st.recursive(ODD | st.text(max_size=8) | st.integers(),
                      lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["id", "name", "date", "number", "x"]),
                                        inner, max_size=3), max_leaves=6)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), st.booleans(), VALUES), min_size=1,
                max_size=3),
       st.sampled_from([Settings(), Settings(1, "leave_out", "with_birth")]),
       st.sampled_from([date(1, 1, 1), date(2024, 3, 31), date(9999, 12, 31)]))
def test_a_mutated_document_is_rated_or_refused_in_one_line(
        changes: list[tuple[tuple[Any, ...], bool, Any]], rules: Settings, at: date) -> None:
    doc: Any = copy.deepcopy(BASE)
    for path, remove, value in changes:
        doc = _changed(doc, path, remove, value)
    try:
        events, people = events_of(doc, "fuzz.json", rules)
    except RatingError as exc:
        assert str(exc).startswith("fuzz.json: ") and "\n" not in str(exc)
        return
    events, people = matched(events, people)
    ranked(ratings(events, rules, at), people)
    near_matches(people)


def _changed(doc: Any, path: tuple[Any, ...], remove: bool, value: Any) -> Any:
    """``doc`` with the part at ``path`` (if it is still there) removed or replaced."""
    if not path:
        return value
    part = doc
    for step in path[:-1]:
        try:
            part = part[step]
        except (KeyError, IndexError, TypeError):
            return doc
    key = path[-1]
    if isinstance(part, dict) or (isinstance(part, list) and isinstance(key, int)
                                  and key < len(part)):
        if remove and isinstance(part, dict):
            part.pop(key, None)
        elif remove:
            del part[key]
        else:
            part[key] = value
    return doc


def test_the_same_contest_given_twice_is_refused(tmp_path: Path) -> None:
    """A document passed twice (or a copy of it) would count every result twice."""
    doc = contest("a", "2024-03-02", (ANA, "0:40:00"), (BEA, "0:50:00"))
    run, csv_lines = rate(tmp_path, doc, contest("b", "2024-04-06", (ANA, "0:41:00")), doc)
    assert run.returncode == 2 and csv_lines == []
    assert run.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'doc3.json'}: the same contest as {tmp_path / 'doc1.json'} "
        "(a, 2024-03-02): give each contest once"]
