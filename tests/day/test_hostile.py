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

A bug found here is shown by a strict xfail (``bug(...)``, failing on an assertion) until it is
fixed; none is known today, and the fuzzers leave no input out. Run with ``-s`` to see how many
fuzz cases ran.
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from telegram import CallbackQuery, Update, User
from telegram.ext import CallbackQueryHandler

from bot.domain.clock import DurationError, parse_duration
from bot.handlers.commands import ENTRY_COMMANDS, names_for
from bot.handlers.common import parse_int
from bot.services.contest_file import load_contest
from bot.services.csvio import ImportError_, import_entries, read_entries
from bot.support.commands import BY_NAME, COMMANDS
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


def bug(reason: str) -> pytest.MarkDecorator:
    """A known bug: the test shows it and fails on an assertion until it is fixed."""
    return pytest.mark.xfail(strict=True, raises=AssertionError, reason="BUG: " + reason)


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
    try:
        return await _set_up(h, clock, csv_data, people, volunteer)
    except BaseException:
        await h.stop()  # an open store keeps its thread, and pytest, alive
        raise


async def _set_up(h: Harness, clock: bool, csv_data: str, people: Sequence[tuple[Person, int]],
                  volunteer: Person) -> Day:
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
    "empiezo": Plausible("3 1", "1:00:00"),  # entry 3, puzzle 1 (a lone number is the puzzle)
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
    "anuncio": Plausible("La comida es a las 14:00", "1:00:00"),
    "voluntario": Plausible("", "1:00:00"),
    "corregir": Plausible("3 1 Nombre Apellido 1980", "1:00:00"),
}
DEFAULT_PLAUSIBLE = Plausible("3", "1:00:00")  # a command added later: still tried by everyone
# open to everyone, so nobody is refused: /start, /ayuda and /idioma (participant commands that
# need no entry), the registration commands, and /mis_datos (what is kept about the person)
OPEN_TO_ALL = ("start", "ayuda", "idioma", "inscribir", "mis_inscripciones", "baja", "cancelar",
               "mis_datos")
ROLE_PEOPLE = {"stranger": STRANGER, "participant": P3, "other-entry": P20,
               "volunteer": VOLUNTEER, "organiser": ORGANISER}
FORBIDDEN = {  # who may NOT use a command, by the command's role
    "participant": ("stranger", "other-entry", "volunteer", "organiser"),
    "volunteer": ("stranger", "participant", "other-entry"),
    "organiser": ("stranger", "participant", "other-entry", "volunteer"),
}
FOR_AN_ENTRY = ("acepto", "renuncio")  # participant commands an organiser may send for an entry
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
    pairs = {tuple(p.values) for p in ROLE_MATRIX}
    for c in COMMANDS:  # the stranger and a participant of another entry try every one of them
        if c.name not in OPEN_TO_ALL:
            assert {(c.name, "stranger"), (c.name, "other-entry")} <= pairs


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
        if name == "clasificacion" and role in ("participant", "other-entry"):
            # their own category's ranking, once it is final (tests/standings/): not yet
            assert "is shown here once its results are final" in reply, reply
        elif role == "organiser" and name in FOR_AN_ENTRY:
            # an organiser may answer an invitation for a team without a phone: entry 3 has none
            assert "has no invitation to answer" in reply, reply
        elif role == "organiser" and name == "aceptar_plaza":
            # ... or accept a place offered: this contest offers none
            assert "offers no places from a waiting list" in reply, reply
        elif role == "organiser" and name == "respuestas":
            # ... or change an entry's answers: entry 3 has none that may change (its
            # questions decide fees and places)
            assert "has no answer to change" in reply, reply
        elif role in ("organiser", "other-entry") and name == "emparejar":
            # ... or match partners (3 the entry asked, not one of theirs): this contest
            # matches none
            assert "does not match partners" in reply, reply
        elif role == "organiser" and name == "corregir":
            # ... or correct a member until the entry plays: entry 3 plays
            assert "whose clock has started: its members stay as they are" in reply, reply
        elif role == "other-entry" and name == "respuesta":
            # an answer to an enigma, where the escape is not played in the chat (Castrillo's
            # volunteers run it): nothing about entry 3
            assert "is not played in the chat" in reply, reply
        elif role == "other-entry" and needed == "participant":
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


