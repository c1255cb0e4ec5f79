"""Issue 17: the XLSX workbook is a sheet to print, in the contest's language (or another one):
headers in words, yes/no in the language, categories, statuses and choices by their names. The
CSV files keep their codes (their columns are a contract)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped, unused-ignore]

from bot.domain.contest import Contest
from bot.features.registration.day import Registrations
from bot.features.registration.rules import Member
from bot.services.contest_day import ContestDay
from bot.services.contest_file import load_contest
from bot.services.csvio import import_entries, read_entries
from bot.services.exports import (
    Printable,
    column_titles,
    entry_rows,
    export_entries,
    results_by_category,
    xlsx,
)
from bot.storage.store import Store
from tests.conftest import BILLOM, CASTRILLO

BILLOM_CONTEST = load_contest(BILLOM)
CASTRILLO_CONTEST = load_contest(CASTRILLO)

BILLOM_CSV = """number,category,names,born,paid_at,registered_at
1,adulte,Anne; Bruno,1980-01-01; 1982-02-02,2012-02-01,2012-01-25T10:00:00
2,junior,Léa; Tom,2002-01-01; 2003-01-01,,2012-01-26T10:00:00
"""
CASTRILLO_CSV = """number,category,names,born,aepuzz_member,resident
1,parejas,Ana; Bea,1980; 1981,yes; no,no; yes
2,adultos,Carla,1975,no,no
"""


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "x.sqlite3")
    yield s
    await s.close()


async def imported(store: Store, contest: Contest, text: str) -> None:
    await import_entries(store, read_entries(contest, io.StringIO(text), "in.csv"))


def as_dicts(sheet: object) -> list[dict[str, object]]:
    rows = [[c.value for c in row] for row in sheet.iter_rows()]  # type: ignore[attr-defined]
    return [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]


async def test_billom_sheets_are_in_french_by_default(store: Store) -> None:
    contest = BILLOM_CONTEST
    await imported(store, contest, BILLOM_CSV)
    junior = contest.category("junior")
    assert junior is not None
    # a team registered in the chat, not paid yet
    await Registrations(contest, store).register(
        7, junior, [Member("Zoé", born=date(2002, 5, 5)), Member("Max", born=date(2003, 6, 6))],
        0, 0, datetime(2012, 2, 1, 12, tzinfo=ZoneInfo("Europe/Paris")), None)
    day = ContestDay(contest, store, frozenset())
    book = load_workbook(io.BytesIO(xlsx({
        "Inscriptions": await entry_rows(contest, store),
        **await results_by_category(contest, day),
    }, Printable(contest))))
    entries = book["Inscriptions"]
    header = [c.value for c in entries[1]]
    assert header == [
        "Numéro", "Catégorie", "Noms", "Naissance", "Locale", "Date d'inscription", "Statut",
        # nobody waits: the waiting list's column, empty in every row, is left out
        "Montant dû", "Réduction", "Repas", "Repas adulte",
        "Repas enfant", "Date de paiement", "Remboursement dû", "Origine de l'inscription"]
    anne, lea, zoe = as_dicts(entries)
    assert (anne["Numéro"], anne["Catégorie"], anne["Locale"], anne["Statut"]) == (
        1, "Adulte", "non", "confirmée")
    assert (lea["Catégorie"], lea["Statut"], lea["Remboursement dû"]) == (
        "Junior", "confirmée", "non")
    assert (zoe["Catégorie"], zoe["Statut"], zoe["Origine de l'inscription"]) == (
        "Junior", "en attente de paiement", "chat")
    # numbers stay numbers under the words
    assert anne["Montant dû"] == 14.0 and entries["I2"].number_format == "0.00"
    adulte = book["Adulte"]
    # nobody has a result yet: the place and time columns, empty in every row, are left out
    assert [c.value for c in adulte[1]][:5] == [
        "Catégorie", "Numéro", "Noms", "Terminé", "Locale"]
    assert column_titles("fr")["adjusted_time"] == "Temps retenu au classement"
    [result] = as_dicts(adulte)
    assert (result["Catégorie"], result["Numéro"], result["Terminé"], result["Locale"]) == (
        "Adulte", 1, "non", "non")


async def test_castrillo_sheets_are_in_spanish_and_answers_read_si_or_no(store: Store) -> None:
    contest = CASTRILLO_CONTEST
    await imported(store, contest, CASTRILLO_CSV)
    book = load_workbook(io.BytesIO(xlsx({"Inscripciones": await entry_rows(contest, store)},
                                         Printable(contest))))
    sheet = book["Inscripciones"]
    header = [c.value for c in sheet[1]]
    assert header[:7] == ["Número", "Categoría", "Nombres", "Nacimiento", "Local",
                          "Fecha de inscripción", "socio/a de Aepuzz"]
    assert "Estado" in header and "Importe" in header
    pair, single = as_dicts(sheet)
    assert pair["Categoría"] == "Adultos parejas" and pair["Local"] == "sí"
    assert pair["socio/a de Aepuzz"] == "sí; no"  # one answer per member
    assert pair["empadronado/a en Castrillo"] == "no; sí"
    assert pair["Estado"] == "confirmada"
    assert (single["Categoría"], single["Local"], single["socio/a de Aepuzz"]) == (
        "Adultos individual", "no", "no")


async def test_another_language_on_request_and_the_csv_keeps_its_codes(store: Store) -> None:
    contest = CASTRILLO_CONTEST
    await imported(store, contest, CASTRILLO_CSV)
    table = await entry_rows(contest, store)
    french = load_workbook(io.BytesIO(xlsx({"x": table}, Printable(contest, "fr")))).active
    pair = as_dicts(french)[0]
    assert (pair["Catégorie"], pair["Locale"], pair["Statut"]) == (
        "Adultos parejas", "oui", "confirmée")
    assert pair["membre d'Aepuzz"] == "oui; non"
    # without a language, the workbook holds the tables' own codes, as before
    codes = load_workbook(io.BytesIO(xlsx({"x": table}))).active
    assert [c.value for c in codes[1]][:3] == ["number", "category", "names"]
    assert [c.value for c in codes[2]][1] == "parejas"
    out = io.StringIO()
    await export_entries(contest, store, out)
    head, first = out.getvalue().splitlines()[:2]
    assert head.startswith("number,category,names,born,local,join_code,registered_at,"
                           "aepuzz_member,resident,status,")
    assert first.startswith("1,parejas,Ana; Bea,1980; 1981,yes,") and ",confirmed," in first
