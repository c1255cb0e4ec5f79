"""Invitations to a next round: an entry answers with /acepto or /renuncio (or the buttons
under its invitation); a place given up, or not answered by its deadline (a named job per
deadline, rebuilt from the database at start), goes to the next in line, who is invited."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from functools import partial
from typing import Any

from telegram import Update
from telegram.ext import Application, CallbackContext, ContextTypes

import bot.features.invitations.day as invites
from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import notify_entry, notify_staff
from bot.delivery.services import Services, services
from bot.delivery.telegram_time import CaughtUp, TelegramTime
from bot.domain.rounds import Heat
from bot.features.invitations.day import Invited, Reminder, Replied
from bot.features.invitations.texts import (
    decline_buttons,
    decline_question,
    invitation_buttons,
    invitation_text,
    kept_text,
    lapsed_text,
    reminder_text,
    replied_text,
    staff_declined_text,
    staff_lapsed_text,
    unfollowed_text,
)
from bot.handlers.access import pick_entry
from bot.handlers.common import (
    DEADLINE_GRACE,
    Caller,
    buttons,
    caller,
    deadline_press,
    not_theirs,
    parse_int,
    pressed,
    replace_job,
)
from bot.services.outcomes import Refusal
from bot.support.wallclock import CLOCK
from bot.texts.common import refusal
from bot.texts.names import usage_text

App = Application[Any, Any, Any, Any, Any, Any]
log = logging.getLogger(__name__)


async def tell_invited(context: ContextTypes.DEFAULT_TYPE, invited: tuple[Invited, ...],
                       later: bool = False) -> None:
    """Each entry invited: its invitation, with the buttons to answer it."""
    contest = services(context).contest
    for inv in invited:
        await notify_entry(context, inv.entry, partial(invitation_text, contest=contest,
                                                       invited=inv, later=later),
                           keyboard=partial(invitation_buttons, number=inv.entry))


async def _whose(update: Update, who: Caller, args: list[str], command: str) -> int | None:
    """The entry answered for: one the person follows, or any one an organiser names."""
    if who.roles.organiser and (args or not who.roles.entries):
        number = parse_int(args[0]) if args else None
        if number is None:
            await answer_now(who.svc, update, usage_text(who.lang, f"/{command} N"))
        return number
    chosen, _ = await pick_entry(update, who, args, escape_only=False)
    return chosen.number if chosen is not None else None


async def acepto(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/acepto [N]``: the entry takes the place it was invited to."""
    who = await caller(update, context)
    if who is None:
        return
    number = await _whose(update, who, list(context.args or []), "acepto")
    if number is not None:
        await _reply(update, context, who, number, True, who.at)


