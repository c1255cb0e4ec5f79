"""Issue 45 (item 5), import validates as the bot writes: ``import document`` reads a document
through the shape docs/document.schema.json publishes (bot/services/document_schema.py holds it
and enforces it), then replays its history through the rules the chat uses. A document the bot
could not have written is refused with one line naming the first problem, exit code 2, no
traceback and nothing written; roles and link codes never come in; a person the database knows
already keeps their row. The valid document (Castrillo's pairs, tests/day/test_bot_day.py's
worked example) imports with the same rankings."""

from __future__ import annotations

import asyncio
import copy
import json
import sqlite3
import tomllib
from collections.abc import Callable
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.domain.clock import CategoryClock
from bot.domain.contest import Category
from bot.services.access import standing_organiser_invite
from bot.services.contest_day import ContestDay
from bot.services.contest_file import load_contest
from bot.services.document import DocumentError, export_document
from bot.services.document_history import Replay
from bot.services.document_import import parse_document, prepare_import
from bot.services.document_schema import ANNOTATIONS, KEYWORDS, SCHEMA, plain, shape_problem
from bot.services.state import EntryState, entry_state
from bot.storage.records import Entry
from bot.storage.store import Store
from tests.clirun import bot_main
from tests.conftest import BILLOM, CASTRILLO, ROOT
from tests.day.test_bot_day import ORGANISER, T0, VOLUNTEER, at, setup_day
from tests.documents import valid
from tests.exports.test_cli import cli_env

Doc = dict[str, Any]
CONTEST_TEXT = CASTRILLO.read_text(encoding="utf-8")


async def _play(tmp: Path) -> Doc:
    """The worked example's day (five pairs, hints, solutions, stages, solves, a /listo, the
    finishes and a pieces count), with a hint refused for the cooldown, a correction, an undo
    and a pause, as the bot exports it."""
    h, p = await setup_day(tmp)
    try:
        v = VOLUNTEER
        await h.send(p[7], "/pista 2", at("0:20:00"))
        await h.send(v, "/escape 7 0:42:00", at("0:42:30"))
        await h.send(v, "/escape 3", at("0:25:00"))
        await h.send(p[20], "/pista 2", at("0:30:00"))
        await h.send(p[20], "/pista 3", at("0:31:00"))  # refused: the cooldown (noted)
        await h.send(p[20], "/pista 4", at("1:10:00"))
        await h.send(v, "/etapa 20 4", at("1:20:00"))
        clock = timedelta(minutes=1)
        for stage in (1, 2, 3, 4):
            await h.send(p[12], f"/pista {stage}", T0 + clock)
            await h.send(p[12], f"/solucion {stage}", T0 + clock + timedelta(minutes=5))
            clock += timedelta(minutes=11)
        await h.send(p[12], "/pista 5", T0 + clock)
        await h.send(v, "/escape 12 1:20:00", at("1:20:10"))
        await h.send(v, "/fin 3 1:30:00", at("1:30:05"))
        await h.send(p[7], "/listo", at("1:47:30"))
        await h.send(v, "/fin 7", at("1:49:00"))
        await h.send(v, "/fin 20 2:55:00", at("2:55:20"))
        await h.send(v, "/fin 12 2:40:00", at("2:40:30"))
        await h.send(v, "/fin 12 2:41:00", at("2:41:30"))  # a correction
        await h.send(v, "/piezas 21 312", at("3:00:30"))
        await h.undo(v, at("3:00:40"))  # taken back, and recorded again
        await h.send(v, "/piezas 21 312", at("3:00:50"))
        await h.send(ORGANISER, "/pausa", at("3:01:00"))
        await h.send(ORGANISER, "/reanudar", at("3:02:00"))
        await h.send(ORGANISER, "/clasificacion parejas", at("3:05:00"))
        svc = h.services
        return await export_document(svc.contest, CONTEST_TEXT, svc.day)
    finally:
        await h.stop()


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> tuple[Doc, Path]:
    """The document of the day, and the database it was exported from."""
    tmp = tmp_path_factory.mktemp("day")
    doc = asyncio.run(_play(tmp))
    valid(doc)
    return doc, tmp / "bot.sqlite3"


