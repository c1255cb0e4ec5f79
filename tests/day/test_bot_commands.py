"""Every command through the real Application: who may use it, wrong inputs, happy paths, menus,
aliases, a parent following two entries, and two phones of one pair asking at the same moment.

People who get text checks write in English (``Person(..., "en")``): English texts are the msgids,
so the fragments matched here survive the Spanish and French translations. The events table is
read with the stdlib ``sqlite3`` module from the bot's own file (the people table may change when
someone writes to the bot, so it is ignored).
"""

from __future__ import annotations

import asyncio
import io
import re
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.services.csvio import import_entries, read_entries
from tests.conftest import CASTRILLO
from tests.fakebot import Call, Harness, Person, texts

MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2023, 4, 22, 11, 0, 0, tzinfo=MADRID)  # the organiser's /inicio

ORGANISER = Person(1, "Olga", "en")
VOLUNTEER = Person(2, "Victor", "en")
STRANGER = Person(500, "Sam", "en")  # never linked to anything
P3 = Person(103, "Ana", "en")  # pair 3
P3B = Person(203, "Bea", "en")  # pair 3's second phone (linked only where a test says so)
P20 = Person(120, "Gil", "en")  # pair 20
P50 = Person(150, "Luis", "en")  # adult individual 50 (500 pieces, limit 2:30:00)
PARENT = Person(300, "Pat", "en")  # follows two entries (linked only where a test says so)

CSV = """number,category,names,born,aepuzz_member,resident
3,parejas,Ana; Bea,1980; 1985,no; no,no; no
20,parejas,Gil; Hugo,1970; 1972,no; no,no; no
50,adultos,Luis,1970,no,no
30,infantil-a,Nico,2018,no,no
31,infantil-b,Olivia,2015,no,no
"""

GENERIC_ERROR = "Something went wrong"


# -- setup helpers ------------------------------------------------------------------------------


def at(clock: str) -> datetime:
    """A real instant from contest time h:mm:ss since T0 (no pause); "-h:mm:ss" is before T0."""
    sign = -1 if clock.startswith("-") else 1
    h, m, s = (int(x) for x in clock.lstrip("-").split(":"))
    return T0 + sign * timedelta(hours=h, minutes=m, seconds=s)


def wall(clock: str) -> str:
    """The hall's wall clock (Madrid) at contest time ``clock``."""
    return at(clock).strftime("%H:%M:%S")


def events(h: Harness) -> list[tuple[Any, ...]]:
    """Every row of the events table, read straight from the SQLite file."""
    with closing(sqlite3.connect(h.db_path)) as conn:
        return conn.execute("SELECT * FROM events ORDER BY id").fetchall()


def event_rows(h: Harness, kind: str) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(h.db_path)) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute("SELECT * FROM events WHERE kind = ? ORDER BY id", (kind,)).fetchall()


