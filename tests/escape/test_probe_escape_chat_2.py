"""Hostile probes of issue 52, the escape played in the chat, second round: each test is one
bug found, and fails until it is fixed. Played through the real Application over the fake Bot
API (the shipped example, contests/escape-chat-2027.toml), and through ``is_right`` for how
numbers in words are compared."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from bot.domain.contest import Enigma
from bot.features.escape.answers import is_right
from bot.features.following.rules import card_code
from tests.escape.test_escape_in_chat import (
    ANA,
    BEA,
    ORGANISER,
    T0,
    at,
    every_text,
    register,
    said,
    started,
)
from tests.fakebot import Person, staff

ANSWERS = ["clock", "24", "Este", "25", "puzzle"]  # the example's five stages, in order
CID = Person(103, "Cid", "en")
VIC = Person(50, "Vic", "en")  # a volunteer


def numeric(*answers: str) -> Enigma:
    return Enigma(stage=1, text={"en": "?"}, answers=answers, numbers=True)


# -- who gets the enigma -------------------------------------------------------------------------


async def test_a_phone_let_in_by_the_table_card_during_the_escape_gets_the_enigma(
        tmp_path: Path) -> None:
    """A phone that scans the pair's table card mid-escape and is let in (Allow) follows the
    pair, and its free text is taken as the pair's answer, but it never gets the enigma: the
    on_follow hook runs only for a join code, not for a card's request allowed. Like a phone
    linked by the join code, it should get the pair's current enigma (stage 2 here)."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, None)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ANA, "clock", at(1))
        code = card_code((await h.services.store.entry(pair)).join_code)
        asked = await h.send(BEA, f"/start {code}", at(2))
        allow = [d for _, d in h.buttons(asked) if d.startswith("dec:fol:") and d.endswith(":y")]
        calls = await h.press(ANA, allow[0], at(2.5), shown=at(2))
        assert "te ha dejado seguir" in said(calls, BEA)  # she follows the pair now
        told = said(calls, BEA)
        assert "Etapa 2 de 5" in told and "diagonal" in told, told
    finally:
        await h.stop()


async def test_the_enigma_sent_to_a_phone_that_follows_a_second_pair_names_that_pair(
        tmp_path: Path) -> None:
    """A phone that follows pair 1 (playing) and joins pair 2 mid-escape gets pair 2's
    enigma with no "#2 ...:" before it, while every other enigma sent to a phone following
    two pairs is prefixed with its pair (play.tell_enigma). The phone cannot tell which pair
    "Stage 1 of 5" is for (pair 1 passed stage 1 already: it reads as its own pair gone
    back). It should be named as tell_enigma names it."""
    h = await started(tmp_path)
    try:
        await register(h, ANA, None)
        second = await register(h, CID, None)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ANA, "clock", at(1))
        code = (await h.services.store.entry(second)).join_code
        calls = await h.send(ANA, f"/start {code}", at(2))
        lines = [c.text for c in calls if c.chat_id == ANA.id and c.method == "sendMessage"
                 and "Stage 1 of 5" in c.text]
        assert lines, said(calls, ANA)
        assert lines[0].startswith(f"#{second} Cid Uno / Cid Dos: "), lines[0]
    finally:
        await h.stop()


