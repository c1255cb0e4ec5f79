"""Table cards: ``python -m bot cards [--category C] > cards.pdf``.

One card per entry, four to an A4 page (2x2, with dashed cut lines running through the page
margins): the category name, the entry number in big type, the members' names, a QR code of
the entry's card deep link ``https://t.me/<bot_username>?start=<card code>`` (a phone that scans
it asks to follow the entry: the entry's phones or an organiser allow it; the join code itself,
which links a phone at once, is never printed) and one line of instructions in the contest's
language. The QR code is also a clickable link in the PDF.

Fonts: reportlab ships no TrueType font that covers accents *and* other scripts, so the cards
use DejaVu Sans, looked for in reportlab's own fonts folder and then in the usual system places
(``/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf`` on Debian and Ubuntu: package
fonts-dejavu-core). Without it they fall back to Helvetica, which prints Western European
accents but shows other scripts (Cyrillic, Greek, ...) as boxes. DejaVu Sans has no Chinese,
Japanese or Korean glyphs either.

Only entries holding a place get a card: withdrawn, left out, lapsed, unpaid and waiting ones
do not.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import math
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import segno
from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.lib.units import mm  # type: ignore[import-untyped]
from reportlab.lib.utils import simpleSplit  # type: ignore[import-untyped]
from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]
from telegram import Bot
from telegram.error import InvalidToken, TelegramError

from bot.domain.contest import Contest
from bot.domain.places import Status
from bot.domain.rounds import Heat, table_number
from bot.features.following.rules import card_code
from bot.features.registration.day import Registrations
from bot.features.tables.sheets import hall_seats
from bot.services.contest_day import ContestDay
from bot.services.contest_file import ContestFileError, load_contest
from bot.services.fonts import Fonts, find_fonts
from bot.storage.store import Entry, Store, StoreError
from bot.support import wallclock
from bot.support.config import BOT_TOKEN, ConfigError, base_url, environment, load_settings
from bot.support.i18n import tr
from bot.texts.rounds import heat_name

USERNAME_ENV = "PUZZLEBOT_BOT_USERNAME"
INSTRUCTIONS = {
    "es": "Escanea el código para seguir tu inscripción en Telegram",
    "fr": "Scannez le code pour suivre votre équipe sur Telegram",
    "en": "Scan the code to follow your entry on Telegram",
    "de": "Scanne den Code, um deiner Anmeldung auf Telegram zu folgen",
    "it": "Scansiona il codice per seguire la tua iscrizione su Telegram",
    "pt": "Lê o código para acompanhares a tua inscrição no Telegram",
    "nl": "Scan de code om je inschrijving op Telegram te volgen",
}

PAGE_W, PAGE_H = A4
MARGIN = 8 * mm  # page margin: most printers can't print to the edge
CARD_W = (PAGE_W - 2 * MARGIN) / 2  # about 97 x 140 mm
CARD_H = (PAGE_H - 2 * MARGIN) / 2
PAD = 7 * mm  # inside each card, so a slightly crooked cut never touches the print
QR_WIDTH = 45 * mm  # the symbol itself; at least 4 cm so a phone reads it from a chair
QR_QUIET = 4  # modules of white around the symbol, as the QR standard asks
CARDS_PER_PAGE = 4

_USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{3,31}")


class CardsError(Exception):
    """Cards can't be made: one clear line for the person at the command line."""


# -- links and QR codes ----------------------------------------------------------------------


def join_link(bot_username: str, join_code: str) -> str:
    """The deep link that links a phone to an entry (what /start receives)."""
    return f"https://t.me/{bot_username.strip().lstrip('@')}?start={join_code}"


def card_link(bot_username: str, join_code: str) -> str:
    """The deep link a table card's QR code carries: not the join code (anyone at the table
    can scan it) but the card's own code, with which a phone asks the entry's phones (or the
    organisers) to follow it (bot/features/following)."""
    return join_link(bot_username, card_code(join_code))


def qr_code(link: str) -> segno.QRCode:
    """A regular QR code (never a Micro QR), medium error correction or better."""
    return segno.make(link, error="m", micro=False)


