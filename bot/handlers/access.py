"""Who is who in the chat: /start (an entry's link, a volunteer's or an organiser's
invitation), /ayuda, /idioma, the organisers' /voluntario and /organizador, and which entry a
participant's command is about."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.handlers.commands import menu, view_for
from bot.handlers.common import (
    Caller,
    already_handled,
    caller,
    parse_int,
    recorder,
    recording,
    refuse_role,
    remember,
    reply,
)
from bot.handlers.menus import refresh_menu
from bot.services import access as service
from bot.services.outcomes import Refusal
from bot.storage.store import Entry
from bot.support.i18n import LANGUAGES, tr
from bot.texts.common import names, refusal


def help_text(who: Caller) -> str:
    lang = who.lang
    lines = [tr(lang, "Puzzle contest: {name}", name=who.svc.contest.name)]
    if who.roles.entries:
        lines.append(tr(lang, "Your entries: {entries}",
                        entries=", ".join(f"#{e.number} {names(e.names)}"
                                          for e in who.roles.entries)))
    # what their menu shows, and the registration's commands while registration is open
    view = view_for(who.svc.contest, who.at, who.roles.name,
                    [e.category for e in who.roles.entries])
    for name, description in menu(who.roles.name, lang, view):
        lines.append(f"/{name} - {description}")
    if len(who.roles.entries) > 1:
        lines.append(tr(lang, "You follow several entries: put the entry number first, e.g. "
                        "/billetes {n}.", n=who.roles.entries[0].number))
    return "\n".join(lines)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    code = context.args[0] if context.args else ""
    if not code:
        text = tr(who.lang, "Hello! I run the puzzle contest on the day.")
        if not who.roles.entries and not who.roles.staff:
            text += "\n" + tr(who.lang, "To follow your entry, open the link the organisers gave "
                              "you (or scan the QR code on your table).")
        await reply(update, text + "\n\n" + help_text(who))
        await refresh_menu(context, who.user_id)
        return
    if await already_handled(update, who):
        return
    day = who.svc.day
    if code.startswith("o"):
        await _join_organiser(update, context, who, code)
        return
    if code.startswith("v"):
        async with recording(who.svc):
            joined = await service.join_volunteer(day, who.user_id, code, who.at,
                                                  update.update_id)
            if isinstance(joined, Refusal):
                await reply(update, refusal(who.lang, joined, who.svc.contest))
                return
            await remember(update, context)
            if joined.already:
                await reply(update, tr(who.lang, "You are already a volunteer."))
            else:
                await reply(update, tr(who.lang, "Welcome, volunteer! You can now record "
                                       "stages, escapes, finishes and pieces.") + "\n\n"
                            + help_text(await caller(update, context) or who))
        await refresh_menu(context, who.user_id)
        return
    async with recording(who.svc):
        out = await service.link(day, who.user_id, code, who.at, update.update_id)
        if isinstance(out, Refusal):
            await reply(update, refusal(who.lang, out, who.svc.contest))
            return
        await remember(update, context)
        await reply(update, _linked_text(who, out.entry, out.already))
    await refresh_menu(context, who.user_id)


async def _join_organiser(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                          code: str) -> None:
    async with recording(who.svc):
        joined = await service.join_organiser(who.svc.day, who.user_id, code, who.at,
                                              update.update_id)
        if isinstance(joined, Refusal):
            await reply(update, refusal(who.lang, joined, who.svc.contest))
            return
        await remember(update, context)
        if joined.already:
            await reply(update, tr(who.lang, "You are already an organiser."))
        else:
            await reply(update, tr(who.lang, "Welcome, organiser! You can now start the clocks, "
                                   "see the rankings and invite volunteers (/voluntario).")
                        + "\n\n" + help_text(await caller(update, context) or who))
    await refresh_menu(context, who.user_id)


def _linked_text(who: Caller, entry: Entry, already: bool) -> str:
    category = who.svc.contest.category(entry.category)
    text = tr(who.lang, "You follow entry #{entry} ({names}), category {category}.",
              entry=entry.number, names=names(entry.names),
              category=category.name if category else entry.category)
    if already:
        text = tr(who.lang, "You already follow entry #{entry}.", entry=entry.number)
    if category is not None and category.escape:
        text += "\n" + tr(who.lang, "During the escape: /pista for a hint, /solucion for a "
                          "solution, /billetes for your tickets. When you finish the puzzle: "
                          "/listo.")
    elif category is not None:
        text += "\n" + tr(who.lang, "When you finish the puzzle, send /listo.")
    return text


async def ayuda(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    await reply(update, help_text(who))


LANGUAGE_NAMES = {"es": "Español", "fr": "Français", "en": "English"}


async def idioma(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    if context.args:
        choice = context.args[0].lower()[:2]
        if choice not in LANGUAGES:
            await reply(update, tr(who.lang, "Languages: es, fr, en. Example: /idioma fr"))
            return
        await set_language(update, context, who, choice)
        return
    buttons = [[InlineKeyboardButton(LANGUAGE_NAMES[code], callback_data=f"lang:{code}")
                for code in LANGUAGES]]
    await reply(update, tr(who.lang, "Choose your language:"),
                reply_markup=InlineKeyboardMarkup(buttons))


async def set_language(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                       choice: str) -> None:
    await who.svc.store.set_language(who.user_id, choice)
    await refresh_menu(context, who.user_id)
    await reply(update, tr(choice, "I will write to you in English."))


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

    An entry number comes first when given (``/billetes 12``, ``/pista 12 3``); without one,
    the only entry the person follows (of the right kind). For ``/pista 3`` a lone number is the
    stage.
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
            await reply(update, tr(who.lang, "You don't follow entry {entry}. Your entries: "
                                   "{list}.", entry=explicit[:12],
                                   list=", ".join(f"#{e.number}" for e in followed)))
            return None, args
        if escape_only and not has_escape(chosen):
            await reply(update, tr(who.lang, "Entry {entry} has no escape stage.",
                                   entry=chosen.number))
            return None, args
        return chosen, args[1:]
    candidates = [e for e in followed if not escape_only or has_escape(e)]
    if not candidates:
        await reply(update, tr(who.lang, "Your entry has no escape stage."))
        return None, args
    if len(candidates) == 1:
        return candidates[0], args
    msg = update.effective_message
    command = (msg.text or "/").split()[0][1:].split("@")[0] if msg is not None else ""
    await reply(update, tr(who.lang, "You follow entries {list}: put the number first, e.g. "
                           "/{command} {n}.", list=", ".join(f"#{e.number}" for e in candidates),
                           command=command, n=candidates[0].number))
    return None, args


async def voluntario(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    async with recording(who.svc):
        code = await service.create_invite(who.svc.day, who.user_id, who.at, update.update_id)
        link = f"https://t.me/{context.bot.username}?start={code}"
        await reply(update, tr(who.lang, "Invitation for one volunteer (works once): {link}",
                               link=link))


async def organizador(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    async with recording(who.svc):
        code = await service.create_organiser_invite(who.svc.day, who.user_id, who.at,
                                                     update.update_id)
        link = f"https://t.me/{context.bot.username}?start={code}"
        await reply(update, tr(who.lang, "Invitation for one more organiser (works once; whoever "
                               "opens it can do everything you can): {link}", link=link))
