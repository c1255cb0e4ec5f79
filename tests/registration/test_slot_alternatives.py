"""Eligibility with alternatives (issue 15, item 4): a member's place can say "14 or over, or any
age with an adult in the entry" (``min_age = 14, or = [{ with_adult = 18 }]``). Checked the
same way in the chat and in the import; the refusal names the rule."""

from __future__ import annotations

import io
import tomllib
from datetime import date
from pathlib import Path

import pytest

from bot.domain.contest import Slot
from bot.features.registration.rules import Member, check_entry, check_members
from bot.features.registration.texts import ineligible_text, slot_text
from bot.services.contest_file import ContestFileError, load_contest, parse_contest
from bot.services.csvio import ImportError_, read_entries
from bot.services.summary import summary
from tests.conftest import BILLOM
from tests.registration.test_registration_chat import (
    ANA,
    BILLOM_OPENS,
    one_text,
    open_harness,
    start_entry,
)

WORLD = "slots = [{ min_age = 14, or = [{ with_adult = 18 }] }, " \
        "{ min_age = 14, or = [{ with_adult = 18 }] }]"
DAY = date(2012, 3, 10)  # Billom's contest day


def contest_text() -> str:
    text = BILLOM.read_text(encoding="utf-8")
    old = ('id = "adulte"\nname = "Adulte"\nmembers = 2\n'
           'slots = [{ min_age = 12 }, { min_age = 12 }]')
    assert old in text
    return text.replace(old, f'id = "adulte"\nname = "Adulte"\nmembers = 2\n{WORLD}')


def born(age: int, name: str = "X") -> Member:
    """Aged ``age`` on the contest day (born a month before it, that many years ago)."""
    b = date(DAY.year - age, DAY.month - 1, 1)
    return Member(name, born=b, born_year=b.year)


def written(factory: pytest.TempPathFactory, name: str, text: str) -> Path:
    path = factory.mktemp(name) / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written(tmp_path_factory, "world", contest_text())


def test_the_contest_file_reads_alternatives(world: Path) -> None:
    contest = load_contest(world)
    cat = contest.category("adulte")
    assert cat is not None and cat.checks_age
    assert cat.slots[0] == Slot(min_age=14, alternatives=(Slot(with_adult=18),))
    assert slot_text("en", cat.slots[0]) == ("aged 14 or more on the contest day or with a "
                                             "member aged 18 or more")
    assert "aged 14+ on the day or with a member aged 18+" in summary(contest)


@pytest.mark.parametrize("bad,key", [
    ("{ min_age = 14, or = [{ with_adult = 0 }] }", "categories[3].slots[1].or[1].with_adult"),
    ("{ min_age = 14, or = [{ or = [] }] }", "categories[3].slots[1].or[1]"),
    ("{ min_age = 14, or = [{ colour = 1 }] }", "categories[3].slots[1].or[1]"),
    ("{ min_age = 14, or = [{}] }", "categories[3].slots[1].or[1]"),  # takes anyone
    ("{ or = [{ born_to = 2010 }, { min_age = 18 }] }", "categories[3].slots"),  # mixes
])
def test_a_bad_alternative_is_refused_with_its_key(bad: str, key: str) -> None:
    text = contest_text().replace(WORLD, f"slots = [{bad}, {{ min_age = 14 }}]")
    with pytest.raises(ContestFileError) as err:
        parse_contest(tomllib.loads(text), "x.toml")
    assert f"x.toml: {key}" in str(err.value), str(err.value)


@pytest.mark.parametrize("ages,ok", [
    ((15, 15), True),    # two 15-year-olds: both 14 or over
    ((10, 40), True),    # a child with an adult
    ((40, 10), True),    # in either order
    ((10, 15), False),   # a child with a 15-year-old: no adult
    ((10, 10), False),
    ((13, 18), True),    # exactly 18 is an adult
    ((13, 17), False),
])
def test_fourteen_or_over_or_any_age_with_an_adult(world: Path, ages: tuple[int, int],
                                                  ok: bool) -> None:
    cat = load_contest(world).category("adulte")
    assert cat is not None
    members = [born(a, f"M{i}") for i, a in enumerate(ages)]
    problem = check_entry(cat, members, DAY)
    assert (problem is None) == ok, problem
    if not ok:
        assert problem is not None and problem.reason == "adult_needed"
        assert problem.member == ages.index(min(ages))
        assert ineligible_text("en", problem) == (
            f"Not possible: aged {min(ages)} on the contest day, so this category needs "
            "someone aged 18 or more in the same entry.")
        # while the entry is still being entered, the adult may come later
        assert check_members(cat, members[:1], DAY) is None


def test_the_import_applies_the_same_rule(world: Path) -> None:
    contest = load_contest(world)
    head = "category,names,born\n"
    rows = read_entries(contest, io.StringIO(head + "adulte,Ana; Bea,1997-01-01; 1997-02-01\n"
                                             "adulte,Kid; Mum,2002-01-01; 1970-01-01\n"), "w.csv")
    assert len(rows) == 2
    with pytest.raises(ImportError_) as err:
        read_entries(contest, io.StringIO(head + "adulte,Kid; Teen,2002-01-01; 1997-01-01\n"),
                     "w.csv")
    assert str(err.value) == (
        "w.csv:2: not eligible for adulte: member 1 (Kid): aged 10 on the contest day, so this "
        "category needs someone aged 18 or more in the same entry")


