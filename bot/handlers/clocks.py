"""The clocks in the chat: the organisers' /inicio, /pausa, /reanudar, and /anuncio to
everyone following an entry (or once in the announcements channel)."""

from __future__ import annotations

from datetime import datetime

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.announcements import post_announcement
from bot.delivery.answers import answer, answer_now, recording
from bot.domain.events import EventKind
from bot.features.escape.play import first_enigmas
from bot.features.registration.draft import persist_soon
from bot.features.selftimed.handlers import send_codes
from bot.handlers.common import (
    Callback,
    Caller,
    answered_question,
    button_moment,
    buttons,
    choice_buttons,
    named_unit,
    organiser,
    recorder,
    show_usage,
)
from bot.handlers.jobs import schedule_contest_jobs
from bot.handlers.volunteers import refuse as _refuse
from bot.services import clocks as service
from bot.services.outcomes import Refusal
from bot.texts import clocks as texts

START_BUTTON = "go:"  # an unknown category's buttons: go:CATEGORY starts its clock


async def inicio(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    contest = who.svc.contest
    args = list(context.args or [])
    chosen = None
    if args:
        chosen = named_unit(who.svc, args, [*(c.id for c in contest.categories),
                                            *who.svc.day.heats])
        if chosen is None:
            await answer_now(who.svc, update,
                             texts.unknown_category(who.lang, contest, who.svc.day.heats),
                             reply_markup=choice_buttons(START_BUTTON, [
                                 (c.name, c.id) for c in contest.categories]))
            return
    await _start(update, context, who, chosen, who.at)


async def start_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A category's button under /inicio's "unknown category": its clock started at the press,
    checked as the typed /inicio is (a second press: already running)."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    category = who.svc.contest.category(query.data.removeprefix(START_BUTTON))
    at = button_moment(update, context)
    if category is None or at is None:
        return
    await _start(update, context, who, category.id, at)


async def _start(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                 chosen: str | None, at: datetime) -> None:
    contest = who.svc.contest
    async with recording(who.svc):
        out = await service.start_clock(who.svc.day, who.user_id, chosen, at,
                                        update.update_id)
        if isinstance(out, Refusal):
            await _refuse(update, who, out)
            return
        # a heat of another day or hour: not started with the rest
        later = [service.not_yet(who.svc.day, heat_id, at) for heat_id in out.later]
        await answer(who.svc, update, texts.clocks_started(who.lang, contest, out, later))
        await send_codes(context, who, out.started)
        await first_enigmas(who.svc, out.started)  # the escape played in the chat
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


ANNOUNCE_BUTTON = "ann:"  # the preview's buttons: ann:DRAFT (send it), ann:- (cancel)
DRAFT_KEY = "announcement"  # the organiser's user_data: the text previewed, and its draft id


async def anuncio(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An organiser's announcement to every linked participant (or once in the announcements
    channel, ``PUZZLEBOT_ANNOUNCE_CHAT``): first a preview with how many people it reaches and
    Send / Cancel; nothing goes until Send (``announce_pressed``)."""
    who = await organiser(update, context)
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
    assert context.user_data is not None
    # the latest preview is the one its Send sends (kept with the organiser's data, saved
    # once this update is handled: a restart in between keeps it)
    context.user_data[DRAFT_KEY] = {"id": update.update_id, "text": text}
    persist_soon(update, context)
    preview = (texts.channel_preview if who.svc.config.announce_chat is not None
               else texts.announcement_preview)
    await answer_now(who.svc, update, preview(who.lang, text, len(users)),
                     reply_markup=buttons([[
                         (texts.send_button(who.lang), f"{ANNOUNCE_BUTTON}{update.update_id}"),
                         (texts.cancel_button(who.lang), f"{ANNOUNCE_BUTTON}-")]]))


async def announce_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The preview answered: Send records the announcement with one message owed to each
    participant, or one post owed in the announcements channel (in one transaction); a second
    press, or a preview outdated by a newer one, sends nothing."""
    pressed = await answered_question(update, context, ANNOUNCE_BUTTON, "organiser")
    if pressed is None:
        return
    draft_id, who = pressed
    assert context.user_data is not None
    saved = context.user_data.get(DRAFT_KEY)
    if draft_id is None:
        context.user_data.pop(DRAFT_KEY, None)
        persist_soon(update, context)
        await answer_now(who.svc, update, texts.announcement_cancelled(who.lang))
        return
    ref = f"{ANNOUNCE_BUTTON}{draft_id}"
    async with recording(who.svc) as tx:
        if await tx.has_ref(EventKind.ANNOUNCEMENT, ref):
            await answer_now(who.svc, update, texts.announcement_already_sent(who.lang))
            return
        if not isinstance(saved, dict) or saved.get("id") != draft_id:
            await answer_now(who.svc, update, texts.announcement_outdated(who.lang))
            return
        text = str(saved["text"])
        users = await who.svc.day.participants()
        at = button_moment(update, context) or who.at
        channel = who.svc.config.announce_chat
        data: dict[str, object] = {"text": text, "recipients": len(users)}
        if channel is not None:
            data["channel"] = channel
        await tx.add_event(at=at, kind=EventKind.ANNOUNCEMENT, role="organiser",
                           actor=who.user_id, ref=ref, data=data, update_id=update.update_id)
        if await post_announcement(who.svc, text, users):
            await answer(who.svc, update, texts.announcement_posted(who.lang, len(users)))
        else:
            await answer(who.svc, update, texts.announcement_recorded(who.lang, len(users)))
    context.user_data.pop(DRAFT_KEY, None)
    persist_soon(update, context)


# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "inicio": inicio,
    "pausa": pausa,
    "reanudar": reanudar,
    "anuncio": anuncio,
}
