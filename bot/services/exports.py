"""The exports: the entries and results tables (header first) that the CSV files and the
printable workbooks (XLSX, openpyxl) are made of. Their columns are a contract."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TextIO
from zoneinfo import ZoneInfo

from bot.domain.clock import format_duration
from bot.domain.contest import Category, Contest, Question, SeparateRanking, localized
from bot.domain.places import Status
from bot.domain.ranking import Row
from bot.domain.rounds import Heat
from bot.features.escape.rules import EscapeResult
from bot.features.registration.day import Registrations
from bot.features.registration.rules import Member
from bot.features.results.texts import outcome_text
from bot.services.contest_day import ContestDay
from bot.services.csvio import inert, write_csv
from bot.services.rounds import round_ranking, separate_rankings
from bot.storage.store import Entry, Store
from bot.support.i18n import ntr, tr
from bot.support.wallclock import CLOCK

ENTRY_COLUMNS = ["number", "category", "names", "born", "local", "join_code", "registered_at"]
STATUS_COLUMNS = ["status", "waiting_position", "fee_total", "discount", "meal", "meal_adults",
                  "meal_children", "paid_at", "refund_due", "source"]
# after the status columns, for contests with [[registration.refunds]]: the amount to give back
REFUND_COLUMN = "refund_amount"
# last, once a refund was recorded (bot/features/refunds): the amount given back so far
REFUNDED_COLUMN = "refunded"
RESULT_COLUMNS = [
    "category", "position", "number", "names", "finished", "time", "escape_time",
    "tickets_left", "compensation", "penalty", "adjusted_time", "pieces", "local", "prize",
    "extra_prizes", "time_penalties", "penalty_detail", "round", "splits", "outcome",
    "outcome_reason", "other_rankings",
]


def answer_cell(q: Question, entry: Entry) -> str:
    """A question's cell for an entry in the exports (what the import reads back): per member
    ``;``-separated (yes/no, or the answer, empty where none), one answer for a per-entry
    question."""
    if q.per_entry:
        return entry.answer(q.id) or ""
    if q.yes_no:
        return "; ".join("yes" if q.id in m.answers else "no" for m in entry.members)
    return "; ".join(m.value(q.id) or "" for m in entry.members)


def _born_text(m: Member) -> str:
    if m.born is not None:
        return m.born.isoformat()
    return str(m.born_year) if m.born_year is not None else ""


async def entry_rows(contest: Contest, store: Store,
                     registrations: Registrations | None = None,
                     at: datetime | None = None) -> list[list[object]]:
    """The entries table (header first), for CSV and XLSX alike."""
    question_ids = [q.id for q in contest.questions]
    regs = registrations or Registrations(contest, store)
    tiers = bool(contest.registration.refunds)
    header: list[object] = [*ENTRY_COLUMNS, *question_ids, *STATUS_COLUMNS]
    statuses = await regs.statuses(at or CLOCK.now())
    given = any(s.refunded for s in statuses)
    rows: list[list[object]] = [header + ([REFUND_COLUMN] if tiers else [])
                                + ([REFUNDED_COLUMN] if given else [])]
    for s in statuses:
        e = s.entry
        due = s.place.refundable and (
            s.place.status in (Status.WITHDRAWN, Status.LEFT_OUT, Status.DECLINED,
                               Status.UNMATCHED)
            or (s.place.status is Status.LAPSED and s.paid_at is not None))  # paid too late
        rows.append(
            [e.number, e.category, "; ".join(e.names),
             "; ".join(_born_text(m) for m in e.members), "yes" if e.local else "no",
             e.join_code, local_moment(contest, e.registered_at)]
            + [answer_cell(q, e) for q in contest.questions]
            + [s.place.status.value, s.place.waiting_position or "",
               _euros(s.fee.total), _euros(s.fee.discount), _euros(s.fee.meal),
               e.meal_adults, e.meal_children,
               local_moment(contest, s.paid_at) if s.paid_at else "", "yes" if due else "no",
               e.source]
            + ([_euros(s.refund)] if tiers else [])
            + ([_euros(s.refunded)] if given else [])
        )
    return rows


def local_moment(contest: Contest, moment: datetime) -> str:
    """A moment as the exports write it: ISO 8601 in the contest's time zone, with its offset
    (``2023-03-09T23:30:37+01:00``: the hall's clock, and the same instant for the import)."""
    return moment.astimezone(ZoneInfo(contest.timezone)).isoformat()


async def export_entries(contest: Contest, store: Store, out: TextIO,
                         registrations: Registrations | None = None,
                         at: datetime | None = None) -> None:
    write_csv(out, await entry_rows(contest, store, registrations, at))


async def results_by_category(contest: Contest, day: ContestDay, at: datetime | None = None,
                              category: str | None = None) -> dict[str, list[list[object]]]:
    """The results, one table per category (its name), for a workbook with a sheet each."""
    return {c.name: await result_rows(contest, day, c.id, at) for c in contest.categories
            if category is None or c.id == category}


def _euros(cents: int) -> str:
    return f"{cents / 100:.2f}"


async def result_rows(contest: Contest, day: ContestDay, category: str | None = None,
                      at: datetime | None = None) -> list[list[object]]:
    """The results table (header first), per category in ranking order."""
    # after the fixed columns, one per choice or text question (a country, a club)
    asked = [q for q in contest.questions if not q.yes_no]
    rows: list[list[object]] = [[*RESULT_COLUMNS, *(q.id for q in asked)]]
    entries = {e.number: e for e in await day.store.entries()} if asked else {}
    for cat, ranking, shown in await _rankings(contest, day, category, at):
        for r in ranking:
            entry = entries.get(r.competitor.number)
            rows.append([*result_cells(shown, cat, r),
                         *(answer_cell(q, entry) if entry is not None else "" for q in asked)])
    return rows


async def _rankings(contest: Contest, day: ContestDay, category: str | None,
                    at: datetime | None) -> list[tuple[Category, list[Row], ResultShown]]:
    """The rankings a results table shows: every category's (or one's), a heat's, or a round's
    over all its heats; each with what its rows say of it."""
    heat = day.heats.get(category or "")
    whole = day.rounds.get(category or "")  # a round of several heats, over all of them
    if whole is not None:
        heat = Heat(whole[0], whole[1], 1)
    cats = [heat.play] if heat is not None else [
        c for c in contest.categories if category is None or c.id == category]
    out = []
    for cat in cats:
        ranking = (await round_ranking(day, *whole))[1] if whole is not None else \
            await day.ranking(cat, at)
        separate = tuple(await separate_rankings(day, cat, ranking)) if heat is None else ()
        shown = ResultShown(
            category if whole is not None and category is not None else cat.id,
            heat.round.id if heat is not None else "",
            {x.id: x.name for x in cat.extra_prizes},
            _other_rankings(separate), separate)
        out.append((cat, ranking, shown))
    return out


@dataclass(frozen=True)
class ResultShown:
    """What a results table says of every row of one category (or heat, or round)."""

    category: str  # the category's id, or the heat's or round's asked for
    round: str  # the heat's round, for a row that names none
    extras: dict[str, str]  # the special prizes' names by id
    others: dict[int, list[str]]  # by entry: its places in the separate rankings
    # the category's separate rankings, each with its rows (placed among themselves)
    separate: tuple[tuple[SeparateRanking, list[Row]], ...] = ()


def _other_rankings(separate: Iterable[tuple[SeparateRanking, list[Row]]]
                    ) -> dict[int, list[str]]:
    """Each entry's places in the category's separate rankings: "u18 2 (Best young puzzler)"."""
    others: dict[int, list[str]] = {}
    for sr, sub in separate:
        for r in sub:
            if r.position is not None:
                others.setdefault(r.number, []).append(
                    f"{sr.id} {r.position}" + (f" ({r.prize})" if r.prize else ""))
    return others


def result_cells(shown: ResultShown, cat: Category, r: Row) -> list[object]:
    """One row of the results table, the fixed columns (``RESULT_COLUMNS``)."""
    c = r.competitor
    return [
        shown.category,
        r.position if r.position is not None else "",
        c.number,
        "; ".join(c.names),
        "yes" if r.finished else "no",
        format_duration(c.finish) if c.finish is not None else "",
        *_escape_cells(c.escape),
        format_duration(r.time) if r.time is not None else "",
        _pieces(cat, r),
        "yes" if c.local else "no",
        r.prize or "",
        "; ".join(shown.extras.get(x, x) for x in r.extra_prizes),
        format_duration(c.time_penalty) if c.time_penalty else "",
        "; ".join(f"{kind} {count}" for kind, count in c.penalties),
        r.round or shown.round,
        "; ".join(format_duration(t) for t in c.splits),
        c.outcome or "",
        c.outcome_reason,
        "; ".join(shown.others.get(c.number, [])),
    ]


def _escape_cells(esc: EscapeResult | None) -> list[object]:
    """escape_time, tickets_left, compensation, penalty: empty without an escape stage."""
    if esc is None:
        return ["", "", "", ""]
    return [format_duration(esc.escape_time), esc.tickets_left,
            format_duration(esc.compensation), format_duration(esc.penalty)]


def _pieces(cat: Category, r: Row) -> object:
    """The pieces column: pushed past the limit by its penalties, a finish is ranked with every
    piece placed; otherwise the count it is ranked by, if any (a joker kept: its bonus in)."""
    c = r.competitor
    if c.finish is not None and not r.finished:
        return {x.id: x.pieces for x in cat.rounds}.get(r.round or "", cat.pieces)
    return c.counted if c.counted is not None else ""  # with a joker's bonus, as ranked


async def export_results(contest: Contest, day: ContestDay, out: TextIO,
                         category: str | None = None, at: datetime | None = None) -> None:
    write_csv(out, await result_rows(contest, day, category, at))


# columns written as numbers in spreadsheets (a duration as a time, money with two decimals)
DURATION_COLUMNS = frozenset({"time", "escape_time", "compensation", "penalty", "adjusted_time",
                              "time_penalties", "result"})
MONEY_COLUMNS = frozenset({"fee_total", "discount", "meal", REFUND_COLUMN, REFUNDED_COLUMN})
WHOLE_COLUMNS = frozenset({"position", "number", "pieces", "tickets_left", "waiting_position",
                           "meal_adults", "meal_children"})
PRIVATE_COLUMNS = frozenset({"join_code"})  # a printed sheet must not let anyone link a phone
_DURATION_CELL = re.compile(r"\A(\d+):([0-5]\d):([0-5]\d)\Z")
_MONEY_CELL = re.compile(r"\A\d+\.\d\d\Z")


DATE_COLUMNS = frozenset({"registered_at", "paid_at"})
# a moment's cell as each language writes dates (the contest's local time, to the minute)
DATE_FORMATS = {"es": "dd/mm/yyyy hh:mm", "fr": "dd/mm/yyyy hh:mm", "en": "yyyy-mm-dd hh:mm",
                "de": "dd.mm.yyyy hh:mm", "it": "dd/mm/yyyy hh:mm", "pt": "dd/mm/yyyy hh:mm",
                "nl": "dd-mm-yyyy hh:mm"}


def _typed(header: str, value: object) -> tuple[object, str | None]:
    """A cell as a spreadsheet should hold it: (value, number format or None)."""
    if isinstance(value, datetime):
        return value, DATE_FORMATS["en"]
    if isinstance(value, str) and header in DURATION_COLUMNS:
        m = _DURATION_CELL.match(value)
        if m:
            h, mi, se = (int(x) for x in m.groups())
            return (h * 3600 + mi * 60 + se) / 86400, "[h]:mm:ss"
    if isinstance(value, str) and header in MONEY_COLUMNS and _MONEY_CELL.match(value):
        return float(value), "0.00"
    if isinstance(value, str) and header in WHOLE_COLUMNS and value.isascii() \
            and value.isdigit() and len(value) <= 9:
        return int(value), None
    return value, None


def column_titles(lang: str) -> dict[str, str]:
    """The printable sheet's headers (XLSX), in words, by column (the CSV keeps the names)."""
    return {
        "number": tr(lang, "Number"), "category": tr(lang, "Category"),
        "names": tr(lang, "Names"), "born": tr(lang, "Born"), "local": tr(lang, "Local"),
        "registered_at": tr(lang, "Registered at"), "status": tr(lang, "Status"),
        "waiting_position": tr(lang, "Place on the waiting list"),
        "fee_total": tr(lang, "Amount due"), "discount": tr(lang, "Discount"),
        "meal": tr(lang, "Meals"), "meal_adults": tr(lang, "Adult meals"),
        "meal_children": tr(lang, "Children's meals"), "paid_at": tr(lang, "Paid on"),
        "refund_due": tr(lang, "Refund due"), "source": tr(lang, "Registered through"),
        REFUND_COLUMN: tr(lang, "Amount to refund"), REFUNDED_COLUMN: tr(lang, "Given back"),
        "position": tr(lang, "Position"),
        "finished": tr(lang, "Finished"), "time": tr(lang, "Finish time"),
        "escape_time": tr(lang, "Escape time"), "tickets_left": tr(lang, "Tickets left"),
        "compensation": tr(lang, "Time for unused tickets"),
        "penalty": tr(lang, "Time for bought tickets"),
        "adjusted_time": tr(lang, "Ranking time"), "pieces": tr(lang, "Pieces"),
        "prize": tr(lang, "Prize"), "extra_prizes": tr(lang, "Other prizes"),
        "time_penalties": tr(lang, "Time penalties"),
        "penalty_detail": tr(lang, "Penalties"), "round": tr(lang, "Round"),
        "splits": tr(lang, "Intermediate times"), "outcome": tr(lang, "Did not compete"),
        "outcome_reason": tr(lang, "Reason"), "other_rankings": tr(lang, "Other rankings"),
        "result": tr(lang, "Result"),
    }


def status_word(lang: str, status: str) -> str:
    """An entry's status (``Status``) as the printable sheet shows it."""
    words = {
        Status.CONFIRMED.value: tr(lang, "confirmed"),
        Status.PENDING_PAYMENT.value: tr(lang, "pending payment"),
        Status.WAITING.value: tr(lang, "on the waiting list"),
        Status.LEFT_OUT.value: tr(lang, "left out"),
        Status.WITHDRAWN.value: tr(lang, "withdrawn"),
        Status.LAPSED.value: tr(lang, "lapsed"),
        Status.DECLINED.value: tr(lang, "place offered, not accepted"),
        Status.SEEKING.value: tr(lang, "looking for a partner"),
        Status.UNMATCHED.value: tr(lang, "no partner found"),
    }
    return words.get(status, status)


YES_NO_COLUMNS = frozenset({"local", "finished", "refund_due"})
_MEMBERS = re.compile(r"\s*;\s*")  # "yes; no": one answer per member


class Printable:
    """The cells of a printable sheet in one language (``lang``, by default the contest's):
    headers in words, yes/no in the language, categories, choices and statuses by their
    names. The CSV files keep the codes (their columns are a contract)."""

    def __init__(self, contest: Contest, lang: str | None = None) -> None:
        self.contest = contest
        self.lang = lang or contest.language
        self.titles = column_titles(self.lang)
        self.questions = {q.id: q for q in contest.questions}

    def title(self, column: str) -> str:
        q = self.questions.get(column)
        if q is not None and column not in self.titles:  # its short name, else the question
            return q.label_in(self.lang) if q.label else q.asked(self.lang)
        return self.titles.get(column, column)

    def cell(self, column: str, value: object) -> object:
        if not isinstance(value, str) or not value:
            return value
        q = self.questions.get(column)
        if q is not None and column not in self.titles:
            if not q.yes_no and not q.choices:
                return value  # a text, as typed
            return "; ".join(self._answer(q, part) for part in _MEMBERS.split(value))
        if column in YES_NO_COLUMNS:
            return self._yes_no(value)
        if column == "category":
            category = self.contest.category(value)
            return category.name if category is not None else value  # a round: its id
        if column == "status":
            return status_word(self.lang, value)
        if column == "outcome":
            return outcome_text(self.lang, value)
        if column in DATE_COLUMNS:
            try:
                moment = datetime.fromisoformat(value)
            except ValueError:
                return value
            # a date cell on the hall's clock (spreadsheets hold no time zones)
            return moment.astimezone(ZoneInfo(self.contest.timezone)).replace(tzinfo=None)
        return value

    @property
    def date_format(self) -> str:
        return DATE_FORMATS.get(self.lang, DATE_FORMATS["en"])

    def _yes_no(self, value: str) -> str:
        return {"yes": tr(self.lang, "yes"), "no": tr(self.lang, "no")}.get(value, value)

    def _answer(self, q: Question, value: str) -> str:
        if q.yes_no:
            return self._yes_no(value)
        choice = q.choice(value)
        return choice.shown(self.lang) if choice is not None else value


# the sheet to print (``printed_ranking``): its columns, and each one's width in characters
# (A4 portrait at 100 %, names wrapped on a second line rather than widening the page)
PRINTED_COLUMNS = {"category": 14, "position": 6, "number": 6, "names": 38, "result": 12,
                   "prize": 16}
A4_PORTRAIT_WIDTH = 8.27  # inches
PRINT_MARGIN = 0.5  # inches, left and right


async def printed_ranking(contest: Contest, day: ContestDay, lang: str,
                          at: datetime | None = None) -> list[list[object]]:
    """The results to pin on the wall (header first): every category in ranking order, a row
    per entry with its place, number, names, result (its time; the pieces placed; or why it
    has none) and prize, in ``lang``; after a category, each of its separate rankings, its
    rows titled "Open — Under 18" with their own places and prizes."""
    rows: list[list[object]] = [list(PRINTED_COLUMNS)]
    for cat, ranking, shown in await _rankings(contest, day, None, at):
        rows.extend(_printed_rows(lang, cat, cat.id, ranking, shown))
        for sr, sub in shown.separate:  # its separate rankings after it, each by its name
            title = f"{cat.name} — {localized(sr.name, lang, contest.language) or sr.id}"
            rows.extend(_printed_rows(lang, cat, title, sub, shown))
    return rows


def _printed_rows(lang: str, cat: Category, title: str, ranking: list[Row],
                  shown: ResultShown) -> list[list[object]]:
    """A ranking's rows on the wall sheet, each under ``title`` (a category's id, which the
    sheet writes by its name, or a separate ranking's name)."""
    rows: list[list[object]] = []
    for r in ranking:
        c = r.competitor
        prizes = [p for p in (r.prize, *(shown.extras.get(x, x) for x in r.extra_prizes)) if p]
        rows.append([title, r.position if r.position is not None else "", c.number,
                     " / ".join(c.names), _result(lang, cat, r),
                     "; ".join(dict.fromkeys(prizes))])  # each prize once
    return rows


def _result(lang: str, cat: Category, r: Row) -> object:
    c = r.competitor
    if r.finished and r.time is not None:
        return format_duration(r.time)
    if c.outcome:
        return outcome_text(lang, c.outcome)
    pieces = _pieces(cat, r)
    if isinstance(pieces, int):
        return ntr(lang, "{n} piece", "{n} pieces", pieces)
    return ""


def xlsx(sheets: dict[str, list[list[object]]], words: Printable | None = None,
         to_print: tuple[str, list[list[object]]] | None = None) -> bytes:
    """A workbook with one sheet per table (openpyxl), header row bold, frozen and printed on
    every page; landscape, fitted to the page's width; durations, money, counts and dates
    stored as such (with their formats), join codes and columns empty in every row left out.
    ``words``: headers and values in a language (``Printable``); without it, the tables' own
    codes. ``to_print``: a first sheet (its name, ``printed_ranking``'s table) laid out for A4
    portrait at 100 %, with a filter on its header, and the contest and page numbers in its
    header and footer."""
    # imported here, not at the top: openpyxl takes about 220 ms to import, on every start of
    # a bot that may never make a workbook. No stubs for openpyxl in the dev dependencies; the
    # ignores are unused once types-openpyxl is installed
    from openpyxl import Workbook  # type: ignore[import-untyped, unused-ignore]
    from openpyxl.cell.cell import (  # type: ignore[import-untyped, unused-ignore]
        ILLEGAL_CHARACTERS_RE,
    )
    from openpyxl.styles import Font  # type: ignore[import-untyped, unused-ignore]

    book = Workbook()
    used: set[str] = set()
    tables = ([to_print] if to_print is not None else []) + list(sheets.items())
    for k, (title, table) in enumerate(tables):
        sheet = book.active if k == 0 else book.create_sheet()
        assert sheet is not None
        sheet.title = _sheet_name(title, used)
        for row, (values, formats) in enumerate(sheet_cells(table, words), 1):
            _append(sheet, row, values, formats, ILLEGAL_CHARACTERS_RE)
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        _set_up_page(sheet)
        if to_print is not None and k == 0:
            _set_up_print(sheet, words)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _sheet_name(title: str, used: set[str]) -> str:
    """A sheet's name: unique, within Excel's 31 characters (added to ``used``)."""
    name = title[:31]
    while name in used:
        name = name[:28] + f" {len(used)}"
    used.add(name)
    return name


def sheet_cells(table: list[list[object]], words: Printable | None
                ) -> Iterator[tuple[list[object], list[str | None]]]:
    """Each row of a sheet: its values (join codes left out; in ``words``' language) and their
    number formats (the header row: titles, no formats)."""
    header = [str(h) for h in table[0]] if table else []
    keep = [i for i, h in enumerate(header) if h not in PRIVATE_COLUMNS
            and (len(table) == 1 or any(_filled(row, i) for row in table[1:]))]
    for r, row in enumerate(table):
        cells = [row[i] for i in keep if i < len(row)]
        formats: list[str | None] = []
        values: list[object] = []
        for i, v in zip(keep, cells, strict=False):
            if words is not None:
                v = words.cell(header[i], v) if r else words.title(header[i])
            value, fmt = _typed(header[i], v) if r else (v, None)
            if words is not None and isinstance(value, datetime):
                fmt = words.date_format
            values.append(value)
            formats.append(fmt)
        yield values, formats


def _filled(row: list[object], i: int) -> bool:
    """Whether a row has something in column ``i`` (a column empty in every row is left out of
    a sheet people read: results of a contest without an escape have no escape columns)."""
    return i < len(row) and row[i] not in ("", None)


def _append(sheet: Any, row: int, values: list[object], formats: list[str | None],
            illegal: re.Pattern[str]) -> None:
    """Row ``row``, the next one at the foot of ``sheet``, each cell with its number format.
    (Its cells are reached by their row and column: ``sheet[sheet.max_row]`` walks every cell
    of the sheet, and made a workbook of thousands of rows take seconds.)"""
    # control characters (``illegal``: stored before names were cleaned) would make openpyxl
    # refuse the whole workbook: they become spaces
    sheet.append([v if isinstance(v, int | float | datetime) else illegal.sub(" ", str(v))
                  for v in values])
    for column, fmt in enumerate(formats, 1):
        cell = sheet.cell(row=row, column=column)
        if fmt is not None:
            cell.number_format = fmt
        if isinstance(cell.value, str) and inert(cell.value) != cell.value:
            # text, never a formula ("=1+1" would be one for openpyxl), and marked as
            # the spreadsheet marks a cell typed with a leading apostrophe: it stays
            # text when edited or saved again as CSV
            cell.data_type = "s"
            cell.quotePrefix = True


def _set_up_page(sheet: Any) -> None:
    """The header frozen and on every printed page; landscape, fitted to the page's width;
    each column as wide as its widest cell (8 to 60 characters)."""
    sheet.freeze_panes = "A2"
    sheet.print_title_rows = "1:1"  # the header on every printed page
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    for column in sheet.columns:
        width = max((len(str(c.value)) for c in column if c.value is not None), default=8)
        sheet.column_dimensions[column[0].column_letter].width = min(60, max(8, width + 2))


def _set_up_print(sheet: Any, words: Printable | None) -> None:
    """The sheet to pin on the wall: A4 portrait at 100 % (its columns fit the page: names wrap),
    a filter on the header, the contest's name and date above, the page of pages below."""
    from openpyxl.styles import Alignment  # type: ignore[import-untyped, unused-ignore]

    sheet.page_setup.orientation = "portrait"
    sheet.page_setup.paperSize = sheet.PAPERSIZE_A4
    sheet.sheet_properties.pageSetUpPr.fitToPage = False
    sheet.page_setup.scale = 100
    sheet.page_margins.left = sheet.page_margins.right = PRINT_MARGIN
    for letter, width in zip("ABCDEF", PRINTED_COLUMNS.values(), strict=True):
        sheet.column_dimensions[letter].width = width
    for row in sheet.iter_rows(min_row=2, min_col=1, max_col=4):
        for cell in (row[0], row[3]):  # a separate ranking's title, the names: wrapped
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    sheet.auto_filter.ref = sheet.dimensions
    if words is not None:
        contest = words.contest
        # "&" starts a code in a header ("&P": the page): a name's own is doubled
        name = contest.name.replace("&", "&&")
        sheet.oddHeader.center.text = f"{name} · {contest.date.isoformat()}"
        sheet.oddFooter.right.text = tr(words.lang, "Page &P of &N")