async def test_a_volunteers_solve_taken_back_gives_the_phones_their_enigma_again(
        tmp_path: Path) -> None:
    """A volunteer's /escape N (a slip: the wrong pair) tells the pair's phones "escape
    solved" and takes their enigma's buttons away; taken back with /deshacer, the phones read
    only "the escape recorded as solved was taken back". The pair is playing again (its next
    answer counts) but has no enigma on screen nor its choices. Its phones should get the
    enigma of the stage they are in again (stage 3, with its buttons), as a phone joining
    mid-escape does."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ANA, "clock", at(1))
        await h.send(ANA, "24", at(2))
        calls = await h.send(ORGANISER, f"/escape {pair}", at(3))
        assert "Escape solved" in said(calls, ANA)
        calls = await h.undo(ORGANISER, at(4))
        assert "taken back" in said(calls, ANA)
        assert (await h.services.day.state(pair)).ledger.solved_at is None
        assert "Which way does the sun rise?" in said(calls, ANA), said(calls, ANA)
        assert "sale el sol" in said(calls, BEA), said(calls, BEA)
        keyboards = [json.loads(str(c.params["reply_markup"])) for c in calls
                     if c.chat_id == ANA.id and "reply_markup" in c.params]
        assert any("keyboard" in k for k in keyboards), keyboards
    finally:
        await h.stop()


async def test_a_pair_wrongly_marked_absent_and_taken_back_gets_its_first_enigma(
        tmp_path: Path) -> None:
    """A volunteer at the door marks a pair "did not start" by mistake before /inicio, so the
    start sends it no enigma; the volunteer's /deshacer puts the pair back in play (its
    phones read "no longer recorded as did not start", and "clock" answers stage 1) but its
    phones never get stage 1's enigma. Back in play while the escape runs, they should get
    it, as the other pairs did at the start."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await staff(h, ORGANISER, VIC, T0 - timedelta(minutes=20))
        await h.send(VIC, f"/estado {pair} dns", T0 - timedelta(minutes=5))
        await h.send(ORGANISER, "/inicio", T0)
        calls = await h.undo(VIC, at(2))
        assert "no longer recorded as did not start" in said(calls, ANA)
        assert "I have hands" in every_text(h, ANA), said(calls, ANA)
        assert "Tengo agujas" in every_text(h, BEA), said(calls, BEA)
    finally:
        await h.stop()


async def test_answer_with_the_pair_number_as_told_once_the_other_pair_is_done(
        tmp_path: Path) -> None:
    """A phone following two pairs playing is told "answer with /answer N ANSWER". Once
    the other pair has solved its escape, "/respuesta 1 clock" (as it was told) is judged as
    the answer "1 clock": refused as wrong and counted towards the wait, though "clock" is
    right. The number of a pair the phone follows, first with an answer after it, names the
    pair (as for /pista N): the answer should be "clock", and right."""
    h = await started(tmp_path)
    try:
        first = await register(h, ANA, None)
        second = await register(h, CID, None)
        code = (await h.services.store.entry(second)).join_code
        await h.send(ANA, f"/start {code}", at(-30))
        await h.send(ORGANISER, "/inicio", T0)
        told = said(await h.send(ANA, "hola", at(0.5)), ANA)
        assert f"/answer N ANSWER (N: {first}, {second})" in told, told
        for k, text in enumerate(ANSWERS):  # the other pair solves
            await h.send(CID, text, at(1 + k / 10))
        reply = said(await h.send(ANA, f"/respuesta {first} clock", at(2)), ANA)
        assert "Stage 2 of 5" in reply, reply
        assert (await h.services.day.state(first)).ledger.stage == 2
    finally:
        await h.stop()


# -- who plays -----------------------------------------------------------------------------------


