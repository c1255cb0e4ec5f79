"""Contests played at home in the chat: the codes sent at the start signal, a participant's
photo (the start, the finished puzzle, time's up), the reviewers' buttons under it (confirm,
another photo, not finished, no code) and ``/rechazar N [reason]``. A claim is ``/listo``
(bot/handlers/ready.py); confirming it is the "FINISHED?" line's Record (``ready:ok``) or the
results' finish typed without a time."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

from telegram import Update
from telegram.ext import Application, CallbackContext, ContextTypes

import bot.features.selftimed.day as service
import bot.features.selftimed.texts as texts
from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.claims import claim_data
from bot.delivery.posting import notify_entry, notify_staff_photo
from bot.delivery.services import Services, person_name, services
from bot.delivery.work import Asker, Work
from bot.features.registration.rules import clean_note
from bot.features.results.names import READY_BUTTON, REVIEW_BUTTON
from bot.features.results.operations import settle_line, tell_not_finished
from bot.features.selftimed.day import HeldPhotoLater, PhotoKept
from bot.features.selftimed.rules import PHOTOS_NOTICE
from bot.handlers.access import pick_entry
from bot.handlers.common import (
    Caller,
    already_handled,
    caller,
    parse_int,
    pressed,
    recorder,
    refuse_role,
    replace_job,
    show_usage,
)
from bot.handlers.volunteers import refuse, role
from bot.services.outcomes import Refusal
from bot.storage.store import Entry
from bot.texts.access import not_followed
from bot.texts.common import refusal

MAX_REASON = 200


async def send_codes(context: ContextTypes.DEFAULT_TYPE, who: Caller, started: tuple[str, ...]
                     ) -> None:
    """At a self-timed start (``started``: the clocks just started), each entry's phones get
    its code; posted in the start's own transaction (``recording``), so a start is never
    without its codes."""
    for unit_id in started:
        for number, code in await service.start_codes(who.svc.day, unit_id):
            state = await who.svc.day.state(number)
            if state is None:
                continue
            start, end = state.clock.started, state.clock.instant_at(state.limit)
            span = (start, end) if start is not None and end is not None else None
            contest = who.svc.contest
            await notify_entry(context, number, partial(
                texts.start_notice, category=state.category, code=code, contest=contest,
                span=span) if code else partial(
                texts.season_notice, category=state.category, contest=contest, span=span))


async def empiezo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/empiezo [P]``: the entry starts puzzle P (or the one left) at its own moment, where
    each entry starts each puzzle itself; its code for it is drawn now."""
    who = await caller(update, context)
    if who is None:
        return
    entry, rest = await pick_entry(update, who, list(context.args or []), escape_only=False,
                                   takes_stage=True)
    if entry is None or await already_handled(update, who):
        return
    asked = parse_int(rest[0]) if rest else None
    if rest and asked is None:
        await show_usage(update, who, "/empiezo [P]")
        return
    async with recording(who.svc):
        out = await service.begin(who.svc.day, who.user_id, entry.number, asked, who.at,
                                  update.update_id)
        if isinstance(out, Refusal):
            await answer_now(who.svc, update, refusal(who.lang, out, who.svc.contest))
            return
        await answer(who.svc, update, texts.own_started(who.lang, who.svc.contest, out, who.at))


def review_keyboard(lang: str, entry: int, time: int, listo: int) -> list[list[tuple[str, str]]]:
    """Under a reviewer's photo of a finish claimed at ``time`` (the /listo ``listo``): first
    "I'll check it" (the review is claimed as a volunteers' line is: two reviewers never
    decide one photo apart), then the decisions."""
    return [[(texts.review_claim_button(lang, entry), claim_data(entry, listo))],
            [(texts.confirm_button(lang, entry, time), f"{READY_BUTTON}ok:{entry}:{listo}")],
            [(texts.retake_button(lang), f"{REVIEW_BUTTON}again:{entry}:{listo}")],
            [(texts.reject_button(lang, "not_done"), f"{READY_BUTTON}no:{entry}:{listo}"),
             (texts.reject_button(lang, "no_code"), f"{REVIEW_BUTTON}nocode:{entry}:{listo}")]]


async def on_photo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A participant's photo: kept as what it is for (the start, a claim's evidence, time's
    up), and a claim's or time's up's photo goes to the reviewers with their buttons."""
    who = await caller(update, context)
    msg = update.effective_message
    if who is None or msg is None or not msg.photo:
        return
    entry = await _photo_entry(update, who, msg.caption or "")
    if entry is None or await already_handled(update, who):
        return
    biggest = msg.photo[-1]  # Telegram lists the sizes smallest first
    contest = who.svc.contest
    async with recording(who.svc):
        out = await service.photo(who.svc.day, who.user_id, entry.number, biggest.file_id,
                                  biggest.file_unique_id, who.at, update.update_id)
        if isinstance(out, Refusal):
            await answer_now(who.svc, update, refusal(who.lang, out, contest))
            return
        await answer(who.svc, update, texts.photo_answer(who.lang, out))
        if out.forwarded:  # a repeat, or one over the entry's budget, is only kept
            await _to_reviewers(context, who.svc, entry, out)
        if out.due is not None:  # held back: it goes on by itself when the budget frees
            schedule_held_photo(context.application, entry.number, out.due)


async def _to_reviewers(context: ContextTypes.DEFAULT_TYPE, svc: Services, entry: Entry,
                        out: PhotoKept) -> None:
    state = await svc.day.state(entry.number)
    claimed_at = state.ready.at if state is not None and state.ready is not None else None
    listo = out.ready_event
    await notify_staff_photo(
        context, out.file_id,
        lambda lang: texts.review_caption(lang, svc.contest, entry, out, claimed_at),
        keyboard=None if listo is None else (
            lambda lang: review_keyboard(lang, entry.number, out.time, listo)))


