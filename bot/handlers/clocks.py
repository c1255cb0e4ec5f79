"""The clocks in the chat: the organisers' /inicio, /pausa, /reanudar, and /anuncio to
everyone following an entry."""

from __future__ import annotations

import math

from telegram import Update
from telegram.ext import ContextTypes

from bot.domain.events import EventKind
from bot.handlers.common import recorder, recording, reply, send, show_usage
from bot.handlers.jobs import schedule_contest_jobs
from bot.handlers.volunteers import refuse as _refuse
from bot.services import clocks as service
from bot.services.outcomes import Refusal
from bot.storage.store import PRIORITY_BULK
from bot.support.i18n import tr
from bot.texts.common import clock_name, refusal


async def inicio(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    contest = who.svc.contest
    args = list(context.args or [])
    chosen = None
    if args:
        chosen = args[0].lower()
        if (contest.category(chosen) is None and chosen not in who.svc.day.heats) \
                or len(args) > 1:
            await reply(update, tr(who.lang, "Unknown category. Categories: {ids}",
                                   ids=", ".join([c.id for c in contest.categories]
                                                 + list(who.svc.day.heats))))
            return
    async with recording(who.svc):
        out = await service.start_clock(who.svc.day, who.user_id, chosen, who.at,
                                        update.update_id)
        if isinstance(out, Refusal):
            await _refuse(update, who, out)
            return
        started = ", ".join(clock_name(who.lang, contest, cid) for cid in out.started)
        text = tr(who.lang, "Clock started for: {categories}.", categories=started)
        for heat_id in out.later:  # a heat of another day or hour: not started with the rest
            text += "\n" + refusal(who.lang, service.not_yet(who.svc.day, heat_id, who.at),
                                   contest)
        for waits in out.behind:  # the next heat at a venue whose heat is still played
            text += "\n" + refusal(who.lang, waits, contest)
        await reply(update, text)
    await schedule_contest_jobs(context.application)


async def pausa(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    async with recording(who.svc):
        out = await service.pause(who.svc.day, who.user_id, who.at, update.update_id)
        if isinstance(out, Refusal):
            await _refuse(update, who, out)
            return
        await reply(update, tr(who.lang, "Break: every clock is paused. /reanudar to go on."))
    await schedule_contest_jobs(context.application)


async def reanudar(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    async with recording(who.svc):
        out = await service.resume(who.svc.day, who.user_id, who.at, update.update_id)
        if isinstance(out, Refusal):
            await _refuse(update, who, out)
            return
        await reply(update, tr(who.lang, "The clocks run again."))
    await schedule_contest_jobs(context.application)


async def anuncio(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An organiser's announcement to every linked participant: recorded with one message
    owed to each of them, sent from the outbox after the more urgent ones."""
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    msg = update.effective_message
    assert msg is not None
    text = (msg.text or "").partition(" ")[2].strip()
    if not text:
        await show_usage(update, who, "/anuncio TEXT")
        return
    text = text[:3500]
    users = await who.svc.day.participants()
    async with recording(who.svc) as tx:
        await tx.add_event(at=who.at, kind=EventKind.ANNOUNCEMENT, role="organiser",
                           actor=who.user_id, data={"text": text, "recipients": len(users)},
                           update_id=update.update_id)
        for user_id in users:
            await send(context, user_id, "📣 " + text, PRIORITY_BULK)
        # Telegram takes about 30 messages a second from a bot, fewer while people ask
        await reply(update, tr(who.lang, "Announcement recorded: it goes to {count} people, "
                               "in about {seconds} s.", count=len(users),
                               seconds=max(1, math.ceil(len(users) / 25))))
