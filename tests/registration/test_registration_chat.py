"""Registration in the chat (RULES.md section 1), through the real Application: the /inscribir
conversation, /mis_inscripciones, /baja, and the organisers' /pagado, /inscritos, /exportar, the
announcements of changed places and the closing report.

People write in English (``Person(..., "en")``) so the fragments matched here are the msgids.
Where a test needs many entries, most of them go in through ``Registrations.register`` (what the
conversation's last step calls) and only the decisive ones are driven through the chat. The
database is read with the stdlib ``sqlite3`` module (tables entries, members, events).
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook

from bot.features.registration.day import Registered
from bot.features.registration.rules import Member
from bot.handlers.desk import announce_changes, closing_report
from bot.handlers.jobs import registration_job
from tests.conftest import BILLOM, CASTRILLO
from tests.fakebot import Call, Harness, Person, texts

MADRID = ZoneInfo("Europe/Madrid")
PARIS = ZoneInfo("Europe/Paris")

ORGANISER = Person(1, "Olga", "en")
ANA = Person(101, "Ana", "en")
BEA = Person(102, "Bea", "en")
CARL = Person(103, "Carl", "en")
DORA = Person(104, "Dora", "en")
PARENT = Person(300, "Pat", "en")
STRANGER = Person(500, "Sam", "en")

MEMBER = ("aepuzz_member",)
RESIDENT = ("resident",)
BOTH = ("aepuzz_member", "resident")

RELEASE = datetime(2023, 4, 15, 0, 0, tzinfo=MADRID)  # Castrillo's reserved pair places
BILLOM_OPENS = datetime(2012, 1, 23, 0, 0, tzinfo=PARIS)
BILLOM_CLOSES = datetime(2012, 3, 2, 0, 0, tzinfo=PARIS)


def madrid(month: int, day: int, hour: int = 12, minute: int = 0) -> datetime:
    return datetime(2023, month, day, hour, minute, tzinfo=MADRID)


def paris(month: int, day: int, hour: int = 12, minute: int = 0) -> datetime:
    return datetime(2012, month, day, hour, minute, tzinfo=PARIS)


# -- the conversation -------------------------------------------------------------------------


@dataclass(frozen=True)
class Who:
    """One member as typed in the chat: name, birth (a year or a date) and the questions
    answered yes (ids)."""

    name: str
    birth: str
    yes: tuple[str, ...] = ()


def one_text(calls: Sequence[Call], who: Person) -> str:
    sent = [c for c in calls if c.method == "sendMessage" and c.chat_id == who.id]
    assert len(sent) == 1, [c.text for c in sent]
    return sent[0].text


def data_of(h: Harness, calls: list[Call]) -> list[str]:
    return [d for _, d in h.buttons(calls)]


async def start_entry(h: Harness, who: Person, category: str, at: datetime) -> None:
    """/inscribir and the category button: the bot asks for the first name."""
    calls = await h.send(who, "/inscribir", at)
    assert f"reg:cat:{category}" in data_of(h, calls), texts(calls)
    calls = await h.press(who, f"reg:cat:{category}", at)
    assert "Name and surname" in one_text(calls, who)


async def enter_member(h: Harness, who: Person, m: Who, at: datetime) -> list[Call]:
    """Name, birth, then every yes/no question. Returns the calls after the last answer."""
    asked = one_text(await h.send(who, m.name, at), who)
    assert "birth" in asked, asked
    calls = await h.send(who, m.birth, at)
    questions = h.services.contest.questions
    for i, q in enumerate(questions):
        assert f"reg:q:{i}:y" in data_of(h, calls), texts(calls)
        calls = await h.press(who, f"reg:q:{i}:{'y' if q.id in m.yes else 'n'}", at)
    return calls


async def to_summary(h: Harness, who: Person, category: str, members: Sequence[Who],
                     at: datetime, meal: tuple[int, int] = (0, 0)) -> str:
    """Drive the conversation up to the summary with its Confirm button; returns the summary.
    The meal is asked once per person: "No meal" in one tap for (0, 0); where it was asked
    with an earlier entry, ``meal`` is added from the summary ("Add people to the meal")."""
    await start_entry(h, who, category, at)
    calls: list[Call] = []
    for m in members:
        calls = await enter_member(h, who, m, at)
    if h.services.contest.meal is not None:
        if "reg:meal:add" in data_of(h, calls) and meal != (0, 0):
            calls = await h.press(who, "reg:meal:add", at)
        if "reg:ma:0" in data_of(h, calls) and meal == (0, 0):
            calls = await h.press(who, "reg:meal:no", at)
        elif "reg:ma:0" in data_of(h, calls):
            calls = await h.press(who, f"reg:ma:{meal[0]}", at)
            assert "reg:mc:0" in data_of(h, calls), texts(calls)
            calls = await h.press(who, f"reg:mc:{meal[1]}", at)
    assert "reg:ok" in data_of(h, calls), texts(calls)
    return one_text(calls, who)


async def register(h: Harness, who: Person, category: str, members: Sequence[Who],
                   at: datetime, meal: tuple[int, int] = (0, 0)) -> str:
    """The whole /inscribir conversation for one entry; returns the bot's final reply."""
    await to_summary(h, who, category, members, at, meal)
    return one_text(await h.press(who, "reg:ok", at), who)


# -- direct registrations and the database ----------------------------------------------------


async def add_direct(h: Harness, user_id: int, category: str, members: Sequence[Member],
                     at: datetime) -> int:
    """An entry registered the way the conversation's last step does it (no chat)."""
    cat = h.services.contest.category(category)
    out = await h.app.bot_data["registrations"].register(user_id, cat, members, 0, 0, at, None)
    assert out.ok, out
    assert isinstance(out, Registered), out
    return out.number


async def pay_direct(h: Harness, number: int, paid_at: datetime, recorded: datetime) -> None:
    out = await h.app.bot_data["registrations"].pay(ORGANISER.id, number, paid_at, recorded,
                                                    None)
    assert out.ok, out


def adult(name: str, year: int = 1980, answers: Sequence[str] = ()) -> Member:
    return Member(name, born_year=year, answers=frozenset(answers))


def grown(name: str, born: str = "1980-01-01") -> Member:
    d = datetime.strptime(born, "%Y-%m-%d").date()
    return Member(name, born=d, born_year=d.year)


def rows(h: Harness, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(h.db_path)) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute(sql, params).fetchall()


def entry_rows(h: Harness) -> list[sqlite3.Row]:
    return rows(h, "SELECT * FROM entries ORDER BY number")


def member_rows(h: Harness, number: int) -> list[sqlite3.Row]:
    return rows(h, "SELECT * FROM members WHERE entry = ? ORDER BY position", (number,))


def event_kinds(h: Harness) -> list[str]:
    return [r["kind"] for r in rows(h, "SELECT kind FROM events ORDER BY id")]


def all_events(h: Harness) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(h.db_path)) as conn:
        return conn.execute("SELECT * FROM events ORDER BY id").fetchall()


async def open_harness(tmp_path: Path, contest_file: Path) -> Harness:
    return await Harness(tmp_path, contest_file, organisers=frozenset({ORGANISER.id})).start()


@pytest.fixture
async def castrillo_bot(tmp_path):
    h = await open_harness(tmp_path, CASTRILLO)
    await h.send(ORGANISER, "/start", madrid(2, 1))
    yield h
    await h.stop()


@pytest.fixture
async def billom_bot(tmp_path):
    h = await open_harness(tmp_path, BILLOM)
    await h.send(ORGANISER, "/start", paris(1, 23))
    yield h
    await h.stop()


async def mine(h: Harness, who: Person, at: datetime) -> str:
    return one_text(await h.send(who, "/mis_inscripciones", at), who)


def line_of(listing: str, number: int) -> str:
    found = [ln for ln in listing.splitlines() if ln.startswith(f"#{number} ")]
    assert len(found) == 1, listing
    return found[0]


# -- 1. eligibility ---------------------------------------------------------------------------


async def test_infantil_b_child_born_2012_is_refused_then_2015_accepted(castrillo_bot):
    h = castrillo_bot
    at = madrid(3, 1)
    await start_entry(h, ANA, "infantil-b", at)
    assert "birth" in one_text(await h.send(ANA, "Nico Pérez", at), ANA)
    refused = one_text(await h.send(ANA, "2012", at), ANA)
    assert "born 2012" in refused and "2014-2016" in refused
    assert "Write the correct birth" in refused
    calls = await h.send(ANA, "2015", at)
    assert data_of(h, calls) == ["reg:q:0:y", "reg:q:0:n"]
    await h.press(ANA, "reg:q:0:n", at)
    await h.press(ANA, "reg:q:1:n", at)
    await h.press(ANA, "reg:ma:0", at)
    summary = one_text(await h.press(ANA, "reg:mc:0", at), ANA)
    assert "Nico Pérez (2015)" in summary and "Total: 10 €" in summary
    final = one_text(await h.press(ANA, "reg:ok", at), ANA)
    assert "Entry #1: your place is confirmed." in final
    [entry] = entry_rows(h)
    assert (entry["category"], entry["source"], entry["registered_by"]) == (
        "infantil-b", "chat", ANA.id)
    [member] = member_rows(h, 1)
    assert (member["name"], member["born_year"]) == ("Nico Pérez", 2015)


