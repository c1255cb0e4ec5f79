"""Table cards (`python -m bot cards`): pages, names verbatim, QR codes of the join links.

No network: the bot's username comes from PUZZLEBOT_BOT_USERNAME, or from getMe on our fake
Bot API on loopback. The QR codes are checked without a QR decoder: the page is rendered with
pdftoppm (skipped when missing) and every module is compared with the symbol segno makes for
the entry's join link, at the place of the PDF's link annotation.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import math
import os
import re
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import segno

import bot.tools.cards
from bot.cli import build_parser
from bot.features.registration.day import Registrations
from bot.features.registration.rules import Member
from bot.rehearsal.fakeapi import FakeBotAPI
from bot.services.contest_file import load_contest
from bot.services.csvio import import_entries, read_entries
from bot.storage.store import Entry, Store
from bot.tools.cards import (
    INSTRUCTIONS,
    CardsError,
    _name_lines,
    bot_username_from_env,
    card_link,
    cards_from_db,
    cards_pdf,
    find_fonts,
    join_link,
)
from tests.clirun import bot_main
from tests.conftest import BILLOM, CASTRILLO, ROOT

try:
    import pypdf
except ImportError:  # a dev dependency; the checks that need it fall back or are skipped
    pypdf = None

BOT = "castrillo_puzzle_bot"
CASTRILLO_CSV = """number,category,names,born
1,parejas,José Ñúñez; <b>Zoë</b>,1980; 1985
2,parejas,Дмитрий; Ελένη,1975; 1978
3,adultos,François Müller,1970
4,adultos,Łukasz Żółć,1990
5,parejas,Ana; Bea,1980; 2015
7,adultos,Søren Ødegård,1960
"""
BILLOM_CSV = """number,category,names,born
1,adulte,Hélène Dupré; Gaëlle Noël,1970-03-01; 1972-04-02
2,expert,Agnès Bézier; Jérôme Côté,1965-05-03; 1968-06-04
"""
MM = 72 / 25.4  # PDF points per millimetre


async def make_db(path: Path, contest_file: Path, csv_text: str) -> list[Entry]:
    contest = load_contest(contest_file)
    rows = read_entries(contest, io.StringIO(csv_text), "test.csv")
    store = await Store.open(path)
    try:
        await import_entries(store, rows)
        return await store.entries()
    finally:
        await store.close()


def page_count(pdf: bytes) -> int:
    if pypdf is not None:
        return len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


def page_texts(pdf: bytes, tmp_path: Path) -> list[str]:
    if pypdf is not None:
        return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    if shutil.which("pdftotext") is None:
        pytest.skip("neither pypdf nor pdftotext to read the PDF's text")
    src = tmp_path / "text.pdf"
    src.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(src), "-"], capture_output=True,
                         text=True, check=True).stdout
    return out.split("\f")[: page_count(pdf)]


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def links(pdf: bytes) -> list[list[tuple[str, tuple[float, float, float, float]]]]:
    """Per page: the link annotations' URIs and rectangles (x1, y1, x2, y2)."""
    out = []
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        found = []
        for ref in page.get("/Annots") or []:
            a = ref.get_object()
            if a.get("/Subtype") == "/Link":
                x1, y1, x2, y2 = (float(v) for v in a["/Rect"])
                found.append((str(a["/A"]["/URI"]), (x1, y1, x2, y2)))
        out.append(found)
    return out


def fake_entries(n: int, members: int = 2) -> list[Entry]:
    at = datetime(2023, 4, 1, tzinfo=UTC)
    return [Entry(i + 1, "parejas", f"e{i:022d}", False, at,
                  tuple(Member(f"Persona {i}-{m}") for m in range(members)))
            for i in range(n)]


# -- the link and the QR code ----------------------------------------------------------------


def test_join_link_is_the_start_deep_link():
    assert join_link("puzzle_bot", "eAbC_-123") == "https://t.me/puzzle_bot?start=eAbC_-123"
    assert join_link("@puzzle_bot", "e1") == "https://t.me/puzzle_bot?start=e1"


# -- the PDF from the database ---------------------------------------------------------------


