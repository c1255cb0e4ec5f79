"""The rehearsal counts the commands the bot refused, by reason, and fails its verdict on a
result command refused unexpectedly (issue 48: a day where every finish was refused, "no split
yet for puzzles 1, 2 of 3", read as a success)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections import Counter
from dataclasses import fields, replace
from datetime import datetime
from pathlib import Path
from typing import get_args, get_type_hints
from zoneinfo import ZoneInfo

import pytest

from bot.domain.contest import Contest
from bot.domain.outcomes import Refusal
from bot.features.escape.outcomes import refused as escape_refused
from bot.features.escape.rules import EscapeRefusal
from bot.features.results.outcomes import FinishBeforeSplits, WhichPuzzle
from bot.rehearsal.actions import PHOTO, Action, Person
from bot.rehearsal.demo import VOLUNTEER_IDS, Rehearsal
from bot.rehearsal.fakeapi import Call
from bot.rehearsal.refusals import (
    UNRECOGNISED,
    Records,
    Said,
    not_refused,
    reason_of,
    reasons_of,
    refusal_texts,
    refusals,
    report,
    unexpected_results,
)
from bot.support.i18n import LANGUAGES
from bot.texts.common import DayRefusal, refusal
from tests.conftest import CASTRILLO, ROOT
from tests.shape.test_outcomes import an_instance

MADRID = ZoneInfo("Europe/Madrid")
AT = datetime(2023, 4, 22, 11, 0, tzinfo=MADRID)
VOLUNTEER = Person(VOLUNTEER_IDS[0], "Volunteer 1", "es")
PHONE = Person(101, "Ana", "es")


# -- which answer is a refusal, and why ----------------------------------------------------------


def a_sample(cls: type[Refusal]) -> Refusal:
    """A refusal of ``cls`` with made-up data (``an_instance``'s, a moment where one is
    wanted)."""
    made = an_instance(cls)
    hints = get_type_hints(cls)
    moments = {f.name: AT for f in fields(cls)
               if datetime in (hints[f.name], *get_args(hints[f.name]))}
    return replace(made, **moments)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_of_the_day_is_read_back_as_its_reason_in_every_language(
        castrillo: Contest, lang: str) -> None:
    """Each reason the contest day refuses with, rendered by the bot's own texts in each of its
    languages, is read back as that reason's code: the rehearsal keeps no list of the bot's
    lines, it reads them from the renderers in the source."""
    read = {}
    for cls in get_args(DayRefusal):
        read[cls.code] = reasons_of(lang, refusal(lang, a_sample(cls), castrillo))
    for cls in get_args(EscapeRefusal):
        read[cls.code] = reasons_of(lang, escape_refused(lang, a_sample(cls), castrillo, 3))
    assert {code: got for code, got in read.items() if code not in got} == {}
    assert len(read) > 60
    # one line says one reason, but for two that are one reason in two places (a category's
    # results made final, a round confirmed: claims still waiting for review)
    assert {got for got in read.values() if len(got) > 1} == {
        frozenset({"results_claims_to_review", "round_claims_to_review"})}


def test_the_lines_that_say_a_result_was_recorded_are_no_refusals(castrillo: Contest) -> None:
    for lang, answer in (
            ("es", "La inscripción 2 terminó en 1:04:01 (cuando envió /listo)."),
            ("es", "Inscripción 13: 70 piezas."),
            ("en", "Entry 6: puzzle 1 of 3 done at 0:31:44."),
            ("es", "Anotado: has terminado en 1:04:01 (a las 11:04:01). Un voluntario viene a "
                   "comprobarlo."),
            ("de", "Anmeldung 4: fertig nach 2:01:07."),
            ("es", "")):
        assert reason_of(lang, answer) is None, answer
    # the lines several puzzles in sequence refuse with, whichever form of the plural
    left = (1, 2)
    for lang in ("es", "fr", "en"):
        for any_order in (False, True):
            text = refusal(lang, FinishBeforeSplits(6, 2, left, 3, any_order), castrillo)
            assert reason_of(lang, text) == "finish_before_splits", text
        text = refusal(lang, WhichPuzzle(6, left), castrillo)
        assert reason_of(lang, text) == "which_puzzle", text


def test_the_refusal_lines_are_read_from_the_source_not_listed() -> None:
    texts = refusal_texts()
    codes = {code for found in texts.values() for code in found}
    assert {"finish_before_splits", "which_puzzle", "cooldown", "stage_same",
            "heat_started", "nothing_claimed"} <= codes
    assert len(codes) > 90


# -- what the bot refused, from its records and its answers --------------------------------------


def answer(text: str, buttons: bool = False) -> Call:
    params: dict[str, object] = {"chat_id": VOLUNTEER.id, "text": text}
    if buttons:
        params["reply_markup"] = json.dumps({"inline_keyboard": [[
            {"text": "Record 1:47:00", "callback_data": "fin:4:6420:0"}]]})
    return Call("sendMessage", params, AT)


def said(update: int, text: str, reply: str, who: Person = VOLUNTEER, buttons: bool = False,
         expect: tuple[str, ...] = ()) -> Said:
    return Said(who, text, AT, update, [answer(reply, buttons)] if reply else [],
                action=Action(AT, update, who, text, expect=expect))


SPLITS_MISSING = ("No se anota nada: la inscripción 6 aún no tiene tiempo parcial de los "
                  "puzzles 1, 2 de 3. Anótalos primero, uno a uno, con /parcial 6 [h:mm:ss] y "
                  "luego el final con /fin.")


def test_refusals_are_the_bots_records_first_then_its_answers() -> None:
    played = [
        said(1, "/fin 6", SPLITS_MISSING),  # a finish refused: nothing recorded
        said(2, "/fin 7", "La inscripción 7 terminó en 1:04:01 (cuando envió /listo)."),
        said(3, "/pista 2", "Demasiado pronto: ...", PHONE, expect=("cooldown",)),
        said(4, "/etapa 5 5", "La inscripción 5 ya está confirmada en la etapa 5.",
             expect=("stage_same",)),
        said(5, "/piezas 8 300", ""),  # no answer, nothing recorded
        said(6, "/fin 9 1:47", "¿1:47:00 o 0:01:47?", buttons=True),  # asked, not refused
        said(7, "/pista 3", "Pista de la etapa 3 (#5).", PHONE, expect=("cooldown",)),
        said(8, "/clasificacion", "Adultos parejas - clasificación"),
        Said(PHONE, PHOTO, AT, 9, [answer(SPLITS_MISSING)]),  # recorded: the line is not read
    ]
    records = Records(recorded={2, 7, 9}, refused={3: "cooldown"})
    refused = refusals(played, records, "es")
    assert [(r.said.update, r.reason, r.expected) for r in refused] == [
        (1, "finish_before_splits", False), (3, "cooldown", True), (4, "stage_same", True),
        (5, UNRECOGNISED, False)]
    assert [(r.said.shown, r.name) for r in unexpected_results(refused)] == [
        ("/fin 6", "no split yet for the earlier puzzles"),
        ("/piezas 8 300", "nothing recorded, no answer")]
    meant = not_refused(played, refused)
    assert [s.update for s in meant] == [7]  # a hint meant to be asked too soon, given
    assert report(refused, meant) == [
        "Refused commands: 4 (2 meant by the rehearsal, 2 unexpected):",
        "  1 × /fin: no split yet for the earlier puzzles",
        "  1 × /piezas: nothing recorded, no answer",
        "  1 × /etapa: that stage was already confirmed (meant)",
        "  1 × /pista: asked too soon after the last request (meant)",
        "  /pista 3 was meant to be refused (asked too soon after the last request); the bot "
        "took it",
    ]
    assert report([], []) == ["Refused commands: 0."]


def test_a_button_is_counted_as_the_command_it_stands_for() -> None:
    pressed = Said(VOLUNTEER, "ready:ok:6:41", AT, 1, [answer(SPLITS_MISSING)], pressed=True)
    typed_as_tap = Said(VOLUNTEER, "ready:ok:6:41", AT, 2, [answer(SPLITS_MISSING)],
                        pressed=True, action=Action(AT, 2, VOLUNTEER, "/fin 6",
                                                    label="[#6 Anotar 1:02:03]"))
    registering = Said(PHONE, "reg:cat:adultos", AT, 3, [], pressed=True)
    assert [s.command for s in (pressed, typed_as_tap, registering)] == [
        "/fin (button)", "/fin (button)", "/inscribir (button)"]
    assert pressed.result and typed_as_tap.result and not registering.result
    refused = refusals([pressed, typed_as_tap], Records(), "es")
    assert [r.said.shown for r in unexpected_results(refused)] == ["ready:ok:6:41",
                                                                   "[#6 Anotar 1:02:03]"]


# -- whole rehearsals ------------------------------------------------------------------------------


def refused_block(out: str) -> list[str]:
    lines = out.split("Refused commands: ", 1)[1].split("\nVerdict: ", 1)[0].splitlines()
    return lines[1:]


def meant_in_plan(seed: int, entries: int) -> Counter[str]:
    """The refusals the rehearsal's plan of a Castrillo day means, by command."""
    r = Rehearsal(str(CASTRILLO), entries, seed, "unused.sqlite3", out=io.StringIO())
    r.plan_teams()
    for i, team in enumerate(r.teams, 1):
        team.number = i
    actions = r.plan_day(r.start_moment(), {t.number for t in r.teams})
    return Counter(a.text.split()[0] for a in actions if a.expect)


