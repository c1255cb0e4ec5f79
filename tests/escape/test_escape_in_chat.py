"""Issue 52: the escape played in the chat, through the real Application over our fake Bot API
(every call checked against the spec), on the shipped example (contests/escape-chat-2027.toml:
five stages in Spanish and English, a picture, a number in words, choices as buttons).

Both phones get each enigma; either phone's answer counts, dated by Telegram; a wrong one is
told to the phone that typed it and kept; a guess after three wrong answers waits; clues are
sent by the bot for the stage the pair is in only; the last answer solves the escape and the
volunteers are told the table; at the time limit every pair's stage is known and the bonus is
counted by it; nothing of a stage reaches a phone before its time; documents keep the answers
and the public one leaves the enigmas out."""

from __future__ import annotations

import io
import json
import os
import re
import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.features.escape import play
from bot.features.escape.rules import result
from bot.services.contest_file import load_contest
from bot.services.csvio import import_entries, read_entries
from bot.tools.scoreboard import scoreboard_data
from tests.conftest import ROOT
from tests.documents import bot as run_bot
from tests.documents import round_trip
from tests.fakebot import Call, FrozenClock, Harness, Person
from tests.registration.test_registration_chat import start_entry

EXAMPLE = ROOT / "contests" / "escape-chat-2027.toml"
MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2027, 3, 13, 10, 30, tzinfo=MADRID)  # the clock starts
ORGANISER = Person(1, "Olga", "en")
ANA = Person(101, "Ana", "en")
BEA = Person(102, "Bea", "es")
CONTEST = load_contest(EXAMPLE)
ENIGMAS = CONTEST.escape.enigmas if CONTEST.escape else ()


def at(minutes: float) -> datetime:
    return T0 + timedelta(seconds=round(minutes * 60))


def said(calls: list[Call], who: Person) -> str:
    return "\n".join(c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id)


def every_text(h: Harness, who: Person) -> str:
    return said(h.request.calls, who)


async def register(h: Harness, who: Person, partner: Person | None) -> int:
    """A pair registered by ``who`` (and followed by ``partner``'s phone): its number."""
    day = datetime(2026, 11, 2, 12, tzinfo=MADRID)  # before the real now: places held now
    await start_entry(h, who, "parejas", day)
    for name, birth in ((f"{who.name} Uno", "1980"), (f"{who.name} Dos", "1984")):
        await h.send(who, name, day)
        await h.send(who, birth, day)
    final = said(await h.press(who, "reg:ok", day), who)
    number = int(re.search(r"#(\d+)", final).group(1))  # type: ignore[union-attr]
    if partner is not None:
        code = final.split("start=")[1].split()[0].rstrip(".")
        await h.send(partner, f"/start {code}", day)
    return number


async def started(tmp_path: Path, contest: Path = EXAMPLE) -> Harness:
    return await Harness(tmp_path, contest, organisers=frozenset({ORGANISER.id})).start()


def secrets_of(stage: int, lang: str) -> list[str]:
    """What no phone may read before passing stage ``stage - 1``: the enigma of ``stage``, and
    the clue and solution of every stage from ``stage - 1`` on unless bought."""
    out = []
    for g in ENIGMAS:
        if g.stage >= stage:
            out.append(g.text[lang][:30])
        if g.stage >= stage - 1:
            out += [g.hint[lang][:30], g.solution[lang][:30]]
    return out


