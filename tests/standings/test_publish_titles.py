"""Titles of separate rankings (issue 47, item 5): when results are made final, each entry is
told its place in every separate ranking of its category it holds one in (a national title
within an open category), with the ranking's name and prize, in the same message as its place;
the wall sheet and the projector show those rankings after their category."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped, unused-ignore]

from bot.services.csvio import import_entries, read_entries
from bot.services.exports import printed_ranking
from bot.services.scoreboard import scoreboard_data
from bot.tools.scoreboard import Scoreboard
from tests.exports.test_scoreboard import CHROMIUM, chromium, text_of
from tests.fakebot import FrozenClock, Harness, Person, said, staff

TZ = ZoneInfo("Europe/Berlin")
T0 = datetime(2027, 5, 8, 10, 0, tzinfo=TZ)
BOSS, VIC = Person(1, "Olga", "de"), Person(20, "Vic", "de")
ANA, JONAS, LENA = Person(31, "Ana", "es"), Person(32, "Jonas", "de"), Person(33, "Lena", "es")

CONTEST = """
[contest]
name = "Offene Puzzlemeisterschaft"
date = 2027-05-08
timezone = "Europe/Berlin"
language = "de"

[[questions]]
id = "country"
text = { de = "Aus welchem Land kommst du?", es = "¿De qué país eres?", en = "Your country?" }
kind = "choice"
choices = ["DE", "ES", "FR"]

[[categories]]
id = "open"
name = "Open"
members = 1
slots = [{}]
pieces = 500
time_limit = "1:00:00"
fee = 0
prizes = ["Pokal", "Medaille"]

