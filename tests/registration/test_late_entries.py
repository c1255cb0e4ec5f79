"""No silently dropped entry (issue 24, items 7 and 8): registration for a first round (or a
heat chosen at registration) that has begun is refused, or a later heat offered, in the chat and
in the import; check-contest warns when registration closes after a first heat; the projector
page open while people register never errors; the bot's own entries export reads back."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.features.registration.day import Registrations
from bot.features.registration.rules import HeatBegun, heat_choices_open, too_late_to_join
from bot.services.contest_file import load_contest
from bot.services.contest_rounds import contest_warnings
from bot.services.csvio import ImportError_, import_entries, read_entries, refuse_entries_too_late
from bot.tools.scoreboard import scoreboard_data
from tests.clirun import bot_main
from tests.fakebot import Call, Harness, Person, texts

ROOT = Path(__file__).resolve().parents[2]
TZ = ZoneInfo("Europe/Madrid")
SOLO_HEATS = datetime(2027, 7, 1, 10, 0, tzinfo=TZ)
PORTO = datetime(2027, 7, 1, 11, 0, tzinfo=TZ)
VALLADOLID = datetime(2027, 7, 2, 9, 0, tzinfo=TZ)
BOSS, ANA, BEA = Person(1, "Olga", "en"), Person(101, "Ana", "en"), Person(102, "Bea", "en")

# registration stays open after Porto's qualifier, for Valladolid's
CONTEST = """
[contest]
name = "Late entries"
date = 2027-07-01
timezone = "Europe/Madrid"
language = "en"

[registration]
opens = 2027-05-01T00:00:00
closes = 2027-07-02T08:00:00

[[questions]]
id = "qualifier"
text = "Which qualifier?"
kind = "choice"
per = "entry"
categories = ["teams"]
choices = [{ id = "porto", label = "Porto, 1 July" },
           { id = "valladolid", label = "Valladolid, 2 July" }]

[[categories]]
id = "solo"
name = "Individual"
members = 1
slots = [{}]
pieces = 500
time_limit = "1:00:00"
fee = 0

[[categories.rounds]]
id = "heats"
name = "Heats"
date = 2027-07-01
start = "10:00"
heats = 2
advance = { best = 2 }

[[categories.rounds]]
id = "final"
name = "Final"
date = 2027-07-03
start = "10:00"

[[categories]]
id = "teams"
name = "Teams"
members = 1
slots = [{}]
pieces = 1000
time_limit = "2:00:00"
fee = 0

[[categories.rounds]]
id = "qualifier"
name = "Qualifier"
heats_by = "qualifier"
advance = { best = 2 }

[[categories.rounds.heat]]
date = 2027-07-01
start = "11:00"
venue = "Porto"

[[categories.rounds.heat]]
date = 2027-07-02
start = "09:00"
venue = "Valladolid"