def _env(db: Path, contest: Path = CASTRILLO) -> dict[str, str]:
    return cli_env({"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)})


def _rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    with closing(sqlite3.connect(db)) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                for t in ("entries", "members", "people", "events")}


def _import(tmp: Path, text: str, db: Path | None = None) -> tuple[Any, Path]:
    path = tmp / "doc.json"
    path.write_text(text, encoding="utf-8")
    db = db or tmp / "fresh.sqlite3"
    return bot_main(["import", "document", str(path)], _env(db)), db


# -- the hostile documents --------------------------------------------------------------------


def _first(doc: Doc, kind: str, entry: int | None = None, typed: bool | None = None) -> Doc:
    return next(e for e in doc["history"] if e["kind"] == kind
                and (entry is None or e["entry"] == entry)
                and (typed is None or (e["value"] is not None) == typed))


def _set(**changes: Any) -> Callable[[Doc], Any]:
    """A change of the first typed finish (/fin 3 1:30:00)."""
    return lambda doc: _first(doc, "finish", 3).update(changes)


def _hints_at_once(doc: Doc) -> None:
    """Pair 20 asks for 20 hints at the moment of its first (each stage, one after another):
    the escape's cooldown refuses all but the first."""
    first = _first(doc, "hint", 20)
    i = doc["history"].index(first)
    doc["history"][i + 1:i + 1] = [{**first, "stage": 3 + k % 3} for k in range(20)]
    _renumber(doc)


def _renumber(doc: Doc) -> None:
    new = {e["id"]: n for n, e in enumerate(doc["history"], 1)}
    for n, e in enumerate(doc["history"], 1):
        e["id"] = n
        if e["supersedes"] is not None:
            e["supersedes"] = new[e["supersedes"]]
        if e["data"] and isinstance(e["data"].get("ready_event"), int):
            e["data"]["ready_event"] = new[e["data"]["ready_event"]]


def _other_contest_text(doc: Doc) -> None:
    doc["contest_file"]["text"] = BILLOM.read_text(encoding="utf-8")


def _delete(key: str, where: Callable[[Doc], Doc]) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        del where(doc)[key]
    return change


def _late_supersedes(doc: Doc) -> None:
    _first(doc, "finish", 3)["supersedes"] = doc["history"][-1]["id"]


def _duplicate_event(doc: Doc) -> None:
    doc["history"][6]["id"] = doc["history"][5]["id"]


def _finish_by(role: str, actor: int | None) -> Callable[[Doc], Any]:
    return _set(role=role, actor=actor)


def _event_999(doc: Doc) -> None:
    _first(doc, "finish", 3)["entry"] = 999


def _raw(text: str) -> Callable[[Doc], str]:
    return lambda doc: text


def _nested(depth: int) -> list[Any]:
    out: list[Any] = []
    for _ in range(depth):
        out = [out]
    return out


def _replace_value(old: str, new: str) -> Callable[[Doc], str]:
    """The document's text with ``old`` (a JSON fragment) written as ``new``."""
    def change(doc: Doc) -> str:
        text = json.dumps(doc, ensure_ascii=False)
        assert old in text
        return text.replace(old, new, 1)
    return change


def _append(doc: Doc, **fields: Any) -> Doc:
    """An event after the history (by the organiser, dated as the last one, unless said)."""
    last = doc["history"][-1]
    event = {"id": last["id"] + 1, "at": last["at"], "actor": 1, "role": "organiser",
             "entry": None, "category": None, "stage": None, "value": None, "ref": None,
             "data": None, "supersedes": None, **fields}
    event["recorded_at"] = event["at"]
    doc["history"].append(event)
    return event


def _insert(doc: Doc, after: int, **fields: Any) -> None:
    """An event right after event ``after``, the history numbered again."""
    at_ = fields.pop("at")
    i = next(n for n, e in enumerate(doc["history"]) if e["id"] == after)
    doc["history"].insert(i + 1, {
        "id": -1, "at": at_, "recorded_at": at_, "actor": 1, "role": "organiser",
        "entry": None, "category": None, "stage": None, "value": None, "ref": None,
        "data": None, "supersedes": None, **fields})
    _renumber(doc)


def _late_pause(doc: Doc) -> None:
    _append(doc, kind="pause", at="2023-04-22T08:30:00+00:00")
    _append(doc, kind="resume", at="2023-04-22T11:30:00+00:00")


def _late_start(doc: Doc) -> None:
    """Parejas' clock started at 09:00 (event 8) started again, later, dated 10 minutes after
    it: the start of 09:00 undone first (the organiser's own last clock record, were it)."""
    start = _first(doc, "clock_start")
    for e in doc["history"]:  # the organiser's pause and resume: none after the start
        if e["kind"] in ("pause", "resume"):
            e.update(kind="announcement", ref="a" + str(e["id"]),
                     data={"text": "x", "recipients": 1})
    _append(doc, kind="undo", supersedes=start["id"], category="parejas",
            data={"kind": "clock_start"})
    _append(doc, kind="clock_start", category="parejas", at="2023-04-22T09:10:00+00:00")


def _pauses(count: int) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        last = datetime.fromisoformat(doc["history"][-1]["at"])
        for k in range(count):
            for kind, seconds in (("pause", 2 * k + 1), ("resume", 2 * k + 2)):
                _append(doc, kind=kind, at=(last + timedelta(seconds=seconds)).isoformat())
    return change


def _member(doc: Doc, entry: int, position: int) -> dict[str, Any]:
    """A member of the document's entry as a change's details hold it."""
    m = next(e for e in doc["entries"] if e["number"] == entry)["members"][position]
    year = int(m["born"][:4]) if m.get("born") else m.get("born_year")
    return {"name": m["name"], "born": m.get("born"), "year": year}


def _replacing(doc: Doc, entry: int, position: int, name: str) -> dict[str, Any]:
    return {"position": position, "old": _member(doc, entry, position),
            "new": {"name": name, "born": "1990-05-04", "year": 1990}}


def _change_before_the_start(doc: Doc) -> None:
    """/sustituir in parejas (no keep_originals) before its clock started: the chat refuses
    it (``change_verdict``), the import took it."""
    before = _first(doc, "clock_start")
    _insert(doc, before["id"] - 1, kind="member_change", entry=3, category="parejas",
            at="2023-04-22T06:59:00+00:00", data=_replacing(doc, 3, 0, "Zoe Ruiz"))


def _published_early(doc: Doc) -> None:
    """/publicar right after the first finish, four pairs of five still playing: the chat
    refuses it (``publishable``: StillPlaying)."""
    first = _first(doc, "finish", 3)
    _insert(doc, first["id"], kind="results_final", category="parejas", ref="parejas",
            at="2023-04-22T10:30:15+00:00", data={"told": {}})


HOSTILE: dict[str, tuple[Callable[[Doc], Any], str]] = {
    # what the bot would never write, and results would change
    "negative finish": (_set(value=-3600), "(finish of entry 3): a negative time (-3600)"),
    "finish by a participant": (_finish_by("participant", 103),
                                "(finish of entry 3): recorded by a participant: a finish is "
                                "recorded by an organiser or a volunteer"),
    "finish by the bot": (_finish_by("system", None), "recorded by the bot itself (system)"),
    "hint by a volunteer": (lambda d: _first(d, "hint", 20).update(role="volunteer"),
                            "(hint of entry 20): recorded by a volunteer: a hint is recorded "
                            "by a participant"),
    "hint with the wrong tickets": (
        lambda d: _first(d, "hint", 20)["data"].update(tickets_used=0, tickets_bought=1),
        "tickets used and bought (0, 1), not what it cost (1, 0)"),
    "a detail the bot never writes": (_set(data={"bonus": -600}), "its details (data) have "
                                      "'bonus', which the bot never writes there"),
    "a correction of what is not in force": (
        lambda d: [e for e in d["history"] if e["kind"] == "finish" and e["entry"] == 12][-1]
        .update(supersedes=None), "(finish of entry 12): it replaces nothing where the record "
        "in force is event"),
    "an undo of another's record": (
        lambda d: _first(d, "undo").update(actor=ORGANISER.id, role="organiser"),
        "not the last record of its actor that they may take back"),
    "finish before the clock": (_set(at="2023-04-22T08:00:00+00:00"),
                                "(finish of entry 3): dated 2023-04-22T08:00:00+00:00, before "
                                "the clock of parejas started"),
    "finish past the limit": (_set(value=4 * 3600), "4:00:00 is past the time limit"),
    "finish ahead of the clock": (_set(value=2 * 3600), "2:00:00 is later than its clock "
                                  "showed then"),
    "finish as text": (_set(value="1:00:00"), "value: '1:00:00' where an integer or null is "
                       "expected"),
    "20 hints at one moment": (_hints_at_once, "(hint of entry 20): too soon after the last "
                               "request: the next one is allowed at 0:35:00 (the escape's "
                               "cooldown)"),
    "unknown kind": (lambda d: _first(d, "pieces").update(kind="teleport"),
                     "(teleport of entry 21): unknown kind 'teleport'"),
    "pieces beyond the puzzle": (lambda d: _first(d, "pieces").update(value=100000),
                                 "100000 pieces, not between 0 and 500"),
    "entry in a category the contest lacks": (
        lambda d: d["entries"][0].update(category="seniors"),
        "entries[0] (entry 3): category 'seniors' is not one of the contest's"),
    "contest-file text of another contest": (_other_contest_text,
                                             "contest_file.text and contest_file.data are not "
                                             "the same contest file"),
    # malformed
    "missing key": (_delete("role", lambda d: d["history"][0]), "history[0]: no \"role\""),
    "wrong type": (lambda d: d["entries"][0].update(number="3"),
                   "entries[0].number: '3' where an integer is expected"),
    "not an object": (_raw("[]"), "not a contest document"),
    "nested 200k deep": (_raw("[" * 200_000 + "]" * 200_000), "is not JSON this bot reads "
                         "(nested too deep)"),
    "nested 40 deep": (lambda d: d["history"][0].update(data={"a": _nested(40)}),
                       "nested deeper than 32 levels"),
    "a row not an object": (lambda d: d["history"].__setitem__(0, 5),
                            "history[0]: 5 where an object is expected"),
    "duplicate event ids": (_duplicate_event, "appears twice"),
    "duplicate entries": (lambda d: d["entries"][1].update(number=d["entries"][0]["number"]),
                          "entries[1]: entry 3 appears twice"),
    "duplicate people": (lambda d: d["people"][1].update(id=d["people"][0]["id"]),
                         "appears twice"),
    "an event for entry 999": (_event_999, "(finish of entry 999): entry 999 is not in the "
                               "document"),
    "replaces a missing event": (_set(supersedes=10**6), "it replaces event 1000000, which is "
                                 "not an event before it"),
    "replaces a later event": (_late_supersedes, "which is not an event before it"),
    "date that does not parse": (_set(at="yesterday"), "'yesterday' is not a date and time"),
    "naive date-time": (_set(at="2023-04-22T10:30:05"), "is not a date and time with its "
                        "offset"),
    "date past year 9000": (_set(at="9999-12-31T23:59:59-05:00"), "not a date the bot "
                            "records"),
    "huge number": (_set(value=10**40), "a number too large (41 digits)"),
    "number of 5000 digits": (_replace_value('"value": 5400', '"value": ' + "9" * 5000),
                              "is not JSON (Exceeds the limit"),
    "NaN": (_replace_value('"value": 5400', '"value": NaN'), "is not JSON (NaN is not a "
            "number JSON has"),
    "infinity": (_replace_value('"value": 5400', '"value": 1e999'), "a number that is not "
                 "finite"),
    "lone surrogate": (_replace_value('"Ana"', '"\\ud800"'), "not Unicode"),
    "version true": (lambda d: d.update(version=True), "its version is not a number: True"),
    "negative actor": (_set(actor=-5), "actor -5 is not a Telegram id"),
    "a pair of children where an adult is needed": (
        lambda d: [m.update(born=None, born_year=2015) for m in d["entries"][0]["members"]],
        "entries[0] (entry 3): not eligible for parejas: member 2 ("),
    "member name with a separator": (
        lambda d: d["entries"][0]["members"][0].update(name="Ana; Bea"),
        "member name 'Ana; Bea' is not one registration takes"),
    # issue 45's probe: a clock change added late, dated before the day's results (every
    # finish 0:30:00)
    "a pause and a resume added late, dated before the results": (
        _late_pause, "event 37 (pause): dated 2023-04-22T08:30:00+00:00, before a result "
        "recorded already (dated 2023-04-22T12:00:50+00:00)"),
    "a late start of a heat dated before its results": (
        _late_start, "(clock_start): dated 2023-04-22T09:10:00+00:00, before a result "
        "recorded already (dated 2023-04-22T12:00:50+00:00)"),
    "more than 500 pauses": (_pauses(600), "(pause): more than 500 pauses"),
    "a member changed where the category takes no changes": (
        _change_before_the_start, "(member_change of entry 3): a member changed where the "
        "category takes no changes (no keep_originals)"),
    "a member changed after the start": (
        lambda d: _append(d, kind="member_change", entry=3, category="parejas",
                          data=_replacing(d, 3, 0, "Zoe Ruiz")),
        "(member_change of entry 3): after the clock of parejas started"),
    "results made final while entries still played": (
        _published_early, "(results_final): dated 2023-04-22T10:30:15+00:00, while 4 entries "
        "of parejas were still playing (1:30:15 of 3:00:00)"),
    "a person's name with NUL": (
        lambda d: d["people"][0].update(name="Ana\u0000Pérez"),
        "people[0]: name 'Ana\\x00Pérez': control characters or spaces the bot never stores"),
    "a person's name with a line break": (
        lambda d: d["people"][1].update(name="Ana\nPérez"), "people[1]: name 'Ana\\nPérez'"),
}


def _hostile(doc: Doc, change: Callable[[Doc], Any]) -> str:
    mutated = copy.deepcopy(doc)
    out = change(mutated)
    return out if isinstance(out, str) else json.dumps(mutated, ensure_ascii=False)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_document_the_bot_would_never_write_is_refused_with_one_line(
        day: tuple[Doc, Path], tmp_path: Path, name: str) -> None:
    doc, _ = day
    change, line = HOSTILE[name]
    out, db = _import(tmp_path, _hostile(doc, change))
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    [said] = out.stderr.splitlines()
    assert said.startswith(f"error: {tmp_path / 'doc.json'}: ")
    assert said.endswith("; nothing was imported") and line in said, said
    assert _rows(db) == {"entries": [], "members": [], "people": [], "events": []}


def test_the_valid_document_imports_with_the_same_rankings(day: tuple[Doc, Path],
                                                            tmp_path: Path) -> None:
    doc, original = day
    out, db = _import(tmp_path, json.dumps(doc))
    assert out.returncode == 0, out.stderr
    history = doc["history"]
    roles = sum(e["kind"] in ("link", "volunteer_invite", "volunteer_join") for e in history)
    assert out.stdout.startswith(f"imported 5 entries and {len(history) - roles} events from ")
    assert f"left out: {roles} events of who is who" in out.stdout
    before = bot_main(["export", "results"], _env(original))
    after = bot_main(["export", "results"], _env(db))
    assert before.returncode == after.returncode == 0
    assert before.stdout == after.stdout and "1:05:00" in after.stdout


def test_roles_and_link_codes_never_come_in(day: tuple[Doc, Path], tmp_path: Path) -> None:
    """A document that makes a stranger an organiser, a volunteer and a pair's phone: the
    events of who is who are left out (said, counted); whatever their codes, none is in the
    new database, whose entries all have new join codes."""
    doc = copy.deepcopy(day[0])
    at_ = doc["history"][0]["at"]
    stranger = 6666
    doc["history"] += [
        {"id": 10_000 + i, "at": at_, "recorded_at": at_, "actor": stranger, "role": role,
         "kind": kind, "entry": entry, "category": None, "stage": None, "value": None,
         "ref": ref, "data": None, "supersedes": None}
        for i, (role, kind, entry, ref) in enumerate((
            ("system", "organiser_invite", None, "oStrangersOwnCode0123456"),
            ("organiser", "organiser_join", None, "oStrangersOwnCode0123456"),
            ("volunteer", "volunteer_join", None, "vStrangersOwnCode0123456"),
            ("participant", "link", 3, "eStrangersOwnCode0123456")))]
    doc["entries"][0]["join_code"] = "eAnOldJoinCode0123456789"  # an older document's
    out, db = _import(tmp_path, json.dumps(doc))
    assert out.returncode == 0, out.stderr
    rows = _rows(db)
    kinds = {r[5] for r in rows["events"]}
    assert not kinds & {"link", "organiser_invite", "organiser_join", "volunteer_invite",
                        "volunteer_join"}, kinds
    assert stranger not in {r[3] for r in rows["events"]}
    dump = json.dumps(rows)
    assert "StrangersOwnCode" not in dump and "eAnOldJoinCode" not in dump


def test_someone_known_already_keeps_their_row(day: tuple[Doc, Path], tmp_path: Path) -> None:
    """A new bot where one of the document's people sent /start before the import: the
    database's own row wins (it is newer), the rest come in; before, a UNIQUE traceback."""
    doc = day[0]
    db = tmp_path / "fresh.sqlite3"
    known = doc["people"][0]

    async def started() -> None:
        store = await Store.open(str(db))
        try:
            await store.remember_person(known["id"], "Their Own Name", "en")
        finally:
            await store.close()

    asyncio.run(started())
    out, _ = _import(tmp_path, json.dumps(doc), db)
    assert out.returncode == 0, out.stderr
    assert "1 people this database knew already kept as they are here" in out.stdout
    people = {r[0]: r[1] for r in _rows(db)["people"]}
    assert people[known["id"]] == "Their Own Name" and len(people) == len(doc["people"])


def test_the_new_bot_s_own_organiser_link_is_kept(day: tuple[Doc, Path],
                                                   tmp_path: Path) -> None:
    """A new bot started with no organiser made its one-time organiser link (an event): the
    document still goes in, and the link stays the new bot's, after the history."""
    doc = day[0]
    db = tmp_path / "fresh.sqlite3"

    async def started() -> str | None:
        store = await Store.open(str(db))
        try:
            return await standing_organiser_invite(ContestDay(load_contest(CASTRILLO), store,
                                                              frozenset()), T0, create=True)
        finally:
            await store.close()

    code = asyncio.run(started())
    out, _ = _import(tmp_path, json.dumps(doc), db)
    assert out.returncode == 0, out.stderr
    [(event_id, kind)] = [(r[0], r[5]) for r in _rows(db)["events"] if r[10] == code]
    assert kind == "organiser_invite" and event_id > doc["history"][-1]["id"]
    again = bot_main(["import", "document", str(tmp_path / "doc.json")], _env(db))
    assert again.returncode == 2 and "the database is not empty" in again.stderr


async def _started(db: Path, *own: dict[str, Any]) -> str | None:
    """A new bot started on ``db`` with no organiser (its organiser link made), and what
    else it recorded (``own``: add_event's arguments); the link's code."""
    store = await Store.open(str(db))
    try:
        code = await standing_organiser_invite(ContestDay(load_contest(CASTRILLO), store,
                                                          frozenset()), T0, create=True)
        async with store.transaction() as tx:
            for fields in own:
                await tx.add_event(at=T0, **fields)
        return code
    finally:
        await store.close()


def test_a_bot_started_once_still_takes_an_import(day: tuple[Doc, Path],
                                                  tmp_path: Path) -> None:
    """A new bot started once after registration closed reported the closing (a
    ``closing_report`` of no entries): before, "the database is not empty". Its bookkeeping
    of no entries is dropped (the document's history says what was told; a report of nobody
    kept would keep the new bot from reporting the document's entries left out), its
    organiser link kept, after the history."""
    doc = day[0]
    db = tmp_path / "fresh.sqlite3"
    code = asyncio.run(_started(db, {"kind": "closing_report", "role": "system",
                                     "ref": "closing"}))
    out, _ = _import(tmp_path, json.dumps(doc), db)
    assert out.returncode == 0, out.stderr
    events = _rows(db)["events"]
    assert [r[5] for r in events if r[10] == code] == ["organiser_invite"]
    assert not [r for r in events if r[5] == "closing_report"]
    assert len(events) == sum(e["kind"] not in ("link", "volunteer_invite", "volunteer_join")
                              for e in doc["history"]) + 1


@pytest.mark.parametrize("own", [
    {"kind": "pause", "role": "organiser", "actor": 1},
    {"kind": "announcement", "role": "organiser", "actor": 1, "ref": "a1",
     "data": {"text": "hello", "recipients": 1}},
    {"kind": "closing_report", "role": "organiser", "actor": 1, "ref": "closing"},
])
def test_a_database_with_someone_s_event_is_not_fresh(day: tuple[Doc, Path], tmp_path: Path,
                                                      own: dict[str, Any]) -> None:
    db = tmp_path / "fresh.sqlite3"
    asyncio.run(_started(db, own))
    before = _rows(db)
    out, _ = _import(tmp_path, json.dumps(day[0]), db)
    assert out.returncode == 2 and "the database is not empty" in out.stderr, out.stderr
    assert _rows(db) == before


def test_a_document_of_an_imported_database_imports_again(day: tuple[Doc, Path],
                                                           tmp_path: Path) -> None:
    """Export, import, export, import: the same results all along. Before, the second import
    was refused (a hint "by 107, whose phone did not follow entry 7 then"): the import leaves
    out who is who, so the document of an imported database has none of it, and a document
    can't prove who anyone was anyway: only the role that records each kind is checked."""
    doc, original = day
    first, again = tmp_path / "first.sqlite3", tmp_path / "again.sqlite3"
    out, _ = _import(tmp_path, json.dumps(doc), first)
    assert out.returncode == 0, out.stderr
    path = tmp_path / "its.json"
    written = bot_main(["export", "document", "--out", str(path)], _env(first))
    assert written.returncode == 0, written.stderr
    assert not [e for e in json.loads(path.read_text(encoding="utf-8"))["history"]
                if e["kind"] in ("link", "volunteer_join")]
    out = bot_main(["import", "document", str(path)], _env(again))
    assert out.returncode == 0, out.stderr
    results = [bot_main(["export", "results"], _env(db)) for db in (original, first, again)]
    assert all(r.returncode == 0 for r in results)
    assert results[0].stdout == results[1].stdout == results[2].stdout
    assert "1:05:00" in results[2].stdout


def test_clock_changes_a_few_minutes_behind_a_result_are_taken(day: tuple[Doc, Path]) -> None:
    """Chats are handled at once: a /pausa dated a little before a result may be recorded after
    it. Within ``CLOCK_SKEW`` (5 minutes) it is taken; the pair dated hours back is not (the
    hostile documents above)."""
    doc = copy.deepcopy(day[0])
    doc["history"] = [e for e in doc["history"] if e["kind"] not in ("pause", "resume")]
    late = copy.deepcopy(doc)
    _append(doc, kind="pause", at="2023-04-22T11:57:00+00:00")  # 3:50 before the pieces
    _append(doc, kind="resume", at="2023-04-22T12:05:00+00:00")
    ready = prepare_import(CONTEST_TEXT, doc, "DOC")
    assert [e.kind for e in ready.events[-2:]] == ["pause", "resume"]
    _append(late, kind="pause", at="2023-04-22T11:55:00+00:00")  # 5:50 before
    with pytest.raises(DocumentError, match="before a result recorded already"):
        prepare_import(CONTEST_TEXT, late, "DOC")


# -- the declared shape ----------------------------------------------------------------------------


def test_the_published_schema_is_the_one_import_enforces() -> None:
    published = json.loads((ROOT / "docs" / "document.schema.json").read_text(encoding="utf-8"))
    assert published == SCHEMA, (
        "docs/document.schema.json and bot/services/document_schema.py's SCHEMA differ: the "
        "published shape is the one import enforces; change both")
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    unknown = [sorted(set(node) - KEYWORDS - ANNOTATIONS) for node in _subschemas(SCHEMA)]
    assert not any(unknown), unknown  # every keyword the shape uses is one the checker checks


def _subschemas(schema: dict[str, Any]) -> list[dict[str, Any]]:
    out, stack = [], [schema]
    while stack:
        node = stack.pop()
        out.append(node)
        stack += [*node.get("properties", {}).values(), *node.get("$defs", {}).values(),
                  *node.get("anyOf", [])]
        stack += [node[k] for k in ("items", "additionalProperties", "if", "then", "else", "not")
                  if isinstance(node.get(k), dict)]
    return out


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**60, 2**60)
                    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
