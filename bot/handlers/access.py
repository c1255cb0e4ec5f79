"""Who is who in the chat: /start (an entry's link, a volunteer's or an organiser's
invitation), /ayuda, /idioma, the organisers' /voluntario and /organizador, and which entry a
participant's command is about."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.domain.events import EventKind
from bot.features.following.handlers import follow_by_card
from bot.features.registration.names import REGISTER_BUTTON
from bot.features.registration.rules import registration_window
from bot.handlers.commands import menu, view_for
from bot.handlers.common import (
    Callback,
    Caller,
    already_handled,
    caller,
    owed_on_follow,
    parse_int,
    recorder,
    refuse_role,
    remember,
)
from bot.handlers.menus import refresh_menu
from bot.services import access as service
from bot.services.outcomes import Refusal
from bot.storage.store import Entry
from bot.support.i18n import LANGUAGES
from bot.texts import access as texts
from bot.texts.common import refusal


def help_text(who: Caller) -> str:
    # what their menu shows, and the registration's commands while registration is open
    view = view_for(who.svc.contest, who.at, who.roles.name,
                    [e.category for e in who.roles.entries])
    return texts.help_text(who.lang, who.svc.contest, who.roles.entries,
                           menu(who.roles.name, who.lang, view))


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    code = context.args[0] if context.args else ""
    if not code:
        known = bool(who.roles.entries or who.roles.staff)
        # while registration is open, a stranger (or a parent registering another child)
        # is offered it first, as a button
        registering = registration_window(who.svc.contest, who.at) is None
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton(
            texts.register_button(who.lang), callback_data=REGISTER_BUTTON)]])
        hello = texts.hello(who.lang, known, help_text(who), registering)
        if registering:
            await answer_now(who.svc, update, hello, reply_markup=keyboard)
        else:
            await answer_now(who.svc, update, hello)
        await refresh_menu(context, who.user_id)
        return
    if await already_handled(update, who):
        return
    if code.startswith("o"):
        await _join(update, context, who, code, organiser=True)
        return
    if code.startswith("v"):
        await _join(update, context, who, code, organiser=False)
        return
    if await follow_by_card(update, context, who, code):  # a table card's: it asks
        return
    async with recording(who.svc):
        out = await service.link(who.svc.day, who.user_id, code, who.at, update.update_id)
        if isinstance(out, Refusal):
            await answer_now(who.svc, update, refusal(who.lang, out, who.svc.contest))
            return
        await remember(update, context)
        said = texts.linked(who.lang, who.svc.contest, out.entry, out.already)
        if out.already:  # nothing recorded
            await answer_now(who.svc, update, said)
        else:
            await answer(who.svc, update, said)
            await owed_on_follow(who.svc, who.user_id, out.entry.number, who.at)
    await refresh_menu(context, who.user_id)


async def _join(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller, code: str,
                organiser: bool) -> None:
    """An invitation opened: as a volunteer, or as an organiser (``organiser``)."""
    join = service.join_organiser if organiser else service.join_volunteer
    async with recording(who.svc):
        joined = await join(who.svc.day, who.user_id, code, who.at, update.update_id)
        if isinstance(joined, Refusal):
            await answer_now(who.svc, update, refusal(who.lang, joined, who.svc.contest))
            return
        await remember(update, context)
        if joined.already:
            await answer_now(who.svc, update, texts.already_organiser(who.lang) if organiser
                             else texts.already_volunteer(who.lang))
        else:
            welcome = texts.welcome_organiser if organiser else texts.welcome_volunteer
            await answer(who.svc, update, welcome(
                who.lang, help_text(await caller(update, context) or who)))
    await refresh_menu(context, who.user_id)


async def ayuda(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    await answer_now(who.svc, update, help_text(who))


async def idioma(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    if context.args:
        choice = context.args[0].lower()[:2]
        if choice not in LANGUAGES:
            await answer_now(who.svc, update, texts.languages_usage(who.lang))
            return
        await set_language(update, context, who, choice)
        return
    buttons = [[InlineKeyboardButton(texts.LANGUAGE_NAMES[code], callback_data=f"lang:{code}")
                for code in LANGUAGES]]
    await answer_now(who.svc, update, texts.choose_language(who.lang),
                     reply_markup=InlineKeyboardMarkup(buttons))


async def set_language(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                       choice: str) -> None:
    await who.svc.store.set_language(who.user_id, choice)
    await refresh_menu(context, who.user_id)
    await answer_now(who.svc, update, texts.language_set(choice))


async def language_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    who = await caller(update, context)
    choice = query.data.split(":", 1)[1]
    if who is None or choice not in LANGUAGES:
        return
    await set_language(update, context, who, choice)


async def pick_entry(
    update: Update, who: Caller, args: list[str], escape_only: bool, takes_stage: bool = False
) -> tuple[Entry | None, list[str]]:
    """The entry a participant command is about, and the arguments left.

    An entry number comes first when given (``/listo 12``); without one,
    the only entry the person follows (of the right kind). For a command that takes a stage
    (``takes_stage``) a lone number is the stage.
    """
    contest = who.svc.contest
    followed = list(who.roles.entries)
    if not followed:
        await refuse_role(update, who, "participant")
        return None, args

    def has_escape(e: Entry) -> bool:
        c = contest.category(e.category)
        return c is not None and c.escape

    explicit = args[0] if (len(args) >= 2 if takes_stage else len(args) >= 1) else None
    if explicit is not None:
        number = parse_int(explicit)
        chosen = next((e for e in followed if e.number == number), None)
        if chosen is None:
            await answer_now(who.svc, update, texts.not_followed(who.lang, explicit, followed))
            return None, args
        if escape_only and not has_escape(chosen):
            await answer_now(who.svc, update,
                             texts.entry_without_escape(who.lang, chosen.number))
            return None, args
        return chosen, args[1:]
    candidates = [e for e in followed if not escape_only or has_escape(e)]
    if not candidates:
        await answer_now(who.svc, update, texts.no_escape_entry(who.lang))
        return None, args
    if len(candidates) == 1:
        return candidates[0], args
    msg = update.effective_message
    command = (msg.text or "/").split()[0][1:].split("@")[0] if msg is not None else ""
    await answer_now(who.svc, update, texts.which_entry(who.lang, candidates, command))
    return None, args


async def voluntario(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    async with recording(who.svc):
        code = await service.create_invite(who.svc.day, who.user_id, who.at, update.update_id)
        # the first invitation an organiser makes says where the volunteers' lines go
        first = len(await who.svc.store.events(kinds=[EventKind.VOLUNTEER_INVITE],
                                               actor=who.user_id)) == 1
        invite = texts.volunteer_invite(who.lang, context.bot.username, code)
        if first:
            invite = texts.volunteers_lines_note(
                who.lang, who.svc.config.volunteer_chat is not None) + "\n\n" + invite
        await answer(who.svc, update, invite)


async def organizador(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    async with recording(who.svc):
        code = await service.create_organiser_invite(who.svc.day, who.user_id, who.at,
                                                     update.update_id)
        await answer(who.svc, update,
                     texts.organiser_invite(who.lang, context.bot.username, code))


# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "start": start,
    "ayuda": ayuda,
    "idioma": idioma,
    "voluntario": voluntario,
    "organizador": organizador,
}
