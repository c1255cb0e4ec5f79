"""``/penalizacion N KIND [COUNT]`` (a penalty added to an entry's ranking time), and
``/penalizacion N`` alone: the contest's penalty kinds as buttons, one tap records one."""

from __future__ import annotations

from datetime import datetime

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.features.penalties.operations import AddPenalties, add_penalties
from bot.features.penalties.texts import kinds_question, usage
from bot.features.results.texts import penalty_name
from bot.handlers.common import (
    Caller,
    button_moment,
    choice_buttons,
    parse_int,
    pressed,
    recorder,
    refuse_role,
)
from bot.handlers.volunteers import refuse, role
from bot.services.outcomes import UnknownEntry
from bot.support.i18n import tr

MAX_PENALTIES = 99  # penalties recorded by one /penalizacion
# under /penalizacion N's question: "pen:<the question's update id>:<entry>:<kind>"
PENALTY_BUTTON = "pen:"


async def penalizacion(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/penalizacion N KIND [COUNT]``: COUNT (1 if not given) penalties of KIND for entry N,
    added to its ranking time as the contest file says; /deshacer takes the last one back.
    ``/penalizacion N`` asks which kind, with a button for each."""
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    kinds = who.svc.contest.penalties
    number = parse_int(args[0]) if 1 <= len(args) <= 3 else None
    count = parse_int(args[2]) if len(args) == 3 else 1
    if number is not None and len(args) == 1 and kinds:
        if await who.svc.store.entry(number) is None:
            await refuse(update, who, UnknownEntry(number))
            return
        contest = who.svc.contest
        choices = [(penalty_name(who.lang, contest, k.id), f"{update.update_id}:{number}:{k.id}")
                   for k in kinds]
        await answer_now(who.svc, update, kinds_question(who.lang, number),
                         reply_markup=choice_buttons(PENALTY_BUTTON, choices, per_row=1))
        return
    if number is None or len(args) < 2 or count is None or not 1 <= count <= MAX_PENALTIES:
        await answer_now(who.svc, update, usage(who.lang, tuple(k.id for k in kinds)))
        return
    await _record(update, who, number, args[1].lower(), count, who.at, update.update_id)


async def _record(update: Update, who: Caller, number: int, kind: str, count: int,
                  at: datetime, update_id: int) -> None:
    await add_penalties(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                        AddPenalties(number, kind, count, who.user_id, role(who), at, update_id))


async def penalty_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A kind pressed under /penalizacion N's question: one penalty of it, as typed, stamped
    with the press. The penalty carries the question's update id: one question records one
    penalty, however many times (or kinds) are pressed."""
    data, who = await pressed(update, context)
    parts = data.removeprefix(PENALTY_BUTTON).split(":", 2)
    asked = parse_int(parts[0]) if len(parts) == 3 else None
    number = parse_int(parts[1]) if len(parts) == 3 else None
    if who is None or asked is None or number is None:
        return  # not a button of ours, or nobody the bot can serve
    if not who.roles.staff:
        await refuse_role(update, who, "volunteer")
        return
    if await who.svc.day.already_handled(asked):
        await answer_now(who.svc, update, tr(who.lang, "Already recorded."))
        return
    at = button_moment(update, context, await who.svc.day.linked_users(number)) or who.at
    await _record(update, who, number, parts[2], 1, at, asked)