async def test_the_byte_for_byte_check_sees_a_write(day_factory: Any) -> None:
    """The control: a command that does record something changes the snapshot, and so does a
    participant whose Telegram name changed."""
    d: Day = await day_factory()
    before = d.snapshot()
    await d.send(P3, "/pista 2", "0:10:00")
    with pytest.raises(AssertionError):
        assert_unchanged(before, d.snapshot())
    before = d.snapshot()
    await d.send(Person(P20.id, "Gilberto", "en"), "/billetes", "0:11:00")
    with pytest.raises(AssertionError):
        assert_unchanged(before, d.snapshot())


@pytest.mark.parametrize("code", ["two words", "código-ñandú-0123456789", "v" + "a" * 30,
                                  "A" * 65])
async def test_import_refuses_a_join_code_that_cannot_be_opened(tmp_path: Path,
                                                                code: str) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({ORGANISER.id})).start()
    try:
        data = csv_text([{"number": "7", "category": "adultos", "names": "Eva", "born": "1970",
                          "join_code": code}])
        try:
            await import_entries(h.services.store,
                                 read_entries(h.services.contest, io.StringIO(data), "x.csv"))
        except ImportError_:
            return  # refused with a clear message: fine
        # imported: then the code must work as a deep link
        calls = await h.send(P3, f"/start {code}", at("-1:00:00"))
        assert len(code) <= 64 and CODE.match(code)
        assert "You follow entry #7" in replies_to(calls, P3)[0]
    finally:
        await h.stop()


# -- 3. hostile input, with Hypothesis ----------------------------------------------------------

REGISTRATION = ("inscribir", "mis_inscripciones", "baja", "cancelar")
FAMILIES: dict[str, tuple[str, ...]] = {
    "participant": tuple(c.name for c in COMMANDS
                         if c.role == "participant" and c.name not in REGISTRATION),
    "registration": REGISTRATION,
    "volunteer": tuple(c.name for c in COMMANDS if c.role == "volunteer"),
    "organiser": tuple(c.name for c in COMMANDS if c.role == "organiser"),
}
FUZZ_PEOPLE = {"stranger": Person(700, "Zed", "fr"), "participant": P3,
               "volunteer": VOLUNTEER, "organiser": ORGANISER}
FUZZ_CLOCK = "0:45:00"  # a fixed contest-day moment, after /inicio, during the escape
FUZZ_STATS: dict[str, int] = {"examples": 0, "callbacks": 0, "corpus": 0,
                              "event_check_skipped": 0, "valid_and_recorded": 0,
}


def test_the_families_cover_every_command() -> None:
    assert sorted(n for f in FAMILIES.values() for n in f) == sorted(c.name for c in COMMANDS)


def number(token: str) -> int | None:
    return parse_int(token)


def is_duration(token: str) -> bool:
    try:
        parse_duration(token)
    except DurationError:
        return False
    return True


def is_int(token: str) -> bool:
    try:
        int(token)
    except ValueError:
        return False
    return True


NEVER_RECORD = ("start", "ayuda", "idioma", "billetes", "inscribir", "mis_inscripciones", "baja",
                "cancelar", "historial", "clasificacion", "inscritos", "exportar", "copia",
                "anuncio", "publicar")  # the last two ask first: only their buttons record


def could_record(role: str, name: str, text: str) -> bool:
    """Whether the message might be a valid command that records an event (then the events
    check is skipped). Garbage never is; a command this file does not know yet is not judged."""
    if role == "stranger":
        return False
    args = text.split()[1:]
    n = [number(a) for a in args]
    cmd = BY_NAME.get(name)
    if cmd is None:
        return True
    if name in NEVER_RECORD:
        return False
    if role == "participant":
        if cmd.role != "participant":
            return False  # refused
        rules = {"pista": any(x is not None for x in n), "solucion": any(x is not None for x in n),
                 "listo": not args or n[0] is not None}
        return rules.get(name, True)
    if name in ENTRY_COMMANDS or (role == "volunteer" and cmd.role == "organiser"):
        return False  # staff here follow no entry; volunteers are refused organiser commands
    rules = {
        "deshacer": True, "pausa": True, "reanudar": True, "voluntario": True,
        "inicio": not args or (len(args) == 1 and args[0].lower() in CATEGORY_IDS),
        "etapa": len(args) == 2 and n[0] is not None and n[1] is not None,
        "escape": 1 <= len(args) <= 2 and n[0] is not None and (
            len(args) == 1 or is_duration(args[1])),
        "fin": 1 <= len(args) <= 2 and n[0] is not None and (
            len(args) == 1 or is_duration(args[1])),
        "piezas": len(args) == 2 and n[0] is not None and n[1] is not None,
        "pagado": 1 <= len(args) <= 2 and n[0] is not None,
        "anuncio": bool(text.partition(" ")[2].strip()),
    }
    return rules.get(name, True)


