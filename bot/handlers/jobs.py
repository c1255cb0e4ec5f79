"""Timers, rebuilt from the database: cooldown notices and the escape handover.

Every job is named after what it announces (``cooldown:12:1500``, ``handover:parejas``), so it
can be replaced when the clock moves (a pause) and never runs twice; before sending, the job asks
the database whether the announcement is still owed, and records it once sent.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from functools import partial
from typing import Any

from telegram.ext import Application, CallbackContext, ContextTypes

from bot.delivery.answers import recording
from bot.delivery.items import MOST_BUTTONS
from bot.delivery.posting import notify_entry, notify_staff, post_text, send
from bot.delivery.services import Services, language_of, services
from bot.domain.clock import ALERTS, wall_clock_limit
from bot.domain.events import EventKind
from bot.domain.places import Status
from bot.features.escape import play as escape_play
from bot.features.escape.texts import cooldown_over
from bot.features.invitations.handlers import schedule_invitations
from bot.features.registration.card import entry_card
from bot.features.registration.day import Registrations
from bot.features.registration.rules import pay_reminder_at, pay_reminder_key
from bot.features.registration.texts import pay_reminder_text
from bot.features.selftimed.day import session_of
from bot.features.selftimed.handlers import schedule_held_photos
from bot.features.tables.sheets import hall_seats
from bot.handlers.claims import claim_row
from bot.handlers.common import LATE_IS_STILL_OWED, caught_up_to, replace_job
from bot.handlers.desk import announce_changes, closing_report, closing_soon_report
from bot.services import clocks as clock_ops
from bot.services.rounds import unit, units
from bot.services.state import EntryState
from bot.storage.store import PRIORITY_BULK
from bot.support.registry import REGISTRY
from bot.support.wallclock import CLOCK
from bot.texts.alerts import (
    break_text,
    by_table,
    handover_buttons,
    handover_entry_text,
    handover_staff_text,
    results_now_text,
    time_alert_text,
    time_up_at_home,
)

log = logging.getLogger(__name__)


_replace = replace_job


def schedule_notice(context: ContextTypes.DEFAULT_TYPE, entry: int, key: str,
                    when: datetime) -> None:
    _replace(context.application, key, cooldown_job, when, {"entry": entry, "key": key,
                                                             "when": when.timestamp()})


async def schedule_contest_jobs(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """(Re)schedule every owed notice, handover and photo held back from the database."""

    svc: Services = app.bot_data["services"]
    for entry, key, _secs, moment in await clock_ops.pending_notices(svc.day):
        _replace(app, key, cooldown_job, moment, {"entry": entry, "key": key,
                                                   "when": moment.timestamp()})
    for category, moment in await clock_ops.handover_moments(svc.day):
        _replace(app, f"handover:{category}", handover_job, moment,
                 {"category": category, "when": moment.timestamp()})
    await schedule_held_photos(app)
    for name, moment, data in await alert_moments(svc):
        _replace(app, name, alert_job, moment, {**data, "name": name,
                                                "when": moment.timestamp()})
    regs = app.bot_data.get("registrations")
    if regs is not None:
        closes = svc.contest.registration.closes
        for name, moment in regs.moments():
            if name == "closing-soon" and closes is not None and CLOCK.now() >= closes:
                continue  # the list before the closing is no use after it
            # a moment already past runs at once: whatever was not announced then still is
            _replace(app, name, registration_job, moment,
                     {"name": name, "when": moment.timestamp()})
        await schedule_lapses(app)
    await schedule_invitations(app)
    for feature in REGISTRY.features:
        if feature.timers is not None:
            await feature.timers(app)


# -- clock jumps --------------------------------------------------------------------------------

CLOCK_WATCH_SECONDS = 30.0  # how often the system clock is compared with the monotonic one
CLOCK_JUMP_SECONDS = 5.0  # a difference this large is a jump (NTP, a hand set clock, a resume)
CLOCK_WATCH = "clock-watch"


def clock_offset() -> float:
    """The system clock minus the monotonic one: constant while nobody sets the clock."""
    return time.time() - time.monotonic()


def watch_the_clock(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Every ``CLOCK_WATCH_SECONDS``, look whether the system clock jumped. The scheduler sleeps
    in monotonic time towards moments of the old clock: after a jump, every timer is worked
    out again from the database (``schedule_contest_jobs``), not from its memory."""
    jq = app.job_queue
    assert jq is not None, "python-telegram-bot[job-queue] is required"
    jq.run_repeating(clock_watch_job, interval=CLOCK_WATCH_SECONDS, name=CLOCK_WATCH,
                     data={"offset": clock_offset()}, job_kwargs=LATE_IS_STILL_OWED)


