"""Hostile probes of ``/aviso`` (bot/features/warnings), issue 46: each test here shows a
behaviour a volunteer, an organiser or a parent would hit, asserted on what people receive
and what the database holds. They failed on the code as it was probed, and hold what was
fixed (the fourth holds the behaviour docs/rules.md states)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from tests.clirun import bot_main
from tests.warnings.test_warnings import ANA, BOSS, T0, VIC, count_events, open_day, said


def outcomes(h) -> list[tuple[int, str, str | None]]:  # type: ignore[no-untyped-def]
    """The outcome events in force: (entry, ref, data)."""
    with sqlite3.connect(h.db_path) as db:
        rows = db.execute("SELECT id, entry, ref, data FROM events WHERE kind = 'outcome' "
                          "ORDER BY id").fetchall()
        dead = {r[0] for r in db.execute("SELECT supersedes FROM events WHERE supersedes "
                                         "IS NOT NULL")}
    return [(e, ref, data) for i, e, ref, data in rows if i not in dead]


# -- 1. a reason that is nothing once cleaned --------------------------------------------------


@pytest.mark.parametrize("invisible", [
    "\u200b",        # a zero-width space (a copy-paste from a web page brings them)
    "\u202e",        # right-to-left override alone
    "\u2066\u2069",  # a directional isolate, opened and closed
    "\ufeff",        # a byte order mark
])
async def test_a_reason_made_only_of_invisible_characters_is_no_reason(
        tmp_path: Path, invisible: str) -> None:
    """The handler checks ``reason.strip()``; the operation then cleans the reason
    (``clean_note`` drops format characters) and only checks it is not too long: an empty
    reason is recorded, and with ``disqualify_after = 1`` the entry is disqualified with an
    empty reason, something ``/estado N dsq`` refuses ("a disqualification needs a reason").
    The parent reads "Your entry has received 1 warning and is disqualified: ." """
    h = await open_day(tmp_path, limit=1)
    try:
        before = count_events(h)
        calls = await h.send(VIC, f"/aviso 5 {invisible}", T0 + timedelta(minutes=3))
        got = said(calls, VIC)
        assert got and got[0].split("\n")[0] == "Usage: /warning N REASON", got
        assert said(calls, ANA) == []  # the parent is told nothing
        assert count_events(h) == before  # nothing recorded
        assert outcomes(h) == []  # and above all, no disqualification
    finally:
        await h.stop()


async def test_a_day_with_a_warning_disqualification_travels_as_a_document(
        tmp_path: Path) -> None:
    """The same hole seen from the organiser's side after the day: the disqualification a
    warning with an invisible reason wrote cannot be read back by ``import document``
    ("a disqualification without its reason; nothing was imported"): the contest's record
    cannot be moved to another machine or archived and restored."""
    h = await open_day(tmp_path, limit=1)
    try:
        await h.send(VIC, "/aviso 5 \u200b", T0 + timedelta(minutes=3))
    finally:
        await h.stop()
    env = {**os.environ, "PUZZLEBOT_CONTEST": str(h.contest_file),
           "PUZZLEBOT_DB": str(h.db_path)}
    doc = tmp_path / "day.json"
    out = await asyncio.to_thread(bot_main, ["export", "document", "--out", str(doc)], env)
    assert out.returncode == 0, out.stderr
    fresh = {**env, "PUZZLEBOT_DB": str(tmp_path / "fresh.sqlite3")}
    loaded = await asyncio.to_thread(bot_main, ["import", "document", str(doc)], fresh)
    assert loaded.returncode == 0, loaded.stderr


# -- 2. /historial ------------------------------------------------------------------------------


async def test_the_history_shows_why_each_warning_was_given(tmp_path: Path) -> None:
    """``/historial 5`` lists a warning as "warning 0:10:00": its reason, the only thing a
    warning says, is nowhere (an organiser asked by a parent "why was my child disqualified?"
    reads three bare "warning" lines; only the last reason survives, on the disqualification).
    A disqualification's own line shows its reason ("disqualified (c)")."""
    h = await open_day(tmp_path, limit=None)
    try:
        at = T0 + timedelta(minutes=10)
        await h.send(VIC, "/aviso 5 talking to the next table", at)
        await h.send(VIC, "/aviso 5 phone on the table", at)
        history = "\n".join(said(await h.send(BOSS, "/historial 5", at), BOSS))
        assert "talking to the next table" in history, history
        assert "phone on the table" in history, history
    finally:
        await h.stop()


# -- 3. a disqualification after the results were made final ----------------------------------