# arguments: never a valid command, except by the chance the predicate above catches
huge = st.one_of(st.integers(min_value=10**10, max_value=10**40).map(str),
                 st.integers(min_value=-(10**40), max_value=-1).map(str),
                 st.sampled_from([str(10**30), str(-(10**30)), "1e30", "0x1F", "9" * 100,
                                  "NaN", "inf", "-0", "+3", "3.0", "1_000"]))
times = st.one_of(
    st.builds("-{}:{:02d}:{:02d}".format, st.integers(0, 999), st.integers(0, 99),
              st.integers(0, 99)),
    st.sampled_from(["-1:00:00", "-0:00:01", "1:75:00", "0:60", "::", "1::2", "1:5:7",
                     "1:00:00:00", "99999:00:00", "½:00", "0:-1", "١:٦٠:٠٠"]))
markup = st.sampled_from(["<b>", "</b>", "<b>x</b>", "<i>", "*", "**bold**", "_", "__x__", "`",
                          "```py", "[x](y)", "[x](tg://user?id=1)", "&amp;", "&lt;b&gt;",
                          "<a href='x'>y</a>", "\\", "||spoiler||", "~x~", "%s", "{entry}",
                          "{0}", "%(x)s", "@puzzle_test_bot", "#", "/fin", "'; DROP TABLE"])
fixed_unicode = st.sampled_from([
    "🧩", "👨‍👩‍👧‍👦", "🏳️‍🌈", "\u200d", "\u200b", "\ufeff", "\u202e", "\u202d",
    "\u2066x\u2069", "مرحبا", "שלום", "e\u0301\u0301\u0301", "Z̴̡̛a̷l̸g̵o", "İ", "ß", "ﬃ", "٣",
    "１２", "𝟑", "\U0010fffd", "\ue000"])
any_unicode = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                      min_size=1, max_size=12)
controls = st.text(st.one_of(st.characters(min_codepoint=1, max_codepoint=31),
                             st.sampled_from(["\x7f", "\x85", "\u2028", "\u2029"])),
                   min_size=1, max_size=8)
spaces = st.sampled_from([" " * 300, "\n" * 50, "\t \n \r" * 20, "\u3000" * 10, "\xa0" * 10])
big = st.sampled_from(["x" * 10240, "🧩" * 5120, "<b>" * 3414, "9" * 10240, "ab " * 3414,
                       "\u202e" * 10240, "e\u0301" * 5120, "-" + "1" * 10239])
token = st.one_of(huge, times, markup, fixed_unicode, any_unicode, controls, spaces, big,
                  st.just(""))
garbage = st.lists(token, max_size=4).map(" ".join)
# an entry number then garbage, to get past the first argument
after_number = st.tuples(st.sampled_from(["3", "20", "50", "#3", "999", "0"]),
                         garbage).map(" ".join)
arguments = st.one_of(garbage, after_number)


@dataclass
class Live:
    """One Harness for a whole Hypothesis run, on a loop of its own (the test is synchronous
    because Hypothesis drives it)."""

    loop: asyncio.AbstractEventLoop
    day: Day

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    loop = asyncio.new_event_loop()
    try:
        day = loop.run_until_complete(open_day(tmp_path))
        yield Live(loop, day)
        loop.run_until_complete(day.h.stop())
    finally:
        loop.close()


def check_answer(live: Live, who: Person, text: str, role: str, name: str,
                 other_bot: bool = False) -> None:
    d = live.day
    events_before = event_count(d.h.db_path)
    errors_before = len(d.errors)
    calls = live.run(d.h.send(who, text, at(FUZZ_CLOCK)))
    what = f"{role} sent {text[:200]!r}"
    assert d.errors[errors_before:] == [], what
    for c in calls:
        assert "parse_mode" not in c.params, what
        if c.method == "sendMessage":
            assert 1 <= len(c.text) <= 4096, what
            assert GENERIC_ERROR not in c.text, what
    answers = [c for c in calls if c.method in REPLY_METHODS and c.chat_id == who.id]
    if other_bot:  # a command for another bot in the chat: not ours, nothing to do
        assert not calls, what
    else:
        assert answers, what
    if other_bot or not could_record(role, name, text):
        assert event_count(d.h.db_path) == events_before, what
    else:
        FUZZ_STATS["event_check_skipped"] += 1
        FUZZ_STATS["valid_and_recorded"] += event_count(d.h.db_path) > events_before


FUZZ_CASES = [pytest.param(role, family, id=f"{role}-{family}")
              for role in FUZZ_PEOPLE for family in FAMILIES]


