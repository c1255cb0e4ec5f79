"""Hostile probes of issue 52, the escape played in the chat: each test is one bug found, and
fails until it is fixed. Played through the real Application over the fake Bot API (the
shipped example, contests/escape-chat-2027.toml), through ``is_right`` for how answers are
compared, and through ``import document`` for the history a document may bring."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

from bot.domain.contest import Enigma
from bot.features.escape.answers import is_right
from bot.services.document import export_document
from tests.clirun import bot_main
from tests.conftest import ROOT
from tests.escape.test_escape_in_chat import (
    ANA,
    BEA,
    EXAMPLE,
    ORGANISER,
    T0,
    at,
    every_text,
    register,
    said,
    started,
)
from tests.exports.test_cli import cli_env
from tests.fakebot import Harness, Person

ANSWERS = ["clock", "24", "Este", "25", "puzzle"]  # the example's five stages, in order
CID = Person(103, "Cid", "en")


def numeric(*answers: str) -> Enigma:
    return Enigma(stage=1, text={"en": "?"}, answers=answers, numbers=True)


def with_absolute_picture(tmp_path: Path) -> Path:
    """The example with its picture named by its full path (so ``import document`` can read
    it from any folder: see the test of the relative one)."""
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        'picture = "escape-chat/cuadricula.png"',
        f'picture = "{ROOT / "contests" / "escape-chat" / "cuadricula.png"}"')
    path = tmp_path / "escape-chat.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def handover_now(h: Harness) -> None:
    """The category's time-limit job, run by hand (not on the real clock)."""
    job = h.app.bot_data["jobs_by_name"]["handover:parejas"]
    job.schedule_removal()
    await job.run(h.app)
    await h.app.bot_data["sender"].settled()


# -- answers -------------------------------------------------------------------------------------


async def test_a_message_with_no_letter_or_digit_is_not_a_wrong_answer(tmp_path: Path) -> None:
    """An emoji or a "?" sent to the bot is counted as a wrong answer, and three of them make
    the pair wait a minute. The contest file refuses an answer with no letter or digit
    ("nobody could type it"), so such a message can never be an answer: it should not be
    counted (a fair organiser would not punish a thumbs-up to the partner)."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        for k, text in enumerate(("👍", "?", "🤔")):
            reply = said(await h.send(ANA, text, at(1 + k / 60)), ANA)
            assert "Not the answer" not in reply, (text, reply)
        reply = said(await h.send(ANA, "clock", at(1.1)), ANA)
        assert "Stage 2 of 5" in reply, reply
        history = said(await h.send(ORGANISER, f"/historial {pair}", at(2)), ORGANISER)
        assert "wrong answer" not in history, history
    finally:
        await h.stop()


async def test_the_last_answer_at_exactly_the_time_limit_solves_as_a_volunteers_would(
        tmp_path: Path) -> None:
    """A pair whose last right answer Telegram dates exactly 1:30:00 is told "no enigma to
    answer", while a volunteer's /escape N 1:30:00 is accepted. The rules say "a solve is
    accepted up to and including 1:30:00" and that the chat changes nothing about the time
    limit: the pair's own answer at 1:30:00 should solve the escape at 1:30:00."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        for k, text in enumerate(ANSWERS[:4]):
            await h.send(ANA, text, at(1 + k))
        reply = said(await h.send(ANA, "puzzle", at(90)), ANA)
        assert "Escape solved at 1:30:00" in reply, reply
        state = await h.services.day.state(pair)
        assert state.ledger.solved_at == 90 * 60
    finally:
        await h.stop()


def test_numbers_a_decimal_or_a_fraction_is_not_read_as_a_whole_number() -> None:
    """With numbers = true, "2.5" is read as 25 and "1/2" as 12 (their punctuation dropped
    before the digits are read), so "twenty-five" answers 2.5 and "twelve" answers 1/2. Only a
    whole-number answer is also right in words (docs/contest-file.md, numbers): neither should
    be."""
    assert not is_right(numeric("2.5"), "twenty-five")
    assert not is_right(numeric("1/2"), "twelve")


