"""Payments in the chat: ``/pagar [N]`` (``/payer``, ``/pay``) sends an entry's invoice again;
Telegram's pre-checkout query is answered at once, after ``operations.checkout``; a successful
payment's message is recorded with its date (``Registrations.pay_in_chat``) with the answer to
the payer and the places it changed told in the same operation; a place held while paying is
let go at its moment (a job, rebuilt from the database at every start)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from telegram import Update
from telegram.ext import Application, CallbackContext, ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import post_text
from bot.delivery.services import Services, language_of, services
from bot.domain.events import EventKind
from bot.domain.places import Status
from bot.features.payments.operations import checkout, in_chat, owe_invoice, payable
from bot.features.payments.rules import Problem, cents_from, read_payload
from bot.features.payments.texts import (
    cannot_pay,
    checkout_refused,
    hold_let_go,
    invoice_sent,
    not_in_chat,
    nothing_to_pay,
    paid_text,
    pay_which,
)
from bot.features.registration.day import PaidInChat, Registrations
from bot.handlers.common import (
    Caller,
    already_handled,
    caller,
    caught_up_to,
    registrations,
    replace_job,
)
from bot.handlers.desk import announce_changes
from bot.handlers.entries import own_entry
from bot.services.outcomes import UnknownEntry
from bot.storage.store import PRIORITY_BULK
from bot.support.wallclock import CLOCK

log = logging.getLogger(__name__)

HOLD_JOB = "hold-ends"


async def pagar(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/pagar [N]``: the invoice of one of the person's entries that owes something."""
    who = await caller(update, context)
    if who is None:
        return
    found = await own_entry(update, who, list(context.args or []))
    if found is None:
        return
    entries, entry = found
    if in_chat(who.svc) is None:
        await answer_now(who.svc, update, not_in_chat(who.lang))
        return
    number = entry.number if entry is not None else await _the_one_owing(
        update, who, [e.number for e in entries])
    if number is None:
        return
    if await already_handled(update, who):
        return
    async with recording(who.svc) as tx:
        problem = await owe_invoice(who.svc, registrations(context), who.user_id, number,
                                    who.at)
        if problem is not None:
            await answer_now(who.svc, update, cannot_pay(who.lang, problem, number))
            return
        # the invoice is owed: what says so is recorded with it (a redelivered /pagar is
        # answered "already", not invoiced twice)
        await tx.add_event(at=who.at, kind=EventKind.NOTICE, role="system", entry=number,
                           ref=f"invoice:{number}:{update.update_id}",
                           update_id=update.update_id)
        await answer(who.svc, update, invoice_sent(who.lang, number))


async def _the_one_owing(update: Update, who: Caller, numbers: list[int]) -> int | None:
    """The person's one entry that can be paid now (None once told there is none, or which)."""
    regs: Registrations = who.svc.day.registrations
    owing = [n for n in numbers if (await payable(regs, n, who.at))[1] is None]
    if len(owing) == 1:
        return owing[0]
    await answer_now(who.svc, update, pay_which(who.lang, owing) if owing
                     else nothing_to_pay(who.lang))
    return None


async def pre_checkout(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Telegram waits at most 10 s for this answer before it gives up on the payment: the
    check reads the places only, and the answer goes at once, not through the outbox (a
    payment given up charges nothing; the person may pay again)."""
    query = update.pre_checkout_query
    if query is None:
        return
    svc = services(context)
    problem, number = await checkout(registrations(context), query.invoice_payload,
                                     query.total_amount, query.currency, CLOCK.now())
    if problem is None and in_chat(svc) is None:
        problem = Problem.UNKNOWN  # the contest no longer takes payments in the chat
    if problem is None:
        await query.answer(ok=True)
        return
    lang = await language_of(svc, query.from_user.id, query.from_user.language_code)
    log.info("checkout refused for entry %s: %s", number, problem.value)
    await query.answer(ok=False, error_message=checkout_refused(lang, problem, number))


async def paid(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A successful payment's message: recorded with the date Telegram gave it, once per
    charge (a message given again after a restart records nothing and is not answered
    twice); the payer told, and every place it changed told in the same operation."""
    msg = update.effective_message
    payment = msg.successful_payment if msg is not None else None
    who = await caller(update, context)
    if payment is None or who is None:
        return
    regs = registrations(context)
    async with recording(who.svc):
        out = await regs.pay_in_chat(
            who.user_id, _entry_of(payment.invoice_payload),
            cents_from(payment.total_amount, payment.currency), payment.currency,
            payment.telegram_payment_charge_id, payment.provider_payment_charge_id, who.at,
            update.update_id)
        if not isinstance(out, PaidInChat):
            if isinstance(out, UnknownEntry):  # not an invoice of ours: the money is owed back
                log.error("a payment of %s %s for no entry of this contest (charge %s)",
                          payment.total_amount, payment.currency,
                          payment.telegram_payment_charge_id)
            return
        [status] = await regs.statuses(who.at, [out.entry])
        await answer(who.svc, update, paid_text(who.lang, who.svc.contest, out, status))
        await announce_changes(context.application, who.at)


def _entry_of(payload: str) -> int:
    """The entry an invoice's payload names (0: none, so no entry)."""
    found = read_payload(payload)
    return found[0] if found is not None else 0


# -- places held while paying ---------------------------------------------------------------


async def schedule_hold(app: Application[Any, Any, Any, Any, Any, Any], number: int) -> None:
    """The moment entry ``number``'s place, held while it pays, is let go unless paid (at
    once when that moment passed already: a registration handled late, after a restart)."""
    regs: Registrations = app.bot_data["registrations"]
    app_of = next((a for a in await regs.applications() if a.number == number), None)
    if app_of is None or app_of.hold_until is None:
        return
    moment = max(app_of.hold_until, CLOCK.now())
    replace_job(app, f"hold:{number}", hold_job, moment, {"when": moment.timestamp()})


async def schedule_holds(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """At every start: each hold still to end a job at its moment; those that ended while the
    bot was off told now."""
    regs: Registrations | None = app.bot_data.get("registrations")
    if regs is None or regs.contest.settings("payments") is None:
        return
    now = CLOCK.now()
    for number, moment in await regs.hold_moments(now):
        replace_job(app, f"hold:{number}", hold_job, moment, {"when": moment.timestamp()})
    replace_job(app, HOLD_JOB, hold_job, now, {"when": now.timestamp()})


async def hold_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """Places held while paying let go by ``when``: their entries told (once: the status they
    were told is recorded with the message), then every place that moved."""
    moment = await caught_up_to(context)
    if moment is None:
        return  # stopping: told at the next start
    await tell_holds_let_go(context.application, moment)
    await announce_changes(context.application, moment)


async def tell_holds_let_go(app: Application[Any, Any, Any, Any, Any, Any],
                            moment: datetime) -> None:
    regs: Registrations = app.bot_data["registrations"]
    svc: Services = app.bot_data["services"]
    async with recording(svc):
        told = await regs.announced()
        apps = {a.number: a for a in await regs.applications()}
        places = await regs.places(moment)
        for number, place in places.items():
            a = apps[number]
            if (place.status is not Status.PENDING_PAYMENT or a.hold_until is None
                    or a.hold_until > moment
                    or regs.told_place(told.get(number))[0] != Status.CONFIRMED.value):
                continue
            for user_id in await regs.recipients(number):
                lang = await language_of(svc, user_id)
                await post_text(svc, user_id, hold_let_go(lang, number), PRIORITY_BULK)
            await regs.record_status(number, place, moment)
