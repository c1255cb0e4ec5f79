"""`python -m bot run|import|export`: settings errors, CSV in and out, the token never logged."""

from __future__ import annotations

import csv
import io
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from openpyxl import load_workbook

import bot.cli as cli
from bot.services.exports import _typed
from bot.storage import store as storage
from bot.support.logsetup import RedactToken
from tests.clirun import bot_main, bot_process
from tests.conftest import CASTRILLO, ROOT

TOKEN = "123456789:AAH-secret-token-value_abcdefghijklmnop"


def cli_env(env: dict[str, str]) -> dict[str, str]:
    full_env = {k: v for k, v in os.environ.items()
                if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    # a settings file beside the default database (after a real `setup` in this folder) must
    # not answer for the settings a test leaves out
    full_env["PUZZLEBOT_DB"] = str(ROOT / "tests" / "no-such-folder" / "none.sqlite3")
    full_env.update(env)
    return full_env


def run(args: list[str], env: dict[str, str],
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS``, in this process (tests/clirun.py)."""
    return bot_main(args, cli_env(env), stdin=stdin or "")


def run_process(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` as a real child process: its exit status, its whole output."""
    return bot_process(args, cli_env(env))


@pytest.mark.parametrize(
    "env,needle",
    [
        ({}, "TELEGRAM_BOT_TOKEN"),
        ({"TELEGRAM_BOT_TOKEN": "nonsense"}, "TELEGRAM_BOT_TOKEN"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN}, "PUZZLEBOT_CONTEST"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "PUZZLEBOT_CONTEST": str(CASTRILLO),
          "PUZZLEBOT_ORGANISERS": "12,abc"}, "PUZZLEBOT_ORGANISERS"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "PUZZLEBOT_CONTEST": "nope.toml",
          "PUZZLEBOT_ORGANISERS": "12"}, "nope.toml"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "PUZZLEBOT_CONTEST": str(CASTRILLO),
          "PUZZLEBOT_ORGANISERS": "12", "PUZZLEBOT_VOLUNTEER_CHAT": "chat"},
         "PUZZLEBOT_VOLUNTEER_CHAT"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "PUZZLEBOT_CONTEST": str(CASTRILLO),
          "PUZZLEBOT_ORGANISERS": "12", "TELEGRAM_BASE_URL": "localhost:8081"},
         "TELEGRAM_BASE_URL"),
    ],
    ids=["no-token", "bad-token", "no-contest", "bad-organiser",
         "missing-contest-file", "bad-volunteer-chat", "bad-base-url"],
)
def test_run_with_a_bad_setting_says_one_line_and_exits_2(env, needle, request):
    # one case as a real process: its exit status, and the token nowhere in what it printed
    as_a_process = request.node.callspec.id == "bad-organiser"
    proc = (run_process if as_a_process else run)(["run"], env)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]
    assert "Traceback" not in proc.stderr
    assert TOKEN not in proc.stderr + proc.stdout


def test_run_refuses_a_database_newer_than_the_code(tmp_path: Path):
    import sqlite3

    db = tmp_path / "future.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 999")
    proc = run(["run"], {"TELEGRAM_BOT_TOKEN": TOKEN, "PUZZLEBOT_CONTEST": str(CASTRILLO),
                         "PUZZLEBOT_ORGANISERS": "12", "PUZZLEBOT_DB": str(db)})
    assert proc.returncode == 2
    assert "newer than this code" in proc.stderr and "Traceback" not in proc.stderr


