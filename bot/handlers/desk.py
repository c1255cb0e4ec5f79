"""The organisers' desk for registrations: /pagado, /inscritos, /exportar, and the
announcements of changed places and the closing report."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from functools import partial
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from telegram import InputFile, Update
from telegram.ext import CallbackContext, ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import keyboard_json, organiser_recipients, post_text
from bot.delivery.services import Services, language_of
from bot.domain.contest import Contest
from bot.domain.events import EventKind
from bot.domain.numbers import YEARS, ascii_digits
from bot.domain.places import Place, Status
from bot.features.payments.settings import rules_of
from bot.features.registration.card import entry_card
from bot.features.registration.day import EntryStatus, Paid, PaidInChatAlready, Registrations
from bot.features.tables.handlers import warn_moved
from bot.features.waiting_list.rules import deadline as offer_deadline
from bot.features.waiting_list.rules import rules_of as offer_rules
from bot.features.waiting_list.texts import (
    offer_buttons,
    offered_line,
    unfollowed_offer_text,
)
from bot.handlers.common import (
    DEADLINE_GRACE,
    Callback,
    caught_up_to,
    named_categories,
    organiser,
    parse_int,
    recorder,
    registrations,
    replace_job,
    show_usage,
)
from bot.services.exports import (
    Printable,
    entry_rows,
    export_entries,
    export_results,
    printed_ranking,
    results_by_category,
    xlsx,
)
from bot.storage.store import PRIORITY_BULK, PRIORITY_COPY, Entry
from bot.support.wallclock import CLOCK
from bot.texts.desk import (
    bad_date_text,
    closing_report_text,
    closing_soon_text,
    export_captions,
    export_files,
    export_notes,
    lost_to,
    no_entry_text,
    paid_in_chat_text,
    paid_text,
    place_change_text,
    places_line,
    refund_lines,
    seeking_lines,
    shared_places_line,
    shared_waiting_lines,
    unlinked_line,
    waiting_line,
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
            await answer_now(who.svc, update, bad_date_text(who.lang, args[1]))
            return
        paid_at = day
    async with recording(who.svc):
        out = await registrations(context).pay(who.user_id, number, paid_at, who.at,
                                               update.update_id)
        if isinstance(out, PaidInChatAlready):
            await answer_now(who.svc, update, paid_in_chat_text(who.lang, contest, out))
            return
        if not isinstance(out, Paid):
            await answer_now(who.svc, update, no_entry_text(who.lang, number))
            return
        day_paid = paid_at.astimezone(ZoneInfo(contest.timezone)).date()
        await answer(who.svc, update, paid_text(who.lang, contest, out, day_paid))
        # the entries it took the place of are told why, with their new place
        why = {entry.number: lost_to(entry.number, number, day_paid)
               for entry, _ in out.displaced}
        await announce_changes(context.application, who.at, why)


def _refunds_listed(contest: Contest, refunds: list[EntryStatus]) -> bool:
    """Whether /inscritos lists a category's refunds due: where refunds shrink by the date, where
    payments are taken in the chat, for a payment made twice or a place offered and not
    accepted."""
    return bool(refunds) and (bool(contest.registration.refunds) or rules_of(contest) is not None
                              or any(r.extra or r.refunded or r.place.status in (
                                  Status.DECLINED, Status.UNMATCHED) for r in refunds))


async def inscritos(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await organiser(update, context)
    if who is None:
        return
    contest = who.svc.contest
    cats = await named_categories(update, who, list(context.args or []))
    if cats is None:
        return
    regs = registrations(context)
    lines = []
    shared = contest.registration.shared_capacity
    if shared is not None:
        places = await regs.places(who.at)
        confirmed = sum(1 for p in places.values() if p.status is Status.CONFIRMED)
        lines.append(shared_places_line(who.lang, confirmed, shared))
    for cat in cats:
        s = await regs.category_summary(cat, who.at)
        lines.append(places_line(who.lang, cat, s))
        lines += [offered_line(who.lang, contest, t.entry.number, t.entry.names,
                               t.place.offer_until) for t in s.taken if t.place.offered]
        if shared is None:  # the category's own waiting list
            lines += [waiting_line(who.lang, w) for w in s.waiting]
        lines += seeking_lines(who.lang, s.seeking)
        if _refunds_listed(contest, s.refunds):
            lines += refund_lines(who.lang, contest, s.refunds)
    if shared is not None:
        # one waiting list for every category: once, in its order, each with its category
        line_up = sorted((s for s in await regs.statuses(who.at)
                          if s.place.status in (Status.WAITING, Status.LEFT_OUT)),
                         key=lambda s: s.place.waiting_position or 0)
        lines += shared_waiting_lines(who.lang, contest, line_up)
    unlinked = await _unlinked(regs, {c.id for c in cats}, who.at)
    if unlinked:
        lines.append(unlinked_line(who.lang, unlinked))
    await answer_now(who.svc, update, "\n".join(lines))


async def _unlinked(regs: Registrations, categories: set[str], at: datetime) -> list[int]:
    """The entries of ``categories`` nobody can tell anything (no phone linked): an
    invitation, a reminder, a table would go nowhere."""
    return [s.entry.number for s in await regs.statuses(at)
            if s.entry.category in categories and s.place.status in (
                Status.CONFIRMED, Status.PENDING_PAYMENT, Status.WAITING)
            and not await regs.recipients(s.entry.number)]


async def exportar(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await organiser(update, context)
    if who is None:
        return

    contest = who.svc.contest
    msg = update.effective_message
    assert msg is not None
    entries, results, spreadsheet = export_captions(who.lang)
    book_name, entries_name, results_name = export_files(
        who.lang, Path(who.svc.config.contest_file).stem)
    for_people, for_programs = export_notes(who.lang)
    # the workbook first: the file people open (the ranking to print, the entries, then one
    # sheet per category's results), in the organiser's language
    book = xlsx({
        entries: await entry_rows(contest, who.svc.store, registrations(context), who.at),
        **await results_by_category(contest, who.svc.day, who.at),
    }, Printable(contest, who.lang),
        to_print=(results, await printed_ranking(contest, who.svc.day, who.lang, who.at)))
    await msg.reply_document(InputFile(book, filename=book_name),
                             caption=f"{spreadsheet}\n{for_people}", do_quote=True)
    buf = io.StringIO()
    await export_entries(contest, who.svc.store, buf, registrations(context), who.at)
    await msg.reply_document(InputFile(io.BytesIO(buf.getvalue().encode("utf-8")),
                                       filename=entries_name),
                             caption=f"{entries} (CSV)\n{for_programs}", do_quote=True)
    buf = io.StringIO()
    await export_results(contest, who.svc.day, buf, at=who.at)
    await msg.reply_document(InputFile(io.BytesIO(buf.getvalue().encode("utf-8")),
                                       filename=results_name),
                             caption=f"{results} (CSV)\n{for_programs}", do_quote=True)


async def announce_changes(app: Any, now: datetime,
                           why: Mapping[int, Callable[[str], str]] | None = None) -> None:
    """Tell people whose place changed (promoted from the waiting list, left out at closing,
    moved on the waiting list): one message per entry and change. ``why``: per entry, the
    reason to give first (in the person's language), e.g. the payment it lost its place to."""
    regs: Registrations = app.bot_data["registrations"]
    svc: Services = app.bot_data["services"]
    contest = svc.contest
    # each status change recorded with the messages telling it (in the caller's operation
    # when there is one: a withdrawal and the place it frees commit together)
    offered: list[tuple[int, datetime]] = []
    async with recording(svc):
        told = await regs.announced()
        for entry, place in await regs.changes(now):
            before, position = regs.told_place(told.get(entry.number))
            reason = (why or {}).get(entry.number)
            if place.offered:
                place = await _offer(svc, regs, entry, place, now)
                if place.offer_until is not None:
                    offered.append((entry.number, place.offer_until))
            # a place confirmed (paid, or freed up): the card of what the entry needs to know
            card = (await entry_card(svc.day, entry.number, now)
                    if place.status is Status.CONFIRMED and not place.offered else None)
            for user_id in await regs.recipients(entry.number):
                lang = await language_of(svc, user_id)
                text = place_change_text(lang, contest, entry.number, place, before, position,
                                         card)
                if reason is not None:
                    text = reason(lang) + "\n" + text
                markup = (keyboard_json(partial(offer_buttons, number=entry.number), lang)
                          if place.offered else None)
                await post_text(svc, user_id, text, PRIORITY_BULK, markup=markup)
            await regs.record_status(entry.number, place, now)
    for number, until in offered:
        schedule_offer(app, number, until)
    await warn_moved(svc)


async def _offer(svc: Services, regs: Registrations, entry: Entry, place: Place,
                 now: datetime) -> Place:
    """A place offered to ``entry``, about to be told: its deadline runs from ``now``,
    recorded with the message (``[waiting_list]``). An entry no phone follows: the organisers
    are told, to accept it for its people in time."""
    rules = offer_rules(svc.contest)
    if place.offer_until is not None or rules is None:
        return place
    # told now: a change of a past moment (a withdrawal confirmed on a question shown
    # yesterday, a quota released while the bot was off) still gives the whole time
    told = max(now, CLOCK.now())
    until = offer_deadline(svc.contest, rules, entry.category, told)
    await regs.record_offer(entry.number, told, until)
    if not await regs.recipients(entry.number):
        for user_id, lang in await organiser_recipients(svc):
            await post_text(svc, user_id, unfollowed_offer_text(
                lang, svc.contest, entry.number, entry.names, until), PRIORITY_BULK)
    return replace(place, offer_until=until)


def schedule_offer(app: Any, number: int, until: datetime) -> None:
    """The deadline of the place offered to entry ``number``: decided ``DEADLINE_GRACE``
    after it, once every update Telegram held then is handled (an acceptance dated in time
    counts, however late it arrives)."""
    when = max(until + DEADLINE_GRACE, CLOCK.now())
    replace_job(app, f"offer:{number}", offer_job, when, {"when": when.timestamp()})


async def schedule_offers(app: Any) -> None:
    """At every start: the deadline of each place offered and told, as a job (at once when
    it passed while the bot was off); an offer not told yet is told now."""
    regs: Registrations | None = app.bot_data.get("registrations")
    if regs is None or offer_rules(regs.contest) is None:
        return
    now = CLOCK.now()
    for number, place in (await regs.places(now)).items():
        if place.offered and place.offer_until is not None:
            schedule_offer(app, number, place.offer_until)
    replace_job(app, "offers", offer_job, now, {"when": now.timestamp()})


async def offer_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """An offer's deadline passed (or the bot started): places offered and not accepted go
    to the next in line, each change told."""
    moment = await caught_up_to(context)
    if moment is None:
        return  # stopping: decided at the next start
    await announce_changes(context.application, moment)


async def closing_report(app: Any, now: datetime) -> None:
    """At the closing time: the organisers get the entries left out and owed a refund."""
    regs: Registrations = app.bot_data["registrations"]
    svc: Services = app.bot_data["services"]
    async with recording(svc) as tx:
        if await tx.has_ref(EventKind.CLOSING_REPORT, "closing"):
            return
        await _closing_report(svc, regs, now)
        await tx.add_event(at=now, kind=EventKind.CLOSING_REPORT, role="system", ref="closing")


CLOSING_SOON = "closing-soon"  # the ref of the list before the closing (once)


async def closing_soon_report(app: Any, now: datetime) -> None:
    """Before registrations close (``closing_warning_at``): each organiser gets what the
    closing would leave as it is (waiting, unpaid, unreachable entries), once; nothing once
    the closing has come (the bot was off: the closing report says what happened)."""
    regs: Registrations = app.bot_data["registrations"]
    svc: Services = app.bot_data["services"]
    contest = svc.contest
    closes = contest.registration.closes
    if closes is None or now >= closes:
        return
    statuses = await regs.statuses(now)
    live = [s for s in statuses if s.place.status in (
        Status.CONFIRMED, Status.PENDING_PAYMENT, Status.WAITING)]
    waiting = [s for s in live if s.place.status is Status.WAITING]
    unpaid = [s for s in live if s.paid_at is None and s.fee.total > 0]
    unlinked = [s for s in live if not await regs.recipients(s.entry.number)]
    seeking = [s for s in statuses if s.place.status is Status.SEEKING]
    async with recording(svc) as tx:
        if await tx.has_ref(EventKind.CLOSING_REPORT, CLOSING_SOON):
            return
        for organiser_id, lang in await organiser_recipients(svc):
            await post_text(svc, organiser_id,
                            closing_soon_text(lang, contest, waiting, unpaid, unlinked,
                                              seeking),
                            PRIORITY_COPY)
        await tx.add_event(at=now, kind=EventKind.CLOSING_REPORT, role="system",
                           ref=CLOSING_SOON)


async def _closing_report(svc: Services, regs: Registrations, now: datetime) -> None:
    statuses = await regs.statuses(now)
    left_out = [s for s in statuses if s.place.status is Status.LEFT_OUT]
    unmatched = [s for s in statuses if s.place.status is Status.UNMATCHED and s.owed_back]
    contest = svc.contest
    for organiser_id, lang in await organiser_recipients(svc):
        await post_text(svc, organiser_id,
                        closing_report_text(lang, contest, left_out, unmatched), PRIORITY_COPY)


# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "pagado": pagado,
    "inscritos": inscritos,
    "exportar": exportar,
}