async def test_a_name_with_the_members_separator_is_refused_and_control_characters_cleaned(
        castrillo_bot):
    """Issue 14: "Ana; Bea" as one member's name would come back as two members from the
    organisers' file (export, then import). It is refused with the reason, and the name asked
    again; a name with control characters is stored cleaned."""
    h = castrillo_bot
    at = madrid(3, 1)
    await start_entry(h, ANA, "infantil-b", at)
    refused = one_text(await h.send(ANA, "Nico; Pérez", at), ANA)
    assert 'cannot contain ";"' in refused and "Please write the name without it" in refused
    assert "birth" in one_text(await h.send(ANA, "Nico\x07 Pérez\x00", at), ANA)
    calls = await h.send(ANA, "2015", at)
    assert data_of(h, calls) == ["reg:q:0:y", "reg:q:0:n"]
    await h.press(ANA, "reg:q:0:n", at)
    await h.press(ANA, "reg:q:1:n", at)
    await h.press(ANA, "reg:ma:0", at)
    await h.press(ANA, "reg:mc:0", at)
    assert "Entry #1" in one_text(await h.press(ANA, "reg:ok", at), ANA)
    [member] = member_rows(h, 1)
    assert member["name"] == "Nico Pérez"


async def test_castrillo_pair_of_two_children_refuses_the_second(castrillo_bot):
    h = castrillo_bot
    at = madrid(3, 1)
    await start_entry(h, ANA, "parejas", at)
    calls = await enter_member(h, ANA, Who("Kid One", "2015"), at)
    assert "member 2 of 2" in one_text(calls, ANA)
    await h.send(ANA, "Kid Two", at)
    refused = one_text(await h.send(ANA, "2016", at), ANA)
    assert "born 2016" in refused and "born 2010 or earlier" in refused
    # an adult as second member is fine
    calls = await h.send(ANA, "1985", at)
    assert "reg:q:0:y" in data_of(h, calls)
    assert entry_rows(h) == []


async def test_billom_mixte_refuses_a_15_year_old(billom_bot):
    h = billom_bot
    at = paris(2, 1)
    await start_entry(h, ANA, "mixte", at)
    asked = one_text(await h.send(ANA, "Teen", at), ANA)
    assert "Date of birth" in asked
    refused = one_text(await h.send(ANA, "1996-06-21", at), ANA)
    assert "aged 15 on the contest day" in refused
    assert "under 12 on the contest day" in refused and "aged 18 or more" in refused
    # the same teenager after an adult: only the child's place is left
    await h.send(ANA, "/inscribir", at)
    await h.press(ANA, "reg:cat:mixte", at)
    await h.send(ANA, "Parent", at)
    assert "member 2 of 2" in one_text(await h.send(ANA, "1970-01-01", at), ANA)
    await h.send(ANA, "Teen", at)
    refused = one_text(await h.send(ANA, "21/06/1996", at), ANA)
    assert "aged 15 on the contest day" in refused and "under 12 on the contest day" in refused
    assert "aged 18" not in refused
    # the adult must be 18 on the contest day
    await h.send(ANA, "/inscribir", at)
    await h.press(ANA, "reg:cat:mixte", at)
    await h.send(ANA, "Almost", at)
    refused = one_text(await h.send(ANA, "1994-03-11", at), ANA)
    assert "aged 17 on the contest day" in refused
    assert "member 2 of 2" in one_text(await h.send(ANA, "1994-03-10", at), ANA)
    assert entry_rows(h) == []


async def test_billom_junior_age_is_taken_on_the_contest_day(billom_bot):
    h = billom_bot
    at = paris(2, 1)
    await start_entry(h, ANA, "junior", at)
    await h.send(ANA, "Léa", at)
    refused = one_text(await h.send(ANA, "2000-03-10", at), ANA)  # 12 on 10 March 2012
    assert "aged 12 on the contest day" in refused and "under 12" in refused
    # a year alone is not enough where ages count
    assert "2004-06-21" in one_text(await h.send(ANA, "2000", at), ANA)
    accepted = one_text(await h.send(ANA, "2000-03-11", at), ANA)  # still 11
    assert "member 2 of 2" in accepted
    await h.send(ANA, "Tom", at)
    summary = one_text(await h.send(ANA, "2002-05-05", at), ANA)
    assert "Léa (March 11, 2000)" in summary and "Total: 10 €" in summary
    final = one_text(await h.press(ANA, "reg:ok", at), ANA)
    assert "pending payment" in final
    assert [(m["name"], m["born"]) for m in member_rows(h, 1)] == [
        ("Léa", "2000-03-11"), ("Tom", "2002-05-05")]


@pytest.mark.parametrize(
    ("category", "refused", "needs", "accepted"),
    [("infantil-a", "2016", "born 2017-2019", "2017"),
     ("infantil-c", "2014", "born 2011-2013", "2011"),
     ("adultos", "2011", "born 2010 or earlier", "2010")],
)
async def test_castrillo_birth_year_limits(castrillo_bot, category, refused, needs, accepted):
    h = castrillo_bot
    at = madrid(3, 1)
    await start_entry(h, ANA, category, at)
    await h.send(ANA, "Someone", at)
    text = one_text(await h.send(ANA, refused, at), ANA)
    assert f"born {refused}" in text and needs in text
    assert "write the year with 4 digits" in one_text(await h.send(ANA, "15", at), ANA)
    assert "reg:q:0:y" in data_of(h, await h.send(ANA, accepted, at))


# -- 2. fees ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("category", "members", "meal", "summary_has", "total"),
    [
        pytest.param("parejas", [Who("Ana", "1980", MEMBER), Who("Bea", "1982", RESIDENT)],
                     (0, 0), ["Entry fee: 20 €", "Discounts: -10 € (2 members)"], "10 €",
                     id="pair-local-plus-member"),
        pytest.param("parejas", [Who("Ana", "1980", BOTH), Who("Bea", "1982")], (0, 0),
                     ["Entry fee: 20 €", "Discounts: -5 € (1 member)"], "15 €",
                     id="pair-one-member-both"),
        pytest.param("adultos", [Who("Ana", "1980")], (0, 0), ["Entry fee: 15 €"], "15 €",
                     id="adult"),
        pytest.param("adultos", [Who("Ana", "1980", MEMBER)], (0, 0),
                     ["Discounts: -5 € (1 member)"], "10 €", id="adult-member"),
        pytest.param("adultos", [Who("Ana", "1980")], (2, 1),
                     ["Meal: 2 adults, 1 child: 34 €"], "49 €", id="adult-meal"),
    ],
)
async def test_castrillo_fees_in_the_summary_and_in_my_entries(castrillo_bot, category,
                                                               members, meal, summary_has,
                                                               total):
    h = castrillo_bot
    at = madrid(3, 1)
    summary = await to_summary(h, ANA, category, members, at, meal)
    for fragment in summary_has:
        assert fragment in summary, summary
    assert f"Total: {total}" in summary
    assert "confirmed" in one_text(await h.press(ANA, "reg:ok", at), ANA)
    assert line_of(await mine(h, ANA, at), 1).endswith(f"- {total} (not paid)")
    [entry] = entry_rows(h)
    assert (entry["meal_adults"], entry["meal_children"]) == meal
    assert [m["answers"] for m in member_rows(h, 1)] == [
        ",".join(sorted(m.yes)) for m in members]