# values an event's fields could plausibly hold: closer to what passes the shape, so that the
# history's rules are reached too
PLAUSIBLE = (st.none() | st.integers(-5, 12) | st.integers(0, 4 * 3600)
             | st.sampled_from(["finish", "hint", "pieces", "escape", "stage", "undo",
                                "volunteer", "participant", "organiser", "system", "parejas",
                                "dsq", "lost_piece", "2023-04-22T11:00:00+02:00"])
             | st.dictionaries(st.sampled_from(["moment", "ready_event", "kind", "reason",
                                                "tickets_used", "qualifiers"]),
                               st.integers(-2, 3) | st.text(max_size=3), max_size=2))


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:4]):
            out += _paths(v, (*path, i))
    return out


def _put(doc: Doc, path: tuple[Any, ...], value: Any, delete: bool) -> Any:
    if not path:
        return value
    target = doc
    for step in path[:-1]:
        target = target[step]
    if delete and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@FUZZ
@given(data=st.data(), value=JSON, delete=st.booleans())
def test_any_value_anywhere_is_refused_with_one_line_or_read(
        day: tuple[Doc, Path], data: st.DataObject, value: Any, delete: bool) -> None:
    """The reader fuzzed: a valid document with any JSON value put anywhere (or a key
    deleted) is read or refused with a DocumentError, never a traceback; the shape refuses
    whatever JSON Schema (jsonschema, over the published file) refuses."""
    doc = copy.deepcopy(day[0])
    paths = _paths(doc)
    mutated = _put(doc, data.draw(st.sampled_from(paths)), value, delete)
    _read_or_refused(mutated)
    if jsonschema.Draft202012Validator(SCHEMA).is_valid(mutated) is False:
        assert shape_problem(mutated, formats=False) is not None