@pytest.fixture
async def castrillo_db(tmp_path: Path) -> tuple[Path, list[Entry]]:
    db = tmp_path / "cards.sqlite3"
    return db, await make_db(db, CASTRILLO, CASTRILLO_CSV)


async def test_one_card_per_entry_four_to_a_page_names_verbatim(castrillo, castrillo_db,
                                                                tmp_path):
    db, entries = castrillo_db
    pdf = await cards_from_db(castrillo, db, BOT, None)
    assert pdf.startswith(b"%PDF")
    assert page_count(pdf) == math.ceil(len(entries) / 4) == 2
    texts = page_texts(pdf, tmp_path)
    # in table order, four per page: the hall's tables go category after category (the
    # contest file's order), by number within each, and each card says its table, large
    order = [c.id for c in castrillo.categories]
    entries = sorted(entries, key=lambda e: (order.index(e.category), e.number))
    for i, entry in enumerate(entries):
        lines = lines_of(texts[i // 4])
        assert f"#{entry.number}" in lines and f"Mesa {i + 1}" in lines, (i, lines)
        for name in entry.names:
            assert name in lines, (name, lines)
    assert lines_of(texts[0]).index("Mesa 1") < lines_of(texts[0]).index("Mesa 2")
    every = "\n".join(texts)
    for needle in ("<b>Zoë</b>", "José Ñúñez", "Дмитрий", "Ελένη", "Łukasz Żółć",
                   "Søren Ødegård", "Adultos parejas", "Adultos individual"):
        assert needle in every
    assert every.count(INSTRUCTIONS["es"].split()[0]) == len(entries)
    # the PDF holds each card's link, one per card, on the card's page: the card's own code
    # (a scan asks the entry's phones), never the join code (it links a phone at once)
    if pypdf is not None:
        per_page = links(pdf)
        for i, entry in enumerate(entries):
            assert card_link(BOT, entry.join_code) in [u for u, _ in per_page[i // 4]]
        every_link = " ".join(u for page in per_page for u, _ in page)
        assert not any(e.join_code in every_link for e in entries)


async def test_a_category_and_an_open_store(castrillo, castrillo_db, tmp_path):
    db, entries = castrillo_db
    store = await Store.open(db)
    try:
        pdf = await cards_from_db(castrillo, store, BOT, "adultos")
        assert await store.entry_numbers()  # an open Store is left open
    finally:
        await store.close()
    assert page_count(pdf) == 1
    lines = lines_of(page_texts(pdf, tmp_path)[0])
    assert "François Müller" in lines and "José Ñúñez" not in lines
    assert "#3" in lines and "#7" in lines and "#1" not in lines


async def test_withdrawn_entries_get_no_card(castrillo, castrillo_db, tmp_path):
    db, entries = castrillo_db
    store = await Store.open(db)
    try:
        out = await Registrations(castrillo, store).withdraw(
            1, "organiser", 2, datetime(2023, 4, 10, tzinfo=UTC), None)
        assert out.ok
        pdf = await cards_from_db(castrillo, store, BOT, "parejas")
    finally:
        await store.close()
    lines = lines_of(page_texts(pdf, tmp_path)[0])
    assert "Дмитрий" not in lines and "Ana" in lines


async def test_nothing_to_print_is_an_error(castrillo, tmp_path):
    with pytest.raises(CardsError, match="no entries"):
        cards_pdf(castrillo, [], BOT)
    db = tmp_path / "empty.sqlite3"
    await (await Store.open(db)).close()
    with pytest.raises(CardsError, match="no entries to print in category parejas"):
        await cards_from_db(castrillo, db, BOT, "parejas")


async def test_french_contest_says_it_in_french(billom, tmp_path):
    db = tmp_path / "billom.sqlite3"
    entries = await make_db(db, BILLOM, BILLOM_CSV)
    pdf = await cards_from_db(billom, db, BOT, None)
    text = " ".join(page_texts(pdf, tmp_path)[0].split())
    assert INSTRUCTIONS["fr"] in text and "Expert" in text
    for name in (n for e in entries for n in e.names):
        assert name in text


@pytest.mark.parametrize("n", [1, 3, 4, 5, 8, 9, 13])
def test_pages_are_ceil_n_over_4(castrillo, n):
    assert page_count(cards_pdf(castrillo, fake_entries(n), BOT)) == math.ceil(n / 4)


def test_big_teams_long_names_and_big_numbers_still_make_cards(castrillo, tmp_path):
    at = datetime(2023, 4, 1, tzinfo=UTC)
    entries = [
        Entry(9999, "parejas", "e1", False, at, tuple(Member(f"Miembro {m}") for m in range(8))),
        Entry(12, "parejas", "e2", False, at, (Member("Ñ" * 100), Member("x " * 50))),
        Entry(13, "sin-categoria", "e3", False, at, ()),
    ]
    pdf = cards_pdf(castrillo, entries, BOT)
    assert page_count(pdf) == 1
    text = page_texts(pdf, tmp_path)[0]
    assert "9999" in text and "Miembro 7" in text and "sin-categoria" in text


# -- the QR codes on the page ----------------------------------------------------------------


async def test_qr_codes_on_the_page_are_the_join_links(castrillo, castrillo_db, tmp_path):
    if pypdf is None:
        pytest.skip("pypdf is needed to find the link annotations")
    db, entries = castrillo_db
    pdf = await cards_from_db(castrillo, db, BOT, None)
    per_page = links(pdf)
    assert [len(p) for p in per_page] == [4, 2]
    for found in per_page:
        for _, (x1, y1, x2, y2) in found:
            assert x2 - x1 >= 40 * MM and y2 - y1 >= 40 * MM  # at least 4 cm wide
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed: the pixels are not checked")
    from PIL import Image

    src = tmp_path / "cards.pdf"
    src.write_bytes(pdf)
    dpi = 150
    page_h = float(pypdf.PdfReader(io.BytesIO(pdf)).pages[0].mediabox.height)
    checked = 0
    for number, found in enumerate(per_page, start=1):
        stem = tmp_path / f"page{number}"
        subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(number), "-l",
                        str(number), "-singlefile", str(src), str(stem)], check=True)
        image = Image.open(f"{stem}.png").convert("L")
        for uri, (x1, _y1, x2, y2) in found:
            matrix = segno.make(uri, error="m", micro=False).matrix  # regenerated
            n = len(matrix)
            module = (x2 - x1) / n
            for r in range(-4, n + 4):  # with the 4-module quiet zone all around
                for c in range(-4, n + 4):
                    x = (x1 + (c + 0.5) * module) * dpi / 72
                    y = (page_h - (y2 - (r + 0.5) * module)) * dpi / 72
                    dark = image.getpixel((round(x), round(y))) < 128
                    want = 0 <= r < n and 0 <= c < n and bool(matrix[r][c])
                    assert dark == want, (uri, r, c)
            checked += 1
    assert checked == len(entries)
    assert {u for p in per_page for u, _ in p} == {card_link(BOT, e.join_code) for e in entries}


# -- fonts -----------------------------------------------------------------------------------


def test_a_unicode_font_when_dejavu_is_installed(castrillo):
    fonts = find_fonts()
    system = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not system.is_file() and not fonts.unicode:
        pytest.skip("DejaVu Sans is not installed (apt-get install fonts-dejavu-core)")
    assert fonts.unicode
    assert b"DejaVuSans" in cards_pdf(castrillo, fake_entries(1), BOT)


def test_helvetica_when_no_font_is_found(castrillo, monkeypatch, tmp_path):
    fallback = find_fonts((tmp_path,))
    assert fallback == bot.tools.cards.Fonts("Helvetica", "Helvetica-Bold", False)
    monkeypatch.setattr(bot.tools.cards, "find_fonts", lambda: fallback)
    at = datetime(2023, 4, 1, tzinfo=UTC)
    pdf = cards_pdf(castrillo, [Entry(1, "parejas", "e1", False, at,
                                      (Member("José Ñúñez"), Member("<b>Zoë</b>")))], BOT)
    assert b"Helvetica" in pdf and b"DejaVuSans" not in pdf
    lines = lines_of(page_texts(pdf, tmp_path)[0])
    assert "José Ñúñez" in lines and "<b>Zoë</b>" in lines


# -- the bot's username ----------------------------------------------------------------------


async def test_username_from_the_environment():
    assert await bot_username_from_env({"PUZZLEBOT_BOT_USERNAME": " @my_contest_bot "}) == (
        "my_contest_bot")
    assert await bot_username_from_env({}) is None
    with pytest.raises(CardsError, match="PUZZLEBOT_BOT_USERNAME"):
        await bot_username_from_env({"PUZZLEBOT_BOT_USERNAME": "not a name"})
    with pytest.raises(CardsError, match="TELEGRAM_BOT_TOKEN"):
        await bot_username_from_env({"TELEGRAM_BOT_TOKEN": "nonsense"})


async def test_username_from_get_me():
    api = FakeBotAPI()
    await api.start()
    try:
        env = {"TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_BASE_URL": api.base_url}
        assert await bot_username_from_env(env) == "puzzle_rehearsal_bot"
        assert [c.method for c in api.calls] == ["getMe"]
        wrong = "999999:WRONG-token-value-abcdefghijklmnop"
        with pytest.raises(CardsError) as info:
            await bot_username_from_env({**env, "TELEGRAM_BOT_TOKEN": wrong})
        assert "refused" in str(info.value) and wrong not in str(info.value)
    finally:
        await api.stop()


# -- the command line ------------------------------------------------------------------------


def cards_argv() -> list[str]:
    """``-m bot cards`` once bot/cli.py has the subcommand; ``-m bot.tools.cards`` until then."""
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction) and "cards" in action.choices:
            return ["-m", "bot", "cards"]
    return ["-m", "bot.tools.cards"]


def cli_env(env: dict[str, str]) -> dict[str, str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "PUZZLEBOT_"))}
    full.update(env)
    full["PYTHONIOENCODING"] = "utf-8"
    return full