@pytest.mark.parametrize(("role", "family"), FUZZ_CASES)
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.large_base_example])
@given(data=st.data())
def test_hostile_arguments_get_an_answer_and_record_nothing(live: Live, role: str,
                                                            family: str, data: Any) -> None:
    name = data.draw(st.sampled_from(FAMILIES[family]), label="command")
    args = data.draw(arguments, label="arguments")
    address = data.draw(st.sampled_from(["", "", "", "@puzzle_test_bot", "@other_bot"]),
                        label="address")
    lang = data.draw(st.sampled_from(["es", "fr", "en", "pt-BR"]), label="language")
    text = f"/{name}{address} {args}"
    base = FUZZ_PEOPLE[role]
    FUZZ_STATS["examples"] += 1
    check_answer(live, Person(base.id, base.name, lang), text, role, name,
                 other_bot=address == "@other_bot")


# a fixed corpus through every command and every role, so none is left to chance
CORPUS = ["", str(10**30), str(-(10**30)), "-1:00:00", "🧩\u200d👩 \u202eمرحبا e\u0301",
          "<b>x</b> *y* _z_ `w` [x](y) &amp;", " " * 200 + "\n" * 20, "\x01\x02\x1b[31m\x7f",
          "x" * 10240, "3 -1:00:00", "3 " + "9" * 40, "#3 <b>", "999999999 1:00:00"]


@pytest.mark.parametrize("role", list(FUZZ_PEOPLE))
def test_every_command_answers_a_hostile_corpus(live: Live, role: str) -> None:
    for cmd in COMMANDS:
        for args in CORPUS:
            FUZZ_STATS["corpus"] += 1
            check_answer(live, FUZZ_PEOPLE[role], f"/{cmd.name} {args}", role, cmd.name)
    # the /start payloads: garbage, a garbled join code, and a used invitation
    d = live.day
    for payload in ["v", "e", "v" * 64, "e" * 64, d.codes[3][:-1], "v" + d.codes[3][1:]]:
        FUZZ_STATS["corpus"] += 1
        check_answer(live, FUZZ_PEOPLE[role], f"/start {payload}", role, "start")


# button data can be forged by a modified client (Telegram: "the message originated the query
# can contain no callback buttons with this data")
HANDLED_PREFIXES = ("ask:", "lang:", "baja:", "reg:")


def callback_could_record(role: str, data: str) -> bool:
    parts = data.split(":")
    if role != "participant" or len(parts) < 3:
        return False
    return data.startswith(("ask:", "baja:")) and is_int(parts[2]) and int(parts[2]) == 3


def button_handled(h: Harness, data: str) -> bool:
    """Whether one of the app's button handlers takes ``data`` (a random string may start with
    a real button's prefix, as "st:": it is answered, and then refused or ignored)."""
    return any(isinstance(handler, CallbackQueryHandler) and handler.check_update(
        Update(0, callback_query=CallbackQuery("0", User(1, "x", False), "0", data=data)))
        for group in h.app.handlers.values() for handler in group)


stamp = st.integers(min_value=-(10**12), max_value=10**12).map(str)
callback_data = st.one_of(
    st.builds("{}{}".format, st.sampled_from(HANDLED_PREFIXES), any_unicode | markup | huge),
    st.builds("ask:{}:{}:{}:{}".format, st.sampled_from(["h", "s", "x", ""]),
              st.sampled_from(["3", "20", "999", "-1", "x"]), st.integers(-5, 10), stamp),
    st.builds("baja:{}:{}:{}".format, st.sampled_from(["y", "n", "", "yes"]),
              st.sampled_from(["3", "20", "999", "-1"]), stamp),
    st.builds("lang:{}".format, st.sampled_from(["es", "fr", "en", "", "xx", "es:fr"])),
    st.sampled_from(["reg:ok", "reg:no", "reg:cat:parejas", "reg:q:0:y", "reg:ma:3", "zzz",
                     "reg:meal:no", "reg:meal:add", "reg:sw:infantil-c", "reg:sw:", "ask",
                     "lang", ":"]),
    any_unicode,
).filter(lambda d: 1 <= len(d.encode()) <= 64)


