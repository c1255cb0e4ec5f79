"""Table lists, one per heat of the round being played and one per category played in one
round: ``python -m bot tables [--category C] > tables.pdf``, or from the chat (``handlers.py``).

A category played in one round sits at the hall's tables by the contest file's ``seating``
(``rules.py``): its confirmed entries when its clock started (until then, as they
stand now), so that a late withdrawal never moves anyone once the contest is on.

Each heat starts a new A4 page: the contest, the category and the heat with its day and time,
then one line per entry: its table (two entries share one when the round says so), its number,
its members and the answers shown in rankings (a country). Long lists go on over more pages,
the heading repeated. Fonts as the cards' (``bot.tools.cards.find_fonts``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.lib.units import mm  # type: ignore[import-untyped]
from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from bot.domain.contest import Category, Contest
from bot.domain.events import CLOCK_KINDS, PLACE_KINDS
from bot.domain.places import Status
from bot.domain.rounds import Heat, table_number
from bot.features.tables.rules import hall_tables
from bot.services.contest_day import ContestDay
from bot.services.fonts import find_fonts
from bot.services.state import shown_answers, table_needs
from bot.storage.store import Entry
from bot.support.i18n import tr
from bot.support.wallclock import CLOCK
from bot.texts.common import names
from bot.texts.names import clock_time, day_text
from bot.texts.rounds import heat_name, when_text

PAGE_W, PAGE_H = A4
MARGIN = 15 * mm
LINE = 7.5 * mm  # one entry's line
HEAD = 32 * mm  # the heading of a page


@dataclass(frozen=True)
class Sheet:
    """One heat's list: its heading and its lines (table, entry number, names, shown)."""

    title: str
    subtitle: str
    lines: tuple[tuple[int, int, str, str], ...]


async def round_sheets(day: ContestDay, category: Category, lang: str) -> list[Sheet]:
    """The heats of the latest round the category reached, in table order."""
    contest = day.contest
    lineup = await day.lineups(category)
    index = len(lineup) - 1
    entries = {e.number: e for e in await day.store.entries(category.id)}
    sheets = []
    for h, numbers in enumerate(lineup[index], 1):
        heat = Heat(category, index, h)
        lines = []
        for i, n in enumerate(numbers):
            entry = entries.get(n)
            lines.append((table_number(i, heat.round.per_table), n,
                          names(entry.names) if entry else "",
                          _shown(contest, entry, lang) if entry else ""))
        sheets.append(Sheet(f"{category.name} — {heat_name(lang, contest, heat)}",
                            f"{contest.name} · {when_text(lang, contest, heat)}",
                            tuple(lines)))
    return sheets


def _shown(contest: Contest, entry: Entry, lang: str) -> str:
    """After the names: the answers shown in rankings (a country), then the needs the hall
    must meet (questions marked ``on_tables``: an accessible table)."""
    return ", ".join(shown_answers(contest, entry) + table_needs(contest, entry, lang))


async def hall_seats(day: ContestDay) -> dict[int, int]:
    """Each confirmed entry's table, for the categories played in one round (cached in the
    day's read model until a place or a clock changes)."""
    cache = day.read.projection("hall_tables", PLACE_KINDS + CLOCK_KINDS)
    hit: dict[int, int] | None = cache.get("all")
    if hit is not None:
        return hit
    groups = []
    for category in day.contest.categories:
        if category.rounds:
            continue
        started = (await day.clock(category.id)).started
        places = await day.registrations.places(started or CLOCK.now())
        groups.append([e.number for e in await day.store.entries(category.id)
                       if (p := places.get(e.number)) is not None
                       and p.status is Status.CONFIRMED])
    drawn = [c.id if c.seating == "draw" else "" for c in day.contest.categories
             if not c.rounds]
    tables = hall_tables(groups, day.contest.seating, drawn)
    cache["all"] = tables
    return tables


async def hall_sheets(day: ContestDay, category: Category, lang: str) -> list[Sheet]:
    """A category played in one round: one list of its entries, in table order."""
    contest = day.contest
    tables = await hall_seats(day)
    entries = sorted((e for e in await day.store.entries(category.id) if e.number in tables),
                     key=lambda e: tables[e.number])
    date = day_text(lang, contest.date)
    start = contest.start_of(category)
    when = date if start is None else tr(
        lang, "{day} at {time}", day=date, time=clock_time(contest, start)[:5])
    lines = tuple((tables[e.number], e.number, names(e.names), _shown(contest, e, lang))
                  for e in entries)
    return [Sheet(category.name, f"{contest.name} · {when}", lines)]


async def category_sheets(day: ContestDay, category: Category, lang: str) -> list[Sheet]:
    """The table lists of a category: its round being played, or its one round."""
    if category.rounds:
        return await round_sheets(day, category, lang)
    return await hall_sheets(day, category, lang)


def _clip(text: str, font: str, size: float, width: float) -> str:
    while text and pdfmetrics.stringWidth(text, font, size) > width:
        text = text[:-2] + "…" if len(text) > 2 else ""
    return text


def tables_pdf(contest: Contest, sheets: Sequence[Sheet], lang: str) -> bytes:
    """The sheets as PDF bytes: each heat from a new page."""
    fonts = find_fonts()
    out = io.BytesIO()
    c = Canvas(out, pagesize=A4, invariant=True, pageCompression=1)
    c.setTitle(tr(lang, "{contest}: tables", contest=contest.name))
    c.setCreator("puzzlebot")
    per_page = int((PAGE_H - 2 * MARGIN - HEAD) // LINE)
    headers = (tr(lang, "Table"), "#", tr(lang, "Names"))
    columns = (MARGIN, MARGIN + 22 * mm, MARGIN + 40 * mm)
    for sheet in sheets:
        chunks = [sheet.lines[i:i + per_page] for i in range(0, len(sheet.lines), per_page)]
        for chunk in chunks or [()]:
            y = PAGE_H - MARGIN - 8 * mm
            c.setFont(fonts.bold, 18)
            c.drawString(MARGIN, y, _clip(sheet.title, fonts.bold, 18, PAGE_W - 2 * MARGIN))
            y -= 8 * mm
            c.setFont(fonts.regular, 11)
            c.drawString(MARGIN, y, _clip(sheet.subtitle, fonts.regular, 11,
                                          PAGE_W - 2 * MARGIN))
            y -= 12 * mm
            c.setFont(fonts.bold, 11)
            for x, text in zip(columns, headers, strict=True):
                c.drawString(x, y, text)
            c.line(MARGIN, y - 2 * mm, PAGE_W - MARGIN, y - 2 * mm)
            y -= LINE
            for table, number, who, shown in chunk:
                c.setFont(fonts.bold, 13)
                c.drawString(columns[0], y, str(table))
                c.setFont(fonts.regular, 12)
                c.drawString(columns[1], y, f"#{number}")
                text = f"{who} ({shown})" if shown else who
                c.drawString(columns[2], y, _clip(text, fonts.regular, 12,
                                                  PAGE_W - MARGIN - columns[2]))
                y -= LINE
            if not chunk:
                c.setFont(fonts.regular, 12)
                c.drawString(columns[0], y, tr(lang, "No entries."))
            c.showPage()
    c.save()
    return out.getvalue()
