"""A table card's code opened with ``/start`` (``follow_by_card``, called by /start's handler)
and the Allow / Refuse buttons under a request (``decision_button``)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.services import person_name
from bot.delivery.work import Asker, Work
from bot.features.door.day import on_its_day
from bot.features.door.operations import Arrive, arrive
from bot.features.door.settings import rules_of as door_rules
from bot.features.following.operations import (
    AskToFollow,
    Decide,
    ask_to_follow,
    decide,
    entry_of_card,
)
from bot.features.following.outcomes import Decided, FollowedAtOnce, decision_answer
from bot.features.following.rules import may_be_card, parse_button
from bot.handlers.common import Caller, button_moment, caller, owed_on_follow, remember
from bot.handlers.menus import refresh_menu
from bot.handlers.volunteers import role


async def follow_by_card(update: Update, context: ContextTypes.DEFAULT_TYPE, who: Caller,
                         code: str) -> bool:
    """``/start CODE`` where CODE is a table card's: the person asks to follow its entry.
    False: not a card's code (an entry's join code, say)."""
    entry = await entry_of_card(who.svc.day, code) if may_be_card(code) else None
    if entry is None:
        return False
    state = await who.svc.day.state(entry.number)
    unit = (state.unit or state.category.id) if state is not None else None
    if who.roles.staff and door_rules(who.svc.contest) is not None and unit is not None \
            and on_its_day(who.svc.day, unit, who.at):
        # a volunteer scanning the card at the door, on the day: the entry has come
        await arrive(Work(who.svc, Asker.of(update, who.user_id, who.lang)), who.svc.day,
                     Arrive(entry.number, who.user_id, role(who), who.at, update.update_id))
        return True
    await remember(update, context)  # to be told the answer, in their language
    user = update.effective_user
    name = user.full_name if user is not None and user.full_name else f"#{who.user_id}"
    out = await ask_to_follow(Work(who.svc, Asker.of(update, who.user_id, who.lang)),
                              who.svc.day, AskToFollow(entry, who.user_id, name, who.at,
                                                       update.update_id))
    if isinstance(out, FollowedAtOnce):
        await owed_on_follow(who.svc, who.user_id, out.entry.number, who.at)
        await refresh_menu(context, who.user_id)
    return True


async def decision_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Allow or Refuse pressed under a request: by one of the entry's phones or an organiser,
    stamped with the press."""
    query = update.callback_query
    assert query is not None and query.data is not None
    parsed = parse_button(query.data)
    who = await caller(update, context) if parsed is not None else None
    if parsed is None or who is None:
        await query.answer()
        return
    request, allow = parsed
    svc = who.svc
    out = await decide(Work(svc, Asker.of(update, who.user_id, who.lang)), svc.day,
                       Decide(request, allow, who.user_id, await person_name(svc, who.user_id),
                              who.roles.organiser, button_moment(update, context) or who.at,
                              update.update_id))
    await query.answer(decision_answer(who.lang, out) if isinstance(out, Decided) else None)
    if isinstance(out, Decided) and out.allowed:
        await owed_on_follow(svc, out.requester, out.entry.number,
                             button_moment(update, context) or who.at)
        await refresh_menu(context, out.requester)