def test_the_report_counts_the_refused_commands_by_reason(tmp_path: Path) -> None:
    """A Castrillo day as ``make demo`` plays it: the hints the pairs ask too soon on purpose
    and the stages confirmed again at the handover, counted by command and reason, each said
    to be meant; the verdict holds and ``demo`` exits 0."""
    meant = meant_in_plan(9, 8)
    assert meant["/pista"] and meant["/etapa"]  # the plan of this day means both
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PYTHONIOENCODING"] = "utf-8"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--contest", str(CASTRILLO), "--entries", "8",
         "--seed", "9", "--seconds", "6", "--db", str(tmp_path / "refused.sqlite3")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr[-3000:]
    total = sum(meant.values())
    assert f"\nRefused commands: {total} (all meant by the rehearsal):\n" in out, out[-2000:]
    assert refused_block(out) == [
        f"  {meant['/pista']} × /pista: asked too soon after the last request (meant)",
        f"  {meant['/etapa']} × /etapa: that stage was already confirmed (meant)"]
    # each of them is in the transcript with the bot's answer, in Spanish
    assert len(re.findall(r"/pista \d -> Demasiado pronto", out)) == meant["/pista"]
    assert len(re.findall(r"/etapa \d+ \d -> La inscripción \d+ ya está confirmada", out)
               ) == meant["/etapa"]
    assert out.rstrip().endswith("Verdict: every entry that played has a result or a stated "
                                 "reason. No result command was refused unexpectedly.")