@FUZZ
@given(data=st.data(), value=PLAUSIBLE)
def test_any_field_of_any_event_is_refused_with_one_line_or_read(
        day: tuple[Doc, Path], data: st.DataObject, value: Any) -> None:
    doc = copy.deepcopy(day[0])
    event = data.draw(st.sampled_from(doc["history"]))
    event[data.draw(st.sampled_from(sorted(event)))] = value
    _read_or_refused(doc)


@FUZZ
@given(cut=st.integers(0, 10**6), junk=st.text(max_size=20))
def test_any_text_is_refused_with_one_line_or_read(day: tuple[Doc, Path], cut: int,
                                                    junk: str) -> None:
    """The document's text cut anywhere, with anything after the cut."""
    text = json.dumps(day[0])
    at_ = cut % (len(text) + 1)
    try:
        _read_or_refused(parse_document(text[:at_] + junk + text[at_ + len(junk):], "DOC"))
    except DocumentError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("DOC: ")


def _read_or_refused(doc: Any) -> None:
    try:
        prepare_import(CONTEST_TEXT, doc, "DOC")
    except DocumentError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("DOC: ")


def test_the_day_itself_is_read(day: tuple[Doc, Path]) -> None:
    ready = prepare_import(CONTEST_TEXT, day[0], "DOC")
    assert len(ready.entries) == 5 and ready.left_out > 0
    assert {e.kind for e in ready.events} >= {"hint", "solution", "stage", "escape", "ready",
                                              "finish", "pieces", "clock_start", "undo",
                                              "request_refused", "pause", "resume"}
    assert any(e.supersedes for e in ready.events)  # the correction
    assert shape_problem(day[0]) is None and datetime.fromisoformat(day[0]["exported_at"])