def run_cards(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    """``python -m bot cards ARGS``, in this process (tests/clirun.py); the real process is
    test_cli_asks_telegram_for_the_username's."""
    return bot_main(["cards", *args], cli_env(env), text=False)


def one_error_line(proc: subprocess.CompletedProcess[bytes]) -> str:
    assert proc.returncode == 2
    assert proc.stdout == b""
    lines = proc.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


def test_cli_writes_the_pdf_to_stdout(castrillo_db, tmp_path):
    db, entries = castrillo_db
    env = {"PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_DB": str(db),
           "PUZZLEBOT_BOT_USERNAME": BOT}
    proc = run_cards([], env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.startswith(b"%PDF") and page_count(proc.stdout) == 2
    proc = run_cards(["--category", "parejas"], env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert page_count(proc.stdout) == 1
    text = page_texts(proc.stdout, tmp_path)[0]
    assert "<b>Zoë</b>" in text and "François Müller" not in text


def test_cli_unknown_category_lists_the_known_ones(castrillo_db):
    db, _ = castrillo_db
    proc = run_cards(["--category", "nope"], {"PUZZLEBOT_CONTEST": str(CASTRILLO),
                                              "PUZZLEBOT_DB": str(db),
                                              "PUZZLEBOT_BOT_USERNAME": BOT})
    line = one_error_line(proc)
    assert "unknown category 'nope'" in line
    assert "infantil-a, infantil-b, infantil-c, adultos, parejas" in line


@pytest.mark.parametrize(
    "env,needle",
    [
        ({}, "PUZZLEBOT_CONTEST"),
        ({"PUZZLEBOT_BOT_USERNAME": BOT, "PUZZLEBOT_DB": "{tmp}/missing.sqlite3"},
         "no such database"),
        ({"PUZZLEBOT_DB": "{db}"}, "PUZZLEBOT_BOT_USERNAME"),
        ({"PUZZLEBOT_DB": "{db}", "PUZZLEBOT_BOT_USERNAME": "x y"}, "PUZZLEBOT_BOT_USERNAME"),
        ({"PUZZLEBOT_DB": "{db}", "TELEGRAM_BOT_TOKEN": "nonsense"}, "TELEGRAM_BOT_TOKEN"),
        ({"PUZZLEBOT_DB": "{empty}", "PUZZLEBOT_BOT_USERNAME": BOT}, "no entries to print"),
    ],
    ids=["no-contest", "no-database", "no-username-no-token", "bad-username", "bad-token",
         "no-entries"],
)
def test_cli_errors_are_one_line_and_exit_2(castrillo_db, tmp_path, env, needle):
    db, _ = castrillo_db
    empty = tmp_path / "empty.sqlite3"

    async def create() -> None:
        await (await Store.open(empty)).close()

    asyncio.run(create())
    subs = {"{db}": str(db), "{tmp}": str(tmp_path), "{empty}": str(empty)}
    full = {k: subs.get(v, v).replace("{tmp}", str(tmp_path)) for k, v in env.items()}
    if env:
        full["PUZZLEBOT_CONTEST"] = str(CASTRILLO)
    line = one_error_line(run_cards([], full))
    assert needle in line and "Traceback" not in line


async def test_cli_asks_telegram_for_the_username(castrillo_db):
    db, entries = castrillo_db
    api = FakeBotAPI()
    await api.start()
    try:
        env = cli_env({"PUZZLEBOT_CONTEST": str(CASTRILLO), "PUZZLEBOT_DB": str(db),
                       "TELEGRAM_BOT_TOKEN": api.token, "TELEGRAM_BASE_URL": api.base_url})
        proc = await asyncio.create_subprocess_exec(
            sys.executable, *cards_argv(), cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 0, err.decode()
        assert out.startswith(b"%PDF")
        if pypdf is not None:
            uris = {u for page in links(out) for u, _ in page}
            assert uris == {card_link("puzzle_rehearsal_bot", e.join_code) for e in entries}
        env["TELEGRAM_BOT_TOKEN"] = "999999:WRONG-token-value-abcdefghijklmnop"
        proc = await asyncio.create_subprocess_exec(
            sys.executable, *cards_argv(), cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 2 and out == b""
        lines = err.decode().strip().splitlines()
        assert len(lines) == 1 and "refused" in lines[0] and "WRONG" not in lines[0]
    finally:
        await api.stop()


async def test_cards_of_a_contest_in_rounds_show_the_first_heat_and_table(tmp_path: Path):
    contest = load_contest(ROOT / "contests" / "championship-2027.toml")
    store = await Store.open(tmp_path / "c.sqlite3")
    try:
        rows = "".join(f"{n},solo,Player {n},1990,ES,2027-04-01T10:00:00\n" for n in range(1, 7))
        await import_entries(store, read_entries(contest, io.StringIO(
            "number,category,names,born,country,registered_at\n" + rows), "x.csv"))
        pdf = await cards_from_db(contest, store, BOT, None)
    finally:
        await store.close()
    text = "\n".join(page_texts(pdf, tmp_path))
    # a draw: 6 entries over 3 heats, 2 each, every one with its heat and table
    assert len(re.findall(r"Individual · Heats [123]\nTable [12]\n", text)) == 6, text
    # in order of heat, then table
    seats = re.findall(r"Heats ([123])\nTable ([12])\n", text)
    assert seats == sorted(seats), seats


async def test_waiting_entries_get_no_card_and_long_names_stay_apart(tmp_path: Path):

    billom = load_contest(BILLOM)  # a place is held once paid: an unpaid entry waits
    store = await Store.open(tmp_path / "b.sqlite3")
    try:
        regs = Registrations(billom, store)
        cat = billom.category("adulte")
        at = datetime(2012, 2, 1, 10, 0, tzinfo=ZoneInfo("Europe/Paris"))
        for who in (("Ana Uno", "Bea Dos"), ("Cai Tres", "Dan Cuatro")):
            members = [Member(n, born=datetime(1980, 1, 1).date()) for n in who]
            assert (await regs.register(1, cat, members, 0, 0, at, None)).ok
        await regs.pay(1, 1, at, at, None)
        pdf = await cards_from_db(billom, store, BOT, None)
    finally:
        await store.close()
    text = "\n".join(page_texts(pdf, tmp_path))
    assert "Ana Uno" in text and "Cai Tres" not in text  # #2 has not paid: it waits
    fonts = find_fonts()
    long = ["María de los Ángeles Fernández-Villaverde Castellanos",
            "José Antonio Rodríguez de la Fuente Zapatero"]
    _, lines = _name_lines(long, fonts.regular, 80 * 2.83, 30 * 2.83)
    assert len(lines) > 2 and any(line.endswith(" /") for line in lines), lines
