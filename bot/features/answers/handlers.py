"""``/respuestas [N] [R ANSWER]`` (``/reponses``, ``/answers``): an entry's people see and
change its answers that no rule reads, while registration is open and before it plays; an
organiser, any entry's until it plays. ``/respuestas N`` lists them with a button each
(``ans:N:M:Q``: member M's, or the entry's own ``e``, question Q), which offers the question's
answers as buttons (``ans:N:M:Q:K``: y/n or a choice's index); a text answer is typed:
``/respuestas N R new answer``."""

from __future__ import annotations

import re
from datetime import datetime

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.features.answers.operations import ChangeAnswer, change_answer
from bot.features.answers.rules import choice_value, row_of, rows
from bot.features.answers.texts import options, row_buttons, rows_text, usage, which_entry
from bot.handlers.common import (
    Caller,
    already_handled,
    button_moment,
    buttons,
    caller,
    not_theirs,
    parse_int,
    pressed,
    refuse_role,
)
from bot.services.outcomes import UnknownEntry
from bot.texts.access import not_followed
from bot.texts.common import refusal


async def respuestas(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    followed = list(who.roles.entries)
    if not followed and not who.roles.organiser:
        await refuse_role(update, who, "participant")
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if args else None
    row = parse_int(args[1]) if len(args) > 1 else None
    if args and number is None or len(args) == 2 or len(args) > 2 and row is None:
        await answer_now(who.svc, update, usage(who.lang))
        return
    if number is None:
        if len(followed) != 1:
            await answer_now(who.svc, update, which_entry(who.lang, followed)
                             if followed else usage(who.lang))
            return
        number = followed[0].number
    role = _role(who, number)
    if role is None:
        await answer_now(who.svc, update, not_followed(who.lang, str(number), followed))
        return
    if row is None:
        await _list(update, who, number)
        return
    if await already_handled(update, who):
        return
    await _change(update, who, number, row, _typed(update), role, who.at)


def _typed(update: Update) -> str:
    """The answer as typed after "/respuestas N R", line breaks kept (so that a text on two
    lines is refused as registration refuses it)."""
    msg = update.effective_message
    found = _AFTER_ROW.match(msg.text or "") if msg is not None else None
    return found.group(1) if found else ""


_AFTER_ROW = re.compile(r"\S+\s+\S+\s+\S+[ \t]*(.*)\Z", re.DOTALL)


def _role(who: Caller, number: int) -> str | None:
    """As whom the person changes entry ``number``'s answers (None: they may not): an
    organiser always as one, even for an entry their phone follows."""
    if who.roles.organiser:
        return "organiser"
    return "participant" if number in {e.number for e in who.roles.entries} else None


async def _list(update: Update, who: Caller, number: int) -> None:
    entry = await who.svc.store.entry(number)
    contest = who.svc.contest
    if entry is None:
        await answer_now(who.svc, update, refusal(who.lang, UnknownEntry(number), contest))
        return
    found = rows(contest, entry.category, entry.members, entry.values)
    await answer_now(who.svc, update, rows_text(who.lang, contest, entry, found),
                     reply_markup=buttons(row_buttons(who.lang, contest, entry, found))
                     if found else None)


async def _change(update: Update, who: Caller, number: int, row: int, value: str, role: str,
                  at: datetime, chosen: bool = False) -> None:
    name = update.effective_user.full_name if update.effective_user is not None else ""
    await change_answer(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                        ChangeAnswer(number, row, value, who.user_id, role, name, who.lang,
                                     at, update.update_id, chosen))


async def answer_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``ans:N:M:Q`` offers the answers of member M's (``e``: the entry's) question Q;
    ``ans:N:M:Q:K`` makes K the answer (stamped as the message it was under)."""
    data, who = await pressed(update, context)
    if who is None:
        return
    parts = data.split(":")
    number = parse_int(parts[1]) if len(parts) in (4, 5) else None
    if number is None:
        return  # not a button of ours
    role = _role(who, number)
    if role is None:
        await not_theirs(update, who, number)
        return
    entry = await who.svc.store.entry(number)
    contest = who.svc.contest
    found = rows(contest, entry.category, entry.members, entry.values) if entry else []
    k = row_of(found, parts[2], parts[3])
    if entry is None or k is None:
        return  # an old list's button: the entry changed since
    row = found[k - 1]
    if len(parts) == 4:
        text, keys = options(who.lang, contest, entry, k, row)
        await answer_now(who.svc, update, text, reply_markup=buttons(keys) if keys else None)
        return
    value = choice_value(contest.questions[row.question], parts[4])
    at = button_moment(update, context, await who.svc.day.linked_users(number))
    if value is None or at is None or await already_handled(update, who):
        return
    await _change(update, who, number, k, value, role, at, chosen=True)