async def test_a_pair_plays_the_five_stages_on_two_phones(tmp_path: Path) -> None:
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        # the partner's phone, linked, is told where the enigmas come and answers go
        assert "los enigmas llegan aquí, escribe aquí tus respuestas" in every_text(h, BEA)
        # the start: both phones get stage 1's enigma, in their own language, nothing more
        await h.send(ORGANISER, "/inicio", T0)
        assert "Stage 1 of 5" in every_text(h, ANA) and "I have hands" in every_text(h, ANA)
        assert "Tengo agujas" in every_text(h, BEA)
        for who in (ANA, BEA):
            assert not [s for s in secrets_of(2, who.lang) if s in every_text(h, who)]

        # a wrong answer: told to the phone that typed it, kept; the other phone hears nothing
        calls = await h.send(ANA, "a table", at(1))
        assert "Not the answer to stage 1" in said(calls, ANA) and not said(calls, BEA)
        # the right one from the other phone, as people type it: both phones move on together
        calls = await h.send(BEA, "¡El RELOJ!", at(2))
        assert "diagonal" in said(calls, BEA)
        assert "Right! Stage 1 solved at 0:02:00" in said(calls, ANA)
        assert "Stage 2 of 5" in said(calls, ANA)
        # its picture, uploaded from beside the contest file, before the text, to both phones
        photos = [c for c in calls if c.method == "sendPhoto"]
        assert sorted(c.chat_id for c in photos) == [ANA.id, BEA.id]
        # uploaded once: the second phone gets it by the id Telegram gave the first
        assert isinstance(photos[0].params["photo"], dict)
        assert isinstance(photos[1].params["photo"], str)
        # the partner's right answer a moment later counts for nothing (not a wrong answer to
        # stage 2)
        calls = await h.send(ANA, "clock", at(2))
        assert "stage 1 is solved already" in said(calls, ANA)
        # a number in words, in any language
        calls = await h.send(ANA, "Twenty-four", at(3))
        assert "Stage 3 of 5" in said(calls, ANA) and "sale el sol" in said(calls, BEA)
        # stage 3's choices are the phones' keyboard: a tap sends the choice as a message
        third = [c for c in calls if c.method == "sendMessage" and "Stage 3 of 5" in c.text][0]
        markup = json.loads(str(third.params["reply_markup"]))
        assert [b["text"] for row in markup["keyboard"] for b in row] == \
            ["Norte", "Sur", "Este", "Oeste"]

        # three wrong answers in a row: a minute's wait from the third; one sent meanwhile is
        # refused and not counted
        for k, guess in enumerate(("Norte", "Sur", "Oeste")):
            reply = said(await h.send(BEA, guess, at(4 + k / 6)), BEA)
            assert ("10:35:20" in reply) == (k == 2), reply  # the wait's end, on the clock
        reply = said(await h.send(ANA, "Este", at(4.5)), ANA)
        assert "Too many wrong answers in a row" in reply and "0:05:20" in reply, reply
        calls = await h.send(ANA, "Este", at(5 + 20 / 60))  # exactly when the wait ends
        assert "Stage 4 of 5" in said(calls, ANA)

        # a clue: for the stage the pair is in, sent by the bot to both phones; the
        # volunteers are not told (tell_volunteers = false)
        before = len(h.request.calls)
        calls = await h.send(ANA, "/pista", at(6))
        assert "Divide the pieces by the width." in said(calls, ANA)
        assert "Dividid las piezas entre el ancho." in said(calls, BEA)
        assert "Tickets left: 10" in said(calls, ANA)
        assert not [c for c in h.request.calls[before:] if c.chat_id == ORGANISER.id]
        assert "its clue and solution are the only" in said(await h.send(ANA, "/pista 5", at(6.5)),
                                                              ANA)
        assert "Too soon" in said(await h.send(ANA, "/solucion", at(7)), ANA)  # the cooldown
        # nobody confirms a stage in the chat
        assert "nobody confirms it" in said(await h.send(ORGANISER, f"/etapa {pair} 5", at(7)),
                                            ORGANISER)

        calls = await h.send(ANA, "veinticinco", at(8))
        assert "Stage 5 of 5" in said(calls, ANA)
        # no finish before the escape ends: the pair is pointed to its enigmas, the
        # volunteers told it is still answering (not to record a solve themselves)
        assert "answer its enigmas here first" in said(await h.send(ANA, "/listo", at(8.5)),
                                                        ANA)
        assert "still answering its enigmas in the chat" in said(
            await h.send(ORGANISER, f"/fin {pair} 0:08:30", at(8.5)), ORGANISER)
        # the enigma again, on request, to this phone only
        calls = await h.send(BEA, "/respuesta", at(9))
        assert "Pieza a pieza" in said(calls, BEA) and not said(calls, ANA)
        # the last answer solves the escape: both phones and the volunteers told
        calls = await h.send(BEA, "/respuesta puzle", at(10))
        assert "0:10:00" in said(calls, BEA)
        assert "Escape solved at 0:10:00" in said(calls, ANA)
        assert f"#{pair} Ana Uno / Ana Dos solved the escape at 0:10:00: hand over the puzzle" \
            in said(calls, ORGANISER)
        state = await h.services.day.state(pair)
        assert state.ledger.solved_at == 600 and result(state.ledger).cap == 10
        # after the escape, free text is not an answer any more
        assert "no enigma to answer now" in said(await h.send(ANA, "hola", at(11)), ANA)
        # the history keeps every wrong answer with what was typed
        history = said(await h.send(ORGANISER, f"/historial {pair}", at(12)), ORGANISER)
        assert history.count("wrong answer") == 4 and '"Oeste"' in history
    finally:
        await h.stop()


