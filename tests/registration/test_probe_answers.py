"""Probes of ``/respuestas`` (bot/features/answers): each test is a bug found by a hostile
review, failing until it is fixed. Harness and contest as tests/registration/test_answers.py
(Castrillo's contest with a T-shirt choice per member and a team's name per entry)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.features.answers.rules import fixed_questions
from bot.services.contest_file import load_contest
from tests.conftest import ROOT
from tests.fakebot import Harness, Person
from tests.registration.test_answers import (
    ANA,
    BEA,
    ORGANISER,
    a_pair,
    contest,
    rows,
    said,
)
from tests.registration.test_registration_chat import csv_document, madrid, start_entry

CHAMPIONSHIP = ROOT / "contests" / "championship-2027.toml"


async def _pair(tmp_path: Path) -> Harness:
    h = await Harness(tmp_path, contest(tmp_path), organisers=frozenset({ORGANISER.id})).start()
    await a_pair(h)
    return h


async def test_an_entry_s_own_answer_changed_twice_in_a_row_reads_the_new_one(
        tmp_path: Path) -> None:
    """Ana renames her team twice: "Las Piezs" -> "Las Piezas" -> "Piezas Sueltas". The second
    change must say it was "Las Piezas" (the answer stored a moment before), and /answers must
    list the new name. Only the entry's own answers are written (``set_values``, the table
    ``entries``), and the store forgets its entries only when ``members`` is written: the bot
    goes on reading the name registered, until something else changes the members."""
    h = await _pair(tmp_path)
    try:
        said_ = said(await h.send(ANA, "/answers 1 3 Las Piezas", madrid(3, 2)), ANA)
        assert "is now Las Piezas (was Las Piezs)" in said_, said_
        listed = said(await h.send(ANA, "/answers 1", madrid(3, 2, 13)), ANA)
        assert "3. Team name: Las Piezas" in listed, listed
        said_ = said(await h.send(ANA, "/answers 1 3 Piezas Sueltas", madrid(3, 2, 14)), ANA)
        assert "is now Piezas Sueltas (was Las Piezas)" in said_, said_
        [_, second] = rows(h, "SELECT data FROM events WHERE kind = 'answer_fix' ORDER BY id")
        assert json.loads(second["data"])["old"] == "Las Piezas"
    finally:
        await h.stop()


async def test_a_choice_typed_takes_only_one_of_its_choices(tmp_path: Path) -> None:
    """``/answers 1 2 XL``: row 2 is Bea's T-shirt, a choice of S, M or L. A typed answer is
    only checked when the question is a text one, so "XL" (no such size) is stored as Bea's
    size: the organiser's order of shirts and every export then carry an answer the contest
    file does not offer. It must be refused (the choices are the buttons), nothing stored."""
    h = await _pair(tmp_path)
    try:
        reply = said(await h.send(ANA, "/answers 1 2 XL", madrid(3, 2)), ANA)
        assert "now XL" not in reply, reply
        members = rows(h, "SELECT answer_values FROM members WHERE entry = 1 ORDER BY position")
        assert json.loads(members[1]["answer_values"]) == {"shirt": "L"}
        assert rows(h, "SELECT * FROM events WHERE kind = 'answer_fix'") == []
    finally:
        await h.stop()


def test_the_answer_a_round_s_max_per_counts_by_is_fixed(tmp_path: Path) -> None:
    """A round's ``advance = { ..., max_per = 5, by = "country" }`` lets at most 5 entries of
    a country through. The championship's country also has a quota, which hides it; without
    the quota ``fixed_questions`` leaves the country changeable, so a team may change its
    country between the heats and the semi-final (no clock runs then) to slip past the five
    already through for its own. The answer a rule of advancement reads must stay as
    registered, as the docs promise for every answer a rule reads."""
    text = CHAMPIONSHIP.read_text(encoding="utf-8")
    assert "quota = 6" in text and 'by = "country"' in text
    path = tmp_path / "championship-no-quota.toml"
    path.write_text(text.replace("quota = 6", ""), encoding="utf-8")
    championship = load_contest(str(path))
    assert "country" in fixed_questions(championship)


# -- a contest with yes/no questions no rule reads -------------------------------------------

MORE = '''
[[questions]]
id = "veggie"
text = { en = "Vegetarian meal?" }
label = { en = "Vegetarian" }

[[questions]]
id = "photos"
per = "entry"
text = { en = "May we publish your photos?" }
label = { en = "Photos" }
'''


def contest_more(tmp_path: Path, extra: str = MORE) -> Path:
    """Castrillo's with the T-shirt and the team's name (test_answers.QUESTIONS), and
    ``extra`` questions after them."""
    path = contest(tmp_path)
    text = path.read_text(encoding="utf-8")
    at = text.index("[local]")
    path.write_text(text[:at] + extra.lstrip() + "\n" + text[at:], encoding="utf-8")
    return path


async def register(h: Harness, who: Person, category: str,
                   members: list[tuple[str, str, dict[str, str]]],
                   own: dict[str, str], at: datetime) -> str:
    """``who`` registers an entry in the chat: each member's name, birth and answers
    (question id -> "y"/"n", a choice's index, or the text), then the entry's own answers
    (``own``), no meal. Returns the join code (none for an entry of one)."""
    questions = h.services.contest.questions
    await start_entry(h, who, category, at)

    async def answer(i: int, q: Any, given: dict[str, str]) -> None:
        key = given.get(q.id, "n" if q.yes_no else "0")
        if q.yes_no:
            await h.press(who, f"reg:q:{i}:{key}", at)
        elif q.kind == "choice":
            await h.press(who, f"reg:c:{i}:{key}", at)
        else:
            await h.send(who, key, at)

    for name, birth, given in members:
        await h.send(who, name, at)
        await h.send(who, birth, at)
        for i, q in enumerate(questions):
            if not q.per_entry and q.asks(category):
                await answer(i, q, given)
    for i, q in enumerate(questions):
        if q.per_entry and q.asks(category):
            await answer(i, q, own)
    await h.press(who, "reg:meal:no", at)
    final = said(await h.press(who, "reg:ok", at), who)
    assert "confirmed" in final or "start=" in final, final
    return final.split("start=")[1].split()[0].rstrip(".") if "start=" in final else ""


async def a_pair_more(tmp_path: Path, extra: str = MORE) -> Harness:
    """Entry 1 in pairs, by Ana (followed by Bea): Ana (resident, M, vegetarian), Bea (L, not
    vegetarian), team "Las Piezs", photos yes. Rows: 1 Ana's T-shirt, 2 Ana vegetarian,
    3 Bea's T-shirt, 4 Bea vegetarian, 5 team, 6 photos."""
    h = await Harness(tmp_path, contest_more(tmp_path, extra),
                      organisers=frozenset({ORGANISER.id})).start()
    code = await register(h, ANA, "parejas", [
        ("Ana Uno", "1980", {"resident": "y", "shirt": "1", "veggie": "y"}),
        ("Bea Dos", "1982", {"shirt": "2"})], {"team": "Las Piezs", "photos": "y"},
        madrid(3, 1))
    await h.send(BEA, f"/start {code}", madrid(3, 1, 13))
    return h



async def test_yes_typed_for_a_yes_no_answer_does_not_turn_it_to_no(tmp_path: Path) -> None:
    """Ana answered yes to "Vegetarian meal?" and types ``/answers 1 2 Yes`` (or "sí", in
    Spanish) to be sure. A typed answer to a yes/no question is not read: anything but the
    stored "yes" is taken as no, so Ana loses her vegetarian meal with a reply saying it is
    now No, and the event records "Yes" as the new answer. A yes/no answer typed must be
    refused (its buttons change it) or read as the person meant it; never flipped."""
    h = await a_pair_more(tmp_path)
    try:
        listed = said(await h.send(ANA, "/answers 1", madrid(3, 2)), ANA)
        assert "2. Ana Uno, Vegetarian: Yes" in listed, listed
        reply = said(await h.send(ANA, "/answers 1 2 Yes", madrid(3, 2)), ANA)
        members = rows(h, "SELECT answers FROM members WHERE entry = 1 ORDER BY position")
        assert "veggie" in members[0]["answers"].split(","), reply
        assert "is now No" not in reply, reply
    finally:
        await h.stop()


async def test_an_entry_s_yes_no_answer_typed_stores_only_yes_or_no(tmp_path: Path) -> None:
    """``/answers 1 6 maybe``: row 6 is the entry's own yes/no ("May we publish your
    photos?"). The typed word is stored as it is, so the entry's answer is "maybe", which no
    export, summary or organiser's filter reads as yes or no (it shows as "No" while the
    file says "maybe"). It must be refused, nothing stored."""
    h = await a_pair_more(tmp_path)
    try:
        reply = said(await h.send(ANA, "/answers 1 6 maybe", madrid(3, 2)), ANA)
        stored = json.loads(rows(h, "SELECT answer_values FROM entries WHERE number = 1"
                                 )[0][0])
        assert stored["photos"] in ("yes", "no"), (stored, reply)
        assert rows(h, "SELECT * FROM events WHERE kind = 'answer_fix'") == [], reply
    finally:
        await h.stop()


async def test_the_export_carries_the_team_s_name_as_changed(tmp_path: Path) -> None:
    """Ana renames her team with ``/answers 1 5 Las Piezas``; the organiser then sends
    /exportar to print the table cards and the ranking (the team's name is a column of
    both). The export still says "Las Piezs": the store keeps its list of entries until the
    table grows or a member changes, and ``set_values`` writes neither. What the organisers
    print must be what the bot told Ana it now is. (/mis_datos shows the old name too.)"""
    h = await a_pair_more(tmp_path)
    try:
        await h.send(ORGANISER, "/exportar", madrid(3, 2))  # the entries read once
        done = said(await h.send(ANA, "/answers 1 5 Las Piezas", madrid(3, 2, 13)), ANA)
        assert "is now Las Piezas" in done, done
        calls = await h.send(ORGANISER, "/exportar", madrid(3, 2, 14))
        _, entries = csv_document([c for c in calls if c.method == "sendDocument"][1])
        assert entries[0]["team"] == "Las Piezas", entries[0]
        mine = said(await h.send(ANA, "/mis_datos", madrid(3, 2, 15)), ANA)
        assert "Team name: Las Piezas" in mine, mine
    finally:
        await h.stop()


async def test_a_forged_button_with_a_superscript_digit_is_ignored(tmp_path: Path) -> None:
    """A modified client sends ``ans:1:1:²``. ``choice_value`` asks ``str.isdigit`` (true
    for "²") then ``int("²")``, which raises: the person reads "Something went wrong on my
    side" and the log an error. A button that is not one of ours is ignored, as every other
    forged key is (``ans:1:1:9``, ``ans:1:1:x``); the bot's numbers are read with
    ``parse_int``."""
    h = await a_pair_more(tmp_path)
    try:
        calls = await h.press(ANA, "ans:1:1:²", madrid(3, 2))
        assert "Something went wrong" not in said(calls, ANA), said(calls, ANA)
        assert rows(h, "SELECT * FROM events WHERE kind = 'answer_fix'") == []
    finally:
        await h.stop()


async def test_a_typed_answer_on_two_lines_is_refused_as_at_registration(tmp_path: Path
                                                                         ) -> None:
    """At registration a team's name on two lines is refused ("Please write the answer on
    one line."), and ``change_answer`` means to check the same (``text_answer_problem`` looks
    for a line break in the raw text). But the handler joins ``context.args`` with spaces,
    so the line break never reaches the check: "Las\\nPiezas" is stored as "Las Piezas"
    without a word. The same answer must get the same verdict in both places."""
    h = await a_pair_more(tmp_path)
    try:
        reply = said(await h.send(ANA, "/answers 1 5 Las\nPiezas", madrid(3, 2)), ANA)
        assert "one line" in reply, reply
        stored = json.loads(rows(h, "SELECT answer_values FROM entries WHERE number = 1"
                                 )[0][0])
        assert stored["team"] == "Las Piezs"
    finally:
        await h.stop()


async def test_an_organiser_following_an_entry_changes_it_after_the_closing(
        tmp_path: Path) -> None:
    """Olga, an organiser, also follows entry 1 (she linked her phone to help the pair). After
    the closing she types ``/answers 1 5 Piezas Sueltas`` and reads "Registration is closed
    ... Ask the organisers": following the entry makes her a participant of it, and the
    organiser's right ("an organiser any entry's until it plays") is lost. An organiser is
    one whether or not her phone follows the entry."""
    h = await a_pair_more(tmp_path)
    try:
        code = rows(h, "SELECT join_code FROM entries WHERE number = 1")[0][0]
        await h.send(ORGANISER, f"/start {code}", madrid(3, 4))
        reply = said(await h.send(ORGANISER, "/answers 1 5 Piezas Sueltas", madrid(4, 23)),
                     ORGANISER)
        assert "is now Piezas Sueltas" in reply, reply
    finally:
        await h.stop()


async def test_the_history_says_which_answer_changed_and_how(tmp_path: Path) -> None:
    """Bea disputes her T-shirt size on the day; the organiser reads ``/historial 1`` and finds
    only "Ana (participant): answer changed": neither the question, the member nor the
    answers, though the event keeps them all (a correction's line says "Lucas Perz 2018 ->
    Lucas Pérez 2019"). The line must say what changed, e.g. "Bea Dos, T-shirt: L -> S"."""
    h = await a_pair_more(tmp_path)
    try:
        calls = await h.send(ANA, "/answers 1", madrid(3, 2))
        [third] = [d for label, d in h.buttons(calls) if label.startswith("3. ")]
        await h.press(ANA, f"{third}:0", madrid(3, 2))
        history = said(await h.send(ORGANISER, "/historial 1", madrid(3, 3)), ORGANISER)
        line = next(x for x in history.splitlines() if "answer changed" in x)
        assert "L" in line.split("answer changed", 1)[1] and "S" in line, line
    finally:
        await h.stop()


async def _alone(h: Harness, who: Person, name: str, photos: str, at: datetime) -> None:
    """``who`` registers alone in pairs, looking for a partner: every member question no,
    the first choice, team "<name>'s", photos ``photos``, no meal."""
    questions = h.services.contest.questions
    await start_entry(h, who, "parejas", at)
    await h.send(who, name, at)
    await h.send(who, "1980", at)
    for i, q in enumerate(questions):
        if not q.per_entry and q.asks("parejas"):
            await h.press(who, f"reg:q:{i}:n" if q.yes_no else f"reg:c:{i}:0", at)
    await h.press(who, "reg:alone", at)
    await h.send(who, f"{name}'s", at)
    await h.press(who, f"reg:q:{len(questions) - 1}:{photos}", at)
    await h.press(who, "reg:meal:no", at)
    assert "start=" in said(await h.press(who, "reg:ok", at), who)


async def test_a_button_shown_before_a_partner_joined_changes_the_answer_it_showed(
        tmp_path: Path) -> None:
    """Ana, alone and looking for a partner, lists her answers (4. Photos: No) and taps it:
    the bot offers Yes/No as ``ans:1:4:y``/``ans:1:4:n``. The organiser then pairs her with
    Bea (/emparejar 1 2): Bea's answers come in before the entry's own, so row 4 is now
    "Bea Dos, Vegetarian". Ana taps Yes under "May we publish your photos?" and the bot makes
    Bea vegetarian, the photos still No. A button must change the answer it was shown for
    (its member and question), or be refused as old: never another person's."""
    path = contest_more(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + "\n[partners]\n", encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({ORGANISER.id})).start()
    try:
        await _alone(h, ANA, "Ana Uno", "n", madrid(3, 1))
        await _alone(h, BEA, "Bea Dos", "n", madrid(3, 1, 13))
        calls = await h.send(ANA, "/answers 1", madrid(3, 2))
        assert "4. Photos: No" in said(calls, ANA), said(calls, ANA)
        [photos] = [d for label, d in h.buttons(calls) if label.startswith("4. ")]
        calls = await h.press(ANA, photos, madrid(3, 2))
        assert "May we publish your photos?" in said(calls, ANA)
        [yes] = [d for label, d in h.buttons(calls) if label == "Yes"]
        assert "Partner found" in said(await h.send(ORGANISER, "/emparejar 1 2", madrid(3, 3)),
                                       ORGANISER)
        await h.press(ANA, yes, madrid(3, 3, 13), shown=madrid(3, 2))
        # the button named the photos: they are published now, and Bea is not vegetarian
        listed = said(await h.send(ANA, "/answers 1", madrid(3, 4)), ANA)
        assert "Photos: Yes" in listed, listed
        bea = rows(h, "SELECT answers FROM members WHERE entry = 1 AND position = 1")[0][0]
        assert "veggie" not in bea.split(","), bea
    finally:
        await h.stop()


async def test_a_parent_of_two_entries_is_told_how_to_change_answers(tmp_path: Path) -> None:
    """Ana follows two entries (her pair and her own entry in the individual category) and
    types ``/answers`` alone. She is told "Which entry? Send /correct N M NAME BIRTH with its
    number": the corrections' question, naming another command and its arguments, so she
    corrects a member's name instead of a T-shirt. She must be told to send ``/answers N``."""
    h = await a_pair_more(tmp_path)
    try:
        await register(h, ANA, "adultos", [("Ana Uno", "1980", {})], {}, madrid(3, 2))
        reply = said(await h.send(ANA, "/answers", madrid(3, 3)), ANA)
        assert "/correct" not in reply and "/answers" in reply, reply
    finally:
        await h.stop()


async def test_an_organiser_naming_an_entry_that_does_not_exist_is_told_so(tmp_path: Path
                                                                          ) -> None:
    """``/answers 99`` from an organiser (there are 2 entries): the bot answers with the
    command's usage, as if the number were typed wrong, while ``/answers 99 1 X`` says
    "There is no entry number 99." The same mistake must get the same clear answer."""
    h = await a_pair_more(tmp_path)
    try:
        reply = said(await h.send(ORGANISER, "/answers 99", madrid(3, 2)), ORGANISER)
        assert "There is no entry number 99." in reply, reply
    finally:
        await h.stop()