[[categories.rounds]]
id = "final"
name = "Final"
date = 2027-07-03
start = "13:00"
"""


@pytest.fixture
def contest_file(tmp_path: Path) -> Path:
    path = tmp_path / "late.toml"
    path.write_text(CONTEST, encoding="utf-8")
    return path


def said(calls: list[Call], who: Person) -> list[str]:
    return [c.text for c in calls if c.method == "sendMessage" and c.chat_id == who.id]


def data(h: Harness, calls: list[Call]) -> list[str]:
    return [d for _, d in h.buttons(calls)]


# -- the rule, pure ---------------------------------------------------------------------------


def test_the_rule_closes_a_round_split_by_number_once_its_first_heat_begins(
        contest_file: Path) -> None:
    contest = load_contest(contest_file)
    solo, teams = contest.category("solo"), contest.category("teams")
    assert solo is not None and teams is not None
    before = SOLO_HEATS - timedelta(minutes=1)
    assert too_late_to_join(contest, solo, before) is None
    assert too_late_to_join(contest, solo, SOLO_HEATS) == HeatBegun(1, SOLO_HEATS)
    # a clock started early closes it too, whatever the hour
    assert too_late_to_join(contest, solo, before, started={2}) == HeatBegun(
        2, SOLO_HEATS, started=True)
    # heats chosen at registration: only the chosen heat's beginning counts
    after_porto = PORTO + timedelta(hours=2)
    assert heat_choices_open(contest, teams, before) == ("porto", "valladolid")
    assert heat_choices_open(contest, teams, after_porto) == ("valladolid",)
    assert too_late_to_join(contest, teams, after_porto, choice="porto") == HeatBegun(1, PORTO)
    assert too_late_to_join(contest, teams, after_porto, choice="VALLADOLID") is None
    assert too_late_to_join(contest, teams, after_porto, chosen=False) is None
    assert too_late_to_join(contest, teams, VALLADOLID, chosen=False) == HeatBegun(1, PORTO)


# -- in the chat ------------------------------------------------------------------------------


async def test_a_late_team_is_offered_only_the_heats_to_come_and_plays_in_one(
        contest_file: Path, tmp_path: Path) -> None:
    """The issue's case: Porto's qualifier has been played (its clock started) and a team
    registers afterwards. It is offered Valladolid only; the old Porto button is refused; it
    plays in Valladolid's heat (before: "your place is confirmed", then in no heat)."""
    h = await Harness(tmp_path, contest_file, organisers=frozenset({BOSS.id})).start()
    try:
        await import_entries(h.services.store, read_entries(h.services.contest, io.StringIO(
            "number,category,names,born,qualifier,registered_at\n"
            "1,teams,Team One,1990,porto,2027-06-01T10:00:00\n"), "x.csv"))
        await h.send(BOSS, "/start", PORTO - timedelta(days=1))
        early = await h.send(ANA, "/inscribir", PORTO - timedelta(days=1))
        assert set(data(h, early)) == {"reg:cat:solo", "reg:cat:teams"}
        assert said(await h.send(BOSS, "/inicio teams-qualifier1", PORTO), BOSS) == [
            "Clock started for: Qualifier – Porto, 1 July (Teams)."]
        late = PORTO + timedelta(hours=2)
        calls = await h.send(ANA, "/inscribir", late)
        # Individual's heats began at 10:00: no longer offered, and its old button is refused
        assert data(h, calls) == ["reg:cat:teams"], texts(calls)
        refused = said(await h.press(ANA, "reg:cat:solo", late), ANA)
        assert refused == ["Too late for Heats of Individual: it began on July 1, 2027 at "
                           "10:00, and its entrants are set."]
        await h.press(ANA, "reg:cat:teams", late)
        await h.send(ANA, "Late Team", late)
        calls = await h.send(ANA, "1990", late)
        assert data(h, calls) == ["reg:c:0:1"], h.buttons(calls)  # Valladolid only
        # a Porto button from before (or typed by a modified client) is refused, asked again
        calls = await h.press(ANA, "reg:c:0:0", late)
        assert said(calls, ANA)[0] == (
            "Too late for Qualifier – Porto, 1 July of Teams: it started on July 1, 2027 at "
            "11:00, and its entrants are set.\nChoose one still to come:")
        assert data(h, calls) == ["reg:c:0:1"]
        calls = await h.press(ANA, "reg:c:0:1", late)
        assert "reg:ok" in data(h, calls)
        done = said(await h.press(ANA, "reg:ok", late), ANA)
        assert any("your place is confirmed" in t for t in done), done
        entry = (await h.services.store.entries("teams"))[-1]
        assert entry.answer("qualifier") == "valladolid"
        teams = h.services.contest.category("teams")
        assert await h.services.day.lineups(teams) == [[[1], [entry.number]]]
    finally:
        await h.stop()


@pytest.mark.parametrize("lang, refused", [
    ("es", "Demasiado tarde para Heats de Individual: empezó el 1 de julio de 2027 a las 09:40, "
           "y sus participantes ya están fijados."),
    ("de", "Zu spät für Heats von Individual: Der Lauf hat am 1. Juli 2027 um 09:40 begonnen, "
           "und seine Teilnehmer stehen fest."),
])
async def test_a_registration_after_an_early_start_says_when_it_started(
        contest_file: Path, tmp_path: Path, lang: str, refused: str) -> None:
    """The organiser starts Individual's heats twenty minutes early (/inicio at 9:40): a
    registration at 9:50 is refused, and says the moment the heats started, not just that
    they have (issue 47, item 10)."""
    h = await Harness(tmp_path, contest_file, organisers=frozenset({BOSS.id})).start()
    try:
        late = Person(103, "Lea", lang)
        await import_entries(h.services.store, read_entries(h.services.contest, io.StringIO(
            "number,category,names,born\n1,solo,Sol One,1990\n"), "x.csv"))
        await h.send(BOSS, "/start", SOLO_HEATS - timedelta(days=1))
        early = SOLO_HEATS - timedelta(minutes=20)
        assert said(await h.send(BOSS, "/inicio solo-heats1", early), BOSS)[0].startswith(
            "Clock started for: Heats 1")
        await h.send(late, "/inscribir", early + timedelta(minutes=10))
        out = said(await h.press(late, "reg:cat:solo", early + timedelta(minutes=10)), late)
        assert out == [refused]
    finally:
        await h.stop()


