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
    for lang in LANGUAGES:
        commands = [BotCommand(n, d) for n, d in menu("participant", lang)]
        await app.bot.set_my_commands(commands, scope=BotCommandScopeAllPrivateChats(),
                                      language_code=lang)
    await app.bot.set_my_commands(
        [BotCommand(n, d) for n, d in menu("participant", "es")],
        scope=BotCommandScopeAllPrivateChats(),
    )


async def refresh_menu(context: ContextTypes.DEFAULT_TYPE, user_id: int) -> None:
    """Show this person the menu of their role (after linking, joining or changing language)."""

    svc = services(context)
    roles = await svc.day.roles(user_id)
    role = roles.name if roles.name != "stranger" else "participant"
    try:
        for lang in LANGUAGES:
            commands = [BotCommand(n, d) for n, d in menu(role, lang, bool(roles.entries))]
            await context.bot.set_my_commands(
                commands, scope=BotCommandScopeChat(user_id), language_code=lang
            )
        own = await language_of(svc, user_id)
        await context.bot.set_my_commands(
            [BotCommand(n, d) for n, d in menu(role, own, bool(roles.entries))],
            scope=BotCommandScopeChat(user_id),
        )
    except TelegramError as exc:
        log.warning("could not set the menu of %s: %s", user_id, exc.__class__.__name__)