def _fit(text: str, font: str, size: float, width: float, smallest: float) -> float:
    """The largest size from ``size`` down to ``smallest`` at which ``text`` fits ``width``."""
    w: float = pdfmetrics.stringWidth(text, font, size)
    if w <= width:
        return size
    return max(smallest, size * width / w)


def _clip(text: str, font: str, size: float, width: float) -> str:
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def _wrap(paragraphs: Sequence[str], font: str, width: float, height: float
          ) -> tuple[float, list[str]]:
    """The paragraphs wrapped to ``width``, as large as fits ``height`` (22 pt down to 8)."""
    size = 22.0
    while True:
        lines: list[str] = []
        for text in paragraphs:
            lines.extend(simpleSplit(text, font, size, width) or [""])
        if len(lines) * size * 1.2 <= height or size <= 8:
            break
        size -= 0.5
    fitting = max(1, int(height // (size * 1.2)))
    if len(lines) > fitting:
        lines = lines[:fitting]
        lines[-1] = _clip(lines[-1] + "…", font, size, width)
    return size, [_clip(line, font, size, width) for line in lines]


def _name_lines(names: Sequence[str], font: str, width: float, height: float
                ) -> tuple[float, list[str]]:
    """One name a line; a big team's names run on, comma-separated, when that reads larger.
    When a name takes more than one line, each name but the last ends with " /", so two long
    names never read as one."""
    size, lines = _wrap(names, font, width, height)
    if len(names) > 1 and len(lines) > len(names):
        size, lines = _wrap([f"{n} /" for n in names[:-1]] + [names[-1]], font, width, height)
    if len(names) > 1:
        joined_size, joined = _wrap([", ".join(names)], font, width, height)
        if joined_size > size * 1.2:
            return joined_size, joined
    return size, lines


# -- drawing ---------------------------------------------------------------------------------


def card_origin(slot: int) -> tuple[float, float]:
    """Bottom-left corner of card ``slot`` (0 top left, 1 top right, 2 and 3 below)."""
    col, row = slot % 2, slot // 2
    return MARGIN + col * CARD_W, PAGE_H - MARGIN - (row + 1) * CARD_H


def _cut_lines(c: Canvas) -> None:
    c.saveState()
    c.setStrokeGray(0.6)
    c.setLineWidth(0.5)
    c.setDash(4, 3)
    for i in range(3):  # through the margins too, so a guillotine can be lined up
        x = MARGIN + i * CARD_W
        y = MARGIN + i * CARD_H
        c.line(x, 0, x, PAGE_H)
        c.line(0, y, PAGE_W, y)
    c.restoreState()


def _draw_qr(c: Canvas, link: str, x: float, y: float) -> None:
    """The symbol as one vector path of black runs, ``QR_WIDTH`` wide, bottom-left at x, y."""
    matrix = qr_code(link).matrix
    n = len(matrix)
    module = QR_WIDTH / n
    path = c.beginPath()
    for r, row in enumerate(matrix):
        top = y + QR_WIDTH - (r + 1) * module
        col = 0
        while col < n:
            if not row[col]:
                col += 1
                continue
            start = col
            while col < n and row[col]:
                col += 1
            path.rect(x + start * module, top, (col - start) * module, module)
    c.saveState()
    c.setFillGray(0)
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()
    c.linkURL(link, (x, y, x + QR_WIDTH, y + QR_WIDTH), relative=0, thickness=0)


@dataclass(frozen=True)
class Seat:
    """Where an entry sits: its heat's name ("Heats 2", empty when played in one round) and
    its table."""

    heat: str
    table: int


TABLE_SIZE = 40  # points: the table number reads from across the hall


def _draw_card(c: Canvas, slot: int, contest: Contest, entry: Entry, bot_username: str,
               fonts: Fonts, seat: Seat | None = None) -> None:
    x0, y0 = card_origin(slot)
    inner = CARD_W - 2 * PAD
    mid = x0 + CARD_W / 2
    top = y0 + CARD_H - PAD

    category = contest.category(entry.category)
    category_name = category.name if category is not None else entry.category
    if seat is not None and seat.heat:  # a contest in rounds: the first round's heat
        category_name = f"{category_name} · {seat.heat}"
    size = _fit(category_name, fonts.regular, 15, inner, 9)
    baseline = top - size * 0.8
    c.setFillGray(0.25)
    c.setFont(fonts.regular, size)
    c.drawCentredString(mid, baseline, _clip(category_name, fonts.regular, size, inner))
    if seat is not None:  # the table, large: volunteers put each card on its own
        table = tr(contest.language, "Table {table}", table=seat.table)
        size = _fit(table, fonts.bold, TABLE_SIZE, inner, 18)
        baseline = baseline - 3 * mm - size * 0.73
        c.setFillGray(0)
        c.setFont(fonts.bold, size)
        c.drawCentredString(mid, baseline, table)

    number = f"#{entry.number}"  # "#" as everywhere else: not to be taken for the table
    size = _fit(number, fonts.bold, 76, inner, 24)
    baseline = baseline - 5 * mm - size * 0.73
    c.setFillGray(0)
    c.setFont(fonts.bold, size)
    c.drawCentredString(mid, baseline, number)
    names_top = baseline - 5 * mm

    text = INSTRUCTIONS.get(contest.language, INSTRUCTIONS["en"])
    size = 12.0
    lines = simpleSplit(text, fonts.regular, size, inner)
    c.setFillGray(0.2)
    c.setFont(fonts.regular, size)
    y = y0 + PAD + (len(lines) - 1) * size * 1.25
    for line in lines:
        c.drawCentredString(mid, y, line)
        y -= size * 1.25
    instructions_top = y0 + PAD + len(lines) * size * 1.25

    link = card_link(bot_username, entry.join_code)
    quiet = QR_QUIET * QR_WIDTH / len(qr_code(link).matrix)
    qr_y = instructions_top + quiet - 0.5 * size  # text sits below its line's top
    _draw_qr(c, link, mid - QR_WIDTH / 2, qr_y)

    box = names_top - (qr_y + QR_WIDTH + quiet)
    size, name_lines = _name_lines(entry.names, fonts.regular, inner, box)
    c.setFillGray(0)
    c.setFont(fonts.regular, size)
    leading = size * 1.2
    y = names_top - (box - len(name_lines) * leading) / 2 - size * 0.85
    for line in name_lines:
        c.drawCentredString(mid, y, line)
        y -= leading


def cards_pdf(contest: Contest, entries: list[Entry], bot_username: str,
              seats: Mapping[int, Seat] | None = None) -> bytes:
    """The cards as PDF bytes, in the order given: ceil(len(entries) / 4) A4 pages."""
    if not entries:
        raise CardsError("no entries to print")
    fonts = find_fonts()
    out = io.BytesIO()
    c = Canvas(out, pagesize=A4, invariant=True, pageCompression=1)
    c.setTitle(f"{contest.name}: table cards")
    c.setCreator("puzzlebot")
    pages = math.ceil(len(entries) / CARDS_PER_PAGE)
    for page in range(pages):
        _cut_lines(c)
        chunk = entries[page * CARDS_PER_PAGE:(page + 1) * CARDS_PER_PAGE]
        for slot, entry in enumerate(chunk):
            _draw_card(c, slot, contest, entry, bot_username, fonts,
                       (seats or {}).get(entry.number))
        c.showPage()
    c.save()
    return out.getvalue()


# -- from the database and the command line --------------------------------------------------


async def cards_from_db(contest: Contest, store: Store | str | Path, bot_username: str,
                        category: str | None) -> bytes:
    """Cards for the entries in the database (one category, or all), in table order: the
    hall's tables first (categories played in one round), then each category in rounds by
    heat and table of its first round.

    ``store`` is an open Store (left open) or a database path (opened and closed here).
    Withdrawn and left-out entries are skipped. CardsError when nothing is left to print.
    """

    if isinstance(store, Store):
        db = store
    else:
        db = await Store.open(store)
    try:
        entries = await db.entries(category)
        places = await Registrations(contest, db).places(wallclock.CLOCK.now())
        seats = await first_seats(contest, db)
    finally:
        if db is not store:
            await db.close()
    # only entries holding a place: waiting (or unpaid) ones get theirs once they have one
    entries = [e for e in entries if e.number in places
               and places[e.number].status is Status.CONFIRMED]
    if not entries:
        where = f" in category {category}" if category is not None else ""
        raise CardsError(f"no entries to print{where}")
    order = {number: i for i, number in enumerate(seats)}
    entries.sort(key=lambda e: (order.get(e.number, len(order)), e.number))
    return cards_pdf(contest, entries, bot_username, seats)


async def first_seats(contest: Contest, store: Store) -> dict[int, Seat]:
    """Each confirmed entry's seat as it stands now, in table order: the hall's tables of the
    categories played in one round, then each category in rounds by heat and table of its
    first round (the contest's language)."""
    day = ContestDay(contest, store, frozenset())
    lang = contest.language
    hall = await hall_seats(day)
    seats = {n: Seat("", t) for n, t in sorted(hall.items(), key=lambda item: item[1])}
    for category in contest.categories:
        if not category.rounds:
            continue
        for h, numbers in enumerate((await day.lineups(category))[0], 1):
            heat = Heat(category, 0, h)
            for i, n in enumerate(numbers):
                seats[n] = Seat(heat_name(lang, contest, heat),
                                table_number(i, heat.round.per_table))
    return seats


async def bot_username_from_env(env: Mapping[str, str] | None = None) -> str | None:
    """PUZZLEBOT_BOT_USERNAME if set; else ask Telegram (getMe) with TELEGRAM_BOT_TOKEN, at
    TELEGRAM_BASE_URL if set (from the environment or the settings file); None if neither is
    set. CardsError if getMe fails."""
    env = environment() if env is None else env
    given = env.get(USERNAME_ENV, "").strip().lstrip("@")
    if given:
        if not _USERNAME.fullmatch(given):
            raise CardsError(f"{USERNAME_ENV} does not look like a bot username "
                             f"(5-32 letters, digits or _): {given!r}")
        return given
    token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token:
        return None
    if not BOT_TOKEN.fullmatch(token):
        raise CardsError("TELEGRAM_BOT_TOKEN does not look like a bot token (digits:letters)")

    url = env.get("TELEGRAM_BASE_URL", "").strip() or None
    try:
        async with Bot(token, base_url=base_url(url)) as bot:
            username = bot.username  # initialize() called getMe
    except InvalidToken:
        raise CardsError("Telegram refused TELEGRAM_BOT_TOKEN (getMe); or set "
                         f"{USERNAME_ENV}") from None
    except TelegramError as exc:
        problem = str(exc).replace(token, "[token]")
        raise CardsError(f"could not ask Telegram for the bot's username ({problem}); "
                         f"set {USERNAME_ENV} instead") from None
    return username


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def cards_command(args: argparse.Namespace) -> int:
    """``python -m bot cards [--category C]``: the PDF on standard output."""

    try:
        config = load_settings(need_token=False)
        contest = load_contest(config.contest_file)
    except (ConfigError, ContestFileError) as exc:
        return _fail(str(exc))
    category: str | None = args.category
    if category is not None and contest.category(category) is None:
        return _fail(f"unknown category {category!r} "
                     f"(known: {', '.join(c.id for c in contest.categories)})")
    if not Path(config.db_path).is_file():
        return _fail(f"{config.db_path}: no such database (set PUZZLEBOT_DB)")
    if sys.stdout.isatty():
        return _fail("the PDF goes to standard output: redirect it, e.g. > cards.pdf")

    async def make() -> bytes:
        username = await bot_username_from_env()
        if username is None:
            raise CardsError(f"the links need the bot's username: set {USERNAME_ENV} "
                             "(e.g. my_contest_bot) or TELEGRAM_BOT_TOKEN to ask Telegram")
        return await cards_from_db(contest, config.db_path, username, category)

    try:
        pdf = asyncio.run(make())
    except CardsError as exc:
        return _fail(str(exc))
    except StoreError as exc:
        return _fail(f"{config.db_path}: {exc}")
    sys.stdout.buffer.write(pdf)
    sys.stdout.buffer.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.tools.cards``: the same as ``python -m bot cards``."""
    parser = argparse.ArgumentParser(prog="python -m bot cards",
                                     description="table cards with QR codes, as PDF on stdout")
    parser.add_argument("--category", default=None, help="only this category's entries")
    return cards_command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