# -- invitations: an answer counts when Telegram dated it, a lapse at its deadline --------------


@pytest.fixture(scope="module")
def invited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Doc, Path]:
    """The library series with eight teams invited by Thursday 19 September at 19:05, all but
    #5 and #8 having accepted (tests/rounds/test_invitations_on_time.py), as one document;
    and its contest file."""
    from tests.rounds.test_invitations_on_time import _invited

    tmp = tmp_path_factory.mktemp("invited")
    db, contest = asyncio.run(_invited(tmp))
    out = bot_main(["export", "document"], _env(db, contest))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout), contest


def _invitation(doc: Doc, kind: str, entry: int) -> Doc:
    return next(e for e in doc["history"] if e["kind"] == kind and e["entry"] == entry)


def _lapse(doc: Doc, entry: int, at_: str) -> None:
    """A lapse of ``entry``'s invitation, dated ``at_``, after the history."""
    invited_ = _invitation(doc, "invited", entry)
    doc["history"].append({**invited_, "id": doc["history"][-1]["id"] + 1, "at": at_,
                           "recorded_at": at_, "actor": None, "role": "system",
                           "kind": "invite_lapsed", "data": {"answer": "lapsed"}})


def test_an_invitation_s_answers_and_lapses_are_dated_as_the_bot_dates_them(
        invited: tuple[Doc, Path], tmp_path: Path) -> None:
    """A lapse is recorded at its invitation's deadline, of an invitation still unanswered;
    an answer only before the deadline (nor after a lapse or a no). Before, a lapse dated a
    week early took an entry's place and an answer after the deadline kept one."""
    doc, contest = invited
    deadline = _invitation(doc, "invited", 5)["data"]["deadline"]
    late = (datetime.fromisoformat(deadline) + timedelta(days=1)).isoformat()
    early = (datetime.fromisoformat(deadline) - timedelta(days=5)).isoformat()

    def refused(change: Callable[[Doc], Any]) -> str:
        mutated = copy.deepcopy(doc)
        change(mutated)
        with pytest.raises(DocumentError) as exc:
            prepare_import(contest.read_text(encoding="utf-8"), mutated, "DOC")
        return str(exc.value)

    said = refused(lambda d: _invitation(d, "invite_reply", 4).update(at=late, recorded_at=late))
    assert said.endswith("(invite_reply of entry 4): an answer refused then (its deadline had "
                         "passed)"), said
    said = refused(lambda d: _lapse(d, 5, early))
    assert said.endswith(f"(invite_lapsed of entry 5): a lapse dated {early}, before its "
                         f"deadline ({deadline})"), said
    said = refused(lambda d: _lapse(d, 4, late))  # #4 accepted in time
    assert said.endswith("(invite_lapsed of entry 4): a lapse of an invitation answered "
                         "already (yes)"), said

    def lapsed_then_accepted(d: Doc) -> None:
        _lapse(d, 5, deadline)
        reply = {**_invitation(d, "invite_reply", 4), "id": d["history"][-1]["id"] + 1,
                 "entry": 5, "at": late, "recorded_at": late}
        reply["actor"] = next(e["actor"] for e in d["history"]
                              if e["kind"] == "link" and e["entry"] == 5)
        d["history"].append(reply)
    said = refused(lapsed_then_accepted)
    assert said.endswith("(invite_reply of entry 5): an answer refused then (its deadline had "
                         "passed)"), said
    # what the bot writes: the lapse at the deadline, of #5 and #8 still unanswered
    fine = copy.deepcopy(doc)
    _lapse(fine, 5, deadline)
    _lapse(fine, 8, deadline)
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(fine), encoding="utf-8")
    done = bot_main(["import", "document", str(path)], _env(tmp_path / "fresh.sqlite3",
                                                              contest))
    assert done.returncode == 0, done.stderr