@pytest.mark.parametrize("role", list(FUZZ_PEOPLE))
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=callback_data)
def test_forged_button_data_is_answered_and_records_nothing(live: Live, role: str,
                                                           data: str) -> None:
    FUZZ_STATS["callbacks"] += 1
    d = live.day
    who = FUZZ_PEOPLE[role]
    events_before = event_count(d.h.db_path)
    errors_before = len(d.errors)
    calls = live.run(d.h.press(who, data, at(FUZZ_CLOCK)))
    assert d.errors[errors_before:] == [], data
    for c in calls:
        assert "parse_mode" not in c.params
        assert GENERIC_ERROR not in c.text
    if data.startswith(HANDLED_PREFIXES):
        assert [c for c in calls if c.method == "answerCallbackQuery"], data
    elif not button_handled(d.h, data):
        # no handler for it: nothing happens (documented: the phone's spinner times out)
        assert not calls, data
    if not callback_could_record(role, data):
        assert event_count(d.h.db_path) == events_before, data


@pytest.fixture(scope="module", autouse=True)
def _report_fuzz_stats() -> Iterator[None]:
    yield
    print(f"\ntest_hostile fuzz: {FUZZ_STATS}")


# -- known bugs found by the fuzzers, each shown on its own -------------------------------------


NON_DECIMAL = [  # (who, message): superscript and circled digits pass str.isdigit()
    (P3, "/pista ²"), (P3, "/billetes ²"), (P3, "/listo ①"), (P3, "/baja ³"),
    (VOLUNTEER, "/fin ²"), (VOLUNTEER, "/escape ² 0:20:00"), (VOLUNTEER, "/etapa 3 ²"),
    (VOLUNTEER, "/piezas ① 10"), (VOLUNTEER, "/historial ²"), (ORGANISER, "/pagado ²"),
]


@pytest.mark.parametrize(("who", "text"), NON_DECIMAL, ids=[t for _, t in NON_DECIMAL])
async def test_non_decimal_digits_get_a_usage_reply(day_factory: Any, who: Person,
                                                    text: str) -> None:
    d: Day = await day_factory()
    before = event_count(d.h.db_path)
    calls = await d.send(who, text, "0:45:00")
    assert not d.errors, d.errors
    assert_one_reason(calls, who)
    assert event_count(d.h.db_path) == before


# -- numbers: one policy for every number and time (bot/domain/numbers.py) --------------------

# (who, as typed with ASCII digits, the same with digits of another script): the same answer,
# the same record
OTHER_DIGITS = [
    (VOLUNTEER, "/piezas 50 457", "/piezas ٥٠ ٤٥٧"),  # Arabic-Indic
    (VOLUNTEER, "/piezas 50 457", "/piezas ５０ ４５７"),  # full-width
    (VOLUNTEER, "/fin 50 2:59:00", "/fin ۵۰ ۲:۵۹:۰۰"),  # Persian
    (VOLUNTEER, "/etapa 3 2", "/etapa ३ २"),  # Devanagari
    (P3, "/pista 3 1", "/pista #٣ ١"),
    (P3, "/billetes 3", "/billetes ３"),
    (ORGANISER, "/historial 50", "/historial #５０"),
]


@pytest.mark.parametrize(("who", "ascii", "other"), OTHER_DIGITS,
                         ids=[o for _, _, o in OTHER_DIGITS])
async def test_digits_of_any_script_read_the_same_everywhere(day_factory: Any, who: Person,
                                                            ascii: str, other: str) -> None:
    """Issue 14: Arabic-Indic and full-width digits were read in /piezas and /fin but not in
    entry numbers. Now every number and time reads them, the same as 0-9."""
    results = []
    for text in (ascii, other):
        d: Day = await day_factory()
        if text.startswith("/fin"):
            await d.send(VOLUNTEER, "/piezas 50 0", "2:50:00")  # nothing else in the way
        answer = replies_to(await d.send(who, text, "3:05:00"), who)
        with closing(sqlite3.connect(d.h.db_path)) as conn:
            rows = conn.execute("SELECT kind, entry, stage, value FROM events WHERE id > "
                                "(SELECT MAX(id) - 1 FROM events)").fetchall()
        results.append((answer, rows))
    assert results[0] == results[1]
    assert "Usage" not in results[0][0][0]


# not numbers: a sign, an underscore, a space or dot inside, superscripts, a fraction
NOT_NUMBERS = [
    (VOLUNTEER, "/piezas 50 4_5_7"), (VOLUNTEER, "/piezas 50 +458"), (VOLUNTEER, "/piezas 50 --3"),
    (VOLUNTEER, "/piezas +50 10"), (VOLUNTEER, "/piezas 50 4.5"), (VOLUNTEER, "/etapa 3 +2"),
    (VOLUNTEER, "/etapa 3_0 2"), (VOLUNTEER, "/fin 5_0"), (VOLUNTEER, "/fin +50"),
    (P3, "/pista 3 +1"), (P3, "/pista 3 ½"), (ORGANISER, "/pagado -3"),
]


