"""What the bot keeps about people, in the chat:

- ``/mis_datos`` (``/mes_donnees``, ``/my_data``): what it keeps about the person asking
  (read only), and when the contest's retention removes it.
- ``/conservar_datos [N] [no]`` (``/garder_donnees``, ``/keep_data``): the entry's people agree
  to keep its births for the ratings across contests when the rest is removed (or take it
  back).
- ``/borrar_datos N`` (``/effacer_donnees``, ``/erase_data``): an organiser erases an entry's
  data on request, asked first what goes and what stays (``erase:y:N`` / ``erase:n:N``).
- The retention's timer (``[privacy] keep_days``): set at every start, run at its moment (at
  once when it passed while the bot was off)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from telegram import Update
from telegram.ext import CallbackContext, ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.domain.events import ENTRY_KINDS, REFUND, EventKind
from bot.features.privacy.operations import (
    Erase,
    KeepBirths,
    consent,
    erase,
    purge,
)
from bot.features.privacy.outcomes import RemovedAlready, answer
from bot.features.privacy.rules import (
    BUTTON,
    CONSENT,
    PURGE,
    RETENTION,
    consented,
    removal_at,
    rules_of,
)
from bot.features.privacy.texts import (
    erase_kept,
    erase_question,
    erase_usage,
    keep_usage,
    my_data_text,
    no_retention,
    removal_line,
)
from bot.handlers.common import (
    Caller,
    already_handled,
    button_moment,
    buttons,
    caller,
    caught_up_to,
    not_theirs,
    parse_int,
    pressed,
    recorder,
    registrations,
    replace_job,
)
from bot.handlers.entries import own_entry
from bot.support.wallclock import CLOCK
from bot.texts.entries import which_entry_text


async def mis_datos(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    person = await who.svc.store.person(who.user_id)
    name = str(person["name"]) if person is not None else ""
    if not name and update.effective_user is not None:
        name = update.effective_user.full_name
    numbers = [e.number for e in who.roles.entries]
    entries = []
    for s in await registrations(context).statuses(who.at, numbers):
        paid = [e for e in await who.svc.store.events(entry=s.entry.number,
                                                      kinds=[EventKind.PAYMENT, REFUND])]
        entries.append((s, s.entry.source == "chat" and s.entry.registered_by == who.user_id,
                        paid))
    await answer_now(who.svc, update, my_data_text(
        who.lang, who.svc.contest, name, person["language"] if person is not None else None,
        person["tg_language"] if person is not None else None, who.roles, entries,
        await _removal(who, numbers)))


async def _removal(who: Caller, numbers: list[int]) -> str:
    rules = rules_of(who.svc.contest)
    if rules is None or not numbers or await who.svc.store.has_ref(PURGE, RETENTION):
        return ""
    agreed = consented([(e.entry, e.value or 0) for e in await who.svc.store.events(
        kinds=[CONSENT]) if e.entry is not None])
    return removal_line(who.lang, who.svc.contest, removal_at(who.svc.contest, rules),
                        [n for n in numbers if n in agreed])


async def conservar_datos(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    who = await caller(update, context)
    if who is None:
        return
    args = list(context.args or [])
    keep = not (args and args[-1].lower() in ("no", "non", "nein", "não", "nee"))
    if not keep:
        args = args[:-1]
    found = await own_entry(update, who, args)
    if found is None:
        return
    entries, entry = found
    if rules_of(who.svc.contest) is None:
        await answer_now(who.svc, update, no_retention(who.lang))
        return
    if len(args) > 1:
        await answer_now(who.svc, update, keep_usage(who.lang))
        return
    if await who.svc.store.has_ref(PURGE, RETENTION):  # kept nothing: said, nothing recorded
        await answer_now(who.svc, update, answer(who.lang, RemovedAlready(), who.svc.contest))
        return
    if entry is None and len(entries) > 1:
        await answer_now(who.svc, update, which_entry_text(who.lang, entries))
        return
    number = (entry or entries[0]).number
    if await already_handled(update, who):
        return
    await consent(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                  KeepBirths(number, keep, who.user_id, who.at, update.update_id))


async def borrar_datos(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Asks first: what erasing the entry's data takes away and keeps."""
    who = await recorder(update, context, "organiser")
    if who is None:
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if len(args) == 1 else None
    if number is None:
        await answer_now(who.svc, update, erase_usage(who.lang))
        return
    entry = await who.svc.store.entry(number)
    if entry is None:
        await _erase(update, who, number, who.at)  # its answer says there is none
        return
    played = bool(await who.svc.store.events(entry=number, kinds=ENTRY_KINDS))
    question, yes, no = erase_question(who.lang, number, entry.names, played)
    await answer_now(who.svc, update, question, reply_markup=buttons([[
        (yes, f"{BUTTON}:y:{number}"), (no, f"{BUTTON}:n:{number}")]]))


async def erase_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    data, who = await pressed(update, context)
    if who is None:
        return
    parts = data.split(":")
    number = parse_int(parts[2]) if len(parts) == 3 else None
    if number is None or parts[1] not in ("y", "n"):
        return  # not a button of ours
    if not who.roles.organiser:
        await not_theirs(update, who, number)
        return
    if parts[1] == "n":
        await answer_now(who.svc, update, erase_kept(who.lang, number))
        return
    at = button_moment(update, context)
    if at is None or await already_handled(update, who):
        return
    await _erase(update, who, number, at)


async def _erase(update: Update, who: Caller, number: int, at: datetime) -> None:
    await erase(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                Erase(number, who.user_id, at, update.update_id))


# -- the retention's timer ---------------------------------------------------------------------

PURGE_JOB = "privacy-purge"


async def schedule_purge(app: Any) -> None:
    """At every start: the contest's retention, at its moment (at once when it passed while
    the bot was off), unless it ran already."""
    svc = app.bot_data["services"]
    rules = rules_of(svc.contest)
    if rules is None or await svc.store.has_ref(PURGE, RETENTION):
        return
    when = max(removal_at(svc.contest, rules), CLOCK.now())
    replace_job(app, PURGE_JOB, purge_job, when, {"when": when.timestamp()})


async def purge_job(context: CallbackContext[Any, Any, Any, Any]) -> None:
    moment = await caught_up_to(context)
    if moment is None:
        return  # stopping: at the next start
    svc = context.application.bot_data["services"]
    await purge(Work(svc), svc.day, moment)
