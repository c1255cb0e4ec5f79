"""Issue 45, documents carry only what their reader may have: no key to the running bot in any
document (entries' join codes, the codes of unused organiser and volunteer links, a phone's
link), so a stranger who read one and opens the old links in the bot the document was imported
into becomes nobody; ``--public`` has no answer (but to a question marked ``public = true``),
no birth, no Telegram id and no code; ``rating`` prints and writes a year of birth at most."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import ImageDraw

from bot.services.document import _history
from tests.clirun import bot_main
from tests.conftest import CASTRILLO
from tests.documents import secrets_in, valid
from tests.exports.test_cli import cli_env
from tests.fakebot import Harness, Person, texts

NOW = datetime(2023, 4, 20, 9, 0, tzinfo=UTC)
LINK = re.compile(r"\?start=([A-Za-z0-9_-]+)")
JOIN_CODE = "eJoinCodeOfPairOne_0123"
BIRTHS = re.compile(r"\d{4}-\d{2}-\d{2}")

# Castrillo with a hidden phone (per entry), a country (per member, shown in rankings) and a
# club (per member) that the contest file marks public
QUESTIONS = '''
[[questions]]
id = "phone"
text = "Phone?"
kind = "text"
per = "entry"

[[questions]]
id = "country"
text = "Country?"
kind = "choice"
choices = ["ES", "FR"]
show = true

[[questions]]
id = "club"
text = "Club?"
kind = "text"
public = true
'''
ENTRIES = ("number,category,names,born,aepuzz_member,resident,phone,country,club,join_code\n"
           "1,parejas,Ana Pérez;Leo Pérez,1980-05-17;2015-02-03,yes;no,no;no,+34600111222,"
           f"FR,Lynx;Owls,{JOIN_CODE}\n"
           "2,adultos,Bea Gil,1985-01-01,no,yes,+34600333444,ES,Owls,\n")


def cli(args: list[str], env: dict[str, str]) -> Any:
    return bot_main(args, cli_env(env))


def contest_with_questions(tmp_path: Path) -> Path:
    path = tmp_path / "contest.toml"
    path.write_text(CASTRILLO.read_text(encoding="utf-8") + QUESTIONS, encoding="utf-8")
    return path


def imported(tmp_path: Path, contest: Path, db: Path) -> dict[str, str]:
    env = {"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)}
    (tmp_path / "entries.csv").write_text(ENTRIES, encoding="utf-8")
    done = cli(["import", "entries", str(tmp_path / "entries.csv")], env)
    assert done.returncode == 0, done.stderr
    return env


async def test_a_document_opens_no_door_of_the_bot_it_is_imported_into(tmp_path: Path) -> None:
    contest = tmp_path / "castrillo.toml"
    contest.write_text(CASTRILLO.read_text(encoding="utf-8"), encoding="utf-8")
    env = await asyncio.to_thread(imported, tmp_path, contest, tmp_path / "bot.sqlite3")
    h = await Harness(tmp_path, contest).start()  # organiser 1, on bot.sqlite3
    try:
        boss, phone = Person(1, "Olga", "en"), Person(20, "Ana", "en")
        await h.send(boss, "/start", NOW)
        [organiser_code] = LINK.findall(texts(await h.send(boss, "/organizador", NOW))[-1])
        [volunteer_code] = LINK.findall(texts(await h.send(boss, "/voluntario", NOW))[-1])
        assert organiser_code.startswith("o") and volunteer_code.startswith("v")
        await h.send(phone, f"/start {JOIN_CODE}", NOW)  # the pair's second phone, linked
        assert [e.number for e in (await h.services.day.roles(phone.id)).entries] == [1]
    finally:
        await h.stop()
    keys = secrets_in(tmp_path / "bot.sqlite3")
    assert {organiser_code, volunteer_code, JOIN_CODE} <= keys
    written = await asyncio.to_thread(cli, ["export", "document"], env)
    assert written.returncode == 0, written.stderr
    doc = json.loads(written.stdout)
    valid(doc)
    assert [k for k in keys if k in written.stdout] == []
    assert all("join_code" not in e for e in doc["entries"])
    coded = [e for e in doc["history"] if e["kind"] in
             ("link", "organiser_invite", "volunteer_invite")]
    assert coded and all(e["ref"] is None for e in coded)  # the events kept, their codes not
    path = tmp_path / "doc.json"
    path.write_text(written.stdout, encoding="utf-8")
    fresh = {**env, "PUZZLEBOT_DB": str(tmp_path / "fresh.sqlite3")}
    loaded = await asyncio.to_thread(cli, ["import", "document", str(path)], fresh)
    assert loaded.returncode == 0, loaded.stderr
    # a stranger who read the document opens every old link in the new bot: nobody is made
    # organiser or volunteer, no phone is linked
    h = await Harness(tmp_path, contest, organisers=frozenset(), db_name="fresh.sqlite3").start()
    try:
        for i, code in enumerate((organiser_code, volunteer_code, JOIN_CODE)):
            stranger = Person(50 + i, "Mallory", "en")
            await h.send(stranger, f"/start {code}", NOW)
            roles = await h.services.day.roles(stranger.id)
            assert not roles.organiser and not roles.volunteer and not roles.entries, code
        assert secrets_in(tmp_path / "fresh.sqlite3").isdisjoint(keys)
    finally:
        await h.stop()


def test_the_public_form_has_no_answer_birth_id_or_code_but_public_answers(
        tmp_path: Path) -> None:
    contest = contest_with_questions(tmp_path)
    env = imported(tmp_path, contest, tmp_path / "bot.sqlite3")
    whole = json.loads(cli(["export", "document"], env).stdout)
    public_out = cli(["export", "document", "--public"], env)
    assert public_out.returncode == 0, public_out.stderr
    public = json.loads(public_out.stdout)
    valid(public)
    valid(whole)
    # what it says of the people (the contest file names the questions, not the answers)
    text = json.dumps([public["entries"], public["rounds"], public["results"]],
                      ensure_ascii=False)
    # the whole form has them all (it is the organisers' own copy)...
    assert "+34600111222" in json.dumps(whole) and "1980-05-17" in json.dumps(whole)
    # ... the public one none: no hidden phone, no country, no birth, no id, no code
    for secret in ("+34600111222", "+34600333444", "1980-05-17", "2015-02-03", "1980",
                   "2015", JOIN_CODE, '"FR"', '"ES"', "aepuzz_member", "resident"):
        assert secret not in text, secret
    assert not BIRTHS.search(text)
    assert JOIN_CODE not in public_out.stdout
    assert "people" not in public and "history" not in public
    for e in public["entries"]:
        assert set(e) == {"number", "category", "local", "members"}
        for m in e["members"]:
            assert set(m) == {"name", "values"} and set(m["values"]) <= {"club"}
    pair = next(e for e in public["entries"] if e["number"] == 1)
    assert [m["values"] for m in pair["members"]] == [{"club": "Lynx"}, {"club": "Owls"}]
    assert public["results"] and all("phone" not in r and "country" not in r
                                     for r in public["results"])
    assert {r["club"] for r in public["results"]} == {"Lynx; Owls", "Owls"}
    assert {r["country"] for r in whole["results"]} == {"FR; FR", "ES"}


ESCAPE_ANSWERS = '''
[[escape.hints]]
stage = 1
text = "The key is under the red piece"

[[escape.solutions]]
stage = 1
text = "Combination 4-7-1-9"
'''


async def test_the_public_form_has_no_reason_typed_nor_the_escape_s_answers(
        tmp_path: Path) -> None:
    """A disqualification's reason is a volunteer's words about a person (a medical reason):
    the public form says "dsq" and no more. Its contest file is the rules as read, without
    the escape's hints and solutions, and not the text (which holds them, and comments)."""
    contest = tmp_path / "castrillo.toml"
    contest.write_text("# Pedro's phone for the keys: 600 999 888\n"
                       + CASTRILLO.read_text(encoding="utf-8") + ESCAPE_ANSWERS,
                       encoding="utf-8")
    env = await asyncio.to_thread(imported, tmp_path, contest, tmp_path / "bot.sqlite3")
    h = await Harness(tmp_path, contest).start()
    try:
        boss = Person(1, "Olga", "en")
        await h.send(boss, "/start", NOW)
        await h.send(boss, "/estado 2 dsq fainted, diabetic: taken to hospital", NOW)
        assert [e.data for e in await h.services.store.events(kinds=["outcome"])] == [
            {"reason": "fainted, diabetic: taken to hospital"}]
    finally:
        await h.stop()
    whole_out, public_out = [await asyncio.to_thread(cli, ["export", "document", *more], env)
                             for more in ([], ["--public"])]
    assert whole_out.returncode == public_out.returncode == 0, public_out.stderr
    whole, public = json.loads(whole_out.stdout), json.loads(public_out.stdout)
    valid(whole)
    valid(public)
    # the organisers' own copy keeps it all
    assert [r["outcome_reason"] for r in whole["results"] if r["number"] == 2] == [
        "fainted, diabetic: taken to hospital"]
    assert whole["contest_file"]["text"] == contest.read_text(encoding="utf-8")
    assert whole["contest_file"]["data"]["escape"]["hints"]
    # the public one: the outcome, not the words
    for secret in ("diabetic", "hospital", "red piece", "4-7-1-9", "600 999 888"):
        assert secret in whole_out.stdout and secret not in public_out.stdout, secret
    assert [r["outcome"] for r in public["results"] if r["number"] == 2] == ["dsq"]
    assert all("outcome_reason" not in r for r in public["results"])
    assert public["contest_file"]["text"] == ""
    escape = public["contest_file"]["data"]["escape"]
    assert "hints" not in escape and "solutions" not in escape
    assert {k: v for k, v in whole["contest_file"]["data"]["escape"].items()
            if k not in ("hints", "solutions")} == escape  # the rules stay, prices too
    assert public["contest_file"]["data"]["categories"] == whole["contest_file"]["data"][
        "categories"]
    # and the schema says so: a public document with a reason, the text or a hint is refused
    for bad in ({"results": [{**public["results"][0], "outcome_reason": "x"}]},
                {"contest_file": whole["contest_file"]},
                {"contest_file": {"text": "", "data": whole["contest_file"]["data"]}}):
        with pytest.raises(AssertionError):
            valid({**public, **bad})


