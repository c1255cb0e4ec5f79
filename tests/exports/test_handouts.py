"""Paper for the hall (bot/services/handouts.py): the volunteers' one-page sheet, with only
what the contest has, and the day plan computed from the contest file; from the CLI and from
the chat (/imprimir)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pypdf

from bot.services.contest_file import load_contest
from bot.services.handouts import day_plan, day_plan_pdf, volunteer_sheet_pdf
from tests.conftest import BILLOM, CASTRILLO, ROOT
from tests.exports.test_cli import cli_env
from tests.fakebot import Harness, Person, staff

CHAMPIONSHIP = ROOT / "contests" / "championship-2027.toml"


def pages(pdf: bytes) -> list[str]:
    """Each page's text, its lines joined by spaces (a wrapped sentence reads whole)."""
    return [re.sub(r"\s+", " ", p.extract_text())
            for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def plan(path, lang: str) -> list[tuple[str, str]]:
    contest = load_contest(path)
    zone = ZoneInfo(contest.timezone)
    return [(m.astimezone(zone).strftime("%d %H:%M"), text) for m, text in day_plan(contest, lang)]


def test_the_volunteers_sheet_has_what_the_contest_has_on_one_page():
    castrillo = load_contest(CASTRILLO)
    [page] = pages(volunteer_sheet_pdf(castrillo, "es"))
    assert page.startswith("Hoja de voluntarios")
    for text in ("/fin 12 1:47:30", "/piezas 12 850", "/etapa 12 3", "/deshacer", "/historial 12",
                 "#12 Voy yo", "Anotar 1:47:30", "Etapa 3", "No ha terminado",
                 "más de 5 minutos"):
        assert text in page, text
    assert "/penalizacion" not in page and "/parcial" not in page  # Castrillo has neither
    # Billom in French: no escape, the French commands
    [page] = pages(volunteer_sheet_pdf(load_contest(BILLOM), "fr"))
    assert page.startswith("Fiche des bénévoles")
    assert "/termine 12 1:47:30" in page and "J'y vais" in page
    assert "/etape" not in page and "/evasion" not in page
    # the championship in English: penalties and split times, still one page
    [page] = pages(volunteer_sheet_pdf(load_contest(CHAMPIONSHIP), "en"))
    assert "/penalty 12" in page and "/split 12 0:51:20" in page
    assert "a button per kind of penalty" in page


def test_the_day_plan_follows_the_clocks_and_the_break():
    billom = plan(BILLOM, "fr")
    # every clock from 14:00, stopped 15:15-15:30: 2:30:00 of play ends at 16:45
    assert ("10 14:00", "Junior : le chrono démarre") in billom
    assert ("10 15:15", "Pause : tous les chronos s'arrêtent") in billom
    assert ("10 15:30", "Fin de la pause : les chronos repartent") in billom
    assert ("10 16:30", "Expert : plus que 15 minutes (le bot prévient tout le monde)") in billom
    assert ("10 16:45", "Expert : temps écoulé") in billom
    assert billom[-1][0] == "10 17:15" and billom[-1][1].startswith("Résultats")
    assert [t for t, _ in billom] == sorted(t for t, _ in billom)
    castrillo = plan(CASTRILLO, "es")
    # the pairs: the escape's 90 minutes, then 3 hours in all
    assert ("22 11:30", "Adultos parejas: termina el escape (los voluntarios confirman la "
            "etapa de cada pareja)") in castrillo
    assert ("22 13:00", "Adultos parejas: fin del tiempo") in castrillo
    assert ("22 12:25", "Adultos individual: quedan 5 minutos (el bot avisa a todos)") in castrillo


def test_the_day_plan_of_a_contest_in_rounds_goes_day_by_day():
    text = "\n".join(pages(day_plan_pdf(load_contest(CHAMPIONSHIP), "en")))
    assert text.startswith("Day plan")
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(
        day_plan_pdf(load_contest(CHAMPIONSHIP), "en"))).pages)
    days = re.findall(r"^(Friday|Saturday|Sunday) \d+ \w+$", text, flags=re.M)
    assert len(days) >= 2 and days == sorted(set(days), key=days.index)
    assert "Semi-final" in text or "Final" in text
    # heats with no schedule of their own: one after another, each when the one before ends
    championship = plan(CHAMPIONSHIP, "en")
    starts = [t for t, what in championship
              if what.startswith("Individual — Heats") and what.endswith("the clock starts")]
    assert starts == ["01 10:00", "01 11:30", "01 13:00"]


def cli(args: list[str], contest) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, capture_output=True,
                          env=cli_env({"PUZZLEBOT_CONTEST": str(contest)}), timeout=60)


def test_from_the_command_line():
    out = cli(["volunteer-sheet", "--lang", "fr"], CASTRILLO)
    assert out.returncode == 0, out.stderr
    assert pages(out.stdout)[0].startswith("Fiche des bénévoles")
    out = cli(["day-plan"], BILLOM)  # the contest's language
    assert out.returncode == 0 and pages(out.stdout)[0].startswith("Programme de la journée")
    refused = cli(["day-plan", "--lang", "ja"], BILLOM)
    assert refused.returncode == 2 and refused.stdout == b""
    assert b"--lang must be one of es, fr, en, de, it, pt, nl" in refused.stderr


async def test_imprimir_sends_both_in_the_organisers_language(tmp_path):
    olga, vic = Person(1, "Olga", "fr"), Person(2, "Víctor")
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({olga.id})).start()
    try:
        at = datetime(2023, 4, 22, 9, 0, tzinfo=ZoneInfo("Europe/Madrid"))
        await staff(h, olga, vic, at - timedelta(days=1))
        calls = await h.send(olga, "/imprimer", at)
        docs = [c for c in calls if c.method == "sendDocument"]
        assert [d.params["document"]["file"] for d in docs] == [
            "volunteers-fr.pdf", "day-plan-fr.pdf"]
        assert pages(docs[0].params["document"]["bytes"])[0].startswith("Fiche des bénévoles")
        assert [c.method for c in await h.send(vic, "/imprimir", at)] == ["sendMessage"]
    finally:
        await h.stop()