async def test_at_the_time_limit_every_pairs_stage_is_known_and_the_bonus_counts_it(
        tmp_path: Path) -> None:
    h = await started(tmp_path)
    try:
        phones = [Person(200 + k, f"P{k}", "en") for k in range(6)]
        pairs = [await register(h, p, None) for p in phones]
        # a pair imported from the club's spreadsheet, whose phones never opened its link
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born\n40,parejas,Noel Uno; Noel Dos,1980; 1982\n"),
            "x.csv"))
        await h.send(ORGANISER, "/inicio", T0)
        # the volunteers are told the pair no phone follows: nobody gets its enigmas
        assert "No phone follows these pairs" in every_text(h, ORGANISER)
        assert "#40 Noel Uno / Noel Dos" in every_text(h, ORGANISER)
        answers = ["clock", "24", "Este", "25", "puzzle"]
        # pair k reaches stage k + 1; the last solves
        for k, (phone, _) in enumerate(zip(phones, pairs, strict=True)):
            for s in range(min(k, 5)):
                await h.send(phone, answers[s], at(10 * (s + 1) + k / 10))
        # the projector shows each pair's stage, known from its answers
        board = await scoreboard_data(h.services.day, h.services.contest, at(60))
        rows = {r["number"]: r for c in board["categories"] for r in c["rows"]}
        assert [rows[n]["escape"]["stage"] for n in pairs] == [1, 2, 3, 4, 5, 5]
        assert rows[pairs[5]]["escape"]["solved"] and not rows[pairs[4]]["escape"]["solved"]
        # an answer Telegram dated before the limit counts, however late it arrives
        await h.send(phones[0], "a guess", at(89.9))
        limit_answer = said(await h.send(phones[1], "24", at(90 + 1 / 60)), phones[1])
        assert "it is over for you" in limit_answer  # dated past the limit: too late
        job = h.app.bot_data["jobs_by_name"]["handover:parejas"]
        assert abs((job.job.trigger.run_date - at(90)).total_seconds()) < 1  # the time limit
        job.schedule_removal()
        await job.run(h.app)  # now, not on the real clock
        await h.app.bot_data["sender"].settled()
        line = every_text(h, ORGANISER).split("the escape is over in Parejas")[1]
        for k, number in enumerate(pairs[:5]):
            assert f"#{number} P{k} Uno / P{k} Dos: stage {k + 1}" in line
        assert f"#{pairs[5]} " not in line  # solved: not in the list
        stg = [c for c in h.request.calls if c.chat_id == ORGANISER.id and
               "stg:" in str(c.params.get("reply_markup", ""))]
        assert stg == []  # nothing to confirm
        for k, phone in enumerate(phones[:5]):
            assert f"you reached stage {k + 1} of 5" in every_text(h, phone)
        caps = CONTEST.escape.caps_by_stage if CONTEST.escape else ()
        for k, number in enumerate(pairs):
            ledger = (await h.services.day.state(number)).ledger
            assert result(ledger).cap == (caps[k] if k < 5 else 10)
        # no phone ever read what was beyond its stage
        for k, phone in enumerate(phones[:5]):
            assert not [s for s in secrets_of(k + 2, "en") if s in every_text(h, phone)], k
    finally:
        await h.stop()


def few_tickets(tmp_path: Path) -> Path:
    """The example with one ticket: the second clue is bought with time."""
    path = tmp_path / "escape-chat.toml"
    text = EXAMPLE.read_text(encoding="utf-8").replace("initial_tickets = 11",
                                                      "initial_tickets = 1")
    text = text.replace('picture = "escape-chat/cuadricula.png"',
                        f'picture = "{ROOT / "contests" / "escape-chat" / "cuadricula.png"}"')
    text = text.replace("tell_volunteers = false", "tell_volunteers = true")
    path.write_text(text, encoding="utf-8")
    assert tomllib.loads(text)["escape"]["initial_tickets"] == 1
    return path


