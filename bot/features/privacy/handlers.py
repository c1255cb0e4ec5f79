"""``/mis_datos``: what the bot keeps about the person asking (read only: nothing recorded)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.delivery.answers import answer_now
from bot.domain.events import REFUND, EventKind
from bot.features.privacy.texts import my_data_text
from bot.handlers.common import caller, registrations


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
        person["tg_language"] if person is not None else None, who.roles, entries))
