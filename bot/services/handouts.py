"""Paper for the hall: the volunteers' sheet (one A4 page: the commands and buttons a volunteer
uses on the day, with examples) and the organiser's day plan (the starts, the breaks, the
alerts, the escape's end, time's up, the results), both as PDF, in the reader's language.
``python -m bot volunteer-sheet|day-plan [--lang L] > file.pdf`` or the tables'
printing command.

The sheet lists only what this contest has (no escape commands without an escape...). The
plan is the contest file's schedule: each clock as if started on time, the breaks stopping
every clock; a heat of a round at its own day and time.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.lib.units import mm  # type: ignore[import-untyped]
from reportlab.lib.utils import simpleSplit  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from bot.domain.clock import ALERTS, CategoryClock, Pause
from bot.domain.contest import Category, Contest
from bot.domain.rounds import Heat
from bot.services.fonts import Fonts, find_fonts
from bot.support.commands import COMMANDS, ESCAPE_STAGES, features, in_language
from bot.support.registry import REGISTRY
from bot.texts import handouts as t
from bot.texts.menus import command_description
from bot.texts.names import day_text, heat_name

PAGE_W, PAGE_H = A4
MARGIN = 15 * mm


@dataclass(frozen=True)
class Line:
    """One line of a handout: a short label in bold (a command, a time) and its text."""

    label: str
    text: str


@dataclass(frozen=True)
class Section:
    heading: str
    lines: tuple[Line, ...]


def volunteer_sections(contest: Contest, lang: str) -> list[Section]:
    """What a volunteer uses in this contest: commands with examples, buttons, tips."""
    has = features(contest)
    commands = [c for c in COMMANDS if c.role == "volunteer" and (not c.needs or c.needs in has)]
    typed = []
    for c in commands:
        examples = "   ".join(in_language(lang, "/" + e)
                               for e in t.EXAMPLES.get(c.name, c.examples))
        typed.append(Line(f"/{c.name_in(lang)}", command_description(lang, c, None)
                          + (f"\n{examples}" if examples else "")))
    buttons = [Line(t.claim_label(lang), t.claim_button(lang)),
               Line(t.ready_label(lang), in_language(lang, t.ready_button(lang)))]
    if ESCAPE_STAGES in has:  # volunteers confirm the stages (not where the chat knows them)
        buttons.append(Line(t.stage_label(lang), t.stage_buttons(lang)))
    for feature in REGISTRY.features:  # the buttons a feature adds, where the contest has them
        if feature.sheet is not None:
            buttons.extend(Line("✓", text) for text in feature.sheet(contest, lang))
    tips = [Line("•", t.official_time(lang)), Line("•", in_language(lang, t.undo_tip(lang)))]
    return [Section(t.commands_heading(lang), tuple(typed)),
            Section(t.buttons_heading(lang), tuple(buttons)),
            Section(t.good_to_know_heading(lang), tuple(tips))]


def _units(contest: Contest, lang: str) -> list[tuple[str, Category, datetime | None, bool]]:
    """Every clock of the day: a category played in one round at the contest's start, each
    heat of a round at its own; its name; whether it waits for the heat before (heats with
    no schedule of their own are played one after another at the round's venue)."""
    out: list[tuple[str, Category, datetime | None, bool]] = []
    for category in contest.categories:
        if not category.rounds:
            out.append((category.name, category, contest.start_of(category), False))
            continue
        for r, rnd in enumerate(category.rounds):
            for h in range(1, rnd.heats + 1):
                heat = Heat(category, r, h)
                out.append((f"{category.name} — {heat_name(lang, contest, heat)}", heat.play,
                            rnd.when(h).start, h > 1 and not rnd.schedule))
    return out


def day_plan(contest: Contest, lang: str) -> list[tuple[datetime, str]]:
    """The day as the contest file plans it, in order of time."""
    pauses = [Pause(b.start, b.end) for b in contest.breaks]
    items: list[tuple[datetime, str]] = []
    before_end: datetime | None = None  # the time's up of the heat before
    for name, unit, planned, queued in _units(contest, lang):
        start = before_end if queued and before_end is not None else planned
        if start is None:
            continue
        clock = CategoryClock.build(start, pauses)
        before_end = clock.instant_at(unit.time_limit)
        items.append((start, t.plan_start(lang, name)))
        escape = contest.escape
        if unit.escape and escape is not None:
            end = clock.instant_at(escape.time_limit)
            if end is not None:
                items.append((end, t.plan_escape_end(lang, name)))
        for before, key in ALERTS:
            moment = clock.instant_at(max(0, unit.time_limit - before))
            if moment is not None:
                items.append((moment, t.plan_alert(lang, name, int(key)) if before
                              else t.plan_time_up(lang, name)))
    for b in contest.breaks:
        items += [(b.start, t.plan_break(lang, True)), (b.end, t.plan_break(lang, False))]
    if contest.results_at is not None:
        items.append((contest.results_at, in_language(lang, t.plan_results(lang))))
    return sorted(items, key=lambda item: item[0])


def plan_sections(contest: Contest, lang: str) -> list[Section]:
    """The day plan, a section per day (a contest in rounds may take several)."""
    zone = ZoneInfo(contest.timezone)
    days: dict[str, list[Line]] = {}
    for moment, text in day_plan(contest, lang):
        local = moment.astimezone(zone)
        days.setdefault(day_text(lang, local.date()), []).append(
            Line(local.strftime("%H:%M"), text))
    sections = [Section(day, tuple(lines)) for day, lines in days.items()]
    notes = [Line("•", in_language(lang, t.plan_note(lang)))]
    if all(contest.start_of(c) is None for c in contest.categories if not c.rounds):
        notes.insert(0, Line("•", in_language(lang, t.plan_unscheduled(lang))))
    return sections + [Section(t.good_to_know_heading(lang), tuple(notes))]


def handout_pdf(title: str, subtitle: str, sections: list[Section], size: float = 11) -> bytes:
    """Sections on A4 pages: a bold label column and wrapped texts; a new page only when one
    is full."""
    fonts = find_fonts()
    out = io.BytesIO()
    c = Canvas(out, pagesize=A4, invariant=True, pageCompression=1)
    c.setTitle(title)
    c.setCreator("puzzlebot")
    label_w = 40 * mm
    text_x = MARGIN + label_w
    text_w = PAGE_W - MARGIN - text_x
    leading = size * 1.3

    y = _head(c, fonts, title, subtitle)
    for section in sections:
        if y < MARGIN + 3 * leading:
            c.showPage()
            y = _head(c, fonts, title, subtitle)
        c.setFont(fonts.bold, size + 2)
        c.drawString(MARGIN, y, section.heading)
        y -= leading * 1.4
        for line in section.lines:
            wrapped = [w for part in line.text.split("\n")
                       for w in simpleSplit(part, fonts.regular, size, text_w)]
            if y - len(wrapped) * leading < MARGIN:
                c.showPage()
                y = _head(c, fonts, title, subtitle)
            c.setFont(fonts.bold, size)
            c.drawString(MARGIN, y, line.label)
            c.setFont(fonts.regular, size)
            for w in wrapped:
                c.drawString(text_x, y, w)
                y -= leading
            y -= leading * 0.35
        y -= leading * 0.6
    c.showPage()
    c.save()
    return out.getvalue()


def _head(c: Canvas, fonts: Fonts, title: str, subtitle: str) -> float:
    y = PAGE_H - MARGIN - 6 * mm
    c.setFont(fonts.bold, 20)
    c.drawString(MARGIN, y, title)
    y -= 7 * mm
    c.setFont(fonts.regular, 11)
    c.drawString(MARGIN, y, subtitle)
    c.line(MARGIN, y - 3 * mm, PAGE_W - MARGIN, y - 3 * mm)
    return float(y - 11 * mm)


def volunteer_sheet_pdf(contest: Contest, lang: str) -> bytes:
    return handout_pdf(t.volunteers_title(lang), contest.name, volunteer_sections(contest, lang),
                       size=10.5)


def day_plan_pdf(contest: Contest, lang: str) -> bytes:
    return handout_pdf(t.plan_title(lang), contest.name, plan_sections(contest, lang))