def test_run_refuses_a_damaged_database(tmp_path: Path):
    db = tmp_path / "broken.sqlite3"
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    proc = run(["run"], {"TELEGRAM_BOT_TOKEN": TOKEN, "PUZZLEBOT_CONTEST": str(CASTRILLO),
                         "PUZZLEBOT_ORGANISERS": "12", "PUZZLEBOT_DB": str(db)})
    assert proc.returncode == 2
    assert "damaged" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("where,needle", [
    ("missing-folder/bot.sqlite3", "does not exist"),
    ("", "this is a folder"),
], ids=["folder-missing", "a-folder"])
@pytest.mark.parametrize("command", [["run"], ["export", "results"]])
def test_a_database_path_that_cannot_work_says_one_line_and_exits_2(tmp_path: Path, where,
                                                                    needle, command):
    db = tmp_path / where if where else tmp_path
    proc = run(command, {"TELEGRAM_BOT_TOKEN": TOKEN, "PUZZLEBOT_CONTEST": str(CASTRILLO),
                         "PUZZLEBOT_ORGANISERS": "12", "PUZZLEBOT_DB": str(db)})
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {db}: ") and needle in lines[0]
    assert not (tmp_path / "missing-folder").exists()


async def test_a_read_only_database_is_named_read_only_not_damaged(tmp_path: Path,
                                                                   monkeypatch):
    """(As root, as on this machine, permissions do not stop a write: the check is what
    ``os.access`` says.)"""
    db = tmp_path / "ro.sqlite3"
    await (await storage.Store.open(db)).close()
    real = os.access
    monkeypatch.setattr(os, "access",
                        lambda p, mode: False if Path(p) in (db, tmp_path) else real(p, mode))
    with pytest.raises(storage.StoreError, match="read-only"):
        await storage.Store.open(db)
    with pytest.raises(storage.StoreError, match="folder .* is read-only"):
        await storage.Store.open(tmp_path / "new.sqlite3")


def test_token_is_redacted_from_log_records():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactToken(TOKEN))
    logger = logging.getLogger("telegram.test")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        logger.debug("Set Bot API URL: %s", f"https://api.telegram.org/bot{TOKEN}")
        logger.info("other token shape 987654321:ABCDEFGHIJKLMNOPQRSTUVWXYZ_abc")
        try:
            raise RuntimeError(f"failed POST https://api.telegram.org/bot{TOKEN}/getMe")
        except RuntimeError:
            logger.exception("boom")
    finally:
        logger.removeHandler(handler)
    out = stream.getvalue()
    assert TOKEN not in out and "secret" not in out
    assert "987654321:ABCDEF" not in out
    assert out.count("[token]") >= 3


IMPORT_CSV = """number,category,names,born,aepuzz_member,resident
5,parejas,Ana; Bea,1980; 2015,yes; no,no; no
6,infantil-b,Carla,2015,no,yes
,adultos,Diego,1970,no,no
"""


def test_import_then_export_entries_and_results(tmp_path: Path):
    env = {"PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_DB": str(tmp_path / "x.sqlite3")}
    src = tmp_path / "entries.csv"
    src.write_text(IMPORT_CSV)
    proc = run(["import", "entries", str(src)], env)
    assert proc.returncode == 0, proc.stderr
    assert "imported 3 entries" in proc.stdout
    proc = run_process(["export", "entries"], env)  # a real process: CSV through a pipe
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert [r["number"] for r in rows] == ["5", "6", "7"]
    assert rows[1]["local"] == "yes" and rows[0]["local"] == "no"
    assert all(len(r["join_code"]) >= 20 for r in rows)
    assert len({r["join_code"] for r in rows}) == 3
    proc = run(["export", "results", "--category", "parejas"], env)
    assert proc.returncode == 0, proc.stderr
    header = proc.stdout.splitlines()[0].split(",")
    for column in ("category", "position", "number", "names", "finished", "time",
                   "escape_time", "tickets_left", "compensation", "penalty", "adjusted_time",
                   "pieces", "local"):
        assert column in header
    results = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert [r["number"] for r in results] == ["5"]
    assert results[0]["tickets_left"] == "11"