async def clock_watch_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    now = clock_offset()
    jump = now - float(job.data["offset"])
    job.data["offset"] = now
    if abs(jump) >= CLOCK_JUMP_SECONDS:
        log.warning("the system clock jumped by %+.0f s: the timers are worked out again from "
                    "the database", jump)
        await schedule_contest_jobs(context.application)


async def cooldown_job(context: CallbackContext[Any, Any, Any, Any]) -> None:

    job = context.job
    assert job is not None and isinstance(job.data, dict)
    svc = services(context)
    key, entry = str(job.data["key"]), int(job.data["entry"])
    minutes = round(svc.contest.escape.cooldown / 60) if svc.contest.escape else 0
    async with recording(svc):  # the notice recorded and owed together (the outbox sends it)
        if not await clock_ops.notice_due(svc.day, key):
            return
        await notify_entry(context, entry,
                           lambda lang: cooldown_over(lang, entry, minutes))
        await clock_ops.record_notice(svc.day, key, entry,
                                      datetime.fromtimestamp(job.data["when"], UTC))


async def handover_job(context: CallbackContext[Any, Any, Any, Any]) -> None:

    job = context.job
    assert job is not None and isinstance(job.data, dict)
    svc = services(context)
    category_id = str(job.data["category"])
    category = svc.contest.category(category_id)
    if category is None or not any(c == category_id for c, _ in
                                   await clock_ops.handover_moments(svc.day)):
        return
    # in the order a volunteer walks the hall (by table), each line with its table
    tables = await hall_seats(svc.day) if not category.rounds else {}
    unsolved = by_table(await clock_ops.unsolved(svc.day, category), tables)
    limit = svc.contest.escape.time_limit if svc.contest.escape else 0

    async with recording(svc):  # recorded with the messages it owes (the outbox sends them)
        if not await clock_ops.record_handover(svc.day, category_id,
                                               datetime.fromtimestamp(job.data["when"], UTC)):
            return
        rules = svc.contest.escape
        if rules is not None and rules.in_chat:  # every stage known: nothing to confirm
            await escape_play.handover(svc, category, unsolved, tables, limit)
            log.info("handover sent for %s (%d unsolved)", category_id, len(unsolved))
            return
        stages = svc.contest.escape.stages if svc.contest.escape else 0
        await notify_staff(context,
                           lambda lang: handover_staff_text(lang, limit, category, unsolved,
                                                            tables),
                           keyboard=lambda _lang: handover_buttons(stages, unsolved))
        for s in unsolved:
            await notify_entry(context, s.entry.number, handover_entry_text)
    log.info("handover sent for %s (%d unsolved)", category_id, len(unsolved))


ALERT_WINDOW = 5 * 60  # an alert more than this late (the bot was off) is not sent any more


