"""The projector scoreboard (bot/scoreboard.py): its data is what the database holds, the web
server serves it read-only, and a real browser (Debian's chromium, headless) renders it from
/data.json and follows new events without a reload.

``SCOREBOARD_SCREENSHOT=docs/scoreboard.png pytest tests/exports/test_scoreboard.py -k readme``
writes the manual's picture (docs/guide/3-the-day.md) of a lively Castrillo day.
"""

from __future__ import annotations

import asyncio
import html
import io
import json
import logging
import math
import os
import re
import shutil
import socket
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import aiohttp
import pytest

from bot.services.csvio import import_entries, read_entries
from bot.tools import scoreboard
from bot.tools.scoreboard import Scoreboard, scoreboard_data
from tests.conftest import BILLOM, CASTRILLO
from tests.fakebot import FrozenClock, Harness, Person, texts

MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2023, 4, 22, 11, 0, 0, tzinfo=MADRID)
ORGANISER = Person(1, "Olga")
VOLUNTEER = Person(2, "Víctor")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (CI: apt-get install -y chromium)")

CSV = """number,category,names,born,aepuzz_member,resident
3,parejas,Ana; Bea,1980; 1985,no; no,no; no
7,parejas,Carlos; Dani,1975; 2012,yes; no,yes; no
12,parejas,Eva; Fran,1990; 1991,no; no,no; no
20,parejas,Gil; Hugo,1970; 1972,no; no,no; no
30,adultos,Irene,1988,no,no
31,adultos,<b>Jon</b> & Co,1979,no,no
40,infantil-b,Kike,2015,no,yes
"""


# a clock that has started: no start or restart to count down to
UNSCHEDULED = {"starts_at": None, "starts_day": None, "starts_in": None, "resumes_in": None,
               "wall_rate": 1.0}


def at(clock: str, start: datetime = T0) -> datetime:
    """The real instant a clock started at ``start`` shows ``clock`` (no pause before it)."""
    h, m, s = (int(x) for x in clock.split(":"))
    return start + timedelta(hours=h, minutes=m, seconds=s)


