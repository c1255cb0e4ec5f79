"""History: volunteers and organisers take their own last record back (/deshacer) and read an
entry's history (/historial)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer, answer_now, recording
from bot.delivery.posting import notify_entry
from bot.domain.clock import CategoryClock
from bot.domain.events import CLOCK_KINDS, EventKind
from bot.features.standings.handlers import noting_final
from bot.handlers.common import (
    Callback,
    Caller,
    answered_question,
    button_moment,
    buttons,
    parse_int,
    recorder,
    show_usage,
)
from bot.handlers.jobs import schedule_contest_jobs
from bot.handlers.volunteers import refuse, role
from bot.services import history
from bot.services.outcomes import Refusal, UnknownEntry
from bot.services.state import moment_seconds
from bot.storage.store import Event
from bot.support.registry import REGISTRY
from bot.texts.history import (
    history_text,
    keep_record_button,
    nothing_taken_back,
    told,
    undo_answer,
    undo_button,
    undo_notice,
    undo_question,
)

UNDO_BUTTON = "undo:"  # the /deshacer question's buttons: undo:EVENT_ID, undo:- (keep it)


async def deshacer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Names what would be taken back and asks (nothing changes until a button is pressed)."""
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    last = await history.to_undo(who.svc.day, who.user_id, role(who))
    if isinstance(last, Refusal):
        await refuse(update, who, last)
        return
    await answer_now(who.svc, update, undo_question(who.lang, who.svc.contest, last),
                     reply_markup=buttons([[(undo_button(who.lang), f"{UNDO_BUTTON}{last.id}"),
                                            (keep_record_button(who.lang), f"{UNDO_BUTTON}-")]]))


async def undo_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The /deshacer question answered: the record it named taken back (if it is still the
    presser's last one), and the entry's people told if they were told of it."""
    pressed = await answered_question(update, context, UNDO_BUTTON, "volunteer")
    if pressed is None:
        return
    expected, who = pressed
    if expected is None:
        await answer_now(who.svc, update, nothing_taken_back(who.lang))
        return
    at = button_moment(update, context)
    if at is None:
        return
    async with recording(who.svc):
        out = await history.undo(who.svc.day, who.user_id, role(who), at, update.update_id,
                                 expected=expected)
        if isinstance(out, Refusal):
            await refuse(update, who, out)
            return
        ev = out.event
        await answer(who.svc, update, await noting_final(who, ev.entry,
                                                         undo_answer(who.lang, out)))
        if told(ev.kind) and ev.entry is not None:
            # the entry's people were told of it: they are told it is gone
            entry = await who.svc.store.entry(ev.entry)
            category = who.svc.contest.category(entry.category) if entry is not None else None
            await notify_entry(context, ev.entry, partial(
                undo_notice, contest=who.svc.contest, out=out,
                at_home=category is not None and category.self_timed))
        for feature in REGISTRY.features:  # what a feature owes the entry's phones now
            if feature.on_undo is not None:
                await feature.on_undo(who.svc, ev, at)
    if ev.kind in CLOCK_KINDS:
        await schedule_contest_jobs(context.application)


async def historial(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await recorder(update, context, "volunteer")
    if who is None:
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if len(args) == 1 else None
    if number is None:
        await show_usage(update, who, "/historial N")
        return
    events = await history.history(who.svc.day, number)
    if events is None:
        await refuse(update, who, UnknownEntry(number))
        return
    alive = await who.svc.store.effective_ids()
    people = await _people(who, events)
    times = await _event_times(who, number, events)
    state = await who.svc.day.state(number)
    await answer_now(who.svc, update, history_text(
        who.lang, who.svc.contest, number, events, alive, people, times,
        state.competitor() if state is not None else None))


async def _people(who: Caller, events: Sequence[Event]) -> dict[int, str]:
    """The name of each person who recorded one of ``events`` (their id without one)."""
    people = {}
    for e in events:
        if e.actor is not None and e.actor not in people:
            row = await who.svc.store.person(e.actor)
            people[e.actor] = (row["name"] if row is not None and row["name"] else str(e.actor))
    return people


_AT_MOMENT = (EventKind.FINISH, EventKind.ESCAPE, EventKind.READY, EventKind.SPLIT)


async def _event_times(who: Caller, number: int, events: Sequence[Event]
                       ) -> dict[int, int | None]:
    """The contest time each event of entry ``number`` stands for."""
    entry = await who.svc.store.entry(number)
    assert entry is not None
    clocks: dict[str | None, CategoryClock] = {None: await who.svc.day.clock(entry.category)}
    for e in events:  # in rounds, each result is on its heat's clock
        if e.category is not None and e.category not in clocks:
            clocks[e.category] = await who.svc.day.clock(e.category)
    return {e.id: moment_seconds(e, clocks[e.category]) if e.kind in _AT_MOMENT
            else clocks[e.category].elapsed(e.at) for e in events}



# the commands this feature answers (bot/chat/app.py registers every feature's)
COMMANDS: dict[str, Callback] = {
    "deshacer": deshacer,
    "historial": historial,
}
