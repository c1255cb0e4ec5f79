"""Hostile use of the bot through the real Application (tests/fakebot.py).

1. The roles matrix, byte for byte: every command sent by everyone who may not use it gets one
   reply with a reason, and the SQLite file and its full dump are unchanged.
2. Join codes and volunteer invitations: long, deep-link safe, distinct; an invitation works
   once; a garbled code is refused and changes nothing.
3. Hypothesis fuzzing of every command's arguments (and of button data) from a stranger, a
   participant, a volunteer and an organiser: always an answer, never the error handler, every
   text 1..4096 characters, no event recorded from garbage.
4. Names full of markup, emoji and right-to-left text come back verbatim, and no call ever asks
   Telegram to parse markup.

Known bugs are strict xfails (``BUG: ...``); the fuzzers leave out the exact inputs of those
bugs (see ``known_crash``) so that they keep looking for new ones.
"""

from __future__ import annotations

import asyncio
import csv
import io
import random
import re
import sqlite3
import string
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.commands import BY_NAME, COMMANDS, ENTRY_COMMANDS, names_for
from bot.contest_file import load_contest
from bot.csvio import import_entries, read_entries
from bot.domain.clock import DurationError, parse_duration
from bot.handlers.common import parse_int
from tests.conftest import CASTRILLO
from tests.fakebot import Call, Harness, Person, texts

MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2023, 4, 22, 11, 0, 0, tzinfo=MADRID)  # the organiser's /inicio
CONTEST = load_contest(CASTRILLO)
CATEGORY_IDS = {c.id for c in CONTEST.categories}

ORGANISER = Person(1, "Olga", "en")
VOLUNTEER = Person(2, "Victor", "en")
STRANGER = Person(500, "Sam", "en")  # never linked to anything
P3 = Person(103, "Ana", "en")  # pair 3
P3B = Person(203, "Bea", "en")  # pair 3's second phone (linked only where a test says so)
P20 = Person(120, "Gil", "en")  # pair 20
P50 = Person(150, "Luis", "en")  # adult 50
PARENT = Person(300, "Pat", "en")

CSV = """number,category,names,born,aepuzz_member,resident
3,parejas,Ana; Bea,1980; 1985,no; no,no; no
20,parejas,Gil; Hugo,1970; 1972,no; no,no; no
50,adultos,Luis,1970,no,no
30,infantil-a,Nico,2018,no,no
31,infantil-b,Olivia,2015,no,no
"""

GENERIC_ERROR = "Something went wrong"
CODE = re.compile(r"^[A-Za-z0-9_-]+$")
REPLY_METHODS = ("sendMessage", "sendDocument", "answerCallbackQuery")


# -- helpers ------------------------------------------------------------------------------------


def at(clock: str) -> datetime:
    """A real instant from contest time h:mm:ss since T0 (no pause); "-h:mm:ss" is before T0."""
    sign = -1 if clock.startswith("-") else 1
    h, m, s = (int(x) for x in clock.lstrip("-").split(":"))
    return T0 + sign * timedelta(hours=h, minutes=m, seconds=s)


Snapshot = tuple[bytes, list[str]]


def snapshot(path: Path) -> Snapshot:
    """The main database file's bytes and a dump of every table, after moving the WAL into the
    file (through a separate stdlib connection, while the bot's connection stays open)."""
    with closing(sqlite3.connect(path)) as conn:
        busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0, "the checkpoint could not run: a transaction was left open"
        dump = list(conn.iterdump())
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    return path.read_bytes(), dump


def assert_unchanged(before: Snapshot, after: Snapshot) -> None:
    assert after[1] == before[1], "the database dump changed: " + "; ".join(
        sorted(set(after[1]) ^ set(before[1]))[:6])
    assert after[0] == before[0], "the database file changed (same dump, other bytes)"


def event_count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as conn:
        (n,) = conn.execute("SELECT COUNT(*) FROM events").fetchone()
    return int(n)


