"""Each role's command menu, per language (set_my_commands with BotCommandScopeChat)."""

from __future__ import annotations

import logging
from typing import Any

from telegram import BotCommand, BotCommandScopeAllPrivateChats, BotCommandScopeChat
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes

from bot.handlers.commands import menu
from bot.handlers.common import language_of, services
from bot.support.i18n import LANGUAGES

log = logging.getLogger(__name__)


async def set_default_menus(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Before anyone has a role: the participants' menu in each phone's language, and in the
    contest's for a phone in another language."""
    for lang in LANGUAGES:
        commands = [BotCommand(n, d) for n, d in menu("participant", lang)]
        await app.bot.set_my_commands(commands, scope=BotCommandScopeAllPrivateChats(),
                                      language_code=lang)
    contest_language = app.bot_data["contest"].language
    await app.bot.set_my_commands(
        [BotCommand(n, d) for n, d in menu("participant", contest_language)],
        scope=BotCommandScopeAllPrivateChats(),
    )


async def refresh_menu(context: ContextTypes.DEFAULT_TYPE, user_id: int) -> None:
    """Show this person the menu of their role (after linking, joining or changing language)."""

    svc = services(context)
    roles = await svc.day.roles(user_id)
    role = roles.name if roles.name != "stranger" else "participant"
    try:
        # one list for the chat, in the person's language (their /idioma choice): Telegram
        # looks up "this chat in the phone's language" before "this chat", so a list per
        # language would win over the choice; those older bots set are deleted
        own = await language_of(svc, user_id)
        await context.bot.set_my_commands(
            [BotCommand(n, d) for n, d in menu(role, own, bool(roles.entries))],
            scope=BotCommandScopeChat(user_id),
        )
        for lang in LANGUAGES:
            await context.bot.delete_my_commands(scope=BotCommandScopeChat(user_id),
                                                 language_code=lang)
    except TelegramError as exc:
        log.warning("could not set the menu of %s: %s", user_id, exc.__class__.__name__)