async def test_billom_category_fees(billom_bot):
    h = billom_bot
    at = paris(2, 1)
    labels = [t for t, d in h.buttons(await h.send(ANA, "/inscribir", at))]
    # who may enter is on the button, before anyone types a name or a birth (issue 26)
    assert labels == ["Junior · under 12 · 10 €", "Mixte · under 12 + 18 and over · 12 €",
                      "Adulte · 12 and over · 14 €", "Expert · 12 and over · 16 €"]
    await h.send(ANA, "/cancelar", at)
    teams = {
        "junior": ([Who("Léa", "2001-01-01"), Who("Tom", "2002-02-02")], "10 €"),
        "mixte": ([Who("Zoé", "2003-03-03"), Who("Marc", "1970-01-01")], "12 €"),
        "adulte": ([Who("Anne", "1980-01-01"), Who("Paul", "1999-03-10")], "14 €"),
        "expert": ([Who("Inès", "1960-01-01"), Who("Jules", "1961-01-01")], "16 €"),
    }
    for category, (members, amount) in teams.items():
        summary = await to_summary(h, ANA, category, members, at)
        assert f"Total: {amount}" in summary and "Meal" not in summary
        assert "pending payment" in one_text(await h.press(ANA, "reg:ok", at), ANA)
    listing = await mine(h, ANA, at)
    for number, (_, amount) in enumerate(teams.values(), 1):
        assert line_of(listing, number).endswith(f"pending payment - {amount} (not paid)")


# -- 3. Castrillo pairs: 10 places kept for local pairs until 15 April ------------------------


async def fill_non_local_pairs(h: Harness, count: int, start: datetime) -> list[int]:
    numbers = []
    for i in range(count):
        numbers.append(await add_direct(
            h, 10_000 + i, "parejas", [adult(f"A{i}"), adult(f"B{i}")],
            start + timedelta(minutes=i)))
    return numbers


async def test_castrillo_pairs_reserved_local_places(castrillo_bot):
    h = castrillo_bot
    numbers = await fill_non_local_pairs(h, 39, madrid(3, 1))
    # the 40th non-local pair, through the chat, still gets a place
    final = await register(h, ANA, "parejas", [Who("Ana", "1980"), Who("Abel", "1981")],
                           madrid(3, 10))
    assert "Entry #40: your place is confirmed." in final
    # the 41st non-local pair waits, first in line
    final = await register(h, BEA, "parejas", [Who("Bea", "1980"), Who("Berto", "1981")],
                           madrid(3, 11))
    assert "Entry #41: no place is free; you are number 1 on the waiting list" in final
    assert "waiting list, number 1" in line_of(await mine(h, BEA, madrid(3, 11)), 41)
    # a local pair registering afterwards still has one of the reserved places
    final = await register(h, CARL, "parejas", [Who("Carl", "1980"), Who("Cris", "1990",
                                                                           RESIDENT)],
                           madrid(3, 12))
    assert "Entry #42: your place is confirmed." in final
    [local] = rows(h, "SELECT local FROM entries WHERE number = 42")
    assert local["local"] == 1
    places = await h.app.bot_data["registrations"].places(madrid(3, 12))
    assert all(places[n].status.value == "confirmed" for n in numbers)
    # the organiser's view before the release: 41 taken, 9 free, all 9 kept for local pairs
    listing = one_text(await h.send(ORGANISER, "/inscritos parejas", madrid(3, 13)), ORGANISER)
    assert "41 confirmed, 9 free (9 of them only for local entries)" in listing
    assert "  1. #41 Bea / Berto" in listing
    # a non-local pair one second before the release waits too
    final = await register(h, DORA, "parejas", [Who("Dora", "1980"), Who("Dani", "1981")],
                           RELEASE - timedelta(seconds=1))
    assert "Entry #43: no place is free; you are number 2 on the waiting list" in final
    # at the release the waiting pairs get places, and are told once
    await announce_changes(h.app, RELEASE)
    await h.app.bot_data["sender"].settled()
    told = [c for c in h.request.calls[-2:] if c.method == "sendMessage"]
    assert [c.chat_id for c in told] == [BEA.id, DORA.id]
    assert all("a place freed up" in c.text for c in told)
    before = len(h.request.calls)
    await announce_changes(h.app, RELEASE + timedelta(minutes=1))
    await h.app.bot_data["sender"].settled()
    assert h.request.calls[before:] == []
    # after the release a non-local pair is confirmed while places remain
    final = await register(h, STRANGER, "parejas", [Who("Sam", "1980"), Who("Sol", "1981")],
                           RELEASE)
    assert "Entry #44: your place is confirmed." in final
    listing = one_text(await h.send(ORGANISER, "/inscritos parejas", RELEASE + timedelta(
        hours=1)), ORGANISER)
    assert "44 confirmed, 6 free" in listing and "only for local" not in listing


# -- 4. the waiting list moves up when someone withdraws ---------------------------------------


async def withdraw(h: Harness, who: Person, at: datetime, number: int | None = None) -> str:
    """/baja (N), then the "Yes, withdraw" button; returns the reply to the button."""
    calls = await h.send(who, "/baja" if number is None else f"/baja {number}", at)
    yes = [d for d in data_of(h, calls) if d.startswith("baja:y:")]
    assert len(yes) == 1, texts(calls)
    assert "This can't be undone" in one_text(calls, who)
    # the button sits on the bot's question, which Telegram dates when /baja was answered
    return one_text(await h.press(who, yes[0], at), who)


async def test_withdrawal_promotes_the_first_waiting_entry_and_tells_it_once(tmp_path):
    h = await open_harness(tmp_path, CASTRILLO)
    try:
        for i in range(9):
            await add_direct(h, 20_000 + i, "infantil-a", [adult(f"Kid{i}", 2018)],
                             madrid(3, 1, 10, i))
        final = await register(h, CARL, "infantil-a", [Who("Carla", "2017")], madrid(3, 2))
        assert "Entry #10: your place is confirmed." in final
        final = await register(h, BEA, "infantil-a", [Who("Berta", "2019")], madrid(3, 3))
        assert "Entry #11: no place is free; you are number 1 on the waiting list" in final
        assert "waiting list, number 1" in line_of(await mine(h, BEA, madrid(3, 3)), 11)

        calls = await h.send(CARL, "/baja", madrid(3, 20))
        assert "Withdraw entry #10 (Carla)?" in one_text(calls, CARL)
        yes = [d for d in data_of(h, calls) if d.startswith("baja:y:10:")]
        calls = await h.press(CARL, yes[0], madrid(3, 20))
        reply = one_text(calls, CARL)
        assert "Entry #10 is withdrawn." in reply and "not refunded" not in reply
        news = one_text(calls, BEA)
        assert "a place freed up" in news and "#11" in news
        assert "confirmed" in line_of(await mine(h, BEA, madrid(3, 21)), 11)
        assert "withdrawn" in line_of(await mine(h, CARL, madrid(3, 21)), 10)
        [withdrawal] = rows(h, "SELECT entry, actor FROM events WHERE kind = 'withdraw'")
        assert (withdrawal["entry"], withdrawal["actor"]) == (10, CARL.id)

        # announced once: again later, or after a restart, nothing more is sent
        before = len(h.request.calls)
        await announce_changes(h.app, madrid(3, 22))
        await h.app.bot_data["sender"].settled()
        assert h.request.calls[before:] == []
        # the old button pressed again does not withdraw twice nor announce again
        again = one_text(await h.press(CARL, yes[0], madrid(3, 22)), CARL)
        assert "already withdrawn" in again
        await h.stop()
        h = await open_harness(tmp_path, CASTRILLO)
        await announce_changes(h.app, madrid(3, 23))
        await h.app.bot_data["sender"].settled()
        assert texts(h.request.calls) == []
        assert "confirmed" in line_of(await mine(h, BEA, madrid(3, 23)), 11)
        notices = rows(h, "SELECT ref FROM events WHERE kind = 'status_notice' AND entry = 11")
        assert [r["ref"] for r in notices] == ["11:waiting:1", "11:confirmed"]
    finally:
        await h.stop()


# -- 5. Billom: the registration window, payments, 30 places by payment date -------------------


TEAM = [Who("Anne", "1980-01-01"), Who("Bruno", "1982-02-02")]


async def test_billom_registration_window(billom_bot):
    h = billom_bot
    early = one_text(await h.send(ANA, "/inscribir", BILLOM_OPENS - timedelta(minutes=1)), ANA)
    assert "Registrations open on January 23, 2012 at 00:00" in early
    assert "reg:cat:adulte" in data_of(h, await h.send(ANA, "/inscribir", BILLOM_OPENS))
    await h.send(ANA, "/cancelar", BILLOM_OPENS)
    # the last minute of 1 March is still open
    final = await register(h, ANA, "adulte", TEAM, BILLOM_CLOSES - timedelta(minutes=1))
    assert "Entry #1: registered, pending payment" in final
    # a conversation begun before the closing but confirmed after it records nothing
    await to_summary(h, BEA, "adulte", TEAM, BILLOM_CLOSES - timedelta(minutes=5))
    refused = one_text(await h.press(BEA, "reg:ok", BILLOM_CLOSES + timedelta(minutes=1)), BEA)
    assert "Registrations are closed" in refused
    late = one_text(await h.send(ANA, "/inscribir", BILLOM_CLOSES), ANA)
    assert "Registrations are closed (since March 2, 2012 at 00:00)" in late
    assert h.buttons(await h.send(ANA, "adulte", BILLOM_CLOSES)) == []
    assert [e["number"] for e in entry_rows(h)] == [1]


