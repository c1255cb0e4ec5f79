"""The confirmation card's facts: what the people of an entry are told with its place when it
is taken, confirmed by a payment or by a place freed up (``texts.card_lines`` writes them)."""

from __future__ import annotations

from datetime import datetime

from bot.domain.contest import Category
from bot.features.registration.day import Card
from bot.features.registration.rules import outing, pay_by
from bot.features.tables.sheets import hall_seats
from bot.services.contest_day import ContestDay
from bot.storage.store import Entry


async def entry_card(day: ContestDay, number: int, at: datetime) -> Card | None:
    """Entry ``number``'s card at ``at`` (None: no such entry, or a category the contest no
    longer has)."""
    statuses = await day.registrations.statuses(at, [number])
    if not statuses:
        return None
    status = statuses[0]
    entry = status.entry
    category = day.contest.category(entry.category)
    if category is None:
        return None
    by = category.rounds[0].heats_by if category.rounds else None
    unpaid = status.paid_at is None and status.fee.total > 0
    return Card(entry, category, status.place,
                outing(day.contest, category, entry.answer(by) if by else None),
                status.fee.total, status.paid_at is not None,
                pay_by(day.contest, entry.registered_at)
                if unpaid and entry.source == "chat" else None,
                await table(day, entry, category))


async def table(day: ContestDay, entry: Entry, category: Category) -> int | None:
    """The entry's table once drawn: at the table of its own number (``seating =
    "numbers"``), or where the hall's tables put it once its category's clock has started
    (before that they move as entries come and go). None in a contest in rounds: a heat's
    tables are told when its lineup is (``bot.texts.rounds``)."""
    if category.rounds:
        return None
    if day.contest.seating == "numbers":
        return entry.number
    if (await day.clock(category.id)).started is None:
        return None
    return (await hall_seats(day)).get(entry.number)