async def test_a_pair_that_withdrew_mid_escape_is_not_handed_its_puzzle(tmp_path: Path) -> None:
    """A pair withdrawn with /baja (confirmed) once its escape runs goes on getting enigmas,
    its answers are taken and its last one records a solve: its phones read "a volunteer
    brings you the puzzle" and the volunteers "hand over the puzzle", though the pair no
    longer holds a place (the time-limit handover leaves it out). As for a disqualified pair,
    its answers should not be taken, and nobody sent to its table."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        asked = await h.send(ANA, "/baja", at(1))
        yes = [d for _, d in h.buttons(asked) if d.startswith("baja:y")]
        done = await h.press(ANA, yes[0], at(1.1), shown=at(1))
        assert "withdrawn" in said(done, ANA)
        calls = []
        for k, text in enumerate(ANSWERS):
            calls = await h.send(BEA, text, at(2 + k))
        assert "hand over the puzzle" not in said(calls, ORGANISER), said(calls, ORGANISER)
        assert "te trae el puzzle" not in every_text(h, BEA)
        assert (await h.services.day.state(pair)).ledger.solved_at is None
    finally:
        await h.stop()


# -- the general pause ---------------------------------------------------------------------------


async def test_nobody_answers_while_the_clocks_are_stopped_and_a_wait_is_told_in_contest_time(
        tmp_path: Path) -> None:
    """During /pausa the clocks stop: a pair could otherwise clear stages in a break with no
    time counted. An answer sent then is refused ("the clocks are stopped") and not counted.
    A wait begun before the pause, and not over when it began, is told by the contest clock
    (its end on the real clock is unknown until the clocks run again), never "until -"."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        for k, guess in enumerate(("table", "chair", "door")):
            await h.send(ANA, guess, at(1 + k / 10))
        assert "paused" in said(await h.send(ORGANISER, "/pausa", at(1.5)), ORGANISER)
        refused = said(await h.send(ANA, "window", at(3)), ANA)
        assert "wait until the contest clock shows 0:02:12" in refused, refused
        assert "until -" not in refused
        refused = said(await h.send(BEA, "el reloj", at(4)), BEA)
        assert "Los relojes están parados" in refused or "0:02:12" in refused, refused
        calls = await h.send(ANA, "clock", at(5))  # still paused: the right answer waits too
        assert "Stage 2 of 5" not in said(calls, ANA)
        assert (await h.services.day.state(pair)).ledger.stage == 1
        history = said(await h.send(ORGANISER, f"/historial {pair}", at(6)), ORGANISER)
        assert history.count("wrong answer") == 3, history
    finally:
        await h.stop()


async def test_an_answer_while_the_clocks_are_stopped_is_refused_and_taken_after(
        tmp_path: Path) -> None:
    """A right answer during /pausa passes nothing; after /reanudar the same answer does."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ORGANISER, "/pausa", at(2))
        reply = said(await h.send(ANA, "clock", at(3)), ANA)
        assert "The clocks are stopped" in reply, reply
        assert (await h.services.day.state(pair)).ledger.stage == 1
        await h.send(ORGANISER, "/reanudar", at(10))
        reply = said(await h.send(ANA, "clock", at(11)), ANA)
        assert "Right! Stage 1 solved at 0:03:00" in reply, reply  # 2 + (11 - 10) minutes
    finally:
        await h.stop()


# -- numbers in words ----------------------------------------------------------------------------


def test_numbers_in_the_feminine_in_spanish_and_portuguese() -> None:
    """With numbers = true, 500 is right as "quinientos" but not "quinientas", 21 not as
    "veintiuna", 2 not as Portuguese "duas" nor 1 as "uma": only num2words' masculine is
    taken. A puzzle's pieces ("piezas", "peças") are feminine, so a Spanish or Portuguese
    pair counting them writes the feminine; it is the number correctly written out and
    should be right."""
    assert is_right(numeric("500"), "quinientas")
    assert is_right(numeric("200"), "doscientas")
    assert is_right(numeric("21"), "veintiuna")
    assert is_right(numeric("2"), "duas")
    assert is_right(numeric("1"), "uma")
    assert is_right(numeric("200"), "duzentas")


def test_numbers_in_brazilian_portuguese_and_belgian_or_swiss_french() -> None:
    """With numbers = true, 16 is right as "dezasseis" (Portugal) but not "dezesseis"
    (Brazil), and 70 and 90 only as "soixante-dix" and "quatre-vingt-dix", not as
    "septante" and "nonante" (Belgium, Switzerland). The bot speaks Portuguese and French,
    and those are how a Brazilian or a Belgian writes the number: they should be right."""
    assert is_right(numeric("16"), "dezesseis")
    assert is_right(numeric("19"), "dezenove")
    assert is_right(numeric("70"), "septante")
    assert is_right(numeric("90"), "nonante")