def replies_to(calls: Sequence[Call], who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


def assert_one_reason(calls: Sequence[Call], who: Person) -> str:
    """Exactly one message, to that person, not the generic error; nothing else sent."""
    sent = [c for c in calls if c.method in ("sendMessage", "sendDocument", "sendPhoto")]
    assert [(c.method, c.chat_id) for c in sent] == [("sendMessage", who.id)], [
        (c.method, c.text) for c in sent]
    text = sent[0].text
    assert GENERIC_ERROR not in text
    assert text.strip()
    return text


def roles_of(h: Harness, who: Person) -> Any:
    return h.services.day.roles(who.id)


def csv_text(rows: Sequence[dict[str, str]]) -> str:
    buf = io.StringIO()
    fields = list(rows[0])
    writer = csv.DictWriter(buf, fieldnames=fields)
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


@dataclass
class Day:
    h: Harness
    codes: dict[int, str]  # entry number -> join code
    errors: list[BaseException] = field(default_factory=list)

    async def send(self, who: Person, text: str, clock: str) -> list[Call]:
        return await self.h.send(who, text, at(clock))

    async def link(self, who: Person, number: int, clock: str = "-1:00:00") -> list[Call]:
        return await self.send(who, f"/start {self.codes[number]}", clock)

    async def invite(self, clock: str = "-2:00:00") -> str:
        """A fresh volunteer invitation code, from the organiser's /voluntario link."""
        link = texts(await self.send(ORGANISER, "/voluntario", clock))[0].split()[-1]
        return link.split("start=", 1)[1]

    def snapshot(self) -> Snapshot:
        return snapshot(self.h.db_path)


async def open_day(tmp_path: Path, clock: bool = True, csv_data: str = CSV,
                   people: Sequence[tuple[Person, int]] = ((P3, 3), (P20, 20), (P50, 50)),
                   volunteer: Person = VOLUNTEER) -> Day:
    """Castrillo with the entries of ``csv_data`` imported and ``people`` linked; the organiser
    and one volunteer in place; with ``clock``, every category's clock started at T0. An extra
    error handler collects whatever reaches the error handler."""
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({ORGANISER.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(csv_data), "x.csv"))
    codes = {e.number: e.join_code for e in await svc.store.entries()}
    day = Day(h, codes)

    async def collect(update: object, context: Any) -> None:
        day.errors.append(context.error)

    h.app.add_error_handler(collect)
    for person, number in people:
        await day.link(person, number)
    await day.send(ORGANISER, "/start", "-2:00:00")
    await day.send(volunteer, f"/start {await day.invite()}", "-2:00:00")
    if clock:
        await day.send(ORGANISER, "/inicio", "0:00:00")
    assert not day.errors
    return day


@pytest.fixture
async def day_factory(tmp_path: Path) -> Any:
    opened: list[Day] = []

    async def _open(**kwargs: Any) -> Day:
        sub = tmp_path / f"day{len(opened)}"
        sub.mkdir()
        d = await open_day(sub, **kwargs)
        opened.append(d)
        return d

    yield _open
    for d in opened:
        await d.h.stop()


# -- 1. the roles matrix, byte for byte ---------------------------------------------------------


@dataclass(frozen=True)
class Plausible:
    """A command as the person it is for would send it, at a moment it would succeed."""

    args: str
    clock: str
    before: tuple[tuple[Person, str, str], ...] = ()
    start_clock: bool = True


ESCAPE_3 = ((VOLUNTEER, "/escape 3 0:25:00", "0:25:00"),)
PLAUSIBLE: dict[str, Plausible] = {
    "pista": Plausible("3 2", "0:10:00"),
    "solucion": Plausible("3 2", "0:20:00", before=((P3, "/pista 2", "0:10:00"),)),
    "billetes": Plausible("3", "0:20:00"),
    "listo": Plausible("3", "1:40:00", before=ESCAPE_3),
    "etapa": Plausible("3 2", "0:30:00"),
    "escape": Plausible("3 0:25:00", "0:25:30"),
    "fin": Plausible("3 1:00:00", "1:46:00", before=ESCAPE_3),
    "piezas": Plausible("3 120", "1:00:00"),
    "deshacer": Plausible("", "1:05:00", before=((VOLUNTEER, "/piezas 3 120", "1:00:00"),)),
    "historial": Plausible("3", "1:00:00", before=ESCAPE_3),
    "inicio": Plausible("parejas", "0:00:00", start_clock=False),
    "pausa": Plausible("", "1:00:00"),
    "reanudar": Plausible("", "1:10:00", before=((ORGANISER, "/pausa", "1:00:00"),)),
    "clasificacion": Plausible("parejas", "1:00:00"),
    "pagado": Plausible("3 2023-04-01", "1:00:00"),
    "inscritos": Plausible("parejas", "1:00:00"),
    "exportar": Plausible("", "1:00:00"),
    "copia": Plausible("", "1:00:00"),
    "voluntario": Plausible("", "1:00:00"),
}
DEFAULT_PLAUSIBLE = Plausible("3", "1:00:00")  # a command added later: still tried by everyone
# open to everyone, so nobody is refused: /start, /ayuda and /idioma (participant commands that
# need no entry) and the registration commands
OPEN_TO_ALL = ("start", "ayuda", "idioma", "inscribir", "mis_inscripciones", "baja", "cancelar")
ROLE_PEOPLE = {"stranger": STRANGER, "participant": P3, "other-entry": P20,
               "volunteer": VOLUNTEER, "organiser": ORGANISER}
FORBIDDEN = {  # who may NOT use a command, by the command's role
    "participant": ("stranger", "other-entry", "volunteer", "organiser"),
    "volunteer": ("stranger", "participant", "other-entry"),
    "organiser": ("stranger", "participant", "other-entry", "volunteer"),
}
REASONS = {
    "participant": "open your entry's link",
    "volunteer": "This command is for volunteers and organisers.",
    "organiser": "This command is for organisers.",
}


def _matrix() -> list[Any]:
    out = []
    for cmd in COMMANDS:
        if cmd.name in OPEN_TO_ALL:
            continue
        role = "participant" if cmd.name in ENTRY_COMMANDS else cmd.role
        for who in FORBIDDEN[role]:
            out.append(pytest.param(cmd.name, who, id=f"{cmd.name}-by-{who}"))
    return out


ROLE_MATRIX = _matrix()


def test_the_matrix_covers_every_command() -> None:
    covered = {p.values[0] for p in ROLE_MATRIX}
    assert covered | set(OPEN_TO_ALL) == {c.name for c in COMMANDS}
    # every command nobody but its role may use is tried by the roles below it
    assert len(ROLE_MATRIX) == sum(
        len(FORBIDDEN["participant" if c.name in ENTRY_COMMANDS else c.role])
        for c in COMMANDS if c.name not in OPEN_TO_ALL)


@pytest.mark.parametrize(("name", "role"), ROLE_MATRIX)
async def test_role_matrix_refuses_with_a_reason_and_leaves_the_file_byte_for_byte(
        day_factory: Any, name: str, role: str) -> None:
    case = PLAUSIBLE.get(name, DEFAULT_PLAUSIBLE)
    d: Day = await day_factory(clock=case.start_clock)
    for person, text, clock in case.before:
        await d.send(person, text, clock)
    who = ROLE_PEOPLE[role]
    needed = "participant" if name in ENTRY_COMMANDS else BY_NAME[name].role
    for alias in names_for(name):  # the Spanish name and its French and English aliases
        text = f"/{alias} {case.args}".rstrip()
        before = d.snapshot()
        reply = assert_one_reason(await d.send(who, text, case.clock), who)
        assert_unchanged(before, d.snapshot())
        if role == "other-entry" and needed == "participant":
            # pair 20's phone named entry 3: told it does not follow it, nothing about entry 3
            assert "You don't follow entry 3" in reply, reply
        else:
            assert REASONS[needed] in reply, (text, reply)
    assert not d.errors


async def test_a_linked_participants_repeated_message_writes_nothing(day_factory: Any) -> None:
    """Name and language unchanged: talking to the bot again rewrites nothing."""
    d: Day = await day_factory()
    for who, text in ((P3, "/billetes"), (P3, "/ayuda"), (P3, "/start"), (VOLUNTEER, "/ayuda"),
                      (ORGANISER, "/clasificacion"), (P3, f"/start {d.codes[3]}")):
        before = d.snapshot()
        calls = await d.send(who, text, "0:20:00")
        assert replies_to(calls, who)
        assert_unchanged(before, d.snapshot())
    assert not d.errors


# -- 2. join codes and volunteer invitations ----------------------------------------------------


def _adults(n: int) -> str:
    return csv_text([{"category": "adultos", "names": f"Adult {i}", "born": "1970"}
                     for i in range(n)])


async def test_join_codes_of_200_imported_entries_are_long_safe_and_distinct(
        tmp_path: Path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({ORGANISER.id})).start()
    try:
        svc = h.services
        rows = read_entries(svc.contest, io.StringIO(_adults(200)), "many.csv")
        await import_entries(svc.store, rows)
        codes = [e.join_code for e in await svc.store.entries()]
    finally:
        await h.stop()
    assert len(codes) == 200
    assert len(set(codes)) == 200
    for code in codes:
        assert len(code) >= 20 and CODE.match(code), code
        assert len(code) <= 64  # Telegram's limit for a deep-link payload
        assert not code.startswith("v")  # /start takes v... for a volunteer invitation


async def test_volunteer_invitation_codes_are_long_safe_and_distinct(day_factory: Any) -> None:
    d: Day = await day_factory(clock=False)
    invites = [await d.invite("-1:00:00") for _ in range(200)]
    assert len(set(invites)) == 200
    assert not set(invites) & set(d.codes.values())
    for code in invites:
        assert len(code) >= 20 and len(code) <= 64 and CODE.match(code), code
        assert code.startswith("v")


async def test_an_invitation_works_once(day_factory: Any) -> None:
    d: Day = await day_factory()
    code = await d.invite("0:05:00")
    first, second = Person(600, "Vera", "en"), Person(601, "Vito", "en")
    assert "Welcome, volunteer" in replies_to(await d.send(first, f"/start {code}", "0:06:00"),
                                              first)[0]
    assert (await roles_of(d.h, first)).volunteer
    for who in (second, P3):  # a stranger, and a linked participant
        before = d.snapshot()
        text = assert_one_reason(await d.send(who, f"/start {code}", "0:07:00"), who)
        assert "already used" in text
        assert_unchanged(before, d.snapshot())
        assert not (await roles_of(d.h, who)).volunteer
        refusal = assert_one_reason(await d.send(who, "/escape 3", "0:25:00"), who)
        assert REASONS["volunteer"] in refusal
        assert_unchanged(before, d.snapshot())
    assert not d.errors


async def test_a_join_code_links_several_phones(day_factory: Any) -> None:
    d: Day = await day_factory()
    for who in (P3B, PARENT, Person(204, "Cleo", "en")):
        text = replies_to(await d.link(who, 3, "0:01:00"), who)[0]
        assert "You follow entry #3" in text
    assert await d.h.services.day.linked_users(3) == sorted([P3.id, P3B.id, PARENT.id, 204])
    # opening it again: told so, and nothing written
    before = d.snapshot()
    text = assert_one_reason(await d.link(P3B, 3, "0:02:00"), P3B)
    assert "You already follow entry #3" in text
    assert_unchanged(before, d.snapshot())
    # the partner hears a hint asked from any of the phones
    calls = await d.send(PARENT, "/pista 2", "0:10:00")
    assert {c.chat_id for c in calls if c.method == "sendMessage"} >= {
        P3.id, P3B.id, PARENT.id, 204}
    assert not d.errors


def _garbled(code: str) -> list[tuple[str, str]]:
    """(what, code) pairs: the real code with one character changed, truncated, empty, random."""
    rnd = random.Random(code)
    alphabet = string.ascii_letters + string.digits + "_-"
    out = []
    for i in (1, len(code) // 2, len(code) - 1):
        other = rnd.choice([c for c in alphabet if c != code[i]])
        out.append((f"char {i} changed", code[:i] + other + code[i + 1:]))
    flip = next(i for i, ch in enumerate(code) if ch.isalpha() and i > 0)
    out.append(("case of one letter", code[:flip] + code[flip].swapcase() + code[flip + 1:]))
    out += [("last char dropped", code[:-1]), ("half", code[: len(code) // 2]),
            ("prefix only", code[:1]), ("one char more", code + "A"),
            ("64 random", "".join(rnd.choice(alphabet) for _ in range(64))),
            ("64 random with its prefix", code[0] + "".join(rnd.choice(alphabet)
                                                             for _ in range(63)))]
    return out


@pytest.mark.parametrize("kind", ["join", "invite"])
async def test_a_garbled_code_is_refused_and_changes_nothing(day_factory: Any, kind: str) -> None:
    d: Day = await day_factory()
    real = d.codes[3] if kind == "join" else await d.invite("0:01:00")
    cases = _garbled(real)
    checked = 0
    for who in (STRANGER, P20, VOLUNTEER, Person(602, "Nadie", "es")):
        for what, code in cases:
            assert code != real
            before = d.snapshot()
            text = assert_one_reason(await d.send(who, f"/start {code}", "0:10:00"), who)
            assert "link is not valid" in text or "enlace no es válido" in text, (what, text)
            assert_unchanged(before, d.snapshot())
            checked += 1
        roles = await roles_of(d.h, who)
        assert 3 not in {e.number for e in roles.entries}
        assert roles.volunteer == (who is VOLUNTEER)
    # empty: /start alone only says hello, and writes nothing for someone already known
    for who in (STRANGER, P20):
        before = d.snapshot()
        text = assert_one_reason(await d.send(who, "/start ", "0:11:00"), who)
        assert "Hello" in text
        assert_unchanged(before, d.snapshot())
    # and the real code still works afterwards
    if kind == "join":
        assert "You follow entry #3" in replies_to(await d.link(STRANGER, 3, "0:12:00"),
                                                   STRANGER)[0]
    else:
        assert "Welcome, volunteer" in replies_to(
            await d.send(STRANGER, f"/start {real}", "0:12:00"), STRANGER)[0]
    assert checked == 4 * len(cases)
    assert not d.errors