@pytest.mark.parametrize(
    "content,needle",
    [
        ("number,category,names,born\n1,nope,Ana,1980\n", "unknown category"),
        ("number,category,names,born\n1,parejas,Ana,1980\n", "2 member(s)"),
        ("number,category,names,born\n1,infantil-a,Ana,2012\n", "not eligible"),
        ("number,category,names,born\n1,adultos,Ana,someday\n", "birth"),
        ("number,category,names,born\n1,adultos,Ana,1980\n1,adultos,Bo,1980\n", "twice"),
        ("category,born\nadultos,1980\n", "names"),
    ],
    ids=["category", "members", "eligibility", "birth", "duplicate", "column"],
)
def test_import_refuses_a_bad_file_and_imports_nothing(tmp_path: Path, content, needle):
    env = {"PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_DB": str(tmp_path / "x.sqlite3")}
    good = tmp_path / "good.csv"
    good.write_text("number,category,names,born\n1,adultos,Zoe,1980\n" + content.split("\n", 1)[1]
                    if content.startswith("number,category,names,born") else content)
    proc = run(["import", "entries", str(good)], env)
    assert proc.returncode == 2
    assert needle in proc.stderr and "nothing was imported" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = run(["export", "entries"], env)
    assert proc.stdout.strip().count("\n") == 0  # header only


def test_a_reader_going_away_ends_the_command_quietly(monkeypatch):
    """`python -m bot export results | head`: no traceback when head stops reading."""
    def reader_gone(args):
        raise BrokenPipeError(32, "Broken pipe")

    redirected: list[tuple[int, int]] = []

    class Stdout(io.StringIO):
        def fileno(self) -> int:
            return 1

    monkeypatch.setattr(cli, "_export", reader_gone)
    monkeypatch.setattr(cli.os, "open", lambda path, flags: 99)
    monkeypatch.setattr(cli.os, "dup2", lambda a, b: redirected.append((a, b)))
    monkeypatch.setattr(cli.sys, "stdout", Stdout())
    assert cli.main(["export", "results"]) == 141
    assert redirected == [(99, 1)]  # the rest of the output goes nowhere, not to a traceback


# -- issue 14: the import checks what the chat's registration checks ---------------------------