MARATHON = """
[[categories]]
id = "maraton"
name = "Maratón"
members = 1
slots = [{ born_to = 2010 }]
pieces = 1500
time_limit = "3:00:00"
puzzles = [500, 500, 500]         # three puzzles in sequence: a split as each is done
fee = 10
"""


class SkippingSplits(Rehearsal):
    """The volunteers forget the splits: no ``/parcial`` is sent, and every finish (or count)
    of an entry playing puzzles in sequence is refused ("no split yet")."""

    def plan_day(self, start: datetime, confirmed: set[int]) -> list[Action]:
        return [a for a in super().plan_day(start, confirmed)
                if not a.text.startswith("/parcial")]


async def test_a_day_whose_finishes_are_refused_fails_its_verdict(tmp_path: Path) -> None:
    """Castrillo with a marathon of three puzzles in sequence, played once. Its volunteers
    record each split, and the finish counts (before, the rehearsal sent no split, every
    marathon finish was refused and the day still read as a success: a /listo waiting counted
    as a reason). Made to skip the splits, the same day's result commands are refused:
    counted as unexpected, named in the verdict, and the rehearsal exits 1."""
    contest = tmp_path / "castrillo-maraton.toml"
    contest.write_text(CASTRILLO.read_text(encoding="utf-8") + MARATHON, encoding="utf-8")

    out = io.StringIO()
    played = Rehearsal(str(contest), 6, 2, str(tmp_path / "splits.sqlite3"), out=out,
                       day_seconds=6)
    assert await played.run() == 0, out.getvalue()[-3000:]
    text = out.getvalue()
    (runner,) = [t.number for t in played.teams if t.category.id == "maraton"]
    assert re.search(rf"volunteer \d: /parcial {runner} \d:\d\d:\d\d -> Inscripción {runner}: "
                     r"puzzle 1 de 3 terminado", text), text[-3000:]
    assert "result command" not in text.split("Verdict:")[1].replace("No result command", "")

    out = io.StringIO()
    skipping = SkippingSplits(str(contest), 6, 2, str(tmp_path / "skipped.sqlite3"), out=out,
                              day_seconds=6)
    assert await skipping.run() == 1
    text = out.getvalue()
    assert not re.search(r"volunteer \d: /parcial", text)
    (runner,) = [t.number for t in skipping.teams if t.category.id == "maraton"]
    (command,) = [line for line in refused_block(text) if "(meant)" not in line]
    assert re.fullmatch(r"  1 × /(fin|piezas): no split yet for the earlier puzzles", command)
    verdict = text.split("\nVerdict: ", 1)[1]
    # the entry whose finish was refused has no result (its /listo is no reason in the
    # hall), and the command is named
    assert verdict.startswith(f"1 entry played and was left without a result or a reason: "
                              f"#{runner} (Maratón). "), verdict
    verdict = verdict.split(". ", 1)[1]
    assert re.match(rf"1 result command was refused unexpectedly: volunteer \d's "
                    rf"/(fin {runner}|piezas {runner} \d+) at \d\d:\d\d:\d\d \(no split yet for "
                    r"the earlier puzzles\)\.", verdict), verdict