[[categories.rankings]]
id = "national"
name = { de = "Deutsche Meisterschaft", es = "Campeonato de Alemania", en = "German championship" }
question = "country"
answers = ["DE"]
prizes = ["Deutscher Meistertitel"]
"""

ENTRIES = ("number,category,names,born,country\n"
           "1,open,Ana García,1980-01-01,ES\n"
           "2,open,Jonas Weber,1985-02-02,DE\n"
           "3,open,Lena Koch,1990-03-03,DE\n"
           "4,open,Marie Dubois,1975-04-04,FR\n")


@pytest.fixture
async def played(tmp_path: Path) -> AsyncIterator[Harness]:
    """Ana 1st, Jonas 2nd (the first German), Lena 3rd (the second), Marie 300 pieces; Ana's
    and Lena's phones in Spanish, Jonas's in German; time is up."""
    path = tmp_path / "c.toml"
    path.write_text(CONTEST, encoding="utf-8")
    h = await Harness(tmp_path, path, organisers=frozenset({BOSS.id})).start()
    svc = h.services
    await import_entries(svc.store, read_entries(svc.contest, io.StringIO(ENTRIES), "x.csv"))
    for who, number in ((ANA, 1), (JONAS, 2), (LENA, 3)):
        entry = await svc.store.entry(number)
        await h.send(who, f"/start {entry.join_code}", T0 - timedelta(hours=1))
    await staff(h, BOSS, VIC, T0 - timedelta(hours=1))
    await h.send(BOSS, "/inicio", T0)
    at = T0 + timedelta(minutes=59)
    for n, t in ((1, "0:40:00"), (2, "0:45:00"), (3, "0:50:00")):
        await h.send(VIC, f"/fin {n} {t}", at)
    await h.send(VIC, "/piezas 4 300", at)
    try:
        yield h
    finally:
        await h.stop()


async def publish(h: Harness, at: datetime) -> list:  # type: ignore[type-arg]
    await h.send(BOSS, "/publicar open", at)
    return await h.press(BOSS, "pub:open", at + timedelta(seconds=10))


async def test_each_winner_of_a_separate_ranking_is_told_its_title_with_its_place(
        played: Harness) -> None:
    done = await publish(played, T0 + timedelta(minutes=61))
    assert said(done, JONAS) == [
        "Endergebnisse von Open: Platz 2 von 4, mit 0:45:00.\n"
        "Preis: Medaille.\n"
        "Deutsche Meisterschaft: Platz 1 von 2. Preis: Deutscher Meistertitel.\n"
        "Danke fürs Mitmachen, und super gemacht!\n"
        "Die ganze Rangliste: /ranking"]
    assert said(done, LENA) == [
        "Resultados definitivos de Open: puesto 3 de 4, con 0:50:00.\n"
        "Campeonato de Alemania: puesto 2 de 2.\n"
        "¡Gracias por participar, y enhorabuena!\n"
        "La clasificación completa: /clasificacion"]
    # not German: no title, and nothing more than before
    (ana,) = said(done, ANA)
    assert "Campeonato" not in ana and ana.startswith(
        "Resultados definitivos de Open: puesto 1 de 4, con 0:40:00.\nPremio: Pokal.")
    # the same button again: nothing has changed, nobody is told twice
    again = await played.press(BOSS, "pub:open", T0 + timedelta(minutes=62))
    assert said(again, JONAS) == said(again, LENA) == []


async def test_a_title_that_moves_is_told_again_to_whom_it_moved_for(played: Harness) -> None:
    await publish(played, T0 + timedelta(minutes=61))
    # Lena's time corrected below Jonas's: both German places move, Ana's does not
    asked = await played.send(VIC, "/fin 3 0:44:00", T0 + timedelta(minutes=63))
    record = played.buttons(asked)[0]  # a finish moved by six minutes is asked first
    assert record[0] == "0:44:00 eintragen"
    await played.press(VIC, record[1], T0 + timedelta(minutes=63, seconds=5))
    done = await publish(played, T0 + timedelta(minutes=64))
    assert said(done, LENA) == [
        "Los resultados definitivos de Open se han corregido: puesto 2 de 4, con 0:44:00.\n"
        "Premio: Medaille.\n"
        "Campeonato de Alemania: puesto 1 de 2. Premio: Deutscher Meistertitel.\n"
        "La clasificación completa: /clasificacion"]
    assert said(done, JONAS)[0].startswith(
        "Die Endergebnisse von Open wurden korrigiert: Platz 3 von 4, mit 0:45:00.\n"
        "Deutsche Meisterschaft: Platz 2 von 2.\n")
    assert said(done, ANA) == []


async def test_the_wall_sheet_shows_each_separate_ranking_after_its_category(
        played: Harness) -> None:
    await publish(played, T0 + timedelta(minutes=61))
    # the organiser's workbook (German): its first sheet, the one to pin on the wall
    docs = [c.params["document"] for c in await played.send(
        BOSS, "/exportar", T0 + timedelta(minutes=62)) if c.method == "sendDocument"]
    data = docs[0]["bytes"]
    book = load_workbook(io.BytesIO(data if isinstance(data, bytes) else data.encode()))
    sheet = book[book.sheetnames[0]]
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert rows[0] == ["Kategorie", "Platz", "Nummer", "Namen", "Ergebnis", "Preis"]
    assert [r[:4] + r[5:] for r in rows[1:]] == [
        ["Open", 1, 1, "Ana García", "Pokal"],
        ["Open", 2, 2, "Jonas Weber", "Medaille"],
        ["Open", 3, 3, "Lena Koch", None],
        ["Open", 4, 4, "Marie Dubois", None],
        ["Open — Deutsche Meisterschaft", 1, 2, "Jonas Weber", "Deutscher Meistertitel"],
        ["Open — Deutsche Meisterschaft", 2, 3, "Lena Koch", None]]
    # the same sheet in Spanish: the ranking's name in Spanish, its own places
    svc = played.services
    es = await printed_ranking(svc.contest, svc.day, "es", T0 + timedelta(minutes=62))
    assert [r[:4] for r in es[-2:]] == [["Open — Campeonato de Alemania", 1, 2, "Jonas Weber"],
                                        ["Open — Campeonato de Alemania", 2, 3, "Lena Koch"]]
    assert es[-2][4] == "0:45:00" and es[-2][5] == "Deutscher Meistertitel"


async def test_the_projector_shows_each_separate_ranking_after_its_category_once_results_are_in(
        tmp_path: Path, played: Harness) -> None:
    svc = played.services
    await publish(played, T0 + timedelta(minutes=61))
    data = await scoreboard_data(svc.day, svc.contest, T0 + timedelta(minutes=62))
    json.dumps(data)
    open_, national = data["categories"]
    assert (open_["id"], open_["standing"]) == ("open", "final")
    assert (national["id"], national["name"], national["separate_of"], national["standing"]) == (
        "open/national", "Open — Deutsche Meisterschaft", "open", "final")
    assert [(r["position"], r["number"], r["time"], r["prize"]) for r in national["rows"]] == [
        (1, 2, "0:45:00", "Deutscher Meistertitel"), (2, 3, "0:50:00", None)]
    assert [r["position"] for r in open_["rows"]] == [1, 2, 3, 4]  # the category's unchanged
    if CHROMIUM is None:
        return
    clock = FrozenClock(T0 + timedelta(minutes=62))
    board = Scoreboard(port=0, clock=clock)
    await board.start(svc)
    try:
        dom = await chromium(board.url + "?cat=open&start=open/national", tmp_path,
                             "--dump-dom")
        shown = text_of(dom)
        assert "Open — Deutsche Meisterschaft · " in shown, shown
        national_section = dom.split('data-cat="open/national"', 1)[1]
        assert "Jonas Weber" in national_section and "Lena Koch" in national_section
        assert "Ana García" not in national_section.split('data-cat="open"', 1)[0]
        assert dom.count('class="tile') == 1  # one clock: the category's
    finally:
        await board.stop()
