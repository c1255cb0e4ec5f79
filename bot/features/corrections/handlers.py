"""``/corregir [N] M NAME BIRTH`` (``/corriger``, ``/correct``): a participant corrects a
member of their own entry while registration is open; an organiser, any entry until it
plays."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.features.corrections.operations import FixMember, fix_member
from bot.features.corrections.rules import BadName, parse_fix
from bot.features.corrections.texts import usage, which_entry
from bot.features.registration.texts import name_problem_text
from bot.handlers.common import already_handled, caller, refuse_role, registrations
from bot.texts.access import not_followed


async def corregir(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    followed = list(who.roles.entries)
    if not followed and not who.roles.organiser:
        await refuse_role(update, who, "participant")
        return
    args = list(context.args or [])
    parsed = parse_fix(args) if args else None
    if parsed is None:
        await answer_now(who.svc, update, usage(who.lang, followed))
        return
    if isinstance(parsed, BadName):  # refused as registration refuses it
        await answer_now(who.svc, update, name_problem_text(who.lang, parsed.problem))
        return
    number = parsed.entry
    if number is None:
        if len(followed) != 1:
            await answer_now(who.svc, update, which_entry(who.lang, followed)
                             if followed else usage(who.lang, followed))
            return
        number = followed[0].number
    mine = number in {e.number for e in followed}
    if not mine and not who.roles.organiser:
        await answer_now(who.svc, update, not_followed(who.lang, str(number), followed))
        return
    if await already_handled(update, who):
        return
    name = update.effective_user.full_name if update.effective_user is not None else ""
    await fix_member(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                     registrations(context),
                     FixMember(number, parsed, who.user_id,
                               "participant" if mine else "organiser", name, who.at,
                               update.update_id))
