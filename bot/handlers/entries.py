"""A participant's entries after registering: /mis_inscripciones and /baja (with its
confirmation button)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.domain.contest import Contest
from bot.domain.places import Place, Status
from bot.handlers.common import (
    button_moment,
    buttons,
    caller,
    parse_int,
    pressed,
    recording,
    refuse_role,
    registrations,
    reply,
)
from bot.handlers.desk import announce_changes
from bot.services.registrations import AlreadyLapsed, Withdrawn
from bot.services.summary import money
from bot.storage.store import Entry
from bot.support.i18n import tr
from bot.texts.common import labelled, names
from bot.texts.registration import place_text


def status_line(lang: str, contest: Contest, entry: Entry, place: Place, total: int,
                paid: bool) -> str:
    status = {
        Status.CONFIRMED: tr(lang, "confirmed"),
        Status.PENDING_PAYMENT: tr(lang, "pending payment"),
        Status.WAITING: tr(lang, "waiting list, number {position}",
                           position=place.waiting_position),
        Status.LEFT_OUT: tr(lang, "no place: refund due"),
        Status.WITHDRAWN: tr(lang, "withdrawn"),
        Status.LAPSED: tr(lang, "lapsed: not paid in time"),
    }[place.status]
    category = contest.category(entry.category)
    pay = tr(lang, "paid") if paid else tr(lang, "not paid")
    return labelled(lang, f"#{entry.number} {category.name if category else entry.category}",
                    f"{names(entry.names)} - {status} - {money(total, contest.currency)} ({pay})")


async def mis_inscripciones(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    numbers = [e.number for e in who.roles.entries]
    if not numbers:
        await reply(update, tr(who.lang, "You have no entries yet. Register with /inscribir."))
        return
    contest = who.svc.contest
    lines = []
    for s in await registrations(context).statuses(who.at, numbers):
        lines.append(status_line(who.lang, contest, s.entry, s.place, s.fee.total,
                                 s.paid_at is not None))
        if s.place.status not in (Status.WITHDRAWN, Status.LAPSED) and \
                s.entry.source == "chat":
            category = contest.category(s.entry.category)
            if category is not None and category.members > 1:
                lines.append(tr(who.lang, "  partner's link: {link}",
                                link=f"https://t.me/{context.bot.username}?start="
                                     f"{s.entry.join_code}"))
    await reply(update, "\n".join(lines))


async def baja(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    entries = list(who.roles.entries)
    if not entries:
        await refuse_role(update, who, "participant")
        return
    args = list(context.args or [])
    if args:
        number = parse_int(args[0])
        entry = next((e for e in entries if e.number == number), None)
        if entry is None:
            await reply(update, tr(who.lang, "You don't follow entry {entry}. Your entries: "
                                   "{list}.", entry=args[0][:12],
                                   list=", ".join(f"#{e.number}" for e in entries)))
            return
    elif len(entries) == 1:
        entry = entries[0]
    else:
        await reply(update, tr(who.lang, "Which entry? /baja N, with N one of {list}.",
                               list=", ".join(f"#{e.number}" for e in entries)))
        return
    stamp = int(who.at.timestamp())
    await reply(update, tr(who.lang, "Withdraw entry #{entry} ({names})? This can't be undone.",
                           entry=entry.number, names=names(entry.names)),
                reply_markup=buttons([[
                    (tr(who.lang, "Yes, withdraw"), f"baja:y:{entry.number}:{stamp}"),
                    (tr(who.lang, "No"), f"baja:n:{entry.number}:{stamp}"),
                ]]))


async def baja_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    data, who = await pressed(update, context)
    if who is None:
        return
    parts = data.split(":")
    number = parse_int(parts[2]) if len(parts) == 4 else None
    if number is None:
        return  # not a button of ours
    yes = parts[1]
    if number not in {e.number for e in who.roles.entries}:
        await refuse_role(update, who, "participant")
        return
    if yes != "y":
        await reply(update, tr(who.lang, "Nothing changed: entry #{entry} stays registered.",
                               entry=number))
        return
    # Stamped with the moment the question was shown (Telegram's date of that message: /baja
    # was just sent), never with data from the button itself.
    at = button_moment(update, context, await who.svc.day.linked_users(number))
    if at is None:
        return
    async with recording(who.svc):
        out = await registrations(context).withdraw(who.user_id, "participant", number, at,
                                                    None)
        if isinstance(out, AlreadyLapsed):
            await reply(update, place_text(who.lang, who.svc.contest, number,
                                           Place(number, Status.LAPSED)))
            return
        if not isinstance(out, Withdrawn):
            await reply(update, tr(who.lang, "Entry #{entry} was already withdrawn.",
                                   entry=number))
            return
        place = out.place
        if who.svc.contest.registration.refunds:
            refund = refund_text(who.lang, who.svc.contest, out)
        elif place.refundable and out.paid:
            refund = tr(who.lang, "What you paid will be refunded.")
        elif place.refundable:
            refund = tr(who.lang, "A refund is due under the contest's rules for anything you "
                        "paid.")
        else:
            refund = tr(who.lang, "Under the contest's rules, this withdrawal is not refunded.")
        await reply(update, tr(who.lang, "Entry #{entry} is withdrawn.", entry=number) + " "
                    + refund)
        await announce_changes(context.application, at)


def refund_text(lang: str, contest: Contest, out: Withdrawn) -> str:
    """What a withdrawal gets back under refunds that decrease as the contest approaches."""
    percent = out.place.refund_percent
    if percent == 0:
        return tr(lang, "Under the contest's rules, this withdrawal is not refunded.")
    if out.paid:
        return tr(lang, "Under the contest's rules you get back {percent} % of what you paid: "
                  "{amount}.", percent=percent, amount=money(out.refund, contest.currency))
    return tr(lang, "No payment is recorded for entry #{entry}: if you paid, {percent} % of it "
              "is refunded under the contest's rules.", entry=out.entry, percent=percent)