def replies_to(calls: Sequence[Call], who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


def menu_calls(calls: Sequence[Call], who: Person) -> dict[str | None, list[str]]:
    """The commands of each setMyCommands call scoped to ``who``'s chat, by language_code."""
    out: dict[str | None, list[str]] = {}
    for c in calls:
        if c.method != "setMyCommands":
            continue
        if c.params.get("scope") != {"type": "chat", "chat_id": who.id}:
            continue
        out[c.params.get("language_code")] = [cmd["command"] for cmd in c.params["commands"]]
    return out


Step = tuple[Person | None, str, str]  # (who, text, contest time); None: the person under test


@dataclass
class Day:
    h: Harness
    codes: dict[int, str]  # entry number -> join code

    async def send(self, who: Person, text: str, clock: str) -> list[Call]:
        return await self.h.send(who, text, at(clock))

    async def say(self, who: Person, text: str, clock: str) -> list[str]:
        """The messages the bot sends back to ``who`` for this one message."""
        return replies_to(await self.send(who, text, clock), who)

    async def link(self, who: Person, number: int, clock: str = "-1:00:00") -> list[Call]:
        return await self.send(who, f"/start {self.codes[number]}", clock)

    async def run(self, steps: Sequence[Step], me: Person) -> None:
        for who, text, clock in steps:
            await self.send(who or me, text, clock)


async def open_day(tmp_path: Any, clock: bool = True) -> Day:
    """Castrillo with pairs 3 and 20, adult 50, kids 30 and 31 imported; pair 3, pair 20 and
    adult 50 linked (one phone each); the organiser and one volunteer in place; with ``clock``,
    every category's clock started at T0."""
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({ORGANISER.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(CSV), "entries.csv"))
    codes = {e.number: e.join_code for e in await svc.store.entries()}
    day = Day(h, codes)
    for person, number in ((P3, 3), (P20, 20), (P50, 50)):
        await day.link(person, number)
    await day.send(ORGANISER, "/start", "-2:00:00")
    link = texts(await day.send(ORGANISER, "/voluntario", "-2:00:00"))[0].split()[-1]
    await day.send(VOLUNTEER, f"/start {link.split('start=')[1]}", "-2:00:00")
    if clock:
        await day.send(ORGANISER, "/inicio", "0:00:00")
    return day


@pytest.fixture
async def day(tmp_path):
    d = await open_day(tmp_path)
    yield d
    await d.h.stop()


@pytest.fixture
async def day_factory(tmp_path):
    opened: list[Day] = []

    async def _open(clock: bool = True) -> Day:
        d = await open_day(tmp_path, clock=clock)
        opened.append(d)
        return d

    yield _open
    for d in opened:
        await d.h.stop()


def assert_one_clear_reply(calls: Sequence[Call], who: Person) -> str:
    """Exactly one message, to that person, and not the generic error."""
    sent = [c for c in calls if c.method == "sendMessage"]
    assert [c.chat_id for c in sent] == [who.id], [c.text for c in sent]
    text = sent[0].text
    assert GENERIC_ERROR not in text
    assert text.strip()
    return text


# -- 1. role matrix -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Cmd:
    """A command as the person it is for would send it, at a moment it would succeed."""

    name: str
    role: str  # the least role that may use it
    text: str
    clock: str
    before: tuple[Step, ...] = ()
    start_clock: bool = True
    new_kind: str | None = None  # the event it records when allowed
    reply_has: str = ""  # a fragment of the reply when allowed


ESCAPE_3 = ((VOLUNTEER, "/escape 3 0:25:00", "0:25:00"),)

COMMANDS = [
    Cmd("pista", "participant", "/pista 3 2", "0:10:00", new_kind="hint",
        reply_has="Hint for stage 2 (#3)"),
    Cmd("solucion", "participant", "/solucion 3 2", "0:20:00",
        before=((P3, "/pista 2", "0:10:00"),), new_kind="solution",
        reply_has="Solution for stage 2 (#3)"),
    Cmd("billetes", "participant", "/billetes 3", "0:20:00",
        reply_has="Entry 3: 11 tickets left, stage 1."),
    Cmd("listo", "participant", "/listo 3", "1:40:00", before=ESCAPE_3, new_kind="ready",
        reply_has="finished at 1:40:00"),
    Cmd("etapa", "volunteer", "/etapa 3 2", "0:30:00", new_kind="stage",
        reply_has="Entry 3 confirmed in stage 2 at 0:30:00 on the contest clock"),
    Cmd("escape", "volunteer", "/escape 3", "0:25:00", new_kind="escape",
        reply_has="Entry 3 solved the escape at 0:25:00"),
    Cmd("fin", "volunteer", "/fin 3 1:45:00", "1:46:00", before=ESCAPE_3, new_kind="finish",
        reply_has="Entry 3 finished at 1:45:00"),
    Cmd("piezas", "volunteer", "/piezas 3 120", "1:00:00", new_kind="pieces",
        reply_has="Entry 3: 120 pieces"),
    # asks first (its button takes it back: tests/results/test_undo_asks.py)
    Cmd("deshacer", "volunteer", "/deshacer", "1:05:00",
        before=((None, "/piezas 3 120", "1:00:00"),),
        reply_has="Take back your last record: pieces #3, recorded at"),
    Cmd("historial", "volunteer", "/historial 3", "1:00:00", reply_has="History of entry 3"),
    Cmd("inicio", "organiser", "/inicio", "0:00:00", start_clock=False, new_kind="clock_start",
        reply_has="Clock started for: Infantil A"),
    Cmd("pausa", "organiser", "/pausa", "1:00:00", new_kind="pause", reply_has="Break"),
    Cmd("reanudar", "organiser", "/reanudar", "1:10:00",
        before=((ORGANISER, "/pausa", "1:00:00"),), new_kind="resume",
        reply_has="The clocks run again"),
    Cmd("clasificacion", "organiser", "/clasificacion", "1:00:00",
        reply_has="Adultos parejas - ranking"),
    Cmd("voluntario", "organiser", "/voluntario", "1:00:00", new_kind="volunteer_invite",
        reply_has="?start=v"),
    Cmd("organizador", "organiser", "/organizador", "1:00:00", new_kind="organiser_invite",
        reply_has="?start=o"),
]
BY_NAME = {c.name: c for c in COMMANDS}
AUTHORISED = {"participant": P3, "volunteer": VOLUNTEER, "organiser": ORGANISER}

# Who may NOT use each kind of command. "other-entry" is pair 20's phone naming entry 3.
FORBIDDEN = {
    "participant": ("stranger", "other-entry", "volunteer", "organiser"),
    "volunteer": ("stranger", "participant"),
    "organiser": ("stranger", "participant", "volunteer"),
}
ROLE_PEOPLE = {"stranger": STRANGER, "participant": P3, "other-entry": P20,
               "volunteer": VOLUNTEER, "organiser": ORGANISER}
REASONS = {  # the refusal each kind of command gives someone without the role
    "participant": "open your entry's link",
    "volunteer": "This command is for volunteers and organisers.",
    "organiser": "This command is for organisers.",
}

KNOWN_BUGS: dict[tuple[str, str], str] = {}


def _matrix() -> list[Any]:
    params = []
    for cmd in COMMANDS:
        for role in FORBIDDEN[cmd.role]:
            bug = KNOWN_BUGS.get((cmd.name, role))
            marks = [pytest.mark.xfail(strict=True, reason=bug)] if bug else []
            params.append(pytest.param(cmd, role, id=f"{cmd.name}-by-{role}", marks=marks))
    return params


ROLE_MATRIX = _matrix()


@pytest.mark.parametrize(("cmd", "role"), ROLE_MATRIX)
async def test_role_matrix_refuses_with_a_reason_and_records_nothing(day_factory, cmd, role):
    d = await day_factory(clock=cmd.start_clock)
    await d.run(cmd.before, AUTHORISED[cmd.role])
    who = ROLE_PEOPLE[role]
    before = events(d.h)
    calls = await d.send(who, cmd.text, cmd.clock)
    text = assert_one_clear_reply(calls, who)
    assert events(d.h) == before
    if role == "other-entry":
        # pair 20 named entry 3: the answer must not be about pair 20's own entry
        # about entry 20 (the phone's own), not about 3: listing "#20" as theirs is fine
        assert not re.search(r"(\(#20\)|[Ee]ntry 20\b)", text), text
        assert "Entry 3:" not in text  # nor give away entry 3's tickets
    elif cmd.name == "clasificacion" and role == "participant":
        # an entry's people read their own category's ranking once it is final
        # (tests/standings/test_publish.py), not before
        assert "is shown here once its results are final" in text
    else:
        assert REASONS[cmd.role] in text


@pytest.mark.parametrize("cmd", COMMANDS, ids=[c.name for c in COMMANDS])
async def test_control_the_least_role_may_use_each_command(day_factory, cmd):
    """The matrix's counterpart: the same message from someone allowed does its job."""
    d = await day_factory(clock=cmd.start_clock)
    me = AUTHORISED[cmd.role]
    await d.run(cmd.before, me)
    before = events(d.h)
    replies = await d.say(me, cmd.text, cmd.clock)
    after = events(d.h)
    assert replies and cmd.reply_has in replies[0]
    if cmd.new_kind is None:
        assert after == before
    else:
        kinds = [row[5] for row in after[len(before):]]
        assert cmd.new_kind in kinds and after[:len(before)] == before


@pytest.mark.parametrize("name", ["etapa", "escape", "fin", "piezas", "deshacer", "historial"])
async def test_organisers_may_use_volunteer_commands(day_factory, name):
    cmd = BY_NAME[name]
    d = await day_factory(clock=cmd.start_clock)
    await d.run(cmd.before, ORGANISER)
    replies = await d.say(ORGANISER, cmd.text, cmd.clock)
    assert replies and cmd.reply_has in replies[0]


# -- 2. wrong inputs ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Wrong:
    id: str
    who: Person
    text: str
    clock: str
    expect: str  # an English fragment of the one reply
    before: tuple[Step, ...] = ()
    start_clock: bool = True
    bug: str = ""  # a known bug: the case is a strict xfail


VOL, ORG = VOLUNTEER, ORGANISER
WRONG_INPUTS = [
    # unknown entry numbers
    Wrong("fin-999", VOL, "/fin 999", "1:00:00", "There is no entry number 999."),
    Wrong("etapa-999", VOL, "/etapa 999 2", "0:30:00", "There is no entry number 999."),
    Wrong("piezas-999", VOL, "/piezas 999 10", "1:00:00", "There is no entry number 999."),
    Wrong("historial-999", VOL, "/historial 999", "1:00:00", "There is no entry number 999."),
    # not numbers
    Wrong("fin-abc", VOL, "/fin abc", "1:00:00", "Usage: /finish N [h:mm:ss]"),
    Wrong("etapa-stage-x", VOL, "/etapa 3 x", "0:30:00", "Usage: /stage N S"),
    Wrong("piezas-lots", VOL, "/piezas 3 lots", "1:00:00", "Usage: /pieces N P"),
    Wrong("escape-abc", VOL, "/escape abc", "0:30:00", "Usage: /escaped N [h:mm:ss]"),
    Wrong("historial-abc", VOL, "/historial abc", "1:00:00", "Usage: /history N"),
    Wrong("pista-stage-x", P3, "/pista x", "0:10:00", "Usage: /hint [stage 1-5]"),
    # missing arguments
    Wrong("etapa-no-stage", VOL, "/etapa 3", "0:30:00", "Usage: /stage N S"),
    Wrong("piezas-no-args", VOL, "/piezas", "1:00:00", "Usage: /pieces N P"),
    Wrong("fin-no-args", VOL, "/fin", "1:00:00", "Usage: /finish N [h:mm:ss]"),
    Wrong("historial-no-args", VOL, "/historial", "1:00:00", "Usage: /history N"),
    # times that can't be read
    Wrong("fin-75-minutes", VOL, "/fin 3 1:75:00", "2:00:00", "I can't read the time \"1:75:00\"",
          before=ESCAPE_3),
    Wrong("fin-letters", VOL, "/fin 3 abc:de", "2:00:00", "I can't read the time \"abc:de\"",
          before=ESCAPE_3),
    Wrong("escape-bad-time", VOL, "/escape 3 0:61:00", "0:30:00", "I can't read the time",),
    # past the category's limit
    Wrong("fin-pair-past-3h", VOL, "/fin 3 3:00:01", "3:00:30",
          "3:00:01 is past the category's time limit (3:00:00)", before=ESCAPE_3),
    Wrong("fin-adult-past-2h30", VOL, "/fin 50 2:30:01", "2:31:00",
          "2:30:01 is past the category's time limit (2:30:00)"),
    Wrong("fin-adult-untimed-past-2h30", VOL, "/fin 50", "2:30:05",
          "2:30:05 is past the category's time limit (2:30:00)"),
    Wrong("fin-later-than-clock", VOL, "/fin 50 1:50:00", "1:40:00",
          "1:50:00 is later than the clock shows now"),
    # pieces out of range
    Wrong("piezas-501", VOL, "/piezas 50 501", "2:31:00", "between 0 and 500"),
    Wrong("piezas-negative", VOL, "/piezas 50 -5", "2:31:00", "between 0 and 500"),
    # stages
    Wrong("etapa-back", VOL, "/etapa 3 2", "0:40:00", "can't go back",
          before=((VOL, "/etapa 3 3", "0:30:00"),)),
    Wrong("etapa-6", VOL, "/etapa 3 6", "0:30:00", "stages go from 1 to 5"),
    Wrong("etapa-adult", VOL, "/etapa 50 2", "0:30:00", "Entry 50 has no escape stage."),
    Wrong("pista-6", P3, "/pista 6", "0:10:00", "Usage: /hint [stage 1-5]"),
    # requests at the wrong moment
    Wrong("pista-before-inicio", P3, "/pista 1", "0:00:00", "has not started yet",
          start_clock=False),
    Wrong("pista-at-1h30", P3, "/pista 1", "1:30:00", "The escape is over"),
    Wrong("pista-after-1h30", P3, "/pista 2", "1:45:00", "The escape is over"),
    Wrong("solucion-without-hint", P3, "/solucion 1", "0:10:00",
          "The solution of stage 1 comes only after its hint."),
    Wrong("pista-passed-stage", P3, "/pista 1", "0:20:00", "you are in stage 3",
          before=((P3, "/pista 3", "0:10:00"),)),
    Wrong("pista-twice", P3, "/pista 2", "0:20:00", "The hint of stage 2 was already given.",
          before=((P3, "/pista 2", "0:10:00"),)),
    Wrong("pista-adult", P50, "/pista 1", "0:10:00", "Your entry has no escape stage."),
    Wrong("fin-escape-not-over", VOL, "/fin 3", "1:00:00",
          "Entry 3 has not finished the escape yet"),
    Wrong("fin-typed-escape-not-over", VOL, "/fin 3 0:50:00", "1:00:00",
          "Entry 3 has not finished the escape yet"),
    Wrong("listo-escape-not-over", P3, "/listo", "1:00:00",
          "Your escape is not over yet"),
    Wrong("escape-before-request", VOL, "/escape 3 0:05:00", "0:20:00",
          "Entry 3 asked for help after that moment, at 0:10:00 on the contest clock",
          before=((P3, "/pista 2", "0:10:00"),)),
    Wrong("fin-before-escape", VOL, "/fin 3 0:20:00", "1:00:00",
          "That is before entry 3 solved the escape (0:25:00)", before=ESCAPE_3),
    Wrong("piezas-after-fin", VOL, "/piezas 50 200", "2:00:00", "Entry 50 has already finished.",
          before=((VOL, "/fin 50 1:50:00", "1:55:00"),)),
    # organisers
    Wrong("inicio-unknown-category", ORG, "/inicio nope", "0:00:00", "Unknown category",
          start_clock=False),
    Wrong("inicio-twice", ORG, "/inicio parejas", "0:05:00", "That clock is already running."),
    Wrong("clasificacion-unknown-category", ORG, "/clasificacion nope", "1:00:00",
          "Unknown category"),
    Wrong("pausa-twice", ORG, "/pausa", "1:01:00", "The clocks are already paused.",
          before=((ORG, "/pausa", "1:00:00"),)),
    Wrong("reanudar-without-pause", ORG, "/reanudar", "1:00:00", "The clocks are not paused."),
    Wrong("deshacer-nothing", VOL, "/deshacer", "1:00:00", "You have nothing to undo."),
    # everyone
    Wrong("idioma-xx", P3, "/idioma xx", "0:10:00", "Languages: es, fr, en, de, it, pt, nl"),
    Wrong("start-bad-join-code", STRANGER, "/start e_nonsense", "-0:30:00",
          "That link is not valid."),
    Wrong("start-bad-invite", STRANGER, "/start vnonsense", "-0:30:00",
          "That link is not valid."),
]


WRONG_PARAMS = [
    pytest.param(w, id=w.id,
                 marks=[pytest.mark.xfail(strict=True, reason=w.bug)] if w.bug else [])
    for w in WRONG_INPUTS
]


@pytest.mark.parametrize("case", WRONG_PARAMS)
async def test_wrong_input_gets_one_clear_reply_and_records_nothing(day_factory, case):
    d = await day_factory(clock=case.start_clock)
    await d.run(case.before, case.who)
    before = events(d.h)
    text = assert_one_clear_reply(await d.send(case.who, case.text, case.clock), case.who)
    assert case.expect in text
    assert events(d.h) == before


async def test_a_volunteer_invite_works_once(day):
    link = (await day.say(ORGANISER, "/voluntario", "0:05:00"))[0].split()[-1]
    code = link.split("start=")[1]
    first, second = Person(600, "Vera", "en"), Person(601, "Vito", "en")
    assert "Welcome, volunteer" in (await day.say(first, f"/start {code}", "0:06:00"))[0]
    before = events(day.h)
    text = assert_one_clear_reply(await day.send(second, f"/start {code}", "0:07:00"), second)
    assert "already used" in text
    assert events(day.h) == before
    assert not (await day.h.services.day.roles(second.id)).volunteer
    # and the second person still can't record anything
    refusal = assert_one_clear_reply(await day.send(second, "/escape 3", "0:25:00"), second)
    assert REASONS["volunteer"] in refusal
    assert events(day.h) == before


# -- 3. happy paths -----------------------------------------------------------------------------


async def test_pista_and_solucion_charge_tickets(day):
    hint = await day.say(P3, "/pista 2", "0:10:00")
    assert "Hint for stage 2 (#3)" in hint[0] and "Tickets left: 10" in hint[0]
    solution = await day.say(P3, "/solucion 2", "0:16:00")
    assert "Solution for stage 2 (#3)" in solution[0] and "Tickets left: 8" in solution[0]
    assert [r["kind"] for r in event_rows(day.h, "hint") + event_rows(day.h, "solution")] == [
        "hint", "solution"]


async def test_billetes_shows_tickets_stage_and_next_request(day):
    await day.send(P3, "/pista 2", "0:10:00")
    report = (await day.say(P3, "/billetes", "0:12:00"))[0]
    assert "Entry 3: 10 tickets left, stage 2." in report
    assert wall("0:15:00") in report  # the cooldown ends 5 minutes after the hint
    later = (await day.say(P3, "/billetes", "0:16:00"))[0]
    assert "You may ask for a hint or a solution now." in later


async def test_listo_then_fin_without_time_takes_the_listo_moment(day):
    await day.send(VOLUNTEER, "/escape 3 0:25:00", "0:25:30")
    ready = await day.say(P3, "/listo", "1:47:30")
    assert "1:47:30" in ready[0]
    calls = await day.send(VOLUNTEER, "/fin 3", "1:49:00")
    reply = replies_to(calls, VOLUNTEER)[0]
    assert "finished at 1:47:30" in reply and "/done" in reply
    assert "1:47:30" in replies_to(calls, P3)[0]  # the pair is told
    (row,) = event_rows(day.h, "finish")
    assert row["value"] is None  # no typed time: derived from the /listo moment
    ranking = (await day.say(ORGANISER, "/clasificacion parejas", "1:50:00"))[0]
    # escape 0:25:00 with 11 tickets (cap 10) -> 0:00:00; puzzle 1:47:30 - 0:25:00 = 1:22:30
    assert "1. #3 Ana / Bea: 1:22:30" in ranking


async def test_fin_correction_supersedes_and_keeps_the_old_value(day):
    await day.send(VOLUNTEER, "/escape 3 0:25:00", "0:25:30")
    await day.send(VOLUNTEER, "/fin 3 1:50:00", "1:51:00")
    fixed = await day.say(VOLUNTEER, "/fin 3 1:48:00", "1:52:00")
    assert "corrected from 1:50:00 to 1:48:00" in fixed[0]
    old, new = event_rows(day.h, "finish")
    assert (old["value"], new["value"], new["supersedes"]) == (6600, 6480, old["id"])
    history = (await day.say(VOLUNTEER, "/historial 3", "1:53:00"))[0].splitlines()
    old_line = next(ln for ln in history if ln.startswith(f"#{old['id']} "))
    new_line = next(ln for ln in history if ln.startswith(f"#{new['id']} "))
    assert "1:50:00" in old_line and "[replaced]" in old_line and "Victor" in old_line
    assert "1:48:00" in new_line and "[replaced]" not in new_line
    assert f"#{old['id']}" in new_line.split(":", 1)[1]  # "(corrects #<old>)"
    # how the result is made up is in the history, not on the ranking's phone-sized line
    assert history[-1] == ("Result: 1:23:00 (escape 0:25:00, bonus -0:25:00, penalty +0:00:00, "
                           "puzzle 1:23:00)")
    ranking = (await day.say(ORGANISER, "/clasificacion parejas", "1:54:00"))[0]
    # 1:48:00 - 0:25:00, provisional: no trophy before the results are final
    assert ranking.startswith("Adultos parejas - ranking (provisional)\n")
    assert "\n1. #3 Ana / Bea: 1:23:00\n" in ranking


async def test_historial_shows_the_time_of_an_untimed_finish(day):
    await day.send(VOLUNTEER, "/escape 3 0:25:00", "0:25:30")
    await day.send(VOLUNTEER, "/fin 3", "1:47:30")
    await day.send(VOLUNTEER, "/fin 3 1:48:00", "1:52:00")
    old, _new = event_rows(day.h, "finish")
    history = (await day.say(VOLUNTEER, "/historial 3", "1:53:00"))[0].splitlines()
    old_line = next(ln for ln in history if ln.startswith(f"#{old['id']} "))
    assert "[replaced]" in old_line
    assert re.search(r"\b1:47:30\b", old_line), old_line


async def test_deshacer_takes_back_the_last_entry_and_the_old_value_returns(day):
    await day.send(VOLUNTEER, "/piezas 20 300", "3:01:00")
    assert "corrected from 300 to 312" in (await day.say(VOLUNTEER, "/piezas 20 312",
                                                          "3:02:00"))[0]
    undone = replies_to(await day.h.undo(VOLUNTEER, at("3:03:00")), VOLUNTEER)
    assert "Taken back: pieces #20" in undone[1]
    ranking = (await day.say(ORGANISER, "/clasificacion parejas", "3:05:00"))[0]
    assert "#20 Gil / Hugo: 300 pieces" in ranking
    history = (await day.say(VOLUNTEER, "/historial 20", "3:06:00"))[0]
    assert re.search(r"pieces 312 .*\[replaced\]", history)
    assert re.search(r"pieces 300(?! .*\[replaced\])", history)
    # a second /deshacer takes back the 300 as well: no result left
    await day.h.undo(VOLUNTEER, at("3:07:00"))
    ranking = (await day.say(ORGANISER, "/clasificacion parejas", "3:08:00"))[0]
    assert "#20 Gil / Hugo: no result yet" in ranking


async def test_deshacer_only_takes_back_ones_own_entries(day):
    other = Person(600, "Vera", "en")
    link = (await day.say(ORGANISER, "/voluntario", "0:05:00"))[0].split()[-1]
    await day.send(other, f"/start {link.split('start=')[1]}", "0:06:00")
    await day.send(VOLUNTEER, "/piezas 20 300", "3:01:00")
    before = events(day.h)
    assert "nothing to undo" in assert_one_clear_reply(
        await day.send(other, "/deshacer", "3:02:00"), other)
    assert events(day.h) == before


async def test_pausa_and_reanudar_shift_contest_time(day):
    assert "Break" in (await day.say(ORGANISER, "/pausa", "1:00:00"))[0]
    assert "run again" in (await day.say(ORGANISER, "/reanudar", "1:10:00"))[0]
    # real time 2:00:00 after the start is contest time 1:50:00
    assert "Entry 50 finished at 1:50:00." in (await day.say(VOLUNTEER, "/fin 50",
                                                              "2:00:00"))[0]
    ranking = (await day.say(ORGANISER, "/clasificacion adultos", "2:01:00"))[0]
    assert "1. #50 Luis: 1:50:00" in ranking


async def test_escape_without_time_uses_the_message_moment(day):
    calls = await day.send(VOLUNTEER, "/escape 3", "0:25:00")
    assert "Entry 3 solved the escape at 0:25:00" in replies_to(calls, VOLUNTEER)[0]
    assert "0:25:00" in replies_to(calls, P3)[0]  # the pair hears it
    (row,) = event_rows(day.h, "escape")
    assert (row["entry"], row["value"]) == (3, 1500)


async def test_escape_correction_keeps_the_old_value(day):
    await day.send(VOLUNTEER, "/escape 3 0:25:00", "0:25:30")
    fixed = await day.say(VOLUNTEER, "/escape 3 0:30:00", "0:40:00")
    assert "corrected from 0:25:00 to 0:30:00" in fixed[0]
    old, new = event_rows(day.h, "escape")
    assert new["supersedes"] == old["id"]
    history = (await day.say(VOLUNTEER, "/historial 3", "0:41:00"))[0]
    assert re.search(r"escape solved 0:25:00 .*\[replaced\]", history)


async def test_etapa_confirms_a_stage(day):
    reply = await day.say(VOLUNTEER, "/etapa 20 4", "1:20:00")
    assert "Entry 20 confirmed in stage 4 at 1:20:00 on the contest clock" in reply[0]
    (row,) = event_rows(day.h, "stage")
    assert (row["entry"], row["stage"], row["role"]) == (20, 4, "volunteer")
    assert "stage 4." in (await day.say(P20, "/billetes", "1:21:00"))[0]


async def test_piezas_records_the_count(day):
    assert "Entry 50: 312 pieces." in (await day.say(VOLUNTEER, "/piezas 50 312",
                                                     "2:31:00"))[0]
    (row,) = event_rows(day.h, "pieces")
    assert (row["entry"], row["value"]) == (50, 312)
    # the top of the range is allowed
    assert "corrected from 312 to 500" in (await day.say(VOLUNTEER, "/piezas 50 500",
                                                         "2:32:00"))[0]


async def test_clasificacion_lists_positions(day):
    await day.send(VOLUNTEER, "/escape 3 0:25:00", "0:25:30")
    await day.send(VOLUNTEER, "/fin 3 1:30:00", "1:30:10")
    await day.send(VOLUNTEER, "/piezas 20 312", "3:00:30")
    await day.send(VOLUNTEER, "/fin 50 2:10:00", "2:10:10")
    text = "\n".join(await day.say(ORGANISER, "/clasificacion", "3:05:00"))
    assert "1. #3 Ana / Bea: 1:05:00" in text
    assert "2. #20 Gil / Hugo: 312 pieces" in text
    assert "1. #50 Luis: 2:10:00" in text


async def test_voluntario_returns_a_deep_link(day):
    link = (await day.say(ORGANISER, "/voluntario", "0:05:00"))[0].split()[-1]
    assert link.startswith("https://t.me/puzzle_test_bot?start=v")
    newest = event_rows(day.h, "volunteer_invite")[-1]  # the setup made one already
    assert link.endswith(newest["ref"])


async def test_inicio_for_one_category(day_factory):
    d = await day_factory(clock=False)
    assert "Clock started for: Adultos parejas." in (await d.say(ORGANISER, "/inicio parejas",
                                                          "0:00:00"))[0]
    assert [r["category"] for r in event_rows(d.h, "clock_start")] == ["parejas"]
    assert "has not started yet" in (await d.say(P50, "/listo", "0:30:00"))[0]


async def test_idioma_and_ayuda(day):
    assert (await day.say(P3, "/idioma en", "0:01:00"))[0]
    with closing(sqlite3.connect(day.h.db_path)) as conn:
        (lang,) = conn.execute("SELECT language FROM people WHERE user_id = ?",
                               (P3.id,)).fetchone()
    assert lang == "en"
    help_text = (await day.say(P3, "/ayuda", "0:02:00"))[0]
    assert "#3 Ana / Bea" in help_text and "/hint" in help_text


# -- 4. menus and aliases -----------------------------------------------------------------------


def deleted_menus(calls: Sequence[Call], who: Person) -> set[str | None]:
    return {c.params.get("language_code") for c in calls if c.method == "deleteMyCommands"
            and c.params.get("scope") == {"type": "chat", "chat_id": who.id}}


async def test_linking_sets_the_participant_menu_in_the_persons_language(day):
    newcomer = P3B  # an English phone
    calls = await day.link(newcomer, 3, "0:01:00")
    menus = menu_calls(calls, newcomer)
    # one list for the chat (per-language lists would win over /idioma), the older ones gone
    assert set(menus) == {None}
    assert "hint" in menus[None] and "done" in menus[None] and "pista" not in menus[None]
    assert not {"fin", "termine", "finish"} & set(menus[None])
    assert deleted_menus(calls, newcomer) == {"es", "fr", "en", "de", "it", "pt", "nl"}
    # /idioma fr: the menu follows the choice, whatever the phone's language
    calls = await day.send(newcomer, "/idioma fr", "0:02:00")
    assert "indice" in menu_calls(calls, newcomer)[None]


async def test_joining_as_volunteer_sets_the_volunteer_menu(day):
    link = (await day.say(ORGANISER, "/voluntario", "0:05:00"))[0].split()[-1]
    newcomer = Person(600, "Vera", "en")
    menus = menu_calls(await day.send(newcomer, f"/start {link.split('start=')[1]}", "0:06:00"),
                       newcomer)
    assert set(menus) == {None}
    assert "finish" in menus[None] and "ranking" not in menus[None]


async def test_the_organiser_menu(day):
    menus = menu_calls(await day.send(ORGANISER, "/start", "0:01:00"), ORGANISER)
    assert "ranking" in menus[None] and "go" in menus[None]


ALIASES = [  # (alias, who, text, clock, before, English fragment of the reply)
    ("indice", P3, "/indice 1", "0:10:00", (), "Hint for stage 1 (#3)"),
    ("hint", P3, "/hint 1", "0:10:00", (), "Hint for stage 1 (#3)"),
    ("billets", P3, "/billets", "0:10:00", (), "Entry 3: 11 tickets left"),
    ("fini", P3, "/fini", "1:40:00", ESCAPE_3, "finished at 1:40:00"),
    ("termine", VOL, "/termine 50", "1:40:00", (), "Entry 50 finished at 1:40:00"),
    ("etape", VOL, "/etape 3 2", "0:30:00", (), "confirmed in stage 2"),
    ("classement", ORG, "/classement", "1:00:00", (), "- ranking"),
    ("benevole", ORG, "/benevole", "1:00:00", (), "?start=v"),
    ("langue", P3, "/langue xx", "1:00:00", (), "Languages: es, fr, en, de, it, pt, nl"),
]


@pytest.mark.parametrize(("alias", "who", "text", "clock", "before", "expect"), ALIASES,
                         ids=[a[0] for a in ALIASES])
async def test_french_and_english_aliases_work(day, alias, who, text, clock, before, expect):
    await day.run(before, who)
    replies = await day.say(who, text, clock)
    assert replies and expect in replies[0] and GENERIC_ERROR not in replies[0]


async def test_indice_records_a_hint_like_pista(day):
    await day.send(P3, "/indice 1", "0:10:00")
    (row,) = event_rows(day.h, "hint")
    assert (row["entry"], row["stage"], row["actor"]) == (3, 1, P3.id)


# -- 5. a parent following two entries ----------------------------------------------------------


async def test_parent_of_two_pairs_names_the_entry(day):
    await day.link(PARENT, 3)
    await day.link(PARENT, 20)
    both = assert_one_clear_reply(await day.send(PARENT, "/billetes", "0:10:00"), PARENT)
    assert "#3" in both and "#20" in both
    assert "Entry 20: 11 tickets left" in (await day.say(PARENT, "/billetes 20", "0:11:00"))[0]
    assert "(#20)" in (await day.say(PARENT, "/pista 20 2", "0:12:00"))[0]
    (hint,) = event_rows(day.h, "hint")
    assert (hint["entry"], hint["stage"]) == (20, 2)
    assert "Entry 20: 10 tickets left, stage 2." in (await day.say(PARENT, "/billetes 20",
                                                                   "0:13:00"))[0]
    assert "Entry 3: 11 tickets left, stage 1." in (await day.say(PARENT, "/billetes 3",
                                                                  "0:14:00"))[0]
    before = events(day.h)
    asked = await day.send(PARENT, "/listo", "1:40:00")
    assert assert_one_clear_reply(asked, PARENT).startswith("Which of your entries")
    assert [label.split()[0] for label, _ in day.h.buttons(asked)] == ["#3", "#20"]
    assert events(day.h) == before
    assert "1:40:00" in (await day.say(PARENT, "/listo 20", "1:40:00"))[0]
    (ready,) = event_rows(day.h, "ready")
    assert (ready["entry"], ready["value"]) == (20, 6000)


async def test_parent_of_two_kids_records_listo_for_the_right_kid(day):
    await day.link(PARENT, 30)
    await day.link(PARENT, 31)
    before = events(day.h)
    asked = await day.send(PARENT, "/listo", "1:20:00")
    assert assert_one_clear_reply(asked, PARENT) == (
        "Which of your entries has finished? Tap it: it counts from now.")
    assert [label.split()[0] for label, _ in day.h.buttons(asked)] == ["#30", "#31"]
    assert events(day.h) == before
    noted = (await day.say(PARENT, "/listo 31", "1:20:00"))[0]
    # issue 47: "has terminado en 0:45:14" did not say which child
    assert noted.startswith("#31 ") and "1:20:00" in noted, noted
    (ready,) = event_rows(day.h, "ready")
    assert (ready["entry"], ready["value"], ready["actor"]) == (31, 4800, PARENT.id)
    # the volunteer's /fin takes that moment, for the right kid
    assert "Entry 31 finished at 1:20:00" in (await day.say(VOLUNTEER, "/fin 31",
                                                             "1:22:00"))[0]
    assert "#31 Olivia: 1:20:00" in (await day.say(ORGANISER, "/clasificacion infantil-b",
                                                    "1:23:00"))[0]
    assert "#30 Nico: no result yet" in (await day.say(ORGANISER, "/clasificacion infantil-a",
                                                       "1:23:00"))[0]


async def test_parent_of_a_pair_and_a_kid_asks_tickets_for_the_kid(day):
    await day.link(PARENT, 3)
    await day.link(PARENT, 30)
    text = assert_one_clear_reply(await day.send(PARENT, "/billetes 30", "0:10:00"), PARENT)
    assert "Entry 3:" not in text


# -- 6. two phones of one pair ------------------------------------------------------------------


async def test_two_phones_same_moment_get_one_hint(day):
    await day.link(P3B, 3)
    first = await day.send(P3, "/pista 2", "0:10:00")
    second = await day.send(P3B, "/pista 2", "0:10:00")  # same message date
    assert "Hint for stage 2 (#3)" in replies_to(first, P3)[0]
    assert any("Hint for stage 2 (#3)" in t for t in replies_to(first, P3B))  # partner hears
    refusal = assert_one_clear_reply(second, P3B)
    assert "The hint of stage 2 was already given." in refusal
    assert len(event_rows(day.h, "hint")) == 1
    assert "Entry 3: 10 tickets left" in (await day.say(P3B, "/billetes", "0:11:00"))[0]


async def test_two_phones_at_once_concurrently_get_one_hint(day):
    await day.link(P3B, 3)
    calls_before = len(day.h.request.calls)
    await asyncio.gather(day.send(P3, "/pista 2", "0:10:00"),
                         day.send(P3B, "/pista 2", "0:10:00"))
    calls = day.h.request.calls[calls_before:]
    assert len(event_rows(day.h, "hint")) == 1
    refused = [p for p in (P3, P3B)
               if any("already given" in t for t in replies_to(calls, p))]
    assert len(refused) == 1
    assert all(any("Hint for stage 2 (#3)" in t for t in replies_to(calls, p))
               for p in (P3, P3B))
    assert not any(GENERIC_ERROR in c.text for c in calls)


async def test_a_participant_who_says_done_before_the_escape_is_told_what_to_do(day):
    # pair 3 plays the escape: /listo before it is solved gets the participants' answer
    said = await day.say(P3, "/listo", "0:20:00")
    assert said == ["Your escape is not over yet: when you solve it, call a volunteer, who "
                    "records it. Then the puzzle!"]
    assert event_rows(day.h, "ready") == []


async def test_a_parent_taps_which_child_finished_and_it_counts_at_the_question(day):
    """Issue 47: a parent with two children had to type /listo 31. The question's buttons name
    each child; the tap counts at the moment the question was shown (Telegram's date), not
    when the finger found the button, and once."""
    await day.link(PARENT, 30)
    await day.link(PARENT, 31)
    asked = await day.send(PARENT, "/listo", "1:20:00")
    (_, data), = [b for b in day.h.buttons(asked) if b[0].startswith("#31")]
    tapped = await day.h.press(PARENT, data, at("1:20:40"), shown=at("1:20:00"))
    noted = replies_to(tapped, PARENT)
    assert noted and noted[0].startswith("#31 ") and "1:20:00" in noted[0], noted
    (ready,) = event_rows(day.h, "ready")
    assert (ready["entry"], ready["value"]) == (31, 4800)  # 1:20:00, not 1:20:40
    again = await day.h.press(PARENT, data, at("1:21:00"), shown=at("1:20:00"))
    assert replies_to(again, PARENT) == ["Already recorded."]
    assert len(event_rows(day.h, "ready")) == 1