# -- the library series' rounds: what the chat refuses there ---------------------------------------


def _later(doc: Doc, **fields: Any) -> Doc:
    """An event after the invitations, a day after the last one."""
    moment = datetime.fromisoformat(doc["history"][-1]["at"]) + timedelta(days=1)
    return _append(doc, at=moment.isoformat(), **fields)


def _keeping(doc: Doc) -> str:
    """The series' contest file with member changes (``keep_originals = 1``), the document's
    own, its text."""
    text = doc["contest_file"]["text"].replace("min_members = 2\n",
                                               "min_members = 2\nkeep_originals = 1\n", 1)
    assert "keep_originals" in text
    doc["contest_file"].update(text=text, data=plain(tomllib.loads(text)))
    return text


def _joining(name: str, year: int = 1992) -> dict[str, Any]:
    return {"position": None, "old": None, "new": {"name": name, "born": None, "year": year}}


def _replaced_twice(doc: Doc) -> None:
    """Mate 1 replaced by Eva Gil, then Mate 1 (no longer in the team) by Zoe Ruiz."""
    mate = _member(doc, 1, 1)
    for name in ("Eva Gil", "Zoe Ruiz"):
        _later(doc, kind="member_change", entry=1, category="teams", data={
            "position": 1, "old": mate, "new": {"name": name, "born": None, "year": 1992}})
    doc["entries"][0]["members"][1].update(name="Zoe Ruiz", born_year=1992)


