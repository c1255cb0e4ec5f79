"""The rehearsal (`python -m bot demo`): a whole day against the fake Bot API, same seed same
day, and the SQLite file it leaves behind."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.rehearsal.actions import Action, Person
from bot.rehearsal.demo import VOLUNTEER_IDS, Rehearsal
from bot.rehearsal.fakeapi import Call
from bot.storage.store import Store
from bot.support.wallclock import WallClock
from tests.conftest import BILLOM, CASTRILLO, ROOT
from tests.documents import round_trip

MADRID = ZoneInfo("Europe/Madrid")


def plan(seed: int, contest=CASTRILLO):
    r = Rehearsal(str(contest), 16, seed, "unused.sqlite3", out=io.StringIO())
    r.plan_teams()
    for i, team in enumerate(r.teams, 1):
        team.number = i
    start = r.start_moment()
    actions = r.plan_day(start, {t.number for t in r.teams})
    return ([(t.category.id, t.members, t.registered_at) for t in r.teams],
            [(a.at, a.actor.id, a.text) for a in actions])


def test_same_seed_same_day():
    assert plan(7) == plan(7)
    assert plan(7) != plan(8)
    assert plan(3, BILLOM) == plan(3, BILLOM)


def test_planned_castrillo_day_follows_the_rules():
    teams, actions = plan(5)
    start = datetime(2023, 4, 22, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
    assert actions[0] == (start, 1, "/inicio")
    # the results made final, then the rankings read out: final, not provisional (issue 47)
    assert [a[2] for a in actions[-2:]] == ["/publicar", "/clasificacion"]
    assert actions == sorted(actions, key=lambda a: a[0])
    for when, _, text in actions:
        if text.startswith(("/pista", "/solucion")):
            assert (when - start).total_seconds() < 90 * 60  # only during the escape


def _demo(contest, db):
    """``python -m bot demo`` on ``contest`` (8 entries, seed 2), leaving ``db``: its
    transcript, once it ended well; and the environment it ran in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PYTHONIOENCODING"] = "utf-8"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--contest", str(contest), "--entries", "8",
         "--seed", "2", "--seconds", "6", "--db", str(db)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout, env


