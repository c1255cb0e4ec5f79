"""Who may see what (issue 47, item 8), besides the table cards (test_table_cards.py): no
public output carries a birth date beyond a year (the ratings' text, CSV and picture, the public
document, the results export, the chat's rankings), and ids do not reach people: a choice shown
in a ranking by its label ("Fitchburg Library", not "fitchburg"), the outcome codes of the menus
and the volunteers' sheet with the name beside each."""

from __future__ import annotations

import io
import json
import os
import re
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.services.csvio import import_entries, read_entries
from bot.services.document import export_document
from bot.services.exports import export_results
from bot.services.handouts import volunteer_sections
from tests.clirun import bot_main
from tests.conftest import CASTRILLO, ROOT
from tests.fakebot import Harness, Person, said
from tests.ratingdocs import league

MADRID = ZoneInfo("Europe/Madrid")
T0 = datetime(2023, 4, 22, 10, 0, tzinfo=MADRID)
OLGA, JONAS = Person(1, "Olga", "es"), Person(2, "Jonas", "de")
LIBRARY = ROOT / "contests" / "library-series-2024.toml"
CHILD = "2012-05-04"  # a child's date of birth, as imported
FULL_DATE = re.compile(r"\b(19|20)\d\d-\d\d-\d\d\b|\b\d\d?[./]\d\d?[./](19|20)\d\d\b")


async def test_no_public_output_carries_a_childs_date_of_birth(tmp_path: Path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({OLGA.id, JONAS.id})).start()
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            f"number,category,names,born\n7,infantil-c,Inés Bernard,{CHILD}\n"
            "8,infantil-c,Pablo Bernard,2011-09-30\n"), "x.csv"))
        for p in (OLGA, JONAS):
            await h.send(p, "/start", T0 - timedelta(hours=1))
        await h.send(OLGA, "/inicio", T0)
        await h.send(OLGA, "/fin 7 0:45:14", T0 + timedelta(minutes=46))
        for p, ranking in ((OLGA, "/clasificacion"), (JONAS, "/clasificacion")):
            shown = "\n".join(said(await h.send(p, ranking, T0 + timedelta(minutes=50)), p))
            assert "Inés Bernard" in shown and not FULL_DATE.search(shown), shown
            assert "2012" not in shown and "04.05" not in shown
        public = json.dumps(await export_document(svc.contest, CASTRILLO.read_text(), svc.day,
                                                  public=True), ensure_ascii=False)
        assert "Inés Bernard" in public and CHILD not in public and "2011-09-30" not in public
        results = io.StringIO()
        await export_results(svc.contest, svc.day, results)
        assert "Inés Bernard" in results.getvalue() and not FULL_DATE.search(
            results.getvalue())
    finally:
        await h.stop()


def test_the_ratings_print_a_year_of_birth_at_most(tmp_path: Path) -> None:
    """Documents with every player's full date of birth (children's included): the text, the
    CSV and the picture (drawn from the same lines) carry years at most."""
    paths = []
    for i, doc in enumerate(league(3, 60, births="full")):
        path = tmp_path / f"doc{i}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        paths.append(str(path))
    births = {m["born"] for doc in league(3, 60, births="full") for e in doc["entries"]
              for m in e["members"] if m.get("born")}
    assert births  # the documents do have full dates
    out = tmp_path / "ratings.csv"
    run = bot_main(["rating", *paths, "--csv", str(out), "--png", str(tmp_path / "r.png")],
                   os.environ)
    assert run.returncode == 0, run.stderr
    for text in (run.stdout, out.read_text(encoding="utf-8")):  # dates of events only
        assert not [b for b in births if b in text]
        assert re.search(r"\(19\d\d\)", run.stdout)  # a year, where namesakes need one


async def test_a_choice_reads_as_its_label_in_rankings(tmp_path: Path) -> None:
    h = await Harness(tmp_path, LIBRARY, organisers=frozenset({OLGA.id, JONAS.id})).start()
    try:
        svc = h.services
        await import_entries(svc.store, read_entries(svc.contest, io.StringIO(
            "number,category,names,born,library\n"
            "1,teams,Ana Uno;Bea Dos,1990-01-02;1991-03-04,fitchburg\n"), "x.csv"))
        at = datetime(2024, 8, 15, 19, tzinfo=ZoneInfo("America/Chicago"))
        for p, words in ((OLGA, "aún sin resultado"), (JONAS, "noch kein Ergebnis")):
            await h.send(p, "/start", at)
            shown = said(await h.send(p, "/clasificacion", at), p)[0]
            assert f"- #1 Ana Uno / Bea Dos (Fitchburg Library): {words}" in shown, shown
            assert "fitchburg" not in shown
    finally:
        await h.stop()


async def test_the_outcome_codes_are_named_in_the_menu_and_the_sheet(tmp_path: Path) -> None:
    h = await Harness(tmp_path, CASTRILLO, organisers=frozenset({OLGA.id, JONAS.id})).start()
    try:
        for p, line in (
                (OLGA, "N dns|dsq|oc [motivo]: no se presentó (dns), descalificada (dsq), "
                       "fuera de concurso (oc)"),
                (JONAS, "N dns|dsq|oc [Grund]: nicht angetreten (dns), disqualifiziert (dsq), "
                        "außer Konkurrenz (oc)")):
            helped = "\n".join(said(await h.send(p, "/ayuda", T0), p))
            assert line in helped, helped
            sheet = "\n".join(f"{x.label} {x.text}" for s in volunteer_sections(
                h.services.contest, p.lang) for x in s.lines)
            assert line in sheet, sheet
    finally:
        await h.stop()