async def test_clues_bought_with_time_when_no_ticket_is_left_and_documents_keep_it(
        tmp_path: Path) -> None:
    contest = few_tickets(tmp_path)
    h = await started(tmp_path, contest)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        calls = await h.send(ANA, "/pista", at(1))
        assert "Charged: 1 ticket." in said(calls, ANA) and "hangs on this hall" in said(calls, ANA)
        # the volunteers asked to be told: the line, without a button to walk to the table
        assert "hint stage 1" in said(calls, ORGANISER)
        calls = await h.send(BEA, "/solucion", at(6))
        assert "+0:40:00" in said(calls, BEA)
        assert "A clock." in said(calls, ANA)
        await h.send(ANA, "clock", at(7))
        await h.send(ANA, "wrong", at(8))
    finally:
        await h.stop()
    # the history (the right answers as stages, the wrong one with what was typed) goes into
    # a document and comes back with the same results; the public one has no enigma
    env = {**os.environ}
    doc = round_trip(contest, tmp_path / "bot.sqlite3", env, tmp_path)
    kinds = [e["kind"] for e in doc["history"]]
    assert "attempt" in kinds and "stage" in kinds
    public = run_bot(["export", "document", "--public"],
                     {**env, "PUZZLEBOT_CONTEST": str(contest),
                      "PUZZLEBOT_DB": str(tmp_path / "bot.sqlite3")})
    assert public.returncode == 0, public.stderr
    assert "enigmas" not in json.loads(public.stdout)["contest_file"]["data"]["escape"]
    for g in ENIGMAS:
        assert g.solution["en"] not in public.stdout and g.hint["es"] not in public.stdout
    assert pair == 1


async def test_an_answer_sent_in_time_but_handled_after_the_limit_counts_and_opens_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot was off across the time limit: an answer Telegram dated before it counts (the
    stage is passed at its date), but no enigma follows it once the time is up."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        monkeypatch.setattr(play, "CLOCK", FrozenClock(at(95)))  # handled at 1:35:00
        calls = await h.send(ANA, "clock", at(89.5))
        assert "Stage 1 solved at 1:29:30: it counts" in said(calls, ANA)
        assert "1:29:30: cuenta" in said(calls, BEA) and "Stage 2 of 5" not in every_text(h, ANA)
        assert not [s for s in secrets_of(2, "en") if s in every_text(h, ANA)]
        ledger = (await h.services.day.state(pair)).ledger
        assert ledger.stage == 2 and result(ledger).cap == 2
        for c in calls:  # the stage's buttons go
            if c.chat_id in (ANA.id, BEA.id) and c.method == "sendMessage":
                assert json.loads(str(c.params["reply_markup"])) == {"remove_keyboard": True}
    finally:
        await h.stop()


async def test_a_phone_following_two_pairs_answers_the_one_whose_choice_it_taps(
        tmp_path: Path) -> None:
    """A parent's phone follows two pairs playing: a typed answer asks which pair, but a
    choice tapped on the keyboard names the pair whose enigma shows it."""
    h = await started(tmp_path)
    try:
        first = await register(h, ANA, None)
        second = await register(h, Person(103, "Cid", "en"), None)
        code = (await h.services.store.entry(second)).join_code
        await h.send(ANA, f"/start {code}", at(-30))
        await h.send(ORGANISER, "/inicio", T0)
        for k, text in enumerate(("clock", "24")):
            await h.send(ANA, f"/respuesta {first} {text}", at(1 + k))
        reply = said(await h.send(ANA, "hola", at(3)), ANA)
        assert f"/answer N ANSWER (N: {first}, {second})" in reply, reply
        calls = await h.send(ANA, "Este", at(4))  # pair 1's stage 3 keyboard
        assert "Stage 4 of 5" in said(calls, ANA)
        assert (await h.services.day.state(first)).ledger.stage == 4
        assert (await h.services.day.state(second)).ledger.stage == 1
    finally:
        await h.stop()
