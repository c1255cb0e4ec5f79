"""The organisers' desk for registrations: /pagado, /inscritos, /exportar, and the
announcements of changed places and the closing report."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from telegram import InputFile, Update
from telegram.ext import ContextTypes

from bot.domain.contest import Category, Contest
from bot.domain.events import EventKind
from bot.domain.numbers import YEARS, ascii_digits
from bot.domain.places import Status
from bot.handlers.common import (
    Services,
    language_of,
    organiser,
    parse_int,
    post_text,
    recorder,
    recording,
    registrations,
    reply,
    show_usage,
)
from bot.services.exports import (
    Printable,
    entry_rows,
    export_entries,
    export_results,
    results_by_category,
    xlsx,
)
from bot.services.registrations import CategorySummary, EntryStatus, Paid, Registrations
from bot.services.summary import money
from bot.storage.store import PRIORITY_BULK, PRIORITY_COPY
from bot.support.i18n import ntr, tr
from bot.texts.common import date_text, labelled, names
from bot.texts.registration import (
    displaced_note,
    lost_place_text,
    place_text,
    waiting_move_text,
)


def contest_day_before(contest: Contest) -> date:
    """A date to show in examples: a week before the registrations close (or the contest)."""
    closes = contest.registration.closes
    day = closes.date() if closes is not None else contest.date
    return day - timedelta(days=7)


def parse_day(text: str, contest: Contest) -> datetime | None:
    for fmt in ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y"):
        try:
            d = datetime.strptime(ascii_digits(text.strip()), fmt).date()
        except ValueError:
            continue
        if d.year not in YEARS:
            return None
        return datetime.combine(d, time(0), ZoneInfo(contest.timezone))
    return None


async def pagado(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    contest = who.svc.contest
    args = list(context.args or [])
    number = parse_int(args[0]) if args else None
    if number is None or len(args) > 2:
        example = (contest_day_before(who.svc.contest)).isoformat()
        await show_usage(update, who, f"/pagado N [{example}]")
        return
    paid_at = who.at
    if len(args) == 2:
        day = parse_day(args[1], contest)
        if day is None or day > who.at:
            await reply(update, tr(who.lang, "I can't use the date {text}: write a past date "
                                   "like 2012-02-15.", text=args[1][:20]))
            return
        paid_at = day
    async with recording(who.svc):
        out = await registrations(context).pay(who.user_id, number, paid_at, who.at,
                                               update.update_id)
        if not isinstance(out, Paid):
            await reply(update, tr(who.lang, "There is no entry number {entry}.",
                                   entry=number))
            return
        day_paid = paid_at.astimezone(ZoneInfo(contest.timezone)).date()
        lines = [tr(who.lang, "Payment of entry #{entry} recorded on {day}.", entry=number,
                    day=date_text(who.lang, day_paid)),
                 place_text(who.lang, contest, number, out.place)]
        for entry, place in out.displaced:
            lines.append(displaced_note(who.lang, entry.number, entry.names,
                                        place.waiting_position
                                        if place.status is Status.WAITING else None))
        await reply(update, "\n".join(lines))
        # the entries it took the place of are told why, with their new place
        why = {entry.number: _lost_to(entry.number, number, day_paid)
               for entry, _ in out.displaced}
        await announce_changes(context.application, who.at, why)


def _lost_to(entry: int, by: int, day: date) -> Callable[[str], str]:
    return lambda lang: lost_place_text(lang, entry, by, date_text(lang, day))


async def inscritos(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await organiser(update, context)
    if who is None:
        return
    contest = who.svc.contest
    args = list(context.args or [])
    cats = list(contest.categories)
    if args:
        cat = contest.category(args[0].lower())
        if cat is None:
            await reply(update, tr(who.lang, "Unknown category. Categories: {ids}",
                                   ids=", ".join(c.id for c in contest.categories)))
            return
        cats = [cat]
    regs = registrations(context)
    lines = []
    shared = contest.registration.shared_capacity
    if shared is not None:
        places = await regs.places(who.at)
        confirmed = sum(1 for p in places.values() if p.status is Status.CONFIRMED)
        lines.append(tr(who.lang, "All categories: {taken} of {capacity} places taken.",
                        taken=confirmed, capacity=shared))
    for cat in cats:
        s = await regs.category_summary(cat, who.at)
        lines.append(_places_line(who.lang, cat, s))
        if shared is None:  # the category's own waiting list
            lines += [_waiting_line(who.lang, w) for w in s.waiting]
        if s.refunds and contest.registration.refunds:
            lines += _refund_lines(who.lang, contest, s.refunds)
    if shared is not None:
        # one waiting list for every category: once, in its order, each with its category
        line_up = sorted((s for s in await regs.statuses(who.at)
                          if s.place.status in (Status.WAITING, Status.LEFT_OUT)),
                         key=lambda s: s.place.waiting_position or 0)
        if line_up:
            lines.append(tr(who.lang, "Waiting list (all categories):"))
            lines += [_waiting_line(who.lang, w, contest) for w in line_up]
    await reply(update, "\n".join(lines))


def _places_line(lang: str, cat: Category, s: CategorySummary) -> str:
    """``Pairs: 3 confirmed, 2 free, 1 pending payment``: a category's places."""
    line = labelled(lang, cat.name, ntr(lang, "{n} confirmed", "{n} confirmed", len(s.taken)))
    if s.free is not None:
        line += ", " + ntr(lang, "{n} free", "{n} free", s.free)
    if s.reserved_left:
        line += " " + tr(lang, "({reserved} of them only for local entries)",
                         reserved=s.reserved_left)
    if s.pending:
        line += ", " + ntr(lang, "{n} pending payment", "{n} pending payment", len(s.pending))
    if s.lapsed:
        line += ", " + tr(lang, "{count} lapsed (not paid in time): {list}",
                          count=len(s.lapsed),
                          list=", ".join(f"#{x.entry.number}" for x in s.lapsed))
    return line


