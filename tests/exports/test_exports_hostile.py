"""Issue 14: names never break the organisers' files. Control characters are cleaned when a name
is stored; cells a spreadsheet would run as formulas are made inert (OWASP's CSV injection
advice), in CSV and in XLSX; what is exported imports again unchanged."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped, unused-ignore]

from bot.features.registration.rules import clean_name
from bot.services.contest_file import load_contest
from bot.services.csvio import import_entries, inert, read_entries, uninert
from bot.services.exports import entry_rows, export_entries, xlsx
from bot.storage.store import Store
from tests.conftest import CASTRILLO

CONTEST = load_contest(CASTRILLO)

# what a spreadsheet would run, and names that merely look like it
FORMULAS = ['=HYPERLINK("http://evil.example","click")', "+1+2", "-3+cmd|' /C calc'!A0",
            "@SUM(A1:A9)", "=1+1"]
LOOKALIKES = ["'Ana", "''Bo", "'=quoted", "Zoë-Anne"]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "x.sqlite3")
    yield s
    await s.close()


def one_per_line(names: list[str]) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["number", "category", "names", "born"])
    for i, name in enumerate(names, start=1):
        w.writerow([i, "adultos", inert(name), "1980"])
    return out.getvalue()


def test_clean_name_turns_control_characters_into_single_spaces() -> None:
    assert clean_name("Ana\x00\x07Bea") == "Ana Bea"
    assert clean_name("\tLuis\r\n  Gil\x1b[31m ") == "Luis Gil [31m"
    assert clean_name("Zoe\u0308 \U0001f9e9 \u202eevil") == "Zoe\u0308 \U0001f9e9 \u202eevil"
    assert clean_name("\x7f\x85") == ""


@pytest.mark.parametrize("cell,made", [
    ("=1+1", "'=1+1"), ("+33 6 12", "'+33 6 12"), ("-x", "'-x"), ("@a", "'@a"),
    ("\tx", "'\tx"), ("'Ana", "''Ana"), ("Ana", "Ana"), ("-5.00", "-5.00"), ("12", "12"),
    ("", ""),
])
def test_inert_quotes_what_a_spreadsheet_would_run_and_nothing_else(cell: str,
                                                                     made: str) -> None:
    assert inert(cell) == made
    assert uninert(made) == cell


async def test_a_control_character_in_an_imported_name_is_cleaned_and_the_workbook_builds(
        store: Store) -> None:
    rows = read_entries(CONTEST, io.StringIO(
        "number,category,names,born\n1,adultos,\"Ana\x0bMaría\x00\",1980\n"), "x.csv")
    await import_entries(store, rows)
    entry = await store.entry(1)
    assert entry is not None and entry.names == ("Ana María",)
    book = load_workbook(io.BytesIO(xlsx({"Entries": await entry_rows(CONTEST, store)})))
    assert book["Entries"]["C2"].value == "Ana María"


def test_the_workbook_builds_even_with_control_characters_stored_before_cleaning() -> None:
    book = load_workbook(io.BytesIO(xlsx({"Entries": [["names"], ["Ana\x01Bea"]]})))
    assert book["Entries"]["A2"].value == "Ana Bea"


async def test_formulas_in_names_are_inert_in_csv_and_xlsx(store: Store) -> None:
    await import_entries(store, read_entries(CONTEST, io.StringIO(one_per_line(FORMULAS)),
                                             "x.csv"))
    out = io.StringIO()
    await export_entries(CONTEST, store, out)
    cells = [r["names"] for r in csv.DictReader(io.StringIO(out.getvalue()))]
    assert cells == ["'" + f for f in FORMULAS]
    book = load_workbook(io.BytesIO(xlsx({"Entries": await entry_rows(CONTEST, store)})))
    sheet = book["Entries"]
    for row, name in enumerate(FORMULAS, start=2):
        cell = sheet.cell(row=row, column=3)
        assert cell.value == name and cell.data_type == "s" and cell.quotePrefix, name


async def test_names_survive_export_then_import_unchanged(tmp_path: Path,
                                                          store: Store) -> None:
    names = FORMULAS + LOOKALIKES
    await import_entries(store, read_entries(CONTEST, io.StringIO(one_per_line(names)),
                                             "x.csv"))
    assert [e.names[0] for e in await store.entries()] == names
    exported = io.StringIO()
    await export_entries(CONTEST, store, exported)
    again = await Store.open(tmp_path / "again.sqlite3")
    try:
        await import_entries(again, read_entries(CONTEST, io.StringIO(exported.getvalue()),
                                                 "exported.csv"))
        assert [e.names[0] for e in await again.entries()] == names
    finally:
        await again.close()