def _removed_then_added(doc: Doc) -> None:
    """Mate 1 removed from a team of two (the fewest), then Eva Gil added."""
    _later(doc, kind="member_change", entry=1, category="teams", data={
        "position": 1, "old": _member(doc, 1, 1), "new": None})
    _later(doc, kind="member_change", entry=1, category="teams", data=_joining("Eva Gil"))
    doc["entries"][0]["members"][1].update(name="Eva Gil", born_year=1992)


def _both_replaced(doc: Doc) -> None:
    for position, name in ((0, "Zoe Ruiz"), (1, "Eva Gil")):
        old = _member(doc, 1, position)
        _later(doc, kind="member_change", entry=1, category="teams", data={
            "position": position, "old": old,
            "new": {"name": name, "born": None, "year": 1992}})
        doc["entries"][0]["members"][position].update(name=name, born_year=1992)


ROUNDS: dict[str, tuple[Callable[[Doc], Any], str]] = {
    "a finish corrected after its round was confirmed": (
        lambda d: _later(d, kind="finish", role="volunteer", actor=20, entry=3,
                         category="teams-local1", value=2000,
                         supersedes=_invitation(d, "finish", 3)["id"]),
        "(finish of entry 3): in heat teams-local1, after its round (teams/local) was "
        "confirmed (event 31): its results can't change any more"),
    "a finish undone after its round was confirmed": (
        lambda d: _later(d, kind="undo", role="volunteer", actor=20, entry=12,
                         category="teams-local4", data={"kind": "finish"},
                         supersedes=_invitation(d, "finish", 12)["id"]),
        "(undo of entry 12): it takes back event 30 in heat teams-local4, after its round"),
    "an entry not among the qualifiers invited": (
        lambda d: _later(d, kind="invited", entry=3, category="teams", ref="teams/local",
                         data={"deadline": "2024-09-30T00:00:00+00:00", "heat": 1}),
        "(invited of entry 3): entry 3, not a qualifier of teams/local, invited while no "
        "place was given up"),
    "an entry invited twice": (
        lambda d: _later(d, kind="invited", entry=1, category="teams", ref="teams/local",
                         data={"deadline": "2024-09-30T00:00:00+00:00", "heat": 2}),
        "(invited of entry 1): entry 1 invited twice to the round after teams/local"),
    "a member of 3,000 characters": (
        lambda d: _later(d, kind="member_change", entry=1, category="teams",
                         data=_joining("A" * 3000)),
        "(member_change of entry 1): member name 'AAAA"),
    "a member with a NUL in the name": (
        lambda d: _later(d, kind="member_change", entry=1, category="teams",
                         data=_joining("Zoe\u0000Ruiz")),
        "(member_change of entry 1): member name 'Zoe\\x00Ruiz' is not one registration takes"),
    "a member born in the future": (
        lambda d: _later(d, kind="member_change", entry=1, category="teams",
                         data=_joining("Zoe Ruiz", 2999)),
        "(member_change of entry 1): Zoe Ruiz: birth 2999 is not one registration takes"),
    "a member replaced who had left the team": (
        _replaced_twice, "event 47 (member_change of entry 1): member 2 ('Mate 1') is not the "
        "team's then"),
    "a member removed from a team of two": (
        _removed_then_added, "event 46 (member_change of entry 1): a member removed from a "
        "team of 2, the fewest it may have"),
    "both registered members replaced": (_both_replaced, "(member_change of entry 1): it "
                                         "leaves fewer than 1 of the members the team "
                                         "registered with"),
    "a change the entry's members don't show": (
        lambda d: _later(d, kind="member_change", entry=1, category="teams",
                         data=_joining("Zoe Ruiz")),
        "(member_change of entry 1): the team its changes leave is not the entry's members"),
}