# -- photos held back, forwarded when the entry's budget frees ----------------------------------


def schedule_held_photo(app: Application[Any, Any, Any, Any, Any, Any], number: int,
                        when: datetime) -> None:
    """Entry ``number``'s photo held back goes on at ``when`` (``held_photo_job``): one job
    per entry (``photos:N``), moved by each photo held back since."""
    replace_job(app, f"{PHOTOS_NOTICE}:{number}", held_photo_job, when,
                {"entry": number, "when": when.timestamp()})


async def schedule_held_photos(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Every photo held back still owed to the reviewers, as a job (at once if its moment
    passed while the bot was off)."""
    svc: Services = app.bot_data["services"]
    for number, when in await service.photos_owed(svc.day):
        schedule_held_photo(app, number, when)


async def held_photo_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """The entry's budget freed: its newest photo held back goes on to the reviewers as one
    forwarded does (caption, buttons), telling how many others were held back; nothing if a
    photo forwarded since told them. Checked and recorded with the photo it posts (the
    outbox sends it once committed)."""
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    svc = services(context)
    number = int(job.data["entry"])
    async with recording(svc):
        out = await service.forward_held(svc.day, number,
                                         datetime.fromtimestamp(job.data["when"], UTC))
        if isinstance(out, HeldPhotoLater):
            schedule_held_photo(context.application, number, out.due)
            return
        entry = await svc.store.entry(number) if out is not None else None
        if out is None or entry is None:
            return
        await _to_reviewers(context, svc, entry, out)


async def _photo_entry(update: Update, who: Caller, caption: str) -> Entry | None:
    """The entry a photo is about: the number in its caption ("12", "#12"), else the only
    self-timed entry the phone follows (of several, the only one with a claim waiting)."""
    followed = list(who.roles.entries)
    if not followed:
        await refuse_role(update, who, "participant")
        return None
    words = caption.split()
    # a caption naming the entry is just its number ("12", "#12"); any other is the
    # participant's own words ("500 pieces done!")
    typed = parse_int(words[0].lstrip("#")) if len(words) == 1 else None
    if typed is not None:
        chosen = next((e for e in followed if e.number == typed), None)
        if chosen is None:
            await answer_now(who.svc, update, not_followed(who.lang, words[0], followed))
        return chosen
    contest = who.svc.contest
    at_home = [e for e in followed if (c := contest.category(e.category)) is not None
               and (c.self_timed or any(h.play.self_timed for h in who.svc.day.heats.values()
                                        if h.category.id == c.id))]
    if len(at_home) > 1:
        waiting = [e for e in at_home if (s := await who.svc.day.state(e.number)) is not None
                   and s.ready is not None]
        at_home = waiting if len(waiting) == 1 else at_home
    if len(at_home) == 1:
        return at_home[0]
    if not at_home:
        await answer_now(who.svc, update, refusal(who.lang, service.NotSelfTimed(
            followed[0].number), contest))
        return None
    await answer_now(who.svc, update, texts.which_photo(who.lang, at_home))
    return None


async def review_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A reviewer's "another photo" or "no code in the photo" under a claim's photo; refused
    as the typed command is (role, a claim no longer waiting, pressed twice)."""
    data, who = await pressed(update, context)
    parts = data.removeprefix(REVIEW_BUTTON).split(":")
    number = parse_int(parts[1]) if len(parts) == 3 else None
    listo = parse_int(parts[2]) if len(parts) == 3 else None
    if who is None or number is None or listo is None or parts[0] not in ("again", "nocode"):
        return  # not a button of ours, or nobody the bot can serve
    if not who.roles.staff:
        await refuse_role(update, who, "volunteer")
        return
    work = Work(who.svc, Asker.of(update, who.user_id, who.lang))
    if parts[0] == "nocode":
        async with work:
            out = await service.reject(who.svc.day, who.user_id, role(who), number, "no_code",
                                       who.at, update.update_id, line=listo)
            await tell_not_finished(work, who.svc.day, out)
        return
    async with work:
        asked = await service.retake(who.svc.day, who.user_id, role(who), number, listo,
                                     who.at, update.update_id)
        if isinstance(asked, Refusal):
            await refuse(update, who, asked)
            return
        work.reply(partial(texts.retake_answer, out=asked))
        work.tell_entry(number, partial(texts.retake_notice, out=asked), skip_asker=False)
        # this photo is decided: the next one comes to the reviewers with its own buttons
        by = await person_name(who.svc, who.user_id)
        await settle_line(work, who.svc.day, number, listo,
                          partial(texts.retake_settled, by=by), now=True)


async def rechazar(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/rechazar N [reason]``: entry N's finish claimed at home is turned down, with the
    reason its people read (without one: the puzzle in the photo is not finished)."""
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    msg = update.effective_message
    words = ((msg.text or "") if msg is not None else "").split(maxsplit=2)[1:]
    number = parse_int(words[0]) if words else None
    if number is None:
        await show_usage(update, who, "/rechazar N [REASON]")
        return
    reason = clean_note(words[1])[:MAX_REASON] if len(words) == 2 else ""
    reason = reason or "not_done"  # nothing (or nothing but invisible characters) said
    work = Work(who.svc, Asker.of(update, who.user_id, who.lang))
    async with work:
        out = await service.reject(who.svc.day, who.user_id, role(who), number, reason, who.at,
                                   update.update_id)
        await tell_not_finished(work, who.svc.day, out)