def test_public_is_checked_as_a_contest_file_key(tmp_path: Path) -> None:
    contest = contest_with_questions(tmp_path)
    checked = cli(["check-contest", str(contest)], {})
    assert checked.returncode == 0, checked.stderr
    assert "Question club: a line of text (at most 40 characters), per member; public" \
        in checked.stdout
    contest.write_text(contest.read_text(encoding="utf-8").replace("public = true",
                                                                   'public = "yes"'),
                       encoding="utf-8")
    refused = cli(["check-contest", str(contest)], {})
    assert refused.returncode == 2 and "public: must be" in refused.stderr


# -- ratings --------------------------------------------------------------------------------------


def rated_document(name: str, day: str, rows: list[tuple[int, str, list[dict[str, Any]]]]
                   ) -> dict[str, Any]:
    """A whole document with one individual category (500 pieces, an hour): each row (number,
    time, members with full births)."""
    return {"document": "puzzlebot-contest", "version": 1, "public": False,
            "contest": {"name": name, "date": day, "timezone": "Europe/Madrid",
                        "language": "es"},
            "contest_file": {"text": "", "data": {"categories": [
                {"id": "solo", "members": 1, "pieces": 500, "time_limit": "1:00:00"}]}},
            "entries": [{"number": n, "category": "solo", "local": False, "members": m}
                        for n, _, m in rows],
            "rounds": [],
            "results": [{"category": "solo", "number": n, "round": "", "finished": "yes",
                         "time": t, "adjusted_time": "", "pieces": "", "outcome": ""}
                        for n, t, _ in rows]}


