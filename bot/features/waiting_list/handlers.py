"""A place offered from the waiting list, in the chat: ``/aceptar_plaza [N]``
(``/accepter_place``, ``/accept_place``) and the offer's buttons (``offer:yes:N`` accepts;
``offer:no:N`` asks, as ``/baja`` does, whether to give the place up). An organiser may accept
for an entry no phone follows (``/aceptar_plaza N``). The deadlines' timers are the
registrations' (``bot/handlers/desk.py``: the offer told, its deadline decided), rebuilt at
every start (``start``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.delivery.work import Asker, Work
from bot.features.waiting_list.operations import Accept, accept
from bot.features.waiting_list.rules import rules_of
from bot.features.waiting_list.texts import no_waiting_list, not_offered_text
from bot.handlers.common import (
    Caller,
    already_handled,
    caller,
    deadline_press,
    not_theirs,
    parse_int,
    pressed,
)
from bot.handlers.desk import schedule_offers
from bot.handlers.entries import ask_withdraw, own_entry
from bot.texts.entries import which_entry_text


async def aceptar_plaza(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/aceptar_plaza [N]``: the place offered to one of the person's entries (the one
    offered, when N is not given), or, for an organiser, to entry N."""
    who = await caller(update, context)
    if who is None:
        return
    args = list(context.args or [])
    number = parse_int(args[0]) if args else None
    if who.roles.organiser and number is not None:
        role = "participant" if number in {e.number for e in who.roles.entries} else "organiser"
    else:
        found = await own_entry(update, who, args)
        if found is None:
            return
        entries, entry = found
        if rules_of(who.svc.contest) is not None:
            number = entry.number if entry is not None else await _the_one_offered(
                update, who, [e.number for e in entries])
        role = "participant"
    if rules_of(who.svc.contest) is None:
        await answer_now(who.svc, update, no_waiting_list(who.lang))
        return
    if number is None or await already_handled(update, who):
        return
    await _accept(update, who, number, role, who.at)


async def _the_one_offered(update: Update, who: Caller, numbers: list[int]) -> int | None:
    """The person's one entry offered a place (None once told there is none, or which)."""
    places = await who.svc.day.registrations.places(who.at)
    offered = [n for n in numbers if places[n].offered]
    if len(offered) == 1:
        return offered[0]
    if len(numbers) == 1:
        return numbers[0]  # told why it has none
    if not offered:
        await answer_now(who.svc, update, "\n".join(not_offered_text(who.lang, n)
                                                     for n in numbers))
        return None
    entries = [e for e in who.roles.entries if e.number in offered]
    await answer_now(who.svc, update, which_entry_text(who.lang, entries))
    return None


async def _accept(update: Update, who: Caller, number: int, role: str, at: datetime) -> None:
    name = update.effective_user.full_name if update.effective_user is not None else ""
    await accept(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                 Accept(number, who.user_id, role, name, at, update.update_id))


async def offer_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``offer:yes:N`` accepts the place offered to entry N, stamped as a deadline's answer
    is (``deadline_press``); ``offer:no:N`` asks whether to give it up (``/baja``'s
    question, with what it gives back)."""
    data, who = await pressed(update, context)
    if who is None:
        return
    parts = data.split(":")
    number = parse_int(parts[2]) if len(parts) == 3 else None
    if number is None or parts[1] not in ("yes", "no"):
        return  # not a button of ours
    entry = next((e for e in who.roles.entries if e.number == number), None)
    if entry is None:
        await not_theirs(update, who, number)
        return
    at = deadline_press(update, context, await who.svc.day.linked_users(number))
    if at is None:
        return
    if parts[1] == "no":
        await ask_withdraw(update, context, who, entry, at)
    elif not await already_handled(update, who):
        await _accept(update, who, number, "participant", at)


async def start(app: Any) -> None:
    await schedule_offers(app)