async def renuncio(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/renuncio [N]``: asks whether the entry gives its place up (a button confirms)."""
    who = await caller(update, context)
    if who is None:
        return
    number = await _whose(update, who, list(context.args or []), "renuncio")
    if number is not None:
        await _ask_decline(update, who, number, who.at)


async def _may_answer(update: Update, who: Caller, number: int, at: datetime) -> Heat | None:
    """The heat entry ``number`` may still give its place up in (None: answered why not)."""
    checked = await invites.may_answer(who.svc.day, number, False, at)
    heat, refused = (None, checked) if isinstance(checked, Refusal) else checked
    if refused is not None:
        await answer_now(who.svc, update, refusal(who.lang, refused, who.svc.contest))
        return None
    return heat


async def _ask_decline(update: Update, who: Caller, number: int, at: datetime) -> None:
    heat = await _may_answer(update, who, number, at)
    if heat is not None:
        await answer_now(who.svc, update, decline_question(who.lang, who.svc.contest, number,
                                                              heat),
                         reply_markup=buttons(decline_buttons(who.lang, number)))


async def invite_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The buttons: ``invite:yes:N`` accepts, ``invite:no:N`` asks to confirm, ``invite:no!:N``
    gives the place up, ``invite:keep:N`` changes nothing."""
    data, who = await pressed(update, context)
    if who is None:
        return
    parts = data.split(":")
    number = parse_int(parts[2]) if len(parts) == 3 else None
    if number is None:
        return  # not a button of ours
    if not who.roles.organiser and number not in {e.number for e in who.roles.entries}:
        await not_theirs(update, who, number)
        return
    # stamped with the moment the message was shown (Telegram's date), never with the button's
    # data, or later (below); a press after the deadline meets the lapse recorded then, one
    # during the heat its clock's start
    at = deadline_press(update, context, await who.svc.day.linked_users(number))
    if at is None:
        return
    match parts[1]:
        case "no":
            await _ask_decline(update, who, number, at)
        case "keep":
            if await _may_answer(update, who, number, at) is not None:
                await answer_now(who.svc, update, kept_text(who.lang, number))
        case "yes" | "no!":
            await _reply(update, context, who, number, parts[1] == "yes", at)


async def _reply(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller, number: int,
                 yes: bool, at: datetime) -> None:
    svc = who.svc
    role = "participant" if number in {e.number for e in who.roles.entries} else "organiser"
    clock: TelegramTime | None = context.bot_data.get("telegram_time")
    told = clock.newest() if clock is not None else None  # Telegram's time now
    async with recording(svc):
        out = await invites.reply(svc.day, who.user_id, number, yes, at, update.update_id, role,
                                  told)
        if isinstance(out, Refusal):
            await answer_now(svc, update, refusal(who.lang, out, svc.contest))
            return
        await answer(svc, update, replied_text(who.lang, svc.contest, out))
        # the entry's other phones (and all of them when an organiser answered) hear it too
        await notify_entry(context, number, partial(replied_text, contest=svc.contest, out=out),
                           skip=who.user_id)
        if not out.yes:
            await _declined(context, svc, out)
    await schedule_invitations(context.application)


async def _declined(context: ContextTypes.DEFAULT_TYPE, svc: Services, out: Replied) -> None:
    who_is = {e.number: e.names for e in await svc.store.entries(out.heat.category.id)}
    unfollowed = await _unfollowed(svc, out.invited)
    await notify_staff(context, lambda lang: _lines(
        staff_declined_text(lang, svc.contest, out, who_is),
        unfollowed_text(lang, svc.contest, unfollowed, who_is)))
    await tell_invited(context, out.invited, later=True)


async def _unfollowed(svc: Services, invited: tuple[Invited, ...]) -> list[Invited]:
    """The entries invited that no phone follows: only the organisers can act for them."""
    return [i for i in invited if not await svc.day.linked_users(i.entry)]


def _lines(*texts: str) -> str:
    return "\n".join(t for t in texts if t)


# -- deadlines ----------------------------------------------------------------------------------


WAITING_FOR_UPDATES = "invitations due: deciding once the updates Telegram holds are handled"


async def schedule_invitations(app: App) -> None:
    """A job for each deadline still to come (``invite:<moment>``), decided ``DEADLINE_GRACE``
    after it; those already past (the bot was off) are decided once the updates that waited
    for the bot are handled."""
    svc: Services = app.bot_data["services"]
    now = CLOCK.now()
    for moment in await invites.deadlines(svc.day):
        when = max(moment, now)
        name = f"invite:{int(when.timestamp())}"
        replace_job(app, name, invitation_job, max(moment + DEADLINE_GRACE, now),
                    {"when": when.timestamp()})
    for moment in await invites.reminder_moments(svc.day, now):
        when = max(moment, now)
        replace_job(app, f"invite-remind:{int(when.timestamp())}", reminder_job, when,
                    {"when": when.timestamp()})


async def invitation_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """Invitations not answered by their deadline lapse; their places go to the next in line.
    Decided by the dates of what arrived: first every update Telegram held by now is handled
    (an answer dated in time is recorded as such), then what is still unanswered lapses."""
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    svc = services(context)
    moment = datetime.fromtimestamp(job.data["when"], UTC)
    caught_up: CaughtUp | None = context.bot_data.get("caught_up")
    if caught_up is not None:
        until = CLOCK.now()  # the job runs DEADLINE_GRACE after the deadline, or later
        if not caught_up.caught_up(until):
            log.info("%s: %s", WAITING_FOR_UPDATES, moment.isoformat())
            if not await caught_up.wait(until):
                return  # stopping: decided at the next start
    async with recording(svc):  # the lapses recorded with the messages they owe
        for out in await invites.lapse_due(svc.day, moment):
            who_is = {e.number: e.names for e in await svc.store.entries(out.category.id)}
            for number, heat in out.lapsed:
                await notify_entry(context, number, partial(lapsed_text, contest=svc.contest,
                                                            number=number, heat=heat))
            unfollowed = await _unfollowed(svc, out.invited)
            await notify_staff(context, partial(_lapsed_for_staff, svc=svc, out=out,
                                                who=who_is, unfollowed=unfollowed))
            await tell_invited(context, out.invited, later=True)
    await schedule_invitations(context.application)


def _lapsed_for_staff(lang: str, svc: Services, out: invites.LapsedPlaces,
                      who: dict[int, tuple[str, ...]], unfollowed: list[Invited]) -> str:
    return _lines(staff_lapsed_text(lang, svc.contest, out.lapsed, out.invited, who,
                                    out.unfilled),
                  unfollowed_text(lang, svc.contest, unfollowed, who))


async def reminder_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """Invitations still unanswered as their deadline nears are told again (once each), with
    their buttons; those no phone follows are named to the organisers, who can still act."""
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    svc = services(context)
    moment = datetime.fromtimestamp(job.data["when"], UTC)
    caught_up: CaughtUp | None = context.bot_data.get("caught_up")
    if caught_up is not None and not await caught_up.wait(CLOCK.now()):
        return  # stopping: reminded at the next start
    async with recording(svc):
        reminders = await invites.remind_due(svc.day, moment)
        for r in reminders:
            if r.followed:
                await notify_entry(context, r.entry, partial(
                    reminder_text, contest=svc.contest, reminder=r),
                    keyboard=partial(invitation_buttons, number=r.entry))
        silent: list[Reminder] = [r for r in reminders if not r.followed]
        if silent:
            who_is = {e.number: e.names for category in {r.heat.category.id for r in silent}
                      for e in await svc.store.entries(category)}
            await notify_staff(context, partial(unfollowed_text, contest=svc.contest,
                                                invited=silent, who=who_is))
    await schedule_invitations(context.application)
