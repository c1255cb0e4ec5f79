"""The door in the chat: ``/presente N`` (``/present``, ``/here``), ``/puerta [category]``
(``/porte``, ``/door``) and its buttons; the organisers' report of who has not come, a timer
per category or heat whose clock started, rebuilt from the database whenever the day's timers
are."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from functools import partial
from typing import Any

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]
from telegram import Update
from telegram.ext import Application, CallbackContext, ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.posting import keyboard_json, organiser_recipients
from bot.delivery.work import Asker, Work
from bot.domain.events import EventKind
from bot.features.door.day import doors
from bot.features.door.operations import Arrive, arrive
from bot.features.door.rules import BUTTON, report_key
from bot.features.door.settings import rules_of
from bot.features.door.texts import (
    absent_report,
    door_buttons,
    door_text,
    no_door,
    nothing_to_show,
    usage,
)
from bot.features.results.texts import did_not_start_rows
from bot.handlers.common import Caller, button_moment, parse_int, recorder, replace_job
from bot.handlers.volunteers import role
from bot.services.rounds import unit as unit_of
from bot.services.rounds import units

MOST_ASKED = 40  # "did not start" buttons under the organisers' report


async def _door_caller(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Caller | None:
    """A volunteer's or organiser's command of the door, where the contest checks people in
    (None once answered)."""
    who = await recorder(update, context, "volunteer")
    if who is not None and rules_of(who.svc.contest) is None:
        await answer_now(who.svc, update, no_door(who.lang))
        return None
    return who


async def presente(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await _door_caller(update, context)
    if who is None:
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if len(args) == 1 else None
    if number is None:
        await answer_now(who.svc, update, usage(who.lang))
        return
    await arrive(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                 Arrive(number, who.user_id, role(who), who.at, update.update_id))


async def puerta(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Who has not come yet, per category or heat (or the one named), each with a button."""
    who = await _door_caller(update, context)
    if who is None:
        return
    args = list(context.args or [])
    found = await doors(who.svc.day, args[0].lower() if args else None)
    if not args:  # the categories and heats someone holds a place in
        found = [d for d in found if d.expected] or found[:1]
    if not found:
        await answer_now(who.svc, update, nothing_to_show(who.lang))
        return
    for door in found:
        await answer_now(who.svc, update, door_text(who.lang, who.svc.contest, door),
                         reply_markup=keyboard_json(partial(_rows, door_buttons(door)),
                                                    who.lang))


async def door_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A tap on /puerta's list: that entry has come, at the moment the tap counts."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    number = parse_int(query.data.removeprefix(BUTTON))
    if number is None:
        return  # not a button of ours
    who = await _door_caller(update, context)
    if who is None:
        return
    at = button_moment(update, context)
    if at is None:
        return
    await arrive(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                 Arrive(number, who.user_id, role(who), at, update.update_id))


# -- the organisers' report of who has not come ---------------------------------------------


async def schedule_reports(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """A report owed for each category or heat whose clock started, at its start plus
    ``absent_after_minutes`` of contest time (at once when that passed while the bot was off);
    none once sent, and none while a pause holds the clock before that moment (scheduled
    again when the clock resumes)."""
    svc = app.bot_data["services"]
    rules = rules_of(svc.contest)
    if rules is None or not rules.absent_after:
        return
    sent = {e.ref for e in await svc.store.events(kinds=[EventKind.ALERT])}
    for u in await units(svc.day):
        key = report_key(u.id)
        moment = await _report_moment(svc, u.id, rules.absent_after)
        if moment is None or key in sent:
            _drop(app, key)
            continue
        replace_job(app, key, report_job, moment, {"unit": u.id, "when": moment.timestamp()})


async def _report_moment(svc: Any, unit_id: str, minutes: int) -> datetime | None:
    """When ``minutes`` of contest time have run on the clock of a category or heat (None: not
    started, or a pause still open before then)."""
    clock = await svc.day.clock(unit_id)
    return clock.instant_at(minutes * 60) if clock.started is not None else None


def _drop(app: Application[Any, Any, Any, Any, Any, Any], name: str) -> None:
    """The timer of that name, if any, taken off (its moment no longer holds)."""
    job = app.bot_data.get("jobs_by_name", {}).get(name)
    if job is not None and not job.removed:
        with contextlib.suppress(JobLookupError):
            job.schedule_removal()


async def report_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """Tell each organiser who has not come, with a "did not start" button for each (once: the
    report is recorded with the messages it owes)."""
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    svc = context.application.bot_data["services"]
    rules = rules_of(svc.contest)
    unit_id = str(job.data["unit"])
    moment = datetime.fromtimestamp(job.data["when"], UTC)
    if rules is None or await unit_of(svc.day, unit_id) is None:
        return
    if await _report_moment(svc, unit_id, rules.absent_after) != moment:
        return  # a pause moved it: the timer of its new moment tells
    work = Work(svc)
    async with work as tx:
        if await tx.has_ref(EventKind.ALERT, report_key(unit_id)):
            return
        await tx.add_event(at=moment, kind=EventKind.ALERT, role="system", category=unit_id,
                           ref=report_key(unit_id))
        door = next(iter(await doors(svc.day, unit_id)), None)
        if door is None or not door.missing:
            return
        numbers = [e.number for e in door.missing]
        for user_id, _lang in await organiser_recipients(svc):
            work.tell(user_id, partial(absent_report, contest=svc.contest, door=door,
                                       minutes=rules.absent_after),
                      keyboard=partial(did_not_start_rows, numbers=numbers, most=MOST_ASKED))


def _rows(rows: list[list[tuple[str, str]]], _lang: str) -> list[list[tuple[str, str]]]:
    return rows
