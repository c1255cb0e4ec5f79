"""A participant's entries after registering: /mis_inscripciones and /baja (with its
confirmation button)."""

from __future__ import annotations

from datetime import datetime

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.domain.places import Place, Status
from bot.features.registration.day import AlreadyLapsed, Withdrawn
from bot.features.registration.texts import place_text
from bot.handlers.common import (
    Callback,
    Caller,
    button_moment,
    buttons,
    caller,
    parse_int,
    pressed,
    refuse_role,
    registrations,
)
from bot.handlers.desk import announce_changes
from bot.storage.records import Entry
from bot.texts.entries import (
    already_withdrawn_text,
    kept_text,
    no_entries_text,
    not_followed_text,
    partner_link_line,
    status_line,
    which_entry_text,
    withdraw_question,
    withdrawn_text,
)


async def mis_inscripciones(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    numbers = [e.number for e in who.roles.entries]
    if not numbers:
        await answer_now(who.svc, update, no_entries_text(who.lang))
        return
    contest = who.svc.contest
    lines = []
    for s in await registrations(context).statuses(who.at, numbers):
        lines.append(status_line(who.lang, contest, s.entry, s.place, s.fee.total,
                                 s.paid_at is not None))
        if s.place.status not in (Status.WITHDRAWN, Status.LAPSED, Status.DECLINED,
                                  Status.UNMATCHED) and \
                s.entry.source == "chat":
            category = contest.category(s.entry.category)
            if category is not None and category.members > 1:
                lines.append(partner_link_line(who.lang, context.bot.username,
                                               s.entry.join_code))
    await answer_now(who.svc, update, "\n".join(lines))


async def own_entry(update: Update, who: Caller, args: list[str]
                    ) -> tuple[list[Entry], Entry | None] | None:
    """The entries the caller follows, and the one ``N`` (the first argument) names (None
    without one); None once refused: nobody's entry followed, or ``N`` not one of them."""
    entries = list(who.roles.entries)
    if not entries:
        await refuse_role(update, who, "participant")
        return None
    if not args:
        return entries, None
    number = parse_int(args[0])
    entry = next((e for e in entries if e.number == number), None)
    if entry is None:
        await answer_now(who.svc, update, not_followed_text(who.lang, args[0], entries))
        return None
    return entries, entry


async def baja(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    found = await own_entry(update, who, list(context.args or []))
    if found is None:
        return
    entries, entry = found
    if entry is None and len(entries) == 1:
        entry = entries[0]
    elif entry is None:
        await answer_now(who.svc, update, which_entry_text(who.lang, entries))
        return
    await ask_withdraw(update, context, who, entry, who.at)


async def ask_withdraw(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                       entry: Entry, at: datetime) -> None:
    """Whether to withdraw ``entry``, with what that gives back at ``at``, and its buttons."""
    stamp = int(at.timestamp())
    refund = await registrations(context).refund_if_withdrawn(entry.number, at)
    question, yes, no = withdraw_question(who.lang, entry, refund, who.svc.contest.currency)
    await answer_now(who.svc, update, question, reply_markup=buttons([[
        (yes, f"baja:y:{entry.number}:{stamp}"), (no, f"baja:n:{entry.number}:{stamp}"),
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
        await answer_now(who.svc, update, kept_text(who.lang, number))
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
            await answer_now(who.svc, update, place_text(who.lang, who.svc.contest, number,
                                                         Place(number, out.status)))
            return
        if not isinstance(out, Withdrawn):
            await answer_now(who.svc, update, already_withdrawn_text(who.lang, number))
            return
        await answer(who.svc, update, withdrawn_text(who.lang, who.svc.contest, out))
        await announce_changes(context.application, at)


# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "mis_inscripciones": mis_inscripciones,
    "baja": baja,
}
