"""Issue 27, spreadsheets: ``/exportar`` sends the workbook first, named after the contest in
the organiser's language, with a ranking sheet laid out for A4 portrait at 100 % (a filter on
its header, the contest above, the page below), dates as local date cells and no column that is
empty in every row; then the two CSV files, whose columns stay the import's, with local
timestamps."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from zoneinfo import ZoneInfo

from openpyxl import load_workbook  # type: ignore[import-untyped, unused-ignore]

from bot.services.exports import A4_PORTRAIT_WIDTH, PRINT_MARGIN
from tests.day.test_bot_commands import ORGANISER, P3, P50, VOLUNTEER, day

__all__ = ["day"]  # the fixture

MADRID = ZoneInfo("Europe/Madrid")


def documents(calls: list) -> list[tuple[str, bytes, str]]:
    out = []
    for c in calls:
        if c.method == "sendDocument":
            doc = c.params["document"]
            data = doc["bytes"] if isinstance(doc["bytes"], bytes) else doc["bytes"].encode()
            out.append((doc["file"], data, str(c.params.get("caption", ""))))
    return out


def printed_width_inches(sheet: object) -> float:
    """What the sheet's columns take on paper at 100 %: Excel's width of w characters is
    about 7w + 5 pixels at 96 dpi."""
    widths = [sheet.column_dimensions[col].width  # type: ignore[attr-defined]
              for col in "ABCDEF"]
    return sum(7 * w + 5 for w in widths) / 96


async def test_exportar_sends_the_workbook_first_with_a_ranking_to_print(day) -> None:
    await day.send(VOLUNTEER, "/fin 50 1:10:05", "1:10:10")
    await day.send(VOLUNTEER, "/fin 3 1:40:00", "1:40:05")
    await day.send(VOLUNTEER, "/piezas 20 350", "3:00:10")
    await day.send(ORGANISER, "/idioma es", "3:01:00")
    docs = documents(await day.send(ORGANISER, "/exportar", "3:02:00"))
    names = [name for name, _, _ in docs]
    assert names == ["castrillo-2023-resultados.xlsx", "castrillo-2023-entries.csv",
                     "castrillo-2023-results.csv"]
    assert "imprimir" in docs[0][2] and "hoja de cálculo" in docs[1][2]

    book = load_workbook(io.BytesIO(docs[0][1]))
    assert book.sheetnames[:2] == ["Resultados", "Inscripciones"]
    ranking = book["Resultados"]
    rows = [[c.value for c in row] for row in ranking.iter_rows()]
    assert rows[0] == ["Categoría", "Puesto", "Número", "Nombres", "Resultado", "Premio"]
    by_number = {r[2]: r for r in rows[1:]}
    assert by_number[50][:4] == ["Adultos individual", 1, 50, "Luis"]
    assert by_number[3][1:4] == [1, 3, "Ana / Bea"]
    assert ranking.cell(row=rows.index(by_number[3]) + 1, column=5).number_format == "[h]:mm:ss"
    assert by_number[20][4] == "350 piezas"  # past the limit: the pieces it placed
    # laid out for A4 portrait at 100 %, the names wrapped rather than widening the page
    setup = ranking.page_setup
    assert (setup.orientation, str(setup.paperSize), setup.scale) == ("portrait", "9", 100)
    assert not ranking.sheet_properties.pageSetUpPr.fitToPage
    assert printed_width_inches(ranking) <= A4_PORTRAIT_WIDTH - 2 * PRINT_MARGIN
    assert ranking.page_margins.left == ranking.page_margins.right == PRINT_MARGIN
    assert ranking.auto_filter.ref == ranking.dimensions
    assert ranking.oddHeader.center.text == (
        "II Concurso + Que Puzzles de Castrillo de la Vega · 2023-04-22")
    assert ranking.oddFooter.right.text == "Página &P de &N"
    assert ranking["D2"].alignment.wrap_text

    entries = book["Inscripciones"]
    header = [c.value for c in entries[1]]
    # nobody waits and nothing is refunded in this contest: those columns are left out
    assert "Puesto en la lista de espera" not in header and "Fecha de inscripción" in header
    registered = entries.cell(row=2, column=header.index("Fecha de inscripción") + 1)
    assert registered.is_date and registered.number_format == "dd/mm/yyyy hh:mm"
    # results of a category without an escape have no escape columns
    results = book["Adultos individual"]
    assert "Tiempo del escape" not in [c.value for c in results[1]]
    assert "Tiempo del escape" in [c.value for c in book["Adultos parejas"][1]]

    # the CSV keeps its columns, and says the hall's time with its offset
    (_, entries_csv, _) = docs[1]
    first = next(csv.DictReader(io.StringIO(entries_csv.decode())))
    moment = datetime.fromisoformat(first["registered_at"])
    assert moment.utcoffset() == moment.astimezone(MADRID).utcoffset()
    assert registered.value == moment.astimezone(MADRID).replace(tzinfo=None)
    assert list(first)[:7] == ["number", "category", "names", "born", "local", "join_code",
                               "registered_at"]


async def test_a_participant_is_not_sent_the_files(day) -> None:
    calls = await day.send(P3, "/exportar", "3:02:00")
    assert documents(calls) == []
    calls = await day.send(P50, "/exportar", "3:02:00")
    assert documents(calls) == []