@pytest.mark.parametrize(("who", "text"), NOT_NUMBERS, ids=[t for _, t in NOT_NUMBERS])
async def test_what_is_not_a_number_gets_the_usage_and_changes_nothing(
        day_factory: Any, who: Person, text: str) -> None:
    d: Day = await day_factory()
    before = d.snapshot()
    answer = assert_one_reason(await d.send(who, text, "0:45:00"), who)
    assert "Usage" in answer or "You don't follow entry" in answer, answer
    assert d.snapshot() == before


async def test_pagado_reads_dates_by_the_same_policy(day_factory: Any) -> None:
    """A date in another script reads as in 0-9; a date near year 1 (which crashed in a time
    zone east of UTC) or before 1900 is refused with the usual answer, recording nothing."""
    d: Day = await day_factory()
    before = event_count(d.h.db_path)
    for text in ("/pagado 3 01/01/0001", "/pagado 3 1899-12-31"):
        answer = assert_one_reason(await d.send(ORGANISER, text, "0:45:00"), ORGANISER)
        assert answer.startswith("I can't use the date"), answer
    assert event_count(d.h.db_path) == before and not d.errors
    answer = assert_one_reason(await d.send(ORGANISER, "/pagado 3 ٢٠٢٣-٠٤-٠١", "0:45:00"),
                               ORGANISER)
    assert "Payment of entry #3 recorded on April 1, 2023" in answer, answer


async def test_a_time_with_a_sign_or_other_characters_is_not_a_time(day_factory: Any) -> None:
    d: Day = await day_factory()
    before = event_count(d.h.db_path)
    for typed in ("+1:00:00", "1:0٠:00x", "1:00:00.5", "¹:00:00"):
        answer = assert_one_reason(await d.send(VOLUNTEER, f"/fin 50 {typed}", "2:00:00"),
                                   VOLUNTEER)
        assert "h:mm:ss" in answer, (typed, answer)
    assert event_count(d.h.db_path) == before


@pytest.mark.parametrize("who", [STRANGER, P3, ORGANISER], ids=["stranger", "participant",
                                                                 "organiser"])
async def test_cancelar_outside_a_registration_gets_an_answer(day_factory: Any,
                                                              who: Person) -> None:
    d: Day = await day_factory()
    for alias in names_for("cancelar"):
        assert replies_to(await d.send(who, f"/{alias}", "0:45:00"), who), alias


FAR_STAMP = str(10**17)
# The stamp part of a button's data is ignored now (the bot takes Telegram's date of the
# message carrying the button), so "baja:y:3:<far>" and "ask:h:3:2:<far>" are ordinary taps.
MALFORMED_BUTTONS = ["baja:y:3", "baja:y:x:1", "baja:y:3:1:2", "baja:", "ask:h:3:2",
                     "ask:h:x:2:1", f"ask:s:3:2:-{FAR_STAMP}:9",
                     # "#3" reads as 3 (parse_int); it once reached int() and crashed
                     "baja:n:#3:1"]


@pytest.mark.parametrize("data", MALFORMED_BUTTONS)
async def test_malformed_button_data_is_answered_without_an_error(day_factory: Any,
                                                                  data: str) -> None:
    d: Day = await day_factory()
    before = event_count(d.h.db_path)
    calls = await d.h.press(P3, data, at("0:45:00"))
    assert [c.method for c in calls][:1] == ["answerCallbackQuery"]
    assert not d.errors, d.errors
    assert not [c for c in calls if GENERIC_ERROR in c.text]
    assert event_count(d.h.db_path) == before


@pytest.mark.parametrize("data", ["ask:h:#3:1:1", "ask:h:3:#1:1"])
async def test_a_hash_mark_in_button_data_reads_as_the_number(day_factory: Any,
                                                             data: str) -> None:
    """The numbers in button data follow the one policy ("#3" is 3); they once passed the check
    and then crashed int()."""
    d: Day = await day_factory()
    calls = await d.h.press(P3, data, at("0:45:00"))
    assert not d.errors and not [c for c in calls if GENERIC_ERROR in c.text]
    assert any("Hint for stage 1 (#3)" in t for t in replies_to(calls, P3))