def test_demo_runs_a_whole_day_and_leaves_the_database(tmp_path):
    db = tmp_path / "rehearsal.sqlite3"
    out, env = _demo(CASTRILLO, db)
    assert "Verdict: every entry that played has a result or a stated reason." in out
    assert "Registrations (8 entries, in the chat):" in out
    assert "/inicio" in out and "Rankings:" in out
    assert "Adultos parejas - clasificación" in out
    # the rankings shown last are the published ones, never titled provisional (issue 47)
    assert "(provisional)" not in out.split("Rankings:")[1]
    assert "all checked against the spec: OK" in out and "errors in the bot's log: none" in out
    # registrations close once, after they were taken: told on the day the laptop comes back,
    # never at the start, weeks before anyone registered (issue 47, item 9)
    registering, day = out.split("The day (", 1)
    assert "Las inscripciones están cerradas" not in registering
    assert day.count("Las inscripciones están cerradas") == 1
    # the day in clock order; each clock alert at its moment, as its own line, never as the
    # answer to someone's message
    lines = day_lines(out)
    assert [line[3:11] for line in lines] == sorted(line[3:11] for line in lines)
    alerts = [line for line in lines if "minutos." in line or "se acabó el tiempo!" in line]
    assert alerts and all(re.match(r"  \[\d\d:\d\d:00\] bot -> ", line) for line in alerts)
    assert not any(" -> " in line.split(": ")[1] for line in alerts)
    assert db.exists()
    env.update({"PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_DB": str(db)})
    export = subprocess.run([sys.executable, "-m", "bot", "export", "results"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=60)
    rows = list(csv.DictReader(io.StringIO(export.stdout)))
    # Castrillo takes payments in the chat: entries pay their invoice, and one more entry
    # pays and withdraws the next day, told what it gets back; the 8 planned play
    assert re.search(r"pays \d+ € in the chat -> Pago recibido de la inscripción #\d+", out)
    assert re.search(r"#9 \w+ Vidal.*: /baja 9 -> La inscripción #9 queda dada de baja\. Se "
                     r"te reembolsará", registering), registering
    # a waiting list moving: a school class fills a small category, a family waits and gets
    # the place the school gives back (Castrillo: at once), then every place is given back
    assert re.search(r"#\d+ \w+ Lina -> Inscripción #\d+: no quedan plazas libres; eres el "
                     r"número 1 de la lista de espera", registering), registering
    assert re.search(r"bot -> #\d+ \w+ Luna: Buenas noticias: ha quedado libre una plaza",
                     registering), registering
    # the name typed wrong corrected; Vidal's money given back, recorded by the organiser
    assert re.search(r"/corregir \d+ 1 \w+ Luna \d{4} -> Inscripción #\d+, miembro 1: \w+ "
                     r"Lina \(\d{4}\) ahora figura como \w+ Luna", registering), registering
    assert "organiser: /reembolsado 9 -> Anotado: se han devuelto 10 € a la inscripción #9." \
        in registering, registering
    assert len(rows) == 8
    assert any(r["position"] == "1" for r in rows)
    round_trip(CASTRILLO, db, env, tmp_path)  # the day as one document, and back


def test_with_a_waiting_list_that_moves_itself_the_place_is_offered_and_accepted(tmp_path):
    """The same rehearsal with ``[waiting_list]``: the family waiting is offered the place the
    school gives back, with its deadline, and accepts it with the offer's button."""
    contest = tmp_path / "castrillo-offers.toml"
    contest.write_text(CASTRILLO.read_text(encoding="utf-8")
                       + "\n[waiting_list]\noffer_hours = 24\n", encoding="utf-8")
    out, _ = _demo(contest, tmp_path / "rehearsal.sqlite3")
    assert "Verdict: every entry that played has a result or a stated reason." in out
    assert re.search(r"bot -> #\d+ \w+ Luna: Buenas noticias: ha quedado libre una plaza y se "
                     r"le ofrece a la inscripción #\d+", out), out[:6000]
    assert re.search(r"#\d+ \w+ Luna accepts the place offered -> Inscripción #\d+: plaza "
                     r"aceptada\.", out), out[:6000]
    assert "errors in the bot's log: none" in out


def _demo_results(tmp_path, name: str, *more: str) -> tuple[str, list[dict[str, str]]]:
    """A rehearsal run as ``make demo`` runs it (8 entries, seed 2): its transcript, and the
    results export of the database it leaves."""
    db = tmp_path / f"{name}.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PYTHONIOENCODING"] = "utf-8"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--contest", str(CASTRILLO), "--entries", "8",
         "--seed", "2", "--seconds", "6", "--db", str(db), *more],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    env.update({"PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_DB": str(db)})
    export = subprocess.run([sys.executable, "-m", "bot", "export", "results"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=60)
    return proc.stdout, list(csv.DictReader(io.StringIO(export.stdout)))


def test_the_buttons_mode_plays_the_same_day_in_taps_with_the_same_results(tmp_path):
    """``demo --buttons``: each volunteer's /fin after a /listo is the FINISHED? line's Record
    button, each /etapa at the escape's end the handover line's stage button, one tap each;
    the results are those of the typed day."""
    typed_out, typed = _demo_results(tmp_path, "typed")
    tapped_out, tapped = _demo_results(tmp_path, "tapped", "--buttons")
    assert tapped == typed and len(typed) == 8
    (report,) = [line for line in tapped_out.splitlines() if line.startswith("Buttons: ")]
    taps = re.match(r"Buttons: (\d+) volunteers' commands played as one tap each \((.*)\); "
                    r"(\d+) still typed; (\d+) lines taken with \"I'm going\" first\.", report)
    assert taps is not None, report
    assert int(taps.group(1)) > 0 and "finish" in taps.group(2), report
    # a volunteer takes the FINISHED? line before walking over (a claim changes no result)
    assert int(taps.group(4)) > 0, report
    # the typed /fin N lines are taps in the transcript, the rankings the same
    assert re.search(r"volunteer \d: \[#\d+ Anotar \d:\d\d:\d\d\] -> La inscripción \d+ terminó",
                     tapped_out), tapped_out
    assert not re.search(r"volunteer \d: /fin \d+ ->", tapped_out)  # each /fin N a tap
    assert tapped_out.split("Rankings:")[1].split("Bot API calls")[0] == \
        typed_out.split("Rankings:")[1].split("Bot API calls")[0]


def rehearse(contest: Path, db: Path, entries: str, seed: str) -> tuple[str, dict[str, str]]:
    """``python -m bot demo --contest CONTEST`` into ``db``, fast: its transcript, and the
    environment (no token, no deployment settings) it ran with."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    env["PYTHONIOENCODING"] = "utf-8"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--contest", str(contest), "--entries", entries,
         "--seed", seed, "--seconds", "4", "--db", str(db)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout, env


def test_the_championship_rehearsal_plays_every_round_and_advances(tmp_path):
    """``make demo DEMO_ARGS="--contest contests/championship-2027.toml"``: every round of
    every category over three days, qualifiers decided by the bot and played in turn."""
    contest = ROOT / "contests" / "championship-2027.toml"
    db = tmp_path / "championship.sqlite3"
    out, env = rehearse(contest, db, "16", "3")
    for day in ("Day 2027-07-01", "Day 2027-07-02", "Day 2027-07-03"):
        assert day in out, out[-3000:]
    for text in ("/inicio solo-heats1", "/inicio solo-semi", "/inicio solo-final",
                 "/inicio pairs-final", "/inicio teams-final", "Individual: Heats confirmed.",
                 "Individual: Semi-final confirmed.", "Individual: Final confirmed. Final "
                 "classification:", "Teams: Final confirmed.", "goes through to Final",
                 "/parcial", "dns -> Entry", "dsq pieces taken from another table -> Entry",
                 ": did not start", ": disqualified (pieces taken from another table)",
                 "/inicio teams-qualifier1", "/inicio teams-qualifier2",
                 "Teams: Qualifier confirmed.", "Individual — Under 18 - ranking"):
        assert text in out, (text, out[-3000:])
    assert "Individual - classification\n  1. #" in out
    assert "all checked against the spec: OK" in out and "errors in the bot's log: none" in out
    env.update({"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)})
    export = subprocess.run([sys.executable, "-m", "bot", "export", "results"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=60)
    rows = list(csv.DictReader(io.StringIO(export.stdout)))
    firsts = {r["category"] for r in rows if r["position"] == "1"}
    assert firsts == {"solo", "pairs", "teams"}, rows
    round_trip(contest, db, env, tmp_path)  # three days in rounds, as one document and back


def test_the_library_series_rehearsal_plays_months_of_events(tmp_path):
    """``make demo DEMO_ARGS="--contest contests/library-series-2024.toml"`` (issue 29): four
    libraries' local contests from August to October, each county's semi-final taking the top
    two of its libraries, the top three of each semi-final in one final in November."""
    contest = ROOT / "contests" / "library-series-2024.toml"
    db = tmp_path / "series.sqlite3"
    out, env = rehearse(contest, db, "20", "5")
    for day in ("Day 2024-08-15", "Day 2024-08-22", "Day 2024-09-05", "Day 2024-10-05",
                "Day 2024-10-19", "Day 2024-10-26", "Day 2024-11-09"):
        assert day in out, (day, out[-3000:])
    for text in ("Teams: Local contest confirmed.", "Teams: Semi-final confirmed.",
                 "Teams: Final confirmed. Final classification:",
                 "Place 3 in Local contest – "):
        assert text in out, (text, out[-3000:])
    assert "all checked against the spec: OK" in out and "errors in the bot's log: none" in out
    # each county's semi-final takes the qualifiers of its own libraries only (the library
    # after the names as people read it: "(Fitchburg Library)", never its id)
    library = dict(re.findall(r"^  (?:\d+\.|-) #(\d+) .*?\((\w+) Library\)",
                              out.split("Rankings:")[1], re.M))
    counties = {"Dane": {"Fitchburg", "Oregon"}, "Sauk": {"Baraboo", "Reedsburg"}}
    # each invited (the top two of its library), and one place given up going to the next
    through = re.findall(r"Entry #(\d+) has earned a place in Semi-final – (\w+) County", out)
    through += re.findall(r"it is yours: entry #(\d+) may play Semi-final – (\w+) County", out)
    assert len(through) >= 5, out[-3000:]
    assert "gave up its place in Semi-final" in out, out[-3000:]
    # a team changes a player before its event, and plays as changed
    assert re.search(r"Entry #(\d+): Alex Stand-In replaces ", out), out[:3000]
    for number, county in through:
        assert library[number] in counties[county], (number, county)
    env.update({"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)})
    export = subprocess.run([sys.executable, "-m", "bot", "export", "results"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=60)
    rows = list(csv.DictReader(io.StringIO(export.stdout)))
    assert [r["position"] for r in rows][:3] == ["1", "2", "3"], rows
    # months of events, invitations and a substitution, as one document and back
    round_trip(contest, db, env, tmp_path)
    assert {r["round"] for r in rows[:3]} == {"final"}, rows


def test_the_home_cup_rehearsal_plays_a_day_at_home_with_photos(tmp_path):
    """``make demo DEMO_ARGS="--contest contests/home-cup-2026.toml"`` (issue 29): a contest
    played at home, self-timed: each entry's code at the start signal, /listo, a photo from
    the fake Bot API sent on to the reviewers, a review; every finish ranked is a claim backed
    by a photo and confirmed, at the /listo's moment."""
    contest = ROOT / "contests" / "home-cup-2026.toml"
    db = tmp_path / "home.sqlite3"
    out, env = rehearse(contest, db, "24", "4")
    for text in ("Start! Your code is ", ": [photo] -> Start photo kept", "/listo -> Noted: ",
                 ": [photo] -> Photo received for your time of ",
                 "bot -> volunteers: [photo] REVIEW #", "/rechazar ",
                 "[photo] -> Photo kept: time is up", "[photo] PIECES? #",
                 "time is up. The entries still playing send a photo"):
        assert text in out, (text, out[-3000:])
    assert "all checked against the spec: OK" in out and "errors in the bot's log: none" in out
    with closing(sqlite3.connect(db)) as conn:
        events = conn.execute("SELECT id, kind, entry, at, data FROM events WHERE kind IN "
                              "('ready', 'photo', 'finish', 'undo') ORDER BY id").fetchall()
    photos = {json.loads(d)["ready_event"] for _, kind, _, _, d in events if kind == "photo"}
    ready_at = {i: at for i, kind, _, at, _ in events if kind == "ready"}
    finishes = [json.loads(d) for _, kind, _, _, d in events if kind == "finish"]
    assert len(finishes) >= 10
    for f in finishes:  # each at its /listo's moment, and that claim had its photo
        assert f["ready_event"] in photos and f["moment"] == ready_at[f["ready_event"]], f
    env.update({"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)})
    export = subprocess.run([sys.executable, "-m", "bot", "export", "results"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=60)
    rows = list(csv.DictReader(io.StringIO(export.stdout)))
    assert {r["category"] for r in rows if r["position"] == "1"} == {"solo", "pairs"}, rows
    round_trip(contest, db, env, tmp_path)


def test_the_online_league_rehearsal_plays_a_season_at_home(tmp_path):
    """``make demo DEMO_ARGS="--contest contests/online-league-2026.toml"`` (issue 29): four
    weeks at home, each entry starting each puzzle when it wants, in its own order; each
    entry's time is the sum of its puzzles' own times (checked against the history)."""
    contest = ROOT / "contests" / "online-league-2026.toml"
    db = tmp_path / "league.sqlite3"
    out, env = rehearse(contest, db, "12", "3")
    # a German league: the bot speaks German, the commands are the English ones
    for text in ("Solo ist offen! Du hast 4 Wochen zum Spielen.", "/empiezo ", "Dein Code ist ",
                 "mit /begin (wenn", "bot -> volunteers: [photo] PRÜFEN #",
                 "Endergebnisse von Solo: Platz 1 von"):
        assert text in out, (text, out[-3000:])
    assert "all checked against the spec: OK" in out and "errors in the bot's log: none" in out
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT kind, entry, at, stage, value FROM events WHERE kind IN "
                            "('own_start', 'ready', 'split', 'finish') ORDER BY id").fetchall()
    own: dict[int, list[int]] = {}  # each entry's puzzles' own times, from its history
    started: dict[int, float] = {}
    for kind, entry, at, _, value in rows:
        if kind == "own_start":
            started[entry] = at
        elif kind == "ready":
            own.setdefault(entry, []).append(int(at - started[entry]))  # stored as seconds
        else:  # a split or a finish: the entry's time so far, its own puzzles' sum
            assert value == sum(own[entry]), (entry, value, own[entry])
    assert sum(1 for kind, *_ in rows if kind == "finish") >= 6
    round_trip(contest, db, env, tmp_path)


def day_lines(out: str) -> list[str]:
    """The day's lines of a transcript, as printed (those with a clock time)."""
    day = out.split("The day (")[1].split("Rankings:")[0]
    return [line for line in day.splitlines() if re.match(r"  \[\d\d:\d\d:\d\d\] ", line)]


class Stopped(WallClock):
    """The rehearsal's clock, stopped at ``simulated_start``, fast (as a rehearsal's)."""

    def now(self) -> datetime:
        assert self.simulated_start is not None
        return self.simulated_start

    def seconds_until(self, when: datetime) -> float:
        return 0.0


class Played:
    """A rehearsal on the day without a bot: the test says what the bot sends while each message
    is played (before it reaches the bot, and once it has), at the simulated moment the test
    sets. Its lines are printed as ``python -m bot demo`` prints them."""

    def __init__(self, db: str) -> None:
        self.r = Rehearsal(str(CASTRILLO), 10, 1, db, out=io.StringIO())
        self.r.plan_teams()
        for i, team in enumerate(self.r.teams, 1):
            team.number = i
        self.r._on_the_day = True
        self.script: dict[str, tuple[datetime, list[tuple[int, str] | datetime],
                                     list[tuple[int, str]]]] = {}
        self.r.api.reply_to = self.reply_to  # type: ignore[method-assign]
        self.at(datetime(2023, 4, 22, 10, 0, tzinfo=MADRID))

    def at(self, moment: datetime) -> None:
        """The clock shows ``moment`` until told otherwise; a message is never waited for."""
        self.r.clock = Stopped(moment, 0.0, 600.0)

    def bot_says(self, chat: int, text: str, replies_to: int | None = None) -> None:
        params: dict[str, object] = {"chat_id": chat, "text": text}
        if replies_to is not None:
            params["reply_parameters"] = json.dumps({"message_id": replies_to})
        self.r._on_call(Call("sendMessage", params, datetime.now(ZoneInfo("UTC"))))

    def when(self, text: str, clock: datetime, before: list[tuple[int, str] | datetime],
             answered: list[tuple[int, str]]) -> None:
        """When ``text`` is played, the bot says ``before`` before it reaches the bot (at the
        moments listed among them), then ``answered`` with the clock at ``clock`` (an item
        "ANSWER ..." quotes it)."""
        self.script[text] = (clock, before, answered)

    async def reply_to(self, user, text: str, date: datetime, timeout: float = 10.0, done=None
                       ) -> list[Call]:
        clock, before, answered = self.script[text]
        for item in before:  # a moment: the clock shows it from then on
            if isinstance(item, datetime):
                self.at(item)
            else:
                self.bot_says(*item)
        self.at(clock)
        api = self.r.api
        api.last_message += 1  # it reaches the bot
        mine = []
        for chat, said in answered:
            quoted = said.startswith("ANSWER ")
            said = said.removeprefix("ANSWER ")
            self.bot_says(chat, said, api.last_message if quoted else None)
            params = {"chat_id": chat, "text": said}
            if quoted:
                params["reply_parameters"] = json.dumps({"message_id": api.last_message})
            if chat == user["id"]:
                mine.append(Call("sendMessage", params, datetime.now(ZoneInfo("UTC"))))
        return mine  # as the fake server gives them: to that chat, in the order they came

    async def play(self, *actions: tuple[datetime, Person, str]) -> str:
        await self.r.play([Action(at, i, who, text) for i, (at, who, text)
                           in enumerate(actions, 1)])
        out = self.r.out
        assert isinstance(out, io.StringIO)
        return out.getvalue()


async def record_alert(db: str, at: datetime, category: str, minutes: int) -> None:
    """What the bot records when its clock alert goes off (``alert_job``)."""
    store = await Store.open(db)
    try:
        async with store.transaction() as tx:
            await tx.add_event(at=at, kind="alert", role="system", category=category,
                               ref=f"alert:{category}:{minutes}")
    finally:
        await store.close()


def madrid(hour: int, minute: int, second: int = 0) -> datetime:
    return datetime(2023, 4, 22, hour, minute, second, tzinfo=MADRID)


async def test_an_answer_is_printed_with_the_message_it_answers_not_the_alert_before_it(
        tmp_path):
    """The issue's transcript: ``/piezas 14 406 -> Adultos parejas: se acabó el tiempo!``. The
    alert reached the volunteer's chat first; the answer is what quotes the message."""
    p = Played(str(tmp_path / "r.sqlite3"))
    volunteer = p.r.volunteers[0]
    p.when("/piezas 4 406", madrid(13, 2), [], [
        (volunteer.id, "Adultos parejas: time is up!"),
        (volunteer.id, "ANSWER Entry 4: 406 pieces."),
    ])
    out = await p.play((madrid(13, 2), volunteer, "/piezas 4 406"))
    assert out.splitlines() == [
        "  [13:02:00] volunteer 1: /piezas 4 406 -> Entry 4: 406 pieces.",
        "  [13:02:00] bot -> volunteers: Adultos parejas: time is up!",
    ]


async def test_no_answer_is_said_so_not_taken_from_another_message(tmp_path):
    p = Played(str(tmp_path / "r.sqlite3"))
    volunteer = p.r.volunteers[0]
    p.when("/piezas 4 406", madrid(13, 2), [], [(volunteer.id, "Adultos parejas: time is up!")])
    out = await p.play((madrid(13, 2), volunteer, "/piezas 4 406"))
    assert "  [13:02:00] volunteer 1: /piezas 4 406 -> (no answer)" in out.splitlines()


async def test_an_alert_is_printed_at_its_moment_once_for_everyone_who_got_it(tmp_path):
    """The alert of 13:00 reached the phones late (the sender paces what it owes, the clock runs
    fast): printed at 13:00:00, between the messages played before and after it, one line for
    both phones of the entry and the volunteers; the partner's copy of an answer is not a line
    of its own, the volunteers' line about a message is printed at its date."""
    db = str(tmp_path / "r.sqlite3")
    p = Played(db)
    team = next(t for t in p.r.teams if len(t.phones) == 2)
    phone, partner = team.phones
    n = team.number
    vol1, vol2 = p.r.volunteers
    await record_alert(db, madrid(13, 0), "parejas", 0)
    alert = "Adultos parejas: time is up!"
    p.when("/listo", madrid(12, 54, 43), [], [
        (phone.id, "ANSWER Noted: finished."),
        (partner.id, "Noted: finished."),  # the partner's copy
    ])
    p.when(f"/fin {n}", madrid(13, 1, 30), [
        madrid(12, 55, 10),  # the line about /listo, once it was answered
        (VOLUNTEER_IDS[0], f"FINISHED? #{n} says done at 12:54:43"),
        madrid(13, 0, 7),  # the harness is late: the alert comes before /fin is played
        (phone.id, alert), (partner.id, alert), (VOLUNTEER_IDS[0], alert),
        (VOLUNTEER_IDS[1], alert),
    ], [(vol2.id, f"ANSWER Entry {n} finished at 2:54:43.")])
    out = await p.play((madrid(12, 54, 43), phone, "/listo"),
                       (madrid(13, 0, 30), vol2, f"/fin {n}"))
    assert out.splitlines() == [
        f"  [12:54:43] #{n} {phone.name}: /listo -> Noted: finished.",
        f"  [12:54:43] bot -> volunteers: FINISHED? #{n} says done at 12:54:43",
        f"  [13:00:00] bot -> #{n} and volunteers: {alert}",
        f"  [13:00:30] volunteer 2: /fin {n} -> Entry {n} finished at 2:54:43.",
    ]


def test_the_rehearsal_clock_carries_telegrams_pace_apart_from_its_speed():
    """Registrations run on the real clock (speed 1) but are typed in seconds: the fourth part
    scales Telegram's flood limits alone; without it they follow the speed."""
    start = datetime(2023, 3, 11, 10, tzinfo=MADRID)
    registering = WallClock(start, 1000.0, 1.0, 4800.0)
    again = WallClock.parse(registering.encode())
    assert (again.speed, again.pace) == (1.0, 4800.0)
    day = WallClock.parse(WallClock(start, 1000.0, 600.0).encode())
    assert (day.speed, day.pace) == (600.0, 600.0)
    for bad in (f"{start.isoformat()}@1000@1@0", f"{start.isoformat()}@1000@1@2@3"):
        with pytest.raises(ValueError):
            WallClock.parse(bad)


MARATHON = """
[[categories]]
id = "marathon"
name = "Marathon"
members = 4
min_members = 1                   # teams of 1 to 4: a team of one has one phone
slots = [{}, {}, {}, {}]
pieces = 1500
time_limit = "3:00:00"
puzzles = [500, 500, 500]         # several puzzles in one go, in a category played once
fee = 10
"""


def test_a_rehearsal_plays_teams_of_one_and_puzzles_in_one_go_beside_rounds(tmp_path):
    """Issue 48: two files ``check-contest`` accepts crashed the rehearsal with a traceback,
    a category with ``min_members = 1`` (a team drawn with one member has no second phone)
    and a category played once with several puzzles beside one in rounds (its puzzles'
    sizes were not passed on). The championship with such a category rehearses to the end."""
    contest = tmp_path / "championship-marathon.toml"
    contest.write_text((ROOT / "contests" / "championship-2027.toml").read_text(
        encoding="utf-8") + MARATHON, encoding="utf-8")
    out, _ = rehearse(contest, tmp_path / "marathon.sqlite3", "24", "2")
    assert "Traceback" not in out
    assert "/inicio marathon" in out and "/parcial" in out
    assert "errors in the bot's log: none" in out


def test_a_rehearsal_plays_puzzles_in_the_order_each_entry_chooses(tmp_path):
    """Issue 48: with ``puzzle_order = "any"`` the simulated volunteers typed ``/parcial N
    TIME`` without the puzzle, the bot asked "Which puzzle did entry N finish?" each time and
    nothing was recorded, so no finish counted. They now name the puzzle each entry finished
    (``/parcial N P TIME``), in the order it chose, and the category ranks its finishers."""
    contest = tmp_path / "championship-any.toml"
    contest.write_text((ROOT / "contests" / "championship-2027.toml").read_text(
        encoding="utf-8") + MARATHON + 'puzzle_order = "any"\n', encoding="utf-8")
    out, _ = rehearse(contest, tmp_path / "any.sqlite3", "24", "2")
    assert "Which puzzle did entry" not in out
    assert re.search(r"/parcial \d+ [123] \d:\d\d:\d\d", out), out[-3000:]
    assert "errors in the bot's log: none" in out
    # finishers ranked by their time (before, none: every finish was refused)
    ranking = out.split("Marathon - ranking", 1)[1].split("\n\n", 1)[0]
    assert re.search(r"\n  1\. #\d+ .*: \d:\d\d:\d\d", ranking), ranking


async def test_the_verdict_names_an_entry_left_without_a_result(tmp_path):
    """Issue 48: a rehearsal reported success on a day where 20 of 26 teams ended without a
    result. Its verdict names every entry of a clock that started with no result (a finish,
    pieces, puzzles done) and no reason (did not start, disqualified, a claim waiting), and
    ``demo`` then exits 1."""
    db = tmp_path / "verdict.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--contest", str(CASTRILLO), "--entries", "8",
         "--seed", "2", "--seconds", "6", "--db", str(db)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout[-3000:]
    reh = Rehearsal(str(CASTRILLO), 8, 2, str(db))
    assert await reh.left_without_result() == []
    with closing(sqlite3.connect(db)) as conn, conn:  # one entry's result lost
        number = conn.execute("SELECT entry FROM events WHERE kind = 'finish' "
                              "ORDER BY id LIMIT 1").fetchone()[0]
        conn.execute("DELETE FROM events WHERE entry = ? AND kind IN "
                     "('finish', 'pieces', 'outcome', 'split', 'ready')", (number,))
    left = await Rehearsal(str(CASTRILLO), 8, 2, str(db)).left_without_result()
    assert len(left) == 1 and left[0].startswith(f"#{number} (")


def test_the_national_championship_example_rehearses_its_two_days(tmp_path):
    """Issue 48's national championship, shipped as an example: heats drawn on Saturday, seeded
    finals on Sunday, teams playing a 1000 then a 500 at their own start, national,
    international and youth rankings inside the open categories."""
    contest = ROOT / "contests" / "national-championship-2027.toml"
    out, _ = rehearse(contest, tmp_path / "national.sqlite3", "16", "1")
    for text in ("/inicio individual-series1", "/inicio individual-final", "/inicio equipos",
                 "/parcial", "Individual — Campeonato de España - clasificación",
                 "Individual — Juvenil - clasificación", "errors in the bot's log: none",
                 "Verdict: every entry that played has a result or a stated reason."):
        assert text in out, text


def test_the_marathon_example_ranks_every_team_by_puzzles_then_pieces(tmp_path):
    """Issue 48's 12-hour marathon: ten puzzles in sequence in a contest without rounds. The
    rehearsal's volunteers never recorded the in-between puzzles there, so every finish was
    refused ("no split yet for puzzles 1…9 of 10") and most teams ended without a result
    while the verdict passed. Now each team's splits come first, finishers rank by time,
    the others by their pieces, and a team with no result fails the verdict."""
    contest = ROOT / "contests" / "marathon-2027.toml"
    out, _ = rehearse(contest, tmp_path / "marathon.sqlite3", "16", "1")
    assert "has no split time yet" not in out
    assert len(re.findall(r"/parcial \d+ \d+:\d\d:\d\d", out)) >= 9
    ranking = out.split("Marathon teams - ranking", 1)[1].split("\n\n", 1)[0]
    assert "no result yet" not in ranking, ranking
    assert re.search(r"\n  1\. #\d+ .*: \d+:\d\d:\d\d", ranking), ranking
    assert re.search(r": \d+ pieces", ranking), ranking
    assert "Verdict: every entry that played has a result or a stated reason." in out


@pytest.mark.parametrize("order", ["fixed", "any"])
def test_a_day_played_once_records_the_splits_of_puzzles_in_sequence(tmp_path, order):
    """Issue 48: on a day played once (no rounds), the rehearsal's volunteers recorded no split
    for a category playing puzzles in sequence, and the bot refused every finish ("no split
    time yet for puzzles 1, 2 of 3"). Each entry's splits now come before its finish or its
    count, in time order, naming the puzzle where the entry chooses the order."""
    contest = tmp_path / f"castrillo-marathon-{order}.toml"
    contest.write_text(CASTRILLO.read_text(encoding="utf-8") + MARATHON
                       + f'puzzle_order = "{order}"\n', encoding="utf-8")
    teams, actions = plan(4, contest)
    runners = [n for n, (category, _, _) in enumerate(teams, 1) if category == "marathon"]
    assert runners
    for n in runners:
        own = [text.split() for _, _, text in actions
               if text.startswith(("/parcial ", "/fin ", "/piezas ")) and text.split()[1] == str(n)]
        assert [words[0] for words in own] in (["/parcial", "/parcial", "/fin"],
                                               ["/parcial", "/parcial", "/piezas"]), own
        splits = own[:2]
        if order == "any":  # /parcial N PUZZLE TIME, two puzzles of the three
            assert len({words[2] for words in splits}) == 2 and all(
                words[2] in "123" and len(words) == 4 for words in splits), splits
        else:
            assert all(len(words) == 3 for words in splits), splits
        times = [words[-1] for words in splits]
        assert times == sorted(times), times


def test_with_partners_two_people_alone_are_matched(tmp_path):
    """The same rehearsal with ``[partners]``: two people come alone to the pairs, register
    looking for a partner, the second asks the first, who says yes: one entry with a place."""
    contest = tmp_path / "castrillo-partners.toml"
    contest.write_text(CASTRILLO.read_text(encoding="utf-8") + "\n[partners]\n",
                       encoding="utf-8")
    out, _ = _demo(contest, tmp_path / "rehearsal.sqlite3")
    assert "Verdict: every entry that played has a result or a stated reason." in out
    assert re.search(r"#(\d+) Óscar Lago: /emparejar -> Buscan pareja en Adultos parejas:"
                     r"\s+#\d+ Nuria Prado", out), out[:8000]
    assert re.search(r"#\d+ Nuria Prado says yes to #\d+ -> Pareja encontrada: la inscripción "
                     r"#\d+ es ahora Nuria Prado / Óscar Lago", out), out[:8000]
    assert "errors in the bot's log: none" in out


def test_the_escape_played_in_the_chat_is_rehearsed(tmp_path):
    """Issue 52: on the shipped escape played in the chat, the rehearsal's pairs get each
    stage's enigma, answer wrong and right (a number in words, a choice as its button sends
    it), buy clues, and either solve (the volunteers told to hand the puzzle over) or are found
    at the time limit with their stage known; every entry ends with a result."""
    out, _ = _demo(ROOT / "contests" / "escape-chat-2027.toml", tmp_path / "escape.sqlite3")
    assert "Verdict: every entry that played has a result or a stated reason." in out
    assert "errors in the bot's log: none" in out and "Refused commands: 0." in out
    assert "Etapa 1 de 5:" in out and "No es la respuesta de la etapa" in out
    assert re.search(r": veinticuatro -> ¡Correcto! Etapa 2 resuelta", out), out[:6000]
    assert re.search(r": Este -> ¡Correcto! Etapa 3 resuelta", out), out[:6000]
    assert ": /pista -> Pista de la etapa" in out and ": /solucion -> Solución de la etapa" in out
    assert re.search(r"bot -> volunteers: (Mesa \d+ · )?#\d+ .*: escape resuelto en", out)
    # those still playing at the limit: their stage known, nothing to confirm
    assert "se acabó el escape en la categoría Parejas" in out
    assert "no hay nada que confirmar" in out
    assert "/etapa" not in out  # nobody confirms a stage