def import_file(tmp_path: Path, contest: Path, content: str, *extra: str,
                db: str = "x.sqlite3") -> subprocess.CompletedProcess[str]:
    src = tmp_path / "in.csv"
    src.write_text(content)
    env = {"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(tmp_path / db)}
    return run(["import", "entries", str(src), *extra], env)


def exported(tmp_path: Path, contest: Path, db: str = "x.sqlite3") -> list[dict[str, str]]:
    env = {"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(tmp_path / db)}
    proc = run(["export", "entries"], env)
    assert proc.returncode == 0, proc.stderr
    return list(csv.DictReader(io.StringIO(proc.stdout)))


def test_import_beyond_a_category_s_places_is_refused_unless_forced(tmp_path: Path):
    kids = "category,names,born\n" + "".join(f"infantil-a,Kid {i},2018\n" for i in range(11))
    proc = import_file(tmp_path, CASTRILLO, kids)
    assert proc.returncode == 2
    assert ("infantil-a has 10 places (categories.capacity), 0 already taken: the file's 11 "
            "entries go 1 over (lines 12)") in proc.stderr
    assert "nothing was imported (--force imports these anyway)" in proc.stderr
    assert exported(tmp_path, CASTRILLO) == []
    forced = import_file(tmp_path, CASTRILLO, kids, "--force")
    assert forced.returncode == 0, forced.stderr
    assert "imported 11 entries" in forced.stdout and "forced: infantil-a has 10" in forced.stderr
    # the places are taken now: one more, even alone, goes over
    again = import_file(tmp_path, CASTRILLO, "category,names,born\ninfantil-a,Late,2018\n")
    assert "infantil-a has 10 places (categories.capacity), 11 already taken" in again.stderr


def test_import_dated_before_the_opening_is_refused_unless_forced(tmp_path: Path):
    billom = ROOT / "contests" / "billom-2012.toml"
    early = ("category,names,born,registered_at,paid_at\n"
             "adulte,Anne; Bruno,1980-01-01; 1982-02-02,2011-12-01T10:00:00,2012-02-03\n")
    proc = import_file(tmp_path, billom, early)
    assert proc.returncode == 2
    assert ("in.csv:2: registered_at 2011-12-01 10:00 is before registration opened "
            "(2012-01-23 00:00, registration.opens)") in proc.stderr
    forced = import_file(tmp_path, billom, early, "--force")
    assert forced.returncode == 0 and "forced: " in forced.stderr, forced.stderr


def test_import_dated_after_the_closing_is_refused_and_an_undated_line_is_noted(tmp_path: Path):
    late = ("category,names,born,registered_at\n"
            "adultos,Early,1980,2023-04-10T10:00:00\nadultos,Late,1980,2023-04-22T09:30:00\n")
    proc = import_file(tmp_path, CASTRILLO, late)
    assert proc.returncode == 2
    assert ("in.csv:3: registered_at 2023-04-22 09:30 is after registration closed "
            "(2023-04-22 00:00, registration.closes)") in proc.stderr
    assert "in.csv:2" not in proc.stderr
    undated = import_file(tmp_path, CASTRILLO, "category,names,born\nadultos,Now,1980\n")
    assert undated.returncode == 0, undated.stderr
    assert "note: " in undated.stderr and "no registered_at, imported after registration " \
        "closed (2023-04-22 00:00): registered now" in undated.stderr


def test_import_where_payment_is_required_needs_paid_at_and_round_trips(tmp_path: Path):
    billom = ROOT / "contests" / "billom-2012.toml"
    head = "category,names,born,registered_at"
    unpaid = f"{head}\nadulte,Anne; Bruno,1980-01-01; 1982-02-02,2012-02-01T10:00:00\n"
    proc = import_file(tmp_path, billom, unpaid)
    assert proc.returncode == 2
    assert ("in.csv:2: no paid_at, and a place is held only once paid "
            "(registration.payment_required)") in proc.stderr
    paid = (f"{head},paid_at\nadulte,Anne; Bruno,1980-01-01; 1982-02-02,2012-02-01T10:00:00,"
            "2012-02-03\n")
    proc = import_file(tmp_path, billom, paid)
    assert proc.returncode == 0, proc.stderr
    [row] = exported(tmp_path, billom)
    # midnight in Paris, written on the hall's clock with its offset (the same instant)
    assert row["paid_at"] == "2012-02-03T00:00:00+01:00" and row["status"] == "confirmed"
    # what was exported imports again, unchanged, into another database
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(row))
    writer.writeheader()
    writer.writerow(row)
    again = import_file(tmp_path, billom, out.getvalue(), db="y.sqlite3")
    assert again.returncode == 0, again.stderr
    [copy] = exported(tmp_path, billom, db="y.sqlite3")
    assert {k: copy[k] for k in ("names", "born", "registered_at", "paid_at", "status")} == {
        k: row[k] for k in ("names", "born", "registered_at", "paid_at", "status")}


def test_tables_prints_the_rounds_table_lists(tmp_path):
    contest = ROOT / "contests" / "championship-2027.toml"
    db = tmp_path / "c.sqlite3"
    csv_file = tmp_path / "in.csv"
    csv_file.write_text("number,category,names,born,country,registered_at\n"
                        "1,solo,Ana Uno,1990,ES,2027-04-01T10:00:00\n"
                        "2,solo,Bea Dos,1991,FR,2027-04-01T10:00:00\n", encoding="utf-8")
    env = {"PUZZLEBOT_CONTEST": str(contest), "PUZZLEBOT_DB": str(db)}
    assert run(["import", "entries", str(csv_file)], env=env).returncode == 0
    out = subprocess.run([sys.executable, "-m", "bot", "tables", "--category", "solo"],
                         cwd=ROOT, env={**os.environ, **env}, capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(b"%PDF")
    refused = run(["tables", "--category", "nope"], env=env)
    assert refused.returncode == 2
    assert "no such category: nope (categories: solo, pairs, teams)" in refused.stderr


def test_tables_for_a_contest_played_in_one_round(tmp_path):
    """Castrillo: no rounds; every category's list, its tables through the hall, category
    after category (the contest file's ``seating``)."""
    db = tmp_path / "c.sqlite3"
    csv_file = tmp_path / "in.csv"
    csv_file.write_text("number,category,names,born\n"
                        "9,parejas,Ana Uno; Bea Dos,1980; 1981\n"
                        "4,parejas,Carla Tres; Dani Cuatro,1980; 1981\n"
                        "2,adultos,Eva Cinco,1970\n", encoding="utf-8")
    env = {"PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_DB": str(db)}
    assert run(["import", "entries", str(csv_file)], env=env).returncode == 0
    out = subprocess.run([sys.executable, "-m", "bot", "tables"], cwd=ROOT,
                         env={**os.environ, **env}, capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(out.stdout)).pages]
    # a page per category, in the contest file's order (kids, adults, pairs)
    assert [p.splitlines()[0] for p in pages] == [
        "Infantil A", "Infantil B", "Infantil C", "Adultos individual", "Adultos parejas"]
    assert "sábado 22 de abril" in pages[0] and "10:00" in pages[0]
    assert "No hay inscripciones." in pages[0]
    # adultos: table 1; the pairs after them, by number: #4 at table 2, #9 at table 3
    assert re.search(r"1\s*#2\s*Eva Cinco", pages[3])
    assert re.search(r"2\s*#4\s*Carla Tres / Dani Cuatro", pages[4])
    assert re.search(r"3\s*#9\s*Ana Uno / Bea Dos", pages[4])
    one = subprocess.run([sys.executable, "-m", "bot", "tables", "--category", "parejas"],
                         cwd=ROOT, env={**os.environ, **env}, capture_output=True, timeout=60)
    assert len(pypdf.PdfReader(io.BytesIO(one.stdout)).pages) == 1


def test_exports_for_spreadsheets(tmp_path):
    db = tmp_path / "x.sqlite3"
    csv_file = tmp_path / "in.csv"
    csv_file.write_text("number,category,names,born\n5,parejas,Ana Uno; Bea Dos,1980; 1981\n",
                        encoding="utf-8")
    env = {"PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_DB": str(db)}
    assert run(["import", "entries", str(csv_file), "--force"], env=env).returncode == 0
    # CSV as Spanish and French spreadsheets open it: a BOM, ";" between cells
    excel = run(["export", "entries", "--excel"], env=env)
    assert excel.returncode == 0 and excel.stdout.startswith("\ufeffnumber;category;names;")
    book_file = tmp_path / "results.xlsx"
    out = run(["export", "results", "--xlsx", str(book_file)], env=env)
    assert out.returncode == 0, out.stderr
    book = load_workbook(book_file)
    # the ranking to print, then one sheet per category
    assert book.sheetnames == ["Resultados", "Infantil A", "Infantil B", "Infantil C",
                               "Adultos individual", "Adultos parejas"]
    assert book["Resultados"].page_setup.orientation == "portrait"
    sheet = book["Adultos parejas"]
    assert sheet.page_setup.orientation == "landscape" and sheet.print_title_rows == "$1:$1"
    entries_file = tmp_path / "entries.xlsx"
    assert run(["export", "entries", "--xlsx", str(entries_file)], env=env).returncode == 0
    sheet = load_workbook(entries_file).active
    assert sheet.title == "Inscripciones"
    # a sheet to print: in the contest's language (Spanish), headers in words
    header = [c.value for c in sheet[1]]
    assert header[:5] == ["Número", "Categoría", "Nombres", "Nacimiento", "Local"]
    assert len(header) == len(set(header))
    assert not any("join" in h or "Código" in h for h in header)  # a printed sheet links no phone
    row = {h: c.value for h, c in zip(header, sheet[2], strict=True)}
    assert row["Número"] == 5
    assert row["Categoría"] == "Adultos parejas" and row["Local"] == "no"
    assert row["Estado"] == "confirmada"
    assert row["Importe"] == 20.0, row  # money as a number, not text
    # --lang: another language for the sheet; the CSV keeps its codes and refuses it
    english = tmp_path / "entries-en.xlsx"
    assert run(["export", "entries", "--xlsx", str(english), "--lang", "en"],
               env=env).returncode == 0
    sheet = load_workbook(english).active
    assert [c.value for c in sheet[1]][:3] == ["Number", "Category", "Names"]
    assert sheet["E2"].value == "no" and sheet.title == "Entries"
    refused = run(["export", "entries", "--lang", "fr"], env=env)
    assert refused.returncode == 2 and "--lang is for the spreadsheet" in refused.stderr
    assert refused.stdout == ""
    assert run(["export", "entries", "--xlsx", str(english), "--lang", "ja"],
               env=env).returncode == 2


def test_spreadsheet_cells_are_numbers_where_they_are_numbers():
    assert _typed("time", "1:02:03") == ((3600 + 120 + 3) / 86400, "[h]:mm:ss")
    assert _typed("fee_total", "12.50") == (12.5, "0.00")
    assert _typed("pieces", "457") == (457, None)
    assert _typed("names", "1:02:03") == ("1:02:03", None)  # a name stays text
    assert _typed("pieces", "٤٥٧") == ("٤٥٧", None)  # only plain digits become numbers


def test_import_check_lists_what_the_import_would_meet_and_writes_nothing(tmp_path: Path):
    """Issue 47, item 1: an import can't be taken back; ``--check`` lists every problem and
    note first, and an import says its entries have no phone linked yet (imported teams were
    "invited" and lapsed without anyone reading it)."""
    kids = "category,names,born\n" + "".join(f"infantil-a,Kid {i},2018\n" for i in range(11))
    proc = import_file(tmp_path, CASTRILLO, kids, "--check")
    assert proc.returncode == 2
    assert "error: infantil-a has 10 places" in proc.stderr
    assert "would import 0 entries (the errors above refuse the file); nothing was written" \
        in proc.stdout
    assert exported(tmp_path, CASTRILLO) == []
    ok = import_file(tmp_path, CASTRILLO, "category,names,born\nadultos,Zoe,1980\n", "--check")
    assert ok.returncode == 0, ok.stderr
    assert "would import 1 entries; nothing was written (--check)" in ok.stdout
    assert "note: the entry has no phone linked yet" in ok.stderr
    assert exported(tmp_path, CASTRILLO) == []
    done = import_file(tmp_path, CASTRILLO, "category,names,born\nadultos,Zoe,1980\n")
    assert done.returncode == 0 and "imported 1 entries" in done.stdout
    assert "no phone linked yet" in done.stderr and "join_code" in done.stderr


def test_import_names_every_bad_line_at_once(tmp_path: Path):
    """Issue 48: the import reported one error per run; a file with three bad lines took three
    runs to fix. Every bad line is named in one run, and nothing is imported."""
    bad = ("category,names,born\nadultos,Ana,1980\nnope,Bo,1980\nadultos,Cy,someday\n"
           "adultos,Di,1980\ninfantil-a,Ed,1970\n")
    proc = import_file(tmp_path, CASTRILLO, bad)
    assert proc.returncode == 2
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    assert [e.split(":")[2] for e in errors] == ["3", "4", "6"], proc.stderr
    assert errors[-1].endswith("; nothing was imported")
    assert exported(tmp_path, CASTRILLO) == []