async def test_a_forged_hint_button_cannot_backdate_a_request(day_factory: Any) -> None:
    d: Day = await day_factory()
    forged = f"ask:h:3:3:{int(at('0:20:00').timestamp())}"
    calls = await d.h.press(P3, forged, at("1:45:00"))  # the escape ended at 1:30:00
    assert not [t for t in replies_to(calls, P3) if "Hint for stage 3" in t]
    with closing(sqlite3.connect(d.h.db_path)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM events WHERE kind = 'hint'").fetchone() == (0,)


def stage_buttons(h: Harness, calls: Sequence[Call]) -> dict[str, str]:
    return {text: data for text, data in h.buttons(calls) if data.startswith("ask:")}


async def test_saved_up_keyboards_cannot_beat_the_five_minute_rule(day_factory: Any) -> None:
    """Issue 14: three keyboards shown at 0:20, 0:25 and 0:30 and pressed together at 0:31
    were charged three times, stamped 0:20, 0:25 and 0:30. A press is no earlier than the newest
    message Telegram delivered before it (the /pista of 0:30): one charge, the others wait."""
    d: Day = await day_factory()
    kb1 = stage_buttons(d.h, await d.send(P3, "/pista", "0:20:00"))
    kb2 = stage_buttons(d.h, await d.send(P3, "/solucion", "0:25:00"))
    kb3 = stage_buttons(d.h, await d.send(P3, "/pista", "0:30:00"))
    answers = []
    for keyboard, shown in ((kb1, "0:20:00"), (kb2, "0:25:00"), (kb3, "0:30:00")):
        data = keyboard["Stage 1"] if keyboard is not kb3 else keyboard["Stage 2"]
        answers += replies_to(await d.h.press(P3, data, at(shown)), P3)
    with closing(sqlite3.connect(d.h.db_path)) as conn:
        charged = conn.execute("SELECT kind, at FROM events WHERE kind IN ('hint', 'solution') "
                               "ORDER BY id").fetchall()
    assert charged == [("hint", int(at("0:30:00").timestamp()))], charged
    assert sum("Hint for stage 1" in a for a in answers) == 1, answers
    assert sum("0:35:00" in a or "10:35" in a for a in answers) == 2, answers


async def test_a_keyboard_pressed_at_once_keeps_the_moment_it_was_shown(
        day_factory: Any) -> None:
    """Only the entry's own people move a press: asked at 0:20 (buttons shown then), another
    pair writes at 0:40 before the press arrives, the press still counts at 0:20."""
    d: Day = await day_factory()
    keyboard = stage_buttons(d.h, await d.send(P3, "/pista", "0:20:00"))
    await d.send(P20, "/billetes", "0:40:00")
    await d.h.press(P3, keyboard["Stage 1"], at("0:20:00"))
    with closing(sqlite3.connect(d.h.db_path)) as conn:
        charged = conn.execute("SELECT kind, at FROM events WHERE kind = 'hint'").fetchall()
    assert charged == [("hint", int(at("0:20:00").timestamp()))]


async def test_a_forged_withdrawal_button_cannot_backdate_into_the_refund_period(
        day_factory: Any) -> None:
    # registered in March: confirmed places (an import without a date is registered "now")
    dated = CSV.replace("resident\n", "resident,registered_at\n").replace(
        "no; no\n", "no; no,2023-03-01T10:00:00\n")
    assert dated.count("2023-03-01") == 2
    d: Day = await day_factory(csv_data=dated)
    honest = replies_to(await d.send(P20, "/baja", "1:50:00"), P20)
    assert "Withdraw entry #20" in honest[0]
    press = replies_to(await d.h.press(P20, f"baja:y:20:{int(at('1:50:00').timestamp())}",
                                       at("1:50:00")), P20)
    assert "not refunded" in press[0]  # the honest answer on the day
    april = int(datetime(2023, 4, 1, 12, 0, tzinfo=MADRID).timestamp())
    forged = replies_to(await d.h.press(P3, f"baja:y:3:{april}", at("1:50:00")), P3)
    assert "not refunded" in forged[0], forged


async def test_exportar_sends_its_files_when_an_imported_name_held_control_characters(
        day_factory: Any) -> None:
    """Issue 14: a vertical tab in an imported name made openpyxl refuse the workbook and the
    organiser got "something went wrong". Names are cleaned when stored; the files go out."""
    rows = [{"number": "60", "category": "adultos", "names": "Eva\x0bMar\x00ía",
             "born": "1980"}]
    d: Day = await day_factory(csv_data=csv_text(rows), people=())
    calls = await d.send(ORGANISER, "/exportar", "2:00:00")
    documents = [c for c in calls if c.method == "sendDocument"]
    assert len(documents) == 3, [c.method for c in calls]
    assert not [c for c in calls if GENERIC_ERROR in c.text] and not d.errors
    entries = next(c for c in documents if b"join_code" in c.params["document"]["bytes"])
    assert "Eva Mar ía" in entries.params["document"]["bytes"].decode()


# -- 4. names never break formatting ------------------------------------------------------------

HOSTILE_NAMES = {
    3: ["<b>Ana</b>", "*bold* Bea"],
    20: ["_x_ Gil", "[a](http://x)"],
    50: ["`code` Luis"],
    51: ["🧩 Zoe\u0308 👩‍👩‍👧"],
    52: ["مريم \u202eevil"],
    53: ["שרה &gt {entry} %s <i> AT&T"],  # ";" would split the CSV cell into members
}
P_NAME = Person(103, "[Ana](tg://user?id=1) <b>🧩</b>", "en")  # Telegram names are hostile too
V_NAME = Person(2, "<i>Vic</i> *v* _x_ `y` \u202eתו", "en")


async def test_hostile_names_come_back_verbatim_and_nothing_asks_for_markup(
        day_factory: Any) -> None:
    rows = [{"number": str(n), "category": "parejas" if len(ns) == 2 else "adultos",
             "names": "; ".join(ns), "born": "; ".join(["1980"] * len(ns))}
            for n, ns in HOSTILE_NAMES.items()]
    d: Day = await day_factory(csv_data=csv_text(rows), people=((P_NAME, 3),),
                               volunteer=V_NAME)
    for n, ns in HOSTILE_NAMES.items():
        assert tuple(ns) == (await d.h.services.store.entry(n)).names
    linked = replies_to(await d.link(PARENT, 3, "0:01:00"), PARENT)[0]
    assert "(<b>Ana</b> / *bold* Bea)" in linked
    assert "#3 <b>Ana</b> / *bold* Bea" in replies_to(await d.send(P_NAME, "/ayuda", "0:02:00"),
                                                  P_NAME)[0]
    # the staff line of a hint carries the names
    calls = await d.send(P_NAME, "/pista 2", "0:10:00")
    assert any("#3 <b>Ana</b> / *bold* Bea: hint stage 2" in t for t in replies_to(calls, V_NAME))
    billetes = replies_to(await d.send(P_NAME, "/billetes", "0:12:00"), P_NAME)
    assert billetes[0].startswith("Entry 3: 10 tickets left")  # /billetes names no one
    for text, clock in (("/escape 3 0:25:00", "0:25:30"), ("/fin 3 1:40:00", "1:41:00"),
                        ("/piezas 20 312", "3:00:30"), ("/fin 50 2:00:00", "2:01:00"),
                        ("/fin 51 2:10:00", "2:11:00"), ("/piezas 52 100", "2:31:00")):
        assert replies_to(await d.send(V_NAME, text, clock), V_NAME)
    ranking = "\n".join(replies_to(await d.send(ORGANISER, "/clasificacion", "3:05:00"),
                                   ORGANISER))
    for n, ns in HOSTILE_NAMES.items():
        assert f"#{n} {' / '.join(ns)}" in ranking, (n, ranking)
    assert "1. #3 <b>Ana</b> / *bold* Bea: " in ranking
    assert "1. #50 `code` Luis: 2:00:00" in ranking
    history = "\n".join(replies_to(await d.send(V_NAME, "/historial 3", "3:06:00"), V_NAME))
    assert f"{P_NAME.name} (participant): linked a phone" in history
    assert f"{V_NAME.name} (volunteer): escape solved 0:25:00" in history
    assert f"{P_NAME.name} (participant): hint stage 2" in history
    mine = replies_to(await d.send(PARENT, "/mis_inscripciones", "3:07:00"), PARENT)[0]
    assert "<b>Ana</b> / *bold* Bea" in mine
    # no call at all asked Telegram to parse markup or carried entities of ours
    assert d.h.request.calls
    for c in d.h.request.calls:
        assert "parse_mode" not in c.params, (c.method, c.params)
        assert "entities" not in c.params and "caption_entities" not in c.params
    assert not d.errors


async def test_a_hostile_announcement_goes_out_verbatim_without_markup(
        day_factory: Any) -> None:
    if "anuncio" not in BY_NAME:
        pytest.skip("no /anuncio in this version")
    d: Day = await day_factory()
    text = "<b>Comida</b> *14:00* _ya_ [x](http://y) `z` &amp; 🧩 \u202eמזון"
    preview = await d.send(ORGANISER, f"/anuncio {text}", "1:00:00")
    assert text in replies_to(preview, ORGANISER)[0]
    (send, _cancel) = d.h.buttons(preview)
    calls = await d.h.press(ORGANISER, send[1], at("1:00:10"))
    for who in (P3, P20, P50):
        assert any(text in t for t in replies_to(calls, who)), who
    assert all("parse_mode" not in c.params for c in preview + calls)
    assert not d.errors