async def test_a_team_registered_for_a_later_heat_after_the_first_began_plays_it(
        contest_file: Path, tmp_path: Path) -> None:
    """Each chosen heat's entrants are set when that heat begins: a team registered for
    Valladolid after Porto's clock started is in Valladolid's heat (it was in none)."""
    h = await Harness(tmp_path, contest_file, organisers=frozenset({BOSS.id})).start()
    try:
        svc = h.services
        rows = read_entries(svc.contest, io.StringIO(
            "number,category,names,born,qualifier,registered_at\n"
            "1,teams,Team One,1990,porto,2027-06-01T10:00:00\n"
            "2,teams,Team Two,1990,valladolid,2027-06-01T10:01:00\n"), "x.csv")
        await import_entries(svc.store, rows)
        await h.send(BOSS, "/start", PORTO - timedelta(days=1))
        assert said(await h.send(BOSS, "/inicio teams-qualifier1", PORTO), BOSS) == [
            "Clock started for: Qualifier – Porto, 1 July (Teams)."]
        teams = svc.contest.category("teams")
        out = await Registrations(svc.contest, svc.store).register(
            ANA.id, teams, read_entries(svc.contest, io.StringIO(
                "category,names,born,qualifier\nteams,Team Three,1990,valladolid\n"),
                "y.csv")[0].members, 0, 0, PORTO + timedelta(hours=3), None,
            values=(("qualifier", "valladolid"),))
        assert out.ok, out
        assert await svc.day.lineups(teams) == [[[1], [2, 3]]]
        # and Porto, begun, takes nobody more: the service refuses it as the chat does
        late = await Registrations(svc.contest, svc.store).register(
            BEA.id, teams, rows[0].members[:1], 0, 0, PORTO + timedelta(hours=3), None,
            values=(("qualifier", "porto"),))
        assert not late.ok and late.reason == "heat_started"
        assert len(await svc.store.entries()) == 3
    finally:
        await h.stop()


async def test_a_summary_confirmed_after_its_heat_began_offers_a_later_heat(
        contest_file: Path, tmp_path: Path) -> None:
    """The summary (Porto chosen) is shown before Porto begins and confirmed after it: the
    team is not registered for Porto, and is asked again with the heats to come."""
    h = await Harness(tmp_path, contest_file, organisers=frozenset({BOSS.id})).start()
    try:
        before = PORTO - timedelta(minutes=10)
        await h.send(BEA, "/inscribir", before)
        await h.press(BEA, "reg:cat:teams", before)
        await h.send(BEA, "Bea's Team", before)
        calls = await h.send(BEA, "1990", before)
        assert data(h, calls) == ["reg:c:0:0", "reg:c:0:1"]
        assert "reg:ok" in data(h, await h.press(BEA, "reg:c:0:0", before))
        await h.send(BEA, "/ayuda", PORTO + timedelta(minutes=5))  # Telegram dates the press
        calls = await h.press(BEA, "reg:ok", before)
        assert said(calls, BEA)[0] == (
            "Too late for Qualifier – Porto, 1 July of Teams: it began on July 1, 2027 at "
            "11:00, and its entrants are set.\nChoose one still to come:")
        assert data(h, calls) == ["reg:c:0:1"]
        assert await h.services.store.entries() == []
        calls = await h.press(BEA, "reg:c:0:1", PORTO + timedelta(minutes=6))
        assert "reg:ok" in data(h, calls)  # straight back to the summary
        done = said(await h.press(BEA, "reg:ok", PORTO + timedelta(minutes=6)), BEA)
        assert any("your place is confirmed" in t for t in done), done
        [entry] = await h.services.store.entries()
        assert entry.answer("qualifier") == "valladolid"
    finally:
        await h.stop()


