"""One entry per person per category (issue 15, item 8), or across the contest (issue 29): with
``one_entry_per_person``, a person (same name, same birth) is in one entry of a category (or
of the contest), checked across entries in the chat and in the import."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest

from bot.features.registration.day import AlreadyEntered, Registered, Registrations
from bot.features.registration.rules import Member, already_entered, name_key, same_person
from bot.services.contest_file import ContestFileError, load_contest
from bot.services.csvio import ImportError_, import_entries, read_entries
from bot.services.csvio import refuse_people_entered_twice as refuse
from bot.storage.store import Store
from tests.conftest import CASTRILLO
from tests.registration.test_registration_chat import (
    ANA,
    BEA,
    Who,
    madrid,
    open_harness,
    register,
)


def contest_file(tmp_path: Path, on: bool = True) -> Path:
    text = CASTRILLO.read_text(encoding="utf-8")
    if on:
        text = text.replace("[registration]\n", "[registration]\none_entry_per_person = true\n",
                            1)
    path = tmp_path / "one.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_person_is_a_name_without_case_or_accents_and_a_birth() -> None:
    assert name_key("  José   PÉREZ ") == name_key("jose perez")
    jose = Member("José Pérez", born_year=1980)
    assert same_person(jose, Member("jose  perez", born_year=1980))
    assert not same_person(jose, Member("José Pérez", born_year=1981))
    assert not same_person(jose, Member("José Pérez"))  # no birth: cannot be told
    dated = Member("Ana", born=date(1980, 5, 1), born_year=1980)
    assert same_person(dated, Member("ana", born_year=1980))  # a year matches a date in it
    assert not same_person(dated, Member("Ana", born=date(1980, 6, 1), born_year=1980))


def test_already_entered_names_the_member_and_the_entry() -> None:
    ana, bea = Member("Ana", born_year=1980), Member("Bea", born_year=1981)
    assert already_entered([bea, ana], [(7, (Member("ANA", born_year=1980),))]) == (1, 7)
    assert already_entered([ana, Member("ana", born_year=1980)], []) == (1, 0)
    assert already_entered([ana, bea], [(7, (Member("Carl", born_year=1980),))]) is None


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "x.sqlite3")
    yield s
    await s.close()


async def test_the_chat_refuses_a_second_entry_of_the_same_person(tmp_path: Path) -> None:
    h = await open_harness(tmp_path, contest_file(tmp_path))
    try:
        at = madrid(3, 1)
        first = await register(h, ANA, "parejas", [Who("Ana Uno", "1980"), Who("Bea Dos", "1981")],
                                at)
        assert "Entry #1" in first
        again = await register(h, BEA, "parejas", [Who("Cris Tres", "1982"),
                                                   Who("bea dos", "1981")], at)
        assert again == ("Not possible: bea dos is already in entry #1 of this category, and "
                         "this contest allows one entry per person.")
        # another category is another matter
        assert "Entry #2" in await register(h, BEA, "adultos", [Who("Bea Dos", "1981")], at)
        # once entry 1 is withdrawn, its people are free again
        await h.send(ANA, "/baja 1", at)
        await h.press(ANA, "baja:y:1:0", at)
        assert "Entry #3" in await register(h, BEA, "parejas", [Who("Cris Tres", "1982"),
                                                                Who("Bea Dos", "1981")], at)
    finally:
        await h.stop()


async def test_without_the_setting_nothing_is_checked(tmp_path: Path, store: Store) -> None:
    contest = load_contest(contest_file(tmp_path, on=False))
    regs = Registrations(contest, store)
    pair = [Member("Ana", born_year=1980), Member("Bea", born_year=1981)]
    cat = contest.category("parejas")
    assert cat is not None
    for _ in range(2):
        out = await regs.register(1, cat, pair, 0, 0, madrid(3, 1), None)
        assert isinstance(out, Registered)


async def test_the_import_refuses_people_entered_twice(tmp_path: Path, store: Store) -> None:
    contest = load_contest(contest_file(tmp_path))
    regs = Registrations(contest, store)
    head = "number,category,names,born\n"
    await import_entries(store, read_entries(contest, io.StringIO(
        head + "5,parejas,Ana Uno; Bea Dos,1980; 1981\n"), "a.csv"))
    cases = {
        head + "6,parejas,Cris; BEA DOS,1982; 1981\n":
            "b.csv:2: member 2 (BEA DOS) is already in entry #5 of parejas "
            "(registration.one_entry_per_person)",
        head + "6,parejas,Cris; Dani,1982; 1983\n7,parejas,Eva; cris,1984; 1982\n":
            "b.csv:3: member 2 (cris) is already on line 2 of parejas "
            "(registration.one_entry_per_person)",
        head + "6,parejas,Cris; B\u200bea\u200e Dos,1982; 1981\n":  # invisible characters
            "b.csv:2: member 2 (B\u200bea\u200e Dos) is already in entry #5 of parejas "
            "(registration.one_entry_per_person)",
        head + "6,parejas,Cris; cris,1982; 1982\n":
            "b.csv:2: member 2 (cris) is twice in this line of parejas "
            "(registration.one_entry_per_person)",
    }
    for text, message in cases.items():
        rows = read_entries(contest, io.StringIO(text), "b.csv")
        with pytest.raises(ImportError_) as err:
            await refuse(contest, regs, rows)
        assert str(err.value) == message
    fine = read_entries(contest, io.StringIO(head + "6,adultos,Bea Dos,1981\n"), "b.csv")
    await refuse(contest, regs, fine)  # another category
    assert isinstance(await regs.register(1, contest.category("parejas"), [  # type: ignore[arg-type]
        Member("Bea Dos", born_year=1981), Member("Zoe", born_year=1990)], 0, 0,
        madrid(3, 1), None), AlreadyEntered)


# -- issue 29: one entry per person across the whole contest (a series: one team per player) --


def across_file(tmp_path: Path) -> Path:
    text = CASTRILLO.read_text(encoding="utf-8").replace(
        "[registration]\n", '[registration]\none_entry_per_person = "contest"\n', 1)
    path = tmp_path / "across.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def test_across_the_contest_a_person_is_in_one_entry_of_any_category(
        tmp_path: Path) -> None:
    h = await open_harness(tmp_path, across_file(tmp_path))
    try:
        at = madrid(3, 1)
        assert "Entry #1" in await register(h, ANA, "parejas", [Who("Ana Uno", "1980"),
                                                                Who("Bea Dos", "1981")], at)
        again = await register(h, BEA, "adultos", [Who("bea dos", "1981")], at)
        assert again == ("Not possible: bea dos is already in entry #1 (Adultos parejas), and "
                         "this contest allows one entry per person across all its events.")
        assert "Entry #2" in await register(h, BEA, "adultos", [Who("Bea Tres", "1981")], at)
    finally:
        await h.stop()


async def test_across_the_contest_the_import_refuses_another_categorys_person(
        tmp_path: Path, store: Store) -> None:
    contest = load_contest(across_file(tmp_path))
    assert contest.registration.one_entry_scope == "contest"
    regs = Registrations(contest, store)
    head = "number,category,names,born\n"
    await import_entries(store, read_entries(contest, io.StringIO(
        head + "5,parejas,Ana Uno; Bea Dos,1980; 1981\n"), "a.csv"))
    rows = read_entries(contest, io.StringIO(head + "6,adultos,Bea Dos,1981\n"), "b.csv")
    with pytest.raises(ImportError_) as err:
        await refuse(contest, regs, rows)
    assert str(err.value) == ("b.csv:2: member 1 (Bea Dos) is already in entry #5 of the "
                              "contest (registration.one_entry_per_person)")


def test_a_wrong_scope_is_refused(tmp_path: Path) -> None:
    path = across_file(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace('"contest"', '"series"', 1),
                    encoding="utf-8")
    with pytest.raises(ContestFileError) as err:
        load_contest(path)
    assert str(err.value).endswith('registration.one_entry_per_person: must be true, false, '
                                   '"category" or "contest", not \'series\'')
