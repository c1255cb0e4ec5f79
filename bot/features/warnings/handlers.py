"""``/aviso N REASON`` (``/avertissement``, ``/warning``): parsed here, recorded by
``operations.warn``."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.features.warnings.operations import Warn, warn
from bot.features.warnings.texts import usage
from bot.handlers.common import parse_int, recorder
from bot.handlers.volunteers import role


async def aviso(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if args else None
    reason = " ".join(args[1:])
    if number is None or not reason.strip():
        await answer_now(who.svc, update, usage(who.lang))
        return
    await warn(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
               Warn(number, reason, who.user_id, role(who), who.at, update.update_id))