async def alert_moments(svc: Any) -> list[tuple[str, datetime, dict[str, Any]]]:
    """Clock alerts still owed: 15 and 5 minutes before time's up and at time's up for each
    running category; the configured breaks' start and end; the results announcement."""
    contest = svc.contest
    sent = {e.ref for e in await svc.store.events(kinds=[EventKind.ALERT])}
    now = CLOCK.now()
    out: list[tuple[str, datetime, dict[str, Any]]] = []
    running = False
    for cat in await units(svc.day):  # the categories, and the heats of their rounds
        clock = await svc.day.clock(cat.id)
        if clock.started is None:
            continue
        running = True
        for before, key in ALERTS:
            name = f"alert:{cat.id}:{key}"
            limit = wall_clock_limit(cat.time_limit, clock, contest.timezone)
            moment = clock.instant_at(max(0, limit - before))
            if name not in sent and moment is not None and \
                    (now - moment).total_seconds() < ALERT_WINDOW:
                out.append((name, moment, {"category": cat.id, "minutes": int(key)}))
    if running:
        for i, b in enumerate(contest.breaks):
            for edge, moment in (("start", b.start), ("end", b.end)):
                name = f"break:{i}:{edge}"
                if name not in sent and (now - moment).total_seconds() < ALERT_WINDOW:
                    out.append((name, moment, {"break": i, "edge": edge}))
        if contest.results_at is not None and "results" not in sent and \
                (now - contest.results_at).total_seconds() < ALERT_WINDOW:
            out.append(("results", contest.results_at, {}))
    return out


async def _still_playing(svc: Services, state: EntryState, time_up: bool) -> bool:
    """Whether a clock alert is for the entry: not finished nor out; at time's up at home,
    no claim waiting and, where each entry starts each puzzle itself, a puzzle running (the
    photo of it is asked; with none, nothing is to count)."""
    if state.finish is not None or state.outcome is not None:
        return False
    if not (time_up and state.category.self_timed):
        return True
    return state.ready is None and (not state.category.own_start
                                    or await session_of(svc.day, state) is not None)


async def alert_job(context: CallbackContext[Any, Any, Any, Any]) -> None:

    job = context.job
    assert job is not None and isinstance(job.data, dict)
    data: dict[str, Any] = job.data
    svc = services(context)
    name = str(data["name"])
    contest = svc.contest
    category = await unit(svc.day, str(data.get("category", "")))
    heat = svc.day.heats.get(category.id) if category is not None else None

    def text(lang: str) -> str:
        if category is not None:
            return time_alert_text(lang, contest, category, heat, int(data["minutes"]))
        if "break" in data:
            return break_text(lang, contest, contest.breaks[int(data["break"])],
                              str(data["edge"]))
        return results_now_text(lang)

    users: set[int] = set()
    playing: list[int] = []  # the entries whose pieces are to count at time's up
    if category is not None:
        for state in await svc.day.states(category, datetime.fromtimestamp(data["when"], UTC)):
            if await _still_playing(svc, state, int(data["minutes"]) == 0):
                playing.append(state.entry.number)
                users.update(await svc.day.linked_users(state.entry.number))
    else:
        users.update(await svc.day.participants())
    async with recording(svc) as tx:  # recorded with the messages it owes
        if await tx.has_ref(EventKind.ALERT, name):
            return
        event = await tx.add_event(at=datetime.fromtimestamp(data["when"], UTC),
                                   kind=EventKind.ALERT, role="system",
                                   category=category.id if category else None, ref=name)
        for user_id in sorted(users):
            await send(context, user_id, text(await language_of(svc, user_id)))
        time_up = category is not None and int(data["minutes"]) == 0 and bool(playing)
        if category is not None and category.self_timed and int(data["minutes"]) == 0:
            # at home nobody walks to a table: the participants' photos come to the reviewers
            await notify_staff(context, partial(time_up_at_home, contest=contest,
                                                category=category, heat=heat))
            return
        await notify_staff(context, text, keyboard=(
            lambda lang: counting_buttons(lang, playing, event)) if time_up else None)


# buttons in a row of the time's-up line ("#12 I'm going" fits three to a phone's width)
COUNTING_PER_ROW = 3


def counting_buttons(lang: str, entries: list[int], event_id: int) -> list[list[tuple[str, str]]]:
    """Under the volunteers' time's-up line: "#N I'm going" for each entry whose pieces are to
    count (a volunteer takes a table; the others see who went where), up to the 100 buttons
    Telegram takes under a message (the rest are counted without one)."""
    buttons = [button for n in entries[:MOST_BUTTONS] for button in claim_row(lang, n, event_id)]
    return [buttons[i:i + COUNTING_PER_ROW] for i in range(0, len(buttons), COUNTING_PER_ROW)]


