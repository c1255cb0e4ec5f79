"""Each role's command menu, per language (set_my_commands with BotCommandScopeChat), and the
bot's description: what the empty chat says before anyone writes."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from telegram import BotCommand, BotCommandScopeAllPrivateChats, BotCommandScopeChat
from telegram.error import TelegramError
from telegram.ext import Application, CallbackContext, ContextTypes

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
    language, and in the contest's for a phone in another language: registering while
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


# A person's menu is one setMyCommands for their chat (and, the first time this run, the
# deletes of the per-language lists older bots set there: 8 calls). Changes close together
# (one person switching language 60 times) are coalesced per chat: the first is sent at once;
# one within MENU_SETTLE seconds of the chat's last menu waits, under a named job per chat,
# until the chat's changes have settled (each change puts it off again), and then only the
# latest menu, read from the database then, is sent. A clean stop sends the menus still waiting
# (``send_waiting_menus``).
MENU_SETTLE = 5.0
MENU_JOB = "menu:"


def menu_settle(app: Application[Any, Any, Any, Any, Any, Any]) -> float:
    """Seconds (on the bot's clock) a chat's menu changes settle: ``MENU_SETTLE`` where the
    bot paces itself within Telegram's limits, none against a Bot API without limits (the
    tests' fake), unless ``bot_data["menu_settle"]`` says otherwise."""
    chosen = app.bot_data.get("menu_settle")
    if chosen is not None:
        return float(chosen)
    return MENU_SETTLE if app.bot.rate_limiter is not None else 0.0


async def refresh_menu(context: ContextTypes.DEFAULT_TYPE, user_id: int) -> None:
    """Show this person the menu of their role (after linking, joining or changing language):
    at once, or once the chat's changes settle (see ``MENU_SETTLE``)."""
    app = context.application
    waiting: set[int] = app.bot_data.setdefault("menus_waiting", set())
    sent: dict[int, datetime] = app.bot_data.setdefault("menus_sent", {})
    settle = menu_settle(app)
    now = CLOCK.now()
    last = sent.get(user_id)
    if user_id not in waiting and (last is None or (now - last).total_seconds() >= settle):
        await send_menu(context, user_id)
        return
    waiting.add(user_id)
    replace_job(app, MENU_JOB + str(user_id), menu_job, now + timedelta(seconds=settle),
                {"user": user_id})


async def menu_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """A chat's menu changes have settled: its latest menu, as the database says now."""
    job = context.job
    data = job.data if job is not None and isinstance(job.data, dict) else {}
    user_id = int(data["user"])
    context.application.bot_data.setdefault("menus_waiting", set()).discard(user_id)
    await send_menu(context, user_id)


# How long a clean stop gives the menus still settling (``send_waiting_menus``), in seconds:
# a Telegram out of reach does not hold the stop longer.
MENU_STOP_WAIT = 10.0


async def send_waiting_menus(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """A clean stop (the application's ``post_stop``, before its bot shuts down): the menus
    still settling are sent now, each chat's latest as the database says it, since their jobs
    live in memory only and stopped with the job queue (the stop within ``MENU_SETTLE`` of a
    change lost the chat's final menu). ``MENU_STOP_WAIT`` seconds at most."""
    waiting: set[int] = app.bot_data.get("menus_waiting", set())
    if not waiting:
        return
    context: ContextTypes.DEFAULT_TYPE = CallbackContext(app)
    left = sorted(waiting)
    try:
        async with asyncio.timeout(MENU_STOP_WAIT):
            while left:
                waiting.discard(left[0])
                await send_menu(context, left[0])
                left.pop(0)
    except TimeoutError:
        log.warning("stopping: %d chats' menus not set (Telegram did not answer in time)",
                    len(left))


async def send_menu(context: ContextTypes.DEFAULT_TYPE, user_id: int) -> None:
    """The menu of this person's role now, in their language now, set for their chat."""
    svc = services(context)
    bot_data = context.application.bot_data
    bot_data.setdefault("menus_sent", {})[user_id] = CLOCK.now()
    cleared: set[int] = bot_data.setdefault("menus_cleared", set())
    roles = await svc.day.roles(user_id)
    role = roles.name if roles.name != "stranger" else "participant"
    try:
        # one list for the chat, in the person's language (their /idioma choice): Telegram
        # looks up "this chat in the phone's language" before "this chat", so a list per
        # language would win over the choice; those older bots set are deleted (once a run)
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
        if user_id not in cleared:
            for lang in LANGUAGES:
                await context.bot.delete_my_commands(scope=BotCommandScopeChat(user_id),
                                                     language_code=lang)
            cleared.add(user_id)
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