def test_numbers_a_negative_answer_keeps_its_sign() -> None:
    """With numbers = true, the answer -5 takes "five" and "5" but refuses "minus five" and
    "menos cinco": the sign is dropped as punctuation before the number is read. A whole
    number is right in digits or in words, so -5 should take "minus five", never "five"."""
    enigma = numeric("-5")
    assert is_right(enigma, "minus five")
    assert is_right(enigma, "menos cinco")
    assert not is_right(enigma, "five")


def test_numbers_in_english_words_without_and() -> None:
    """With numbers = true, 105 is right as "one hundred and five" but not as "one hundred
    five" (the usual American way, and how many write it): only num2words' own spelling is
    taken. A whole number should be right however it is correctly written out in English."""
    assert is_right(numeric("105"), "one hundred five")


# -- who plays, who is told ----------------------------------------------------------------------


async def test_a_disqualified_pair_is_not_handed_its_puzzle(tmp_path: Path) -> None:
    """A pair disqualified in the escape goes on answering: its last answer records the solve,
    its phones read "a volunteer brings you the puzzle now" and the volunteers are told "hand
    over the puzzle". As a disqualified entry's /fin is refused and records nothing, its
    answers should be refused, and nobody sent to its table."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ORGANISER, f"/estado {pair} dsq phone passed to another table", at(0.5))
        calls = []
        for k, text in enumerate(ANSWERS):
            calls = await h.send(ANA, text, at(1 + k))
        assert "hand over the puzzle" not in said(calls, ORGANISER), said(calls, ORGANISER)
        assert "brings you the puzzle" not in every_text(h, ANA)
        state = await h.services.day.state(pair)
        assert state.ledger.solved_at is None
    finally:
        await h.stop()


async def test_a_pair_that_did_not_start_is_not_in_the_handover(tmp_path: Path) -> None:
    """At the time limit the volunteers read "these pairs get the puzzle now" with a pair a
    volunteer marked as did not start (nobody at its table), and its phone is told a volunteer
    is bringing the puzzle. A pair that did not start plays nothing: it should be left out of
    the list and not told."""
    h = await started(tmp_path)
    try:
        await register(h, ANA, BEA)
        absent = await register(h, CID, None)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ORGANISER, f"/estado {absent} dns", at(1))
        await handover_now(h)
        line = every_text(h, ORGANISER).split("the escape is over in Parejas")[1]
        assert f"#{absent} " not in line, line
        assert "brings you the puzzle" not in every_text(h, CID)
    finally:
        await h.stop()


async def test_a_phone_that_links_during_the_escape_gets_the_current_enigma(
        tmp_path: Path) -> None:
    """A phone that starts following a pair once its escape runs (the partner's phone joining
    late, or a new phone for one that died) is told only "/pista, /solucion, /billetes": no
    enigma, nor that typing answers it. The enigmas are sent only at /inicio, so this phone
    never sees its pair's enigma. It should get the pair's current enigma (stage 2 here, not
    stage 1), as both phones do at the start."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, None)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ANA, "clock", at(1))
        code = (await h.services.store.entry(pair)).join_code
        reply = said(await h.send(BEA, f"/start {code}", at(2)), BEA)
        assert "Etapa 2 de 5" in reply and "diagonal" in reply, reply
        assert "Tengo agujas" not in reply
    finally:
        await h.stop()


# -- documents -----------------------------------------------------------------------------------


async def _chat_day(tmp_path: Path, contest: Path) -> dict[str, Any]:
    """A pair's escape in the chat: three wrong answers at 0:01:00-0:01:02 (a wait until
    0:02:02), then the five stages at 0:03:00 to 0:07:00; the day's document."""
    h = await started(tmp_path, contest)
    try:
        await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        for k in range(3):
            await h.send(ANA, f"guess {k}", at(1 + k / 60))
        for k, text in enumerate(ANSWERS):
            await h.send(ANA, text, at(3 + k))
        svc = h.services
        return await export_document(svc.contest, contest.read_text(encoding="utf-8"), svc.day)
    finally:
        await h.stop()


def _import(tmp_path: Path, contest: Path, doc: dict[str, Any], name: str) -> Any:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return bot_main(["import", "document", str(path)],
                    cli_env({"PUZZLEBOT_CONTEST": str(contest),
                             "PUZZLEBOT_DB": str(tmp_path / f"{name}.sqlite3")}))


