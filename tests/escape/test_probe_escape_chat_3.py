"""Hostile probes of issue 52, the escape played in the chat, third round: each test is one
bug found, and fails until it is fixed. Played through the real Application over the fake Bot
API, on the shipped example (contests/escape-chat-2027.toml)."""

from __future__ import annotations

from pathlib import Path

from tests.escape.test_escape_in_chat import (
    ANA,
    BEA,
    ORGANISER,
    T0,
    at,
    register,
    said,
    started,
)

ANSWERS = ["clock", "24", "Este", "25", "puzzle"]  # the example's five stages, in order


async def test_the_other_phones_right_answer_to_the_last_stage_is_told_solved_already(
        tmp_path: Path) -> None:
    """Bea answers the last enigma right at 0:12:00 and solves the escape; Ana's phone sends
    the same right answer the same second and reads "There is no enigma to answer now: the
    escape has not started, or it is over for you", as if she had typed to nobody. The rules
    (docs/rules.md, "The escape played in the chat") say the other phone's right answer a
    moment later "counts for nothing and is told 'solved already'", and operations._not_taken
    has that branch for the last stage (PassedByPartner), but it is never reached: play's
    _playing drops a solved pair before the answer is judged. Ana should read that the stage
    was solved already on the other phone."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        for k, text in enumerate(ANSWERS[:4]):
            await h.send(ANA, text, at(1 + k))
        assert "Escape solved at 0:12:00" in said(await h.send(BEA, "puzzle", at(12)), ANA)
        reply = said(await h.send(ANA, "puzzle", at(12)), ANA)
        assert "the escape is solved already" in reply, reply
        assert (await h.services.day.state(pair)).ledger.solved_at == 12 * 60
    finally:
        await h.stop()


async def test_done_during_the_escape_in_the_chat_does_not_send_the_pair_to_a_volunteer(
        tmp_path: Path) -> None:
    """A pair that sends /listo while its escape runs in the chat is told "Your escape is not
    over yet: when you solve it, call a volunteer, who records it" (the volunteers' mode's
    line). Played in the chat, nobody records the solve: the last enigma answered right
    solves it (docs/rules.md, "The escape played in the chat"), and a volunteer called over
    would only be tempted to type /escape N. The refusal should point the pair at its enigma
    (answer it here), not at a volunteer."""
    h = await started(tmp_path)
    try:
        await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ANA, "clock", at(1))
        reply = said(await h.send(ANA, "/listo", at(20)), ANA)
        assert "not over yet" in reply, reply  # refused, as it should be
        assert "call a volunteer" not in reply, reply
    finally:
        await h.stop()


async def test_a_volunteers_solve_timed_before_the_pairs_right_answers_is_refused(
        tmp_path: Path) -> None:
    """The pair answered stage 1 right at 0:19:00 and stage 2 at 0:20:00 (both recorded, at
    Telegram's dates): at 0:20:00 it was still playing, in stage 3. A volunteer's /escape N
    0:10:00 (a slip for 0:40:00, say) is accepted, and the pair ranks with an escape time of
    0:10:00, ten minutes before its own answers, first in the category. The rules refuse a
    solve timed earlier than an accepted request (docs/rules.md, "End of the escape"), for
    the same reason: the history shows the pair still playing then. A solve timed before the
    last stage the pair passed in the chat should be refused too, and nothing recorded."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ANA, "clock", at(19))
        await h.send(ANA, "24", at(20))
        assert (await h.services.day.state(pair)).ledger.stage == 3
        reply = said(await h.send(ORGANISER, f"/escape {pair} 0:10:00", at(30)), ORGANISER)
        assert "solved the escape at 0:10:00" not in reply, reply
        assert (await h.services.day.state(pair)).ledger.solved_at is None
    finally:
        await h.stop()


async def test_the_history_does_not_call_a_right_answer_a_confirmed_stage(
        tmp_path: Path) -> None:
    """In the chat nobody confirms a stage (/etapa is refused), yet /historial shows a pair's
    right answer as "Ana (participant): stage 2 confirmed 0:01:00", the volunteers' words for
    /etapa: read in a dispute, it says the pair confirmed its own stage. The line should say
    the stage was passed by a right answer (stage 1 answered right), not "confirmed"."""
    h = await started(tmp_path)
    try:
        pair = await register(h, ANA, BEA)
        await h.send(ORGANISER, "/inicio", T0)
        await h.send(ANA, "clock", at(1))
        history = said(await h.send(ORGANISER, f"/historial {pair}", at(2)), ORGANISER)
        line = next(x for x in history.splitlines() if "10:31:00" in x)
        assert "confirmed" not in line, line
    finally:
        await h.stop()
