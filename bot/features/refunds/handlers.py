"""``/reembolsado N [AMOUNT]`` (``/rembourse``, ``/refunded``): an organiser records money
given back to an entry."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.features.refunds.operations import MarkRefunded, mark_refunded
from bot.features.refunds.rules import parse_cents
from bot.features.refunds.texts import usage
from bot.handlers.common import already_handled, parse_int, recorder, registrations


async def reembolsado(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if args else None
    amount = parse_cents(args[1]) if len(args) == 2 else None
    if number is None or len(args) > 2 or (len(args) == 2 and amount is None):
        await answer_now(who.svc, update, usage(who.lang))
        return
    if await already_handled(update, who):
        return
    await mark_refunded(Work(who.svc, Asker.of(update, who.user_id, who.lang)),
                        registrations(context),
                        MarkRefunded(number, amount, who.user_id, who.at, update.update_id))