async def test_the_refusal_is_in_the_persons_language(contest_file: Path,
                                                      tmp_path: Path) -> None:
    h = await Harness(tmp_path, contest_file, organisers=frozenset({BOSS.id})).start()
    try:
        late = SOLO_HEATS + timedelta(minutes=30)
        for who, expected in ((Person(201, "Eva", "es"), "Demasiado tarde para Heats de "
                               "Individual: empezó el 1 de julio de 2027 a las 10:00, y sus "
                               "participantes están fijados."),
                              (Person(202, "Léa", "fr"), "Trop tard pour Heats de Individual "
                               ": elle a commencé le 1 juillet 2027 à 10:00, et ses "
                               "participants sont fixés.")):
            await h.send(who, "/inscribir", late)
            assert said(await h.press(who, "reg:cat:solo", late), who) == [expected]
    finally:
        await h.stop()


# -- in the import ----------------------------------------------------------------------------


async def test_the_import_refuses_a_line_for_a_heat_that_has_begun_naming_it(
        contest_file: Path, tmp_path: Path) -> None:
    h = await Harness(tmp_path, contest_file, organisers=frozenset({BOSS.id})).start()
    try:
        svc = h.services
        regs = Registrations(svc.contest, svc.store)
        late = PORTO + timedelta(hours=2)
        header = "category,names,born,qualifier\n"
        fine = read_entries(svc.contest, io.StringIO(
            header + "teams,Team V,1990,valladolid\n"), "x.csv")
        await refuse_entries_too_late(svc.contest, regs, fine, late)  # Valladolid is to come
        porto = read_entries(svc.contest, io.StringIO(
            header + "teams,Team V,1990,valladolid\nteams,Team P,1990,porto\n"), "x.csv")
        with pytest.raises(ImportError_) as err:
            await refuse_entries_too_late(svc.contest, regs, porto, late)
        assert str(err.value) == (
            "x.csv:3: column qualifier: 'porto': heat teams-qualifier1 began on "
            "2027-07-01 11:00: its entrants are set, and the entry would play in no heat "
            "(heats still to come: valladolid)")
        solo = read_entries(svc.contest, io.StringIO(header + "solo,Sol,1990,\n"), "x.csv")
        with pytest.raises(ImportError_) as err:
            await refuse_entries_too_late(svc.contest, regs, solo, late)
        assert str(err.value).startswith("x.csv:2: solo: its first round's heat solo-heats1 "
                                          "began on 2027-07-01 10:00")
        # a registered_at after the heat began counts even when imported before it
        dated = read_entries(svc.contest, io.StringIO(
            "category,names,born,registered_at\nsolo,Sol,1990,2027-07-01T10:30:00\n"), "x.csv")
        with pytest.raises(ImportError_):
            await refuse_entries_too_late(svc.contest, regs, dated, SOLO_HEATS - timedelta(1))
        # a team without its heat would be in none: refused while reading
        with pytest.raises(ImportError_) as err:
            read_entries(svc.contest, io.StringIO(header + "teams,Team X,1990,\n"), "x.csv")
        assert "x.csv:2: column qualifier: empty" in str(err.value)
    finally:
        await h.stop()


def cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS``, in this process (tests/clirun.py)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    full.update(env)
    return bot_main(args, full)


def test_import_entries_refuses_a_heat_already_played_and_imports_nothing(tmp_path: Path) -> None:
    """Through ``python -m bot import entries``: a qualifier played last September (the
    contest's second is still to come)."""
    past = (CONTEST.replace("2027-07-01", "2024-09-27").replace("2027-07-02", "2024-10-20")
            .replace("2027-07-03", "2024-10-21").replace("2027-05-01", "2024-05-01"))
    path = tmp_path / "past.toml"
    path.write_text(past.replace("closes = 2024-10-20T08:00:00", "closes = 2024-10-19T00:00:00"),
                    encoding="utf-8")
    src = tmp_path / "in.csv"
    src.write_text("category,names,born,qualifier\nteams,Team P,1990,porto\n", encoding="utf-8")
    env = {"PUZZLEBOT_CONTEST": str(path), "PUZZLEBOT_DB": str(tmp_path / "db.sqlite3")}
    proc = cli(["import", "entries", str(src)], env)
    assert proc.returncode == 2, proc.stderr
    assert f"error: {src}:2: column qualifier: 'porto': heat teams-qualifier1 began on " \
           "2024-09-27 11:00" in proc.stderr
    assert "nothing was imported" in proc.stderr
    forced = cli(["import", "entries", str(src), "--force"], env)  # never forced
    assert forced.returncode == 2, forced.stderr


# -- check-contest ----------------------------------------------------------------------------


