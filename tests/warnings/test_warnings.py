"""A volunteer's warning, ``/aviso N REASON`` (bot/features/warnings): recorded with its reason,
the entry's phones told; with ``[warnings] disqualify_after = 3`` the third warning of an entry
in its heat disqualifies it at once; /deshacer takes either back; bad input records nothing."""

from __future__ import annotations

import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.features.warnings.rules import WarningRules
from bot.handlers.commands import menu, view_for
from bot.services.contest_file import ContestFileError, load_contest, parse_contest
from bot.services.document_events import event_problem
from bot.services.summary import summary
from tests.conftest import CASTRILLO
from tests.fakebot import Harness, Person, count_events, said, two_adults_playing

MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2023, 4, 22, 11, 0, tzinfo=MADRID)
BOSS, VIC = Person(1, "Olga", "en"), Person(20, "Vic", "en")
ANA, SOL = Person(10, "Ana", "en"), Person(11, "Sol", "de")


def contest_text(limit: int | None = 3) -> str:
    text = CASTRILLO.read_text(encoding="utf-8")
    return text + (f"\n[warnings]\ndisqualify_after = {limit}\n" if limit is not None else "")


# -- the contest file ----------------------------------------------------------------------


def test_the_contest_file_sets_the_limit() -> None:
    contest = parse_contest(tomllib.loads(contest_text(3)), "x.toml")
    assert contest.settings("warnings") == WarningRules(3)
    assert load_contest(CASTRILLO).settings("warnings") is None  # no table: no limit
    assert parse_contest(tomllib.loads(contest_text(0)), "x.toml").settings(
        "warnings") == WarningRules(0)
    # check-contest's summary says it
    assert "Warnings (/aviso): 3 in a heat disqualify an entry" in summary(contest)
    assert "Warnings (/aviso): noted, never disqualify" in summary(
        parse_contest(tomllib.loads(contest_text(0)), "x.toml"))
    assert "Warnings" not in summary(load_contest(CASTRILLO))


@pytest.mark.parametrize("table,key", [
    ("disqualify_after = -1", "warnings.disqualify_after"),
    ("disqualify_after = 21", "warnings.disqualify_after"),
    ('disqualify_after = "3"', "warnings.disqualify_after"),
    ("disqualify_after = 3\nafter = 2", "warnings.after"),
])
def test_a_bad_limit_is_refused_with_its_key(table: str, key: str) -> None:
    data = tomllib.loads(CASTRILLO.read_text(encoding="utf-8") + f"\n[warnings]\n{table}\n")
    with pytest.raises(ContestFileError) as err:
        parse_contest(data, "x.toml")
    assert f"x.toml: {key}" in str(err.value), str(err.value)


# -- in the chat ---------------------------------------------------------------------------


async def open_day(tmp_path: Path, limit: int | None = 3) -> Harness:
    path = tmp_path / "warnings.toml"
    path.write_text(contest_text(limit), encoding="utf-8")
    return await two_adults_playing(tmp_path, path, BOSS, VIC, (ANA, SOL), T0)