async def test_a_summary_kept_open_cannot_register_after_the_closing(billom_bot):
    """Issue 14: the summary's buttons are shown before the closing (their message is dated
    then) and pressed after it. Telegram had delivered a message of hers dated after the closing
    before the press arrived: the press is no earlier than that, so registration is closed."""
    h = billom_bot
    await to_summary(h, BEA, "adulte", TEAM, BILLOM_CLOSES - timedelta(minutes=5))
    await h.send(BEA, "/ayuda", BILLOM_CLOSES + timedelta(minutes=1))
    refused = one_text(await h.press(BEA, "reg:ok", BILLOM_CLOSES - timedelta(minutes=5)), BEA)
    assert "Registrations are closed" in refused
    assert entry_rows(h) == []


async def test_billom_team_is_pending_until_an_organiser_records_the_payment(billom_bot):
    h = billom_bot
    final = await register(h, ANA, "adulte", TEAM, paris(1, 25))
    assert "Entry #1: registered, pending payment." in final
    assert "partner" in final and "?start=" in final
    assert "pending payment - 14 € (not paid)" in line_of(await mine(h, ANA, paris(1, 26)), 1)
    # a participant can't record a payment
    before = all_events(h)
    refused = one_text(await h.send(ANA, "/pagado 1", paris(1, 26)), ANA)
    assert "This command is for organisers." in refused
    assert all_events(h) == before
    calls = await h.send(ORGANISER, "/pagado 1", paris(2, 10))
    recorded = one_text(calls, ORGANISER)
    assert "Payment of entry #1 recorded on February 10, 2012." in recorded
    assert "Entry #1: your place is confirmed." in recorded
    assert "confirmed - 14 € (paid)" in line_of(await mine(h, ANA, paris(2, 11)), 1)
    [payment] = rows(h, "SELECT entry, actor, value FROM events WHERE kind = 'payment'")
    assert (payment["entry"], payment["actor"]) == (1, ORGANISER.id)
    assert payment["value"] == int(paris(2, 10).timestamp())


async def test_billom_team_is_told_its_payment_confirmed_the_place(billom_bot):
    h = billom_bot
    await register(h, ANA, "adulte", TEAM, paris(1, 25))
    calls = await h.send(ORGANISER, "/pagado 1", paris(2, 10))
    told = one_text(calls, ANA)
    assert "#1" in told and "confirmed" in told
    assert "freed up" not in told


async def test_billom_places_go_by_payment_date_then_registration_date(billom_bot):
    h = billom_bot
    o = ORGANISER
    # 29 teams paid on 10 February
    for i in range(29):
        n = await add_direct(h, 30_000 + i, "adulte", [grown(f"A{i}"), grown(f"B{i}")],
                             paris(1, 24, 10, i))
        await pay_direct(h, n, paris(2, 10, 0), paris(2, 10, 18))
    # the 30th paying team, through the chat
    await register(h, ANA, "adulte", TEAM, paris(1, 25))
    assert "your place is confirmed" in one_text(
        await h.send(o, "/pagado 30 2012-02-10", paris(2, 11)), o)
    # Bea registered before everyone but paid on the 15th: no place left, first in line
    await register(h, BEA, "expert", [Who("Bea", "1970-01-01"), Who("Ben", "1971-01-01")],
                   paris(1, 23, 9))
    recorded = one_text(await h.send(o, "/pagado 31 2012-02-15", paris(2, 16)), o)
    assert "Payment of entry #31 recorded on February 15, 2012." in recorded
    assert "you are number 1 on the waiting list" in recorded
    assert "waiting list, number 1 - 16 € (paid)" in line_of(await mine(h, BEA, paris(2, 16)),
                                                             31)
    # Carl paid the same day but registered even earlier, recorded a day later: ahead of Bea
    await register(h, CARL, "junior", [Who("Cléo", "2002-01-01"), Who("Cyril", "2003-01-01")],
                   paris(1, 23, 8))
    recorded = one_text(await h.send(o, "/pagado 32 2012-02-15", paris(2, 17)), o)
    assert "you are number 1 on the waiting list" in recorded
    assert "waiting list, number 2" in line_of(await mine(h, BEA, paris(2, 17)), 31)
    # Dora paid on the 5th, recorded on the 20th: she takes precedence over the 10 February
    # payers; the last of them by registration date (Ana, #30) loses the place and is told
    await register(h, DORA, "mixte", [Who("Dora", "1970-01-01"), Who("Dan", "2003-01-01")],
                   paris(1, 31))
    calls = await h.send(o, "/pagado 33 2012-02-05", paris(2, 20))
    assert "Entry #33: your place is confirmed." in one_text(calls, o)
    bumped = one_text(calls, ANA)
    assert "Entry #30" in bumped and "number 1 on the waiting list" in bumped
    assert "waiting list, number 1" in line_of(await mine(h, ANA, paris(2, 20)), 30)
    assert "waiting list, number 2" in line_of(await mine(h, CARL, paris(2, 20)), 32)
    assert "waiting list, number 3" in line_of(await mine(h, BEA, paris(2, 20)), 31)
    overview = one_text(await h.send(o, "/inscritos", paris(2, 21)), o)
    assert "All categories: 30 of 30 places taken." in overview

    # closing: the teams left out are told, and the organiser gets the list, once
    await announce_changes(h.app, BILLOM_CLOSES)
    await h.app.bot_data["sender"].settled()
    for who, number in ((ANA, 30), (BEA, 31), (CARL, 32)):
        [text] = h.sent(who.id)[-1:]
        assert f"Entry #{number}: no place is left; you are owed a refund" in text
        assert "no place: refund due" in line_of(await mine(h, who, BILLOM_CLOSES), number)
    before = len(h.request.calls)
    await closing_report(h.app, BILLOM_CLOSES)
    await h.app.bot_data["sender"].settled()
    report = texts(h.request.calls[before:])
    assert [c.chat_id for c in h.request.calls[before:]] == [o.id]
    lines = report[0].splitlines()
    assert "left without a place" in lines[0]
    assert lines[1:] == ["#30 Anne / Bruno: 14 €", "#31 Bea / Ben: 16 €",
                         "#32 Cléo / Cyril: 10 €"]
    before = len(h.request.calls)
    await closing_report(h.app, BILLOM_CLOSES + timedelta(minutes=1))
    await h.app.bot_data["sender"].settled()
    await announce_changes(h.app, BILLOM_CLOSES + timedelta(minutes=1))
    await h.app.bot_data["sender"].settled()
    assert h.request.calls[before:] == []
    await h.stop()
    h2 = await open_harness(h.tmp_path, BILLOM)
    try:
        await closing_report(h2.app, BILLOM_CLOSES + timedelta(hours=1))
        await h2.app.bot_data["sender"].settled()
        await announce_changes(h2.app, BILLOM_CLOSES + timedelta(hours=1))
        assert texts(h2.request.calls) == []
    finally:
        await h2.stop()


async def test_closing_job_tells_left_out_teams_and_reports_once(tmp_path):
    h = await open_harness(tmp_path, BILLOM)
    try:
        await h.send(ORGANISER, "/start", paris(1, 23))
        for i in range(30):
            n = await add_direct(h, 30_000 + i, "expert", [grown(f"A{i}"), grown(f"B{i}")],
                                 paris(1, 24, 10, i))
            await pay_direct(h, n, paris(2, 1), paris(2, 1))
        await register(h, ANA, "adulte", TEAM, paris(1, 25))
        await h.send(ORGANISER, "/pagado 31", paris(2, 20))
        job = SimpleNamespace(data={"name": "closing", "when": BILLOM_CLOSES.timestamp()})
        context = SimpleNamespace(job=job, application=h.app)
        before = len(h.request.calls)
        await registration_job(context)  # type: ignore[arg-type]
        await h.app.bot_data["sender"].settled()
        sent = [c for c in h.request.calls[before:] if c.method == "sendMessage"]
        assert [c.chat_id for c in sent] == [ANA.id, ORGANISER.id]
        assert "no place is left; you are owed a refund" in sent[0].text
        assert sent[1].text.splitlines()[1:] == ["#31 Anne / Bruno: 14 €"]
        [closing] = rows(h, "SELECT at FROM events WHERE kind = 'closing_report'")
        assert closing["at"] == int(BILLOM_CLOSES.timestamp())
        await h.stop()
        h = await open_harness(tmp_path, BILLOM)
        # the job runs again after a restart (rescheduled from the database): nothing new
        await registration_job(SimpleNamespace(job=job, application=h.app))  # type: ignore
        await h.app.bot_data["sender"].settled()
        assert texts(h.request.calls) == []
    finally:
        await h.stop()


