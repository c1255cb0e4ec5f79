"""Each role's command menu, per language (set_my_commands with BotCommandScopeChat), and the
bot's description: what the empty chat says before anyone writes."""

from __future__ import annotations

import logging
from datetime import datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from telegram import BotCommand, BotCommandScopeAllPrivateChats, BotCommandScopeChat
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes

from bot.delivery.services import language_of, services
from bot.domain.contest import Contest
from bot.handlers.commands import menu, view_for
from bot.handlers.common import replace_job
from bot.support.i18n import LANGUAGES
from bot.support.wallclock import CLOCK
from bot.texts.common import bot_description, bot_short_description

log = logging.getLogger(__name__)


async def set_default_menus(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Before anyone has a role: the menu of someone who follows no entry yet, in each phone's
    language, and in the contest's for a phone in another language: /inscribir while
    registration is open, the round's heats in a contest in rounds. The bot's description in
    the same languages. The volunteers' group gets the volunteers' commands."""
    contest = app.bot_data["contest"]
    view = view_for(contest, CLOCK.now(), "stranger", [])
    for lang in LANGUAGES:
        commands = [BotCommand(n, d) for n, d in menu("stranger", lang, view)]
        await app.bot.set_my_commands(commands, scope=BotCommandScopeAllPrivateChats(),
                                      language_code=lang)
    await app.bot.set_my_commands(
        [BotCommand(n, d) for n, d in menu("stranger", contest.language, view)],
        scope=BotCommandScopeAllPrivateChats(),
    )
    for code in (*LANGUAGES, None):  # None: a phone in another language
        in_lang = code or contest.language
        await app.bot.set_my_description(
            bot_description(in_lang, contest, view.registering), language_code=code)
        await app.bot.set_my_short_description(
            bot_short_description(in_lang, contest), language_code=code)
    group = app.bot_data["config"].volunteer_chat
    if group is not None:
        staff = view_for(contest, CLOCK.now(), "volunteer", [])
        await app.bot.set_my_commands(
            [BotCommand(n, d) for n, d in menu("volunteer", contest.language, staff)],
            scope=BotCommandScopeChat(group),
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
        # registration's own commands are left out of a chat's menu (a menu set weeks before
        # would still offer them on the contest day); /ayuda lists them while registration is
        # open, and the default menu follows the registration's opening and closing
        view = view_for(svc.contest, CLOCK.now(), role, [e.category for e in roles.entries],
                        registering=False)
        await context.bot.set_my_commands(
            [BotCommand(n, d) for n, d in menu(role, own, view)],
            scope=BotCommandScopeChat(user_id),
        )
        for lang in LANGUAGES:
            await context.bot.delete_my_commands(scope=BotCommandScopeChat(user_id),
                                                 language_code=lang)
    except TelegramError as exc:
        log.warning("could not set the menu of %s: %s", user_id, exc.__class__.__name__)


MENU_CHANGE = "menus:"


def schedule_menu_changes(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The default menu and description change when registration opens and closes and when the
    contest day begins: a named job at each of those moments still ahead sets them again."""
    contest: Contest = app.bot_data["contest"]
    rules = contest.registration
    day_begins = datetime.combine(contest.date, time(0), ZoneInfo(contest.timezone))
    now = CLOCK.now()
    for name, moment in (("members_open", rules.members_open), ("opens", rules.opens),
                         ("closes", rules.closes), ("contest_day", day_begins)):
        if moment is not None and moment > now:
            replace_job(app, MENU_CHANGE + name, menu_change_job, moment, {"name": name})


async def menu_change_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    try:
        await set_default_menus(context.application)
    except TelegramError as exc:
        log.warning("could not change the default menu: %s", exc.__class__.__name__)