@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_what_the_chat_refuses_in_rounds_is_refused(invited: tuple[Doc, Path],
                                                    name: str) -> None:
    """Before, each was imported: a result of a heat whose round was confirmed (the chat:
    RoundClosed), an invitation of an entry the round did not qualify or invited already
    (bot/services/invitations.py), a member change ``change_verdict`` or registration's name
    and birth rules refuse."""
    change, line = ROUNDS[name]
    mutated = copy.deepcopy(invited[0])
    text = _keeping(mutated)
    change(mutated)
    with pytest.raises(DocumentError) as exc:
        prepare_import(text, mutated, "DOC")
    assert line in str(exc.value) and "\n" not in str(exc.value), str(exc.value)


def test_member_changes_as_the_chat_takes_them_are_imported(invited: tuple[Doc, Path],
                                                            tmp_path: Path) -> None:
    """A member added, then another replaced (the entry's members as they left them): the
    team as registered, and as it is, the same after the import."""
    doc = copy.deepcopy(invited[0])
    text = _keeping(doc)
    contest = tmp_path / "series.toml"
    contest.write_text(text, encoding="utf-8")
    _later(doc, kind="member_change", entry=1, category="teams", data=_joining("Zoe Ruiz"))
    old = _member(doc, 1, 1)
    _later(doc, kind="member_change", entry=1, category="teams", data={
        "position": 1, "old": old, "new": {"name": "Eva Gil", "born": None, "year": 1993}})
    members = doc["entries"][0]["members"]
    members[1].update(name="Eva Gil", born_year=1993)
    members.append({**members[1], "name": "Zoe Ruiz", "born_year": 1992})
    ready = prepare_import(text, doc, "DOC")
    assert [m.name for m in ready.entries[1].members] == ["Team 1", "Eva Gil", "Zoe Ruiz"]
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    done = bot_main(["import", "document", str(path)], _env(tmp_path / "new.sqlite3", contest))
    assert done.returncode == 0, done.stderr


# -- an entry's state from the few events it depends on -------------------------------------------


def test_an_entry_s_state_from_its_few_events_is_the_state_from_all(
        day: tuple[Doc, Path], invited: tuple[Doc, Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay folds an entry's state from the events it depends on (``Replay._state``:
    the latest finish, pieces, /listo... in force, the escape's, a split per puzzle), not
    its whole history again at each event (50 entries of 2,000 events took 83 s): the same
    finish, pieces, /listo, escape and outcome as all its events in force give, and for a
    ranking (results made final) the same competitor."""
    checked: list[int] = []
    fold = Replay._state

    def both(self: Replay, entry: Entry, play: Category | None, clock: CategoryClock,
             penalties: bool = False) -> EntryState:
        got = fold(self, entry, play, clock, penalties)
        unit = (entry.number, play.id if play is not None else None)
        full = entry_state(self.contest, entry, [e for e in self._units.get(unit, ())
                                                 if e.id not in self.dead], clock, play=play)
        for name in ("finish", "finish_event", "pieces", "pieces_event", "ready", "ledger",
                     "split_puzzles", "outcome", "category"):
            assert getattr(got, name) == getattr(full, name), name
        if penalties:
            assert got.competitor() == full.competitor()
        checked.append(entry.number)
        return got

    monkeypatch.setattr(Replay, "_state", both)
    doc = copy.deepcopy(day[0])
    _append(doc, kind="results_final", category="parejas", ref="parejas",
            data={"told": {}})
    prepare_import(CONTEST_TEXT, doc, "DOC")
    prepare_import(invited[1].read_text(encoding="utf-8"), invited[0], "DOC")
    assert len(checked) > 30 and 21 in checked


def test_every_refusal_of_a_member_change_has_words_in_an_import_error() -> None:
    """A verdict added to the chat's rule must be said in words, never by its class name."""
    from typing import get_args

    import bot.features.members.rules as members
    from bot.services.document_events import _WHY

    refusals = [v for v in get_args(members.ChangeVerdict) if v is not members.Allowed]
    assert refusals and [v.__name__ for v in refusals if v not in _WHY] == []


def test_a_key_with_a_line_break_is_named_on_one_line() -> None:
    """Found by the fuzz test in CI: a key holding a line break broke the one-line error."""
    from bot.services.document_schema import value_problem

    problem = value_problem({"public": {"\n\x07": 2**60}})
    assert problem == "public.\\n\\x07: a number too large (19 digits)"