async def test_the_chat_says_so_at_the_last_member(world: Path, tmp_path: Path) -> None:
    h = await open_harness(tmp_path, world)
    try:
        at = BILLOM_OPENS
        await start_entry(h, ANA, "adulte", at)
        await h.send(ANA, "Kid Uno", at)
        # 10: fine so far, an adult may follow (Billom asks no questions: the next name)
        assert "member 2 of 2" in one_text(await h.send(ANA, "2002-01-01", at), ANA)
        await h.send(ANA, "Teen Dos", at)
        refused = one_text(await h.send(ANA, "1997-01-01", at), ANA)  # 15: no adult
        assert refused.startswith(
            "Not possible: Kid Uno, aged 10 on the contest day, so this category needs "
            "someone aged 18 or more in the same entry."), refused
        assert "Write the correct birth" in refused
    finally:
        await h.stop()


# -- teams of varying size (issue 15, item 4) ----------------------------------------------

TEAMS = ('id = "adulte"\nname = "Adulte"\nmembers = 4\nmin_members = 2\n'
         "slots = [" + ", ".join(["{ min_age = 14, or = [{ with_adult = 18 }] }"] * 4) + "]")


def teams_text() -> str:
    return contest_text().replace(f'id = "adulte"\nname = "Adulte"\nmembers = 2\n{WORLD}', TEAMS)


@pytest.fixture(scope="module")
def teams(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written(tmp_path_factory, "teams", teams_text())


def test_a_category_of_two_to_four(teams: Path) -> None:
    contest = load_contest(teams)
    cat = contest.category("adulte")
    assert cat is not None and (cat.fewest, cat.members) == (2, 4)
    assert "adulte: Adulte - 2 to 4 member(s)" in summary(contest)
    assert check_entry(cat, [born(30), born(31)], DAY) is None
    assert check_entry(cat, [born(30), born(31), born(32), born(33)], DAY) is None
    one = check_entry(cat, [born(30)], DAY)
    assert one is not None and one.reason == "missing_members"
    assert load_contest(BILLOM).category("adulte").fewest == 2  # type: ignore[union-attr]
    with pytest.raises(ContestFileError, match="min_members: is more than members"):
        parse_contest(tomllib.loads(teams_text().replace("min_members = 2", "min_members = 5")),
                      "x.toml")


def test_the_import_takes_two_to_four_names(teams: Path) -> None:
    contest = load_contest(teams)
    head = "category,names,born\n"
    rows = read_entries(contest, io.StringIO(
        head + "adulte,A; B; C,1980-01-01; 1981-01-01; 1982-01-01\n"), "t.csv")
    assert len(rows[0].members) == 3
    for names, births in (("A", "1980-01-01"), ("A; B; C; D; E", "; ".join(["1980-01-01"] * 5))):
        with pytest.raises(ImportError_, match="adulte entries have 2 to 4 member"):
            read_entries(contest, io.StringIO(f"{head}adulte,{names},{births}\n"), "t.csv")


async def test_the_chat_asks_for_more_members_up_to_four(teams: Path, tmp_path: Path) -> None:
    h = await open_harness(tmp_path, teams)
    try:
        at = BILLOM_OPENS
        await start_entry(h, ANA, "adulte", at)
        await h.send(ANA, "Kid Uno", at)
        asked = one_text(await h.send(ANA, "2002-01-01", at), ANA)  # 10
        assert asked == ("Name and surname of member 2 (teams of 2 to 4)?\n"
                         "Kid Uno needs someone aged 18 or more in the same entry.")
        await h.send(ANA, "Teen Dos", at)
        more = await h.send(ANA, "1997-01-01", at)  # 15: two members, two more allowed
        assert "Members so far: 2 (this category takes 2 to 4). Another member?" in one_text(
            more, ANA)
        assert [d for _, d in h.buttons(more)] == ["reg:more:y", "reg:more:n"]
        # forged data with a line break after it is not the button (it once read as "n")
        forged = [c.text for c in await h.press(ANA, "reg:more:y\n", at)
                  if c.method == "sendMessage"]
        assert not any("Not possible" in t or "Name and surname" in t for t in forged), forged
        # that is the team? a 10-year-old with a 15-year-old: an adult is needed
        refused = [c.text for c in await h.press(ANA, "reg:more:n", at)
                   if c.method == "sendMessage"]
        assert refused[0].startswith("Not possible: Kid Uno, aged 10 on the contest day"), refused
        assert "Another member?" in refused[1]
        await h.press(ANA, "reg:more:y", at)
        await h.send(ANA, "Mum Tres", at)
        again = await h.send(ANA, "1970-01-01", at)
        assert "Members so far: 3" in one_text(again, ANA)
        await h.press(ANA, "reg:more:y", at)
        await h.send(ANA, "Dad Cuatro", at)
        full = one_text(await h.send(ANA, "1971-01-01", at), ANA)  # the fourth: no more asked
        assert "Another member?" not in full and full.startswith("Please check your registration")
        for i, name in enumerate(("Kid Uno", "Teen Dos", "Mum Tres", "Dad Cuatro"), start=1):
            assert f"{i}. {name} (" in full
        assert "Entry #1" in one_text(await h.press(ANA, "reg:ok", at), ANA)
    finally:
        await h.stop()