def test_check_contest_warns_when_registration_closes_after_a_first_heat(
        contest_file: Path) -> None:
    contest = load_contest(contest_file)
    assert contest_warnings(contest, "late.toml") == [
        "late.toml: registration.closes: 2027-07-02 08:00 is after solo's first heat begins "
        "(2027-07-01 10:00, categories[1].rounds[1]): from then on solo takes no more entries",
        "late.toml: registration.closes: 2027-07-02 08:00 is after teams's first heat begins "
        "(2027-07-01 11:00, categories[2].rounds[1]): from then on an entry can choose only "
        "a heat still to come"]
    proc = cli(["check-contest", str(contest_file)], {})
    assert proc.returncode == 0
    assert proc.stderr.count("warning: ") == 2, proc.stderr
    for shipped in sorted((ROOT / "contests").glob("*.toml")):
        assert contest_warnings(load_contest(shipped), shipped.name) == []


# -- 8a: the projector page while people register --------------------------------------------


async def test_the_scoreboard_never_errors_when_an_entry_lands_between_its_reads(
        contest_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lineups read the places, then the entries: an entry registered between the two
    was listed without a place (``KeyError`` in ``places[n]``, the projector's 503)."""
    h = await Harness(tmp_path, contest_file, organisers=frozenset({BOSS.id})).start()
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born,registered_at\n"
            "1,solo,Uno,1990,2027-06-01T10:00:00\n"), "x.csv"))
        store = svc.store
        original = Registrations.places
        raced = False

        async def places_then_a_registration(self, now):  # type: ignore[no-untyped-def]
            nonlocal raced
            places = await original(self, now)
            if not raced:
                raced = True  # someone's Confirm lands right after the places were read
                out = await original_register(
                    Registrations(svc.contest, store), ANA.id, svc.contest.category("solo"),
                    read_entries(svc.contest, io.StringIO("category,names,born\nsolo,Dos,1991\n"),
                                 "y.csv")[0].members, 0, 0, SOLO_HEATS - timedelta(days=2), None)
                assert out.ok, out
            return places

        original_register = Registrations.register
        monkeypatch.setattr(Registrations, "places", places_then_a_registration)
        board = await scoreboard_data(svc.day, svc.contest, SOLO_HEATS - timedelta(days=1))
        monkeypatch.undo()
        assert raced
        json.dumps(board)
        lineup = await svc.day.lineups(svc.contest.category("solo"))
        assert sorted(n for heat in lineup[0] for n in heat) == [1, 2]  # next read has it
    finally:
        await h.stop()


# -- 8b: the bot's own export reads back ------------------------------------------------------


def test_export_entries_then_import_into_a_fresh_database_gives_the_same_entries(
        tmp_path: Path) -> None:
    """Castrillo's registration closed in 2023: entries imported now, without registered_at,
    are registered now (after the closing, with a note). Their export then reads back into a
    fresh database without --force, as the same entries."""
    contest = ROOT / "contests" / "castrillo-2023.toml"
    src = tmp_path / "website.csv"
    src.write_text("number,category,names,born,aepuzz_member,resident\n"
                   "3,parejas,Ana; Bea,1980; 1985,no; yes,no; no\n"
                   "7,adultos,Carlos,1975,yes,yes\n", encoding="utf-8")
    first = {"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(tmp_path / "a.sqlite3")}
    proc = cli(["import", "entries", str(src)], first)
    assert proc.returncode == 0, proc.stderr
    assert "note: " in proc.stderr and "registered now" in proc.stderr
    exported = cli(["export", "entries"], first)
    assert exported.returncode == 0, exported.stderr
    dump = tmp_path / "entries.csv"
    dump.write_text(exported.stdout, encoding="utf-8")
    second = {"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(tmp_path / "b.sqlite3")}
    back = cli(["import", "entries", str(dump)], second)
    assert back.returncode == 0, back.stderr
    assert "error" not in back.stderr and "forced" not in back.stderr, back.stderr
    again = cli(["export", "entries"], second)

    def entries(text: str) -> list[dict[str, str]]:
        keep = ("number", "category", "names", "born", "local", "join_code", "registered_at",
                "aepuzz_member", "resident", "status")
        return [{k: r[k] for k in keep} for r in csv.DictReader(io.StringIO(text))]

    assert entries(again.stdout) == entries(exported.stdout)
    assert len(entries(again.stdout)) == 2
