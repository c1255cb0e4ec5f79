"""What the bot answers to free text, or to a command it does not know, in a private chat."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.handlers.common import caller
from bot.texts.access import not_understood as not_understood_text


async def not_understood(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Free text, or a command the bot does not know, in a private chat: one line pointing to
    the help, in the person's language (budgeted like refusals: a flood gets few answers)."""
    msg = update.effective_message
    if msg is None or msg.chat.type != "private":
        return
    first = (msg.text or "").split(maxsplit=1)[0] if (msg.text or "").strip() else ""
    if first.startswith("/") and "@" in first and \
            first.split("@", 1)[1].lower() != (context.bot.username or "").lower():
        return  # a command for another bot
    who = await caller(update, context)
    if who is None or who.svc.sender.admit(msg.chat_id) == "no":
        return
    await answer_now(who.svc, update,
                     not_understood_text(who.lang, first.startswith("/"), first))