# -- registrations: quotas released, the closing, lapses ------------------------------------


async def registration_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """A reserved quota is released, registrations close or an entry lapses for want of
    payment: places may change by themselves."""
    # places as the history stands at its moment, with every message Telegram dated before it
    # (a registration or payment still on its way) read first
    moment = await caught_up_to(context)
    if moment is None:
        return  # stopping: announced at the next start
    await announce_changes(context.application, moment)
    assert context.job is not None and isinstance(context.job.data, dict)
    if context.job.data["name"] == "closing":
        await closing_report(context.application, moment)
    elif context.job.data["name"] == "closing-soon":
        await closing_soon_report(context.application, moment)


def _lapse_job(app: Application[Any, Any, Any, Any, Any, Any], number: int,
               moment: datetime) -> None:
    name = f"lapse:{number}"
    replace_job(app, name, registration_job, moment, {"name": name, "when": moment.timestamp()})


async def schedule_lapse(app: Application[Any, Any, Any, Any, Any, Any], number: int) -> None:
    """The moment entry ``number`` lapses unless paid (``pay_within``), as a job; and the
    reminder to pay before it."""
    regs: Registrations = app.bot_data["registrations"]
    moment = await regs.lapse_of(number)
    if moment is not None:
        _lapse_job(app, number, moment)
        await _pay_reminder_job(app, regs, number, moment, CLOCK.now())


async def _pay_reminder_job(app: Application[Any, Any, Any, Any, Any, Any],
                            regs: Registrations, number: int, lapses: datetime,
                            now: datetime) -> None:
    """Entry ``number``'s reminder to pay before it lapses at ``lapses``, as a job (at once
    when its moment passed while the bot was off and the lapse has not come)."""
    delay = regs.contest.registration.pay_within
    moment = pay_reminder_at(lapses, delay) if delay is not None else None
    if moment is None or lapses <= now:
        return
    key = pay_reminder_key(number, lapses)
    if await regs.store.has_ref(EventKind.NOTICE, key):
        return
    when = max(moment, now)
    replace_job(app, f"pay-remind:{number}", pay_reminder_job, when,
                {"number": number, "lapses": lapses.timestamp(), "when": when.timestamp()})


async def pay_reminder_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """An entry still unpaid a day before it lapses is told again what it owes, how and by
    when (once: a notice records it, in the transaction that owes the message)."""
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    number = int(job.data["number"])
    lapses = datetime.fromtimestamp(job.data["lapses"], UTC)
    regs: Registrations = context.application.bot_data["registrations"]
    svc: Services = context.application.bot_data["services"]
    now = datetime.fromtimestamp(job.data["when"], UTC)  # its moment (or the start's)
    if await regs.lapse_of(number) != lapses or lapses <= now:
        return  # paid (or withdrawn) since, or too late to say
    card = await entry_card(svc.day, number, now)
    if card is None or card.paid or card.total == 0 or card.place.status is Status.DECLINED:
        return
    key = pay_reminder_key(number, lapses)
    async with recording(svc) as tx:
        if await tx.has_ref(EventKind.NOTICE, key):
            return
        await tx.add_event(at=now, kind=EventKind.NOTICE, role="system", entry=number, ref=key)
        for user_id in await regs.recipients(number):
            lang = await language_of(svc, user_id)
            await post_text(svc, user_id, pay_reminder_text(lang, svc.contest, number, card),
                            PRIORITY_BULK)


async def schedule_lapses(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Every lapse still to come is a job at its moment. Those already past (the bot was off)
    are announced once, now: run at their own moments, one after the other, they would tell
    people places they have had since, out of order."""
    regs: Registrations | None = app.bot_data.get("registrations")
    if regs is None:
        return
    now = CLOCK.now()
    past = False
    for number, moment in await regs.lapse_moments():
        if moment > now:
            _lapse_job(app, number, moment)
            await _pay_reminder_job(app, regs, number, moment, now)
        else:
            past = True
    if past:
        replace_job(app, "lapses", registration_job, now,
                    {"name": "lapses", "when": now.timestamp()})
