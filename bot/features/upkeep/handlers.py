"""The organisers' doctor in the chat (``/diagnostico``): the same checks as
``puzzlebot doctor``, on the running bot."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.features.upkeep import doctor
from bot.features.upkeep.texts import doctor_report
from bot.handlers.common import organiser


async def diagnostico(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await organiser(update, context)
    if who is None:
        return
    bot = context.bot
    findings = await doctor.examine(
        who.svc.config, running=True,
        asked=lambda: doctor.telegram_from_chat(bot, who.at))
    await answer_now(who.svc, update, doctor_report(who.lang, findings))
