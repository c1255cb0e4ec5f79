"""A pair's /listo (/fini, /done): "we have finished the puzzle", in any contest (after the
escape where there is one; at home, the photo comes next)."""

from __future__ import annotations

from dataclasses import replace

from telegram import Update
from telegram.ext import ContextTypes

import bot.features.selftimed.day as selftimed
from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import notify_staff
from bot.features.results.handlers import ready_keyboard
from bot.features.results.texts import ready_staff_line
from bot.features.selftimed.texts import past_limit_at_home, ready_noted
from bot.handlers.access import pick_entry
from bot.handlers.common import (
    Callback,
    Caller,
    already_handled,
    buttons,
    caller,
    parse_int,
    pressed,
)
from bot.services.outcomes import EscapeNotOver, PastLimit, Refusal
from bot.services.ready import ready
from bot.storage.store import Entry
from bot.support.i18n import tr
from bot.texts import ready as texts
from bot.texts.common import refusal
from bot.texts.names import names
from bot.texts.ready import which_finished


async def listo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/listo [N]``: the entry finished, at the message's moment. A phone following several
    entries is asked which, with a button each (a 12-year-old on a parent's phone taps, types
    no number); the tap counts at the question's moment, seconds after the /listo."""
    who = await caller(update, context)
    if who is None:
        return
    args = list(context.args or [])
    if not args and len(who.roles.entries) > 1:
        await _ask_which(update, who)
        return
    entry, _ = await pick_entry(update, who, args, escape_only=False)
    if entry is None:
        return
    if await already_handled(update, who):
        return
    await _ready(update, context, who, entry, update.update_id)


LISTO_BUTTON = "listo:"  # "listo:<entry>:<the /listo's update id>": which entry finished


async def _ask_which(update: Update, who: Caller) -> None:
    entries = sorted(who.roles.entries, key=lambda e: e.number)
    rows = [[(f"#{e.number} {names(e.names)}", f"{LISTO_BUTTON}{e.number}:{update.update_id}")]
            for e in entries]
    await answer_now(who.svc, update, which_finished(who.lang), reply_markup=buttons(rows))


async def listo_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An entry tapped under "Which of your entries has finished?": its /listo, at the moment
    the question was shown (Telegram's date: not forgeable), once per question."""
    data, who = await pressed(update, context)
    parts = data.removeprefix(LISTO_BUTTON).split(":")
    number = parse_int(parts[0]) if len(parts) == 2 else None
    asked = parse_int(parts[1]) if len(parts) == 2 else None
    query = update.callback_query
    shown = query.message.date if query is not None and query.message is not None else None
    if who is None or number is None or asked is None or shown is None:
        return  # not a button of ours, or nobody the bot can serve
    entry = next((e for e in who.roles.entries if e.number == number), None)
    if entry is None:
        return  # no longer followed
    if await who.svc.day.already_handled(asked):
        await answer_now(who.svc, update, tr(who.lang, "Already recorded."))
        return
    await _ready(update, context, replace(who, at=shown), entry, asked)


async def _ready(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller, entry: Entry,
                 update_id: int) -> None:
    contest = who.svc.contest
    async with recording(who.svc):
        out = await ready(who.svc.day, who.user_id, entry.number, who.at, update_id)
        played = contest.category(entry.category)
        if isinstance(out, PastLimit) and played is not None and played.self_timed:
            await answer_now(who.svc, update, refusal(
                who.lang, selftimed.SeasonOver(entry.number, out.limit), contest)
                if played.own_start else past_limit_at_home(who.lang, out.limit))
            return
        if isinstance(out, PastLimit | EscapeNotOver):  # the participants' answer
            escape = who.svc.contest.escape
            await answer_now(who.svc, update, texts.ready_refusal(
                who.lang, out, in_chat=escape is not None and escape.in_chat))
            return
        if isinstance(out, Refusal):
            await answer_now(who.svc, update, refusal(who.lang, out, contest))
            return
        # a phone following several entries (a parent of two) reads which one finished
        which = f"#{entry.number} {names(entry.names)}: " if len(who.roles.entries) > 1 else ""
        at_home = any(c.self_timed for c in contest.categories)
        state = await who.svc.day.state(entry.number) if at_home else None
        if state is not None and state.category.self_timed:  # at home: now the photo
            code = await selftimed.code_of(who.svc.day, state)
            if state.category.own_start:  # the puzzle's own time, from its own start
                out = replace(out, time=await selftimed.claim_time(who.svc.day, state))
            await answer(who.svc, update,
                         which + ready_noted(who.lang, contest, out, who.at, code))
            return
        await answer(who.svc, update, which + texts.ready(who.lang, contest, out, who.at))
        listo = out.event_id
        await notify_staff(context, lambda lang: ready_staff_line(
            lang, contest, entry, out, who.at), keyboard=None if listo is None else (
            lambda lang: ready_keyboard(lang, entry.number, out.time, listo)))


# the commands this module answers (bot/chat/app.py registers every module's)
COMMANDS: dict[str, Callback] = {
    "listo": listo,
}
