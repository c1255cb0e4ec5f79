"""Payments in the chat: the invoice an entry is owed (``owe_invoice``, posted in the caller's
operation: it goes out once that commits, even after a crash) and the check Telegram waits for
before charging (``checkout``). A payment taken is recorded by ``Registrations.pay_in_chat``,
once per charge, with its message's date (handlers.py)."""

from __future__ import annotations

import json
from datetime import datetime

from bot.delivery.items import INVOICE_METHOD
from bot.delivery.posting import post_call
from bot.delivery.services import Services, language_of
from bot.domain.contest import Contest
from bot.features.payments.rules import (
    PaymentRules,
    Problem,
    cents_from,
    checkout_problem,
    minor_units,
    payload,
    read_payload,
)
from bot.features.payments.settings import rules_of
from bot.features.payments.texts import (
    fee_label,
    invoice_description,
    invoice_title,
    meal_label,
)
from bot.features.registration.day import EntryStatus, Registrations
from bot.features.registration.rules import registration_window


def in_chat(svc: Services) -> PaymentRules | None:
    """The contest's payments in the chat (None: it takes none there: no ``[payments]`` in
    its file, or no provider's token in the settings)."""
    rules = rules_of(svc.contest)
    return rules if rules is not None and svc.config.payment_token else None


async def payable(regs: Registrations, number: int, at: datetime
                  ) -> tuple[EntryStatus | None, Problem | None]:
    """Entry ``number`` at ``at``, and why it can't be paid for now (None: it can)."""
    found = await regs.statuses(at, [number])
    if not found:
        return None, Problem.UNKNOWN
    s = found[0]
    closed = registration_window(regs.contest, at) == "closed"
    due = s.fee.total
    return s, checkout_problem(s.place, s.paid_at is not None, due, due, True, closed)


def invoice_params(lang: str, contest: Contest, s: EntryStatus) -> dict[str, object]:
    """sendInvoice's parameters but the chat and the provider's token (the sender adds it):
    what the entry owes, its entry fee and its meals as lines, in the currency's smallest unit
    (the payload keeps the contest's hundredths)."""
    currency = contest.currency
    prices = [{"label": fee_label(lang), "amount": minor_units(s.fee.entry_due, currency)}]
    if s.fee.meal:
        prices.append({"label": meal_label(lang), "amount": minor_units(s.fee.meal, currency)})
    prices = [p for p in prices if p["amount"]]
    return {"title": invoice_title(lang, contest, s.entry.number),
            "description": invoice_description(lang, contest, s),
            "payload": payload(s.entry.number, s.fee.total),
            "currency": contest.currency, "prices": json.dumps(prices)}


async def owe_invoice(svc: Services, regs: Registrations, user_id: int, number: int,
                      at: datetime) -> Problem | None:
    """Entry ``number``'s invoice owed to ``user_id`` (in the running operation, or one of its
    own), where the contest takes payments in the chat and the entry can be paid now;
    otherwise why not."""
    s, problem = await payable(regs, number, at)
    if problem is not None or s is None:
        return problem or Problem.UNKNOWN
    lang = await language_of(svc, user_id)
    await post_call(svc, user_id, INVOICE_METHOD, invoice_params(lang, svc.contest, s))
    return None


async def checkout(regs: Registrations, text: str, amount: int, currency: str,
                   now: datetime) -> tuple[Problem | None, int]:
    """Whether Telegram may charge ``amount`` ``currency`` for the invoice of payload ``text``
    now: (None, entry) or (why not, entry; 0 when not one of ours)."""
    found = read_payload(text)
    if found is None:
        return Problem.UNKNOWN, 0
    number, asked = found
    statuses = await regs.statuses(now, [number])
    if not statuses:
        return Problem.UNKNOWN, number
    s = statuses[0]
    closed = registration_window(regs.contest, now) == "closed"
    same = currency == regs.contest.currency and asked == cents_from(amount, currency)
    return checkout_problem(s.place, s.paid_at is not None, s.fee.total, asked, same,
                            closed), number