async def test_three_warnings_disqualify_and_everyone_concerned_is_told(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        at = T0 + timedelta(minutes=10)
        calls = await h.send(VIC, "/aviso 5 talking to the next table", at)
        assert said(calls, VIC) == ["Recorded for #5: warning 1 of 3 (talking to the next "
                                    "table)."]
        assert said(calls, ANA) == ["A volunteer gave your entry a warning (warning 1 of 3): "
                                    "talking to the next table. At 3 warnings the entry is "
                                    "disqualified."]
        assert said(calls, SOL) == []  # another entry's phone hears nothing
        await h.send(VIC, "/warning 5 phone", at)  # the English name
        calls = await h.send(BOSS, "/avertissement 5 pieces from table 6", at)  # the French
        assert said(calls, BOSS)[0] == ("Recorded for #5: warning 3 of 3 (pieces from table 6)."
                                        " That is the limit: entry 5 is disqualified.")
        assert said(calls, ANA) == ["Your entry has received 3 warnings and is disqualified. "
                                    "The last one: pieces from table 6."]
        # the volunteers' line (no volunteers' group: each volunteer and organiser)
        assert "#5 disqualified: 3 warnings (the last: pieces from table 6)." in said(calls, VIC)
        ranking = "\n".join(said(await h.send(BOSS, "/clasificacion adultos", at), BOSS))
        assert "#5 Ana Uno" in ranking and "disqualified" in ranking, ranking
        history = "\n".join(said(await h.send(VIC, "/historial 5", at), VIC))
        assert history.count("warning") >= 3 and "pieces from table 6" in history, history
        # a fourth warning: recorded, no second disqualification
        calls = await h.send(VIC, "/aviso 5 again", at)
        assert said(calls, VIC) == ["Recorded for #5: warning 4 of 3 (again)."]
    finally:
        await h.stop()


async def test_undo_takes_back_the_disqualification_then_the_warning(tmp_path: Path) -> None:
    h = await open_day(tmp_path, limit=1)
    try:
        at = T0 + timedelta(minutes=10)
        await h.send(VIC, "/aviso 6 left the table", at)
        undone = await h.undo(VIC, at)
        assert said(undone, VIC)[1:] == ["Taken back: did not start or disqualified #6."]
        # the outcome's own line, in German
        assert said(undone, SOL) == [
            "Deine Anmeldung ist nicht mehr als disqualifiziert eingetragen."]
        undone = await h.undo(VIC, at)
        assert said(undone, VIC)[1:] == ["Taken back: warning #6."]
        assert said(undone, SOL) == ["Eine Verwarnung eurer Anmeldung wurde zurückgenommen."]
        # the next warning is the first again: the one taken back no longer counts
        calls = await h.send(VIC, "/aviso 6 left the table", at)
        assert said(calls, VIC)[0].startswith("Recorded for #6: warning 1 of 1")
    finally:
        await h.stop()


async def test_without_a_limit_warnings_never_disqualify(tmp_path: Path) -> None:
    h = await open_day(tmp_path, limit=None)
    try:
        at = T0 + timedelta(minutes=5)
        for i in range(4):
            calls = await h.send(VIC, f"/aviso 5 noise {i}", at)
        assert said(calls, VIC) == ["Recorded for #5: warning 4 (noise 3)."]
        assert said(calls, ANA) == ["A volunteer gave your entry a warning: noise 3."]
        ranking = "\n".join(said(await h.send(BOSS, "/clasificacion adultos", at), BOSS))
        assert "disqualified" not in ranking
    finally:
        await h.stop()


@pytest.mark.parametrize("text,answer", [
    ("/aviso", "Usage: /warning N REASON"),
    ("/aviso 5", "Usage: /warning N REASON"),
    ("/aviso cinco talking", "Usage: /warning N REASON"),
    ("/aviso 5    ", "Usage: /warning N REASON"),
    ("/aviso 99 talking", "There is no entry number 99."),
    ("/aviso 5 " + "x" * 201, "A warning's reason is at most 200 characters: nothing "
                               "recorded."),
])
async def test_bad_input_gets_one_clear_answer_and_records_nothing(
        tmp_path: Path, text: str, answer: str) -> None:
    h = await open_day(tmp_path)
    try:
        before = count_events(h)
        calls = await h.send(VIC, text, T0 + timedelta(minutes=1))
        (got,) = said(calls, VIC)
        assert got.split("\n")[0] == answer
        assert said(calls, ANA) == []
        assert count_events(h) == before
    finally:
        await h.stop()


async def test_a_participant_may_not_give_warnings(tmp_path: Path) -> None:
    h = await open_day(tmp_path)
    try:
        before = count_events(h)
        (got,) = said(await h.send(SOL, "/aviso 5 noise", T0), SOL)
        assert "Helfer" in got or "volunteer" in got.lower(), got
        assert count_events(h) == before
    finally:
        await h.stop()


def test_the_volunteers_menu_shows_it_after_the_penalty_in_every_language() -> None:
    contest = load_contest(CASTRILLO)
    view = view_for(contest, T0, "volunteer", ())
    english = [name for name, _ in menu("volunteer", "en", view)]
    assert "warning" in english
    spanish = dict(menu("volunteer", "es", view))
    assert spanish["aviso"] == "N MOTIVO: un aviso para la inscripción N"
    assert dict(menu("volunteer", "fr", view))["avertissement"] == \
        "N MOTIF : un avertissement pour l'inscription N"
    assert dict(menu("volunteer", "de", view))["warning"] == \
        "N GRUND: eine Verwarnung für Anmeldung N"
    assert "warning" not in [n for n, _ in menu("participant", "en", view)]


def test_a_documents_warning_is_read_back() -> None:
    ev = {"id": 7, "at": "2023-04-22T09:10:00+00:00", "recorded_at": "2023-04-22T09:10:00+00:00",
          "kind": "warning", "role": "volunteer", "actor": 20, "entry": 5, "category": None,
          "stage": None, "value": None, "ref": None, "data": {"reason": "noise"},
          "supersedes": None}
    assert event_problem(ev) is None
    assert event_problem({**ev, "role": "participant"}) is not None
    assert event_problem({**ev, "data": {}}) is not None
