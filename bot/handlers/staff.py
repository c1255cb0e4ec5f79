"""Volunteers (/etapa, /escape) and organisers (/inicio, /pausa, /reanudar, /anuncio,
/voluntario, /organizador); results (/fin, /piezas, /clasificacion...) are in results.py."""

from __future__ import annotations

import math

from telegram import Update
from telegram.ext import ContextTypes

from bot.domain.clock import (
    format_duration,
)
from bot.handlers.common import (
    notify_entry,
    parse_int,
    recorder,
    recording,
    reply,
    send,
    show_usage,
)
from bot.handlers.jobs import schedule_contest_jobs
from bot.handlers.volunteers import number_and_time
from bot.handlers.volunteers import refuse as _refuse
from bot.handlers.volunteers import role as _role
from bot.services.outcomes import Refusal
from bot.storage.store import PRIORITY_BULK
from bot.support.i18n import tr
from bot.texts.common import (
    clock_name,
    refusal,
)


async def etapa(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    usage = "/etapa N S"
    if len(args) != 2 or parse_int(args[0]) is None or parse_int(args[1]) is None:
        await show_usage(update, who, usage)
        return
    number, stage = parse_int(args[0]), parse_int(args[1])
    assert number is not None and stage is not None
    async with recording(who.svc):
        out = await who.svc.day.confirm_stage(
            who.user_id, _role(who), number, stage, who.at, update.update_id
        )
        if isinstance(out, Refusal):
            await _refuse(update, who, out)
            return
        await reply(update, tr(who.lang, "Entry {entry} confirmed in stage {stage} at {time}.",
                               entry=number, stage=stage, time=format_duration(out.time)))


async def escape(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    parsed = await number_and_time(update, who, list(context.args or []), "/escape N [h:mm:ss]")
    if parsed is None:
        return
    number, typed = parsed
    async with recording(who.svc):
        out = await who.svc.day.solve(
            who.user_id, _role(who), number, typed, who.at, update.update_id
        )
        if isinstance(out, Refusal):
            await _refuse(update, who, out)
            return
        t = format_duration(out.time)
        if out.corrected:
            text = tr(who.lang, "Entry {entry}: escape time corrected from {old} to {time}.",
                      entry=number, old=format_duration(out.old or 0), time=t)
        else:
            text = tr(who.lang, "Entry {entry} solved the escape at {time}: hand over the "
                      "puzzle.", entry=number, time=t)
        await reply(update, text)
        await notify_entry(context, number, lambda lang: tr(
            lang, "Escape solved at {time}! Now the puzzle: when you finish it, send /listo.",
            time=t))


# -- organisers ------------------------------------------------------------------------------


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
        out = await who.svc.day.start_clock(who.user_id, chosen, who.at, update.update_id)
        if isinstance(out, Refusal):
            await _refuse(update, who, out)
            return
        started = ", ".join(clock_name(who.lang, contest, cid) for cid in out.started)
        text = tr(who.lang, "Clock started for: {categories}.", categories=started)
        for heat_id in out.later:  # a heat of another day or hour: not started with the rest
            text += "\n" + refusal(who.lang, who.svc.day.not_yet(heat_id, who.at), contest)
        for waits in out.behind:  # the next heat at a venue whose heat is still played
            text += "\n" + refusal(who.lang, waits, contest)
        await reply(update, text)
    await schedule_contest_jobs(context.application)


async def pausa(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    async with recording(who.svc):
        out = await who.svc.day.pause(who.user_id, who.at, update.update_id)
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
        out = await who.svc.day.resume(who.user_id, who.at, update.update_id)
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
        await tx.add_event(at=who.at, kind="announcement", role="organiser",
                           actor=who.user_id, data={"text": text, "recipients": len(users)},
                           update_id=update.update_id)
        for user_id in users:
            await send(context, user_id, "📣 " + text, PRIORITY_BULK)
        # Telegram takes about 30 messages a second from a bot, fewer while people ask
        await reply(update, tr(who.lang, "Announcement recorded: it goes to {count} people, "
                               "in about {seconds} s.", count=len(users),
                               seconds=max(1, math.ceil(len(users) / 25))))


async def voluntario(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    async with recording(who.svc):
        code = await who.svc.day.create_invite(who.user_id, who.at, update.update_id)
        link = f"https://t.me/{context.bot.username}?start={code}"
        await reply(update, tr(who.lang, "Invitation for one volunteer (works once): {link}",
                               link=link))


async def organizador(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    async with recording(who.svc):
        code = await who.svc.day.create_organiser_invite(who.user_id, who.at, update.update_id)
        link = f"https://t.me/{context.bot.username}?start={code}"
        await reply(update, tr(who.lang, "Invitation for one more organiser (works once; whoever "
                               "opens it can do everything you can): {link}", link=link))