async def open_day(tmp_path: Path, csv: str, contest: Path = CASTRILLO
                   ) -> tuple[Harness, dict[int, Person]]:
    """The harness with ``csv`` imported, every entry's first phone linked, one volunteer."""
    h = await Harness(tmp_path, contest, organisers=frozenset({ORGANISER.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(csv), "entries.csv"))
    phones = {}
    for entry in await svc.store.entries():
        person = Person(1000 + entry.number, entry.names[0])
        await h.send(person, f"/start {entry.join_code}", T0 - timedelta(hours=1))
        phones[entry.number] = person
    await h.send(ORGANISER, "/start", T0 - timedelta(hours=2))
    link = texts(await h.send(ORGANISER, "/voluntario", T0 - timedelta(hours=2)))[0]
    await h.send(VOLUNTEER, f"/start {link.split('start=')[1].split()[0]}",
                 T0 - timedelta(hours=2))
    return h, phones


async def ok(h: Harness, who: Person, text: str, when: datetime) -> None:
    """Send a command the bot must accept (the tests below rely on every event landing)."""
    before = await h.services.store.events()
    await h.send(who, text, when)
    assert len(await h.services.store.events()) > len(before), f"{text} was not recorded"


def category(data: dict, cid: str) -> dict:
    return next(c for c in data["categories"] if c["id"] == cid)


def row(data: dict, cid: str, number: int) -> dict:
    return next(r for r in category(data, cid)["rows"] if r["number"] == number)


async def board_data(h: Harness, now: datetime) -> dict:
    svc = h.services
    data = await scoreboard_data(svc.day, svc.contest, now)
    json.dumps(data)  # JSON-able as it is
    return data


# -- 1. the data is what the database holds ------------------------------------------------------


async def test_data_follows_the_database_through_the_day(tmp_path):
    h, p = await open_day(tmp_path, CSV)
    try:
        v = VOLUNTEER
        # before /inicio: no clock runs, nobody has a place in the ranking yet
        data = await board_data(h, T0 - timedelta(minutes=5))
        assert data["contest"] == h.services.contest.name
        assert data["labels"]["running"] == "En marcha"  # Castrillo's language: Spanish
        assert [c["id"] for c in data["categories"]] == [
            "infantil-a", "infantil-b", "infantil-c", "adultos", "parejas"]
        pairs = category(data, "parejas")
        assert pairs["name"] == "Adultos parejas" and pairs["escape"] is True
        assert pairs["time_limit"] == 3 * 3600 and pairs["time_limit_text"] == "3:00:00"
        assert pairs["escape_time_limit"] == 90 * 60
        assert pairs["clock"] == {"state": "not_started", "seconds": None, "text": None,
                                  "rate": 0.0, "left": None, "left_text": None,
                                  "resumes_at": None, "resumes_in": None, "wall_rate": 1.0,
                                  # 10:00 by the contest file, past at 10:55
                                  "starts_at": "10:00", "starts_day": None,
                                  "starts_in": None}
        assert [r["number"] for r in pairs["rows"]] == [3, 7, 12, 20]
        assert row(data, "parejas", 3) == {
            "position": None, "number": 3, "names": ["Ana", "Bea"], "status": "waiting",
            "status_text": "Esperando", "time": None, "seconds": None, "finish": None,
            "pieces": None, "prize": None, "extra_prizes": [],
            "escape": {"stages": 5, "stage": 1, "confirmed_stage": 1, "solved": False,
                       "solved_at": None, "over": False, "tickets_left": 11, "penalty": 0},
            # the hall's tables, category after category: #40 (infantil B) at 1, #30 and
            # #31 (adults) at 2 and 3, then the pairs
            "table": 4,
        }
        assert category(data, "infantil-c")["rows"] == []
        assert row(data, "adultos", 30)["escape"] is None

        await ok(h, ORGANISER, "/inicio parejas", T0)
        await ok(h, ORGANISER, "/inicio adultos", at("0:10:00"))
        # the escape: a hint asked by the pair, stages confirmed by a volunteer, a solve
        await ok(h, p[7], "/pista 2", at("0:20:00"))
        await ok(h, v, "/etapa 12 3", at("0:30:00"))
        await ok(h, v, "/escape 3 0:25:00", at("0:40:00"))
        data = await board_data(h, at("1:00:00") + timedelta(milliseconds=500))
        pairs = category(data, "parejas")
        assert pairs["clock"] == {"state": "running", "seconds": 3600.5, "text": "1:00:00",
                                  "rate": 1.0, "left": 2 * 3600, "left_text": "2:00:00",
                                  "resumes_at": None, **UNSCHEDULED}
        assert category(data, "adultos")["clock"]["text"] == "0:50:00"
        assert category(data, "infantil-b")["clock"]["state"] == "not_started"
        assert row(data, "parejas", 3)["status"] == "puzzle"
        assert row(data, "parejas", 3)["status_text"] == "Escape 0:25:00 ✓"
        assert row(data, "parejas", 3)["escape"]["solved_at"] == "0:25:00"
        seven = row(data, "parejas", 7)
        assert (seven["status"], seven["status_text"]) == ("escape", "Etapa 2/5")
        assert seven["escape"]["stage"] == 2 and seven["escape"]["confirmed_stage"] == 1
        assert seven["escape"]["tickets_left"] == 10
        twelve = row(data, "parejas", 12)["escape"]
        assert twelve["stage"] == twelve["confirmed_stage"] == 3
        assert row(data, "parejas", 20)["status_text"] == "Etapa 1/5"
        assert row(data, "adultos", 30)["status_text"] == "En juego"

        # finishes and pieces: ranked, with the adjusted time for a pair
        await ok(h, v, "/fin 3 1:30:00", at("1:30:05"))
        await ok(h, v, "/fin 30 1:20:00", at("1:30:10"))  # adultos: 1:20:00 on its clock
        await ok(h, v, "/piezas 31 412", at("1:31:00"))
        data = await board_data(h, at("1:35:00"))
        three = row(data, "parejas", 3)
        assert three["position"] == 1 and three["status"] == "finished"
        assert three["time"] == "1:05:00" and three["seconds"] == 3900  # 1:30:00 - 25:00 bonus
        assert three["finish"] == "1:30:00" and three["status_text"] == "reloj 1:30:00"
        # a place, no prize yet: the results are not final (issue 47, item 7)
        assert three["prize"] is None and three["extra_prizes"] == []
        assert category(data, "parejas")["standing"] == "provisional"
        assert category(data, "parejas")["finished"] == 1
        assert category(data, "parejas")["entries"] == 4
        # 1:35 is past the escape's 1:30: the pairs still in it are out, with their stage
        assert row(data, "parejas", 7)["status"] == "escape_over"
        assert row(data, "parejas", 7)["status_text"] == "Escape: etapa 2/5"
        adults = category(data, "adultos")["rows"]
        assert [(r["position"], r["number"], r["time"], r["pieces"]) for r in adults] == [
            (1, 30, "1:20:00", None), (2, 31, None, 412)]
        assert adults[1]["status_text"] == "412 piezas"
        assert adults[1]["names"] == ["<b>Jon</b> & Co"]  # as typed: the page shows it as text

        # /pausa stops every clock, /reanudar starts them again
        await ok(h, ORGANISER, "/pausa", at("1:40:00"))
        data = await board_data(h, at("1:50:00") + timedelta(milliseconds=700))
        assert data["paused"] is True
        # an organiser's pause has no known end: the page says "paused", no more
        assert category(data, "parejas")["clock"] == {
            "state": "paused", "seconds": 6000.0, "text": "1:40:00", "rate": 0.0,
            "left": 3 * 3600 - 6000, "left_text": "1:20:00", "resumes_at": None,
            **UNSCHEDULED}
        assert category(data, "adultos")["clock"]["text"] == "1:30:00"
        await ok(h, ORGANISER, "/reanudar", at("2:00:00"))
        data = await board_data(h, at("2:10:00"))
        assert data["paused"] is False
        assert category(data, "parejas")["clock"]["text"] == "1:50:00"  # 20 minutes paused

        # time's up: the clock shows the limit; who has no result yet waits for a count
        data = await board_data(h, at("3:30:00"))
        assert category(data, "parejas")["clock"] == {
            "state": "time_up", "seconds": 3 * 3600 + 10 * 60.0, "text": "3:00:00",
            "rate": 0.0, "left": 0, "left_text": "0:00:00", "resumes_at": None,
            **UNSCHEDULED}
        assert category(data, "adultos")["clock"]["state"] == "time_up"
        assert row(data, "parejas", 20)["status"] == "pending"
        assert row(data, "parejas", 20)["status_text"] == "Sin resultado"
        # nothing private leaves: no join codes, no birth years, no phones
        blob = json.dumps(data, ensure_ascii=False)
        for entry in await h.services.store.entries():
            assert entry.join_code not in blob
        assert "1980" not in blob and str(p[3].id) not in blob
    finally:
        await h.stop()


async def test_a_rehearsal_clock_ticks_faster_and_labels_follow_the_language(tmp_path):
    h, _ = await open_day(tmp_path, CSV)
    try:
        await ok(h, ORGANISER, "/inicio parejas", T0)
        svc = h.services
        data = await scoreboard_data(svc.day, svc.contest, at("0:10:00"), rate=40.0)
        assert category(data, "parejas")["clock"]["rate"] == 40.0
        assert category(data, "adultos")["clock"]["rate"] == 0.0  # not running: no ticking
        assert scoreboard.labels("fr")["paused"] == "Pause"
        assert scoreboard.labels("en")["time_up"] == "Time's up"
        assert scoreboard.labels("ja") == scoreboard.labels("en")
        assert scoreboard.labels("de")["time_up"] == "Zeit abgelaufen"
        assert all(set(words) == set(scoreboard.LABELS["es"])
                   for words in scoreboard.LABELS.values())
    finally:
        await h.stop()


async def test_a_configured_break_pauses_every_clock_in_french(tmp_path):
    """Billom's 15:15-15:30 break comes from the contest file, not from /pausa."""
    h = await Harness(tmp_path, BILLOM, organisers=frozenset({ORGANISER.id})).start()
    try:
        start = datetime(2012, 3, 10, 14, 0, tzinfo=ZoneInfo("Europe/Paris"))
        await ok(h, ORGANISER, "/inicio", start)
        data = await board_data(h, start + timedelta(hours=1, minutes=20))
        assert data["language"] == "fr" and data["labels"]["paused"] == "Pause"
        assert data["paused"] is False  # no organiser's pause: the contest's own break
        assert {c["id"]: c["clock"]["state"] for c in data["categories"]} == dict.fromkeys(
            ("junior", "mixte", "adulte", "expert"), "paused")
        assert category(data, "expert")["clock"]["text"] == "1:15:00"
        # the file gives the break's end: the page says when the clocks start again
        assert {c["clock"]["resumes_at"] for c in data["categories"]} == {"15:30"}
        expert = category(data, "expert")
        assert expert["time_limit"] - expert["clock"]["left"] == 75 * 60
        data = await board_data(h, start + timedelta(hours=1, minutes=45))
        assert category(data, "expert")["clock"]["state"] == "running"
        assert category(data, "expert")["clock"]["resumes_at"] is None
        assert category(data, "expert")["clock"]["text"] == "1:30:00"
    finally:
        await h.stop()


async def test_a_break_under_an_organisers_pause_ends_when_both_have(tmp_path):
    """/pausa before Billom's 15:15-15:30 break: nobody knows when the clocks start again until
    /reanudar; resumed during the break, they start again at its end, 15:30."""
    h = await Harness(tmp_path, BILLOM, organisers=frozenset({ORGANISER.id})).start()
    try:
        paris = ZoneInfo("Europe/Paris")
        await ok(h, ORGANISER, "/inicio", datetime(2012, 3, 10, 14, 0, tzinfo=paris))
        await ok(h, ORGANISER, "/pausa", datetime(2012, 3, 10, 15, 10, tzinfo=paris))
        data = await board_data(h, datetime(2012, 3, 10, 15, 20, tzinfo=paris))
        expert = category(data, "expert")["clock"]
        assert expert["state"] == "paused" and expert["resumes_at"] is None
        assert expert["left_text"] == "1:20:00"  # 2:30:00 - 1:10:00
        await ok(h, ORGANISER, "/reanudar", datetime(2012, 3, 10, 15, 22, tzinfo=paris))
        data = await board_data(h, datetime(2012, 3, 10, 15, 25, tzinfo=paris))
        assert category(data, "expert")["clock"]["resumes_at"] == "15:30"
    finally:
        await h.stop()


# -- 2. the web server ---------------------------------------------------------------------------


async def get(url: str) -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as session, session.get(url) as res:
        return res.status, dict(res.headers), await res.read()


async def test_server_serves_the_page_and_the_data(tmp_path):
    h, _ = await open_day(tmp_path, CSV)
    await ok(h, ORGANISER, "/inicio", T0)
    await ok(h, VOLUNTEER, "/fin 30 1:10:00", at("1:10:20"))
    now = at("1:15:00")
    board = Scoreboard(port=0, clock=FrozenClock(now))
    await board.start(h.services)
    try:
        assert board.host == "127.0.0.1" and board.port > 0
        status, headers, body = await get(board.url)
        page = body.decode()
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert "<script>" in page and "data.json" in page
        assert "script-src 'sha256-" in headers["Content-Security-Policy"]
        for shown in ("Irene", "Ana", "1:10:00", "En marcha", h.services.contest.name):
            assert shown not in page  # the shell holds no data: it all comes from /data.json

        status, headers, body = await get(board.url + "data.json")
        assert status == 200 and headers["Content-Type"].startswith("application/json")
        assert headers["Cache-Control"] == "no-store"
        svc = h.services
        assert json.loads(body) == await scoreboard_data(svc.day, svc.contest, now)
        assert row(json.loads(body), "adultos", 30)["time"] == "1:10:00"

        # many viewers at once: one computation; a new event is seen at once
        computed = board.computations
        answers = await asyncio.gather(*(get(board.url + "data.json") for _ in range(30)))
        assert {a[2] for a in answers} == {body}
        assert board.computations == computed
        await ok(h, VOLUNTEER, "/fin 31 1:12:00", at("1:12:30"))
        _, _, body = await get(board.url + "data.json")
        assert row(json.loads(body), "adultos", 31)["time"] == "1:12:00"
        assert board.computations == computed + 1

        # read-only: nothing but GET (and HEAD) is answered
        async with aiohttp.ClientSession() as session:
            async with session.post(board.url + "data.json") as res:
                assert res.status == 405
            async with session.get(board.url + "admin") as res:
                assert res.status == 404
    finally:
        await board.stop()
        await h.stop()
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(board.url)


async def test_data_errors_answer_503_and_the_server_goes_on(tmp_path):
    h, _ = await open_day(tmp_path, CSV)
    board = Scoreboard(port=0, clock=FrozenClock(T0), cache_seconds=0)
    await board.start(h.services)
    try:
        real = h.services.day.states

        async def broken(*args, **kwargs):
            raise RuntimeError("disk on fire")

        h.services.day.states = broken
        status, _, body = await get(board.url + "data.json")
        assert status == 503 and json.loads(body) == {"error": "unavailable"}
        h.services.day.states = real
        status, _, _ = await get(board.url + "data.json")
        assert status == 200
    finally:
        await board.stop()
        await h.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_settings_from_the_environment():
    assert scoreboard.settings_from_env({}) is None
    assert scoreboard.settings_from_env({"PUZZLEBOT_WEB_PORT": " "}) is None
    assert scoreboard.settings_from_env({"PUZZLEBOT_WEB_PORT": "8080"}) == ("127.0.0.1", 8080)
    assert scoreboard.settings_from_env(
        {"PUZZLEBOT_WEB_PORT": "8080", "PUZZLEBOT_WEB_HOST": "0.0.0.0"}) == ("0.0.0.0", 8080)
    for bad in ("http", "0", "70000", "-1"):
        with pytest.raises(scoreboard.ScoreboardSettingsError, match="PUZZLEBOT_WEB_PORT"):
            scoreboard.settings_from_env({"PUZZLEBOT_WEB_PORT": bad})


async def test_attach_and_detach_as_bot_app_does(tmp_path, monkeypatch, caplog):
    h, _ = await open_day(tmp_path, CSV)
    try:
        monkeypatch.delenv("PUZZLEBOT_WEB_PORT", raising=False)
        assert await scoreboard.attach(h.app) is None  # off unless asked for
        assert "scoreboard" not in h.app.bot_data

        port = free_port()
        monkeypatch.setenv("PUZZLEBOT_WEB_PORT", str(port))
        board = await scoreboard.attach(h.app)
        assert board is not None and h.app.bot_data["scoreboard"] is board
        assert board.url == f"http://127.0.0.1:{port}/"
        status, _, body = await get(board.url + "data.json")
        assert status == 200 and [c["id"] for c in json.loads(body)["categories"]][0] == (
            "infantil-a")

        # the port is taken (by the first board): logged, and the bot goes on without a page
        with caplog.at_level(logging.ERROR, logger="bot.tools.scoreboard"):
            h.app.bot_data.pop("scoreboard")
            assert await scoreboard.attach(h.app) is None
            monkeypatch.setenv("PUZZLEBOT_WEB_PORT", "eighty")
            assert await scoreboard.attach(h.app) is None
        assert "cannot listen" in caplog.text and "must be a port number" in caplog.text
        h.app.bot_data["scoreboard"] = board
        await scoreboard.detach(h.app)
        assert "scoreboard" not in h.app.bot_data
        with pytest.raises(aiohttp.ClientConnectionError):
            await get(board.url)
        await scoreboard.detach(h.app)  # twice is harmless
    finally:
        await h.stop()


# -- 3. a real browser -----------------------------------------------------------------------------


async def chromium(url: str, tmp_path: Path, *options: str, size: str = "1280,800") -> str:
    """Run headless chromium on ``url`` with ``options``; returns what it prints."""
    assert CHROMIUM is not None
    profile = tempfile.mkdtemp(prefix="chromium-", dir=tmp_path)
    proc = await asyncio.create_subprocess_exec(
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={profile}", f"--window-size={size}",
        "--virtual-time-budget=3000", "--hide-scrollbars", *options, url,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": "disabled:"},
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 90)
    except TimeoutError:
        proc.kill()
        await proc.communicate()
        raise
    assert proc.returncode == 0, err.decode(errors="replace")[-2000:]
    return out.decode()


def text_of(dom: str) -> str:
    """The DOM's text, tags dropped and entities kept (a name's "<" stays "&lt;")."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", dom))


@needs_chromium
async def test_chromium_renders_the_data_and_follows_new_events(tmp_path):
    h, _ = await open_day(tmp_path, CSV)
    await ok(h, ORGANISER, "/inicio parejas", T0)
    await ok(h, ORGANISER, "/inicio adultos", T0)
    await ok(h, VOLUNTEER, "/escape 3 0:25:00", at("0:40:00"))
    await ok(h, VOLUNTEER, "/etapa 12 4", at("0:50:00"))
    await ok(h, VOLUNTEER, "/fin 3 1:30:00", at("1:30:05"))
    await ok(h, VOLUNTEER, "/fin 30 1:20:00", at("1:30:10"))
    clock = FrozenClock(at("1:40:00"))
    board = Scoreboard(port=0, clock=clock)
    await board.start(h.services)
    try:
        dom = await chromium(board.url + "?cat=adultos,parejas&start=parejas", tmp_path,
                             "--dump-dom")
        shown = text_of(dom)
        # the parejas ranking, from /data.json through the page's script
        for text in ("Adultos parejas · Clasificación", "#3", "Ana / Bea", "1:05:00",
                     "reloj 1:30:00", "#12", "Eva / Fran", "Escape: etapa 4/5", "#7",
                     "Carlos / Dani", "1/4 terminados", "En marcha"):
            assert text in shown, text
        # the time left before each limit, counted down in the page (3:00:00 - 1:40:0x)
        assert re.search(r'class="left num">Quedan 1:(20:00|19:5\d)<', dom)
        # the adultos ranking is there too (shown in turn), a name as text, never as markup
        assert "#30" in shown and "Irene" in shown and "1:20:00" in shown
        assert "&lt;b&gt;Jon&lt;/b&gt; &amp; Co" in dom and "<b>Jon" not in dom
        assert 'class="row s-finished"' in dom
        assert "Infantil A" not in shown  # left out by ?cat=
        # the clocks tick in the page between polls: 1:40:00 plus a few seconds
        ticks = re.findall(r'class="time num">(1:40:0\d)<', dom)
        assert len(ticks) == 2, ticks
        assert "1:17:30" not in shown

        # a new event in the database: the next page load shows it (no template involved)
        await ok(h, VOLUNTEER, "/escape 7 0:42:00", at("1:41:00"))
        await ok(h, VOLUNTEER, "/fin 7 1:47:30", at("1:48:00"))
        clock.instant = at("1:50:00")
        shown = text_of(await chromium(board.url + "?start=parejas", tmp_path, "--dump-dom"))
        assert "1:17:30" in shown and "2/4 terminados" in shown
        # not started: the time the contest file gives (10:00), passed by now
        assert "Infantil A" in shown and "Empieza a las 10:00" in shown

        png = tmp_path / "board.png"
        await chromium(board.url + "?start=parejas", tmp_path, f"--screenshot={png}")
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert png.stat().st_size > 10_000
    finally:
        await board.stop()
        await h.stop()


@needs_chromium
async def test_chromium_page_updates_itself_without_a_reload(tmp_path):
    """One page load: an event recorded between two of its polls shows up on it."""
    h, _ = await open_day(tmp_path, CSV)
    await ok(h, ORGANISER, "/inicio adultos", T0)

    class Board(Scoreboard):
        requests = 0

        async def data_bytes(self) -> bytes:
            self.requests += 1
            if self.requests == 2:  # the page has shown the first answer: a volunteer types
                await ok(h, VOLUNTEER, "/fin 31 0:58:40", at("0:59:00"))
            return await super().data_bytes()

    board = Board(port=0, clock=FrozenClock(at("1:00:00")))
    await board.start(h.services)
    try:
        dom = await chromium(board.url + "?cat=adultos", tmp_path, "--dump-dom")
        assert board.requests >= 3 and board.computations >= 2
        assert "0:58:40" in text_of(dom)
        assert re.search(r'class="row s-finished[^"]*" data-number="31"', dom)
    finally:
        await board.stop()
        await h.stop()


# what the page looks like, measured in the browser: a script added to the page (its hash in
# the page's Content-Security-Policy) writes the sizes of what is shown into <pre id="probe">
PROBE = """<script>
setTimeout(() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width }; };
  const sec = document.querySelector(".cat.on");
  const rows = [...sec.querySelectorAll("ol .row:not(.off)")].map((row) => ({
    number: Number(row.dataset.number), row: box(row), names: box(row.querySelector(".names")),
    who: [...row.querySelectorAll(".who")].map((w) => ({ text: w.textContent, box: box(w),
      cut: w.scrollWidth > w.clientWidth })),
    extra: [...row.querySelectorAll(".extra")].map((x) => ({ text: x.textContent, box: box(x),
      size: parseFloat(getComputedStyle(x).fontSize), cut: x.scrollWidth > x.clientWidth + 1 })),
  }));
  const first = sec.querySelector("ol .row");
  const room = document.getElementById("board").clientHeight - sec.querySelector("h2").offsetHeight;
  const out = document.createElement("pre");
  out.id = "probe";
  out.hidden = true;  // takes no room from the board (which would cut its pages again)
  out.textContent = JSON.stringify({ rows, width: innerWidth, list: box(sec.querySelector("ol")),
    fits: Math.floor(room / first.offsetHeight) });
  document.body.append(out);
}, 2500);
</script>"""


class Probed(Scoreboard):
    """The scoreboard with ``probe`` (a script, ``PROBE`` here) at the end of its page."""

    probe = PROBE

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._page = self._page.replace("</body>", self.probe + "</body>")
        self._page_headers["Content-Security-Policy"] = scoreboard._csp(self._page)


def probe(dom: str) -> dict:
    found = re.search(r'<pre id="probe"[^>]*>(.*?)</pre>', dom, flags=re.S)
    assert found, "the probe did not run"
    return json.loads(html.unescape(found.group(1)))


LONG_NAME = "Maximiliana Eugenia de los Ángeles Fernández-Villaverde"
NAMES_CSV = f"""number,category,names,born,aepuzz_member,resident
1,parejas,{LONG_NAME}; Bea Gil,1980; 1985,no; no,yes; no
2,parejas,Ana; Bea,1980; 1985,no; no,no; no
"""


@needs_chromium
@pytest.mark.parametrize("size", ["1920,1080", "390,844"])
async def test_chromium_both_names_and_the_prize_badge_show_on_a_projector_and_a_phone(
        tmp_path, size):
    h, _ = await open_day(tmp_path, NAMES_CSV)
    await ok(h, ORGANISER, "/inicio parejas", T0)
    await ok(h, VOLUNTEER, "/fin 1 1:30:00", at("1:30:05"))
    await ok(h, VOLUNTEER, "/fin 2 1:35:00", at("1:35:05"))
    # a prize's badge once the results are final (issue 47, item 7)
    await h.send(ORGANISER, "/publicar parejas", at("1:38:00"))
    await h.press(ORGANISER, "pub:parejas", at("1:38:10"))
    board = Probed(port=0, clock=FrozenClock(at("1:40:00")))
    await board.start(h.services)
    try:
        dom = await chromium(board.url + "?cat=parejas", tmp_path, "--dump-dom", size=size)
        rows = {r["number"]: r for r in probe(dom)["rows"]}
        width = probe(dom)["width"]
        # a long first name is cut with "…", the partner's short one is shown whole
        first, partner = rows[1]["who"]
        assert first["text"] == LONG_NAME and first["cut"] and first["box"]["width"] > 40
        assert partner["text"] == "Bea Gil" and not partner["cut"]
        assert first["box"]["right"] <= partner["box"]["left"]
        assert partner["box"]["right"] <= rows[1]["names"]["right"] + 0.5
        assert [w["cut"] for w in rows[2]["who"]] == [False, False]  # short names: whole
        # the best local pair's badge: its whole text, in type one can read, on the screen
        [badge] = rows[1]["extra"]
        assert badge["text"] == "Mejor pareja local" and badge["size"] >= 12
        assert not badge["cut"] and badge["box"]["width"] > 40
        assert 0 <= badge["box"]["left"] and badge["box"]["right"] <= width
        assert rows[1]["row"]["top"] <= badge["box"]["top"]
        assert badge["box"]["bottom"] <= rows[1]["row"]["bottom"] + 0.5
    finally:
        await board.stop()
        await h.stop()


@needs_chromium
async def test_chromium_fits_more_rows_at_1080p_in_balanced_pages(tmp_path):
    entries = 15  # 14 rows fit here: once 14 and a row alone, now 8 and 7
    csv = "number,category,names,born,aepuzz_member,resident\n" + "".join(
        f"{100 + i},adultos,Persona {i},1980,no,no\n" for i in range(entries))
    h, _ = await open_day(tmp_path, csv)
    await ok(h, ORGANISER, "/inicio adultos", T0)
    board = Probed(port=0, clock=FrozenClock(at("0:30:00")))
    await board.start(h.services)
    try:
        dom = await chromium(board.url + "?cat=adultos", tmp_path, "--dump-dom",
                             size="1920,1080")
        seen = probe(dom)
        assert seen["fits"] >= 13  # 9 before
        pages = [int(p) for p in re.findall(r'class="row [^"]*" data-number="\d+" '
                                            r'data-page="(\d+)"', dom)]
        assert len(pages) == entries and pages == sorted(pages)
        sizes = [pages.count(p) for p in range(max(pages) + 1)]
        assert len(sizes) == math.ceil(entries / seen["fits"])
        assert max(sizes) - min(sizes) <= 1 and min(sizes) > 1  # no leftover row alone
        assert max(sizes) <= seen["fits"]
        # a wide screen shows both pages at once, side by side, the first on the left
        assert len(seen["rows"]) == entries
        page_of = dict(zip((int(n) for n in re.findall(
            r'class="row [^"]*" data-number="(\d+)" data-page="\d+"', dom)), pages, strict=True))
        left = [r for r in seen["rows"] if page_of[r["number"]] == 0]
        right = [r for r in seen["rows"] if page_of[r["number"]] == 1]
        assert max(r["row"]["right"] for r in left) < min(r["row"]["left"] for r in right)
        assert all(r["row"]["bottom"] <= seen["list"]["bottom"] + 0.5 for r in seen["rows"])
    finally:
        await board.stop()
        await h.stop()


@needs_chromium
async def test_chromium_highlights_a_new_result_not_the_clock_starting_or_time_up(tmp_path):
    """One page load: adultos starts between two polls (every row goes from waiting to
    playing), then #31 finishes and time is up (#30 goes to no result). Only #31's row lights
    up: the start and time's up change every row's status, not a result."""
    h, _ = await open_day(tmp_path, CSV)
    clock = FrozenClock(T0 - timedelta(minutes=5))

    class Board(Scoreboard):
        requests = 0

        async def data_bytes(self) -> bytes:
            self.requests += 1
            if self.requests == 2:
                await ok(h, ORGANISER, "/inicio adultos", T0)
                clock.instant = at("1:00:00")
            elif self.requests == 3:
                await ok(h, VOLUNTEER, "/fin 31 0:58:40", at("1:00:00"))
                clock.instant = at("2:40:00")  # past adultos' 2:30:00
            return await super().data_bytes()

    board = Board(port=0, clock=clock)
    await board.start(h.services)
    try:
        dom = await chromium(board.url + "?cat=adultos", tmp_path, "--dump-dom")
        assert board.requests >= 3
        assert "0:58:40" in text_of(dom) and "Tiempo" in text_of(dom)
        assert re.search(r'class="row s-finished fresh" data-number="31"', dom)
        assert re.search(r'class="row s-pending" data-number="30"', dom)  # not lit
        assert len(re.findall(r'class="row [^"]*\bfresh\b', dom)) == 1
    finally:
        await board.stop()
        await h.stop()


@needs_chromium
async def test_chromium_says_when_a_break_ends(tmp_path):
    h = await Harness(tmp_path, BILLOM, organisers=frozenset({ORGANISER.id})).start()
    start = datetime(2012, 3, 10, 14, 0, tzinfo=ZoneInfo("Europe/Paris"))
    await ok(h, ORGANISER, "/inicio", start)
    board = Scoreboard(port=0, clock=FrozenClock(start + timedelta(hours=1, minutes=20)))
    await board.start(h.services)
    try:
        dom = await chromium(board.url, tmp_path, "--dump-dom")
        assert dom.count('<span class="state">Pause jusqu\'à 15:30</span>') == 4
        # paused: the time left stays 2:30:00 - 1:15:00
        assert dom.count('<span class="left num">Reste 1:15:00</span>') == 4
    finally:
        await board.stop()
        await h.stop()


# -- 4. the manual's picture ---------------------------------------------------------------------

LIVELY_CSV = """number,category,names,born,aepuzz_member,resident
1,parejas,Lucía Ortega; Mario Ortega,1984; 1986,yes; no,no; no
2,parejas,Nuria Gómez; Óscar Ruiz,1979; 1981,no; no,yes; no
3,parejas,Paula Díaz; Raúl Díaz,1990; 2011,no; no,no; no
4,parejas,Sara Martín; Tomás Vega,1972; 1975,yes; yes,no; no
5,parejas,Elena Moreno; Hugo Sanz,1988; 1987,no; no,no; no
6,parejas,Inés Álvarez; Javier Gil,1995; 1993,no; no,yes; yes
7,parejas,Carla Rey; David Rey,1969; 2010,no; no,no; no
8,parejas,Gloria Pérez; Bruno León,1982; 1980,no; no,no; no
9,parejas,Ana Castro; Fernando Mora,1977; 1978,yes; no,no; no
21,adultos,Alicia Herrero,1985,no,no
22,adultos,Benito Cano,1969,no,yes
23,adultos,Cristina Soto,1992,yes,no
24,adultos,Diego Navarro,1975,no,no
25,adultos,Esther Prieto,1988,no,no
26,adultos,Félix Vidal,1961,no,no
41,infantil-a,Leo Marín,2017,no,yes
42,infantil-a,Vera Santos,2018,no,no
43,infantil-a,Álex Rubio,2017,no,no
51,infantil-b,Marta Lozano,2014,no,no
52,infantil-b,Pablo Gil,2015,no,yes
53,infantil-b,Irene Calvo,2016,no,no
"""


async def lively_day(tmp_path: Path) -> tuple[Harness, datetime]:
    """Castrillo at 12:28: pairs in the escape at every stage, a few finishers, the youngest
    category's time up, one category not started. Returns the harness and that moment."""
    h, p = await open_day(tmp_path, LIVELY_CSV)
    v, o = VOLUNTEER, ORGANISER
    kids = T0 - timedelta(minutes=35)
    await ok(h, o, "/inicio infantil-a", kids)
    await ok(h, o, "/inicio parejas", T0)
    await ok(h, o, "/inicio adultos", T0)
    await ok(h, o, "/inicio infantil-b", at("0:10:00"))
    events = [
        (p[2], "/pista 1", "0:12:00"), (v, "/escape 1 0:22:00", "0:22:30"),
        (v, "/etapa 4 2", "0:24:00"), (p[6], "/pista 2", "0:26:00"),
        (v, "/etapa 7 2", "0:30:00"), (v, "/etapa 5 3", "0:35:00"),
        (p[5], "/pista 3", "0:38:00"), (v, "/escape 2 0:40:00", "0:40:30"),
        (p[6], "/solucion 2", "0:41:00"), (v, "/etapa 4 4", "0:48:00"),
        (v, "/etapa 9 3", "0:52:00"), (v, "/escape 3 0:55:00", "0:55:20"),
        (v, "/etapa 6 3", "1:00:00"), (v, "/etapa 7 3", "1:05:00"),
        (v, "/etapa 4 5", "1:12:00"), (v, "/fin 41 1:31:40", "1:31:40", kids),
        (v, "/fin 21 1:12:40", "1:12:50"), (v, "/fin 42 1:44:05", "1:44:10", kids),
        (v, "/fin 22 1:19:05", "1:19:20"), (v, "/fin 1 1:24:10", "1:24:30"),
        (v, "/fin 23 1:26:30", "1:26:45"), (v, "/piezas 43 87", "2:01:30", kids),
    ]
    for who, text, when in sorted(((w, t, at(c, *s)) for w, t, c, *s in events),
                                  key=lambda e: e[2]):
        await ok(h, who, text, when)
    return h, at("1:28:00") + timedelta(milliseconds=400)


