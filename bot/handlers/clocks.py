"""The clocks in the chat: the organisers' /inicio, /pausa, /reanudar, and /anuncio to
everyone following an entry."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import send
from bot.domain.events import EventKind
from bot.handlers.common import Callback, recorder, show_usage
from bot.handlers.jobs import schedule_contest_jobs
from bot.handlers.volunteers import refuse as _refuse
from bot.services import clocks as service
from bot.services.outcomes import Refusal
from bot.storage.store import PRIORITY_BULK
from bot.texts import clocks as texts


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
            await answer_now(who.svc, update,
                             texts.unknown_category(who.lang, contest, who.svc.day.heats))
            return
    async with recording(who.svc):
        out = await service.start_clock(who.svc.day, who.user_id, chosen, who.at,
                                        update.update_id)
        if isinstance(out, Refusal):
            await _refuse(update, who, out)
            return
        # a heat of another day or hour: not started with the rest
        later = [service.not_yet(who.svc.day, heat_id, who.at) for heat_id in out.later]
        await answer(who.svc, update, texts.clocks_started(who.lang, contest, out, later))
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
        await answer(who.svc, update, texts.paused(who.lang))
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
        await answer(who.svc, update, texts.resumed(who.lang))
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
            await send(context, user_id, texts.announcement(text), PRIORITY_BULK)
        await answer(who.svc, update, texts.announcement_recorded(who.lang, len(users)))


# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "inicio": inicio,
    "pausa": pausa,
    "reanudar": reanudar,
    "anuncio": anuncio,
}
