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
from bot.handlers.common import Callback, already_handled, caller
from bot.services.outcomes import EscapeNotOver, PastLimit, Refusal
from bot.services.ready import ready
from bot.texts import ready as texts
from bot.texts.common import refusal
from bot.texts.names import names


async def listo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    entry, _ = await pick_entry(update, who, list(context.args or []), escape_only=False)
    if entry is None:
        return
    if await already_handled(update, who):
        return
    contest = who.svc.contest
    async with recording(who.svc):
        out = await ready(who.svc.day, who.user_id, entry.number, who.at,
                          update.update_id)
        played = contest.category(entry.category)
        if isinstance(out, PastLimit) and played is not None and played.self_timed:
            await answer_now(who.svc, update, refusal(
                who.lang, selftimed.SeasonOver(entry.number, out.limit), contest)
                if played.own_start else past_limit_at_home(who.lang, out.limit))
            return
        if isinstance(out, PastLimit | EscapeNotOver):  # the participants' answer
            await answer_now(who.svc, update, texts.ready_refusal(who.lang, out))
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