@needs_chromium
async def test_readme_screenshot_of_a_lively_day(tmp_path):
    h, now = await lively_day(tmp_path)
    board = Scoreboard(port=0, clock=FrozenClock(now))
    await board.start(h.services)
    try:
        data = await board.data()
        states = {c["id"]: c["clock"]["state"] for c in data["categories"]}
        assert states == {"infantil-a": "time_up", "infantil-b": "running",
                          "infantil-c": "not_started", "adultos": "running",
                          "parejas": "running"}
        statuses = {r["status"] for r in category(data, "parejas")["rows"]}
        assert statuses == {"finished", "puzzle", "escape"}
        # bigger type (or more entries): the pairs' ranking is cut into pages shown in turn
        dom = await chromium(board.url + "?cat=parejas&scale=1.6", tmp_path, "--dump-dom")
        assert re.search(r'<span class="page num">1(–2)?/[2-4]</span>', dom)
        # a wide screen shows two pages at once, side by side
        assert re.search(r'<section class="cat on two"', dom)
        png = tmp_path / "scoreboard.png"
        await chromium(board.url + "?start=parejas", tmp_path, f"--screenshot={png}",
                       size="1600,900")
        assert png.stat().st_size > 30_000
        target = os.environ.get("SCOREBOARD_SCREENSHOT")
        if target:
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(png, target)
    finally:
        await board.stop()
        await h.stop()