def test_ratings_print_and_write_no_full_date_of_birth(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    kid = {"name": "Leo Pérez", "born": "2015-02-03", "born_year": 2015}
    ana_1990 = {"name": "Ana García", "born": "1990-04-02", "born_year": 1990}
    ana_1975 = {"name": "Ana García", "born": "1975-11-30", "born_year": 1975}
    bea = {"name": "Bea Gil", "born": "1985-01-01", "born_year": 1985}
    bea_unknown = {"name": "Bea Gil"}
    path = tmp_path / "spring.json"
    path.write_text(json.dumps(rated_document("spring", "2024-04-06", [
        (1, "0:40:00", [kid]), (2, "0:45:00", [ana_1990]), (3, "0:50:00", [ana_1975]),
        (4, "0:55:00", [bea]), (5, "0:58:00", [bea_unknown])])), encoding="utf-8")
    drawn: list[str] = []
    draw_text = ImageDraw.ImageDraw.text

    def record(self: Any, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(str(text))
        return draw_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    out = cli(["rating", str(path), "--csv", str(tmp_path / "r.csv"),
               "--png", str(tmp_path / "r.png")], {})
    assert out.returncode == 0, out.stderr
    table = (tmp_path / "r.csv").read_text(encoding="utf-8")
    births = [m["born"] for m in (kid, ana_1990, ana_1975, bea)]
    for written in (out.stdout, table, "\n".join(drawn)):
        assert drawn and [b for b in births if b in written] == [], written
        for day in ("02-03", "04-02", "11-30", "01-01", "03/02", "02/04", "3/2/2015"):
            assert day not in written
    rows = list(csv.DictReader(io.StringIO(table)))
    # the column keeps its name (a contract) and holds the year only
    assert sorted(r["birth"] for r in rows) == ["", "1975", "1985", "1990", "2015"]
    assert list(rows[0]) == ["kind", "place", "name", "birth", "rating", "events", "last_event"]
    lines = out.stdout.splitlines()
    # a name alone but where two people of that name are rated: then the year tells them apart
    assert any(re.fullmatch(r"  \d\. Leo Pérez: [0-9.]+ \(1 event\)", line) for line in lines)
    assert any(re.fullmatch(r"  \d\. Ana García \(1990\): [0-9.]+ \(1 event\)", line)
               for line in lines)
    assert any(re.fullmatch(r"  \d\. Ana García \(1975\): [0-9.]+ \(1 event\)", line)
               for line in lines)
    assert "  Bea Gil: 2 rated apart (1985, no birth)" in lines
    assert "  Ana García: 2 rated apart (1975, 1990)" in lines
    assert [t for t in drawn if "Leo" in t] == [t for t in lines if "Leo" in t]


def test_a_self_timed_start_s_secret_is_never_written() -> None:
    at = datetime(2026, 11, 14, 10, 0, tzinfo=UTC)

    def event(eid: int, kind: str, data: dict[str, Any] | None, ref: str | None = None) -> Any:
        return SimpleNamespace(id=eid, at=at, recorded_at=at, actor=1, role="organiser",
                               kind=kind, entry=None, category="solo", stage=None, value=None,
                               ref=ref, data=data, supersedes=None)

    written = _history([event(1, "clock_start", {"seed": "5eed" * 8}),
                        event(2, "own_start", {"seed": "f00d" * 8, "other": 1}),
                        event(3, "organiser_invite", None, ref="oSecretLinkCode123456"),
                        event(4, "link", None, ref="registration"),
                        event(5, "outcome", None, ref="dsq")])
    assert "5eed" not in json.dumps(written) and "f00d" not in json.dumps(written)
    assert [e["data"] for e in written] == [None, {"other": 1}, None, None, None]
    # the registering phone's link names no code; an outcome's ref is no key
    assert [e["ref"] for e in written] == [None, None, None, "registration", "dsq"]
