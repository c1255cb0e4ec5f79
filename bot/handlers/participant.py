"""What the bot answers to free text, or to a command it does not know, in a private chat."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.handlers.common import (
    caller,
    reply,
    sender_for,
)
from bot.support.commands import BY_NAME
from bot.support.i18n import tr


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
    if who is None or sender_for(msg.get_bot()).admit(msg.chat_id) == "no":
        return
    help_name = BY_NAME["ayuda"].name_in(who.lang)
    if (msg.text or "").startswith("/"):
        text = tr(who.lang, "I don't know that command. /{help} lists what you can do.",
                  help=help_name)
    else:
        text = tr(who.lang, "I only understand commands. /{help} lists what you can do.",
                  help=help_name)
    await reply(update, text)
