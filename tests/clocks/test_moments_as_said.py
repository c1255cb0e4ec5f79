"""Issue 47, item 7: durations and moments read as people say them, in Spanish and German, over
the fake Bot API. A time on a contest's clock is a time taken ("has terminado en 1:12:30",
"fertig nach 1:12:30"; an escape's stage "0:30:00 en el reloj del concurso"), never a time of
day ("terminado a las 1:12:30"); a span of weeks is days and hours ("27 Tage und 23
Stunden"), never "671 Stunden" or "671:00:00"."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.services.csvio import import_entries, read_entries
from tests.conftest import CASTRILLO
from tests.day.test_bot_commands import replies_to
from tests.exports.test_projector_today import in_language
from tests.exports.test_scoreboard import CSV, ORGANISER, T0, VOLUNTEER, at, open_day
from tests.fakebot import Harness, Person, texts
from tests.selftimed.test_selftimed import SOLO1, open_home
from tests.selftimed.test_selftimed import at as home_at

ROOT = Path(__file__).resolve().parents[2]
LEAGUE = ROOT / "contests" / "online-league-2026.toml"

FINISHED = {"es": ("Anotado: has terminado en 1:12:30 (a las 20:12:30).",
                   "Foto recibida para tu tiempo de 1:12:30."),
            "de": ("Notiert: fertig nach 1:12:30 (um 20:12:30).",
                   "Foto für deine Endzeit 1:12:30 erhalten.")}
STAGE = {"es": "Inscripción 3 confirmada en la etapa 2 (0:30:00 en el reloj del concurso).",
         "de": "Anmeldung 3 in Etappe 2 bestätigt (Wettbewerbszeit 0:30:00)."}
LEFT = {"es": "· Solo: 1 inscripción sigue jugando, le quedan 27 días y 23 horas de tiempo.",
        "de": "· Solo: 1 Anmeldung spielt noch, Restzeit 27 Tage und 23 Stunden."}


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_a_finish_at_home_is_a_time_taken_not_a_time_of_day(
        tmp_path: Path, lang: str) -> None:
    home, _ = await open_home(tmp_path)
    ann = Person(SOLO1.id, SOLO1.name, lang)
    noted, photo = FINISHED[lang]
    try:
        [said] = replies_to(await home.send(ann, "/listo", "1:12:30"), ann)
        assert said.startswith(noted), said
        said = replies_to(await home.h.send_photo(ann, home_at("1:13:00"), "done-photo"),
                          ann)[0]
        assert said.startswith(photo), said
        assert "a las 1:" not in said and "um 1:" not in said
    finally:
        await home.h.stop()


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_an_escape_stage_is_on_the_contest_clock(tmp_path: Path, lang: str) -> None:
    h, _ = await open_day(tmp_path, CSV, in_language(CASTRILLO, lang, tmp_path))
    volunteer = Person(VOLUNTEER.id, VOLUNTEER.name, lang)
    try:
        await h.send(ORGANISER, "/inicio parejas", T0)
        said = texts(await h.send(volunteer, "/etapa 3 2", at("0:30:00")))
        assert STAGE[lang] in said, said
    finally:
        await h.stop()


@pytest.mark.parametrize("lang", ["es", "de"])
async def test_a_season_left_is_days_and_hours(tmp_path: Path, lang: str) -> None:
    h = await Harness(tmp_path, LEAGUE, organisers=frozenset({1})).start()
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born\n1,solo,Anna Berg,1990-01-01\n"), "e.csv"))
        start = datetime(2026, 10, 3, 10, 0, tzinfo=ZoneInfo("Europe/Berlin"))
        [entry] = await svc.store.entries()
        boss, anna = Person(1, "Olga", lang), Person(101, "Anna", lang)
        await h.send(anna, f"/start {entry.join_code}", start - timedelta(hours=1))
        await h.send(boss, "/start", start - timedelta(hours=2))
        await h.send(boss, "/inicio", start)
        # two hours in: 4 weeks less 2 hours, plus the hour the clocks go back on 25 October
        # (the season ends at 10:00 on the wall clock, as it began)
        [said] = texts(await h.send(boss, "/publicar", start + timedelta(hours=2)))
        assert said.splitlines()[1] == LEFT[lang], said
        assert "671" not in said
    finally:
        await h.stop()
