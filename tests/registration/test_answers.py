"""A participant changes their own answers (``/respuestas [N] [R ANSWER]``; ``/answers`` in
English): the answers no rule reads (a club's name, a T-shirt size, a team's name asked as a
question), while registration is open and before the entry plays; an organiser, any entry's
until it plays. The answers that decide a fee, a local place or a quota stay as registered.
Through the real Application over our fake Bot API, on Castrillo's contest with three more
questions. People write in English: the fragments are the msgids."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.features.answers.rules import fixed_questions
from bot.services.contest_file import load_contest
from tests.conftest import CASTRILLO
from tests.documents import entries_survive
from tests.fakebot import Call, Harness, Person
from tests.registration.test_registration_chat import madrid, start_entry

ORGANISER = Person(1, "Olga", "en")
ANA = Person(101, "Ana", "en")
BEA = Person(102, "Bea", "en")
SAM = Person(500, "Sam", "en")

QUESTIONS = '''
[[questions]]
id = "shirt"
kind = "choice"
text = { en = "T-shirt size?" }
label = { en = "T-shirt" }
choices = ["S", "M", "L"]

[[questions]]
id = "team"
kind = "text"
per = "entry"
categories = ["parejas"]
text = { en = "Your team's name?" }
label = { en = "Team name" }
'''


def contest(tmp_path: Path) -> Path:
    text = CASTRILLO.read_text(encoding="utf-8")
    at = text.index("[local]")
    path = tmp_path / "castrillo-answers.toml"
    path.write_text(text[:at] + QUESTIONS.lstrip() + "\n" + text[at:], encoding="utf-8")
    return path


def said(calls: list[Call], who: Person) -> str:
    return "\n".join(c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id)


def rows(h: Harness, sql: str, *params: Any) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(h.db_path)) as db:
        db.row_factory = sqlite3.Row
        return db.execute(sql, params).fetchall()


async def a_pair(h: Harness) -> None:
    """Ana registers entry 1 in pairs: Ana (resident, M), Bea (L), team "Las Piezs"; Bea
    follows it."""
    at = madrid(3, 1)
    await start_entry(h, ANA, "parejas", at)
    for name, birth, resident, size in (("Ana Uno", "1980", "y", 1), ("Bea Dos", "1982", "n", 2)):
        await h.send(ANA, name, at)
        await h.send(ANA, birth, at)
        await h.press(ANA, "reg:q:0:n", at)
        await h.press(ANA, f"reg:q:1:{resident}", at)
        await h.press(ANA, f"reg:c:2:{size}", at)
    await h.send(ANA, "Las Piezs", at)
    await h.press(ANA, "reg:meal:no", at)
    final = said(await h.press(ANA, "reg:ok", at), ANA)
    code = final.split("start=")[1].split()[0].rstrip(".")
    await h.send(BEA, f"/start {code}", madrid(3, 1, 13))


def test_the_answers_that_decide_money_or_places_are_fixed() -> None:
    castrillo = load_contest(str(CASTRILLO))
    assert fixed_questions(castrillo) == {"aepuzz_member", "resident"}  # discount, local


async def test_a_team_s_name_and_a_size_changed_the_resident_answer_not(tmp_path: Path
                                                                        ) -> None:
    h = await Harness(tmp_path, contest(tmp_path), organisers=frozenset({ORGANISER.id})).start()
    try:
        await a_pair(h)
        calls = await h.send(ANA, "/answers", madrid(3, 2))
        listed = said(calls, ANA)
        assert "1. Ana Uno, T-shirt: M\n2. Bea Dos, T-shirt: L\n3. Team name: Las Piezs" \
            in listed, listed
        assert "resident" not in listed.lower() and "Aepuzz" not in listed
        assert ("3. Team name", "ans:1:e:3") in h.buttons(calls)
        # a text answer: typed
        shown = said(await h.press(ANA, "ans:1:e:3", madrid(3, 2)), ANA)
        assert "Your team's name?" in shown and "/answers 1 3 ..." in shown
        calls = await h.send(ANA, "/answers 1 3 Las Piezas", madrid(3, 2))
        assert "Entry #1: Team name is now Las Piezas (was Las Piezs)." in said(calls, ANA)
        assert "Ana changed an answer of entry #1: Team name is now Las Piezas" \
            in said(calls, BEA)
        stored = rows(h, "SELECT answer_values FROM entries WHERE number = 1")[0][0]
        assert json.loads(stored) == {"team": "Las Piezas"}
        # a choice: with its buttons
        calls = await h.press(BEA, "ans:1:1:2", madrid(3, 3))
        assert ("S", "ans:1:1:2:0") in h.buttons(calls)
        done = said(await h.press(BEA, "ans:1:1:2:0", madrid(3, 3)), BEA)
        assert "Entry #1: Bea Dos, T-shirt is now S (was L)." in done, done
        members = rows(h, "SELECT name, answers, answer_values FROM members WHERE entry = 1 "
                          "ORDER BY position")
        assert json.loads(members[1]["answer_values"]) == {"shirt": "S"}
        assert members[0]["answers"] == "resident"  # untouched
        [fix, _] = rows(h, "SELECT * FROM events WHERE kind = 'answer_fix' ORDER BY id")
        assert json.loads(fix["data"]) == {"member": None, "question": "team",
                                           "old": "Las Piezs", "new": "Las Piezas"}
        # refused, nothing changed: a row that is not one, an answer too long, the same
        assert "has no answer 4 to change (it has 3)" in said(
            await h.send(ANA, "/answers 1 4 X", madrid(3, 3)), ANA)
        assert "1 to 40 characters" in said(
            await h.send(ANA, "/answers 1 3 " + "x" * 41, madrid(3, 3)), ANA)
        assert "Nothing to change" in said(
            await h.send(ANA, "/answers 1 3 Las Piezas", madrid(3, 3)), ANA)
        # a choice typed: by its id or its label, any case; anything else refused
        assert "Please answer one of: S, M, L." in said(
            await h.send(ANA, "/answers 1 1 XL", madrid(3, 3)), ANA)
        assert "Ana Uno, T-shirt is now L (was M)" in said(
            await h.send(ANA, "/answers 1 1 l", madrid(3, 3)), ANA)
        # someone else's entry, and a forged button
        assert "Las" not in said(await h.send(SAM, "/answers 1", madrid(3, 3)), SAM)
        await h.press(SAM, "ans:1:1:2:2", madrid(3, 3))
        assert len(rows(h, "SELECT * FROM events WHERE kind = 'answer_fix'")) == 3
        # after the closing: the organisers' to change
        closed = said(await h.send(ANA, "/answers 1 3 Otra", madrid(4, 23)), ANA)
        assert "Registration is closed: entry #1's answers stay as they are" in closed
        done = said(await h.send(ORGANISER, "/answers 1 3 Piezas Sueltas", madrid(4, 23)),
                    ORGANISER)
        assert "Team name is now Piezas Sueltas" in done, done
    finally:
        await h.stop()
    kinds = entries_survive(h.contest_file, h.db_path, tmp_path)
    assert kinds.count("answer_fix") == 4
