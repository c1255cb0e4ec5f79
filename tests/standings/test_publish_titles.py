"""Titles of separate rankings (issue 47, item 5): when results are made final, each entry is
told its place in every separate ranking of its category it holds one in (a national title
within an open category), with the ranking's name and prize, in the same message as its place;
the wall sheet and the projector show those rankings after their category."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.services.csvio import import_entries, read_entries
from bot.services.exports import printed_ranking
from bot.services.scoreboard import scoreboard_data
from tests.fakebot import Harness, Person, said, staff

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