async def test_a_warning_that_disqualifies_after_final_results_says_they_were_final(
        tmp_path: Path) -> None:
    """Every other change to a category whose results are final (/fin, /piezas, /estado N
    dsq, /deshacer, /penalizacion) ends its answer with "The results of ... were already
    final: /publish again tells the entries whose result changed." A warning that
    disqualifies a ranked entry after publication says nothing of it: the winner's place is
    taken away, the ranking the entries were told is wrong, and the volunteer is not told
    to publish again."""
    h = await open_day(tmp_path, limit=1)
    try:
        await h.send(VIC, "/fin 5 1:10:00", T0 + timedelta(hours=1, minutes=11))
        await h.send(VIC, "/fin 6 1:20:00", T0 + timedelta(hours=1, minutes=21))
        await h.send(BOSS, "/publicar adultos", T0 + timedelta(hours=1, minutes=30))
        done = await h.press(BOSS, "pub:adultos", T0 + timedelta(hours=1, minutes=31))
        assert any("place 1 of 2" in t for t in said(done, ANA)), said(done, ANA)
        # the control: a disqualification typed with /estado says the results were final
        control = said(await h.send(VIC, "/estado 6 dsq left early",
                                    T0 + timedelta(hours=1, minutes=40)), VIC)
        assert "were already final" in control[0], control
        calls = await h.send(VIC, "/aviso 5 pieces from table 6",
                             T0 + timedelta(hours=1, minutes=41))
        answer = said(calls, VIC)[0]
        assert answer.startswith("Recorded for #5: warning 1 of 1"), answer
        assert "were already final" in answer, answer
    finally:
        await h.stop()


# -- 4. a warning taken back under a disqualification it helped to bring ----------------------


async def test_taking_back_an_earlier_warning_leaves_the_disqualification_to_its_recorder(
        tmp_path: Path) -> None:
    """Vic gave entry 5 a warning meant for entry 6; the organiser then gave it two real ones,
    the second the third: disqualified. Vic takes her mistaken warning back: two warnings
    are in force, and the disqualification stays, a record of its own (docs/rules.md,
    "Warnings": taking a warning back does not take a disqualification back; its recorder
    does, with /deshacer). The organiser's /deshacer then lifts it."""
    h = await open_day(tmp_path, limit=3)
    try:
        at = T0 + timedelta(minutes=10)
        await h.send(VIC, "/aviso 5 talking", at)  # meant for entry 6
        await h.send(BOSS, "/aviso 5 phone", at)
        calls = await h.send(BOSS, "/aviso 5 pieces from table 6", at)
        assert "disqualified" in said(calls, BOSS)[0]
        undone = await h.undo(VIC, at + timedelta(minutes=1))
        assert said(undone, VIC)[1:] == ["Taken back: warning #5."]
        assert outcomes(h) == [(5, "dsq", '{"reason": "pieces from table 6"}')]
        undone = await h.undo(BOSS, at + timedelta(minutes=2))
        assert said(undone, BOSS)[1:] == ["Taken back: did not start or disqualified #5."]
        assert outcomes(h) == []
        ranking = "\n".join(said(await h.send(BOSS, "/clasificacion adultos", at), BOSS))
        assert "disqualified" not in ranking, ranking
    finally:
        await h.stop()


# -- 5. a document's warning is not checked against the entry's heats -------------------------


async def test_a_documents_warning_in_a_heat_the_entry_never_played_is_refused(
        tmp_path: Path) -> None:
    """``import document`` decides every event of an entry's play in the heat it names
    (``_entry_event``: "heat 'x' is not one of adultos's", a round already confirmed, ...);
    a feature's kind, ``warning``, goes through with none of it: a warning of entry 5 in a
    category or heat it never played (here "infantil-r9h9") is imported, a record the bot
    could never have written (and one that never counts, so the imported day's next /aviso
    disagrees with the document's history)."""
    import json

    h = await open_day(tmp_path, limit=3)
    try:
        await h.send(VIC, "/aviso 5 talking", T0 + timedelta(minutes=3))
    finally:
        await h.stop()
    env = {**os.environ, "PUZZLEBOT_CONTEST": str(h.contest_file),
           "PUZZLEBOT_DB": str(h.db_path)}
    path = tmp_path / "day.json"
    out = await asyncio.to_thread(bot_main, ["export", "document", "--out", str(path)], env)
    assert out.returncode == 0, out.stderr
    doc = json.loads(path.read_text(encoding="utf-8"))
    (warning,) = [e for e in doc["history"] if e["kind"] == "warning"]
    warning["category"] = "infantil-r9h9"
    path.write_text(json.dumps(doc), encoding="utf-8")
    fresh = {**env, "PUZZLEBOT_DB": str(tmp_path / "fresh.sqlite3")}
    loaded = await asyncio.to_thread(bot_main, ["import", "document", str(path)], fresh)
    assert loaded.returncode == 2, loaded.stdout
    assert f"event {warning['id']} (warning of entry 5)" in loaded.stderr, loaded.stderr