def _refund_lines(lang: str, contest: Contest, refunds: list[EntryStatus]) -> list[str]:
    lines = ["  " + tr(lang, "Refunds due:")]
    for r in refunds:
        lines.append("  " + tr(lang, "#{entry} {names}: {amount} ({percent} % of "
                               "{paid})", entry=r.entry.number,
                               names=names(r.entry.names),
                               amount=money(r.refund, contest.currency),
                               percent=r.place.refund_percent,
                               paid=money(r.fee.total, contest.currency)))
    return lines


def _waiting_line(lang: str, w: EntryStatus, contest: Contest | None = None) -> str:
    """``  2. #31 Bea / Ben``, with its category's name on a list shared by all of them."""
    category = contest.category(w.entry.category) if contest is not None else None
    return (f"  {w.place.waiting_position}. #{w.entry.number} {names(w.entry.names)}"
            + (f" ({category.name})" if category is not None else "")
            + (" (" + tr(lang, "local entry") + ")" if w.entry.local else ""))


async def exportar(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await organiser(update, context)
    if who is None:
        return

    contest = who.svc.contest
    msg = update.effective_message
    assert msg is not None
    buf = io.StringIO()
    await export_entries(contest, who.svc.store, buf, registrations(context), who.at)
    await msg.reply_document(InputFile(io.BytesIO(buf.getvalue().encode("utf-8")),
                                       filename="entries.csv"),
                             caption=tr(who.lang, "Entries"), do_quote=True)
    buf = io.StringIO()
    await export_results(contest, who.svc.day, buf, at=who.at)
    await msg.reply_document(InputFile(io.BytesIO(buf.getvalue().encode("utf-8")),
                                       filename="results.csv"),
                             caption=tr(who.lang, "Results"), do_quote=True)

    book = xlsx({  # the entries, then one sheet per category's results
        tr(who.lang, "Entries"): await entry_rows(contest, who.svc.store,
                                                  registrations(context), who.at),
        **await results_by_category(contest, who.svc.day, who.at),
    }, Printable(contest, who.lang))  # a sheet to print: in the organiser's language
    await msg.reply_document(InputFile(book, filename="puzzlebot.xlsx"),
                             caption=tr(who.lang, "Entries and results (spreadsheet)"),
                             do_quote=True)



async def announce_changes(app: Any, now: datetime,
                           why: Mapping[int, Callable[[str], str]] | None = None) -> None:
    """Tell people whose place changed (promoted from the waiting list, left out at closing,
    moved on the waiting list): one message per entry and change. ``why``: per entry, the
    reason to give first (in the person's language), e.g. the payment it lost its place to."""
    regs: Registrations = app.bot_data["registrations"]
    svc = app.bot_data["services"]
    contest = svc.contest
    # each status change recorded with the messages telling it (in the caller's operation
    # when there is one: a withdrawal and the place it frees commit together)
    async with recording(svc):
        told = await regs.announced()
        for entry, place in await regs.changes(now):
            before, position = regs.told_place(told.get(entry.number))
            reason = (why or {}).get(entry.number)
            for user_id in await regs.recipients(entry.number):
                lang = await language_of(svc, user_id)
                if place.status is Status.CONFIRMED and \
                        before in (Status.PENDING_PAYMENT.value, Status.LAPSED.value):
                    text = tr(lang, "Payment received: entry #{entry} has a confirmed place.",
                              entry=entry.number)
                elif place.status is Status.CONFIRMED:
                    text = tr(lang, "Good news: a place freed up and entry #{entry} now has a "
                              "confirmed place.", entry=entry.number)
                elif place.status is Status.WAITING and before == Status.WAITING.value and \
                        position is not None and place.waiting_position is not None:
                    text = waiting_move_text(lang, entry.number, position,
                                             place.waiting_position)
                else:
                    text = place_text(lang, contest, entry.number, place)
                if reason is not None:
                    text = reason(lang) + "\n" + text
                await post_text(app.bot, user_id, text, PRIORITY_BULK)
            await regs.record_status(entry.number, place, now)


async def closing_report(app: Any, now: datetime) -> None:
    """At the closing time: the organisers get the entries left out and owed a refund."""
    regs: Registrations = app.bot_data["registrations"]
    svc = app.bot_data["services"]
    async with recording(svc) as tx:
        if await tx.has_ref(EventKind.CLOSING_REPORT, "closing"):
            return
        await _closing_report(app, svc, regs, now)
        await tx.add_event(at=now, kind=EventKind.CLOSING_REPORT, role="system", ref="closing")


async def _closing_report(app: Any, svc: Services, regs: Registrations, now: datetime) -> None:
    left_out = [s for s in await regs.statuses(now) if s.place.status is Status.LEFT_OUT]
    contest = svc.contest
    for organiser_id in sorted(await svc.day.all_organisers()):
        if await svc.store.person(organiser_id) is None:
            continue
        lang = await language_of(svc, organiser_id)
        lines = [tr(lang, "Registrations are closed. Entries left without a place, to be "
                    "refunded ({when}):", when=contest.registration.left_out_refund or "-")]
        for s in left_out:
            lines.append(labelled(lang, f"#{s.entry.number} {names(s.entry.names)}",
                                  money(s.fee.total, contest.currency)))
        if not left_out:
            lines.append(tr(lang, "None: every paid entry has a place."))
        await post_text(app.bot, organiser_id, "\n".join(lines), PRIORITY_COPY)