# -- 5b. Billom's shared waiting list: every move told once, and why a place was lost ----------

PIERRE = Person(201, "Pierre", "fr")
BEGO = Person(202, "Begoña", "es")
CLAIRE = Person(203, "Claire", "fr")
DOLORES = Person(204, "Dolores", "es")


def sent_to(calls: Sequence[Call], who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


def outbox_texts(h: Harness, who: Person) -> list[str]:
    """What the outbox holds for ``who``'s chat, sent or not (the texts of its rows)."""
    return [json.loads(r["params"]).get("text", "") for r in rows(
        h, "SELECT params FROM outbox WHERE chat_id = ? ORDER BY id", (who.id,))]


async def shared_line(h: Harness) -> None:
    """Billom with 30 shared places: 29 expert teams (the last one Ana's) paid on 1 February,
    Pierre's adult team (#30) on the 10th: every place is taken. Then Begoña's expert team (#31,
    paid on the 12th) and Claire's junior team (#32, on the 14th) wait, 1st and 2nd; Dolores's
    team (#33, expert) is registered, unpaid. Everyone has been told their place."""
    for i in range(28):
        n = await add_direct(h, 30_000 + i, "expert", [grown(f"A{i}"), grown(f"B{i}")],
                             paris(1, 24, 10, i))
        await pay_direct(h, n, paris(2, 1), paris(2, 1))
    n = await add_direct(h, ANA.id, "expert", [grown("Ana"), grown("Abel")], paris(1, 24, 11))
    await pay_direct(h, n, paris(2, 1), paris(2, 1))
    teams = [(PIERRE, "adulte", [grown("Pierre"), grown("Paul")], paris(2, 10)),
             (BEGO, "expert", [grown("Begoña"), grown("Blas")], paris(2, 12)),
             (CLAIRE, "junior", [grown("Chloé", "2002-01-01"), grown("Cyril", "2003-01-01")],
              paris(2, 14))]
    for who, category, members, paid in teams:
        n = await add_direct(h, who.id, category, members, paris(1, 25))
        await pay_direct(h, n, paid, paid)
    assert await add_direct(h, DOLORES.id, "expert", [grown("Dolores"), grown("Dario")],
                            paris(1, 31)) == 33
    for who in (ANA, PIERRE, BEGO, CLAIRE, DOLORES):
        await h.send(who, "/mis_inscripciones", paris(2, 15))  # the bot knows their language
    await announce_changes(h.app, paris(2, 15))
    await h.app.bot_data["sender"].settled()
    places = await h.app.bot_data["registrations"].places(paris(2, 15))
    assert [places[n].waiting_position for n in (30, 31, 32)] == [None, 1, 2]


async def test_a_late_recorded_payment_tells_the_team_it_displaced_why(billom_bot):
    h = billom_bot
    await shared_line(h)
    # Dolores paid on the 5th, recorded on the 20th: her payment comes before Pierre's (the
    # 10th), so Pierre's team loses the last place and goes first in line
    calls = await h.send(ORGANISER, "/pagado 33 2012-02-05", paris(2, 20))
    answer = one_text(calls, ORGANISER)
    assert answer.splitlines() == [
        "Payment of entry #33 recorded on February 5, 2012.",
        "Entry #33: your place is confirmed.",
        "Entry #30 (Pierre / Paul) loses its place to this payment: it is now number 1 on the "
        "waiting list. Its people are told."]
    # Pierre, in French: why, and his place now, in one message
    [lost] = sent_to(calls, PIERRE)
    assert lost.splitlines()[0] == ("L'inscription #30 a perdu sa place : le paiement de "
                                    "l'inscription #33, daté du 5 février 2012, est passé avant.")
    assert "vous êtes numéro 1 sur la liste d'attente" in lost.splitlines()[1]
    # the two behind him move down one place each, told once, in their language
    assert sent_to(calls, BEGO) == [
        "Inscripción #31: ahora eres el número 2 de la lista de espera (eras el número 1). "
        "Te avisaré si queda libre una plaza."]
    assert sent_to(calls, CLAIRE) == [
        "Inscription #32 : vous êtes maintenant numéro 3 sur la liste d'attente (vous étiez "
        "numéro 2). Je vous préviendrai si une place se libère."]
    assert len(sent_to(calls, DOLORES)) == 1 and "#33" in sent_to(calls, DOLORES)[0]
    assert sent_to(calls, ANA) == []  # her place did not change
    # each went through the outbox (written with the payment, then sent)
    assert outbox_texts(h, PIERRE)[-1] == lost
    assert outbox_texts(h, BEGO)[-1] == sent_to(calls, BEGO)[0]
    assert rows(h, "SELECT COUNT(*) AS n FROM outbox WHERE done_at IS NULL")[0]["n"] == 0
    notices = rows(h, "SELECT ref FROM events WHERE kind = 'status_notice' AND entry = 30")
    assert [r["ref"] for r in notices][-2:] == ["30:confirmed", "30:waiting:1"]


async def test_moves_on_the_shared_waiting_list_are_told_once(billom_bot):
    h = billom_bot
    await shared_line(h)
    await h.send(ORGANISER, "/pagado 33 2012-02-05", paris(2, 20))
    # Ana's team withdraws: Pierre's team gets the place; the others move up one each
    before = len(h.request.calls)
    assert "Entry #29 is withdrawn." in await withdraw(h, ANA, paris(2, 21))
    calls = h.request.calls[before:]
    [news] = sent_to(calls, PIERRE)
    assert "#30" in news and "confirmée" in news
    assert sent_to(calls, BEGO) == [
        "Inscripción #31: ahora eres el número 1 de la lista de espera (eras el número 2). "
        "Te avisaré si queda libre una plaza."]
    assert len(sent_to(calls, CLAIRE)) == 1
    assert "maintenant numéro 2" in sent_to(calls, CLAIRE)[0]
    assert sent_to(calls, DOLORES) == []
    # nothing more to tell: again later, or after a restart
    before = len(h.request.calls)
    await announce_changes(h.app, paris(2, 22))
    await h.app.bot_data["sender"].settled()
    assert h.request.calls[before:] == []
    await h.stop()
    h2 = await open_harness(h.tmp_path, BILLOM)
    try:
        await announce_changes(h2.app, paris(2, 23))
        await h2.app.bot_data["sender"].settled()
        assert texts(h2.request.calls) == []
    finally:
        await h2.stop()


async def test_a_waiting_list_shared_by_every_category_is_listed_once_in_its_order(billom_bot):
    h = billom_bot
    await shared_line(h)
    await h.send(ORGANISER, "/pagado 33 2012-02-05", paris(2, 20))
    listing = one_text(await h.send(ORGANISER, "/inscritos", paris(2, 21)), ORGANISER)
    lines = listing.splitlines()
    assert lines[0] == "All categories: 30 of 30 places taken."
    # each category's own places under it, nothing of the waiting list in between
    assert [ln.split(":")[0] for ln in lines[1:5]] == ["Junior", "Mixte", "Adulte", "Expert"]
    assert lines[1:5] == ["Junior: 0 confirmed", "Mixte: 0 confirmed", "Adulte: 0 confirmed",
                          "Expert: 30 confirmed"]
    # then the one waiting list, in its order (Adulte, Expert, Junior: not the categories')
    assert lines[5:] == ["Waiting list (all categories):",
                         "  1. #30 Pierre / Paul (Adulte)",
                         "  2. #31 Begoña / Blas (Expert)",
                         "  3. #32 Chloé / Cyril (Junior)"]
    # one category asked for: its places, and the shared list all the same (it is one line)
    expert = one_text(await h.send(ORGANISER, "/inscritos expert", paris(2, 21)), ORGANISER)
    assert expert.splitlines()[1:] == ["Expert: 30 confirmed", *lines[5:]]


# -- 6. withdrawals with and without a refund --------------------------------------------------


async def test_billom_paid_team_withdrawing_before_the_closing_is_refunded(billom_bot):
    h = billom_bot
    await register(h, ANA, "adulte", TEAM, paris(1, 25))
    await h.send(ORGANISER, "/pagado 1 2012-02-01", paris(2, 2))
    reply = await withdraw(h, ANA, paris(3, 1, 23, 59))
    assert "Entry #1 is withdrawn. What you paid will be refunded." in reply
    assert "withdrawn" in line_of(await mine(h, ANA, paris(3, 2)), 1)


async def test_billom_paid_team_withdrawing_after_the_closing_is_not_refunded(billom_bot):
    h = billom_bot
    await register(h, ANA, "adulte", TEAM, paris(1, 25))
    await h.send(ORGANISER, "/pagado 1 2012-02-01", paris(2, 2))
    reply = await withdraw(h, ANA, BILLOM_CLOSES)
    assert "Entry #1 is withdrawn." in reply and "not refunded" in reply
    assert "refunded" not in reply.replace("not refunded", "")


async def test_castrillo_withdrawal_after_15_april_is_not_refunded(castrillo_bot):
    h = castrillo_bot
    await register(h, ANA, "adultos", [Who("Ana", "1980")], madrid(3, 1))
    await register(h, BEA, "adultos", [Who("Bea", "1980")], madrid(3, 1))
    early = await withdraw(h, ANA, RELEASE - timedelta(seconds=1))
    assert "Entry #1 is withdrawn." in early and "not refunded" not in early
    late = await withdraw(h, BEA, RELEASE)
    assert "Entry #2 is withdrawn." in late and "not refunded" in late


# -- 7. a conversation survives a restart; /cancelar records nothing ----------------------------


async def test_conversation_resumes_after_a_restart(tmp_path):
    at = madrid(3, 1)
    h = await open_harness(tmp_path, CASTRILLO)
    try:
        await start_entry(h, ANA, "parejas", at)
        assert "Year of birth of Ana" in one_text(await h.send(ANA, "Ana", at), ANA)
        await h.stop()
        h = await open_harness(tmp_path, CASTRILLO)
        calls = await h.send(ANA, "1980", at + timedelta(minutes=2))
        assert data_of(h, calls) == ["reg:q:0:y", "reg:q:0:n"], texts(calls)
        assert "Ana: Aepuzz member?" in one_text(calls, ANA)
        await h.press(ANA, "reg:q:0:y", at)
        assert "member 2 of 2" in one_text(await h.press(ANA, "reg:q:1:n", at), ANA)
        await h.stop()
        h = await open_harness(tmp_path, CASTRILLO)
        calls = await enter_member(h, ANA, Who("Bea", "2012", RESIDENT), at)
        await h.press(ANA, "reg:ma:2", at)
        summary = one_text(await h.press(ANA, "reg:mc:1", at), ANA)
        assert "1. Ana (1980, Aepuzz member)" in summary
        assert "2. Bea (2012, Castrillo resident)" in summary
        assert "Total: 44 €" in summary  # 20 - 2 x 5 + 2 x 12 + 10
        assert "Entry #1: your place is confirmed." in one_text(
            await h.press(ANA, "reg:ok", at), ANA)
        assert [(m["name"], m["born_year"], m["answers"]) for m in member_rows(h, 1)] == [
            ("Ana", 1980, "aepuzz_member"), ("Bea", 2012, "resident")]
        assert rows(h, "SELECT local FROM entries")[0]["local"] == 1
        # the draft is gone once registered
        assert all("draft" not in r["data"] for r in rows(h, "SELECT data FROM user_data"))
    finally:
        await h.stop()


async def test_conversation_resumes_after_a_crash(tmp_path):
    """The bot dies without a clean shutdown (no final save): the flushes must be enough."""
    at = madrid(3, 1)
    crashed = await open_harness(tmp_path, CASTRILLO)
    h = None
    try:
        await start_entry(crashed, ANA, "adultos", at)
        await crashed.send(ANA, "Ana", at)
        h = await open_harness(tmp_path, CASTRILLO)  # on the same file, no shutdown before
        calls = await h.send(ANA, "1980", at + timedelta(minutes=2))
        assert data_of(h, calls) == ["reg:q:0:y", "reg:q:0:n"], texts(calls)
    finally:
        if h is not None:
            await h.stop()
        await crashed.stop()


async def test_cancel_records_nothing_and_a_new_inscribir_starts_clean(castrillo_bot):
    h = castrillo_bot
    at = madrid(3, 1)
    before = event_kinds(h)
    await start_entry(h, ANA, "parejas", at)
    await enter_member(h, ANA, Who("Ana", "1980", MEMBER), at)
    await h.send(ANA, "Bea", at)
    assert "nothing was recorded" in one_text(await h.send(ANA, "/cancelar", at), ANA)
    assert entry_rows(h) == [] and event_kinds(h) == before
    # the conversation is over: a year now is not taken as an answer, only pointed to /help
    assert texts(await h.send(ANA, "1982", at)) == [
        "I only understand commands. /help lists what you can do."]
    assert entry_rows(h) == []
    # /inscribir again, part-way through, starts over too
    await start_entry(h, ANA, "adultos", at)
    await h.send(ANA, "Ana", at)
    summary = await to_summary(h, ANA, "adultos", [Who("Carmen", "1975")], at)
    assert "1. Carmen (1975)" in summary and "Ana" not in summary and "Bea" not in summary
    assert "Total: 15 €" in summary
    # Cancel on the summary records nothing either
    assert "nothing was recorded" in one_text(await h.press(ANA, "reg:no", at), ANA)
    assert entry_rows(h) == [] and event_kinds(h) == before
    final = await register(h, ANA, "adultos", [Who("Carmen", "1975")], at)
    assert "Entry #1: your place is confirmed." in final
    assert [m["name"] for m in member_rows(h, 1)] == ["Carmen"]
    assert event_kinds(h)[len(before):].count("registered") == 1


async def test_stray_input_during_the_conversation(castrillo_bot):
    h = castrillo_bot
    at = madrid(3, 1)
    calls = await h.send(ANA, "/inscribir", at)
    assert "Please use the buttons above" in one_text(await h.send(ANA, "adultos", at), ANA)
    await h.press(ANA, data_of(h, calls)[3], at)  # Adultos individual
    assert "1 to 100 characters" in one_text(await h.send(ANA, "x" * 101, at), ANA)
    await h.send(ANA, "Ana", at)
    calls = await h.send(ANA, "1980", at)
    assert "Please use the buttons above" in one_text(await h.send(ANA, "yes", at), ANA)
    # another command mid-way is still answered, and the conversation goes on
    assert "You have no entries yet" in await mine(h, ANA, at)
    await h.press(ANA, "reg:q:0:n", at)
    await h.press(ANA, "reg:q:0:y", at)  # an old button: ignored
    calls = await h.press(ANA, "reg:q:1:n", at)
    assert "How many adults?" in one_text(calls, ANA)
    await h.press(ANA, "reg:ma:0", at)
    summary = one_text(await h.press(ANA, "reg:mc:0", at), ANA)
    assert "1. Ana (1980)\n" in summary and "Total: 15 €" in summary
    await h.press(ANA, "reg:ok", at)
    # the Confirm button pressed again registers nothing more
    await h.press(ANA, "reg:ok", at)
    assert len(entry_rows(h)) == 1
    assert event_kinds(h).count("registered") == 1


async def test_stale_registration_button_is_answered(castrillo_bot):
    h = castrillo_bot
    at = madrid(3, 1)
    await register(h, ANA, "adultos", [Who("Ana", "1980")], at)
    calls = await h.press(ANA, "reg:ok", at)
    assert [c.method for c in calls] == ["answerCallbackQuery"]


# -- 8. organisers ----------------------------------------------------------------------------


def csv_document(call: Call) -> tuple[str, list[dict[str, str]]]:
    """The file name and rows of a CSV sent with sendDocument (recorded as multipart)."""
    assert call.method == "sendDocument"
    part = call.params["document"]
    raw = part["bytes"]
    text = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
    return str(part["file"]), list(csv.DictReader(io.StringIO(text)))


async def test_organiser_payment_commands_and_export(billom_bot):
    h = billom_bot
    o = ORGANISER
    await register(h, ANA, "adulte", TEAM, paris(1, 25))
    await register(h, BEA, "junior", [Who("Léa", "2001-01-01"), Who("Tom", "2002-02-02")],
                   paris(1, 26))
    before = all_events(h)
    assert "There is no entry number 999." in one_text(
        await h.send(o, "/pagado 999", paris(2, 10)), o)
    future = one_text(await h.send(o, "/pagado 1 2012-02-11", paris(2, 10)), o)
    assert "I can't use the date 2012-02-11" in future
    assert "Usage: /paid N [2012-02-24]" in one_text(await h.send(o, "/pagado", paris(2, 10)),
                                                       o)
    assert "Usage" in one_text(await h.send(o, "/pagado abc", paris(2, 10)), o)
    assert all_events(h) == before
    # today's date is not in the future
    assert "recorded on February 10, 2012" in one_text(
        await h.send(o, "/pagado 1 2012-02-10", paris(2, 10, 18)), o)

    # the export is for organisers only
    assert "This command is for organisers." in one_text(
        await h.send(ANA, "/exportar", paris(2, 11)), ANA)
    calls = await h.send(o, "/exportar", paris(2, 11))
    docs = [c for c in calls if c.method == "sendDocument"]
    assert len(docs) == 3 and all(c.chat_id == o.id for c in docs)
    # the workbook first (below), then the two CSV files, named after the contest file
    name, entries = csv_document(docs[1])
    assert name == "billom-2012-entries.csv"
    assert [{k: r[k] for k in ("number", "category", "names", "status", "fee_total")}
            for r in entries] == [
        {"number": "1", "category": "adulte", "names": "Anne; Bruno", "status": "confirmed",
         "fee_total": "14.00"},
        {"number": "2", "category": "junior", "names": "Léa; Tom", "status": "pending_payment",
         "fee_total": "10.00"},
    ]
    assert datetime.fromisoformat(entries[0]["paid_at"]) == paris(2, 10, 0)
    assert entries[1]["paid_at"] == ""
    name, results = csv_document(docs[2])
    assert name == "billom-2012-results.csv"
    first = docs[2].params["document"]["bytes"]
    header = (first.decode() if isinstance(first, bytes) else first).splitlines()[0]
    assert header.split(",")[:5] == ["category", "position", "number", "names", "finished"]
    # only entries holding a place are in the results: the unpaid junior team is not
    assert [(r["category"], r["number"], r["finished"]) for r in results] == [
        ("adulte", "1", "no")]
    # the same two tables as a spreadsheet to print, in the organiser's language (English)
    book = load_workbook(io.BytesIO(docs[0].params["document"]["bytes"]))
    assert docs[0].params["document"]["file"] == "billom-2012-results.xlsx"
    # the ranking to print, the entries, then a sheet of results per category
    assert book.sheetnames == ["Results", "Entries", "Junior", "Mixte", "Adulte", "Expert"]
    assert [c.value for c in book["Entries"][1]][:3] == ["Number", "Category", "Names"]
    assert book["Entries"]["B2"].value == "Adulte"  # the category's name, not its id
    assert book["Entries"]["C2"].value == "Anne; Bruno"
    # the entry's number (no place yet: that column, empty in every row, is left out)
    assert book["Adulte"]["B2"].value == 1 and book["Adulte"]["C2"].value == "Anne; Bruno"


async def test_inscritos_for_organisers_only_with_waiting_list(castrillo_bot):
    h = castrillo_bot
    await fill_non_local_pairs(h, 40, madrid(3, 1))
    await add_direct(h, 40_000, "parejas", [adult("L1", answers=RESIDENT), adult("L2")],
                     madrid(3, 2))
    await register(h, ANA, "parejas", [Who("Ana", "1980"), Who("Abel", "1981")], madrid(3, 3))
    assert "This command is for organisers." in one_text(
        await h.send(ANA, "/inscritos parejas", madrid(3, 4)), ANA)
    assert "Unknown category" in one_text(
        await h.send(ORGANISER, "/inscritos nope", madrid(3, 4)), ORGANISER)
    listing = one_text(await h.send(ORGANISER, "/inscritos parejas", madrid(3, 4)), ORGANISER)
    assert listing.splitlines() == [
        "Adultos parejas: 41 confirmed, 9 free (9 of them only for local entries)",
        "  1. #42 Ana / Abel",
    ]
    everything = one_text(await h.send(ORGANISER, "/inscritos", madrid(3, 4)), ORGANISER)
    assert "Infantil A: 0 confirmed, 10 free" in everything
    assert "Adultos individual: 0 confirmed, 60 free" in everything


# -- 9. one account, two entries --------------------------------------------------------------


async def test_parent_registers_two_children(castrillo_bot):
    h = castrillo_bot
    p = PARENT
    assert "You have no entries yet" in await mine(h, p, madrid(3, 1))
    first = await register(h, p, "infantil-a", [Who("Hugo", "2018")], madrid(3, 1), (1, 2))
    assert "Entry #1: your place is confirmed." in first and "partner" not in first
    second = await register(h, p, "infantil-c", [Who("Iris", "2012", RESIDENT)],
                            madrid(3, 1, 13))
    assert "Entry #2: your place is confirmed." in second
    listing = await mine(h, p, madrid(3, 2))
    assert line_of(listing, 1) == "#1 Infantil A: Hugo - confirmed - 42 € (not paid)"
    assert line_of(listing, 2) == "#2 Infantil C: Iris - confirmed - 5 € (not paid)"
    assert "partner's link" not in listing
    assert [(e["number"], e["registered_by"]) for e in entry_rows(h)] == [(1, p.id), (2, p.id)]
    # /baja without a number asks which; with one, only that entry goes
    ask = one_text(await h.send(p, "/baja", madrid(3, 3)), p)
    assert "Which entry? /withdraw N, with N one of #1, #2." in ask
    assert "You don't follow entry 7" in one_text(await h.send(p, "/baja 7", madrid(3, 3)), p)
    calls = await h.send(p, "/baja 2", madrid(3, 3))
    no = [d for d in data_of(h, calls) if d.startswith("baja:n:2:")]
    assert "stays registered" in one_text(await h.press(p, no[0], madrid(3, 3)), p)
    assert "Entry #2 is withdrawn." in await withdraw(h, p, madrid(3, 4), 2)
    listing = await mine(h, p, madrid(3, 5))
    assert "confirmed" in line_of(listing, 1) and "withdrawn" in line_of(listing, 2)
    # a stranger can't withdraw
    assert "open your entry's link" in one_text(await h.send(STRANGER, "/baja", madrid(3, 5)),
                                                STRANGER)


async def test_the_conversations_commands_reach_it_in_every_language_and_spelling(castrillo_bot):
    """Commands other than its own pass the conversation by; its own (every alias, any case,
    addressed to the bot by name) still reach it."""
    h = castrillo_bot
    at = madrid(3, 1)
    for cancel in ("/cancel", "/ABANDON", f"/cancelar@{h.app.bot.username}"):
        await start_entry(h, ANA, "parejas", at)
        await h.send(ANA, "/billetes", at)  # not the conversation's: answered, it goes on
        await enter_member(h, ANA, Who("Ana", "1980", MEMBER), at)
        assert "nothing was recorded" in one_text(await h.send(ANA, cancel, at), ANA), cancel
    for register_again in ("/register", "/INSCRIPTION"):
        calls = await h.send(ANA, register_again, at)
        assert data_of(h, calls), register_again  # the category buttons: a new registration


# -- 10. a shorter conversation (issue 17) -----------------------------------------------------


async def test_one_child_takes_eight_steps_and_no_meal_is_one_tap(castrillo_bot):
    """/inscribir, the category, the name, the year, two yes/no questions, "No meal",
    Confirm: eight steps (nine before: the meal took two keypads even for nobody)."""
    h = castrillo_bot
    at = madrid(3, 1)
    steps = [("send", "/inscribir"), ("press", "reg:cat:infantil-b"), ("send", "Nico"),
             ("send", "2015"), ("press", "reg:q:0:n"), ("press", "reg:q:1:n")]
    calls: list[Call] = []
    for kind, what in steps:
        calls = await (h.send(ANA, what, at) if kind == "send" else h.press(ANA, what, at))
    asked = one_text(calls, ANA)
    assert "Meal after the contest (12 € per adult, 10 € per child)" in asked
    assert data_of(h, calls) == [f"reg:ma:{n}" for n in range(9)] + ["reg:meal:no"]
    assert ("No meal", "reg:meal:no") in h.buttons(calls)
    summary = one_text(await h.press(ANA, "reg:meal:no", at), ANA)
    assert "Meal: none" in summary and "Total: 10 €" in summary
    assert "Entry #1: your place is confirmed." in one_text(await h.press(ANA, "reg:ok", at), ANA)
    [entry] = entry_rows(h)
    assert (entry["category"], entry["meal_adults"], entry["meal_children"]) == (
        "infantil-b", 0, 0)


async def test_the_meal_is_asked_once_per_person(castrillo_bot):
    """A parent answers the meal with the first entry; the next entries go from the last
    question straight to the summary, which shows the meal already booked (charged once, with
    the first entry) and lets them add people, charged with the new entry."""
    h = castrillo_bot
    p = PARENT
    at = madrid(3, 1)
    first = await to_summary(h, p, "infantil-a", [Who("Hugo", "2018")], at, (1, 2))
    assert "Meal: 1 adult, 2 children: 32 €" in first and "Total: 42 €" in first
    await h.press(p, "reg:ok", at)
    # the second entry: no meal question after the last answer
    await start_entry(h, p, "infantil-c", at)
    calls = await enter_member(h, p, Who("Iris", "2012"), at)
    second = one_text(calls, p)
    assert second.startswith("Please check your registration")
    assert "Meal: 1 adult, 2 children, already booked with entry #1" in second
    assert "Total: 10 €" in second
    assert data_of(h, calls) == ["reg:ok", "reg:no", "reg:meal:add"]
    assert "Entry #2" in one_text(await h.press(p, "reg:ok", at), p)
    # a third adds a grandparent to the meal, paid with this entry
    await start_entry(h, p, "infantil-b", at)
    await enter_member(h, p, Who("Leo", "2015"), at)
    calls = await h.press(p, "reg:meal:add", at)
    assert "People to add to the meal" in one_text(calls, p)
    assert ("Add nobody", "reg:meal:no") in h.buttons(calls)
    await h.press(p, "reg:ma:1", at)
    third = one_text(await h.press(p, "reg:mc:0", at), p)
    assert "Meal: 1 adult, 2 children, already booked with entries #1, #2" in third
    assert "Added to the meal with this entry: 1 adult: 12 €" in third
    assert "Total: 22 €" in third
    assert "Entry #3" in one_text(await h.press(p, "reg:ok", at), p)
    assert [(e["number"], e["meal_adults"], e["meal_children"]) for e in entry_rows(h)] == [
        (1, 1, 2), (2, 0, 0), (3, 1, 0)]
    # somebody else is asked
    await start_entry(h, ANA, "adultos", at)
    assert "reg:meal:no" in data_of(h, await enter_member(h, ANA, Who("Ana", "1980"), at))


async def test_the_meal_is_asked_again_once_the_earlier_entries_are_withdrawn(castrillo_bot):
    h = castrillo_bot
    await register(h, ANA, "adultos", [Who("Ana", "1980")], madrid(3, 1))  # "No meal"
    await start_entry(h, ANA, "parejas", madrid(3, 2))
    await enter_member(h, ANA, Who("Ana", "1980"), madrid(3, 2))
    calls = await enter_member(h, ANA, Who("Abel", "1981"), madrid(3, 2))
    assert "Meal: none, as answered with entry #1" in one_text(calls, ANA)
    await h.send(ANA, "/cancelar", madrid(3, 2))
    await withdraw(h, ANA, madrid(3, 3))
    # the meal went with the withdrawn entry: asked again
    await start_entry(h, ANA, "adultos", madrid(3, 4))
    calls = await enter_member(h, ANA, Who("Ana", "1980"), madrid(3, 4))
    assert "How many adults?" in one_text(calls, ANA) and "reg:meal:no" in data_of(h, calls)


async def test_a_wrong_birth_year_offers_the_category_that_fits_and_switching_keeps_it(
        castrillo_bot):
    h = castrillo_bot
    at = madrid(3, 1)
    await start_entry(h, ANA, "infantil-b", at)
    await h.send(ANA, "Nico Pérez", at)
    calls = await h.send(ANA, "2012", at)
    refused = one_text(calls, ANA)
    assert "born 2012" in refused and "2014-2016" in refused
    assert "switch to a category where it fits" in refused
    assert h.buttons(calls) == [("Switch to Infantil C · born 2011 to 2013 · 10 €",
                                 "reg:sw:infantil-c")]
    # a category not offered (forged data) changes nothing
    assert texts(await h.press(ANA, "reg:sw:adultos", at)) == []
    calls = await h.press(ANA, "reg:sw:infantil-c", at)
    assert texts(calls) == ["Category: Infantil C", "Nico Pérez: Aepuzz member?"]
    assert data_of(h, calls) == ["reg:q:0:y", "reg:q:0:n"]
    # the switch button again, now the birth is taken: an old button, nothing happens
    assert texts(await h.press(ANA, "reg:sw:infantil-c", at)) == []
    await h.press(ANA, "reg:q:0:y", at)
    await h.press(ANA, "reg:q:1:n", at)
    summary = one_text(await h.press(ANA, "reg:meal:no", at), ANA)
    assert "Category: Infantil C" in summary and "1. Nico Pérez (2012, Aepuzz member)" in summary
    assert "Total: 5 €" in summary
    assert "Entry #1" in one_text(await h.press(ANA, "reg:ok", at), ANA)
    [entry] = entry_rows(h)
    assert entry["category"] == "infantil-c"
    [member] = member_rows(h, 1)
    assert (member["name"], member["born_year"], member["answers"]) == (
        "Nico Pérez", 2012, "aepuzz_member")


async def test_a_switch_keeps_the_members_already_entered(billom_bot):
    """Billom: a junior pair whose second member is an adult fits Mixte; the switch keeps both
    members and goes on to the summary."""
    h = billom_bot
    at = paris(2, 1)
    await start_entry(h, ANA, "junior", at)
    await h.send(ANA, "Léa", at)
    await h.send(ANA, "2000-03-11", at)
    await h.send(ANA, "Marc", at)
    calls = await h.send(ANA, "1970-01-01", at)
    assert "aged 42 on the contest day" in one_text(calls, ANA)
    assert data_of(h, calls) == ["reg:sw:mixte"]
    calls = await h.press(ANA, "reg:sw:mixte", at)
    summary = texts(calls)[-1]
    assert "Category: Mixte" in summary and "1. Léa (March 11, 2000)" in summary
    assert "2. Marc (January 1, 1970)" in summary and "Total: 12 €" in summary
    assert "Entry #1" in one_text(await h.press(ANA, "reg:ok", at), ANA)
    assert entry_rows(h)[0]["category"] == "mixte"


async def test_a_pair_of_two_children_is_refused_as_early_as_it_can_be(castrillo_bot):
    """After a child as first member, the bot says at once that the second must be born 2010
    or earlier; a second child is refused at their year, before any question, with the
    reason and the category that child fits on their own."""
    h = castrillo_bot
    at = madrid(3, 1)
    await start_entry(h, ANA, "parejas", at)
    asked = one_text(await enter_member(h, ANA, Who("Kid One", "2015"), at), ANA)
    assert asked == ("Name and surname of member 2 of 2?\n"
                     "The place left for member 2 needs born 2010 or earlier.")
    await h.send(ANA, "Kid Two", at)
    calls = await h.send(ANA, "2016", at)
    refused = one_text(calls, ANA)
    assert refused.splitlines() == [
        "Not possible: Kid Two (born 2016), and this category needs born 2010 or earlier.",
        "Kid Two fits Infantil B, in an entry of their own.",
        "Write the correct birth, or /cancel to choose another category."]
    assert h.buttons(calls) == []
    # an adult first: nothing to warn about
    await start_entry(h, BEA, "parejas", at)
    asked = one_text(await enter_member(h, BEA, Who("Bea", "1980"), at), BEA)
    assert asked == "Name and surname of member 2 of 2?"
    assert entry_rows(h) == []


async def test_billom_mixte_says_the_second_must_be_a_child(billom_bot):
    h = billom_bot
    at = paris(2, 1)
    await start_entry(h, ANA, "mixte", at)
    await h.send(ANA, "Marc", at)
    asked = one_text(await h.send(ANA, "1970-01-01", at), ANA)
    assert asked.endswith("The place left for member 2 needs under 12 on the contest day.")


async def test_the_summary_uses_labels_and_says_no_meal_in_spanish(castrillo_bot):
    h = castrillo_bot
    luz = Person(120, "Luz", "es")
    at = madrid(3, 1)
    await h.send(luz, "/inscribir", at)
    await h.press(luz, "reg:cat:parejas", at)
    for name, year, answers in (("Luz", "1980", "yn"), ("Teo", "2012", "ny")):
        await h.send(luz, name, at)
        await h.send(luz, year, at)
        for i, yes in enumerate(answers):
            await h.press(luz, f"reg:q:{i}:{yes}", at)
    summary = one_text(await h.press(luz, "reg:meal:no", at), luz)
    assert "1. Luz (1980, socio/a de Aepuzz)" in summary
    assert "2. Teo (2012, empadronado/a en Castrillo)" in summary
    assert "¿" not in summary
    assert "Descuentos: -10 € (2 participantes)" in summary
    assert [ln for ln in summary.splitlines() if ln.startswith("Comida")] == ["Comida: no"]
    await h.press(luz, "reg:no", at)
    await h.send(luz, "/inscribir", at)
    await h.press(luz, "reg:cat:adultos", at)
    await h.send(luz, "Luz", at)
    await h.send(luz, "1980", at)
    await h.press(luz, "reg:q:0:y", at)
    await h.press(luz, "reg:q:1:n", at)
    await h.press(luz, "reg:ma:2", at)
    summary = one_text(await h.press(luz, "reg:mc:1", at), luz)
    assert "Descuentos: -5 € (1 participante)" in summary
    assert "Comida: 2 adultos, 1 niño: 34 €" in summary