async def test_import_document_reads_the_examples_picture_beside_its_contest_file(
        tmp_path: Path) -> None:
    """``import document`` reads the contest file again from its text, labelled
    "PUZZLEBOT_CONTEST", so an enigma's picture given relative to the contest file (as the
    docs say and the shipped example does) is looked for in the current folder: from anywhere
    but contests/ the import dies with a traceback. The picture should be looked for beside
    PUZZLEBOT_CONTEST, and the document imported."""
    doc = await _chat_day(tmp_path, EXAMPLE)
    out = await asyncio.to_thread(_import, tmp_path, EXAMPLE, doc, "example")
    assert out.returncode == 0, out.stderr[-500:]


async def test_import_refuses_a_wrong_answer_after_the_escape_was_solved(
        tmp_path: Path) -> None:
    """A document's wrong answers ("attempt") are not checked at all: one dated after the
    pair solved the escape, or for a stage 9 of 5, is imported. The bot never writes one of
    either (an answer after the escape is refused), so the import should refuse it, as it
    refuses a hint after the escape."""
    contest = with_absolute_picture(tmp_path)
    doc = await _chat_day(tmp_path, contest)
    plain = await asyncio.to_thread(_import, tmp_path, contest, doc, "plain")
    assert plain.returncode == 0, plain.stderr[-500:]

    late = copy.deepcopy(doc)
    wrong = next(e for e in late["history"] if e["kind"] == "attempt")
    last = late["history"][-1]
    assert last["kind"] == "escape"
    late["history"].append({**wrong, "id": last["id"] + 1, "stage": 5,
                            "at": last["at"].replace("09:37:00", "09:50:00"),
                            "recorded_at": last["recorded_at"]})
    out = await asyncio.to_thread(_import, tmp_path, contest, late, "late")
    assert out.returncode == 2, "an answer after the solve was imported"

    beyond = copy.deepcopy(doc)
    next(e for e in beyond["history"] if e["kind"] == "attempt")["stage"] = 9
    out = await asyncio.to_thread(_import, tmp_path, contest, beyond, "beyond")
    assert out.returncode == 2, "an answer to stage 9 of 5 was imported"


async def test_import_refuses_a_right_answer_taken_while_the_pair_waited(
        tmp_path: Path) -> None:
    """After three wrong answers (0:01:00 to 0:01:02) the pair waits until 0:02:02, and the
    bot refuses any answer meanwhile. A document whose stage 1 is passed at 0:01:30 is
    imported: the import replays the stages without the wrong answers, so never sees the wait.
    It should refuse it ("an answer while the pair waited", the line it already has)."""
    contest = with_absolute_picture(tmp_path)
    doc = await _chat_day(tmp_path, contest)
    passed = next(e for e in doc["history"] if e["kind"] == "stage" and e["stage"] == 2)
    assert passed["at"].endswith("09:33:00+00:00"), passed
    passed["at"] = passed["at"].replace("09:33:00", "09:31:30")
    out = await asyncio.to_thread(_import, tmp_path, contest, doc, "waited")
    assert out.returncode == 2, "a right answer inside the wait was imported"


async def test_a_guess_dated_before_the_stage_was_passed_does_not_count_against_the_next(
        tmp_path: Path) -> None:
    """Bea's wrong guess Telegram dated 0:00:59, handled just after Ana's right answer of
    0:01:00 (two chats are handled side by side, and a restart catches up on both), is judged
    against stage 2: Bea reads "not the answer to stage 2" (an enigma she had not seen) and it
    counts as a wrong answer there, so two real guesses in stage 2 make the pair wait. Every
    answer counts at its date: that guess was about stage 1 and should not count against
    stage 2 ("a new stage starts the count again")."""
    h = await started(tmp_path)
    try:
        await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ANA, "clock", at(1))
        late = said(await h.send(BEA, "mesa", at(59 / 60)), BEA)
        assert "etapa 2" not in late, late
        await h.send(ANA, "twenty", at(2))
        second = said(await h.send(ANA, "thirty", at(2.1)), ANA)
        assert "wait until" not in second, second
        reply = said(await h.send(ANA, "24", at(2.2)), ANA)
        assert "Stage 3 of 5" in reply, reply
    finally:
        await h.stop()
